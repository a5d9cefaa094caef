/* numeric_gen.c - formats, PRNG, forms, generators and the fixture-set plan
 * of the `numeric` bench (see numeric_gen.h). libc only; no libm function
 * whose result could differ between hosts (ldexp, frexp and floor are exact). */
#include "numeric_gen.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measure.h"
#include "numeric_probe.h"
#include "../util/rng.h"

/* ---- formats ---- */

static const gc_nfmt_info_t fmts[GC_NF_COUNT] = {
    [GC_NF_F32] = {"f32", 4, 8, 23, 127, 1},   [GC_NF_F16] = {"f16", 2, 5, 10, 15, 1},
    [GC_NF_BF16] = {"bf16", 2, 8, 7, 127, 1},  [GC_NF_TF32] = {"tf32", 4, 8, 10, 127, 1},
    [GC_NF_E4M3] = {"e4m3", 1, 4, 3, 7, 0},    [GC_NF_E5M2] = {"e5m2", 1, 5, 2, 15, 1},
};

const gc_nfmt_info_t *gc_nfmt_info(gc_nfmt_t f)
{
    return &fmts[f];
}

int gc_nfmt_parse(const char *name)
{
    for (int i = 0; i < GC_NF_COUNT; i++)
        if (!strcmp(fmts[i].name, name))
            return i;
    return -1;
}

/* Fields of a non-f32 pattern: tf32 is read from its f32 layout. */
typedef struct fields {
    uint32_t sign, e, m;
    int E, M, bias;  /* exponent/fraction widths */
} fields_t;

static fields_t split_bits(gc_nfmt_t f, uint32_t bits)
{
    fields_t x;
    const gc_nfmt_info_t *in = &fmts[f];
    if (f == GC_NF_TF32) {
        x.sign = bits >> 31;
        x.e = (bits >> 23) & 0xff;
        x.m = (bits >> 13) & 0x3ff;
    } else {
        x.sign = (bits >> (in->exp_bits + in->man_bits)) & 1;
        x.e = (bits >> in->man_bits) & ((1u << in->exp_bits) - 1);
        x.m = bits & ((1u << in->man_bits) - 1);
    }
    x.E = in->exp_bits;
    x.M = in->man_bits;
    x.bias = in->bias;
    return x;
}

static uint32_t join_bits(gc_nfmt_t f, uint32_t sign, uint32_t e, uint32_t m)
{
    const gc_nfmt_info_t *in = &fmts[f];
    if (f == GC_NF_TF32)
        return sign << 31 | e << 23 | m << 13;
    return sign << (in->exp_bits + in->man_bits) | e << in->man_bits | m;
}

int gc_nfmt_is_nan(gc_nfmt_t f, uint32_t bits)
{
    if (f == GC_NF_F32) {
        return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu);
    }
    fields_t x = split_bits(f, bits);
    uint32_t emax = (1u << x.E) - 1;
    if (f == GC_NF_E4M3)
        return x.e == emax && x.m == 7;
    if (f == GC_NF_TF32)
        return x.e == emax && (bits & 0x7fffffu);
    return x.e == emax && x.m != 0;
}

int gc_nfmt_is_sub(gc_nfmt_t f, uint32_t bits)
{
    if (f == GC_NF_F32)
        return (bits & 0x7f800000u) == 0 && (bits & 0x7fffffu);
    fields_t x = split_bits(f, bits);
    return x.e == 0 && x.m != 0;
}

double gc_nfmt_decode(gc_nfmt_t f, uint32_t bits)
{
    if (f == GC_NF_F32 || f == GC_NF_TF32) {
        float v;
        memcpy(&v, &bits, sizeof(v));
        return (double)v;
    }
    fields_t x = split_bits(f, bits);
    uint32_t emax = (1u << x.E) - 1;
    double s = x.sign ? -1.0 : 1.0;
    if (f == GC_NF_E4M3) {
        if (x.e == emax && x.m == 7)
            return NAN;
    } else if (x.e == emax) {
        return x.m ? NAN : s * INFINITY;
    }
    if (x.e == 0)
        return s * ldexp((double)x.m, 1 - x.bias - x.M);
    return s * ldexp((double)((1u << x.M) | x.m), (int)x.e - x.bias - x.M);
}

