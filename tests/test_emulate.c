/* test_emulate.c - the CPU model of one mma (model/emulate/emulate.h): known answers
 * worked out by hand for each parameter, IEEE corner cases (inf, NaN,
 * subnormals, cancellation, signed zeros, overflow), an exact reference on
 * random data, and the arch/trace plumbing (numerics entries from YAML and
 * from the committed H100 numeric trace). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "measure/numeric_gen.h"
#include "arch/arch.h"
#include "calib/numerics.h"
#include "model/emulate/emulate.h"

static uint32_t f32(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof(b));
    return b;
}

static uint32_t enc(gc_nfmt_t f, double x)
{
    uint32_t b;
    if (!gc_nfmt_exact(f, x, &b)) {
        fprintf(stderr, "test value %a is not exact in %s\n", x, gc_nfmt_info(f)->name);
        return gc_nfmt_encode(f, x);
    }
    return b;
}

/* The H100's mma.sync f16/bf16/tf32 arithmetic as model/emulate/numerics.md states it. */
static gc_emu_t h100(gc_emu_fmt_t a, gc_emu_fmt_t c)
{
    gc_emu_t e;
    gc_err_t err;
    CHECK(gc_emu_init(&e, a, c, &err) == 0);
    e.rounding = GC_EMU_RZ;
    e.align_bits = 2;
    e.prod_raw = 1;
    e.overflow_inf = 1;
    e.zero_pos = 1;
    e.out_rounding = GC_EMU_RN;
    e.out_direct = 1;
    return e;
}

/* d = c + sum a_i*b_i with values (exact in the formats). */
static uint32_t dot(const gc_emu_t *e, int k, const double *a, const double *b, double c)
{
    uint32_t A[64], B[64];
    for (int i = 0; i < k; i++) {
        A[i] = enc((gc_nfmt_t)e->a, a[i]);
        B[i] = enc((gc_nfmt_t)e->a, b[i]);
    }
    return gc_emu_dot(e, k, A, B, enc((gc_nfmt_t)e->c, c));
}

static void test_rounding_and_alignment(void)
{
    gc_emu_t e = h100(GC_EMU_F16, GC_EMU_F32);
    double one[2] = {1, 1}, u = 0x1p-23;
    /* carries, no alignment loss: 1+3u + 1 = 2+3u; rz keeps 2+2u */
    CHECK(dot(&e, 1, one, one, 1 + 3 * u) == f32(2.0f + 0x1p-22f));
    e.rounding = GC_EMU_RN; /* rn: a tie, to even: 2+4u */
    CHECK(dot(&e, 1, one, one, 1 + 3 * u) == f32(2.0f + 0x1p-21f));
    e.rounding = GC_EMU_RZ;
    /* alignment: c = 1 (E = 0), the cut is at 2^-25 (23 + 2 bits) */
    double a1[1] = {-0x1p-13}, b25[1] = {0x1p-12}, b26[1] = {0x1p-13};
    CHECK(dot(&e, 1, a1, b25, 1.0) == f32(1.0f - 0x1p-24f)); /* -2^-25 kept, rz */
    CHECK(dot(&e, 1, a1, b26, 1.0) == f32(1.0f));            /* -2^-26 cut away */
    e.align_bits = 3;
    CHECK(dot(&e, 1, a1, b26, 1.0) == f32(1.0f - 0x1p-24f)); /* one more bit kept */
    e.align_bits = 2;
    e.trunc_floor = 1; /* toward -inf: the cut leaves -2^-25 */
    CHECK(dot(&e, 1, a1, b26, 1.0) == f32(1.0f - 0x1p-24f));
    e.trunc_floor = 0;
    /* the alignment exponent: 1.5*1.5 = 2.25 has ea+eb = 0 but leads at 2^1;
     * aligned to ea+eb the cut is at 2^-25, to the lead at 2^-24 */
    double x[2] = {1.5, -0x1p-13}, y[2] = {1.5, 0x1p-12};
    CHECK(dot(&e, 2, x, y, 0) == f32(2.25f - 0x1p-22f)); /* sum: kept, then rz */
    e.prod_raw = 0;
    CHECK(dot(&e, 2, x, y, 0) == f32(2.25f)); /* lead: cut away */
    e.prod_raw = 1;
    /* products are exact: (1+2^-10)^2 needs 21 bits */
    double p[1] = {1 + 0x1p-10};
    CHECK(dot(&e, 1, p, p, 0) == f32((float)((1 + 0x1p-10) * (1 + 0x1p-10))));
}

