/* numeric_probe.c - the probe cases of the `numeric` bench (numeric_probe.h).
 * Every case is built from exactly representable values; a case whose values
 * a form cannot represent is left out, the same way on every host. */
#include "numeric_probe.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static const char *const fam_names[GC_NP_COUNT] = {
    "exact", "round", "align", "pair", "order", "cjoin", "sub", "special", "tf32bits",
    "alignx", "dround"};

const char *gc_nprobe_fam_name(gc_nprobe_fam_t f)
{
    return (unsigned)f < GC_NP_COUNT ? fam_names[f] : "?";
}

typedef struct builder {
    const gc_nform_t *f;
    gc_nprobe_t *v;
    long n, cap;
    int ok;           /* 0 once a value of the case under construction failed */
    gc_nprobe_t cur;
} builder_t;

static void begin(builder_t *bl, gc_nprobe_fam_t fam, int var, int p, int i, int j, int l)
{
    memset(&bl->cur, 0, sizeof(bl->cur));
    bl->cur.fam = fam;
    bl->cur.var = var;
    bl->cur.p = p;
    bl->cur.i = i;
    bl->cur.j = j;
    bl->cur.l = l;
    bl->ok = 1;
}

static void commit(builder_t *bl)
{
    if (!bl->ok)
        return;
    if (bl->n == bl->cap) {
        long cap = bl->cap ? bl->cap * 2 : 256;
        gc_nprobe_t *nv = realloc(bl->v, sizeof(*nv) * (size_t)cap);
        if (!nv) {
            bl->ok = 0;
            return;
        }
        bl->v = nv;
        bl->cap = cap;
    }
    bl->v[bl->n++] = bl->cur;
}

static int floor_half(int x)
{
    return x >= 0 ? x / 2 : -((-x + 1) / 2);
}

/* v = a*b with a, b exactly representable in fa (both normal if possible). */
static int split(gc_nfmt_t fa, double v, uint32_t *a, uint32_t *b)
{
    if (v == 0.0) {
        *a = *b = 0;
        return 0;
    }
    int ex;
    double fr = frexp(fabs(v), &ex);
    int lead = ex - 1;
    double sig = fr * 2.0;
    int h = floor_half(lead);
    double mn = gc_nfmt_min_normal(fa);
    /* the leading-bit exponents a value of fa can have */
    int elo, ehi;
    (void)frexp(gc_nfmt_min_sub(fa), &elo);
    (void)frexp(gc_nfmt_max(fa), &ehi);
    elo -= 1, ehi -= 1;
    if (lead < 2 * elo || lead > 2 * ehi + 1)
        return -1;
    for (int pass = 0; pass < 2; pass++)
        for (int d = 0; d <= ehi - elo + 1; d++)
            for (int s = 0; s < (d ? 2 : 1); s++) {
                int ea = s ? h - d : h + d;
                if (ea < elo || ea > ehi || lead - ea < elo || lead - ea > ehi)
                    continue;
                double av = ldexp(sig, ea), bv = ldexp(1.0, lead - ea);
                if (pass == 0 && (av < mn || bv < mn))
                    continue;
                if (gc_nfmt_exact(fa, v < 0 ? -av : av, a) && gc_nfmt_exact(fa, bv, b))
                    return 0;
            }
    return -1;
}

static void put_p(builder_t *bl, int pos, double v)
{
    if (pos < 0 || pos >= bl->f->k || split(bl->f->a, v, &bl->cur.a[pos], &bl->cur.b[pos]))
        bl->ok = 0;
}

static void put_c(builder_t *bl, double v)
{
    if (!gc_nfmt_exact(bl->f->c, v, &bl->cur.c))
        bl->ok = 0;
}

static void put_raw(builder_t *bl, int pos, uint32_t a, uint32_t b)
{
    bl->cur.a[pos] = a;
    bl->cur.b[pos] = b;
}

/* Exponent of the big addend X of the alignment probes, per A/B format. */
static int big_exp(gc_nfmt_t fa)
{
    return fa == GC_NF_BF16 || fa == GC_NF_TF32 ? 0 : 15;
}

/* Smallest power of two >= X*2^-60 that is a product of two normal values. */
static double tiny_prod(gc_nfmt_t fa, double x)
{
    for (int e = -60; e < 0; e++) {
        double v = ldexp(x, e);
        uint32_t a, b;
        if (split(fa, v, &a, &b) == 0 && fabs(gc_nfmt_decode(fa, a)) >= gc_nfmt_min_normal(fa) &&
            gc_nfmt_decode(fa, b) >= gc_nfmt_min_normal(fa))
            return v;
    }
    return 0;
}

/* Probe family exact: one random product, c = 0 (build). */
static void fam_exact(builder_t *bl)
{
    const gc_nform_t *f = bl->f;
    int k = f->k;
    gc_nfmt_t fa = f->a;
    /* exact: one random product, c = 0 */
    gc_nrng_t r;
    gc_nrng_init(&r, 0x5eed, 1, 0);
    for (int t = 0; t < 48; t++) {
        begin(bl, GC_NP_EXACT, 0, 0, t % k, -1, -1);
        put_raw(bl, t % k, gc_ngen_wide(fa, &r), gc_ngen_wide(fa, &r));
        commit(bl);
    }
}

/* Probe family round: 1 + m*u plus products of 1, for every accumulator width (build). */
static void fam_round(builder_t *bl)
{
    const gc_nform_t *f = bl->f;
    int k = f->k;
    /* round: 1 + m*u plus products of 1, exact with carries; for every
     * accumulator width from f16's 11 bits to f32's 24 */
    for (int P = 11; P <= 24; P++) {
        double u = ldexp(1.0, -(P - 1));
        static const int cm[4] = {3, 1, 1, 3}, np_[4] = {1, 1, 3, 3};
        for (int end = 0; end < 2; end++)
            for (int neg = 0; neg < 2; neg++)
                for (int v = 0; v < 4; v++) {
                    double s = neg ? -1.0 : 1.0;
                    int first = end ? k - np_[v] : 0;
                    begin(bl, GC_NP_ROUND, v + 4 * neg + 8 * end, P, first, -1, -1);
                    put_c(bl, s * (1.0 + cm[v] * u));
                    for (int q = 0; q < np_[v]; q++)
                        put_p(bl, first + q, s);
                    commit(bl);
                }
    }
}

/* Probe family align: a big S and a small 2^-(P-1+j) * S (build). */
static void fam_align(builder_t *bl, const int *plist, int np)
{
    const gc_nform_t *f = bl->f;
    int k = f->k;
    gc_nfmt_t fa = f->a;
    double S = ldexp(1.0, big_exp(fa));
    /* align: big S, small 2^-(P-1+j) * S */
    for (int pi = 0; pi < np; pi++) {
        int P = plist[pi];
        for (int j = 0; j <= 40; j++) {
            double sm = ldexp(S, -(P - 1 + j));
            for (int v = 0; v < 9; v++) {
                begin(bl, GC_NP_ALIGN, v, P, 0, j, -1);
                switch (v) {
                case 0: put_c(bl, S), put_p(bl, 0, -sm); break;
                case 1: put_c(bl, S), put_p(bl, 0, sm); break;
                case 2: put_p(bl, 0, S), put_c(bl, -sm); break;
                case 3: put_p(bl, 0, S), put_c(bl, sm); break;
                case 4: put_p(bl, 0, S), put_p(bl, 1, -sm); break;
                case 5: put_p(bl, 0, S), put_p(bl, 1, sm); break;
                case 6:
                    if (j < 2)
                        bl->ok = 0;
                    put_c(bl, S), put_p(bl, 0, -ldexp(S, -P)), put_p(bl, 1, -sm);
                    break;
                case 7:
                    put_c(bl, S);
                    for (int q = 1; q < k; q++)
                        put_p(bl, q, -sm);
                    break;
                default:
                    put_p(bl, 0, S);
                    for (int q = 1; q < k; q++)
                        put_p(bl, q, -sm);
                    break;
                }
                commit(bl);
            }
        }
    }
}

