/* emulate.c - the CPU model of one tensor-core mma (emulate.h). Exact
 * integer arithmetic: an addend is (sign, integer significand, exponent);
 * one fused step sums the cut addends in an int64, then rounds once. */
#include "emulate.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>


/* ---- formats ---- */

typedef struct fmt {
    const char *name;
    int exp_bits, man_bits, bias, has_inf;
} fmt_t;

static const fmt_t fmts[GC_EMU_NFMT] = {
    [GC_EMU_F32] = {"f32", 8, 23, 127, 1},  [GC_EMU_F16] = {"f16", 5, 10, 15, 1},
    [GC_EMU_BF16] = {"bf16", 8, 7, 127, 1}, [GC_EMU_TF32] = {"tf32", 8, 10, 127, 1},
    [GC_EMU_E4M3] = {"e4m3", 4, 3, 7, 0},   [GC_EMU_E5M2] = {"e5m2", 5, 2, 15, 1},
};

const char *gc_emu_fmt_name(gc_emu_fmt_t f)
{
    return (unsigned)f < GC_EMU_NFMT ? fmts[f].name : "?";
}

int gc_emu_fmt_parse(const char *s)
{
    for (int i = 0; i < GC_EMU_NFMT; i++)
        if (!strcmp(fmts[i].name, s))
            return i;
    return -1;
}


const char *gc_emu_rnd_name(gc_emu_rnd_t r)
{
    return (unsigned)r < 4 ? gc_rounding_names[r] : "?";
}

int gc_emu_rnd_parse(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(gc_rounding_names[i], s))
            return i;
    return -1;
}

/* ---- exact numbers ---- */

enum { X_ZERO, X_FIN, X_INF, X_NAN };

typedef struct xnum {
    int cls;        /* X_ZERO X_FIN X_INF X_NAN */
    int neg;
    uint64_t mag;   /* X_FIN: value = mag * 2^exp, mag > 0 */
    int exp;
    int raw;        /* IEEE exponent used to align (products: ea + eb) */
} xnum_t;

static int bitlen(uint64_t x)
{
    int n = 0;
    while (x) {
        n++;
        x >>= 1;
    }
    return n;
}

static int lead(const xnum_t *x)
{
    return x->exp + bitlen(x->mag) - 1;
}

/* Decode bits of format f; flush: subnormals read as zero. tf32 operands
 * are f32 patterns, cut or rounded to 10 fraction bits first. */
static xnum_t decode(gc_emu_fmt_t f, uint32_t bits, int flush, int tf32_round)
{
    xnum_t x = {X_ZERO, 0, 0, 0, 0};
    const fmt_t *in = &fmts[f];
    uint32_t s, e, m;
    int mb = in->man_bits;
    if (f == GC_EMU_F32 || f == GC_EMU_TF32) {
        s = bits >> 31;
        e = (bits >> 23) & 0xff;
        m = bits & 0x7fffff;
        mb = 23;
        if (f == GC_EMU_TF32 && e != 0xff) {
            if (tf32_round) {
                uint32_t mag = bits & 0x7fffffff, low = mag & 0x1fff;
                mag &= ~0x1fffu;
                if (low > 0x1000 || (low == 0x1000 && (mag & 0x2000)))
                    mag += 0x2000; /* may carry into the exponent: still right */
                e = mag >> 23;
                m = mag & 0x7fffff;
            } else {
                m &= ~0x1fffu;
            }
        }
    } else {
        s = (bits >> (in->exp_bits + in->man_bits)) & 1;
        e = (bits >> in->man_bits) & ((1u << in->exp_bits) - 1);
        m = bits & ((1u << in->man_bits) - 1);
    }
    uint32_t emaxf = (f == GC_EMU_F32 || f == GC_EMU_TF32) ? 0xff : (1u << in->exp_bits) - 1;
    x.neg = (int)s;
    if (f == GC_EMU_E4M3) {
        if (e == emaxf && m == 7) {
            x.cls = X_NAN;
            return x;
        }
    } else if (e == emaxf) {
        x.cls = m ? X_NAN : X_INF;
        return x;
    }
    if (e == 0) {
        if (m == 0 || flush)
            return x;
        x.cls = X_FIN;
        x.mag = m;
        x.exp = 1 - in->bias - mb;
        x.raw = 1 - in->bias;
        return x;
    }
    x.cls = X_FIN;
    x.mag = (1ull << mb) | m;
    x.exp = (int)e - in->bias - mb;
    x.raw = (int)e - in->bias;
    return x;
}