static void test_groups_and_order(void)
{
    gc_emu_t e = h100(GC_EMU_F16, GC_EMU_F32);
    /* c = 2^15, two products of half its ulp (2^-9): fused they make one ulp;
     * in separate steps each is truncated away */
    double a[4] = {0x1p-5, 0, 0, 0x1p-5}, b[4] = {0x1p-4, 0, 0, 0x1p-4};
    CHECK(dot(&e, 4, a, b, 0x1p15) == f32(0x1p15f + 0x1p-8f));
    e.group = 2;
    CHECK(dot(&e, 4, a, b, 0x1p15) == f32(0x1p15f));
    /* interleave 1 with two steps: products 0 and 2 together, 1 and 3 together */
    e.interleave = 1;
    CHECK(dot(&e, 4, a, b, 0x1p15) == f32(0x1p15f));
    double a2[4] = {0x1p-5, 0, 0x1p-5, 0}, b2[4] = {0x1p-4, 0, 0x1p-4, 0};
    CHECK(dot(&e, 4, a2, b2, 0x1p15) == f32(0x1p15f + 0x1p-8f));
    /* c last, by an IEEE addition: the products sum exactly to one ulp first */
    e.group = 0;
    e.interleave = 0;
    e.c_last = 1;
    e.c_rounding = GC_EMU_RN;
    double t[2] = {1, -1}, s[2] = {1, 1};
    CHECK(dot(&e, 2, t, s, 0x1p-30) == f32(0x1p-30f)); /* 1 - 1 first, then c */
    e.c_last = 0;
    CHECK(dot(&e, 2, t, s, 0x1p-30) == f32(0.0f)); /* c cut in the fused step */
}

static void test_specials(void)
{
    gc_emu_t e = h100(GC_EMU_BF16, GC_EMU_F32);
    uint32_t one = enc(GC_NF_BF16, 1), zero = 0, inf = 0x7f80, ninf = 0xff80, nan = 0x7fc0;
    uint32_t A[2], B[2];
    A[0] = inf, B[0] = zero;
    CHECK(gc_emu_dot(&e, 1, A, B, 0) == 0x7fffffffu); /* inf * 0 */
    A[0] = inf, B[0] = one, A[1] = ninf, B[1] = one;
    CHECK(gc_emu_dot(&e, 2, A, B, 0) == 0x7fffffffu); /* inf - inf */
    A[0] = nan, B[0] = one;
    CHECK(gc_emu_dot(&e, 1, A, B, 0) == 0x7fffffffu); /* NaN in: the canonical NaN out */
    A[0] = one, B[0] = one;
    CHECK(gc_emu_dot(&e, 1, A, B, 0xff800001u) == 0x7fffffffu); /* NaN c */
    CHECK(gc_emu_dot(&e, 1, A, B, f32(INFINITY)) == f32(INFINITY));
    A[0] = inf;
    CHECK(gc_emu_dot(&e, 1, A, B, f32(-INFINITY)) == 0x7fffffffu);
    /* overflow: 2^127 * 2 = 2^128 is past f32 even under rz */
    A[0] = enc(GC_NF_BF16, 0x1p127), B[0] = enc(GC_NF_BF16, 2);
    CHECK(gc_emu_dot(&e, 1, A, B, 0) == f32(INFINITY));
    e.overflow_inf = 0; /* IEEE rz keeps the largest finite value */
    CHECK(gc_emu_dot(&e, 1, A, B, 0) == 0x7f7fffffu);
    e.overflow_inf = 1;
    /* but 2^128 - 2^128 is an exact zero: the products have a wider range */
    A[1] = enc(GC_NF_BF16, -0x1p127), B[1] = enc(GC_NF_BF16, 2);
    CHECK(gc_emu_dot(&e, 2, A, B, 0) == 0);
    /* signed zeros: every zero result is +0 on the H100 */
    A[0] = 0x8000, B[0] = one; /* -0 */
    CHECK(gc_emu_dot(&e, 1, A, B, 0x80000000u) == 0);
    e.zero_pos = 0; /* IEEE: -0 + -0 = -0 */
    CHECK(gc_emu_dot(&e, 1, A, B, 0x80000000u) == 0x80000000u);
    A[0] = one, B[0] = one;
    CHECK(gc_emu_dot(&e, 1, A, B, f32(-1.0f)) == 0); /* 1 - 1 = +0 in rz */
    e.rounding = GC_EMU_RD;
    CHECK(gc_emu_dot(&e, 1, A, B, f32(-1.0f)) == 0x80000000u); /* -0 in rd */
}