/* Probe family pair: c = S, two products a half / a quarter ulp of S (build). */
static void fam_pair(builder_t *bl, const int *plist_in, int np_in)
{
    const gc_nform_t *f = bl->f;
    int k = f->k;
    gc_nfmt_t fa = f->a;
    double S = ldexp(1.0, big_exp(fa));
    int plist[4], np = np_in;
    memcpy(plist, plist_in, sizeof(*plist) * (size_t)np_in);
    /* pair: c = S, products i and j (i <= j) a half / a quarter ulp of S;
     * FP8 also at 14 bits, the accumulator width reported for FP8 */
    int fp8 = fa == GC_NF_E4M3 || fa == GC_NF_E5M2;
    if (fp8)
        plist[np++] = 14;
    for (int pi = 0; pi < np; pi++) {
        int P = plist[pi];
        for (int v = 0; v < 3; v++)
            for (int i = 0; i < k; i++)
                for (int j = i; j < k; j++) {
                    double x = v == 0 ? ldexp(S, -P) : v == 1 ? -ldexp(S, -(P + 1))
                                                              : ldexp(S, -(P + 1));
                    begin(bl, GC_NP_PAIR, v, P, i, j, -1);
                    put_c(bl, S);
                    if (i == j)
                        put_p(bl, i, x);
                    else
                        put_p(bl, i, x), put_p(bl, j, x);
                    commit(bl);
                }
    }
}

/* Probe family order: X at i, -X at j, tiny at l (or in c) (build). */
static void fam_order(builder_t *bl)
{
    const gc_nform_t *f = bl->f;
    int k = f->k;
    gc_nfmt_t fa = f->a, fc = f->c;
    double S = ldexp(1.0, big_exp(fa));
    /* order: X at i, -X at j, tiny at l (or in c, l = -1) */
    {
        double X = fa == GC_NF_E4M3 ? ldexp(1.0, 16) : S;
        double tiny = tiny_prod(fa, X);
        int pairs[5][2] = {{0, 1}, {k - 2, k - 1}, {0, k - 1}, {k / 2 - 1, k / 2}, {1, 2}};
        for (int pr = 0; pr < 5; pr++) {
            int i = pairs[pr][0], j = pairs[pr][1];
            if (i < 0 || j >= k || i == j)
                continue;
            for (int l = -1; l < k; l++) {
                if (l == i || l == j)
                    continue;
                begin(bl, GC_NP_ORDER, pr, 0, i, j, l);
                put_p(bl, i, X);
                put_p(bl, j, -X);
                if (l < 0) {
                    double tc = ldexp(X, -40);
                    if (tc < gc_nfmt_min_normal(fc))
                        tc = gc_nfmt_min_normal(fc);
                    put_c(bl, tc);
                } else {
                    put_p(bl, l, tiny);
                }
                commit(bl);
            }
        }
    }
}

/* Probe family cjoin: cancellation with c (build). */
static void fam_cjoin(builder_t *bl)
{
    const gc_nform_t *f = bl->f;
    int k = f->k;
    gc_nfmt_t fa = f->a, fc = f->c;
    double S = ldexp(1.0, big_exp(fa));
    /* cjoin: cancellation with c */
    {
        double X = S;
        double tiny = tiny_prod(fa, X);
        double tc = ldexp(X, -40);
        if (tc < gc_nfmt_min_normal(fc))
            tc = gc_nfmt_min_normal(fc);
        for (int v = 0; v < 6; v++) {
            begin(bl, GC_NP_CJOIN, v, 0, -1, -1, -1);
            switch (v) {
            case 0: put_c(bl, tc), put_p(bl, 0, X), put_p(bl, 1, -X); break;
            case 1: put_c(bl, tc), put_p(bl, k - 2, X), put_p(bl, k - 1, -X); break;
            case 2: put_c(bl, X), put_p(bl, 0, -X), put_p(bl, 1, tiny); break;
            case 3: put_c(bl, X), put_p(bl, k - 1, -X), put_p(bl, 0, tiny); break;
            case 4: put_c(bl, X), put_p(bl, 0, -X), put_p(bl, k - 1, tiny); break;
            default: put_c(bl, -X), put_p(bl, k - 1, X), put_p(bl, k / 2, tiny); break;
            }
            commit(bl);
        }
    }
}

/* Probe family sub: subnormal inputs and results (build). */
static void fam_sub(builder_t *bl)
{
    gc_nrng_t r;
    const gc_nform_t *f = bl->f;
    int k = f->k;
    gc_nfmt_t fa = f->a, fc = f->c;
    /* sub: subnormal inputs and results */
    {
        double sa = gc_nfmt_min_sub(fa), na = gc_nfmt_min_normal(fa);
        double sc = gc_nfmt_min_sub(fc), nc = gc_nfmt_min_normal(fc);
        gc_nrng_init(&r, 0x5eed, 2, 0);
        const gc_nfmt_info_t *ia = gc_nfmt_info(fa);
        begin(bl, GC_NP_SUB, 0, 0, -1, -1, -1); /* min subnormal x 1 */
        put_p(bl, 0, 0), put_raw(bl, 0, gc_nfmt_encode(fa, sa), gc_nfmt_encode(fa, 1.0));
        commit(bl);
        for (int t = 0; t < 8; t++) { /* random subnormal x random normal */
            begin(bl, GC_NP_SUB, 1, 0, t, -1, -1);
            uint32_t m = (uint32_t)(gc_nrng_u64(&r) >> 40) & ((1u << ia->man_bits) - 1);
            double av = ldexp((double)(m ? m : 1), 1 - ia->bias - ia->man_bits);
            put_raw(bl, t % k, gc_nfmt_encode(fa, (t & 1) ? -av : av), gc_ngen_wide(fa, &r));
            commit(bl);
        }
        begin(bl, GC_NP_SUB, 2, 0, -1, -1, -1); /* subnormal x subnormal */
        put_raw(bl, 0, gc_nfmt_encode(fa, sa), gc_nfmt_encode(fa, sa * 3));
        commit(bl);
        double cs[4] = {sc, -sc, nc - sc, ldexp(nc, -3) + sc};
        for (int t = 0; t < 4; t++) { /* c subnormal, products zero */
            begin(bl, GC_NP_SUB, 3, 0, t, -1, -1);
            put_c(bl, cs[t]);
            commit(bl);
        }
        begin(bl, GC_NP_SUB, 4, 0, -1, -1, -1); /* c subnormal + normal product */
        put_c(bl, 5 * sc), put_p(bl, 0, na);
        commit(bl);
        begin(bl, GC_NP_SUB, 5, 0, -1, -1, -1); /* product below the C format's range */
        put_p(bl, 0, ldexp(sc, -11));
        commit(bl);
        begin(bl, GC_NP_SUB, 6, 0, -1, -1, -1); /* product in C's subnormal range */
        put_p(bl, 0, ldexp(nc, -6));
        commit(bl);
        begin(bl, GC_NP_SUB, 7, 0, -1, -1, -1); /* cancellation into C's subnormals */
        put_c(bl, 1.5 * nc), put_p(bl, 0, -nc);
        commit(bl);
        for (int s = 0; s < 2; s++) { /* rounding of a subnormal result */
            begin(bl, GC_NP_SUB, 8, 0, s, -1, -1);
            put_c(bl, (s ? -3 : 3) * sc), put_p(bl, 0, (s ? -0.5 : 0.5) * sc);
            commit(bl);
            begin(bl, GC_NP_SUB, 9, 0, s, -1, -1);
            put_c(bl, (s ? -3 : 3) * sc), put_p(bl, 0, (s ? -0.75 : 0.75) * sc);
            commit(bl);
        }
        begin(bl, GC_NP_SUB, 10, 0, -1, -1, -1); /* min normal of A x 2^-1 */
        put_raw(bl, 0, gc_nfmt_encode(fa, na), gc_nfmt_encode(fa, 0.5));
        commit(bl);
        begin(bl, GC_NP_SUB, 11, 0, -1, -1, -1); /* subnormal product sums */
        for (int q = 0; q < k; q++)
            put_raw(bl, q, gc_nfmt_encode(fa, sa), gc_nfmt_encode(fa, 1.0));
        commit(bl);
    }
}