double gc_nfmt_max(gc_nfmt_t f)
{
    const gc_nfmt_info_t *in = &fmts[f];
    if (f == GC_NF_E4M3)
        return 448.0;
    int emax = (1 << in->exp_bits) - 2 - in->bias;
    return ldexp(2.0 - ldexp(1.0, -in->man_bits), emax);
}

double gc_nfmt_min_normal(gc_nfmt_t f)
{
    return ldexp(1.0, 1 - fmts[f].bias);
}

double gc_nfmt_min_sub(gc_nfmt_t f)
{
    return ldexp(1.0, 1 - fmts[f].bias - fmts[f].man_bits);
}

static uint32_t canonical_nan(gc_nfmt_t f)
{
    switch (f) {
    case GC_NF_F32:
    case GC_NF_TF32: return 0x7fc00000u;
    case GC_NF_F16: return 0x7e00u;
    case GC_NF_BF16: return 0x7fc0u;
    case GC_NF_E4M3: return 0x7fu;
    case GC_NF_E5M2: return 0x7eu;
    default: return 0;
    }
}

static uint32_t inf_bits(gc_nfmt_t f, int neg)
{
    const gc_nfmt_info_t *in = &fmts[f];
    if (!in->has_inf)
        return canonical_nan(f) | (neg ? 0x80u : 0);
    return join_bits(f, (uint32_t)neg, (1u << in->exp_bits) - 1, 0);
}

/* Round |x| (finite, > 0) to the format's grid with RNE; returns 0 and the
 * fields, or 1 on overflow. exact: set to 1 if no rounding happened. */
static int round_fields(gc_nfmt_t f, double ax, uint32_t *e_out, uint32_t *m_out, int *exact)
{
    const gc_nfmt_info_t *in = &fmts[f];
    int emin = 1 - in->bias;
    int ex;
    (void)frexp(ax, &ex);
    int lead = ex - 1;                      /* ax in [2^lead, 2^(lead+1)) */
    int q = (lead > emin ? lead : emin) - in->man_bits; /* quantum exponent */
    double sc = ldexp(ax, -q);
    double fl = floor(sc);
    double fr = sc - fl;
    *exact = fr == 0.0;
    double r = fl;
    if (fr > 0.5 || (fr == 0.5 && fmod(fl, 2.0) != 0.0))
        r = fl + 1.0;
    double top = ldexp(1.0, in->man_bits + 1);
    if (r >= top) {
        r = r / 2.0;
        q++;
    }
    uint32_t e, m;
    if (r >= ldexp(1.0, in->man_bits)) {
        e = (uint32_t)(q + in->man_bits + in->bias);
        m = (uint32_t)(r - ldexp(1.0, in->man_bits));
    } else {
        e = 0;
        m = (uint32_t)r;
    }
    uint32_t efield_max = (1u << in->exp_bits) - (in->has_inf ? 2u : 1u);
    if (e > efield_max || (f == GC_NF_E4M3 && e == efield_max && m == 7))
        return 1;
    *e_out = e;
    *m_out = m;
    return 0;
}

int gc_nfmt_exact(gc_nfmt_t f, double x, uint32_t *bits)
{
    if (isnan(x))
        return 0;
    int neg = signbit(x) != 0;
    if (isinf(x)) {
        if (!fmts[f].has_inf)
            return 0;
        *bits = inf_bits(f, neg);
        return 1;
    }
    if (x == 0.0) {
        *bits = join_bits(f, (uint32_t)neg, 0, 0);
        return 1;
    }
    if (f == GC_NF_F32) {
        float v = (float)x;
        if ((double)v != x)
            return 0;
        memcpy(bits, &v, sizeof(*bits));
        return 1;
    }
    uint32_t e, m;
    int exact;
    if (round_fields(f, fabs(x), &e, &m, &exact) || !exact)
        return 0;
    *bits = join_bits(f, (uint32_t)neg, e, m);
    return 1;
}

