/* numeric_probe.h - the targeted probes of the `numeric` bench (libc only).
 *
 * A probe case is one dot product d = c + sum_i a_i*b_i built so that its
 * result tells one thing about the arithmetic inside the tensor core (in the
 * spirit of Fasi, Higham, Mikaitis and Pranesh, PeerJ CS 2021): are products
 * exact, how many bits survive the alignment of the addends, how the fused sum
 * is rounded, which products are summed in one fused step and in which order,
 * where c joins, what happens to subnormals, infinities, NaNs and signed
 * zeros. The list of cases depends only on the form, so the bench and the CPU
 * tests see the same cases; gc_nprobe_findings turns the outputs into the
 * values of an arch file's `numerics` entry.
 */
#ifndef GC_NUMERIC_PROBE_H
#define GC_NUMERIC_PROBE_H

#include <stdint.h>

#include "numeric_gen.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GC_NPROBE_KMAX 32

typedef enum gc_nprobe_fam {
    GC_NP_EXACT,    /* one random product, c = 0: is the result the exact product? */
    GC_NP_ROUND,    /* carries without alignment loss: the rounding of the fused sum */
    GC_NP_ALIGN,    /* a big and a small addend 2^-(P-1+j) apart: bits kept when aligning */
    GC_NP_PAIR,     /* c big, products i and j a fraction of its ulp: one fused step? */
    GC_NP_ORDER,    /* X at i, -X at j, a tiny one at l: is l added after i and j? */
    GC_NP_CJOIN,    /* cancellation with c: where c joins the sum */
    GC_NP_SUB,      /* subnormal inputs and results */
    GC_NP_SPECIAL,  /* inf, NaN, overflow, signed zeros */
    GC_NP_TF32BITS, /* tf32 operands whose low 13 bits are not zero */
    GC_NP_ALIGNX,   /* 1.5*1.5 and a small addend: aligned to ea+eb or to the product's lead? */
    GC_NP_DROUND,   /* just above an f16 tie below f32's last bit: rounded once or twice? */
    GC_NP_COUNT
} gc_nprobe_fam_t;

typedef struct gc_nprobe {
    gc_nprobe_fam_t fam;
    int var;                  /* variant within the family */
    int p;                    /* precision (significand bits) the case is built for */
    int i, j, l;              /* positions or shift (per family; -1 when unused) */
    uint32_t a[GC_NPROBE_KMAX], b[GC_NPROBE_KMAX], c; /* bit patterns */
} gc_nprobe_t;

const char *gc_nprobe_fam_name(gc_nprobe_fam_t f);

/* Number of probe cases for form f (the same on every host). */
long gc_nprobe_count(const gc_nform_t *f);

/* Case number idx (0 <= idx < count) of form f. Returns 0, or -1 when idx is
 * out of range. */
int gc_nprobe_case(const gc_nform_t *f, long idx, gc_nprobe_t *pc);

/* ---- interpretation ---- */

/* One hypothesis about the arithmetic, as the probes see it (the same
 * parameters as the emulator, model/emulate/emulate.h): each fused step aligns its
 * addends to the largest exponent E (a product's ea+eb with raw, else its
 * leading bit), cuts every bit below E - (acc_bits - 1) - align_bits (toward
 * zero, or toward -inf), sums exactly and rounds to acc_bits bits (straight
 * to f16 with out_rnd when direct); steps of `group` products in k order or
 * interleaved by `interleave`; c in the first step, or (c_last) added to
 * the products' sum by an IEEE addition rounded with c_rnd; an f16 C/D not
 * direct is the accumulator rounded with out_rnd. Rounding: 0 rz, 1 rn,
 * 2 rd, 3 ru. */
typedef struct gc_nhyp {
    int acc_bits, align_bits, trunc_floor, rnd, group, interleave, c_last, c_rnd, raw,
        out_rnd, direct;
} gc_nhyp_t;

/* The hypothesis' result for c + sum p[i] (exact values, finite, within
 * the normal range); raw[i]: ea+eb of product i. outP: 0 for an f32 C/D,
 * 11 for f16. */
double gc_nhyp_eval(const gc_nhyp_t *h, int k, const double *p, const int *raw, double c,
                    int outP);

/* What the probes say about one form. -1: not determined. */
typedef struct gc_nfind {
    int products_exact, exact_ok, exact_n;
    int fit_n;                /* hypotheses consistent with every fitted case */
    long fit_cases;           /* cases fitted: probes with finite normal values, and random */
    long fit_miss;            /* mismatches of the best hypothesis (0 when fit_n > 0) */
    gc_nhyp_t best;           /* the simplest consistent hypothesis */
    int align_min, align_max; /* consistent align_bits */
    unsigned group_mask;      /* bit g: group 2^g consistent */
    int rnd_mask, floor_mask, cmode_mask, outrnd_mask, raw_mask, direct_mask, il_mask;
    int acc_mask_lo, acc_mask_hi;
    int sub_in, sub_out;      /* 1 kept, 0 flushed */
    int nan_n;
    uint32_t nan_bits;        /* the NaN seen (first) */
    int nan_same;             /* every NaN result had the same bits */
    int overflow;             /* 1 inf, 0 the largest finite value, -1 unknown */
    int tf32_round;           /* 1 rounded, 0 low bits ignored, -1 n/a */
    int zero_sign;            /* signed-zero cases that follow IEEE (of zero_n) */
    int zero_pos;             /* signed-zero cases that gave +0 (of zero_n) */
    int zero_n;
} gc_nfind_t;

/* Interpret the outputs of form f's probe cases: out[i] is the C/D bit
 * pattern of case i (i < n <= gc_nprobe_count(f)). The fit also uses the
 * random dot products of set rs (GC_NG_NORMAL of the same form; may be
 * NULL): rs_out holds its stored outputs for its first rs_mmas mmas. */
void gc_nprobe_findings(const gc_nform_t *f, const uint32_t *out, long n, const gc_nset_t *rs,
                        const uint32_t *rs_out, long rs_mmas, gc_nfind_t *fd);

/* The findings as trace rows: key, value and evidence (no commas).
 * Returns the number of rows (at most max). */
typedef struct gc_nrow {
    char key[32], value[48], detail[160];
} gc_nrow_t;
int gc_nfind_rows(const gc_nform_t *f, const gc_nfind_t *fd, gc_nrow_t *rows, int max);

/* A random normal A/B value over the wide generator's exponent range. */
uint32_t gc_ngen_wide(gc_nfmt_t f, gc_nrng_t *r);

#ifdef __cplusplus
}
#endif

#endif