/* Probe family special: inf, NaN, overflow, signed zeros (build). */
/* Special-value cases at the edge of the ranges: c = the largest C plus
 * a half, one, two ulps; products beyond C's range; the largest products
 * the A format makes. Cases numbered from variant v; returns the next. */
static int special_range(builder_t *bl, int v, double cmax)
{
    const gc_nform_t *f = bl->f;
    int k = f->k;
    gc_nfmt_t fa = f->a, fc = f->c;
    int cex;
    (void)frexp(cmax, &cex); /* cmax < 2^cex */
    for (int t = 0; t < 3; t++) { /* c = max plus a half, one, two ulps */
        int P = gc_nfmt_info(fc)->man_bits + 1;
        double ulp = ldexp(1.0, cex - P);
        begin(bl, GC_NP_SPECIAL, v, 0, t, -1, -1);
        put_c(bl, cmax), put_p(bl, 0, ldexp(ulp, t - 1));
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v + 1, 0, t, -1, -1);
        put_c(bl, -cmax), put_p(bl, 0, -ldexp(ulp, t - 1));
        commit(bl);
    }
    v += 2;
    { /* products beyond C's range */
        double big = ldexp(1.0, cex);
        begin(bl, GC_NP_SPECIAL, v, 0, 0, -1, -1);
        put_p(bl, 0, big);
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v, 0, 1, -1, -1);
        put_p(bl, 0, big), put_p(bl, 1, -big);
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v, 0, 2, -1, -1);
        put_p(bl, 0, big), put_p(bl, 1, -big / 2);
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v, 0, 3, -1, -1);
        put_p(bl, 0, big), put_c(bl, -cmax);
        commit(bl);
        v++;
    }
    { /* the largest products the A format makes */
        double amax = gc_nfmt_max(fa);
        begin(bl, GC_NP_SPECIAL, v, 0, 0, -1, -1);
        put_raw(bl, 0, gc_nfmt_encode(fa, amax), gc_nfmt_encode(fa, amax));
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v, 0, 1, -1, -1);
        for (int q = 0; q < k; q++)
            put_raw(bl, q, gc_nfmt_encode(fa, amax), gc_nfmt_encode(fa, amax));
        commit(bl);
        v++;
    }
    return v;
}

static void fam_special(builder_t *bl)
{
    const gc_nform_t *f = bl->f;
    int k = f->k;
    gc_nfmt_t fa = f->a, fc = f->c;
    /* special: inf, NaN, overflow, signed zeros */
    {
        const gc_nfmt_info_t *ia = gc_nfmt_info(fa);
        uint32_t one = gc_nfmt_encode(fa, 1.0), zero = 0;
        uint32_t sgn = fa == GC_NF_TF32 ? 0x80000000u : 1u << (ia->exp_bits + ia->man_bits);
        uint32_t inf = gc_nfmt_encode(fa, INFINITY), nan = gc_nfmt_encode(fa, NAN);
        uint32_t nan2 = fa == GC_NF_E4M3 ? 0xffu
                        : fa == GC_NF_TF32 ? 0xffc02000u
                                           : (nan | sgn | 1u);
        double cmax = gc_nfmt_max(fc);
        int v = 0;
        begin(bl, GC_NP_SPECIAL, v++, 0, -1, -1, -1); /* inf x 0 */
        put_raw(bl, 0, inf, zero);
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v++, 0, -1, -1, -1); /* inf - inf */
        put_raw(bl, 0, inf, one), put_raw(bl, 1, inf ^ sgn, one);
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v++, 0, -1, -1, -1); /* NaN x 1 */
        put_raw(bl, 0, nan, one);
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v++, 0, -1, -1, -1); /* other NaN x 1 */
        put_raw(bl, 0, nan2, one);
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v++, 0, -1, -1, -1); /* c = +inf */
        put_c(bl, INFINITY), put_p(bl, 0, 1.0);
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v++, 0, -1, -1, -1); /* c = -inf, product +inf */
        put_c(bl, -INFINITY), put_raw(bl, 0, inf, one);
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v++, 0, -1, -1, -1); /* c = NaN */
        bl->cur.c = fc == GC_NF_F32 ? 0x7fc00000u : 0x7e00u;
        put_p(bl, 0, 1.0);
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v++, 0, -1, -1, -1); /* c = other NaN */
        bl->cur.c = fc == GC_NF_F32 ? 0xff800001u : 0xfc01u;
        commit(bl);
        v = special_range(bl, v, cmax);
        /* signed zeros: c sign x product signs */
        for (int cz = 0; cz < 2; cz++)
            for (int pz = 0; pz < 4; pz++) {
                begin(bl, GC_NP_SPECIAL, v, 0, cz, pz, -1);
                bl->cur.c = cz ? (fc == GC_NF_F32 ? 0x80000000u : 0x8000u) : 0;
                switch (pz) {
                case 0: break;                                    /* products +0 */
                case 1: put_raw(bl, 0, zero ^ sgn, one); break;   /* one -0 product */
                case 2:                                           /* all -0 */
                    for (int q = 0; q < k; q++)
                        put_raw(bl, q, zero ^ sgn, one);
                    break;
                default: put_p(bl, 0, 1.0), put_p(bl, 1, -1.0); break; /* 1 - 1 */
                }
                commit(bl);
            }
        v++;
        begin(bl, GC_NP_SPECIAL, v, 0, 0, -1, -1); /* c = 1, product -1 */
        put_c(bl, 1.0), put_p(bl, 0, -1.0);
        commit(bl);
        begin(bl, GC_NP_SPECIAL, v, 0, 1, -1, -1); /* c = -1, product 1 */
        put_c(bl, -1.0), put_p(bl, 0, 1.0);
        commit(bl);
        v++;
        begin(bl, GC_NP_SPECIAL, v, 0, -1, -1, -1); /* inf x subnormal */
        put_raw(bl, 0, inf, gc_nfmt_encode(fa, gc_nfmt_min_sub(fa)));
        commit(bl);
        v++;
        begin(bl, GC_NP_SPECIAL, v, 0, -1, -1, -1); /* NaN x 0 */
        put_raw(bl, 0, nan, zero);
        commit(bl);
    }
}