/* Round neg * mag * 2^exp to P significand bits, normal exponents from emin
 * to emax, with mode r; subnormal results kept or flushed. */
static xnum_t round_to(int neg, uint64_t mag, int exp, int P, int emin, int emax, gc_emu_rnd_t r,
                       int sub_keep, int ovf_inf)
{
    xnum_t x = {X_ZERO, neg, 0, 0, 0};
    if (!mag)
        return x;
    int ld = exp + bitlen(mag) - 1;
    if (ld < emin && !sub_keep)
        return x;
    int q = (ld > emin ? ld : emin) - (P - 1);
    uint64_t kept = mag;
    if (q > exp) {
        int sh = q - exp;
        uint64_t rem, half;
        if (sh >= 64) {
            kept = 0;
            rem = mag;
            half = sh == 64 ? (mag >> 63) & 1 : 0;
            rem = sh == 64 ? mag & ~(1ull << 63) : mag;
            int up = 0;
            if (r == GC_EMU_RN)
                up = half && rem;
            else if (r == GC_EMU_RU)
                up = !neg;
            else if (r == GC_EMU_RD)
                up = neg;
            kept = up ? 1 : 0;
        } else {
            kept = mag >> sh;
            rem = mag & ((1ull << sh) - 1);
            half = (rem >> (sh - 1)) & 1;
            uint64_t sticky = rem & ((1ull << (sh - 1)) - 1);
            int up = 0;
            if (r == GC_EMU_RN)
                up = half && (sticky || (kept & 1));
            else if (r == GC_EMU_RU)
                up = rem && !neg;
            else if (r == GC_EMU_RD)
                up = rem && neg;
            kept += (uint64_t)up;
        }
        exp = q;
        if (!kept)
            return x;
        if (bitlen(kept) > P) {
            kept >>= 1;
            exp++;
        }
    }
    x.cls = X_FIN;
    x.mag = kept;
    x.exp = exp;
    if (lead(&x) < emin && !sub_keep) {
        x.cls = X_ZERO;
        return x;
    }
    if (lead(&x) > emax) {
        int to_inf = ovf_inf || r == GC_EMU_RN || (r == GC_EMU_RU && !neg) || (r == GC_EMU_RD && neg);
        if (to_inf) {
            x.cls = X_INF;
        } else {
            x.mag = (1ull << P) - 1;
            x.exp = emax - (P - 1);
        }
    }
    x.raw = lead(&x) > emin ? lead(&x) : emin;
    return x;
}

/* Encode x into format f (f32 or f16); x is already on f's grid. */
static uint32_t encode(const gc_emu_t *e, gc_emu_fmt_t f, const xnum_t *x)
{
    const fmt_t *in = &fmts[f];
    uint32_t sbit = (uint32_t)x->neg << (in->exp_bits + in->man_bits);
    uint32_t emaxf = (1u << in->exp_bits) - 1;
    if (x->cls == X_NAN)
        return e->nan_bits;
    if (x->cls == X_ZERO)
        return sbit;
    if (x->cls == X_INF)
        return sbit | emaxf << in->man_bits;
    int emin = 1 - in->bias, ld = lead(x);
    int q = (ld > emin ? ld : emin) - in->man_bits; /* quantum */
    uint64_t m = x->mag;
    if (x->exp > q)
        m <<= (x->exp - q);
    else
        m >>= (q - x->exp);
    if (ld < emin)
        return sbit | (uint32_t)m;
    return sbit | (uint32_t)(ld + in->bias) << in->man_bits | ((uint32_t)m & ((1u << in->man_bits) - 1));
}

/* ---- the model ---- */

