/* test_forms.c - the pure-C planning of the tensor, CUDA-core and
 * shared-memory benches (measure/forms.c, measure/sweep_plan.c): which
 * forms are planned on which compute capability, the SASS rules derived
 * from them, the sweep grids, the data patterns, and the self-addressing
 * layouts that turn ldmatrix and ld.shared into dependent chains (proved
 * against a CPU model of ldmatrix's fragment layout). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "measure/forms.h"
#include "measure/sweep_plan.h"

static int planned(const char *bench, int cc, const char *inst, const char *shape,
                   const char *a, const char *c)
{
    const gc_form_t *p[GC_FORM_COUNT];
    int n = gc_forms_plan(bench, cc, p, GC_FORM_COUNT);
    int hits = 0;
    for (int i = 0; i < n; i++)
        hits += !strcmp(p[i]->inst, inst) && !strcmp(p[i]->shape, shape) &&
                !strcmp(p[i]->a, a) && !strcmp(p[i]->c, c);
    return hits;
}

static const gc_form_t *find(const char *bench, int cc, const char *shape, const char *a,
                             const char *c)
{
    const gc_form_t *p[GC_FORM_COUNT];
    int n = gc_forms_plan(bench, cc, p, GC_FORM_COUNT);
    for (int i = 0; i < n; i++)
        if (!strcmp(p[i]->shape, shape) && !strcmp(p[i]->a, a) && !strcmp(p[i]->c, c))
            return p[i];
    return NULL;
}

static void test_table(void)
{
    /* every row is indexed by its id and names a bench, a SASS opcode, a path */
    for (int i = 0; i < GC_FORM_COUNT; i++) {
        const gc_form_t *f = &gc_forms[i];
        CHECK(f->id == i);
        CHECK(f->m > 0 && f->n > 0 && f->k > 0);
        CHECK(f->sass && f->sass[0] >= 'A' && f->sass[0] <= 'Z');
        CHECK(!strcmp(f->path, "tc") || !strcmp(f->path, "emu"));
        CHECK(f->sass_per >= 1);
        CHECK(!strcmp(f->path, "emu") == (f->also[0] != '\0')); /* emulations name a 2nd opcode */
        CHECK(f->max_cc == 0 || f->max_cc >= f->min_cc);
        /* the shape string is the m, n, k of the row */
        char shape[32];
        snprintf(shape, sizeof(shape), "m%dn%dk%d", f->m, f->n, f->k);
        CHECK_STR(f->shape, shape);
        /* kernel names gc_k_<ID>_ must not be a prefix of another form's */
        for (int j = 0; j < GC_FORM_COUNT; j++) {
            char a[64], b[64];
            snprintf(a, sizeof(a), "gc_k_%s_", f->name);
            snprintf(b, sizeof(b), "gc_k_%s_", gc_forms[j].name);
            CHECK(i == j || strncmp(a, b, strlen(a)) != 0);
        }
    }
    const gc_form_t *f = find("mma", 90, "m16n8k16", "f16", "f32");
    CHECK(f && !strcmp(f->sass, "HMMA.16816.F32") && gc_form_fma(f) == 16 * 8 * 16);
    f = find("mma", 90, "m8n8k4", "f16", "f32");
    CHECK(f && gc_form_fma(f) == 4 * 8 * 8 * 4); /* four quad-pair products */
    CHECK(f && !strcmp(f->path, "emu") && !strcmp(f->sass, "CALL.REL.NOINC"));
    f = find("mma", 90, "m8n8k4", "f64", "f64");
    CHECK(f && gc_form_fma(f) == 8 * 8 * 4);
    f = find("mma_sp", 90, "m16n8k32", "f16", "f32");
    CHECK(f && gc_form_fma(f) == 16 * 8 * 32); /* dense-equivalent k */
    f = find("wgmma", 90, "m64n256k16", "f16", "f32");
    CHECK(f && gc_form_fma(f) == 64.0 * 256 * 16);
}

