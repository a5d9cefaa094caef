/* gemm.h - the gemm template: `gpucal predict gemm --m M --n N --k K --dtype T
 * [--batch B] [--layout nn|nt|tn|tt]`.
 *
 * gc_gemm_predict_call predicts the kernels the vendor library (cuBLAS 12 as
 * PyTorch calls it) launches for the call: it picks the kernel family from
 * documented and observed rules (gemm_select.c: TMA + wgmma only when every
 * leading dimension is a multiple of 16 bytes, cp.async of 4/8 bytes or
 * 2-byte loads otherwise, FFMA for f32 without TF32, GEMV for a vector
 * operand in f32, split-K with its reduction kernel when the tiles leave SMs
 * idle), then the tile and split the model predicts fastest, as the
 * library's heuristic would. Every kernel is an ordinary description
 * (kernel.h) predicted by gc_predict; the result lists each kernel and the
 * total GPU time (launch overhead separate).
 *
 * The older entry points below (gc_gemm_kernel, gc_gemm_predict) remain for
 * the operator templates: the template's own tile list, one kernel.
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
#include <stdio.h>

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

typedef enum {
    GC_GEMM_FAM_WGMMA,   /* Hopper: TMA + wgmma, warp-specialised (nvjet / sm90_xmma) */
    GC_GEMM_FAM_MMA,     /* mma.sync + ldmatrix, cp.async multistage (cutlass_80 tensorop) */
    GC_GEMM_FAM_MMA_LDG, /* mma.sync, narrow ld.global staged in registers (cutlass_75, align1) */
    GC_GEMM_FAM_FFMA,    /* CUDA cores, f32 (cutlass_80_simt_sgemm / sm80_xmma ffma) */
    GC_GEMM_FAM_GEMV,    /* matrix-vector (cuBLAS gemvx) */
    GC_GEMM_FAM_REDUCE,  /* split-K reduction of f32 partials (cublasLt splitKreduce) */
    GC_GEMM_FAM_MEMSET,  /* workspace memset before a persistent kernel */
    GC_GEMM_FAM_N
} gc_gemm_family_t;

/* One call: C[b] = op(A[b]) op(B[b]) for b < batch, row-major as PyTorch
 * stores them; layout[0] / [1] = 't' when A / B is a transposed view. */
typedef struct gc_gemm_args {
    long m, n, k, batch;
    gc_gemm_dtype_t dtype;
    char layout[3]; /* "nn" | "nt" | "tn" | "tt" */
} gc_gemm_args_t;

#define GC_GEMM_KERNELS_MAX 3

/* One launched kernel of the call. */
typedef struct gc_gemm_kpred {
    char role[16];         /* memset | main | reduce */
    char name[96];         /* the library's kernel it stands for */
    gc_gemm_family_t fam;
    long grid[3], block[3];/* as the library launches it */
    int regs;
    int persistent;        /* 1: grid of SMs looping over tiles */
    double kernel_us;      /* GPU time, launch excluded */
    gc_prediction_t pred;  /* the model's prediction (time_us there includes the launch) */
} gc_gemm_kpred_t;

typedef struct gc_gemm_result {
    gc_prediction_t pred;
    long m, n, k;
    gc_gemm_dtype_t dtype;
    char inst[64];         /* instruction form, e.g. "wgmma m64n256k16 f16.f32 ss" */
    const char *path;      /* "wgmma+tma", "mma+cp.async", "mma+ldg", "ffma" */
    int tile_m, tile_n, tile_k, stages, warps;
    int candidates;        /* tile shapes (and splits) compared */
    int predicted;         /* of them, predicted in full (the rest screened out) */
    double tflops;         /* 2*M*N*K*batch / time */
    /* the call (gc_gemm_predict_call) */
    long batch;
    char layout[3];
    int split;             /* K slices of the main kernel */
    int align;             /* bytes per global load of A and B the alignment allows */
    gc_gemm_family_t fam;
    char why[200];         /* the rule that chose the family */
    int n_kernels;
    gc_gemm_kpred_t kern[GC_GEMM_KERNELS_MAX];
    double time_us;        /* sum of the kernels' GPU time, launches excluded */
    double launch_us;      /* what launching the call adds end to end (sm.launch_overhead_us) */
    double clock_mhz;      /* SM clock the main kernel was timed at */
    const char *clock_source;
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

/* Predict the kernels the library runs for the call g. Errors: GC_EUSAGE
 * (size <= 0, bad layout), GC_EINPUT (no kernel of the arch for the dtype /
 * alignment, e.g. f8 with leading dimensions not a multiple of 16 bytes). */
int gc_gemm_predict_call(const gc_arch_t *a, const gc_gemm_args_t *g,
                         const gc_predict_opts_t *o, gc_gemm_result_t *r, gc_err_t *err);

/* "nn" | "nt" | "tn" | "tt" -> 0; -1 otherwise. */
int gc_gemm_layout(const char *s);

/* JSON document (schema gpucal-gemm/1) and human text of a call's result. */
void gc_gemm_print_json(const gc_gemm_result_t *r, FILE *fp);
void gc_gemm_print_text(const gc_gemm_result_t *r, FILE *fp);

/* The template's own output: a JSON member list and human lines. */
void gc_gemm_describe(const gc_gemm_result_t *r, char *json, size_t nj, char *text, size_t nt);

#endif
