/* gemm_int.h - what the gemm files share (gemm.c builds kernel descriptions,
 * gemm_select.c chooses the library's kernels, gemm_out.c prints). Internal
 * to model/predict/gemm*.c and tests/test_gemm*.c. */
#ifndef GC_GEMM_INT_H
#define GC_GEMM_INT_H

#include "gemm.h"
#include "../../util/sbuf.h"

/* One kernel as the library launches it: family, tile, split and loads. */
typedef struct gc_gemm_spec {
    gc_gemm_family_t fam;
    long m, n, k, batch; /* the call's problem (torch's M, N, K; batch of strided GEMMs) */
    gc_gemm_dtype_t dt;
    int bm, bn, bk;    /* block tile: rows of C, columns of C, k step */
    int stages, warps; /* pipeline depth; warps per block */
    int split;         /* K slices (grid z), 1 = none; > 1 writes f32 partials */
    int align;         /* bytes per global load of A and B: 16 (TMA / cp.async.16), 8, 4
                        * (cp.async), 2, 1 (ld.global, register staged) */
    int regs;          /* registers per thread the profiler shows for the library's kernel
                        * of this tile; 0: estimated from the tile */
    int cluster_m, cluster_n; /* wgmma: blocks of a cluster along M (they multicast their B
                               * tile) and along N (their A tile); 0, 0: the gemm's own
                               * rule (2 along M when M has two tiles or more) */
    int mn_a, mn_b;    /* tf32 wgmma: A (the tile's bm side) / B (bn side) stored M- or
                        * N-major, where the instruction reads K-major shared memory only */
} gc_gemm_spec_t;

/* Element bytes of A and B, and of C, for a dtype. */
double gc_gemm_in_bytes(gc_gemm_dtype_t dt);
double gc_gemm_out_bytes(gc_gemm_dtype_t dt);
const char *gc_gemm_dtype_name(gc_gemm_dtype_t dt);
const char *gc_gemm_family_name(gc_gemm_family_t f);

/* Append " MxNxK dtype" (e.g. " 4096x4096x4096 f16") to b; returns b. */
gc_sbuf_t *gc_gemm_shape_text(gc_sbuf_t *b, long m, long n, long k, gc_gemm_dtype_t dt);

/* The description of spec s on a (main kernel, split-K reduction or
 * workspace memset, by s->fam); caller destroys it. info (may be NULL)
 * gets the instruction form and path. */
int gc_gemm_build(const gc_arch_t *a, const gc_gemm_spec_t *s, gc_kernel_t **out,
                  gc_gemm_result_t *info, gc_err_t *err);

/* Instructions a warp of FFMA kernel s issues per k step (gemm_build.c's
 * description of the loop: FFMA, LDS, cp.async, barrier, integer ops). */
double gc_gemm_ffma_step_inst(const gc_gemm_spec_t *s);

/* The library's grid for a main kernel: tiles x split x batch, or SMs when
 * the family is persistent and there are more tiles than SMs. */
void gc_gemm_lib_grid(const gc_arch_t *a, const gc_gemm_spec_t *s, long grid[3], int *persistent);

/* Split-K arithmetic (unit-tested): the split that fills `sms` SMs with
 * `tiles` output tiles while each slice keeps at least `min_steps` k steps of
 * `bk`; 1 when the tiles fill the SMs already. */
int gc_gemm_split_fill(double tiles, double sms, long k, int bk, int min_steps);

/* Bytes every leading dimension (and batch stride) of A, B and C is a
 * multiple of, at most 16 (unit-tested). */
int gc_gemm_align_bytes(const gc_gemm_args_t *g);

/* Cycles at the two ends of a Hopper warp-specialised wgmma + TMA kernel
 * that its rounds do not hold: its first operands through TMA (from the L2
 * when `fits`: the call's operands fit it and the call repeats, else from
 * DRAM), its last stores reaching the L2, and the serial set-up and
 * epilogue code one consumer warp runs once (tile coordinates, barriers,
 * the epilogue's addresses: instructions each waiting for the one before,
 * at the arch's integer latency): serial_inst of them, or where that is not
 * positive the 440 of cuBLAS's nvjet kernels (gemm_select.c, WGMMA_SERIAL_INST).
 * gemm_select.c adds a cluster's barrier; ops.c uses it for any such kernel
 * an operator launches. Arch values: memory.tma latency_cyc /
 * latency_extra_cyc, memory.l2 / dram latency_cyc, alu imad latency. */
double gc_gemm_ws_ends_cyc(const gc_arch_t *a, int fits, double serial_inst);

/* Cycles n instructions take when each waits for the one before: n x the
 * arch's integer latency (alu imad latency_cyc, else 4). */
double gc_gemm_serial_cyc(const gc_arch_t *a, double n);

/* As gc_gemm_predict_call, and the descriptions of the kernels it chose in
 * launch order into out[0 .. r->n_kernels - 1] (the workspace memset, the
 * main kernel, the split-K reduction: as gc_gemm_build makes them for the
 * chosen specs; r->kern[i] names them and gives each role). The caller
 * destroys them; after an error none is left. */
int gc_gemm_call_kernels(const gc_arch_t *a, const gc_gemm_args_t *g, const gc_predict_opts_t *o,
                         gc_gemm_result_t *r, gc_kernel_t *out[GC_GEMM_KERNELS_MAX], gc_err_t *err);

/* The template's own tile list, one kernel (gemm.c; for comparison). */
int gc_gemm_predict_template(const gc_arch_t *a, long m, long n, long k, gc_gemm_dtype_t dt,
                             const gc_predict_opts_t *o, gc_gemm_result_t *r, gc_err_t *err);

#endif