static void test_subnormals_and_cancellation(void)
{
    gc_emu_t e = h100(GC_EMU_BF16, GC_EMU_F32);
    /* a product in f32's subnormal range: 2^-70 * 2^-70 = 2^-140 */
    double a[1] = {0x1p-70}, b[1] = {0x1p-70};
    CHECK(dot(&e, 1, a, b, 0) == f32(0x1p-140f));
    e.sub_out = 0;
    CHECK(dot(&e, 1, a, b, 0) == 0);
    e.sub_out = 1;
    /* below the smallest subnormal: rz gives 0, rn 2^-149 for 0.75 of it */
    double a2[1] = {0x1.8p-75}, b2[1] = {0x1p-75};
    CHECK(dot(&e, 1, a2, b2, 0) == 0);
    e.rounding = GC_EMU_RN;
    CHECK(dot(&e, 1, a2, b2, 0) == 1u);
    e.rounding = GC_EMU_RZ;
    /* cancellation into the subnormals: 1.5*2^-126 - 2^-126 = 2^-127 */
    double a3[1] = {-0x1p-63}, b3[1] = {0x1p-63};
    CHECK(dot(&e, 1, a3, b3, 0x1.8p-126) == f32(0x1p-127f));
    /* subnormal inputs: the smallest f16 subnormal times 1 */
    gc_emu_t h = h100(GC_EMU_F16, GC_EMU_F32);
    uint32_t A[1] = {1}, B[1] = {enc(GC_NF_F16, 1)};
    CHECK(gc_emu_dot(&h, 1, A, B, 0) == f32(0x1p-24f));
    h.sub_in = 0;
    CHECK(gc_emu_dot(&h, 1, A, B, 0) == 0);
    /* massive cancellation is exact: (1 + 2^-23) - 1 = 2^-23 */
    double one[1] = {1}, mone[1] = {-1};
    h = h100(GC_EMU_F16, GC_EMU_F32);
    CHECK(dot(&h, 1, one, mone, 1 + 0x1p-23) == f32(0x1p-23f));
}

static void test_outputs_and_formats(void)
{
    /* f16 C/D: 1 + 2^-11 (a tie) + 2^-24: rounded once from the cut sum it is
     * above the tie (1 + 2^-10); via f32 (rz) the tail is lost and the tie
     * goes to even (1) */
    gc_emu_t e = h100(GC_EMU_F16, GC_EMU_F16);
    double a[2] = {0x1p-5, 0x1p-12}, b[2] = {0x1p-6, 0x1p-12};
    CHECK(dot(&e, 2, a, b, 1.0) == 0x3c01u);
    e.out_direct = 0;
    CHECK(dot(&e, 2, a, b, 1.0) == 0x3c00u);
    e.out_direct = 1;
    /* f16 overflow: 65504 + 16 is a tie between 65504 and 2^16: rn gives inf */
    double a16[1] = {4}, b16[1] = {4};
    CHECK(dot(&e, 1, a16, b16, 65504) == 0x7c00u);
    uint32_t A[1] = {0x7c00u}, B[1] = {0};
    CHECK(gc_emu_dot(&e, 1, A, B, 0) == 0x7fffu); /* the f16 NaN */
    /* tf32 operands given as f32: the low 13 bits are ignored (or rounded) */
    gc_emu_t t = h100(GC_EMU_TF32, GC_EMU_F32);
    uint32_t ta[1] = {0x3f801008u}, tb[1] = {f32(1.0f)}; /* 1 + 2^-11 + 2^-20 */
    CHECK(gc_emu_dot(&t, 1, ta, tb, 0) == f32(1.0f));
    t.tf32_round = 1;
    CHECK(gc_emu_dot(&t, 1, ta, tb, 0) == f32(1.0f + 0x1p-10f));
    /* FP8: every e4m3 value times 1 is exact; the 14-bit accumulator of
     * wgmma cuts 1 + 2^-14 to 1, keeps 1 + 2^-13 */
    gc_emu_t q = h100(GC_EMU_E4M3, GC_EMU_F32);
    uint32_t one8 = enc(GC_NF_E4M3, 1);
    for (uint32_t v = 0; v < 256; v++) {
        uint32_t qa[1] = {v}, qb[1] = {one8};
        double want = gc_nfmt_decode(GC_NF_E4M3, v);
        uint32_t got = gc_emu_dot(&q, 1, qa, qb, 0);
        if (isnan(want))
            CHECK(got == 0x7fffffffu);
        else
            CHECK(got == (want == 0 ? 0 : f32((float)want)));
    }
    q.acc_bits = 14;
    q.align_bits = 0;
    double qa[1] = {0x1p-7}, qb13[1] = {0x1p-6}, qb14[1] = {0x1p-7};
    CHECK(dot(&q, 1, qa, qb13, 1.0) == f32(1.0f + 0x1p-13f));
    CHECK(dot(&q, 1, qa, qb14, 1.0) == f32(1.0f));
}

