/* emulate.h - one tensor-core mma's arithmetic on the CPU, bit for bit.
 *
 * A model of D = A x B + C as the tensor core computes it, parameterised by
 * what the `numeric` bench found (an arch file's `numerics` entry):
 *   products    a*b exact (products_exact), or rounded to the accumulator;
 *   alignment   in each fused step the addends (the accumulator and `group`
 *               products) are aligned to the largest exponent E, and every
 *               bit below E - (acc_bits - 1) - align_bits is cut off
 *               (toward zero, or toward -inf with trunc_floor);
 *   summation   the cut addends are summed exactly, then rounded once into
 *               the accumulator (`rounding`, acc_bits significand bits,
 *               f32's exponent range); steps follow k's order, c first
 *               (or in a last step of its own: c_last);
 *   output      a narrower C/D (f16) is the accumulator rounded with
 *               out_rounding;
 *   specials    NaN in, inf*0 or inf-inf: nan_bits; subnormal inputs and
 *               results kept or flushed.
 * Values go in and out as bit patterns (f32 patterns for tf32). libc only.
 */
#ifndef GC_EMULATE_H
#define GC_EMULATE_H

#include <stdint.h>

#include "../../util/err.h"
#include "../../arch/arch.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gc_emu_fmt {
    GC_EMU_F32,
    GC_EMU_F16,
    GC_EMU_BF16,
    GC_EMU_TF32,
    GC_EMU_E4M3,
    GC_EMU_E5M2,
    GC_EMU_NFMT
} gc_emu_fmt_t;

typedef enum gc_emu_rnd { GC_EMU_RZ, GC_EMU_RN, GC_EMU_RD, GC_EMU_RU } gc_emu_rnd_t;

typedef struct gc_emu {
    gc_emu_fmt_t a, c;        /* A/B format; C/D format (f32 or f16) */
    int products_exact;       /* 1: a*b exact; 0: rounded (RN) to acc_bits first */
    int align_bits;           /* bits kept below the accumulator's last bit, 0..30 */
    int group;                /* products per fused step (<= 0: all k) */
    gc_emu_rnd_t rounding;    /* each fused step into the accumulator */
    int acc_bits;             /* accumulator significand bits, 2..24 (24: f32) */
    gc_emu_rnd_t out_rounding; /* accumulator -> f16 C/D */
    int trunc_floor;          /* alignment cuts toward -inf (two's complement) */
    int prod_raw;             /* align to ea+eb (the unnormalised product exponent) */
    int c_last;               /* 1: the products are summed from +0, and c is added after
                               * them by an IEEE addition rounded with c_rounding */
    gc_emu_rnd_t c_rounding;  /* that addition's rounding (c_last only) */
    int interleave;           /* 0: step s takes products s*group .. s*group+group-1; w > 0:
                               * product i goes to step (i / w) % steps */
    int sub_in;               /* subnormal A/B kept (1) or read as zero (0) */
    int sub_out;              /* subnormal C and results kept (1) or flushed (0) */
    int tf32_round;           /* tf32 operands: 1 rounded to 10 bits, 0 low 13 bits ignored */
    int overflow_inf;         /* 1: a result beyond the largest finite value is inf whatever
                               * the rounding; 0: IEEE (rz keeps the largest finite value) */
    int zero_pos;             /* 1: every zero result is +0; 0: IEEE signs of zero */
    int out_direct;           /* f16 C/D: 1 each step's cut sum is rounded straight to f16
                               * with out_rounding (the accumulator is f16); 0 steps round
                               * into an f32-range accumulator, the result then to f16 */
    uint32_t nan_bits;        /* the NaN the unit returns, in C/D's format */
} gc_emu_t;

/* Format / rounding names (f32 f16 bf16 tf32 e4m3 e5m2; rz rn rd ru);
 * parse returns -1 when unknown. */
const char *gc_emu_fmt_name(gc_emu_fmt_t f);
int gc_emu_fmt_parse(const char *s);
const char *gc_emu_rnd_name(gc_emu_rnd_t r);
int gc_emu_rnd_parse(const char *s);

/* An IEEE-like starting point for form (a, c): exact products, one fused
 * step of all products, round to nearest, no extra bits, f32 accumulator,
 * subnormals kept, canonical NaN. Returns 0, or GC_EUSAGE if c is not f32
 * or f16. */
int gc_emu_init(gc_emu_t *e, gc_emu_fmt_t a, gc_emu_fmt_t c, gc_err_t *err);

/* Check every field is in range (what gc_emu_dot relies on). */
int gc_emu_check(const gc_emu_t *e, gc_err_t *err);

/* Set e from an arch file's numerics entry (a, c, products_exact,
 * align_bits, group, rounding, subnormals and the optional keys). Keys the
 * entry leaves out keep gc_emu_init's values. */
int gc_emu_from_numerics(gc_emu_t *e, const gc_numerics_t *n, gc_err_t *err);

/* The numerics entry of arch for instruction inst (mma | wgmma; an entry
 * without inst is mma) and form (a, c), or NULL: gc_arch_numerics. */
const gc_numerics_t *gc_emu_find(const gc_arch_t *arch, const char *inst, const char *a,
                                 const char *c);

/* One output element: c + sum_{i<k} a[i]*b[i], as bit patterns. k >= 1. */
uint32_t gc_emu_dot(const gc_emu_t *e, int k, const uint32_t *a, const uint32_t *b, uint32_t c);

/* A whole mma: A[m*k] row-major, B[k*n] with B[i*n + j] = B(i, j), C and D
 * [m*n] row-major. k <= 1024. */
void gc_emu_mma(const gc_emu_t *e, int m, int n, int k, const uint32_t *A, const uint32_t *B,
                const uint32_t *C, uint32_t *D);

#ifdef __cplusplus
}
#endif

#endif