/* Probe family tf32 operands with low bits set (build). */
static void fam_tf32(builder_t *bl)
{
    gc_nrng_t r;
    const gc_nform_t *f = bl->f;
    int k = f->k;
    gc_nfmt_t fa = f->a;
    /* tf32 operands with low bits set */
    if (fa == GC_NF_TF32) {
        static const uint32_t fixed[][2] = {
            {0x3f801008u, 0x3f800000u}, /* 1 + 2^-11 + 2^-20: beyond tf32 */
            {0x3f801000u, 0x3f800000u}, /* 1 + 2^-11: a tie */
            {0x3f803000u, 0x3f800000u}, /* 1 + 2^-10 + 2^-11: a tie, odd */
            {0x3f800fffu, 0x3f800000u}, /* just below the tie */
            {0x3f800000u, 0x3f801008u}, /* the same in b */
            {0xbf801008u, 0x3f800000u}, /* negative */
        };
        for (int t = 0; t < 6; t++) {
            begin(bl, GC_NP_TF32BITS, 0, 0, t, -1, -1);
            put_raw(bl, 0, fixed[t][0], fixed[t][1]);
            commit(bl);
        }
        gc_nrng_init(&r, 0x5eed, 3, 0);
        for (int t = 0; t < 24; t++) {
            begin(bl, GC_NP_TF32BITS, 1, 0, t, -1, -1);
            uint32_t dirty = (uint32_t)(gc_nrng_u64(&r) >> 51) & 0x1fffu;
            put_raw(bl, t % k, gc_ngen_wide(fa, &r) | dirty, gc_ngen_wide(fa, &r));
            commit(bl);
        }
    }
}

/* Every probe case of form bl->f, family by family (the order is the
 * cases' numbering). */
static void build(builder_t *bl)
{
    const gc_nform_t *f = bl->f;
    gc_nfmt_t fc = f->c;
    int plist[3], np = 0;
    plist[np++] = gc_nfmt_info(fc)->man_bits + 1;
    if (fc == GC_NF_F16)
        plist[np++] = 24;

    fam_exact(bl);
    fam_round(bl);
    fam_align(bl, plist, np);
    fam_pair(bl, plist, np);
    fam_order(bl);
    fam_cjoin(bl);
    fam_sub(bl);
    fam_special(bl);
    fam_tf32(bl);
}

/* Families added after the first H100 run, kept at the end of the list so
 * the earlier cases keep their numbers. */
static void build_more(builder_t *bl)
{
    const gc_nform_t *f = bl->f;
    gc_nfmt_t fa = f->a, fc = f->c;
    int plist[3], np = 0;
    plist[np++] = gc_nfmt_info(fc)->man_bits + 1;
    if (fc == GC_NF_F16)
        plist[np++] = 24;
    if (fa == GC_NF_E4M3 || fa == GC_NF_E5M2)
        plist[np++] = 14;
    /* alignx: X = 1.5 * 1.5 * 2^sx (ea+eb = sx, leading bit sx+1) and a
     * small addend 2^(sx-(P-1)-j): the threshold moves by one between the
     * two readings of the product's exponent */
    int sx = big_exp(fa) - 2;
    int ha = floor_half(sx), hb = sx - ha;
    uint32_t xa, xb;
    int okx = gc_nfmt_exact(fa, ldexp(1.5, ha), &xa) && gc_nfmt_exact(fa, ldexp(1.5, hb), &xb);
    for (int pi = 0; okx && pi < np; pi++)
        for (int j = 0; j <= 8; j++)
            for (int v = 0; v < 4; v++) {
                int P = plist[pi];
                double sm = ldexp(1.0, sx - (P - 1) - j);
                begin(bl, GC_NP_ALIGNX, v, P, 0, j, -1);
                put_raw(bl, 0, xa, xb);
                if (v == 0)
                    put_c(bl, -sm);
                else if (v == 1)
                    put_p(bl, 1, -sm);
                else if (v == 2)
                    put_c(bl, sm);
                else /* an f16 tie (X + 1.5 f16 ulps) that the small product tips */
                    put_c(bl, ldexp(3.0, sx - 10)), put_p(bl, 1, -sm);
                commit(bl);
            }
    /* dround: 1 + 2^-11 (an f16 tie) + 2^-(22+j): rounded to f16 once from
     * the cut sum, or first to f32 (losing the tail) and then to f16 */
    for (int j = 0; j <= 4; j++)
        for (int neg = 0; neg < 2; neg++) {
            double s1 = neg ? -1.0 : 1.0;
            begin(bl, GC_NP_DROUND, neg, 11, 0, j, -1);
            put_c(bl, s1);
            put_p(bl, 0, s1 * 0x1p-11);
            put_p(bl, 1, s1 * ldexp(1.0, -(22 + j)));
            commit(bl);
        }
}

enum { MAXF = 64 };
static gc_nprobe_t *cache[MAXF];
static long cache_n[MAXF];

static long ensure(const gc_nform_t *f)
{
    long fi = f - gc_nforms;
    if (fi < 0 || fi >= gc_nforms_count || fi >= MAXF)
        return -1;
    if (!cache[fi]) {
        builder_t bl;
        memset(&bl, 0, sizeof(bl));
        bl.f = f;
        build(&bl);
        build_more(&bl);
        cache[fi] = bl.v;
        cache_n[fi] = bl.n;
    }
    return fi;
}

long gc_nprobe_count(const gc_nform_t *f)
{
    long fi = ensure(f);
    return fi < 0 ? 0 : cache_n[fi];
}

int gc_nprobe_case(const gc_nform_t *f, long idx, gc_nprobe_t *pc)
{
    long fi = ensure(f);
    if (fi < 0 || idx < 0 || idx >= cache_n[fi])
        return -1;
    *pc = cache[fi][idx];
    return 0;
}

/* ---- interpretation ---- */

/* x rounded to P significant bits with mode rnd (0 rz, 1 rn, 2 rd, 3 ru),
 * on the subnormal grid below 2^emin. */
static double round_pe(double x, int P, int rnd, int emin)
{
    if (x == 0 || !isfinite(x))
        return x;
    int ex, neg = x < 0;
    (void)frexp(fabs(x), &ex);
    if (ex - 1 < emin)
        ex = emin + 1;
    double sc = ldexp(fabs(x), P - ex);
    double fl = floor(sc), fr = sc - fl, r = fl;
    if (rnd == 1 && (fr > 0.5 || (fr == 0.5 && fmod(fl, 2.0) != 0.0)))
        r = fl + 1;
    else if ((rnd == 2 && fr > 0 && neg) || (rnd == 3 && fr > 0 && !neg))
        r = fl + 1;
    r = ldexp(r, ex - P);
    return neg ? -r : r;
}

static double round_p(double x, int P, int rnd)
{
    return round_pe(x, P, rnd, P == 11 ? -14 : -126);
}