/* An IEEE-like configuration (one fused step, a 53-bit window, rn) is the
 * exact sum rounded once: on random f16 data of a small exponent range the
 * double sum is exact, so (float) of it is the reference. */
static void test_exact_reference(void)
{
    gc_emu_t e;
    gc_err_t err;
    CHECK(gc_emu_init(&e, GC_EMU_F16, GC_EMU_F32, &err) == 0);
    e.align_bits = 29;
    e.rounding = GC_EMU_RN;
    gc_nrng_t r;
    gc_nrng_init(&r, 42, 0, 0);
    int bad = 0;
    for (int t = 0; t < 20000; t++) {
        uint32_t A[16], B[16];
        double s = 0;
        for (int i = 0; i < 16; i++) {
            A[i] = gc_nfmt_encode(GC_NF_F16, gc_nrng_normal(&r));
            B[i] = gc_nfmt_encode(GC_NF_F16, gc_nrng_normal(&r));
            s += gc_nfmt_decode(GC_NF_F16, A[i]) * gc_nfmt_decode(GC_NF_F16, B[i]);
        }
        float c = (float)gc_nrng_normal(&r);
        s += c;
        uint32_t want = s == 0 ? 0 : f32((float)s);
        bad += gc_emu_dot(&e, 16, A, B, f32(c)) != want;
    }
    CHECK(bad == 0);
}

static const char arch_yaml[] =
    "schema: gpucal-arch/1\n"
    "name: test-numerics\n"
    "family: hopper\n"
    "device: Test GPU\n"
    "cc: \"9.0\"\n"
    "sm: {count: 132, sub_cores: 4, clock_max_mhz: 1980}\n"
    "numerics:\n"
    "  - {a: f16, c: f32, products_exact: true, align_bits: 2, group: 16, rounding: rz,\n"
    "     subnormals: keep, align_exp: sum, overflow: inf, zero_sign: pos, nan: 7fffffff}\n"
    "  - {a: e4m3, c: f32, inst: wgmma, acc_bits: 14, align_bits: 0, rounding: rz,\n"
    "     align_exp: sum}\n"
    "  - {a: e4m3, c: f32, group: 16, interleave: 2, c_order: last, c_rounding: rn,\n"
    "     align_bits: 2, rounding: rz, trunc: zero}\n"
    "  - {a: f16, c: f16, out_rounding: rn, out_direct: true, nan: 7fff,\n"
    "     tf32_operands: truncate, align_bits: 2}\n";

