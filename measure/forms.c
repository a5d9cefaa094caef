/* forms.c - the tensor-core forms table, its per-capability plan, the sweep
 * grids and the SASS rules derived from them (see forms.h). Pure C. */
#include <stdio.h>
#include <string.h>

#include "forms.h"

#define GC_FORM_ROW(id, inst, shape, a, c, lo, hi, m, n, k, sass, per, path, also)           \
    {GC_FORM_##id, #id, BENCH, inst, shape, a, c, lo, hi, m, n, k, sass, per, path, also},

const gc_form_t gc_forms[GC_FORM_COUNT] = {
#define BENCH "mma"
    GC_MMA_FORMS(GC_FORM_ROW)
#undef BENCH
#define BENCH "mma_sp"
    GC_MMA_SP_FORMS(GC_FORM_ROW)
#undef BENCH
#define BENCH "wgmma"
    GC_WGMMA_FORMS(GC_FORM_ROW)
#undef BENCH
};

#define GC_ALU_ROW(name, op, sass) {#name, op, sass},
const gc_alu_op_t gc_alu_ops[GC_ALU_COUNT] = {GC_ALU_OPS(GC_ALU_ROW)};

int gc_form_planned(const gc_form_t *f, int cc)
{
    return cc >= f->min_cc && (f->max_cc == 0 || cc <= f->max_cc);
}

int gc_forms_plan(const char *bench, int cc, const gc_form_t **out, int max)
{
    int n = 0;
    for (int i = 0; i < GC_FORM_COUNT && n < max; i++)
        if (!strcmp(gc_forms[i].bench, bench) && gc_form_planned(&gc_forms[i], cc))
            out[n++] = &gc_forms[i];
    return n;
}

double gc_form_fma(const gc_form_t *f)
{
    double fma = (double)f->m * f->n * f->k;
    /* the Volta-era mma.m8n8k4 with f16 operands computes four 8x8x4
     * products per warp, one per quad pair (PTX ISA, mma.m8n8k4) */
    if (!strcmp(f->inst, "mma") && !strcmp(f->shape, "m8n8k4") && !strcmp(f->a, "f16"))
        fma *= 4;
    return fma;
}

static const int warps_full[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
static const int warps_quick[] = {1, 4, 8, 16};
static const int ilps_full[] = {1, 2, 3, 4, 5, 6, 7, 8};
static const int ilps_quick[] = {1, 2, 4, 8};
static const int wg_full[] = {1, 2, 3, 4};
static const int wg_quick[] = {1, 2};

int gc_sweep_warps(int quick, const int **list)
{
    *list = quick ? warps_quick : warps_full;
    return quick ? 4 : 10;
}

int gc_sweep_ilps(int quick, const int **list)
{
    *list = quick ? ilps_quick : ilps_full;
    return quick ? 4 : 8;
}

int gc_sweep_warpgroups(int quick, const int **list)
{
    *list = quick ? wg_quick : wg_full;
    return quick ? 2 : 4;
}

int gc_sweep_unroll_mma(int ilp)
{
    return ilp <= 0 ? 16 : (16 + ilp - 1) / ilp;
}

int gc_sweep_unroll_alu(int ilp)
{
    return ilp <= 0 ? 64 : (64 + ilp - 1) / ilp;
}

int gc_wgmma_acc_regs(const gc_form_t *f)
{
    /* m64nN: 64*N accumulators over 128 threads; 16-bit ones pack in pairs */
    int per = f->n / 2;
    return !strcmp(f->c, "f16") ? per / 2 : per;
}

int gc_wgmma_ilp_compiled(const gc_form_t *f, int ilp)
{
    if (ilp != 1 && ilp != 2 && ilp != 4)
        return 0;
    return ilp * gc_wgmma_acc_regs(f) <= 128;
}

static int add_rule(gc_forms_rules_t *r, const char *func, const char *op, long min, long max)
{
    if (r->n >= GC_FORMS_RULES_MAX)
        return -1;
    snprintf(r->func[r->n], sizeof(r->func[0]), "%s", func);
    r->rule[r->n] = (gc_sass_rule_t){r->func[r->n], op, min, max};
    r->n++;
    return 0;
}

/* rules of the alu, ldmatrix and smem benches */
static int rules_other(gc_forms_rules_t *r, const char *bench)
{
    char func[64];
    int rc = 0;
    long ldsm = 0, alu = 0;
    for (int ilp = 1; ilp <= 8; ilp++) {
        ldsm += (long)gc_sweep_unroll_mma(ilp) * ilp;
        alu += (long)gc_sweep_unroll_alu(ilp) * ilp;
    }
    if (!strcmp(bench, "alu")) {
        for (int i = 0; i < GC_ALU_COUNT; i++) {
            snprintf(func, sizeof(func), "gc_k_alu_%s_", gc_alu_ops[i].name);
            /* IMAD, IADD3 and HFMA2 also move constants and compute
             * addresses (IMAD.MOV, IADD3 of the loop counter, HFMA2.MMA
             * loading an immediate): up to 16 more per kernel */
            const char *o = gc_alu_ops[i].sass;
            int shared = !strcmp(o, "IMAD") || !strcmp(o, "IADD3") || !strcmp(o, "HFMA2");
            rc |= add_rule(r, func, o, alu, shared ? alu + 8 * 16 : alu);
            rc |= add_rule(r, func, "LDL", 0, 0);
            rc |= add_rule(r, func, "STL", 0, 0);
        }
    } else if (!strcmp(bench, "ldmatrix")) {
        for (int num = 1; num <= 4; num *= 2)
            for (int trans = 0; trans < 2; trans++) {
                snprintf(func, sizeof(func), "gc_k_ldsm_x%d_t%d_", num, trans);
                static const char *const op[2][3] = {
                    {"LDSM.16.M88", "LDSM.16.M88.2", "LDSM.16.M88.4"},
                    {"LDSM.16.MT88", "LDSM.16.MT88.2", "LDSM.16.MT88.4"}};
                rc |= add_rule(r, func, op[trans][num == 1 ? 0 : num == 2 ? 1 : 2], ldsm, ldsm);
                rc |= add_rule(r, func, "LDL", 0, 0);
                rc |= add_rule(r, func, "STL", 0, 0);
            }
    } else if (!strcmp(bench, "smem")) {
        for (int width = 4; width <= 16; width *= 2) {
            snprintf(func, sizeof(func), "gc_k_lds_w%d_", width);
            /* plus what the timer adds after its end clock (gc_t_end): four
             * 64-bit shared min/max, which sm_90 does as LDS.64 + ATOMS.CAST
             * loops, and thread 0's two LDS.128 reads of the span, per kernel */
            long timer = width == 4 ? 6 : width == 8 ? 4 : 2;
            long want = ldsm + 8 * timer;
            rc |= add_rule(r, func, width == 4 ? "LDS" : width == 8 ? "LDS.64" : "LDS.128", want,
                           want);
            rc |= add_rule(r, func, "LDL", 0, 0);
            rc |= add_rule(r, func, "STL", 0, 0);
        }
    }
    return rc ? -1 : r->n;
}

int gc_forms_rules(gc_forms_rules_t *r, const char *bench, int cc)
{
    r->n = 0;
    if (!strcmp(bench, "alu") || !strcmp(bench, "ldmatrix") || !strcmp(bench, "smem"))
        return rules_other(r, bench);
    const gc_form_t *plan[GC_FORM_COUNT];
    int n = gc_forms_plan(bench, cc, plan, GC_FORM_COUNT);
    int wg = !strcmp(bench, "wgmma");
    for (int i = 0; i < n; i++) {
        const gc_form_t *f = plan[i];
        char func[64];
        snprintf(func, sizeof(func), "gc_k_%s_", f->name);
        long total = 0, kernels = 0;
        (void)kernels;
        if (wg) {
            for (int ilp = 1; ilp <= GC_WGMMA_ILP_MAX; ilp++)
                if (gc_wgmma_ilp_compiled(f, ilp)) {
                    total += 2L * GC_WGMMA_UNROLL * ilp; /* ss and rs */
                    kernels += 2;
                }
        } else {
            for (int ilp = 1; ilp <= 8; ilp++)
                total += (long)gc_sweep_unroll_mma(ilp) * ilp;
            kernels = 8;
        }
        int rc = 0;
        long want = total * f->sass_per;
        rc |= add_rule(r, func, f->sass, want, want);
        if (f->also[0])
            rc |= add_rule(r, func, f->also, 1, -1);
        if (wg) {
            long iters = kernels * GC_WGMMA_UNROLL;
            rc |= add_rule(r, func, "WARPGROUP.ARRIVE", iters, iters);
            rc |= add_rule(r, func, "WARPGROUP.DEPBAR", iters, iters);
        }
        /* the sparse FP8 emulation of sm_90 spills at high ILP: measured as is */
        int spills = !strcmp(f->path, "emu") && !strcmp(f->inst, "mma.sp") && f->also[0] == 'F';
        if (!spills) {
            rc |= add_rule(r, func, "LDL", 0, 0);
            rc |= add_rule(r, func, "STL", 0, 0);
        }
        if (rc)
            return -1;
    }
    return r->n;
}