static void test_plan(void)
{
    const gc_form_t *p[GC_FORM_COUNT];
    /* 8.0 (A100): the Ampere forms; no FP8, no wgmma; s4 on the tensor cores */
    CHECK(planned("mma", 80, "mma", "m16n8k16", "f16", "f32") == 1);
    CHECK(planned("mma", 80, "mma", "m16n8k8", "tf32", "f32") == 1);
    CHECK(planned("mma", 80, "mma", "m8n8k4", "f64", "f64") == 1);
    CHECK(planned("mma", 80, "mma", "m8n8k4", "f16", "f32") == 0); /* SASS known on 9.0 only */
    CHECK(planned("mma", 80, "mma", "m16n8k256", "b1", "s32") == 1);
    CHECK(planned("mma", 80, "wmma", "m16n16k16", "f16", "f32") == 1);
    CHECK(planned("mma", 80, "mma", "m16n8k32", "e4m3", "f32") == 0);
    CHECK(planned("mma_sp", 80, "mma.sp", "m16n8k64", "e4m3", "f32") == 0);
    CHECK(gc_forms_plan("wgmma", 80, p, GC_FORM_COUNT) == 0);
    const gc_form_t *s4 = find("mma", 80, "m16n8k64", "s4", "s32");
    CHECK(s4 && !strcmp(s4->path, "tc") && !strcmp(s4->sass, "IMMA.16864.S4.S4"));
    /* 8.6 (RTX 3070 Ti): as 8.0 */
    CHECK(gc_forms_plan("mma", 86, p, GC_FORM_COUNT) == gc_forms_plan("mma", 80, p, GC_FORM_COUNT));
    CHECK(planned("mma", 86, "mma", "m16n8k32", "e5m2", "f32") == 0);
    /* 8.9 (RTX 4090): FP8 mma and mma.sp appear; still no wgmma */
    CHECK(planned("mma", 89, "mma", "m16n8k32", "e4m3", "f32") == 1);
    CHECK(planned("mma", 89, "mma", "m16n8k32", "e5m2", "f32") == 1);
    CHECK(planned("mma_sp", 89, "mma.sp", "m16n8k64", "e4m3", "f32") == 1);
    CHECK(gc_forms_plan("wgmma", 89, p, GC_FORM_COUNT) == 0);
    CHECK(gc_forms_plan("mma", 89, p, GC_FORM_COUNT) ==
          gc_forms_plan("mma", 80, p, GC_FORM_COUNT) + 2);
    /* 9.0 (H100): wgmma, and s4 mma on the CUDA cores (seed 004 Table VII) */
    int nwg = gc_forms_plan("wgmma", 90, p, GC_FORM_COUNT);
    CHECK(nwg == 29);
    CHECK(planned("wgmma", 90, "wgmma", "m64n256k16", "f16", "f32") == 1);
    CHECK(planned("wgmma", 90, "wgmma.sp", "m64n256k32", "f16", "f32") == 1);
    CHECK(planned("wgmma", 90, "wgmma", "m64n8k16", "f16", "f32") == 1);
    CHECK(planned("wgmma", 90, "wgmma", "m64n256k32", "e4m3", "f16") == 1);
    CHECK(planned("mma", 90, "mma", "m16n8k64", "s4", "s32") == 1); /* once: the cuda row */
    s4 = find("mma", 90, "m16n8k64", "s4", "s32");
    /* emulated on sm_90: one subroutine call per mma, which runs IMMA .S8.S8 */
    CHECK(s4 && !strcmp(s4->path, "emu") && !strcmp(s4->sass, "CALL.REL.NOINC") &&
          !strcmp(s4->also, "IMMA.16832.S8.S8"));
    /* FP8 mma on sm_90: F2FP unpack to f16 and two HMMA.16816.F32 per mma */
    const gc_form_t *e4 = find("mma", 90, "m16n8k32", "e4m3", "f32");
    CHECK(e4 && !strcmp(e4->path, "emu") && e4->sass_per == 2 &&
          !strcmp(e4->also, "F2FP.F16.E4M3.UNPACK_B"));
    e4 = find("mma", 89, "m16n8k32", "e4m3", "f32");
    CHECK(e4 && !strcmp(e4->path, "tc"));
    CHECK(planned("mma_sp", 90, "mma.sp", "m16n8k128", "s4", "s32") == 1);
    CHECK(planned("mma", 90, "mma", "m16n8k32", "e4m3", "f32") == 1);
    /* every planned form of 9.0 has exactly one row per (inst, shape, a, c) */
    int n = gc_forms_plan("mma", 90, p, GC_FORM_COUNT);
    for (int i = 0; i < n; i++)
        CHECK(planned("mma", 90, p[i]->inst, p[i]->shape, p[i]->a, p[i]->c) == 1);
    /* the plan stops at max */
    CHECK(gc_forms_plan("mma", 90, p, 3) == 3);
    /* beyond 9.0: wgmma is sm_90a only; the s4 CUDA-core rows are not claimed */
    CHECK(gc_forms_plan("wgmma", 100, p, GC_FORM_COUNT) == 0);
    CHECK(planned("mma", 100, "mma", "m16n8k64", "s4", "s32") == 0);
    CHECK(planned("mma", 100, "mma", "m16n8k16", "f16", "f32") == 1);
}