uint32_t gc_nfmt_encode(gc_nfmt_t f, double x)
{
    if (isnan(x))
        return canonical_nan(f);
    int neg = signbit(x) != 0;
    if (isinf(x))
        return inf_bits(f, neg);
    if (f == GC_NF_F32) {
        float v = (float)x;
        uint32_t b;
        memcpy(&b, &v, sizeof(b));
        return b;
    }
    if (x == 0.0)
        return join_bits(f, (uint32_t)neg, 0, 0);
    uint32_t e, m;
    int exact;
    if (round_fields(f, fabs(x), &e, &m, &exact))
        return inf_bits(f, neg);
    return join_bits(f, (uint32_t)neg, e, m);
}

/* ---- PRNG ---- */

uint64_t gc_nrng_u64(gc_nrng_t *r)
{
    return gc_rng_next(&r->s);
}

void gc_nrng_init(gc_nrng_t *r, uint64_t seed, uint64_t a, uint64_t b)
{
    r->s = seed * 0x9e3779b97f4a7c15ull + a * 0xd1b54a32d192ed03ull + b * 0x8cb92ba72f3d8dd7ull;
    (void)gc_nrng_u64(r);
}

uint32_t gc_nrng_below(gc_nrng_t *r, uint32_t n)
{
    return (uint32_t)(((gc_nrng_u64(r) >> 32) * (uint64_t)n) >> 32);
}

double gc_nrng_normal(gc_nrng_t *r)
{
    uint64_t s = 0;
    for (int i = 0; i < 12; i++)
        s += gc_nrng_u64(r) >> 32;
    return ldexp((double)s, -32) - 6.0;
}

/* ---- forms ---- */

const gc_nform_t gc_nforms[] = {
    {"mma", "m16n8k16", 16, 8, 16, GC_NF_F16, GC_NF_F32, 80, 1},
    {"mma", "m16n8k16", 16, 8, 16, GC_NF_BF16, GC_NF_F32, 80, 1},
    {"mma", "m16n8k8", 16, 8, 8, GC_NF_TF32, GC_NF_F32, 80, 1},
    {"mma", "m16n8k16", 16, 8, 16, GC_NF_F16, GC_NF_F16, 80, 1},
    {"mma", "m16n8k8", 16, 8, 8, GC_NF_F16, GC_NF_F32, 80, 0},
    {"mma", "m16n8k8", 16, 8, 8, GC_NF_BF16, GC_NF_F32, 80, 0},
    {"mma", "m16n8k4", 16, 8, 4, GC_NF_TF32, GC_NF_F32, 80, 0},
    {"mma", "m16n8k8", 16, 8, 8, GC_NF_F16, GC_NF_F16, 80, 0},
    {"mma", "m16n8k32", 16, 8, 32, GC_NF_E4M3, GC_NF_F32, 89, 0},
    {"mma", "m16n8k32", 16, 8, 32, GC_NF_E5M2, GC_NF_F32, 89, 0},
    {"mma", "m16n8k32", 16, 8, 32, GC_NF_E4M3, GC_NF_F16, 89, 0},
    {"mma", "m16n8k32", 16, 8, 32, GC_NF_E5M2, GC_NF_F16, 89, 0},
    {"wgmma", "m64n8k16", 64, 8, 16, GC_NF_F16, GC_NF_F32, 90, 0},
    {"wgmma", "m64n8k16", 64, 8, 16, GC_NF_BF16, GC_NF_F32, 90, 0},
    {"wgmma", "m64n8k8", 64, 8, 8, GC_NF_TF32, GC_NF_F32, 90, 0},
    {"wgmma", "m64n8k16", 64, 8, 16, GC_NF_F16, GC_NF_F16, 90, 0},
    {"wgmma", "m64n8k32", 64, 8, 32, GC_NF_E4M3, GC_NF_F32, 90, 0},
    {"wgmma", "m64n8k32", 64, 8, 32, GC_NF_E5M2, GC_NF_F32, 90, 0},
    {"wgmma", "m64n8k32", 64, 8, 32, GC_NF_E4M3, GC_NF_F16, 90, 0},
};
const int gc_nforms_count = (int)(sizeof(gc_nforms) / sizeof(gc_nforms[0]));

