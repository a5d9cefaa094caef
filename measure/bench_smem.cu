/* bench_smem.cu - the `smem` bench: ld.shared of 4, 8 and 16 bytes per
 * thread with 1..32-way bank conflicts (gc_smem_offset: thread t reads chunk
 * t/ways of row t%ways, rows 512 bytes apart, so `ways` threads share the
 * same banks at different addresses), swept over warps per SM x independent
 * chains per warp, on one SM. Each slot holds its own address in every
 * word, and each load takes its address from the previous load's result
 * (8/16-byte loads take turns with their words), so one warp with one chain
 * measures the load-to-use latency. The loads are ld.volatile.shared, so the
 * compiler keeps their width (it would narrow a vector load whose other
 * words are overwritten unread). Every degree 1..32 is measured at one
 * warp and one chain; the powers of two over the whole grid. The host
 * checks each thread ends on its own address. Writes smem.csv. */
#include <cuda_runtime.h>
#include <string.h>

#include "forms.h"
#include "sweep_plan.h"
#include "tensor_sweep.cuh"

template <int W> struct gc_lds;
template <> struct gc_lds<4> {
    enum { n = 1 };
    static __device__ __forceinline__ void ld(uint32_t *r, uint32_t a)
    {
        asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(r[0]) : "r"(a));
    }
};
template <> struct gc_lds<8> {
    enum { n = 2 };
    static __device__ __forceinline__ void ld(uint32_t *r, uint32_t a)
    {
        asm volatile("ld.volatile.shared.v2.u32 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a));
    }
};
template <> struct gc_lds<16> {
    enum { n = 4 };
    static __device__ __forceinline__ void ld(uint32_t *r, uint32_t a)
    {
        asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(a));
    }
};

/* in[0] = ways */
template <int W, int ILP> __device__ __forceinline__ void gc_lds_body(GC_T_ARGS)
{
    typedef gc_lds<W> op;
    extern __shared__ __align__(128) uint32_t gc_lds_smem[];
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(gc_lds_smem);
    const uint32_t ways = in[0];
    const unsigned lane = threadIdx.x & 31;
    const uint32_t off = (lane % ways) * GC_SMEM_ROW_BYTES + (lane / ways) * W;
#pragma unroll
    for (int j = 0; j < op::n; j++)
        gc_lds_smem[off / 4 + j] = base + off;
    __syncthreads();
    uint32_t r[ILP][op::n];
#pragma unroll
    for (int c = 0; c < ILP; c++)
#pragma unroll
        for (int j = 0; j < op::n; j++)
            r[c][j] = base + off + in[GC_T_WORDS + GC_T_ZERO + c * op::n + j];
#pragma unroll
    for (int c = 0; c < ILP; c++)
#pragma unroll
        for (int j = 0; j < op::n; j++)
            asm volatile("" : "+r"(r[c][j]));
    gc_ttimer_t t;
    gc_t_begin(&t);
#pragma unroll 1
    for (int trip = 0; trip < trips; trip++) {
#pragma unroll
        for (int u = 0; u < gc_sweep_unroll_mma_c(ILP); u++)
#pragma unroll
            for (int c = 0; c < ILP; c++)
                op::ld(r[c], r[c][u % op::n]);
    }
    gc_t_end(&t, rec);
    uint32_t bad = 0;
#pragma unroll
    for (int c = 0; c < ILP; c++)
#pragma unroll
        for (int j = 0; j < op::n; j++)
            bad |= r[c][j] != r[0][0];
    sink[gc_t_tid()] = (r[0][0] - base) | bad << 31;
}

#define GC_LDS_K1(w, ilp)                                                                      \
    extern "C" __global__ void gc_k_lds_w##w##_i##ilp(GC_T_ARGS)                               \
    {                                                                                          \
        gc_lds_body<w, ilp>(in, sink, rec, trips);                                             \
    }
#define GC_LDS_KERNELS(w)                                                                      \
    GC_LDS_K1(w, 1) GC_LDS_K1(w, 2) GC_LDS_K1(w, 3) GC_LDS_K1(w, 4) GC_LDS_K1(w, 5)            \
        GC_LDS_K1(w, 6) GC_LDS_K1(w, 7) GC_LDS_K1(w, 8)