static void test_grids(void)
{
    const int *l;
    CHECK(gc_sweep_warps(0, &l) == 10 && l[0] == 1 && l[9] == 32);
    CHECK(gc_sweep_ilps(0, &l) == 8 && l[7] == 8);
    CHECK(gc_sweep_warps(1, &l) == 4);
    CHECK(gc_sweep_warpgroups(0, &l) == 4 && l[3] == 4);
    for (int ilp = 1; ilp <= 8; ilp++) {
        CHECK(gc_sweep_unroll_mma(ilp) * ilp >= 16 && gc_sweep_unroll_mma(ilp) * ilp < 16 + ilp);
        CHECK(gc_sweep_unroll_alu(ilp) * ilp >= 64 && gc_sweep_unroll_alu(ilp) * ilp < 64 + ilp);
    }
    const gc_form_t *f32 = find("wgmma", 90, "m64n256k16", "f16", "f32");
    const gc_form_t *f16 = find("wgmma", 90, "m64n256k16", "f16", "f16");
    const gc_form_t *n8 = find("wgmma", 90, "m64n8k16", "f16", "f32");
    CHECK(f32 && gc_wgmma_acc_regs(f32) == 128 && gc_wgmma_ilp_compiled(f32, 1) &&
          !gc_wgmma_ilp_compiled(f32, 2));
    CHECK(f16 && gc_wgmma_acc_regs(f16) == 64 && gc_wgmma_ilp_compiled(f16, 2) &&
          !gc_wgmma_ilp_compiled(f16, 4));
    CHECK(n8 && gc_wgmma_acc_regs(n8) == 4 && gc_wgmma_ilp_compiled(n8, 4) &&
          !gc_wgmma_ilp_compiled(n8, 3));
}