int gc_emu_init(gc_emu_t *e, gc_emu_fmt_t a, gc_emu_fmt_t c, gc_err_t *err)
{
    memset(e, 0, sizeof(*e));
    if ((unsigned)a >= GC_EMU_NFMT || (c != GC_EMU_F32 && c != GC_EMU_F16))
        return gc_err_set(err, GC_EUSAGE, "no tensor-core form %s.%s (C/D must be f32 or f16)",
                          gc_emu_fmt_name(a), gc_emu_fmt_name(c));
    e->a = a;
    e->c = c;
    e->products_exact = 1;
    e->align_bits = 0;
    e->group = 0;
    e->rounding = GC_EMU_RN;
    e->acc_bits = 24;
    e->out_rounding = GC_EMU_RN;
    e->sub_in = e->sub_out = 1;
    e->nan_bits = c == GC_EMU_F32 ? 0x7fffffffu : 0x7fffu;
    return 0;
}

int gc_emu_check(const gc_emu_t *e, gc_err_t *err)
{
    if ((unsigned)e->a >= GC_EMU_NFMT || (e->c != GC_EMU_F32 && e->c != GC_EMU_F16))
        return gc_err_set(err, GC_EINPUT, "emulator: bad form");
    if (e->align_bits < 0 || e->align_bits > 30)
        return gc_err_set(err, GC_EINPUT, "emulator: align_bits %d outside 0..30", e->align_bits);
    if (e->acc_bits < 2 || e->acc_bits > 24)
        return gc_err_set(err, GC_EINPUT, "emulator: acc_bits %d outside 2..24", e->acc_bits);
    if ((unsigned)e->rounding > GC_EMU_RU || (unsigned)e->out_rounding > GC_EMU_RU)
        return gc_err_set(err, GC_EINPUT, "emulator: bad rounding mode");
    return 0;
}

const gc_numerics_t *gc_emu_find(const gc_arch_t *arch, const char *inst, const char *a,
                                 const char *c)
{
    return gc_arch_numerics(arch, inst, a, c);
}

/* A rounding key's value, or -1 with err set. */
static int rnd_key(const gc_numerics_t *n, const char *key, const char *v, gc_err_t *err)
{
    int r = gc_emu_rnd_parse(v);
    if (r < 0)
        gc_err_set(err, GC_EINPUT, "numerics entry %s.%s: %s '%s' is not rz, rn, rd or ru", n->a,
                   n->c, key, v);
    return r;
}

int gc_emu_from_numerics(gc_emu_t *e, const gc_numerics_t *n, gc_err_t *err)
{
    int a = n->a ? gc_emu_fmt_parse(n->a) : -1, c = n->c ? gc_emu_fmt_parse(n->c) : -1;
    if (a < 0 || c < 0)
        return gc_err_set(err, GC_EINPUT, "numerics entry %s.%s: no emulator for this form",
                          n->a ? n->a : "?", n->c ? n->c : "?");
    int rc = gc_emu_init(e, (gc_emu_fmt_t)a, (gc_emu_fmt_t)c, err);
    if (rc)
        return rc;
    if (n->products_exact.set)
        e->products_exact = n->products_exact.val;
    if (n->align_bits.set)
        e->align_bits = (int)n->align_bits.v;
    if (n->group.set)
        e->group = (int)n->group.v;
    if (n->acc_bits.set)
        e->acc_bits = (int)n->acc_bits.v;
    if (n->interleave.set)
        e->interleave = (int)n->interleave.v;
    int r;
    if (n->rounding) {
        if ((r = rnd_key(n, "rounding", n->rounding, err)) < 0)
            return GC_EINPUT;
        e->rounding = (gc_emu_rnd_t)r;
    }
    if (n->out_rounding) {
        if ((r = rnd_key(n, "out_rounding", n->out_rounding, err)) < 0)
            return GC_EINPUT;
        e->out_rounding = (gc_emu_rnd_t)r;
    }
    if (n->c_rounding) {
        if ((r = rnd_key(n, "c_rounding", n->c_rounding, err)) < 0)
            return GC_EINPUT;
        e->c_rounding = (gc_emu_rnd_t)r;
    }
    if (n->subnormals)
        e->sub_in = e->sub_out = strcmp(n->subnormals, "flush") != 0;
    if (n->align_exp)
        e->prod_raw = !strcmp(n->align_exp, "sum");
    if (n->out_direct.set)
        e->out_direct = n->out_direct.val;
    if (n->overflow)
        e->overflow_inf = !strcmp(n->overflow, "inf");
    if (n->zero_sign)
        e->zero_pos = !strcmp(n->zero_sign, "pos");
    if (n->tf32_operands)
        e->tf32_round = !strcmp(n->tf32_operands, "round");
    if (n->c_order)
        e->c_last = !strcmp(n->c_order, "last");
    if (n->trunc)
        e->trunc_floor = !strcmp(n->trunc, "floor");
    if (n->nan) {
        char *end;
        unsigned long v = strtoul(n->nan, &end, 16);
        if (*end || v > (c == GC_EMU_F32 ? 0xffffffffUL : 0xffffUL))
            return gc_err_set(err, GC_EINPUT, "numerics entry %s.%s: nan '%s' is not a %s bit "
                              "pattern in hex", n->a, n->c, n->nan, n->c);
        e->nan_bits = (uint32_t)v;
    }
    return gc_emu_check(e, err);
}