/* |x| cut to a multiple of 2^L (toward zero, or toward -inf with floor);
 * jam: a lost remainder sets the last bit (a sticky bit, for IEEE sums). */
static double cut(double x, int L, int floor_, int jam)
{
    double q = ldexp(x, -L);
    double t = floor_ || q >= 0 ? floor(q) : ceil(q);
    if (jam && t != q)
        t = q >= 0 ? (fmod(t, 2.0) == 0 ? t + 1 : t) : (fmod(t, 2.0) == 0 ? t - 1 : t);
    return ldexp(t, L);
}

static int lead_of(double x)
{
    int ex;
    (void)frexp(fabs(x), &ex);
    return ex - 1;
}

/* One fused step: x[0] (the accumulator, if have) and products x[1..n). */
static double hyp_step(const gc_nhyp_t *h, const double *x, const int *raw, int n, int P,
                       int rnd)
{
    int E = INT32_MIN;
    for (int i = 0; i < n; i++)
        if (x[i] != 0) {
            int ex = raw && raw[i] != INT32_MIN && h->raw ? raw[i] : lead_of(x[i]);
            if (ex > E)
                E = ex;
        }
    if (E == INT32_MIN)
        return 0;
    int L = E - (h->acc_bits - 1) - h->align_bits;
    double s = 0;
    for (int i = 0; i < n; i++)
        s += cut(x[i], L, h->trunc_floor, 0);
    return round_p(s, P, rnd);
}

double gc_nhyp_eval(const gc_nhyp_t *h, int k, const double *p, const int *raw, double c,
                    int outP)
{
    double x[GC_NPROBE_KMAX + 1];
    int xr[GC_NPROBE_KMAX + 1];
    double acc = h->c_last ? 0.0 : c;
    int g = h->group > 0 && h->group < k ? h->group : k;
    int steps = (k + g - 1) / g;
    int direct = outP && h->direct;
    int P = direct ? outP : h->acc_bits, rnd = direct ? h->out_rnd : h->rnd;
    for (int st = 0; st < steps; st++) {
        int n = 0;
        x[n] = acc, xr[n++] = INT32_MIN;
        for (int i = 0; i < k; i++) {
            int si = h->interleave > 0 ? (i / h->interleave) % steps : i / g;
            if (si == st)
                x[n] = p[i], xr[n++] = raw ? raw[i] : INT32_MIN;
        }
        acc = hyp_step(h, x, xr, n, P, rnd);
    }
    if (h->c_last && c != 0) { /* an IEEE addition: exact sum, one rounding */
        int E = lead_of(acc != 0 && fabs(acc) > fabs(c) ? acc : c);
        int L = E - P - 8;
        acc = round_p(cut(acc, L, 0, 1) + cut(c, L, 0, 1), P, h->c_rnd);
    }
    return outP && !direct ? round_p(acc, outP, h->out_rnd) : acc;
}

typedef struct fitcase {
    double p[GC_NPROBE_KMAX], c, out;
    int raw[GC_NPROBE_KMAX];
} fitcase_t;

/* Misses of h over the cases in order ord[]; stops past cap. A case that
 * fails moves to the front, so the next hypothesis meets it first. */
static long count_miss(const gc_nhyp_t *h, const fitcase_t *fc, long *ord, long n, int k,
                       int outP, long cap)
{
    long miss = 0;
    for (long i = 0; i < n && miss <= cap; i++) {
        const fitcase_t *x = &fc[ord[i]];
        if (gc_nhyp_eval(h, k, x->p, x->raw, x->c, outP) != x->out) {
            if (!miss && i > 0) {
                long t = ord[i];
                ord[i] = ord[0];
                ord[0] = t;
            }
            miss++;
        }
    }
    return miss;
}

static int fit_family(gc_nprobe_fam_t f)
{
    return f == GC_NP_ROUND || f == GC_NP_ALIGN || f == GC_NP_PAIR || f == GC_NP_ORDER ||
           f == GC_NP_CJOIN || f == GC_NP_ALIGNX || f == GC_NP_DROUND;
}

/* A random dot product as a fit case, if every value is finite and normal. */
static int rand_case(const gc_nform_t *f, const uint32_t *a, const uint32_t *b, uint32_t c,
                     uint32_t out, fitcase_t *x)
{
    double cv = gc_nfmt_decode(f->c, c), o = gc_nfmt_decode(f->c, out);
    if (!isfinite(cv) || !isfinite(o) || (cv != 0 && fabs(cv) < gc_nfmt_min_normal(f->c)) ||
        (o != 0 && fabs(o) < gc_nfmt_min_normal(f->c)))
        return 0;
    for (int q = 0; q < f->k; q++) {
        double av = gc_nfmt_decode(f->a, a[q]), bv = gc_nfmt_decode(f->a, b[q]);
        if (!isfinite(av) || !isfinite(bv) || (av != 0 && fabs(av) < gc_nfmt_min_normal(f->a)) ||
            (bv != 0 && fabs(bv) < gc_nfmt_min_normal(f->a)))
            return 0;
        x->p[q] = av * bv;
        x->raw[q] = x->p[q] != 0 ? lead_of(av) + lead_of(bv) : INT32_MIN;
    }
    x->c = cv;
    x->out = o;
    return 1;
}

/* What the hypothesis search works on: the fit cases (ord: their order,
 * failing ones moved to the front by count_miss) and the dimensions. */
typedef struct search {
    fitcase_t *fc;
    long *ord;
    long nfit;
    int k, outP; /* the form's k; 11 for an f16 output (else 0) */
    int groups[8], ngroups;
} search_t;

static const int accs[] = {24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12};
static const int ils[] = {0, 1, 2, 4};
enum { NACC = 13, NAL = 21 };

/* The probe cases' own findings into fd (exactness, subnormals, NaN, ...),
 * and those that test the summation into S's fit cases. */