static void test_rules(void)
{
    gc_forms_rules_t *r = malloc(sizeof(*r));
    if (!r)
        return;
    /* mma on 9.0: the f16->f32 m16n8k16 family holds 141 HMMA.16816.F32
     * (sum over ILP 1..8 of unroll * ILP) and no local memory */
    int n = gc_forms_rules(r, "mma", 90);
    CHECK(n > 0);
    long want = 0;
    for (int ilp = 1; ilp <= 8; ilp++)
        want += (long)gc_sweep_unroll_mma(ilp) * ilp;
    CHECK(want == 141);
    int seen = 0, s4 = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp(r->rule[i].func, "gc_k_MMA_F16_F32_M16N8K16_") &&
            !strcmp(r->rule[i].op, "HMMA.16816.F32"))
            seen += r->rule[i].min == want && r->rule[i].max == want;
        if (!strcmp(r->rule[i].func, "gc_k_MMA_S4CC_S32_M16N8K64_"))
            s4 += (!strcmp(r->rule[i].op, "CALL.REL.NOINC") && r->rule[i].min == want &&
                   r->rule[i].max == want) ||
                  (!strcmp(r->rule[i].op, "IMMA.16832.S8.S8") && r->rule[i].min == 1);
        /* the tensor-core s4 rows are not 9.0's */
        CHECK(strcmp(r->rule[i].func, "gc_k_MMA_S4_S32_M16N8K64_") != 0);
    }
    CHECK(seen == 1);
    CHECK(s4 == 2);
    /* on 8.0 the s4 forms expect IMMA */
    n = gc_forms_rules(r, "mma", 80);
    int imma = 0;
    for (int i = 0; i < n; i++)
        imma += !strcmp(r->rule[i].op, "IMMA.16864.S4.S4") && r->rule[i].min == want;
    CHECK(imma == 1);
    /* wgmma: N=256 f32 compiles ilp 1 only, ss and rs: 2 kernels x 4 iterations */
    n = gc_forms_rules(r, "wgmma", 90);
    int arrive = 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(r->rule[i].func, "gc_k_WG_F16_F32_N256_")) {
            if (!strcmp(r->rule[i].op, "HGMMA.64x256x16.F32"))
                arrive += r->rule[i].min == 2 * GC_WGMMA_UNROLL;
            if (!strcmp(r->rule[i].op, "WARPGROUP.ARRIVE"))
                arrive += r->rule[i].min == 2 * GC_WGMMA_UNROLL &&
                          r->rule[i].max == 2 * GC_WGMMA_UNROLL;
        }
    CHECK(arrive == 2);
    CHECK(gc_forms_rules(r, "wgmma", 80) == 0);
    /* alu / ldmatrix / smem */
    n = gc_forms_rules(r, "alu", 90);
    CHECK(n == 3 * GC_ALU_COUNT);
    CHECK(!strcmp(r->rule[0].func, "gc_k_alu_ffma_") && !strcmp(r->rule[0].op, "FFMA"));
    CHECK(r->rule[0].min == 523 && r->rule[0].max == 523);
    /* the sparse FP8 emulation may spill; every other family may not */
    n = gc_forms_rules(r, "mma_sp", 90);
    int stl = 0, em = 0;
    for (int i = 0; i < n; i++) {
        stl += !strcmp(r->rule[i].op, "STL");
        em += !strcmp(r->rule[i].func, "gc_k_SP_E4M3EM_F32_M16N8K64_") &&
              !strcmp(r->rule[i].op, "STL");
    }
    CHECK(em == 0);
    CHECK(stl == 12); /* 14 forms planned on 9.0, two of them sparse FP8 emulations */
    CHECK(gc_forms_rules(r, "ldmatrix", 90) == 3 * 6);
    CHECK(gc_forms_rules(r, "smem", 90) == 3 * 3);
    CHECK(gc_forms_rules(r, "no_such_bench", 90) == 0);
    free(r);
}

static void test_fill(void)
{
    uint32_t w[512];
    CHECK(gc_sweep_fill(w, 512, "f16", 0, 1) == 0);
    for (int i = 0; i < 512; i++)
        CHECK(w[i] == 0);
    CHECK(gc_sweep_fill(w, 512, "no_such_type", 1, 1) == -1);
    /* random f16: finite, normal, magnitudes in [1/16, 1/2), both signs */
    CHECK(gc_sweep_fill(w, 512, "f16", 1, 7) == 0);
    int neg = 0;
    for (int i = 0; i < 512; i++)
        for (int h = 0; h < 2; h++) {
            float f = gc_half_to_float((uint16_t)(w[i] >> (16 * h)));
            CHECK(fabsf(f) >= 1.0f / 16 && fabsf(f) < 0.5f);
            neg += f < 0;
        }
    CHECK(neg > 300 && neg < 724);
    /* repeatable from the seed */
    uint32_t v[512];
    gc_sweep_fill(v, 512, "f16", 1, 7);
    CHECK(memcmp(v, w, sizeof(v)) == 0);
    /* bf16, tf32, e4m3, e5m2 bit fields */
    gc_sweep_fill(w, 64, "bf16", 1, 3);
    for (int i = 0; i < 64; i++) {
        float f = gc_bf16_to_float((uint16_t)w[i]);
        CHECK(fabsf(f) >= 1.0f / 16 && fabsf(f) < 0.5f);
    }
    gc_sweep_fill(w, 64, "e4m3", 1, 3);
    for (int i = 0; i < 64; i++)
        for (int b = 0; b < 4; b++) {
            int e = (w[i] >> (8 * b + 3)) & 15;
            CHECK(e >= 3 && e <= 5); /* 2^-4 .. 2^-2: never NaN (e = 15) */
        }
    gc_sweep_fill(w, 64, "e5m2", 1, 3);
    for (int i = 0; i < 64; i++)
        for (int b = 0; b < 4; b++) {
            int e = (w[i] >> (8 * b + 2)) & 31;
            CHECK(e >= 11 && e <= 13);
        }
    gc_sweep_fill(w, 64, "f64", 1, 3);
    for (int i = 1; i < 64; i += 2) {
        int e = (w[i] >> 20) & 2047;
        CHECK(e >= 1019 && e <= 1021);
    }
    /* half decoder on known values */
    CHECK(gc_half_to_float(0x3c00) == 1.0f);
    CHECK(gc_half_to_float(0xc000) == -2.0f);
    CHECK(gc_half_to_float(0x0001) == 5.9604644775390625e-8f);
    CHECK(gc_bf16_to_float(0x3f80) == 1.0f);
}

