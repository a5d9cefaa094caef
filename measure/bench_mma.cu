/* bench_mma.cu - the `mma` bench: every dense mma.sync form the device
 * plans (measure/forms.h) and the legacy wmma 16x16x16, each swept over
 * warps per SM x independent chains per warp, on one SM and on every SM,
 * with random and zero operands. Also the driver the `mma_sp` bench shares
 * (gc_mma_run) and a CPU-reference check of mma.m16n8k16 f16 -> f32.
 * Writes traces/<device>/mma.csv (columns: traces/README.md). */
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_plan.h"
#include "tensor_mma.cuh"

GC_MMA_FORMS(GC_MMA_KERNELS)

static const gc_mma_kernels_t mma_tab[] = {GC_MMA_FORMS(GC_MMA_ENTRY)};

/* ---- one mma.m16n8k16 f16 -> f32 against a CPU reference ---- */

/* One warp: A (16x16, row-major halves at in[0..128)), B stored as B^T
 * (8x16 halves at in[128..192)); D (16x8 floats) to sink[0..128). The
 * fragment layout is the PTX ISA's for m16n8k16 with .f16 operands. */
extern "C" __global__ void gc_k_mma_check(GC_T_ARGS)
{
    (void)rec;
    (void)trips;
    const uint16_t *A = reinterpret_cast<const uint16_t *>(in);
    const uint16_t *Bt = A + 256;
    int lane = threadIdx.x & 31, g = lane / 4, c = lane % 4;
    if (threadIdx.x >= 32)
        return;
#define H2(lo, hi) ((uint32_t)(lo) | (uint32_t)(hi) << 16)
    uint32_t a[4] = {H2(A[g * 16 + 2 * c], A[g * 16 + 2 * c + 1]),
                     H2(A[(g + 8) * 16 + 2 * c], A[(g + 8) * 16 + 2 * c + 1]),
                     H2(A[g * 16 + 2 * c + 8], A[g * 16 + 2 * c + 9]),
                     H2(A[(g + 8) * 16 + 2 * c + 8], A[(g + 8) * 16 + 2 * c + 9])};
    uint32_t b[2] = {H2(Bt[g * 16 + 2 * c], Bt[g * 16 + 2 * c + 1]),
                     H2(Bt[g * 16 + 2 * c + 8], Bt[g * 16 + 2 * c + 9])};
#undef H2
    float d[4] = {0, 0, 0, 0};
    gc_mma<GC_FORM_MMA_F16_F32_M16N8K16>::run(d, a, b, 0);
    float *D = reinterpret_cast<float *>(sink);
    D[g * 8 + 2 * c] = d[0];
    D[g * 8 + 2 * c + 1] = d[1];
    D[(g + 8) * 8 + 2 * c] = d[2];
    D[(g + 8) * 8 + 2 * c + 1] = d[3];
}

static int mma_check(gc_tsweep_t *s, char *note, size_t n, gc_err_t *err)
{
    int rc = gc_tsweep_data(s, "f16", 1, NULL, 0, err);
    uint32_t words[192];
    if (!rc)
        rc = gc_cuda_check(cudaMemcpy(words, s->d_in, sizeof(words), cudaMemcpyDeviceToHost),
                           "reading the check's operands", err);
    if (!rc)
        rc = gc_cuda_check(cudaMemset(s->d_sink, 0xff, 128 * sizeof(uint32_t)),
                           "poisoning the check's output", err);
    if (rc)
        return rc;
    const void *fn = (const void *)gc_k_mma_check;
    const uint32_t *in = s->d_in;
    int zero = 0;
    void *args[] = {(void *)&in, (void *)&s->d_sink, (void *)&s->d_rec, (void *)&zero};
    rc = gc_cuda_check(cudaLaunchKernel(fn, dim3(1), dim3(32), args, 0, 0),
                       "launching the mma check", err);
    if (!rc)
        rc = gc_cuda_check(cudaDeviceSynchronize(), "running the mma check", err);
    const uint32_t *out;
    if (!rc)
        rc = gc_tsweep_sink(s, 128, &out, err);
    if (rc)
        return rc;
    const uint16_t *h = (const uint16_t *)words;
    double maxerr = 0, maxref = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) {
            double ref = 0;
            for (int k = 0; k < 16; k++)
                ref += (double)gc_half_to_float(h[i * 16 + k]) *
                       (double)gc_half_to_float(h[256 + j * 16 + k]);
            float got;
            memcpy(&got, &out[i * 8 + j], sizeof(got));
            double e = fabs((double)got - ref);
            if (!(e <= maxerr)) /* NaN too */
                maxerr = e;
            if (fabs(ref) > maxref)
                maxref = fabs(ref);
        }
    double tol = 1e-5 * (maxref > 1 ? maxref : 1);
    snprintf(note, n,
             "mma.m16n8k16 f16->f32 (random operands) against a CPU reference: max |error| "
             "%.3g, tolerance %.3g: %s",
             maxerr, tol, maxerr <= tol ? "ok" : "FAILED");
    if (!(maxerr <= tol))
        return gc_err_set(err, GC_ERUN, "%s", note);
    return 0;
}

