/* numeric_prof.c - element-wise error profiles and chain matrix
 * multiplication of seed 000 section 8 (numeric_prof.h). The CPU FP32
 * reference uses float arithmetic (C11, no contraction: each product and
 * each sum is rounded to FP32, in k order). */
#include "numeric_prof.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *gc_nexp_name(gc_nexp_t e)
{
    static const char *const n[] = {"mul", "add", "dot", "acc"};
    return (unsigned)e < GC_NX_COUNT ? n[e] : "?";
}

const char *gc_ninit_name(gc_ninit_t i)
{
    static const char *const n[] = {"lp", "f32"};
    return (unsigned)i < GC_NI_COUNT ? n[i] : "?";
}

/* One input value: bits for the GPU in format f, and the CPU's float. */
static uint32_t draw(gc_nfmt_t f, gc_ninit_t init, gc_nrng_t *r, float *cpu)
{
    double x = gc_nrng_normal(r);
    if (init == GC_NI_LP) {
        uint32_t b = gc_nfmt_encode(f, x);
        *cpu = (float)gc_nfmt_decode(f, b);
        return b;
    }
    *cpu = (float)x;
    return gc_nfmt_encode(f, (double)*cpu);
}

/* c in the C format; lp init draws it in the A format. */
static uint32_t draw_c(const gc_nform_t *f, gc_ninit_t init, gc_nrng_t *r, float *cpu)
{
    if (init == GC_NI_LP) {
        uint32_t b = gc_nfmt_encode(f->a, gc_nrng_normal(r));
        *cpu = (float)gc_nfmt_decode(f->a, b);
        return gc_nfmt_encode(f->c, (double)*cpu);
    }
    return draw(f->c, init, r, cpu);
}

void gc_nprof_fill(const gc_nform_t *f, gc_nexp_t e, gc_ninit_t init, uint64_t seed, long index,
                   uint32_t *A, uint32_t *B, uint32_t *C, float *ref)
{
    int m = f->m, n = f->n, k = f->k, d = m < n ? m : n;
    gc_nrng_t r;
    gc_nrng_init(&r, seed, (uint64_t)index, 100 + (uint64_t)e * 2 + (uint64_t)init);
    memset(A, 0, sizeof(*A) * (size_t)(m * k));
    memset(B, 0, sizeof(*B) * (size_t)(k * n));
    memset(C, 0, sizeof(*C) * (size_t)(m * n));
    for (int t = 0; t < d; t++) {
        float a, b, c;
        switch (e) {
        case GC_NX_MUL: /* d = a*b: a at A(t, t % k), b at B(t % k, t) */
            A[t * k + t % k] = draw(f->a, init, &r, &a);
            B[(t % k) * n + t] = draw(f->a, init, &r, &b);
            ref[t] = a * b;
            break;
        case GC_NX_ADD:
        case GC_NX_DOT: { /* d = sum_i a_i b_i over 2 or k terms, c = 0 */
            float s = 0;
            int terms = e == GC_NX_ADD ? 2 : k;
            for (int i = 0; i < terms; i++) {
                A[t * k + i] = draw(f->a, init, &r, &a);
                B[i * n + t] = draw(f->a, init, &r, &b);
                float p = a * b;
                s = s + p;
            }
            ref[t] = s;
            break;
        }
        default: { /* d = a*b + c */
            A[t * k + t % k] = draw(f->a, init, &r, &a);
            B[(t % k) * n + t] = draw(f->a, init, &r, &b);
            C[t * n + t] = draw_c(f, init, &r, &c);
            float p = a * b;
            ref[t] = p + c;
            break;
        }
        }
    }
}

void gc_nprof_add(const gc_nform_t *f, const uint32_t *D, const float *ref, gc_nerr_t *acc)
{
    int m = f->m, n = f->n, d = m < n ? m : n;
    for (int t = 0; t < d; t++) {
        double v = gc_nfmt_decode(f->c, D[t * n + t]);
        if (!isfinite(v)) {
            acc->nonfinite++;
            continue;
        }
        double rf = ref[t];
        double err = fabs(v - rf);
        acc->sum_abs += err;
        acc->n++;
        if (rf != 0) {
            acc->sum_rel += err / fabs(rf);
            acc->n_rel++;
        }
        if (f->c == GC_NF_F16) {
            double r16 = gc_nfmt_decode(GC_NF_F16, gc_nfmt_encode(GC_NF_F16, rf));
            double e16 = fabs(v - r16);
            acc->sum_abs16 += e16;
            if (r16 != 0 && isfinite(r16)) {
                acc->sum_rel16 += e16 / fabs(r16);
                acc->n_rel16++;
            }
        }
    }
}