static void probe_cases(const gc_nform_t *f, const uint32_t *out, long n, search_t *S,
                        gc_nfind_t *fd)
{
    fitcase_t *fc = S->fc;
    long *ord = S->ord;
    long nfit = 0;
    int k = f->k, outP = S->outP;
    for (long i = 0; i < n; i++) {
        gc_nprobe_t pc;
        if (gc_nprobe_case(f, i, &pc))
            break;
        double o = gc_nfmt_decode(f->c, out[i]);
        double cv = gc_nfmt_decode(f->c, pc.c);
        if (gc_nfmt_is_nan(f->c, out[i])) {
            if (fd->nan_n && out[i] != fd->nan_bits)
                fd->nan_same = 0;
            if (!fd->nan_n)
                fd->nan_bits = out[i];
            fd->nan_n++;
        }
        if (fit_family(pc.fam)) {
            if (!fc || !ord || !isfinite(o) || !isfinite(cv))
                continue;
            fitcase_t *x = &fc[nfit];
            int ok = 1;
            for (int q = 0; q < k; q++) {
                double av = gc_nfmt_decode(f->a, pc.a[q]), bv = gc_nfmt_decode(f->a, pc.b[q]);
                x->p[q] = av * bv;
                x->raw[q] = x->p[q] != 0 ? lead_of(av) + lead_of(bv) : INT32_MIN;
                ok &= isfinite(x->p[q]) && (x->p[q] == 0 || (fabs(av) >= gc_nfmt_min_normal(f->a) &&
                                                             fabs(bv) >= gc_nfmt_min_normal(f->a) &&
                                                             fabs(x->p[q]) >= 0x1p-126));
            }
            x->c = cv;
            x->out = o;
            if (ok)
                ord[nfit] = nfit, nfit++;
            continue;
        }
        switch (pc.fam) {
        case GC_NP_EXACT:
            if (isfinite(o)) {
                double pv = gc_nfmt_decode(f->a, pc.a[pc.i]) * gc_nfmt_decode(f->a, pc.b[pc.i]);
                int ok = outP ? (o == round_p(pv, 11, 1) || o == round_p(pv, 11, 0)) : o == pv;
                fd->exact_n++;
                fd->exact_ok += ok;
            }
            break;
        case GC_NP_SUB:
            if (pc.var == 0)
                fd->sub_in = o != 0;
            if (pc.var == 3 && pc.i == 2) /* the largest subnormal C, alone */
                fd->sub_out = o != 0;
            break;
        case GC_NP_SPECIAL:
            if (pc.var == 8 && pc.i == 1)
                fd->overflow = isinf(o) ? 1 : o == gc_nfmt_max(f->c) ? 0 : -1;
            if (pc.var == 10 && pc.i == 0 && fd->overflow < 0) /* a product past the range */
                fd->overflow = isinf(o) ? 1 : o == gc_nfmt_max(f->c) ? 0 : -1;
            if (pc.var == 12) {
                /* IEEE (rn/rz): -0 only when c and every product are -0 */
                int want_neg = pc.i == 1 && pc.j == 2;
                fd->zero_n++;
                fd->zero_sign += o == 0 && (signbit(o) != 0) == want_neg;
                fd->zero_pos += o == 0 && !signbit(o);
            }
            break;
        case GC_NP_TF32BITS:
            if (pc.var == 0 && pc.i == 0)
                fd->tf32_round = o == 1.0 + 0x1p-10 ? 1 : o == 1.0 ? 0 : -1;
            break;
        default: break;
        }
    }
    S->nfit = nfit;
}

/* The random set's outputs as more fit cases. */
static void random_cases(const gc_nform_t *f, const gc_nset_t *rs, const uint32_t *rs_out,
                         long rs_mmas, search_t *S)
{
    fitcase_t *fc = S->fc;
    long *ord = S->ord;
    long nfit = S->nfit;
    int k = f->k, per = gc_nset_per_mma(rs);
    uint32_t A[64 * GC_NPROBE_KMAX], B[GC_NPROBE_KMAX * 8], C[64 * 8], col[GC_NPROBE_KMAX];
    for (long q = 0; q < rs_mmas; q++) {
        if (gc_ngen_fill(f, rs->gen, rs->seed, q, A, B, C))
            break;
        for (int i = 0; i < per; i++) {
            int r, c;
            gc_nset_pos(rs, i, &r, &c);
            for (int kk = 0; kk < k; kk++)
                col[kk] = B[kk * f->n + c];
            if (rand_case(f, A + r * k, col, C[r * f->n + c], rs_out[q * per + i], &fc[nfit]))
                ord[nfit] = nfit, nfit++;
        }
    }
    S->nfit = nfit;
}

/* Hypothesis number (ai, v) of search_all's order: v runs over the window's
 * alignment, the rounding/cut/exponent bits, the steps and the f16 output's
 * choices (the loops of search_all, innermost last); 0 when the combination
 * is not one (an interleave without groups). */
static int hyp_of(const search_t *S, int ai, long v, gc_nhyp_t *t)
{
    int no = S->outP ? 4 : 1, nv2 = S->ngroups * 12;
    int o = (int)(v % no), v2 = (int)(v / no % nv2), v1 = (int)(v / no / nv2 % 16);
    int al = (int)(v / no / nv2 / 16);
    int gi = v2 / 12, ii = (v2 / 3) % 4, cm = v2 % 3;
    if (gi == 0 && ii)
        return 0;
    memset(t, 0, sizeof(*t));
    t->acc_bits = accs[ai];
    t->align_bits = al;
    t->trunc_floor = (v1 >> 2) & 1;
    t->raw = v1 >> 3;
    t->rnd = v1 & 3;
    t->group = S->groups[gi];
    t->interleave = ils[ii];
    t->c_last = cm > 0;
    t->c_rnd = cm == 2 ? 0 : 1;
    t->direct = o >> 1;
    t->out_rnd = o & 1 ? 0 : 1;
    return 1;
}

/* One worker of search_all: the window sizes ai = first, first + stride, ...
 * in turn, each searched in order until a hypothesis fits every case; stops
 * as soon as a smaller ai than its own has fitted (*best_ai, shared). A case
 * order of its own (count_miss reorders it; the counts do not depend on the
 * order): worker 0 takes the caller's, the others a copy. */
typedef struct slice {
    const search_t *S;
    int first, stride;
    _Atomic int *best_ai;
    gc_nhyp_t fit[NACC]; /* the first fitting hypothesis of each ai searched */
    int have[NACC];
    long *ord;
} slice_t;

static void *search_slice(void *arg)
{
    slice_t *sl = (slice_t *)arg;
    const search_t *S = sl->S;
    long nv = (long)NAL * 16 * S->ngroups * 12 * (S->outP ? 4 : 1);
    for (int ai = sl->first; ai < NACC; ai += sl->stride) {
        for (long v = 0; v < nv && ai < atomic_load(sl->best_ai); v++) {
            gc_nhyp_t t;
            if (!hyp_of(S, ai, v, &t) || count_miss(&t, S->fc, sl->ord, S->nfit, S->k, S->outP, 0))
                continue;
            sl->fit[ai] = t;
            sl->have[ai] = 1;
            int b = atomic_load(sl->best_ai);
            while (ai < b && !atomic_compare_exchange_weak(sl->best_ai, &b, ai))
                ;
            break;
        }
    }
    return NULL;
}

/* Workers for search_all: one per online CPU, at most one per window size. */
static int search_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > NACC ? NACC : (int)n;
}

/* Every hypothesis, simplest first, until one fits every case: h and *cur =
 * 0 then (the first in search_all's order: the window sizes are shared out
 * among threads, and the smallest ai that fits wins, with its first fitting
 * hypothesis). Unchanged when none fits. */
static void search_all(search_t *S, gc_nhyp_t *hp, long *curp)
{
    if (*curp == 0)
        return;
    int nt = search_threads();
    _Atomic int best_ai = NACC;
    slice_t sl[NACC];
    pthread_t tid[NACC];
    int started[NACC] = {0};
    memset(sl, 0, sizeof(sl));
    /* worker 0 runs here on the caller's case order; the others on copies */
    for (int i = 0; i < nt; i++) {
        sl[i].S = S;
        sl[i].first = i;
        sl[i].stride = nt;
        sl[i].best_ai = &best_ai;
        sl[i].ord = i == 0 ? S->ord : malloc(sizeof(long) * (size_t)(S->nfit > 0 ? S->nfit : 1));
        if (i > 0 && sl[i].ord)
            memcpy(sl[i].ord, S->ord, sizeof(long) * (size_t)S->nfit);
    }
    for (int i = 1; i < nt; i++)
        started[i] = sl[i].ord && !pthread_create(&tid[i], NULL, search_slice, &sl[i]);
    search_slice(&sl[0]);
    for (int i = 1; i < nt; i++) {
        if (started[i]) {
            pthread_join(tid[i], NULL);
            continue;
        }
        /* a worker that could not start: its share here, in this thread */
        free(sl[i].ord);
        sl[i].ord = S->ord;
        search_slice(&sl[i]);
        sl[i].ord = NULL;
    }
    int ai = atomic_load(&best_ai);
    if (ai < NACC) {
        *hp = sl[ai % nt].fit[ai];
        *curp = 0;
    }
    for (int i = 1; i < nt; i++)
        free(sl[i].ord);
}