int gc_nform_find(const char *inst, const char *shape, const char *a, const char *c)
{
    for (int i = 0; i < gc_nforms_count; i++) {
        const gc_nform_t *f = &gc_nforms[i];
        if (!strcmp(f->inst, inst) && !strcmp(f->shape, shape) &&
            !strcmp(fmts[f->a].name, a) && !strcmp(fmts[f->c].name, c))
            return i;
    }
    return -1;
}

void gc_nform_name(const gc_nform_t *f, char *buf, int n)
{
    snprintf(buf, (size_t)n, "%s.%s.%s.%s", f->inst, f->shape, fmts[f->a].name,
             fmts[f->c].name);
}

/* ---- generators ---- */

static const char *const gen_names[GC_NG_COUNT] = {"normal", "wide",   "cancel",
                                                    "special", "subnorm", "probe"};

const char *gc_ngen_name(gc_ngen_t g)
{
    return (unsigned)g < GC_NG_COUNT ? gen_names[g] : "?";
}

int gc_ngen_parse(const char *name)
{
    for (int i = 0; i < GC_NG_COUNT; i++)
        if (!strcmp(gen_names[i], name))
            return i;
    return -1;
}

/* A random normal number with unbiased exponent in [elo, ehi]. */
static uint32_t elem_wide(gc_nfmt_t f, gc_nrng_t *r, int elo, int ehi)
{
    const gc_nfmt_info_t *in = &fmts[f];
    int e = elo + (int)gc_nrng_below(r, (uint32_t)(ehi - elo + 1));
    uint32_t m = (uint32_t)(gc_nrng_u64(r) >> 40) & ((1u << in->man_bits) - 1);
    uint32_t s = (uint32_t)(gc_nrng_u64(r) >> 63);
    uint32_t ef = (uint32_t)(e + in->bias);
    if (f == GC_NF_E4M3 && ef == 15 && m == 7)
        m = 6;
    if (f == GC_NF_F32)
        return s << 31 | ef << 23 | ((uint32_t)(gc_nrng_u64(r) >> 41) & 0x7fffffu);
    return join_bits(f, s, ef, m);
}

/* Exponent range of the "wide" generator for A/B of format f. */
static void wide_range(gc_nfmt_t f, int *lo, int *hi)
{
    switch (f) {
    case GC_NF_F16: *lo = -8, *hi = 7; break;
    case GC_NF_E4M3: *lo = -4, *hi = 4; break;
    case GC_NF_E5M2: *lo = -8, *hi = 7; break;
    default: *lo = -24, *hi = 23; break;
    }
}

uint32_t gc_ngen_wide(gc_nfmt_t f, gc_nrng_t *r)
{
    int lo, hi;
    wide_range(f, &lo, &hi);
    return elem_wide(f, r, lo, hi);
}

static uint32_t elem_sub(gc_nfmt_t f, gc_nrng_t *r)
{
    const gc_nfmt_info_t *in = &fmts[f];
    uint32_t s = (uint32_t)(gc_nrng_u64(r) >> 63);
    if (gc_nrng_below(r, 2)) {
        uint32_t m = 0;
        while (!m)
            m = (uint32_t)(gc_nrng_u64(r) >> 20) & ((1u << in->man_bits) - 1);
        if (f == GC_NF_F32)
            return s << 31 | ((uint32_t)(gc_nrng_u64(r) >> 41) & 0x7fffffu) | 1u;
        return join_bits(f, s, 0, m);
    }
    return elem_wide(f, r, 1 - in->bias, 4 - in->bias);
}

