/* test_sass_tensor.c - the SASS rules of the tensor, CUDA-core and
 * shared-memory benches (gc_forms_rules, measure/forms.c) on the real
 * cuobjdump dump of gpucal-measure recorded on the H100
 * (tests/fixtures/sass/h100_tensor.sass: the gc_k_* functions, instruction
 * lines only, encodings dropped; made by measure/device_tensor.sh): every
 * rule holds there, and the check fails, naming the kernel family and the
 * count, on the same dump with one expected opcode removed or one wgmma
 * fence injected. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "measure/forms.h"
#include "util/fsio.h"

static char *load(size_t *len)
{
    const char *src = getenv("GC_SRC");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/fixtures/sass/h100_tensor.sass", src ? src : "..");
    char *buf = NULL;
    gc_err_t e;
    CHECK(gc_file_read(path, 1 << 26, &buf, len, &e) == 0);
    return buf;
}

static int check(const char *text, size_t len, const char *bench, char *out, size_t n)
{
    gc_sass_t *s = NULL;
    gc_err_t e;
    if (gc_sass_parse(&s, text, len, &e) != 0) {
        snprintf(out, n, "parse: %s", e.msg);
        return -1;
    }
    static gc_forms_rules_t r;
    int nr = gc_forms_rules(&r, bench, 90);
    int rc = nr > 0 ? gc_sass_check(s, r.rule, nr, out, n) : -1;
    gc_sass_destroy(s);
    return rc;
}

/* Replace the first `op` instruction of function `fn` in text by NOP. */
static char *drop_first(const char *text, size_t len, const char *fn, const char *op)
{
    char *t = malloc(len + 1);
    if (!t)
        return NULL;
    memcpy(t, text, len);
    t[len] = '\0';
    char head[128];
    snprintf(head, sizeof(head), "Function : %s", fn);
    char *f = strstr(t, head);
    char want[64];
    snprintf(want, sizeof(want), " %s", op);
    char *p = f ? strstr(f + strlen(head), want) : NULL;
    char *next = f ? strstr(f + strlen(head), "Function :") : NULL;
    if (!p || (next && p > next)) {
        free(t);
        return NULL;
    }
    /* overwrite the opcode with NOP and spaces (same length) */
    size_t k = strlen(op);
    memcpy(p + 1, "NOP", 3);
    for (size_t i = 3; i < k; i++)
        p[1 + i] = ' ';
    return t;
}

/* Insert an instruction line after the first instruction of function fn. */
static char *inject(const char *text, size_t len, const char *fn, const char *line,
                    size_t *outlen)
{
    char head[128];
    snprintf(head, sizeof(head), "Function : %s\n", fn);
    const char *f = strstr(text, head);
    const char *nl = f ? strchr(f + strlen(head), '\n') : NULL;
    if (!nl)
        return NULL;
    size_t at = (size_t)(nl + 1 - text), ll = strlen(line);
    char *t = malloc(len + ll + 1);
    if (!t)
        return NULL;
    memcpy(t, text, at);
    memcpy(t + at, line, ll);
    memcpy(t + at + ll, text + at, len - at);
    t[len + ll] = '\0';
    *outlen = len + ll;
    return t;
}

int main(void)
{
    size_t len = 0;
    char *text = load(&len);
    if (!text)
        CHECK_DONE();
    char out[2048];
    static const char *const benches[] = {"mma", "mma_sp", "wgmma", "alu", "ldmatrix", "smem"};
    for (int i = 0; i < 6; i++) {
        int rc = check(text, len, benches[i], out, sizeof(out));
        if (rc != 0)
            fprintf(stderr, "%s: %s\n", benches[i], out);
        CHECK(rc == 0);
        CHECK(!strncmp(out, "ok: ", 4));
    }

    /* one HMMA missing from the ILP-1 kernel of mma m16n8k16 f16 -> f32 */
    char *bad = drop_first(text, len, "gc_k_MMA_F16_F32_M16N8K16_i1", "HMMA.16816.F32");
    CHECK(bad != NULL);
    if (bad) {
        CHECK(check(bad, strlen(bad), "mma", out, sizeof(out)) == 1);
        CHECK_HAS(out, "FAILED: gc_k_MMA_F16_F32_M16N8K16_ has 140 HMMA.16816.F32 "
                       "(expected 141..141)");
        free(bad);
    }
    /* one HGMMA missing from wgmma m64n256k16 f16 -> f32 (ss) */
    bad = drop_first(text, len, "gc_k_WG_F16_F32_N256_ss_i1", "HGMMA.64x256x16.F32");
    CHECK(bad != NULL);
    if (bad) {
        CHECK(check(bad, strlen(bad), "wgmma", out, sizeof(out)) == 1);
        CHECK_HAS(out, "FAILED: gc_k_WG_F16_F32_N256_ has 7 HGMMA.64x256x16.F32 (expected 8..8)");
        free(bad);
    }
    /* an injected warpgroup arrive in a wgmma kernel */
    size_t blen;
    bad = inject(text, len, "gc_k_WG_F16_F32_N256_rs_i1", " /*0000*/ WARPGROUP.ARRIVE ;\n",
                 &blen);
    CHECK(bad != NULL);
    if (bad) {
        CHECK(check(bad, blen, "wgmma", out, sizeof(out)) == 1);
        CHECK_HAS(out, "gc_k_WG_F16_F32_N256_ has 9 WARPGROUP.ARRIVE (expected 8..8)");
        free(bad);
    }
    /* an ldmatrix and an FFMA missing */
    bad = drop_first(text, len, "gc_k_ldsm_x4_t1_i2", "LDSM");
    CHECK(bad != NULL);
    if (bad) {
        CHECK(check(bad, strlen(bad), "ldmatrix", out, sizeof(out)) == 1);
        CHECK_HAS(out, "FAILED: gc_k_ldsm_x4_t1_ has 140 LDSM");
        free(bad);
    }
    bad = drop_first(text, len, "gc_k_alu_ffma_i8", "FFMA");
    CHECK(bad != NULL);
    if (bad) {
        CHECK(check(bad, strlen(bad), "alu", out, sizeof(out)) == 1);
        CHECK_HAS(out, "FAILED: gc_k_alu_ffma_ has");
        free(bad);
    }
    /* a spill (local memory) in an mma kernel */
    bad = inject(text, len, "gc_k_MMA_F16_F32_M16N8K16_i8", " /*0000*/ STL [R1], R2 ;\n", &blen);
    CHECK(bad != NULL);
    if (bad) {
        CHECK(check(bad, blen, "mma", out, sizeof(out)) == 1);
        CHECK_HAS(out, "gc_k_MMA_F16_F32_M16N8K16_ has 1 STL (expected 0..0)");
        free(bad);
    }
    /* the dump knows nothing of a form planned on another capability only */
    gc_sass_t *s = NULL;
    gc_err_t e;
    CHECK(gc_sass_parse(&s, text, len, &e) == 0);
    if (s) {
        CHECK(gc_sass_functions(s, "gc_k_WG_F16_F32_N256_") == 6);
        /* s4 mma on sm_90: a call per mma to a routine that runs IMMA .S8.S8 */
        CHECK(gc_sass_count(s, "gc_k_MMA_S4CC_S32_M16N8K64_", "CALL.REL.NOINC") == 141);
        CHECK(gc_sass_count(s, "gc_k_MMA_S4CC_S32_M16N8K64_", "IMMA.16832.S8.S8") > 0);
        gc_sass_destroy(s);
    }
    free(text);
    CHECK_DONE();
}
