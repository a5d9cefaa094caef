/* bench_mma_sp.cu - the `mma_sp` bench: every sparse mma.sp form the device
 * plans (measure/forms.h), swept like `mma` (gc_mma_run in bench_mma.cu):
 * warps per SM x independent chains, one SM and every SM, random and zero
 * operands; metadata keeps elements 0 and 1 of each group of four.
 * FMA figures count the dense-equivalent m*n*k. Writes mma_sp.csv. */
#include "tensor_mma.cuh"

GC_MMA_SP_FORMS(GC_MMA_KERNELS)

static const gc_mma_kernels_t sp_tab[] = {GC_MMA_SP_FORMS(GC_MMA_ENTRY)};

static gc_forms_rules_t sp_rules;

static int sp_sass_plan(int cc, const gc_sass_rule_t **rules)
{
    int n = gc_forms_rules(&sp_rules, "mma_sp", cc);
    *rules = sp_rules.rule;
    return n;
}

static int run_mma_sp(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    return gc_mma_run(ctx, w, "mma_sp", sp_tab, (int)(sizeof(sp_tab) / sizeof(sp_tab[0])), err);
}

extern "C" const gc_bench_t gc_bench_mma_sp = {
    "mma_sp", "mma.sp (2:4 sparse) latency/throughput: every sparse form, ILP x warps",
    run_mma_sp, NULL, 0, 80, 1, sp_sass_plan,
};