static uint32_t elem_special(gc_nfmt_t f, gc_nrng_t *r)
{
    const gc_nfmt_info_t *in = &fmts[f];
    uint32_t sign = (uint32_t)(gc_nrng_u64(r) >> 63);
    uint32_t emaxf = (1u << in->exp_bits) - 1;
    switch (gc_nrng_below(r, 10)) {
    case 0: return join_bits(f, sign, 0, 0);                         /* +-0 */
    case 1: return inf_bits(f, (int)sign);                           /* +-inf */
    case 2: return canonical_nan(f);                                 /* NaN */
    case 3:                                                          /* other NaN */
        if (f == GC_NF_E4M3)
            return 0xffu;
        if (f == GC_NF_F32 || f == GC_NF_TF32)
            return 0xff800000u | (f == GC_NF_F32 ? 1u : 1u << 13);
        return join_bits(f, 1, emaxf, 1);
    case 4: return gc_nfmt_encode(f, sign ? -gc_nfmt_max(f) : gc_nfmt_max(f));
    case 5: return join_bits(f, sign, 1, 0);                         /* +-min normal */
    case 6: {                                                        /* subnormal */
        uint32_t m = (uint32_t)(gc_nrng_u64(r) >> 33) & ((1u << in->man_bits) - 1);
        if (f == GC_NF_F32)
            return sign << 31 | (((uint32_t)(gc_nrng_u64(r) >> 41) & 0x7fffffu) | 1u);
        return join_bits(f, sign, 0, m ? m : 1);
    }
    case 7: return gc_nfmt_encode(f, sign ? -1.0 : 1.0);
    case 8: return elem_wide(f, r, (int)emaxf - 2 - in->bias - 2, (int)emaxf - 1 - in->bias - 1);
    default: return elem_wide(f, r, 1 - in->bias, 3 - in->bias);
    }
}

static uint32_t flip_lsb(gc_nfmt_t f, uint32_t b)
{
    return f == GC_NF_TF32 ? b ^ (1u << 13) : b ^ 1u;
}

static uint32_t sign_mask(gc_nfmt_t f)
{
    const gc_nfmt_info_t *in = &fmts[f];
    return f == GC_NF_TF32 || f == GC_NF_F32 ? 0x80000000u : 1u << (in->exp_bits + in->man_bits);
}

/* The probe generator: mma `index` holds probe cases index*n .. on its
 * diagonal (gc_nprobe_case). -1 past the last case. */
static int fill_probe(const gc_nform_t *f, long index, uint32_t *A, uint32_t *B, uint32_t *C)
{
    int m = f->m, n = f->n, k = f->k;
    long total = gc_nprobe_count(f);
    if (index < 0 || index * n >= total)
        return -1;
    memset(A, 0, sizeof(*A) * (size_t)(m * k));
    memset(B, 0, sizeof(*B) * (size_t)(k * n));
    memset(C, 0, sizeof(*C) * (size_t)(m * n));
    for (int t = 0; t < n && t < m; t++) {
        gc_nprobe_t pc;
        if (gc_nprobe_case(f, index * n + t, &pc) != 0)
            continue;
        for (int kk = 0; kk < k; kk++) {
            A[t * k + kk] = pc.a[kk];
            B[kk * n + t] = pc.b[kk];
        }
        C[t * n + t] = pc.c;
    }
    return 0;
}

/* The cancel generator on top of normal inputs: products cancel in pairs in
 * odd rows (a[2i+1] = -a[2i], b[2i+1][j] = b[2i][j] moved by one unit in
 * the last place); even rows get c = -(their exact dot product), odd rows a
 * small random c. */
