/* numeric_fix.h - the committed numerics fixtures (libc only).
 *
 * A fixture folder (tests/fixtures/numerics, README.md there) holds
 * sets.csv, one line per set (set,inst,shape,a,c,gen,seed,mmas,outputs,
 * cases,fnv1a64), and <set>.bin with the GPU's outputs: the C/D bit
 * patterns, little-endian, 4 bytes (f32) or 2 (f16) each, mma after mma,
 * either every output row-major (outputs = all) or the diagonal (t, t),
 * t < n (outputs = diag). The inputs are not stored: gc_ngen_fill
 * regenerates them from (form, gen, seed, mma index).
 * Used by `gpucal emulate check` and the emulator's tests.
 */
#ifndef GC_NUMERIC_FIX_H
#define GC_NUMERIC_FIX_H

#include <stdint.h>

#include "../util/err.h"
#include "numeric_gen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gc_nfix {
    char set[96];       /* the file stem, e.g. mma.m16n8k16.f16.f32.normal */
    int form;           /* index in gc_nforms */
    gc_nset_t s;        /* form, gen, seed, mmas, sel as the bench ran them */
    long cases;         /* outputs stored */
    uint64_t fnv;       /* FNV-1a 64 of the .bin file's bytes */
    long line;          /* line of sets.csv */
} gc_nfix_t;

/* Read DIR/sets.csv into a heap array (*sets, *n; free() it). A malformed
 * line, an unknown form or generator: GC_EINPUT "FILE:LINE:COL: ...". */
int gc_nfix_list(const char *dir, gc_nfix_t **sets, int *n, gc_err_t *err);

/* Load DIR/<set>.bin as bit patterns (*out, fx->cases entries; free() it).
 * A missing file, a wrong size or checksum: GC_EINPUT naming the file. */
int gc_nfix_load(const char *dir, const gc_nfix_t *fx, uint32_t **out, gc_err_t *err);

/* What computes one mma: D[m*n] from A[m*k], B[k*n], C[m*n] (layouts of
 * gc_ngen_fill). */
typedef void (*gc_nfix_eval_fn)(void *cookie, const gc_nform_t *f, const uint32_t *A,
                                const uint32_t *B, const uint32_t *C, uint32_t *D);

/* One mismatch, for reports. */
typedef struct gc_nmiss {
    long mma;           /* mma index in the set */
    int row, col;
    uint32_t want, got; /* the GPU's bits, eval's bits */
} gc_nmiss_t;

/* Regenerate every mma of fx, run eval, compare with out. *miss counts
 * the outputs that differ in any bit; the first up to nshow of them go to
 * show[]. Returns the number of cases compared. */
long gc_nfix_check(const gc_nfix_t *fx, const uint32_t *out, gc_nfix_eval_fn eval, void *cookie,
                   long *miss, gc_nmiss_t *show, int nshow);

#ifdef __cplusplus
}
#endif

#endif
