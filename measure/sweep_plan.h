/* sweep_plan.h - pure-C planning for the tensor, CUDA-core and shared-memory
 * benches: input data patterns per operand type, the self-addressing
 * layouts that turn ldmatrix and ld.shared into dependent chains, bank
 * conflict addresses, and the number decoders the CPU references use.
 * Lives in gc_measure (libc only) so tests/test_forms.c checks it on the CPU.
 */
#ifndef GC_SWEEP_PLAN_H
#define GC_SWEEP_PLAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- data patterns ---- */

/* Fill w[0..n) with operands of `type` (f16, bf16, tf32, f32, f64, e4m3,
 * e5m2, s8, u8, s4, b1): zero (rand = 0) or random (rand = 1, from seed).
 * Random floating-point values have random signs and mantissas and
 * magnitudes in [1/16, 1/2), so a chain of 2^14 steps accumulating them
 * (k <= 16 products per step) stays far from the f16 overflow and no input
 * is a subnormal, an infinity or a NaN; integer and binary types take every
 * bit pattern. Returns -1 for an unknown type, else 0. */
int gc_sweep_fill(uint32_t *w, size_t n, const char *type, int rand, uint64_t seed);

/* IEEE binary16 / bfloat16 bits to float (exact). */
float gc_half_to_float(uint16_t h);
float gc_bf16_to_float(uint16_t h);

/* ---- ldmatrix: a chase whose loaded value is the next address ---- */

/* Rows of the ldmatrix region: 8 per matrix (num = 1, 2, 4); each row is
 * 16 bytes and row r sits at byte offset 16*r of the region. */
int gc_ldsm_rows(int num);

/* The 16-bit contents of the region, rows*8 halves, for ldmatrix .x<num>
 * (.trans when trans): fills half[] with descriptors d = (offset << 1) |
 * part, meaning "bits [16*part, 16*part+16) of (region base + offset)". The
 * device writes them with its own base address. Thread t of a warp then
 * loads, in every destination register, the address of row
 * gc_ldsm_target(num, t): the next ldmatrix uses it directly, with no
 * instruction between two loads. */
void gc_ldsm_layout(int num, int trans, uint32_t *half);
int gc_ldsm_target(int num, int t); /* row whose address thread t loads */

/* The register value thread t (0..31) receives in destination j (0..num-1)
 * of `ldmatrix.sync.aligned.m8n8.x<num>[.trans].shared.b16`, given the 16-bit
 * contents of the region (rows*8 halves, row r at halves [8r, 8r+8)) and
 * that each thread t < 8*num supplies row t's address. A CPU model of the
 * PTX ISA's fragment definition, used by the tests to prove the layout. */
uint32_t gc_ldsm_model(int num, int trans, const uint16_t *half, int t, int j);

/* ---- ld.shared with bank conflicts ---- */

/* Byte offset thread t reads for an access of `width` bytes (4, 8, 16) with
 * a `ways`-way conflict (1..32): thread t reads chunk t/ways of row
 * t%ways, rows GC_SMEM_ROW_BYTES apart, so `ways` threads hit the same
 * banks at different addresses. */
#define GC_SMEM_ROW_BYTES 512
uint32_t gc_smem_offset(int width, int ways, int t);
/* Bytes the region needs. */
uint32_t gc_smem_bytes(int width, int ways);
/* Largest number of distinct 4-byte words one bank serves for one warp
 * request of that pattern, per 128-byte wavefront the hardware needs at
 * least (the conflict degree the pattern was built for; tests). */
int gc_smem_degree(int width, int ways);

#ifdef __cplusplus
}
#endif

#endif