typedef struct acc {
    int have;        /* 0: no accumulator yet (c_last, first step) */
    xnum_t v;
} acc_t;

/* One fused step: acc + sum of np products, rounded into the accumulator
 * (P bits, f32 range); out: the accumulator after the step. */
static void step(const gc_emu_t *e, acc_t *acc, const xnum_t *p, int np, int P, int emin,
                 int emax, gc_emu_rnd_t r, int sub_keep, int outP, int ieee)
{
    const xnum_t *x[1025];
    int nx = 0, isprod[1025];
    if (acc->have)
        x[nx] = &acc->v, isprod[nx++] = 0;
    for (int i = 0; i < np; i++)
        x[nx] = &p[i], isprod[nx++] = 1;
    int nan = 0, pinf = 0, ninf = 0, nfin = 0, allneg0 = 1, anyneg0 = 0;
    for (int i = 0; i < nx; i++) {
        switch (x[i]->cls) {
        case X_NAN: nan = 1; break;
        case X_INF: x[i]->neg ? (ninf = 1) : (pinf = 1); break;
        case X_FIN: nfin++; break;
        default:
            if (x[i]->neg)
                anyneg0 = 1;
            else
                allneg0 = 0;
        }
    }
    xnum_t out = {X_ZERO, 0, 0, 0, 0};
    if (nan || (pinf && ninf)) {
        out.cls = X_NAN;
    } else if (pinf || ninf) {
        out.cls = X_INF;
        out.neg = ninf;
    } else if (!nfin) {
        out.neg = r == GC_EMU_RD ? anyneg0 : (nx > 0 && allneg0);
    } else {
        int E = -100000;
        for (int i = 0; i < nx; i++)
            if (x[i]->cls == X_FIN) {
                int ex = e->prod_raw ? x[i]->raw : lead(x[i]);
                if (isprod[i] == 0 && !e->prod_raw)
                    ex = lead(x[i]);
                if (ex > E)
                    E = ex;
            }
        /* the cut; an IEEE addition keeps P + 8 bits and jams what falls
         * below into a sticky bit, which rounds exactly as the exact sum */
        int L = ieee ? E - (P - 1) - 8 : E - (P - 1) - e->align_bits;
        int64_t S = 0;
        for (int i = 0; i < nx; i++) {
            if (x[i]->cls != X_FIN)
                continue;
            uint64_t v;
            int sh = x[i]->exp - L;
            if (sh >= 0) {
                v = x[i]->mag << sh;
            } else {
                int rs = -sh;
                v = rs >= 64 ? 0 : x[i]->mag >> rs;
                int lost = rs >= 64 ? 1 : (v << rs) != x[i]->mag;
                if (ieee)
                    v |= (uint64_t)lost;
                else if (e->trunc_floor && x[i]->neg && lost)
                    v++;
            }
            S += x[i]->neg ? -(int64_t)v : (int64_t)v;
        }
        if (S == 0)
            out.neg = r == GC_EMU_RD;
        else
            out = round_to(S < 0, S < 0 ? (uint64_t)(-S) : (uint64_t)S, L, outP ? outP : P, emin,
                           emax, r, sub_keep, e->overflow_inf);
    }
    acc->have = 1;
    acc->v = out;
}