static void test_ldsm(void)
{
    /* for every form, the layout makes each thread load its target row's
     * address in every register (CPU model of ldmatrix's fragments) */
    const uint32_t base = 0x1230;
    for (int num = 1; num <= 4; num *= 2)
        for (int trans = 0; trans < 2; trans++) {
            uint32_t desc[256];
            uint16_t half[256];
            int rows = gc_ldsm_rows(num);
            CHECK(rows == 8 * num);
            gc_ldsm_layout(num, trans, desc);
            for (int i = 0; i < rows * 8; i++)
                half[i] = (uint16_t)((base + (desc[i] >> 1)) >> (16 * (desc[i] & 1)));
            int ok = 0;
            for (int t = 0; t < 32; t++)
                for (int j = 0; j < num; j++)
                    ok += gc_ldsm_model(num, trans, half, t, j) ==
                          base + 16u * (uint32_t)gc_ldsm_target(num, t);
            CHECK(ok == 32 * num);
            /* threads that supply addresses keep their own row */
            for (int t = 0; t < 8 * num; t++)
                CHECK(gc_ldsm_target(num, t) == t);
        }
    /* the model itself: non-trans thread 5 gets row 1, halves 2 and 3 */
    uint16_t h[64];
    for (int i = 0; i < 64; i++)
        h[i] = (uint16_t)i;
    CHECK(gc_ldsm_model(1, 0, h, 5, 0) == (10u | 11u << 16));
    /* trans: thread 5 (a = 1, b = 1) gets column 1 of rows 2 and 3 */
    CHECK(gc_ldsm_model(1, 1, h, 5, 0) == (17u | 25u << 16));
}

static void test_smem(void)
{
    /* 4-byte accesses: `ways` distinct words per bank, exactly */
    for (int ways = 1; ways <= 32; ways++)
        CHECK(gc_smem_degree(4, ways) == ways);
    /* wider accesses: a 128-byte wavefront serves 16 (8 B) or 8 (16 B)
     * threads, so the degree saturates there */
    CHECK(gc_smem_degree(8, 1) == 1);
    CHECK(gc_smem_degree(8, 2) == 2);
    CHECK(gc_smem_degree(8, 32) == 16);
    CHECK(gc_smem_degree(16, 1) == 1);
    CHECK(gc_smem_degree(16, 4) == 4);
    CHECK(gc_smem_degree(16, 32) == 8);
    /* distinct addresses inside the region, aligned to the width */
    for (int width = 4; width <= 16; width *= 2)
        for (int ways = 1; ways <= 32; ways++)
            for (int t = 0; t < 32; t++) {
                uint32_t o = gc_smem_offset(width, ways, t);
                CHECK(o % (uint32_t)width == 0);
                CHECK(o + (uint32_t)width <= gc_smem_bytes(width, ways));
                for (int u = 0; u < t; u++)
                    CHECK(gc_smem_offset(width, ways, u) != o);
            }
}

int main(void)
{
    test_table();
    test_plan();
    test_grids();
    test_rules();
    test_fill();
    test_ldsm();
    test_smem();
    CHECK_DONE();
}
