/* test_emulate_fixtures.c - the bar: the emulator, configured from
 * nothing but the findings in traces/h100/numeric.csv, reproduces the H100's
 * outputs in tests/fixtures/numerics bit for bit on at least 99.99 % of the
 * cases of every form, with at least 1e5 cases for each of f16->f32,
 * bf16->f32, tf32->f32 and f16->f16. (All of them match today: a mismatch
 * is a regression, and model/emulate/numerics.md would have to explain it.) */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "measure/numeric_fix.h"
#include "measure/numeric_gen.h"
#include "arch/arch.h"
#include "calib/numerics.h"
#include "model/emulate/emulate.h"

static void eval(void *cookie, const gc_nform_t *f, const uint32_t *A, const uint32_t *B,
                 const uint32_t *C, uint32_t *D)
{
    gc_emu_mma((const gc_emu_t *)cookie, f->m, f->n, f->k, A, B, C, D);
}

int main(void)
{
    const char *src = getenv("GC_SRC");
    char dir[1024], trace[1024];
    snprintf(dir, sizeof(dir), "%s/tests/fixtures/numerics", src ? src : "..");
    snprintf(trace, sizeof(trace), "%s/traces/h100/numeric.csv", src ? src : "..");
    gc_err_t err;
    gc_err_clear(&err);
    gc_arch_t *a = gc_arch_create();
    CHECK(gc_calib_numerics(trace, a, &err) == 0);
    gc_nfix_t *fx = NULL;
    int n = 0;
    CHECK(gc_nfix_list(dir, &fx, &n, &err) == 0);
    if (err.code)
        fprintf(stderr, "%s\n", err.msg);
    CHECK(n == gc_nforms_count * GC_NG_COUNT);
    long cases[64] = {0}, miss[64] = {0}, total = 0;
    for (int i = 0; i < n; i++) {
        const gc_nform_t *f = &gc_nforms[fx[i].form];
        const gc_numerics_t *nu =
            gc_emu_find(a, f->inst, gc_nfmt_info(f->a)->name, gc_nfmt_info(f->c)->name);
        gc_emu_t e;
        uint32_t *out = NULL;
        CHECK(nu && gc_emu_from_numerics(&e, nu, &err) == 0);
        CHECK(gc_nfix_load(dir, &fx[i], &out, &err) == 0);
        if (!nu || !out) {
            free(out);
            continue;
        }
        gc_nmiss_t show[3];
        long m, c = gc_nfix_check(&fx[i], out, eval, &e, &m, show, 3);
        CHECK(c == fx[i].cases);
        for (long j = 0; j < m && j < 3; j++)
            fprintf(stderr, "%s: mma %ld (%d,%d): GPU 0x%08x emulator 0x%08x\n", fx[i].set,
                    show[j].mma, show[j].row, show[j].col, show[j].want, show[j].got);
        cases[fx[i].form] += c;
        miss[fx[i].form] += m;
        total += c;
        free(out);
    }
    for (int fi = 0; fi < gc_nforms_count; fi++) {
        char name[64];
        gc_nform_name(&gc_nforms[fi], name, sizeof(name));
        double match = cases[fi] ? (double)(cases[fi] - miss[fi]) / (double)cases[fi] : 0;
        if (match < 0.9999 || (gc_nforms[fi].main && cases[fi] < 100000))
            fprintf(stderr, "%s: %ld cases, %ld mismatches\n", name, cases[fi], miss[fi]);
        CHECK(match >= 0.9999);
        if (gc_nforms[fi].main)
            CHECK(cases[fi] >= 100000);
    }
    CHECK(total > 1400000);
    free(fx);
    gc_arch_destroy(a);
    CHECK_DONE();
}