uint32_t gc_emu_dot(const gc_emu_t *e, int k, const uint32_t *a, const uint32_t *b, uint32_t c)
{
    xnum_t p[1024];
    if (k > 1024)
        k = 1024;
    for (int i = 0; i < k; i++) {
        xnum_t x = decode(e->a, a[i], !e->sub_in, e->tf32_round);
        xnum_t y = decode(e->a, b[i], !e->sub_in, e->tf32_round);
        xnum_t z = {X_ZERO, x.neg ^ y.neg, 0, 0, 0};
        if (x.cls == X_NAN || y.cls == X_NAN || (x.cls == X_INF && y.cls == X_ZERO) ||
            (x.cls == X_ZERO && y.cls == X_INF))
            z.cls = X_NAN;
        else if (x.cls == X_INF || y.cls == X_INF)
            z.cls = X_INF;
        else if (x.cls == X_FIN && y.cls == X_FIN) {
            z.cls = X_FIN;
            z.mag = x.mag * y.mag;
            z.exp = x.exp + y.exp;
            z.raw = x.raw + y.raw;
            if (!e->products_exact) {
                z = round_to(z.neg, z.mag, z.exp, e->acc_bits, -126, 127, GC_EMU_RN, e->sub_out,
                             e->overflow_inf);
                if (z.cls == X_FIN)
                    z.raw = lead(&z);
            }
        }
        p[i] = z;
    }
    acc_t acc = {1, {X_ZERO, 0, 0, 0, 0}}; /* c_last: the products start from +0 */
    xnum_t cv = decode(e->c, c, !e->sub_out, 0);
    if (!e->c_last)
        acc.v = cv;
    int g = e->group > 0 && e->group < k ? e->group : k;
    int steps = (k + g - 1) / g;
    int direct = e->c == GC_EMU_F16 && e->out_direct;
    int P = direct ? 11 : e->acc_bits, emin = direct ? -14 : -126, emax = direct ? 15 : 127;
    gc_emu_rnd_t r = direct ? e->out_rounding : e->rounding;
    xnum_t sp[1024];
    for (int st = 0; st < steps; st++) {
        int np = 0;
        for (int i = 0; i < k; i++) {
            int s_i = e->interleave > 0 ? (i / e->interleave) % steps : i / g;
            if (s_i == st)
                sp[np++] = p[i];
        }
        step(e, &acc, sp, np, e->acc_bits, emin, emax, r, e->sub_out, direct ? 11 : 0, 0);
    }
    if (e->c_last)
        step(e, &acc, &cv, 1, P, emin, emax, e->c_rounding, e->sub_out, 0, 1);
    if (e->c == GC_EMU_F16 && acc.v.cls == X_FIN && !direct)
        acc.v = round_to(acc.v.neg, acc.v.mag, acc.v.exp, 11, -14, 15, e->out_rounding, e->sub_out,
                         e->overflow_inf);
    if (e->zero_pos && acc.v.cls == X_ZERO)
        acc.v.neg = 0;
    return encode(e, e->c, &acc.v);
}

void gc_emu_mma(const gc_emu_t *e, int m, int n, int k, const uint32_t *A, const uint32_t *B,
                const uint32_t *C, uint32_t *D)
{
    uint32_t col[1024];
    if (k > 1024)
        k = 1024;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < k; i++)
            col[i] = B[i * n + j];
        for (int r = 0; r < m; r++)
            D[r * n + j] = gc_emu_dot(e, k, A + (size_t)r * (size_t)k, col, C[r * n + j]);
    }
}