static void test_arch_entries(void)
{
    gc_arch_t *a = NULL, *b = NULL;
    gc_err_t err;
    gc_err_clear(&err);
    CHECK(gc_arch_parse(&a, "test.yaml", arch_yaml, strlen(arch_yaml), &err) == 0);
    if (!a) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    CHECK(a->n_numerics == 4);
    /* mma and wgmma entries of one form live side by side */
    const gc_numerics_t *wg = gc_emu_find(a, "wgmma", "e4m3", "f32");
    const gc_numerics_t *mm = gc_emu_find(a, "mma", "e4m3", "f32");
    CHECK(wg && mm && wg != mm);
    CHECK(!gc_emu_find(a, "wgmma", "f16", "f32"));
    gc_emu_t e;
    CHECK(gc_emu_from_numerics(&e, wg, &err) == 0);
    CHECK(e.acc_bits == 14 && e.align_bits == 0 && e.prod_raw == 1 && e.rounding == GC_EMU_RZ);
    CHECK(gc_emu_from_numerics(&e, mm, &err) == 0);
    CHECK(e.group == 16 && e.interleave == 2 && e.c_last == 1 && e.c_rounding == GC_EMU_RN);
    CHECK(gc_emu_from_numerics(&e, gc_emu_find(a, NULL, "f16", "f32"), &err) == 0);
    CHECK(e.overflow_inf == 1 && e.zero_pos == 1 && e.nan_bits == 0x7fffffffu && e.sub_in == 1);
    CHECK(gc_emu_from_numerics(&e, gc_emu_find(a, "mma", "f16", "f16"), &err) == 0);
    CHECK(e.out_direct == 1 && e.nan_bits == 0x7fffu && e.rounding == GC_EMU_RN);
    /* the new keys survive a write and a read */
    char *txt = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&txt, &n);
    CHECK(gc_arch_emit(a, m, &err) == 0);
    fclose(m);
    CHECK(gc_arch_parse(&b, "emitted", txt, n, &err) == 0);
    char diff[256] = "";
    CHECK(b && gc_arch_equal(a, b, diff, sizeof(diff)));
    free(txt);
    gc_arch_destroy(a);
    gc_arch_destroy(b);
    /* a bad value is one located error */
    static const char bad[] = "schema: gpucal-arch/1\nname: t\nfamily: hopper\ndevice: T\n"
                              "cc: \"9.0\"\nsm: {count: 1, sub_cores: 4, clock_max_mhz: 1}\n"
                              "numerics:\n  - {a: f16, c: f32, nan: 7FFFFFFF}\n";
    CHECK(gc_arch_parse(&a, "bad.yaml", bad, strlen(bad), &err) != 0);
    CHECK_HAS(err.msg, "bad.yaml:8:");
    /* an out-of-range emulator setting is refused, not used */
    gc_emu_t x;
    CHECK(gc_emu_init(&x, GC_EMU_F16, GC_EMU_F32, &err) == 0);
    x.acc_bits = 40;
    CHECK(gc_emu_check(&x, &err) != 0);
    CHECK(gc_emu_init(&x, GC_EMU_F16, GC_EMU_BF16, &err) != 0);
}

static void test_trace_entries(void)
{
    const char *src = getenv("GC_SRC");
    char path[1024];
    snprintf(path, sizeof(path), "%s/traces/h100/numeric.csv", src ? src : "..");
    gc_arch_t *a = gc_arch_create();
    gc_err_t err;
    gc_err_clear(&err);
    CHECK(gc_calib_numerics(path, a, &err) == 0);
    if (err.code)
        fprintf(stderr, "%s\n", err.msg);
    /* 8 mma forms and 7 wgmma forms */
    CHECK(a->n_numerics == 15);
    const gc_numerics_t *n = gc_emu_find(a, "mma", "f16", "f32");
    CHECK(n && n->products_exact.set && n->products_exact.val);
    CHECK(n && n->rounding && !strcmp(n->rounding, "rz"));
    CHECK(n && n->align_bits.set && n->align_bits.v == 2 && n->group.v == 16);
    CHECK(n && n->align_exp && !strcmp(n->align_exp, "sum"));
    CHECK(n && n->subnormals && !strcmp(n->subnormals, "keep"));
    CHECK(n && n->zero_sign && !strcmp(n->zero_sign, "pos"));
    CHECK(n && n->align_bits.src && strstr(n->align_bits.src, "numeric.csv"));
    n = gc_emu_find(a, "mma", "tf32", "f32");
    CHECK(n && n->group.v == 8 && n->tf32_operands && !strcmp(n->tf32_operands, "truncate"));
    n = gc_emu_find(a, "mma", "f16", "f16");
    CHECK(n && n->out_direct.val && n->out_rounding && !strcmp(n->out_rounding, "rn"));
    n = gc_emu_find(a, "wgmma", "e4m3", "f32");
    CHECK(n && n->acc_bits.v == 14 && n->align_bits.v == 0);
    n = gc_emu_find(a, "mma", "e4m3", "f32");
    CHECK(n && n->c_order && !strcmp(n->c_order, "last") && n->interleave.v == 2 &&
          n->group.v == 16);
    gc_arch_destroy(a);
    /* another bench's trace: refused, naming the columns it lacks */
    snprintf(path, sizeof(path), "%s/traces/h100/clock.csv", src ? src : "..");
    a = gc_arch_create();
    CHECK(gc_calib_numerics(path, a, &err) == GC_EINPUT);
    CHECK_HAS(err.msg, "experiment");
    CHECK(a->n_numerics == 0);
    gc_arch_destroy(a);
}

int main(void)
{
    test_rounding_and_alignment();
    test_groups_and_order();
    test_specials();
    test_subnormals_and_cancellation();
    test_outputs_and_formats();
    test_exact_reference();
    test_arch_entries();
    test_trace_entries();
    CHECK_DONE();
}