/* ---- chains ---- */

struct gc_nchain {
    const gc_nform_t *f;
    gc_ninit_t init;
    long chains;
    gc_nrng_t rng;
    uint32_t *a;     /* chains * m*k: A of the next link (bits) */
    float *aref;     /* chains * m*k: the FP32 chain's A */
    uint32_t *b;     /* chains * k*n: B of the current link */
    float *bref;
    unsigned char *dead;
};

void gc_nchain_destroy(gc_nchain_t *ch)
{
    if (!ch)
        return;
    free(ch->a);
    free(ch->aref);
    free(ch->b);
    free(ch->bref);
    free(ch->dead);
    free(ch);
}

gc_nchain_t *gc_nchain_create(const gc_nform_t *f, gc_ninit_t init, uint64_t seed, long chains)
{
    gc_nchain_t *ch = calloc(1, sizeof(*ch));
    if (!ch)
        return NULL;
    size_t ak = (size_t)(f->m * f->k) * (size_t)chains, bk = (size_t)(f->k * f->n) * (size_t)chains;
    ch->f = f;
    ch->init = init;
    ch->chains = chains;
    gc_nrng_init(&ch->rng, seed, 7, (uint64_t)init);
    ch->a = malloc(sizeof(*ch->a) * ak);
    ch->aref = malloc(sizeof(*ch->aref) * ak);
    ch->b = malloc(sizeof(*ch->b) * bk);
    ch->bref = malloc(sizeof(*ch->bref) * bk);
    ch->dead = calloc((size_t)chains, 1);
    if (!ch->a || !ch->aref || !ch->b || !ch->bref || !ch->dead) {
        gc_nchain_destroy(ch);
        return NULL;
    }
    for (size_t i = 0; i < ak; i++)
        ch->a[i] = draw(f->a, init, &ch->rng, &ch->aref[i]);
    return ch;
}

void gc_nchain_inputs(gc_nchain_t *ch, uint32_t *A, uint32_t *B, uint32_t *C)
{
    const gc_nform_t *f = ch->f;
    size_t ak = (size_t)(f->m * f->k) * (size_t)ch->chains;
    size_t bk = (size_t)(f->k * f->n) * (size_t)ch->chains;
    for (size_t i = 0; i < bk; i++)
        ch->b[i] = draw(f->a, ch->init, &ch->rng, &ch->bref[i]);
    memcpy(A, ch->a, sizeof(*A) * ak);
    memcpy(B, ch->b, sizeof(*B) * bk);
    memset(C, 0, sizeof(*C) * (size_t)(f->m * f->n) * (size_t)ch->chains);
}

void gc_nchain_advance(gc_nchain_t *ch, const uint32_t *D, double *mean, long *finite)
{
    const gc_nform_t *f = ch->f;
    int m = f->m, n = f->n, k = f->k;
    double sum = 0;
    long live = 0;
    for (long c = 0; c < ch->chains; c++) {
        uint32_t *a = ch->a + (size_t)c * (size_t)(m * k);
        float *ar = ch->aref + (size_t)c * (size_t)(m * k);
        const float *br = ch->bref + (size_t)c * (size_t)(k * n);
        const uint32_t *d = D + (size_t)c * (size_t)(m * n);
        float dref[64 * 8];
        double num = 0, den = 0;
        int bad = 0;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                float s = 0;
                for (int q = 0; q < k; q++) {
                    float p = ar[i * k + q] * br[q * n + j];
                    s = s + p;
                }
                dref[i * n + j] = s;
                double v = gc_nfmt_decode(f->c, d[i * n + j]);
                if (!isfinite(v))
                    bad = 1;
                num += (v - s) * (v - s);
                den += v * v;
            }
        /* the next A: D in the A format (round to nearest), zero-padded */
        for (int i = 0; i < m; i++)
            for (int q = 0; q < k; q++) {
                uint32_t bits = 0;
                float rv = 0;
                if (q < n) {
                    bits = gc_nfmt_encode(f->a, gc_nfmt_decode(f->c, d[i * n + q]));
                    rv = dref[i * n + q];
                    if (!isfinite(gc_nfmt_decode(f->a, bits)))
                        bad = 1;
                }
                a[i * k + q] = bits;
                ar[i * k + q] = rv;
            }
        if (ch->dead[c] || bad || !(den > 0)) {
            ch->dead[c] = 1;
            continue;
        }
        sum += sqrt(num) / sqrt(den);
        live++;
    }
    *finite = live;
    *mean = live ? sum / (double)live : NAN;
}
