/* bench_ldmatrix.cu - the `ldmatrix` bench: ldmatrix.sync.aligned.m8n8
 * .x1/.x2/.x4 (and .trans) .shared.b16, swept over warps per SM x
 * independent chains per warp, on one SM. Shared memory is laid out
 * (gc_ldsm_layout, measure/sweep_plan.c) so that every register a thread
 * loads holds the address of the row it supplies: each ldmatrix takes its
 * address from the previous one's result, with no instruction between them
 * (a dependent chain: at one warp and one chain, the completion latency).
 * The rows are 16 bytes apart, so a request touches every bank once per
 * matrix. The host checks that each thread ends on the address it should.
 * Writes ldmatrix.csv. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "forms.h"
#include "sweep_plan.h"
#include "tensor_sweep.cuh"

template <int NUM, int TRANS> struct gc_ldsm;
#define GC_LDSM(NUM, TRANS, PTX, OUTS)                                                         \
    template <> struct gc_ldsm<NUM, TRANS> {                                                   \
        static __device__ __forceinline__ void ld(uint32_t *r, uint32_t addr)                  \
        {                                                                                      \
            asm volatile(PTX : OUTS : "r"(addr));                                              \
        }                                                                                      \
    };
#define O1 "=r"(r[0])
#define O2 "=r"(r[0]), "=r"(r[1])
#define O4 "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
GC_LDSM(1, 0, "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];", O1)
GC_LDSM(2, 0, "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];", O2)
GC_LDSM(4, 0, "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];", O4)
GC_LDSM(1, 1, "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];", O1)
GC_LDSM(2, 1, "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];", O2)
GC_LDSM(4, 1, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];", O4)
#undef O1
#undef O2
#undef O4

template <int NUM, int TRANS, int ILP> __device__ __forceinline__ void gc_ldsm_body(GC_T_ARGS)
{
    extern __shared__ __align__(128) uint16_t gc_ldsm_smem[];
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(gc_ldsm_smem);
    /* in[i]: (offset << 1) | part for half i (gc_ldsm_layout) */
    for (int i = threadIdx.x; i < 64 * NUM; i += blockDim.x) {
        uint32_t d = in[i];
        gc_ldsm_smem[i] = (uint16_t)((base + (d >> 1)) >> (16 * (d & 1)));
    }
    __syncthreads();
    const unsigned lane = threadIdx.x & 31;
    uint32_t r[ILP][NUM];
#pragma unroll
    for (int c = 0; c < ILP; c++)
#pragma unroll
        for (int j = 0; j < NUM; j++)
            r[c][j] = base + 16 * (lane % (8 * NUM)) + in[GC_T_WORDS + GC_T_ZERO + c * NUM + j];
#pragma unroll
    for (int c = 0; c < ILP; c++)
#pragma unroll
        for (int j = 0; j < NUM; j++)
            asm volatile("" : "+r"(r[c][j]));
    gc_ttimer_t t;
    gc_t_begin(&t);
#pragma unroll 1
    for (int trip = 0; trip < trips; trip++) {
#pragma unroll
        for (int u = 0; u < gc_sweep_unroll_mma_c(ILP); u++)
#pragma unroll
            for (int c = 0; c < ILP; c++)
                gc_ldsm<NUM, TRANS>::ld(r[c], r[c][u % NUM]); /* every register takes a turn */
    }
    gc_t_end(&t, rec);
    uint32_t bad = 0;
#pragma unroll
    for (int c = 0; c < ILP; c++)
#pragma unroll
        for (int j = 0; j < NUM; j++)
            bad |= r[c][j] != r[0][0];
    sink[gc_t_tid()] = (r[0][0] - base) | bad << 31;
}

#define GC_LDSM_K1(num, trans, ilp)                                                            \
    extern "C" __global__ void gc_k_ldsm_x##num##_t##trans##_i##ilp(GC_T_ARGS)                 \
    {                                                                                          \
        gc_ldsm_body<num, trans, ilp>(in, sink, rec, trips);                                   \
    }
#define GC_LDSM_KERNELS(num, trans)                                                            \
    GC_LDSM_K1(num, trans, 1) GC_LDSM_K1(num, trans, 2) GC_LDSM_K1(num, trans, 3)              \
        GC_LDSM_K1(num, trans, 4) GC_LDSM_K1(num, trans, 5) GC_LDSM_K1(num, trans, 6)          \
            GC_LDSM_K1(num, trans, 7) GC_LDSM_K1(num, trans, 8)
GC_LDSM_KERNELS(1, 0)
GC_LDSM_KERNELS(2, 0)
GC_LDSM_KERNELS(4, 0)
GC_LDSM_KERNELS(1, 1)
GC_LDSM_KERNELS(2, 1)
GC_LDSM_KERNELS(4, 1)

