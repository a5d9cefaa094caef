/* gemm.h - the gemm template: `gpucal predict gemm --m M --n N --k K --dtype T`.
 *
 * Picks what a vendor library would run for C = A*B on the arch and predicts
 * it: on Hopper (cc 9.0) a warp-specialised wgmma kernel fed by TMA through a
 * multi-stage shared-memory ring, clusters of 2 multicasting B; on Ampere and Ada (cc 8.x) an mma.sync
 * kernel with ldmatrix from a swizzled layout and a cp.async multistage
 * pipeline; on Turing (cc 7.5) mma.sync with a register-staged double
 * buffer; for f32 a CUDA-core (FFMA) kernel with register tiling. Among the
 * tile shapes such libraries ship for that path it keeps the one the model
 * predicts fastest for M, N, K (as a library's heuristic would), and says
 * which it picked. A and B are read in dtype, C is written in dtype (f32
 * for tf32 and f32, s32 for i8) with f32 (s32) accumulation.
 */
#ifndef GC_GEMM_H
#define GC_GEMM_H

#include <stddef.h>

#include "../../util/err.h"
#include "../../arch/arch.h"
#include "kernel.h"
#include "predict.h"

typedef enum {
    GC_GEMM_F16,
    GC_GEMM_BF16,
    GC_GEMM_TF32,
    GC_GEMM_F32,
    GC_GEMM_F8E4M3,
    GC_GEMM_I8
} gc_gemm_dtype_t;

typedef struct gc_gemm_result {
    gc_prediction_t pred;
    long m, n, k;
    gc_gemm_dtype_t dtype;
    char inst[64];         /* instruction form, e.g. "wgmma m64n256k16 f16.f32 ss" */
    const char *path;      /* "wgmma+tma", "mma+cp.async", "mma+ldg", "ffma" */
    int tile_m, tile_n, tile_k, stages, warps;
    int candidates;        /* tile shapes compared */
    double tflops;         /* 2*M*N*K / time */
} gc_gemm_result_t;

/* "f16" | "bf16" | "tf32" | "f32" | "f8e4m3" | "i8" -> dtype; -1 when unknown. */
int gc_gemm_dtype(const char *s, gc_gemm_dtype_t *dt);

/* The description of one candidate (path, tile) for M x N x K on a; caller
 * destroys it. Used by gc_gemm_predict and the tests. */
int gc_gemm_kernel(const gc_arch_t *a, long m, long n, long k, gc_gemm_dtype_t dt, int cand,
                   gc_kernel_t **out, gc_gemm_result_t *info, gc_err_t *err);

/* Pick and predict. Errors: GC_EINPUT when the arch has no tensor form for
 * dtype (e.g. f8e4m3 before Ada), as one line naming the form. */
int gc_gemm_predict(const gc_arch_t *a, long m, long n, long k, gc_gemm_dtype_t dt,
                    const gc_predict_opts_t *o, gc_gemm_result_t *r, gc_err_t *err);

/* The template's own output: a JSON member list and human lines. */
void gc_gemm_describe(const gc_gemm_result_t *r, char *json, size_t nj, char *text, size_t nt);

#endif