/* None fits: the best a descent over four joint dimensions finds. */
static void search_descent(search_t *S, gc_nhyp_t *hp, long *curp)
{
    fitcase_t *fc = S->fc;
    long *ord = S->ord;
    long nfit = S->nfit;
    int k = S->k, outP = S->outP, ngroups = S->ngroups;
    const int *groups = S->groups;
    gc_nhyp_t h = *hp;
    long cur = *curp;
    for (int pass = 0; pass < 6 && cur > 0; pass++) {
        long before = cur;
        for (int dd = 0; dd < 3 && cur > 0; dd++) {
            int dim = (dd + 2) % 3; /* the steps first, then the window, then the rounding */
            int no = outP ? 4 : 1;
            int nv = dim == 0 ? NACC * NAL * no : dim == 1 ? 16 : ngroups * 4 * 3;
            for (int v = 0; v < nv; v++) {
                gc_nhyp_t t = h;
                if (dim == 0) { /* the window, with the f16 output's two choices */
                    int w = v / no, o = v % no;
                    t.acc_bits = accs[w / NAL];
                    t.align_bits = w % NAL;
                    if (outP) {
                        t.direct = o >> 1;
                        t.out_rnd = o & 1 ? 0 : 1;
                    }
                } else if (dim == 1) {
                    t.rnd = v & 3;
                    t.trunc_floor = (v >> 2) & 1;
                    t.raw = (v >> 3) & 1;
                } else {
                    int gi = v / 12, ii = (v / 3) % 4, cm = v % 3;
                    if (gi == 0 && ii)
                        continue;
                    t.group = groups[gi];
                    t.interleave = ils[ii];
                    t.c_last = cm > 0;
                    t.c_rnd = cm == 2 ? 0 : 1;
                }
                long miss = count_miss(&t, fc, ord, nfit, k, outP, cur - 1);
                if (miss < cur) {
                    cur = miss;
                    h = t;
                }
            }
        }
        if (cur == before)
            break;
    }
    *hp = h;
    *curp = cur;
}

/* The values of each dimension consistent with every case, one value at a
 * time around the fitting hypothesis h; the window's two parts together. */
static void consistent_sets(search_t *S, const gc_nhyp_t *hp, gc_nfind_t *fd)
{
    fitcase_t *fc = S->fc;
    long *ord = S->ord;
    long nfit = S->nfit;
    int k = S->k, outP = S->outP, ngroups = S->ngroups;
    const int *groups = S->groups;
    gc_nhyp_t h = *hp;
    for (int ai = 0; ai < NACC; ai++)
        for (int al = 0; al < NAL; al++) {
            gc_nhyp_t t = h;
            t.acc_bits = accs[ai];
            t.align_bits = al;
            if (count_miss(&t, fc, ord, nfit, k, outP, 0))
                continue;
            if (t.acc_bits == h.acc_bits) {
                if (fd->align_min < 0)
                    fd->align_min = al;
                fd->align_max = al;
            }
            if (t.acc_bits < fd->acc_mask_lo)
                fd->acc_mask_lo = t.acc_bits;
            if (t.acc_bits > fd->acc_mask_hi)
                fd->acc_mask_hi = t.acc_bits;
        }
    for (int v = 0; v < 4; v++) {
        gc_nhyp_t t = h;
        t.rnd = v;
        fd->rnd_mask |= !count_miss(&t, fc, ord, nfit, k, outP, 0) << v;
    }
    for (int v = 0; v < 2; v++) {
        gc_nhyp_t t = h;
        t.trunc_floor = v;
        fd->floor_mask |= !count_miss(&t, fc, ord, nfit, k, outP, 0) << v;
        t = h;
        t.raw = v;
        fd->raw_mask |= !count_miss(&t, fc, ord, nfit, k, outP, 0) << v;
        if (outP) {
            t = h;
            t.direct = v;
            fd->direct_mask |= !count_miss(&t, fc, ord, nfit, k, outP, 0) << v;
            t = h;
            t.out_rnd = v;
            fd->outrnd_mask |= !count_miss(&t, fc, ord, nfit, k, outP, 0) << v;
        }
    }
    for (int gi = 0; gi < ngroups; gi++) {
        gc_nhyp_t t = h;
        t.group = groups[gi];
        fd->group_mask |= (unsigned)!count_miss(&t, fc, ord, nfit, k, outP, 0) << gi;
    }
    for (int ii = 0; ii < 4; ii++) {
        gc_nhyp_t t = h;
        t.interleave = ils[ii];
        fd->il_mask |= !count_miss(&t, fc, ord, nfit, k, outP, 0) << ii;
    }
    for (int cm = 0; cm < 3; cm++) {
        gc_nhyp_t t = h;
        t.c_last = cm > 0;
        t.c_rnd = cm == 2 ? 0 : 1;
        fd->cmode_mask |= !count_miss(&t, fc, ord, nfit, k, outP, 0) << cm;
    }
}

void gc_nprobe_findings(const gc_nform_t *f, const uint32_t *out, long n, const gc_nset_t *rs,
                        const uint32_t *rs_out, long rs_mmas, gc_nfind_t *fd)
{
    memset(fd, 0, sizeof(*fd));
    fd->products_exact = fd->sub_in = fd->sub_out = fd->overflow = fd->tf32_round = -1;
    fd->align_min = fd->align_max = -1;
    fd->nan_same = 1;
    int k = f->k, outP = f->c == GC_NF_F16 ? 11 : 0;
    int per = rs ? gc_nset_per_mma(rs) : 0;
    long cap = n + (rs && rs_out ? rs_mmas * per : 0);
    fitcase_t *fc = malloc(sizeof(*fc) * (size_t)(cap > 0 ? cap : 1));
    long *ord = malloc(sizeof(*ord) * (size_t)(cap > 0 ? cap : 1));
    search_t S = {fc, ord, 0, k, outP, {0}, 0};
    probe_cases(f, out, n, &S, fd);
    if (fd->exact_n)
        fd->products_exact = fd->exact_ok == fd->exact_n;
    if (rs && rs_out && fc && ord)
        random_cases(f, rs, rs_out, rs_mmas, &S);
    long nfit = S.nfit;
    fd->fit_cases = nfit;

    /* the search: four joint dimensions (the window; rounding, cut and
     * exponent; the steps; the f16 output), each set in turn to the value
     * with the fewest misses (ties: the simplest), until nothing changes;
     * then one value at a time around the result for the consistent sets */
    int ngroups = 0, *groups = S.groups;
    for (int g = k; g >= 1; g /= 2)
        groups[ngroups++] = g;
    S.ngroups = ngroups;
    gc_nhyp_t h;
    memset(&h, 0, sizeof(h));
    h.acc_bits = 24;
    h.group = k;
    h.c_rnd = 1;
    h.out_rnd = 1;
    long cur = nfit ? count_miss(&h, fc, ord, nfit, k, outP, nfit) : 0;
    int found = cur == 0;
    if (!found)
        search_all(&S, &h, &cur);
    search_descent(&S, &h, &cur);
    fd->best = h;
    fd->fit_miss = cur;
    fd->fit_n = nfit && cur == 0;
    fd->acc_mask_lo = 99;
    fd->align_min = fd->align_max = -1;
    if (fd->fit_n)
        consistent_sets(&S, &h, fd);
    /* group_mask is over groups[] (k, k/2, ...): turn it into bit log2(g) */
    unsigned gm = 0;
    for (int gi = 0; gi < ngroups; gi++)
        if (fd->group_mask & (1u << gi)) {
            int lg = 0;
            while ((1 << lg) < groups[gi])
                lg++;
            gm |= 1u << lg;
        }
    fd->group_mask = gm;
    free(fc);
    free(ord);
}