static void fill_cancel(const gc_nform_t *f, gc_nrng_t *r, uint32_t *A, uint32_t *B, uint32_t *C)
{
    int m = f->m, n = f->n, k = f->k;
    uint32_t sm = sign_mask(f->a);
    for (int kk = 0; kk + 1 < k; kk += 2)
        for (int j = 0; j < n; j++)
            B[(kk + 1) * n + j] = flip_lsb(f->a, B[kk * n + j]);
    for (int row = 1; row < m; row += 2)
        for (int kk = 0; kk + 1 < k; kk += 2)
            A[row * k + kk + 1] = A[row * k + kk] ^ sm;
    for (int row = 0; row < m; row++)
        for (int j = 0; j < n; j++) {
            double c;
            if (row % 2 == 0) {
                double s = 0;
                for (int kk = 0; kk < k; kk++)
                    s += gc_nfmt_decode(f->a, A[row * k + kk]) *
                         gc_nfmt_decode(f->a, B[kk * n + j]);
                c = -s;
            } else {
                c = ldexp(gc_nrng_normal(r), -fmts[f->a].man_bits);
            }
            C[row * n + j] = gc_nfmt_encode(f->c, c);
        }
}

int gc_ngen_fill(const gc_nform_t *f, gc_ngen_t g, uint64_t seed, long index, uint32_t *A,
                 uint32_t *B, uint32_t *C)
{
    int m = f->m, n = f->n, k = f->k;
    gc_nrng_t r;
    gc_nrng_init(&r, seed, (uint64_t)index, (uint64_t)g);
    int lo, hi;
    wide_range(f->a, &lo, &hi);
    int clo = 2 * lo - 8, chi = 2 * hi + 8;
    if (f->c == GC_NF_F16)
        clo = -14, chi = 15;
    switch (g) {
    case GC_NG_NORMAL:
    case GC_NG_CANCEL:
        for (int i = 0; i < m * k; i++)
            A[i] = gc_nfmt_encode(f->a, gc_nrng_normal(&r));
        for (int i = 0; i < k * n; i++)
            B[i] = gc_nfmt_encode(f->a, gc_nrng_normal(&r));
        for (int i = 0; i < m * n; i++)
            C[i] = gc_nfmt_encode(f->c, gc_nrng_normal(&r));
        break;
    case GC_NG_WIDE:
        for (int i = 0; i < m * k; i++)
            A[i] = elem_wide(f->a, &r, lo, hi);
        for (int i = 0; i < k * n; i++)
            B[i] = elem_wide(f->a, &r, lo, hi);
        for (int i = 0; i < m * n; i++)
            C[i] = elem_wide(f->c, &r, clo, chi);
        break;
    case GC_NG_SPECIAL:
        for (int i = 0; i < m * k; i++)
            A[i] = gc_nrng_below(&r, 16) ? gc_nfmt_encode(f->a, gc_nrng_normal(&r))
                                         : elem_special(f->a, &r);
        for (int i = 0; i < k * n; i++)
            B[i] = gc_nrng_below(&r, 16) ? gc_nfmt_encode(f->a, gc_nrng_normal(&r))
                                         : elem_special(f->a, &r);
        for (int i = 0; i < m * n; i++)
            C[i] = gc_nrng_below(&r, 16) ? gc_nfmt_encode(f->c, gc_nrng_normal(&r))
                                         : elem_special(f->c, &r);
        break;
    case GC_NG_SUBNORM:
        for (int i = 0; i < m * k; i++)
            A[i] = elem_sub(f->a, &r);
        for (int i = 0; i < k * n; i++)
            B[i] = elem_sub(f->a, &r);
        for (int i = 0; i < m * n; i++)
            C[i] = elem_sub(f->c, &r);
        break;
    case GC_NG_PROBE:
        return fill_probe(f, index, A, B, C);
    default: return -1;
    }
    if (g == GC_NG_CANCEL)
        fill_cancel(f, &r, A, B, C);
    return 0;
}

