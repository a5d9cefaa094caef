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

/* The template's own tile list, one kernel (gemm.c; for comparison). */
int gc_gemm_predict_template(const gc_arch_t *a, long m, long n, long k, gc_gemm_dtype_t dt,
                             const gc_predict_opts_t *o, gc_gemm_result_t *r, gc_err_t *err);

#endif
