/* numeric_gen.h - the deterministic inputs of the `numeric` bench (libc only).
 *
 * Shared by the bench (measure/bench_numeric.cu, on the GPU host) and by the
 * CPU tests and `gpucal emulate check`, which regenerate every input bit for
 * bit from (form, generator, seed, mma index) so that a committed fixture only
 * holds the GPU's outputs. Integer arithmetic and exactly rounded IEEE
 * operations only (no libm transcendental), so every host gives the same bits.
 *
 * Owns: number formats as bit patterns (decode, exact check, RN encode), the
 * PRNG, the table of mma forms, the generators and the plan of fixture sets.
 * The probe cases are in numeric_probe.h.
 */
#ifndef GC_NUMERIC_GEN_H
#define GC_NUMERIC_GEN_H

#include <stdint.h>

#include "measure.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- number formats (values travel as bit patterns in the low bits of a
 * uint32_t; tf32 is an f32 bit pattern whose low 13 bits are zero) ---- */

typedef enum gc_nfmt {
    GC_NF_F32,
    GC_NF_F16,
    GC_NF_BF16,
    GC_NF_TF32,
    GC_NF_E4M3,
    GC_NF_E5M2,
    GC_NF_COUNT
} gc_nfmt_t;

typedef struct gc_nfmt_info {
    const char *name;    /* f32 f16 bf16 tf32 e4m3 e5m2 (arch schema spelling) */
    int bytes;           /* storage bytes per element on the GPU */
    int exp_bits;        /* exponent field bits */
    int man_bits;        /* stored fraction bits (tf32: 10) */
    int bias;            /* exponent bias */
    int has_inf;         /* 0 for e4m3 (no infinities; S.1111.111 is NaN) */
} gc_nfmt_info_t;

const gc_nfmt_info_t *gc_nfmt_info(gc_nfmt_t f);

/* Format by name; -1 if unknown. */
int gc_nfmt_parse(const char *name);

/* The value of bits in format f (exact; NaN for any NaN pattern). */
double gc_nfmt_decode(gc_nfmt_t f, uint32_t bits);

/* 1 and *bits if x is exactly representable in f (normal or subnormal, or
 * +-0, +-inf where f has infinities); 0 otherwise. NaN is never exact. */
int gc_nfmt_exact(gc_nfmt_t f, double x, uint32_t *bits);

/* x rounded to nearest, ties to even, into f. Overflow gives +-inf (e4m3:
 * NaN, as cvt.rn without .satfinite); NaN gives the canonical quiet NaN. */
uint32_t gc_nfmt_encode(gc_nfmt_t f, double x);

/* Largest finite value, smallest normal, smallest subnormal (positive). */
double gc_nfmt_max(gc_nfmt_t f);
double gc_nfmt_min_normal(gc_nfmt_t f);
double gc_nfmt_min_sub(gc_nfmt_t f);

/* 1 if bits is a NaN / an infinity / a subnormal (nonzero) in f. */
int gc_nfmt_is_nan(gc_nfmt_t f, uint32_t bits);
int gc_nfmt_is_sub(gc_nfmt_t f, uint32_t bits);

/* ---- PRNG: splitmix64 streams ---- */

typedef struct gc_nrng {
    uint64_t s;
} gc_nrng_t;

/* A stream for (seed, a, b): independent streams for every mma of a set. */
void gc_nrng_init(gc_nrng_t *r, uint64_t seed, uint64_t a, uint64_t b);
uint64_t gc_nrng_u64(gc_nrng_t *r);
/* Uniform integer in [0, n), n >= 1. */
uint32_t gc_nrng_below(gc_nrng_t *r, uint32_t n);
/* Approximately N(0,1): the Irwin-Hall sum of 12 uniforms minus 6, in
 * integer arithmetic (mean 0, variance 1, |x| < 6), exact in a double. */
double gc_nrng_normal(gc_nrng_t *r);

/* ---- mma forms ---- */

typedef struct gc_nform {
    const char *inst;    /* mma | wgmma */
    const char *shape;   /* m16n8k16 ... */
    int m, n, k;
    gc_nfmt_t a, c;      /* A/B format, C/D format */
    int min_cc;          /* 10*major+minor the form needs */
    int main;            /* 1: a form of the bar (>= 1e5 fixture cases) */
} gc_nform_t;

extern const gc_nform_t gc_nforms[];
extern const int gc_nforms_count;

/* Index of the form, or -1. */
int gc_nform_find(const char *inst, const char *shape, const char *a, const char *c);

/* "inst.shape.a.c", e.g. "mma.m16n8k16.f16.f32". */
void gc_nform_name(const gc_nform_t *f, char *buf, int n);

/* ---- generators ---- */

typedef enum gc_ngen {
    GC_NG_NORMAL,   /* N(0,1) rounded to the format */
    GC_NG_WIDE,     /* random sign, exponent and fraction over a wide exponent range */
    GC_NG_CANCEL,   /* C cancels A*B (even rows) or products cancel in pairs (odd rows) */
    GC_NG_SPECIAL,  /* normal data with 1 in 16 elements +-0, +-inf, NaN, +-max, subnormals... */
    GC_NG_SUBNORM,  /* inputs and C at the bottom of their ranges, half subnormal */
    GC_NG_PROBE,    /* the targeted probe cases (numeric_probe.h), 8 per mma on the diagonal */
    GC_NG_COUNT
} gc_ngen_t;

const char *gc_ngen_name(gc_ngen_t g);
int gc_ngen_parse(const char *name);

/* Fill the inputs of mma number `index` of set (form, gen, seed):
 * A[m*k] row-major, B[k*n] with B[kk*n + j] = B(kk, j), C[m*n] row-major;
 * bit patterns of the form's formats. The same arguments always give the
 * same bits. Returns 0, or -1 if index is out of range for GC_NG_PROBE. */
int gc_ngen_fill(const gc_nform_t *f, gc_ngen_t g, uint64_t seed, long index, uint32_t *A,
                 uint32_t *B, uint32_t *C);

/* ---- fixture sets ---- */

typedef enum gc_nsel {
    GC_NSEL_ALL,    /* every output element, row-major per mma */
    GC_NSEL_DIAG    /* the diagonal (t, t), t < n, per mma (probe sets) */
} gc_nsel_t;

/* One set of mmas the bench runs and may dump. */
typedef struct gc_nset {
    int form;           /* index in gc_nforms */
    gc_ngen_t gen;
    uint64_t seed;
    long mmas;
    gc_nsel_t sel;
} gc_nset_t;

/* The plan: every set the bench runs, in order. Returns the count and
 * points *sets at a static table (filled on first use). */
int gc_nset_plan(const gc_nset_t **sets);

/* Output elements stored per mma (m*n or n). */
int gc_nset_per_mma(const gc_nset_t *s);

/* Row and column of stored output number i of one mma. */
void gc_nset_pos(const gc_nset_t *s, int i, int *row, int *col);

/* "inst.shape.a.c.gen", the fixture file stem. */
void gc_nset_name(const gc_nset_t *s, char *buf, int n);

/* The SASS expectations of the bench's kernels (checked by the harness on
 * the binary, and by the tests on tests/fixtures/sass/h100_numeric.sass). */
#define GC_NUMERIC_SASS_N 10
extern const gc_sass_rule_t gc_numeric_sass[GC_NUMERIC_SASS_N];

/* FNV-1a 64 of bytes (checksums of fixture outputs in the trace). */
uint64_t gc_nfnv1a(uint64_t h, const void *data, unsigned long n);
#define GC_NFNV_INIT 0xcbf29ce484222325ull

#ifdef __cplusplus
}
#endif

#endif