/* ---- the plan of sets ---- */

uint64_t gc_nfnv1a(uint64_t h, const void *data, unsigned long n)
{
    const unsigned char *p = data;
    for (unsigned long i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

enum { MAX_SETS = 160 };
static gc_nset_t plan[MAX_SETS];
static int plan_n;

int gc_nset_plan(const gc_nset_t **sets)
{
    if (!plan_n) {
        static const long main_n[GC_NG_COUNT] = {512, 512, 128, 128, 128, 0};
        static const long mma_n[GC_NG_COUNT] = {128, 128, 32, 32, 32, 0};
        static const long wg_n[GC_NG_COUNT] = {32, 32, 16, 16, 16, 0};
        int n = 0;
        for (int fi = 0; fi < gc_nforms_count && n + GC_NG_COUNT <= MAX_SETS; fi++) {
            const gc_nform_t *f = &gc_nforms[fi];
            const long *cnt = f->main ? main_n : !strcmp(f->inst, "mma") ? mma_n : wg_n;
            for (int g = 0; g < GC_NG_COUNT; g++) {
                gc_nset_t *s = &plan[n++];
                s->form = fi;
                s->gen = (gc_ngen_t)g;
                s->sel = g == GC_NG_PROBE ? GC_NSEL_DIAG : GC_NSEL_ALL;
                s->mmas = g == GC_NG_PROBE ? (gc_nprobe_count(f) + f->n - 1) / f->n : cnt[g];
                char name[96];
                gc_nset_name(s, name, sizeof(name));
                s->seed = gc_nfnv1a(GC_NFNV_INIT, name, strlen(name));
            }
        }
        plan_n = n;
    }
    *sets = plan;
    return plan_n;
}

int gc_nset_per_mma(const gc_nset_t *s)
{
    const gc_nform_t *f = &gc_nforms[s->form];
    return s->sel == GC_NSEL_DIAG ? (f->n < f->m ? f->n : f->m) : f->m * f->n;
}

void gc_nset_pos(const gc_nset_t *s, int i, int *row, int *col)
{
    const gc_nform_t *f = &gc_nforms[s->form];
    if (s->sel == GC_NSEL_DIAG) {
        *row = i;
        *col = i;
    } else {
        *row = i / f->n;
        *col = i % f->n;
    }
}

void gc_nset_name(const gc_nset_t *s, char *buf, int n)
{
    char fn[64];
    gc_nform_name(&gc_nforms[s->form], fn, sizeof(fn));
    snprintf(buf, (size_t)n, "%s.%s", fn, gen_names[s->gen]);
}

/* What each kernel compiles to on sm_90a (seen on the H100, cuobjdump): one
 * HMMA per mma.sync of f16/bf16/tf32; mma.sync with FP8 is two HMMA.16816
 * on operands unpacked to f16 (F2FP) and a separate FADD/HADD2 of C; wgmma
 * is HGMMA, and QGMMA for FP8. */
const gc_sass_rule_t gc_numeric_sass[GC_NUMERIC_SASS_N] = {
    {"k_num_mma_f16_f32_k16", "HMMA", 1, 1},     {"k_num_mma_bf16_f32_k16", "HMMA", 1, 1},
    {"k_num_mma_tf32_f32_k8", "HMMA", 1, 1},     {"k_num_mma_f16_f16_k16", "HMMA", 1, 1},
    {"k_num_mma_e4m3_f32_k32", "HMMA", 2, 2},    {"k_num_mma_e4m3_f32_k32", "F2FP", 1, -1},
    {"k_num_mma_e4m3_f32_k32", "FADD", 1, -1},   {"k_num_wgmma_f16_f32_k16", "HGMMA", 1, 1},
    {"k_num_wgmma_e4m3_f32_k32", "QGMMA", 1, 1}, {"k_num_wgmma_e5m2_f32_k32", "QGMMA", 1, 1},
};
