/* test_emulate_gen.c - the libc-only parts of the numeric bench: number
 * formats, the deterministic generator (pinned, since the committed fixtures
 * depend on it), the probe interpreter (it recovers known parameters from
 * emulated hardware, and the committed H100 probes give the trace's
 * findings), the seed 000 section 8 profiles and chains replayed on the CPU
 * with the emulator (they equal the H100's numbers in the trace), and the
 * bench's SASS rules on a recorded H100 dump. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sass_fixture.h"
#include "measure/measure.h"
#include "measure/numeric_fix.h"
#include "measure/numeric_gen.h"
#include "measure/numeric_probe.h"
#include "measure/numeric_prof.h"
#include "arch/arch.h"
#include "calib/numerics.h"
#include "model/emulate/emulate.h"
#include "traces/trace.h"
#include "util/fsio.h"

static const char *src_dir(void)
{
    const char *s = getenv("GC_SRC");
    return s ? s : "..";
}

static void test_formats(void)
{
    /* every f16, bf16, e4m3, e5m2 pattern decodes and encodes back */
    static const gc_nfmt_t fs[] = {GC_NF_F16, GC_NF_BF16, GC_NF_E4M3, GC_NF_E5M2};
    for (int i = 0; i < 4; i++) {
        int bits = gc_nfmt_info(fs[i])->bytes * 8, bad = 0;
        for (uint32_t b = 0; b < (1u << bits); b++) {
            double v = gc_nfmt_decode(fs[i], b);
            uint32_t e;
            if (isnan(v)) {
                bad += !gc_nfmt_is_nan(fs[i], b);
                continue;
            }
            bad += gc_nfmt_encode(fs[i], v) != b || !gc_nfmt_exact(fs[i], v, &e) || e != b;
        }
        CHECK(bad == 0);
    }
    /* ties to even, overflow, tf32's grid */
    CHECK(gc_nfmt_encode(GC_NF_F16, 1 + 0x1p-11) == 0x3c00);
    CHECK(gc_nfmt_encode(GC_NF_F16, 1 + 3 * 0x1p-11) == 0x3c02);
    CHECK(gc_nfmt_encode(GC_NF_F16, 65520) == 0x7c00);
    CHECK(gc_nfmt_encode(GC_NF_F16, 65519) == 0x7bff);
    /* e4m3 has no inf: 464 is a tie that goes to 448 (even), past it is NaN */
    CHECK(gc_nfmt_encode(GC_NF_E4M3, 464) == 0x7e && gc_nfmt_encode(GC_NF_E4M3, 465) == 0x7f);
    CHECK(gc_nfmt_encode(GC_NF_TF32, 1 + 0x1p-11 + 0x1p-20) == 0x3f802000u);
    uint32_t b;
    CHECK(!gc_nfmt_exact(GC_NF_TF32, 1 + 0x1p-11, &b) && gc_nfmt_exact(GC_NF_TF32, 0x1p-136, &b));
    CHECK(gc_nfmt_min_sub(GC_NF_F16) == 0x1p-24 && gc_nfmt_max(GC_NF_E5M2) == 57344);
    CHECK(gc_nfmt_is_sub(GC_NF_F16, 1) && !gc_nfmt_is_sub(GC_NF_F16, 0x400));
}