/* ---- the sweep shared by mma and mma_sp ---- */

/* What a point of the mma sweep takes from the loops around it. */
typedef struct mma_pt {
    const gc_form_t *form;
    const gc_mma_kernels_t *ks;
    int rnd, scope, blocks;
} mma_pt_t;

/* The point of the mma sweep at wn warps and ILP ilp (gc_tgrid_t plan). */
static void mma_plan(void *cookie, int wn, int ilp, gc_tpoint_t *p)
{
    const mma_pt_t *m = (const mma_pt_t *)cookie;
    const gc_form_t *form = m->form;
    const char *data = m->rnd ? "rand" : "zero", *scope = m->scope ? "gpu" : "sm";
    p->fn = m->ks->k[ilp - 1];
    p->blocks = m->blocks;
    p->warps = wn;
    p->unroll = gc_sweep_unroll_mma(ilp);
    p->work = (double)wn * ilp * gc_form_fma(form);
    p->sink_kind = !strcmp(form->c, "s32") ? GC_SINK_INT : GC_SINK_FLOAT;
    p->rand = m->rnd;
    snprintf(p->label, sizeof(p->label), "%s %s %s->%s %s %s w%d ilp%d", form->inst, form->shape,
             form->a, form->c, data, scope, wn, ilp);
    snprintf(p->cols, sizeof(p->cols), "%s,%s,%s,%s,-,%s,%s,%d", form->inst, form->shape, form->a,
             form->c, data, scope, m->blocks);
}

extern "C" int gc_mma_run(gc_mctx_t *ctx, gc_trace_writer_t *w, const char *bench,
                          const gc_mma_kernels_t *tab, int ntab, gc_err_t *err)
{
    int cc = ctx->dev.cc_major * 10 + ctx->dev.cc_minor;
    const gc_form_t *plan[GC_FORM_COUNT];
    int nplan = gc_forms_plan(bench, cc, plan, GC_FORM_COUNT);
    gc_tsweep_t s;
    int rc = gc_tsweep_init(&s, ctx, err);
    if (rc)
        return rc;
    char note[512] = "";
    if (!strcmp(bench, "mma"))
        rc = mma_check(&s, note, sizeof(note), err);
    if (!rc && note[0])
        rc = gc_trace_put_meta(w, "check", "%s", note) ? gc_tsweep_werr(w, err) : 0;
    if (!rc && gc_trace_put_meta(w, "pattern",
                                 "rand and zero (data column). rand: random signs and "
                                 "mantissas, magnitudes in [1/16, 1/2) for floating-point "
                                 "operands, every bit pattern for s8/s4/b1; zero: all operands "
                                 "0. Accumulators start at 0; sparsity metadata 0x4 in every "
                                 "nibble (elements 0 and 1 of each group kept)") != 0)
        rc = gc_tsweep_werr(w, err);
    if (!rc && gc_measure_columns(w, "mma") != 0)
        rc = gc_tsweep_werr(w, err);
    const int *warps, *ilps;
    int nw = gc_sweep_warps(ctx->quick, &warps), ni = gc_sweep_ilps(ctx->quick, &ilps);
    long total = (long)nplan * 2 * 2 * nw * ni, done = 0;
    mma_pt_t m;
    gc_tgrid_t g = {warps, ilps, nw, ni, mma_plan, NULL, &m, &done, total};
    uint32_t meta[32];
    for (int i = 0; i < 32; i++)
        meta[i] = 0x44444444u;
    for (int f = 0; f < nplan && !rc; f++) {
        const gc_form_t *form = plan[f];
        const gc_mma_kernels_t *ks = NULL;
        for (int i = 0; i < ntab; i++)
            if (tab[i].id == form->id)
                ks = &tab[i];
        if (!ks) {
            rc = gc_err_set(err, GC_ERUN, "form %s is planned but has no kernels", form->name);
            break;
        }
        m.form = form;
        m.ks = ks;
        for (int data = 0; data < 2 && !rc; data++) {
            m.rnd = data == 0;
            if ((rc = gc_tsweep_data(&s, form->a, m.rnd, meta, 32, err)) != 0)
                break;
            for (int scope = 0; scope < 2 && !rc; scope++) {
                m.scope = scope;
                m.blocks = scope ? ctx->dev.sms : 1;
                rc = gc_tsweep_grid(&s, w, &g, err);
            }
        }
    }
    gc_tsweep_fini(&s);
    return rc;
}

static gc_forms_rules_t mma_rules;

static int mma_sass_plan(int cc, const gc_sass_rule_t **rules)
{
    int n = gc_forms_rules(&mma_rules, "mma", cc);
    *rules = mma_rules.rule;
    return n;
}

static int run_mma(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    return gc_mma_run(ctx, w, "mma", mma_tab, (int)(sizeof(mma_tab) / sizeof(mma_tab[0])), err);
}

extern "C" const gc_bench_t gc_bench_mma = {
    "mma", "mma.sync and wmma latency/throughput: every dense form, ILP x warps, SM and GPU",
    run_mma, NULL, 0, 80, 1, mma_sass_plan,
};