#define GC_LDSM_ENTRY(num, trans)                                                              \
    {num, trans,                                                                               \
     {(const void *)gc_k_ldsm_x##num##_t##trans##_i1, (const void *)gc_k_ldsm_x##num##_t##trans##_i2, \
      (const void *)gc_k_ldsm_x##num##_t##trans##_i3, (const void *)gc_k_ldsm_x##num##_t##trans##_i4, \
      (const void *)gc_k_ldsm_x##num##_t##trans##_i5, (const void *)gc_k_ldsm_x##num##_t##trans##_i6, \
      (const void *)gc_k_ldsm_x##num##_t##trans##_i7, (const void *)gc_k_ldsm_x##num##_t##trans##_i8}},
static const struct {
    int num, trans;
    const void *k[8];
} ldsm_tab[] = {GC_LDSM_ENTRY(1, 0) GC_LDSM_ENTRY(2, 0) GC_LDSM_ENTRY(4, 0)
                    GC_LDSM_ENTRY(1, 1) GC_LDSM_ENTRY(2, 1) GC_LDSM_ENTRY(4, 1)};

/* every thread must end on its own target row, with all registers equal */
static int ldsm_check(gc_tsweep_t *s, int num, size_t n, const char *what, gc_err_t *err)
{
    const uint32_t *v;
    int rc = gc_tsweep_sink(s, n, &v, err);
    for (size_t i = 0; i < n && !rc; i++) {
        uint32_t want = 16u * (uint32_t)gc_ldsm_target(num, (int)(i % 32));
        if (v[i] != want)
            rc = gc_err_set(err, GC_ERUN,
                            "%s: thread %zu ended the ldmatrix chain at offset 0x%x%s, expected "
                            "0x%x (the layout or the instruction is not what was assumed)",
                            what, i, v[i] & 0x7fffffffu, v[i] >> 31 ? " with registers apart" : "",
                            want);
    }
    return rc;
}

/* The point of the ldmatrix sweep for form *(int *)cookie of ldsm_tab at wn
 * warps and ILP ilp (gc_tgrid_t plan): one SM. */
static void ldsm_plan(void *cookie, int wn, int ilp, gc_tpoint_t *p)
{
    int f = *(const int *)cookie, num = ldsm_tab[f].num, trans = ldsm_tab[f].trans;
    p->fn = ldsm_tab[f].k[ilp - 1];
    p->blocks = 1;
    p->warps = wn;
    p->smem = (size_t)128 * num;
    p->unroll = gc_sweep_unroll_mma(ilp);
    p->work = (double)wn * ilp * num * 128;
    snprintf(p->label, sizeof(p->label), "ldmatrix.x%d%s w%d ilp%d", num, trans ? ".trans" : "", wn,
             ilp);
    snprintf(p->cols, sizeof(p->cols), "%d,%d", num, trans);
}

/* The sink check of the ldmatrix sweep (gc_tgrid_t check): ldsm_check. */
static int ldsm_grid_check(void *cookie, gc_tsweep_t *s, size_t n, const char *label, gc_err_t *err)
{
    return ldsm_check(s, ldsm_tab[*(const int *)cookie].num, n, label, err);
}

static int run_ldmatrix(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    gc_tsweep_t s;
    int rc = gc_tsweep_init(&s, ctx, err);
    if (rc)
        return rc;
    if (gc_trace_put_meta(w, "pattern",
                          "chase: each 16-byte row holds the shared-memory addresses the "
                          "threads load next (gc_ldsm_layout), so every loaded register is "
                          "the next address; rows 16 bytes apart (no bank conflict)") != 0)
        rc = gc_tsweep_werr(w, err);
    if (!rc && gc_measure_columns(w, "ldmatrix") != 0)
        rc = gc_tsweep_werr(w, err);
    const int *warps, *ilps;
    int nw = gc_sweep_warps(ctx->quick, &warps), ni = gc_sweep_ilps(ctx->quick, &ilps);
    long total = 6L * nw * ni, done = 0;
    int f = 0;
    gc_tgrid_t g = {warps, ilps, nw, ni, ldsm_plan, ldsm_grid_check, &f, &done, total};
    for (; f < 6 && !rc; f++) {
        int num = ldsm_tab[f].num, trans = ldsm_tab[f].trans;
        uint32_t half[256];
        gc_ldsm_layout(num, trans, half);
        if ((rc = gc_tsweep_words(&s, half, (size_t)64 * num, err)) != 0)
            break;
        rc = gc_tsweep_grid(&s, w, &g, err);
    }
    gc_tsweep_fini(&s);
    return rc;
}

static gc_forms_rules_t ldsm_rules;

static int ldsm_sass_plan(int cc, const gc_sass_rule_t **rules)
{
    int n = gc_forms_rules(&ldsm_rules, "ldmatrix", cc);
    *rules = ldsm_rules.rule;
    return n;
}

extern "C" const gc_bench_t gc_bench_ldmatrix = {
    "ldmatrix", "ldmatrix x1/x2/x4 (.trans) latency/throughput, ILP x warps, one SM",
    run_ldmatrix, NULL, 0, 0, 1, ldsm_sass_plan,
};