static void test_generator(void)
{
    gc_nrng_t r;
    gc_nrng_init(&r, 1, 2, 3);
    CHECK(gc_nrng_u64(&r) == 0xf44816b73c87fa65ull);
    CHECK(gc_nrng_u64(&r) == 0xf1e3c4031e4a600dull);
    double s = 0, s2 = 0;
    for (int i = 0; i < 100000; i++) {
        double x = gc_nrng_normal(&r);
        s += x;
        s2 += x * x;
        CHECK_NEAR(x, 0, 6);
    }
    CHECK_NEAR(s / 1e5, 0, 0.02);
    CHECK_NEAR(s2 / 1e5, 1, 0.02);
    /* the inputs of mma 1 of each set of form 0: pinned, as the committed
     * fixtures of tests/fixtures/numerics depend on them bit for bit */
    static const struct {
        gc_ngen_t g;
        uint64_t h;
    } pins[] = {{GC_NG_NORMAL, 0x5077d296aaea588bull}, {GC_NG_WIDE, 0x876aca230f0954ebull},
                {GC_NG_CANCEL, 0x2215df03415b0e51ull}, {GC_NG_SPECIAL, 0xa6817027799efe2bull},
                {GC_NG_SUBNORM, 0xdad09cc54aec16e7ull}, {GC_NG_PROBE, 0xad976d86e6429808ull}};
    const gc_nset_t *sets;
    int ns = gc_nset_plan(&sets);
    CHECK(ns == gc_nforms_count * GC_NG_COUNT);
    for (int i = 0; i < 6; i++) {
        const gc_nset_t *st = &sets[pins[i].g];
        const gc_nform_t *f = &gc_nforms[st->form];
        uint32_t A[16 * 16], B[16 * 8], C[16 * 8];
        CHECK(st->form == 0 && st->gen == pins[i].g);
        CHECK(gc_ngen_fill(f, st->gen, st->seed, 1, A, B, C) == 0);
        uint64_t h = gc_nfnv1a(GC_NFNV_INIT, A, sizeof(A));
        h = gc_nfnv1a(h, B, sizeof(B));
        h = gc_nfnv1a(h, C, sizeof(C));
        if (h != pins[i].h)
            fprintf(stderr, "generator %s changed: the committed fixtures no longer apply\n",
                    gc_ngen_name(pins[i].g));
        CHECK(h == pins[i].h);
    }
    /* the probe set of form 0 has every case, 8 to an mma */
    CHECK(sets[GC_NG_PROBE].mmas * 8 >= gc_nprobe_count(&gc_nforms[0]));
    CHECK(gc_nprobe_count(&gc_nforms[0]) == 1213);
}

/* Emulated hardware: the probe outputs and, when rcases > 0, about that many
 * random cases of the form's wide set. */
static void findings_of(const gc_nform_t *f, const gc_emu_t *e, int rcases, gc_nfind_t *fd)
{
    long n = gc_nprobe_count(f);
    uint32_t *o = malloc(sizeof(*o) * (size_t)n);
    for (long i = 0; i < n; i++) {
        gc_nprobe_t pc;
        gc_nprobe_case(f, i, &pc);
        o[i] = gc_emu_dot(e, f->k, pc.a, pc.b, pc.c);
    }
    const gc_nset_t *sets, *ws = NULL;
    int ns = gc_nset_plan(&sets);
    for (int i = 0; i < ns; i++)
        if (&gc_nforms[sets[i].form] == f && sets[i].gen == GC_NG_WIDE)
            ws = &sets[i];
    int per = gc_nset_per_mma(ws);
    long mm = rcases / per;
    uint32_t *w = malloc(sizeof(*w) * (size_t)(mm * per + 1));
    uint32_t A[64 * 32], B[32 * 8], C[64 * 8], D[64 * 8];
    for (long q = 0; q < mm; q++) {
        gc_ngen_fill(f, ws->gen, ws->seed, q, A, B, C);
        gc_emu_mma(e, f->m, f->n, f->k, A, B, C, D);
        for (int i = 0; i < per; i++) {
            int r, c;
            gc_nset_pos(ws, i, &r, &c);
            w[q * per + i] = D[r * f->n + c];
        }
    }
    gc_nprobe_findings(f, o, n, mm ? ws : NULL, mm ? w : NULL, mm, fd);
    free(o);
    free(w);
}

static const char *row(const gc_nform_t *f, const gc_nfind_t *fd, const char *key)
{
    static gc_nrow_t rows[40];
    int n = gc_nfind_rows(f, fd, rows, 40);
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].key, key))
            return rows[i].value;
    return "(none)";
}

