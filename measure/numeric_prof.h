/* numeric_prof.h - the error profiles of seed 000 section 8 (libc only).
 *
 * Element-wise profiling (section 8.1, Tables XII-XV): the error of one
 * multiplication, of one inner product (c = 0) and of one accumulation
 * (a*b + c) done by the tensor core, against the same operation in FP32 on
 * the CPU, with the inputs drawn in the low precision ("lp": no conversion
 * loss) or in FP32 and rounded to nearest for the GPU ("f32"). Chain matrix
 * multiplication (section 8.2, Figure 17): D = A x B, D becomes the next A,
 * a new random B each link; the relative error (equation 1) of the chain
 * against the same chain in FP32 on the CPU, for each chain length.
 *
 * The bench fills the inputs here, runs them on the GPU, and hands the
 * outputs back; the CPU tests run the same code with the emulator instead.
 */
#ifndef GC_NUMERIC_PROF_H
#define GC_NUMERIC_PROF_H

#include <stdint.h>

#include "numeric_gen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mul: d = a*b; add: d = a0*b0 + a1*b1 (the paper's "addition of inner
 * product", two terms: its add/mul error ratio, 1.33-1.37 for all three
 * types, is that of two terms); dot: all k terms, c = 0 (not in the paper);
 * acc: d = a*b + c. */
typedef enum gc_nexp { GC_NX_MUL, GC_NX_ADD, GC_NX_DOT, GC_NX_ACC, GC_NX_COUNT } gc_nexp_t;
typedef enum gc_ninit { GC_NI_LP, GC_NI_F32, GC_NI_COUNT } gc_ninit_t;

/* What the bench runs (so the CPU can replay it with the emulator): per
 * form index fi, GC_NPROF_MMAS mmas of each (experiment, init) from seed
 * GC_NPROF_SEED(fi), and GC_NCHAIN_CHAINS chains of up to GC_NCHAIN_LEN
 * links per init from seed GC_NCHAIN_SEED(fi) (--quick: 128 and 100). */
#define GC_NPROF_MMAS 1250
#define GC_NPROF_SEED(fi) (0x8000u + (uint64_t)(fi))
#define GC_NCHAIN_CHAINS 1000
#define GC_NCHAIN_LEN 32
#define GC_NCHAIN_SEED(fi) (0x9000u + (uint64_t)(fi))

const char *gc_nexp_name(gc_nexp_t e);   /* mul add dot acc */
const char *gc_ninit_name(gc_ninit_t i); /* lp f32 */

/* Inputs of mma number index of experiment (e, init) of form f: min(m, n)
 * independent measurements on the diagonal (t, t); ref[t] is the CPU FP32
 * result of measurement t. Bit patterns as in gc_ngen_fill. */
void gc_nprof_fill(const gc_nform_t *f, gc_nexp_t e, gc_ninit_t init, uint64_t seed, long index,
                   uint32_t *A, uint32_t *B, uint32_t *C, float *ref);

/* Sums of errors over measurements. "16" are against the FP32 result
 * rounded to f16 (Table XIV's CPU_FP32cvtFP16; forms with f16 C/D). */
typedef struct gc_nerr {
    double sum_abs, sum_rel;     /* |d - ref| and |d - ref| / |ref| (ref != 0) */
    long n, n_rel;               /* measurements; those with ref != 0 */
    double sum_abs16, sum_rel16;
    long n_rel16;
    long nonfinite;              /* outputs that were inf or NaN (left out) */
} gc_nerr_t;

/* Add the diagonal outputs of one mma (D: m*n bit patterns) to acc. */
void gc_nprof_add(const gc_nform_t *f, const uint32_t *D, const float *ref, gc_nerr_t *acc);

/* ---- chain matrix multiplication ---- */

typedef struct gc_nchain gc_nchain_t;

/* chains independent chains of form f (k >= n; D's n columns become the
 * first columns of the next A, the rest zero). NULL on out of memory. */
gc_nchain_t *gc_nchain_create(const gc_nform_t *f, gc_ninit_t init, uint64_t seed, long chains);
void gc_nchain_destroy(gc_nchain_t *ch);

/* The next link's inputs for all chains, mma after mma (C = 0). */
void gc_nchain_inputs(gc_nchain_t *ch, uint32_t *A, uint32_t *B, uint32_t *C);

/* Take the link's outputs. *mean: the mean over the chains still finite of
 * equation 1, sqrt(sum |D_l - D_f32|^2) / sqrt(sum |D_l|^2); *finite: how
 * many chains are still finite (a chain whose output or next input holds
 * an inf or NaN is out for good). */
void gc_nchain_advance(gc_nchain_t *ch, const uint32_t *D, double *mean, long *finite);

#ifdef __cplusplus
}
#endif

#endif