GC_LDS_KERNELS(4)
GC_LDS_KERNELS(8)
GC_LDS_KERNELS(16)
#define GC_LDS_ENTRY(w)                                                                        \
    {w,                                                                                        \
     {(const void *)gc_k_lds_w##w##_i1, (const void *)gc_k_lds_w##w##_i2,                      \
      (const void *)gc_k_lds_w##w##_i3, (const void *)gc_k_lds_w##w##_i4,                      \
      (const void *)gc_k_lds_w##w##_i5, (const void *)gc_k_lds_w##w##_i6,                      \
      (const void *)gc_k_lds_w##w##_i7, (const void *)gc_k_lds_w##w##_i8}},
static const struct {
    int width;
    const void *k[8];
} lds_tab[] = {GC_LDS_ENTRY(4) GC_LDS_ENTRY(8) GC_LDS_ENTRY(16)};

static int lds_check(gc_tsweep_t *s, int width, int ways, size_t n, const char *what,
                     gc_err_t *err)
{
    const uint32_t *v;
    int rc = gc_tsweep_sink(s, n, &v, err);
    for (size_t i = 0; i < n && !rc; i++) {
        uint32_t want = gc_smem_offset(width, ways, (int)(i % 32));
        if (v[i] != want)
            rc = gc_err_set(err, GC_ERUN,
                            "%s: thread %zu ended the load chain at offset 0x%x%s, expected 0x%x",
                            what, i, v[i] & 0x7fffffffu, v[i] >> 31 ? " with words apart" : "",
                            want);
    }
    return rc;
}

/* What a point of the smem sweep takes from the loops around it. */
typedef struct lds_pt {
    int f, ways;
    const char *label; /* one per width and ways */
} lds_pt_t;

/* The point of the smem sweep at wn warps and ILP ilp (gc_tgrid_t plan):
 * one SM. */
static void lds_plan(void *cookie, int wn, int ilp, gc_tpoint_t *p)
{
    const lds_pt_t *m = (const lds_pt_t *)cookie;
    int width = lds_tab[m->f].width;
    p->fn = lds_tab[m->f].k[ilp - 1];
    p->blocks = 1;
    p->warps = wn;
    p->smem = gc_smem_bytes(width, m->ways);
    p->unroll = gc_sweep_unroll_mma(ilp);
    p->work = (double)wn * ilp * 32 * width;
    snprintf(p->label, sizeof(p->label), "%s", m->label);
    snprintf(p->cols, sizeof(p->cols), "%d,%d", width, m->ways);
}

/* The sink check of the smem sweep (gc_tgrid_t check): lds_check. */
static int lds_grid_check(void *cookie, gc_tsweep_t *s, size_t n, const char *label, gc_err_t *err)
{
    const lds_pt_t *m = (const lds_pt_t *)cookie;
    return lds_check(s, lds_tab[m->f].width, m->ways, n, label, err);
}

static int run_smem(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    gc_tsweep_t s;
    int rc = gc_tsweep_init(&s, ctx, err);
    if (rc)
        return rc;
    if (gc_trace_put_meta(w, "pattern",
                          "chase: each thread's slot holds its own shared address in every "
                          "word; thread t reads chunk t/ways of row t%%ways (rows 512 bytes "
                          "apart)") != 0)
        rc = gc_tsweep_werr(w, err);
    if (!rc && gc_measure_columns(w, "smem") != 0)
        rc = gc_tsweep_werr(w, err);
    const int *warps, *ilps;
    int nw = gc_sweep_warps(ctx->quick, &warps), ni = gc_sweep_ilps(ctx->quick, &ilps);
    long total = 3L * 32, done = 0;
    lds_pt_t m;
    for (int f = 0; f < 3 && !rc; f++) {
        int width = lds_tab[f].width;
        for (int ways = 1; ways <= 32 && !rc; ways++) {
            int pow2 = (ways & (ways - 1)) == 0;
            if (ctx->quick && !pow2)
                continue;
            uint32_t word = (uint32_t)ways;
            if ((rc = gc_tsweep_words(&s, &word, 1, err)) != 0)
                break;
            char label[96];
            snprintf(label, sizeof(label), "ld.shared %dB %d-way", width, ways);
            gc_progress(ctx, ++done, total, label);
            m.f = f;
            m.ways = ways;
            m.label = label;
            /* warps x ILP at power-of-two degrees; the first point only at the others */
            gc_tgrid_t g = {warps, ilps, pow2 ? nw : 1, pow2 ? ni : 1, lds_plan, lds_grid_check, &m,
                            NULL,  0};
            rc = gc_tsweep_grid(&s, w, &g, err);
        }
    }
    gc_tsweep_fini(&s);
    return rc;
}

static gc_forms_rules_t lds_rules;

static int lds_sass_plan(int cc, const gc_sass_rule_t **rules)
{
    int n = gc_forms_rules(&lds_rules, "smem", cc);
    *rules = lds_rules.rule;
    return n;
}

extern "C" const gc_bench_t gc_bench_smem = {
    "smem", "ld.shared 4/8/16 bytes with 1..32-way bank conflicts, ILP x warps, one SM",
    run_smem, NULL, 0, 0, 1, lds_sass_plan,
};