static void test_interpreter(void)
{
    gc_err_t err;
    gc_emu_t e;
    /* an A100-like unit (Fasi et al.): products in steps of 8, rz, 3 extra
     * bits, aligned to the products' leading bits */
    const gc_nform_t *f = &gc_nforms[gc_nform_find("mma", "m16n8k16", "f16", "f32")];
    CHECK(gc_emu_init(&e, GC_EMU_F16, GC_EMU_F32, &err) == 0);
    e.rounding = GC_EMU_RZ;
    e.align_bits = 3;
    e.group = 8;
    gc_nfind_t fd;
    findings_of(f, &e, 1024, &fd);
    CHECK(fd.fit_n == 1 && fd.fit_miss == 0);
    CHECK_STR(row(f, &fd, "rounding"), "rz");
    CHECK_STR(row(f, &fd, "align_bits"), "3");
    CHECK_STR(row(f, &fd, "group"), "8");
    CHECK_STR(row(f, &fd, "align_exp"), "lead");
    CHECK_STR(row(f, &fd, "products_exact"), "true");
    CHECK_STR(row(f, &fd, "zero_sign"), "ieee");
    /* round to nearest, cuts toward -inf, c added last */
    e.rounding = GC_EMU_RN;
    e.trunc_floor = 1;
    e.group = 0;
    e.align_bits = 1;
    e.c_last = 1;
    e.c_rounding = GC_EMU_RN;
    findings_of(f, &e, 1024, &fd);
    CHECK(fd.fit_n == 1);
    CHECK_STR(row(f, &fd, "rounding"), "rn");
    CHECK_STR(row(f, &fd, "trunc"), "floor");
    CHECK_STR(row(f, &fd, "c_order"), "last");
    CHECK_STR(row(f, &fd, "group"), "16");
    /* a 14-bit FP8 accumulator (the H100's QGMMA) */
    f = &gc_nforms[gc_nform_find("wgmma", "m64n8k32", "e4m3", "f32")];
    CHECK(gc_emu_init(&e, GC_EMU_E4M3, GC_EMU_F32, &err) == 0);
    e.rounding = GC_EMU_RZ;
    e.acc_bits = 14;
    e.prod_raw = 1;
    e.zero_pos = 1;
    findings_of(f, &e, 1024, &fd);
    CHECK(fd.fit_n == 1);
    CHECK_STR(row(f, &fd, "acc_bits"), "14");
    CHECK_STR(row(f, &fd, "align_bits"), "0");
    CHECK_STR(row(f, &fd, "zero_sign"), "pos");
    /* nothing fits a unit the model cannot describe: the best is reported */
    f = &gc_nforms[gc_nform_find("mma", "m16n8k4", "tf32", "f32")];
    CHECK(gc_emu_init(&e, GC_EMU_TF32, GC_EMU_F32, &err) == 0);
    e.rounding = GC_EMU_RZ;
    e.acc_bits = 24;
    e.align_bits = 25; /* wider than any hypothesis (0..20) */
    findings_of(f, &e, 0, &fd);
    CHECK(fd.fit_n == 0 && fd.fit_miss > 0);
    CHECK_STR(row(f, &fd, "fit"), "0");
}

/* The committed H100 probes give the findings the trace holds. */
static void test_h100_findings(void)
{
    char dir[1024], path[1100];
    snprintf(dir, sizeof(dir), "%s/tests/fixtures/numerics", src_dir());
    gc_nfix_t *fx = NULL;
    int nfx = 0;
    gc_err_t err;
    CHECK(gc_nfix_list(dir, &fx, &nfx, &err) == 0);
    static const char *const forms[][4] = {{"mma", "m16n8k16", "f16", "f32"},
                                           {"mma", "m16n8k8", "tf32", "f32"}};
    snprintf(path, sizeof(path), "%s/traces/h100/numeric.csv", src_dir());
    for (int t = 0; t < 2 && fx; t++) {
        int fi = gc_nform_find(forms[t][0], forms[t][1], forms[t][2], forms[t][3]);
        const gc_nform_t *f = &gc_nforms[fi];
        const gc_nfix_t *probe = NULL, *wide = NULL;
        for (int i = 0; i < nfx; i++)
            if (fx[i].form == fi && fx[i].s.gen == GC_NG_PROBE)
                probe = &fx[i];
            else if (fx[i].form == fi && fx[i].s.gen == GC_NG_WIDE)
                wide = &fx[i];
        uint32_t *po = NULL, *wo = NULL;
        CHECK(probe && wide && gc_nfix_load(dir, probe, &po, &err) == 0 &&
              gc_nfix_load(dir, wide, &wo, &err) == 0);
        if (!po || !wo) {
            free(po);
            free(wo);
            continue;
        }
        int per = gc_nset_per_mma(&wide->s);
        long mm = 16384 / per < wide->s.mmas ? 16384 / per : wide->s.mmas;
        gc_nfind_t fd;
        gc_nprobe_findings(f, po, gc_nprobe_count(f), &wide->s, wo, mm, &fd);
        gc_nrow_t rows[40];
        int nr = gc_nfind_rows(f, &fd, rows, 40), seen = 0;
        /* every finding row of this form in the trace equals ours */
        gc_trace_reader_t *r;
        CHECK(gc_trace_open(&r, path, &err) == 0);
        int ix[7];
        static const char *const need[] = {"experiment", "inst", "shape", "key", "value",
                                           "a_type", "c_type"};
        CHECK(r && gc_trace_cols(r, need, ix, 7, &err) == 0);
        while (r && gc_trace_next(r, &err) > 0) {
            if (strcmp(gc_trace_cell(r, ix[0]), "probe") ||
                strcmp(gc_trace_cell(r, ix[1]), f->inst) ||
                strcmp(gc_trace_cell(r, ix[2]), f->shape) ||
                strcmp(gc_trace_cell(r, ix[5]), forms[t][2]) ||
                strcmp(gc_trace_cell(r, ix[6]), forms[t][3]))
                continue;
            for (int i = 0; i < nr; i++)
                if (!strcmp(rows[i].key, gc_trace_cell(r, ix[3]))) {
                    CHECK_STR(rows[i].value, gc_trace_cell(r, ix[4]));
                    seen++;
                }
        }
        gc_trace_close(r);
        CHECK(seen == nr);
        free(po);
        free(wo);
    }
    free(fx);
}