static const char *rname(int r)
{
    static const char *const n[] = {"rz", "rn", "rd", "ru"};
    return r >= 0 && r < 4 ? n[r] : "?";
}

static void mask_list(char *buf, size_t n, unsigned mask, const char *const *names, int count)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < count && at + 1 < n; i++)
        if (mask & (1u << i)) {
            int w = snprintf(buf + at, n - at, "%s%s", at ? "|" : "", names[i]);
            if (w > 0)
                at += (size_t)w;
        }
}

/* The rows being written (at most max; nr counts all). */
typedef struct rowset {
    gc_nrow_t *rows;
    int nr, max;
} rowset_t;

/* Append a row key = printf(fmt, ...), detail empty. */
static void row(rowset_t *R, const char *key, const char *fmt, ...) GC_PRINTF(3, 4);
static void row(rowset_t *R, const char *key, const char *fmt, ...)
{
    if (R->nr < R->max) {
        gc_nrow_t *w = &R->rows[R->nr];
        snprintf(w->key, sizeof(w->key), "%s", key);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->value, sizeof(w->value), fmt, ap);
        va_end(ap);
        w->detail[0] = '\0';
    }
    R->nr++;
}

/* The detail of the last row. */
static void detail(rowset_t *R, const char *fmt, ...) GC_PRINTF(2, 3);
static void detail(rowset_t *R, const char *fmt, ...)
{
    if (R->nr - 1 < R->max) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(R->rows[R->nr - 1].detail, sizeof(R->rows[R->nr - 1].detail), fmt, ap);
        va_end(ap);
    }
}

/* The detail "consistent=<the names of mask's bits>" (none without a fit). */
static void consistent(rowset_t *R, int fit, unsigned mask, const char *const *names, int n)
{
    char list[96];
    mask_list(list, sizeof(list), mask, names, n);
    detail(R, "consistent=%s", fit ? list : "none");
}

/* The rows of the fitted hypothesis: products, rounding, alignment, ... */
static void rows_fit(rowset_t *R, const gc_nform_t *f, const gc_nfind_t *fd)
{
    static const char *const rn[] = {"rz", "rn", "rd", "ru"};
    static const char *const zf[] = {"zero", "floor"};
    static const char *const cm[] = {"first", "last-rn", "last-rz"};
    static const char *const gn[] = {"1", "2", "4", "8", "16", "32"};
    static const char *const ae[] = {"lead", "sum"};
    static const char *const tf[] = {"false", "true"};
    static const char *const il[] = {"0", "1", "2", "4"};
    int fit = fd->fit_n > 0;
    const gc_nhyp_t *b = &fd->best;
    row(R, "products_exact", "%s", fd->products_exact < 0 ? "-" : fd->products_exact ? "true" : "false");
    detail(R, "exact-probes-%d/%d", fd->exact_ok, fd->exact_n);
    row(R, "fit", "%d", fd->fit_n);
    detail(R, "cases=%ld mismatches=%ld", fd->fit_cases, fit ? 0L : fd->fit_miss);
    row(R, "rounding", "%s", rname(b->rnd));
    consistent(R, fit, fd->rnd_mask, rn, 4);
    row(R, "align_bits", "%d", b->align_bits);
    detail(R, "consistent=%d..%d", fd->align_min, fd->align_max);
    row(R, "align_exp", "%s", ae[b->raw]);
    consistent(R, fit, fd->raw_mask, ae, 2);
    row(R, "acc_bits", "%d", b->acc_bits);
    detail(R, "consistent=%d..%d", fit ? fd->acc_mask_lo : 0, fd->acc_mask_hi);
    row(R, "group", "%d", b->group);
    consistent(R, fit, fd->group_mask, gn, 6);
    row(R, "interleave", "%d", b->interleave);
    consistent(R, fit, fd->il_mask, il, 4);
    row(R, "trunc", "%s", zf[b->trunc_floor]);
    consistent(R, fit, fd->floor_mask, zf, 2);
    row(R, "c_order", "%s", b->c_last ? "last" : "first");
    consistent(R, fit, fd->cmode_mask, cm, 3);
    if (b->c_last) {
        row(R, "c_rounding", "%s", rname(b->c_rnd));
        detail(R, "an-ieee-addition-after-the-products");
    }
    if (f->c == GC_NF_F16) {
        row(R, "out_rounding", "%s", rname(b->out_rnd));
        consistent(R, fit, fd->outrnd_mask, rn, 4);
        row(R, "out_direct", "%s", tf[b->direct]);
        consistent(R, fit, fd->direct_mask, tf, 2);
    }
}

/* The rows of the special values: subnormals, NaN, overflow, zero sign, tf32. */
static void rows_special(rowset_t *R, const gc_nform_t *f, const gc_nfind_t *fd)
{
    row(R, "subnormals", "%s",
        fd->sub_in == 0 && fd->sub_out == 0 ? "flush" : fd->sub_in == 1 && fd->sub_out == 1 ? "keep" : "-");
    detail(R, "inputs=%s results=%s", fd->sub_in < 0 ? "?" : fd->sub_in ? "kept" : "flushed",
           fd->sub_out < 0 ? "?" : fd->sub_out ? "kept" : "flushed");
    if (fd->nan_n) {
        row(R, "nan", "%x", (unsigned)fd->nan_bits);
        detail(R, "nan-results=%d all-same=%d", fd->nan_n, fd->nan_same);
    }
    row(R, "overflow", "%s", fd->overflow < 0 ? "-" : fd->overflow ? "inf" : "ieee");
    detail(R, "largest-finite-plus-an-ulp-or-a-product-past-the-range");
    row(R, "zero_sign", "%s", !fd->zero_n ? "-" : fd->zero_pos == fd->zero_n ? "pos"
                           : fd->zero_sign == fd->zero_n ? "ieee" : "-");
    detail(R, "positive-%d/%d ieee-%d/%d", fd->zero_pos, fd->zero_n, fd->zero_sign, fd->zero_n);
    if (f->a == GC_NF_TF32) {
        row(R, "tf32_operands", "%s", fd->tf32_round < 0 ? "-" : fd->tf32_round ? "round" : "truncate");
        detail(R, "1+2^-11+2^-20");
    }
}

int gc_nfind_rows(const gc_nform_t *f, const gc_nfind_t *fd, gc_nrow_t *rows, int max)
{
    rowset_t R = {rows, 0, max};
    rows_fit(&R, f, fd);
    rows_special(&R, f, fd);
    return R.nr < max ? R.nr : max;
}