/* Replay the bench's profiles and chains of one form with the emulator and
 * compare with the H100's rows in the trace (the emulator is bit exact, so
 * the errors are the same to the printed digits). */
/* The figures the numeric trace at path holds for form f (mma f16.f16):
 * the profiles' errors want[experiment][init][ref] and the chains' mean
 * errors chain[init][length], as text. */
static void read_expected(const char *path, const gc_nform_t *f,
                          char want[GC_NX_COUNT][GC_NI_COUNT][2][64],
                          char chain[GC_NI_COUNT][GC_NCHAIN_LEN + 1][64])
{
    gc_err_t err;
    gc_trace_reader_t *r;
    int ix[8];
    static const char *const need[] = {"experiment", "inst", "shape", "a_type", "c_type",
                                       "init", "ref", "x"};
    CHECK(gc_trace_open(&r, path, &err) == 0);
    int iv = r ? gc_trace_col(r, "value") : -1;
    CHECK(r && gc_trace_cols(r, need, ix, 8, &err) == 0 && iv >= 0);
    while (r && gc_trace_next(r, &err) > 0) {
        if (strcmp(gc_trace_cell(r, ix[1]), "mma") || strcmp(gc_trace_cell(r, ix[2]), f->shape) ||
            strcmp(gc_trace_cell(r, ix[3]), "f16") || strcmp(gc_trace_cell(r, ix[4]), "f16"))
            continue;
        int in = !strcmp(gc_trace_cell(r, ix[5]), "f32");
        const char *ex = gc_trace_cell(r, ix[0]);
        if (!strcmp(ex, "chain")) {
            int len = atoi(gc_trace_cell(r, ix[7]));
            if (len >= 1 && len <= GC_NCHAIN_LEN)
                snprintf(chain[in][len], 64, "%s", gc_trace_cell(r, iv));
            continue;
        }
        for (int x = 0; x < GC_NX_COUNT; x++)
            if (!strcmp(ex, gc_nexp_name((gc_nexp_t)x)))
                snprintf(want[x][in][strcmp(gc_trace_cell(r, ix[6]), "f32") != 0], 64, "%s",
                         gc_trace_cell(r, iv));
    }
    gc_trace_close(r);
}

static void test_profiles_replay(void)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/traces/h100/numeric.csv", src_dir());
    gc_arch_t *a = gc_arch_create();
    gc_err_t err;
    CHECK(gc_calib_numerics(path, a, &err) == 0);
    int fi = gc_nform_find("mma", "m16n8k8", "f16", "f16");
    const gc_nform_t *f = &gc_nforms[fi];
    gc_emu_t e;
    CHECK(gc_emu_from_numerics(&e, gc_emu_find(a, "mma", "f16", "f16"), &err) == 0);
    int m = f->m, n = f->n, k = f->k;
    char want[GC_NX_COUNT][GC_NI_COUNT][2][64];
    char chain[GC_NI_COUNT][GC_NCHAIN_LEN + 1][64];
    memset(want, 0, sizeof(want));
    memset(chain, 0, sizeof(chain));
    read_expected(path, f, want, chain);
    long mm = GC_NPROF_MMAS;
    uint32_t *A = malloc(sizeof(*A) * (size_t)(mm * m * k)), *B = malloc(sizeof(*B) * (size_t)(mm * k * n));
    uint32_t *C = malloc(sizeof(*C) * (size_t)(mm * m * n)), *D = malloc(sizeof(*D) * (size_t)(mm * m * n));
    float *ref = malloc(sizeof(*ref) * (size_t)(mm * n));
    /* two of the eight experiments (the others run the same code) */
    static const int xs[2][2] = {{GC_NX_DOT, GC_NI_LP}, {GC_NX_ACC, GC_NI_F32}};
    for (int t = 0; t < 2; t++) {
        int x = xs[t][0], in = xs[t][1];
        {
            gc_nerr_t acc;
            memset(&acc, 0, sizeof(acc));
            for (long q = 0; q < mm; q++) {
                gc_nprof_fill(f, (gc_nexp_t)x, (gc_ninit_t)in, GC_NPROF_SEED(fi), q, A, B, C,
                              ref + q * n);
                gc_emu_mma(&e, m, n, k, A, B, C, D);
                gc_nprof_add(f, D, ref + q * n, &acc);
            }
            char got[64], got16[64];
            snprintf(got, sizeof(got), "%.6g", acc.n ? acc.sum_abs / acc.n : 0);
            snprintf(got16, sizeof(got16), "%.6g", acc.n ? acc.sum_abs16 / acc.n : 0);
            CHECK_STR(got, want[x][in][0]);
            CHECK_STR(got16, want[x][in][1]);
        }
    }
    /* lp inputs, against FP32 rounded to f16: the H100 is exact (Table XIV) */
    CHECK_STR(want[GC_NX_MUL][GC_NI_LP][1], "0");
    free(A), free(B), free(C), free(D), free(ref);
    long nc = GC_NCHAIN_CHAINS;
    A = malloc(sizeof(*A) * (size_t)(nc * m * k));
    B = malloc(sizeof(*B) * (size_t)(nc * k * n));
    C = malloc(sizeof(*C) * (size_t)(nc * m * n));
    D = malloc(sizeof(*D) * (size_t)(nc * m * n));
    for (int in = 0; in < 1; in++) { /* the lp chains, to where they all overflow */
        gc_nchain_t *ch = gc_nchain_create(f, (gc_ninit_t)in, GC_NCHAIN_SEED(fi), nc);
        int last = 0;
        for (int len = 1; ch && len <= GC_NCHAIN_LEN; len++) {
            gc_nchain_inputs(ch, A, B, C);
            for (long q = 0; q < nc; q++)
                gc_emu_mma(&e, m, n, k, A + q * m * k, B + q * k * n, C + q * m * n,
                           D + q * m * n);
            double mean;
            long live;
            gc_nchain_advance(ch, D, &mean, &live);
            char got[64];
            snprintf(got, sizeof(got), "%.6g", live ? mean : 0.0);
            CHECK_STR(got, chain[in][len]);
            last = len;
            if (!live)
                break;
        }
        /* f16 overflows: every chain is gone before length 16 */
        CHECK(last > 8 && last < 16);
        gc_nchain_destroy(ch);
    }
    free(A), free(B), free(C), free(D);
    gc_arch_destroy(a);
}

static void test_sass(void)
{
    gc_sass_t *s = gc_sass_fixture("h100_numeric.sass");
    if (!s)
        return;
    /* the rules of the kernels in this dump hold; there are 4 of them */
    gc_sass_rule_t some[GC_NUMERIC_SASS_N];
    int n = 0;
    for (int i = 0; i < GC_NUMERIC_SASS_N; i++)
        if (gc_sass_functions(s, gc_numeric_sass[i].func) > 0)
            some[n++] = gc_numeric_sass[i];
    CHECK(n == 6);
    char out[1024];
    CHECK(gc_sass_check(s, some, n, out, sizeof(out)) == 0);
    /* mma.sync FP8 is not a tensor-core FP8 instruction on sm_90a */
    CHECK(gc_sass_count(s, "k_num_mma_e4m3_f32_k32", "HMMA") == 2);
    CHECK(gc_sass_count(s, "k_num_mma_e4m3_f32_k32", "QMMA") == 0);
    CHECK(gc_sass_count(s, "k_num_wgmma_e4m3_f32_k32", "QGMMA") == 1);
    gc_sass_destroy(s);
}

int main(void)
{
    test_formats();
    test_generator();
    test_interpreter();
    test_h100_findings();
    test_profiles_replay();
    test_sass();
    CHECK_DONE();
}
