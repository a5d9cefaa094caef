/* bench_wgmma.cu - the `wgmma` bench (sm_90a): every planned wgmma and
 * wgmma.sp form (measure/forms.h), A and B from shared memory (ss) or A from
 * registers (rs), random and zero data, swept over warpgroups per SM x
 * independent accumulators per warpgroup, on one SM and on every SM. One
 * iteration per warpgroup is wgmma.fence, `ilp` wgmma (one per accumulator),
 * commit_group, wait_group 0: at one warpgroup and ilp 1 its cycles are the
 * completion latency. Before timing, wgmma m64n256k16 f16 -> f32 (ss, rs and
 * sparse ss) is checked against a CPU reference, which proves the
 * descriptors and layouts. Writes wgmma.csv (columns: traces/README.md).
 *
 * Shared-memory operands use the canonical K-major layout without swizzle
 * (PTX ISA, "Shared Memory Matrix Layout"): 8 rows x 16 bytes core
 * matrices; K-adjacent core matrices 128 bytes apart (leading-dimension
 * byte offset), M/N-adjacent ones 128 * (K bytes / 16) apart (stride byte
 * offset). */
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_plan.h"
#include "tensor_mma.cuh"

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GC_WG_ARCH 1
#else
#define GC_WG_ARCH 0
#endif

#if GC_WG_ARCH || !defined(__CUDA_ARCH__)
#include "tensor_wgmma_ops.cuh"
#endif

#define GC_WG_AKB 32 /* bytes of K per row of A (dense; sparse compressed) */

/* shared-memory descriptor: start, LBO, SBO in 16-byte units, no swizzle */
__device__ __forceinline__ uint64_t gc_wg_desc(uint32_t addr, uint32_t lbo, uint32_t sbo)
{
    return (uint64_t)((addr & 0x3FFFF) >> 4) | (uint64_t)((lbo & 0x3FFFF) >> 4) << 16 |
           (uint64_t)((sbo & 0x3FFFF) >> 4) << 32;
}

/* byte offset of byte kb of row r in a K-major operand of kbytes per row */
__host__ __device__ __forceinline__ uint32_t gc_wg_off(uint32_t r, uint32_t kb, uint32_t kbytes)
{
    return (r / 8) * (128 * (kbytes / 16)) + (kb / 16) * 128 + (r % 8) * 16 + kb % 16;
}

__device__ __forceinline__ void gc_wg_fence(void)
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void gc_wg_commit(void)
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void gc_wg_wait0(void)
{
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
}
/* keep the compiler from moving accumulator accesses across the fences */
__device__ __forceinline__ void gc_wg_pin(float &x)
{
    asm volatile("" : "+f"(x)::"memory");
}
__device__ __forceinline__ void gc_wg_pin(uint32_t &x)
{
    asm volatile("" : "+r"(x)::"memory");
}

template <int F, int RS, int ILP> __device__ __forceinline__ void gc_wg_body(GC_T_ARGS)
{
#if GC_WG_ARCH
    typedef gc_wg<F, RS> op;
    if constexpr (ILP * op::nacc <= 128) {
        typedef typename op::acc_t at;
        extern __shared__ __align__(128) uint8_t gc_wg_smem[];
        const uint32_t bkb = op::sparse ? 64 : 32;
        const uint32_t abytes = 64 * GC_WG_AKB, bytes = abytes + op::n * bkb;
        uint32_t *s32 = reinterpret_cast<uint32_t *>(gc_wg_smem);
        for (uint32_t i = threadIdx.x; i < bytes / 4; i += blockDim.x)
            s32[i] = in[i & (GC_T_WORDS - 1)];
        /* generic-proxy writes, async-proxy (tensor core) reads */
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
        uint32_t base = (uint32_t)__cvta_generic_to_shared(gc_wg_smem);
        uint64_t da = gc_wg_desc(base, 128, 128 * (GC_WG_AKB / 16));
        uint64_t db = gc_wg_desc(base + abytes, 128, 128 * (bkb / 16));
        const unsigned tid = gc_t_tid();
        uint32_t a[4];
#pragma unroll
        for (int i = 0; i < 4; i++)
            a[i] = in[(tid * 4 + i) & (GC_T_WORDS - 1)];
        const uint32_t meta = in[GC_T_WORDS + GC_T_META + (threadIdx.x & 31)];
        at d[ILP][op::nacc];
        const at *z = reinterpret_cast<const at *>(in + GC_T_WORDS + GC_T_ZERO);
#pragma unroll
        for (int k = 0; k < ILP; k++)
#pragma unroll
            for (int i = 0; i < op::nacc; i++) {
                d[k][i] = z[k * op::nacc + i];
                gc_wg_pin(d[k][i]);
            }
        uint32_t m2 = meta;
#pragma unroll
        for (int i = 0; i < 4; i++)
            gc_wg_pin(a[i]);
        gc_wg_pin(m2);
        gc_ttimer_t t;
        gc_t_begin(&t);
#pragma unroll 1
        for (int trip = 0; trip < trips; trip++) {
#pragma unroll
            for (int u = 0; u < GC_WGMMA_UNROLL; u++) {
                gc_wg_fence();
#pragma unroll
                for (int k = 0; k < ILP; k++)
                    op::run(d[k], da, db, a, m2);
                gc_wg_commit();
                gc_wg_wait0();
            }
        }
        gc_t_end(&t, rec);
        float fs = 0;
        uint32_t is = 0;
#pragma unroll
        for (int k = 0; k < ILP; k++)
#pragma unroll
            for (int i = 0; i < op::nacc; i++) {
                gc_wg_pin(d[k][i]);
                if constexpr (op::kind == GC_ACC_F16)
                    fs += gc_acc_h2(d[k][i]);
                else if constexpr (op::kind == GC_ACC_S32)
                    is = is * 31u + (uint32_t)d[k][i];
                else
                    fs += d[k][i];
            }
        sink[tid] = op::kind == GC_ACC_S32 ? is : __float_as_uint(fs);
    }
#else
    (void)in, (void)sink, (void)rec, (void)trips;
#endif
}

#define GC_WG_K1(ID, rs, tag, ilp)                                                             \
    extern "C" __global__ void gc_k_##ID##_##tag##_i##ilp(GC_T_ARGS)                           \
    {                                                                                          \
        gc_wg_body<GC_FORM_##ID, rs, ilp>(in, sink, rec, trips);                               \
    }
#define GC_WG_KERNELS(ID, ...)                                                                 \
    GC_WG_K1(ID, 0, ss, 1) GC_WG_K1(ID, 0, ss, 2) GC_WG_K1(ID, 0, ss, 4)                       \
        GC_WG_K1(ID, 1, rs, 1) GC_WG_K1(ID, 1, rs, 2) GC_WG_K1(ID, 1, rs, 4)
#define GC_WG_ENTRY(ID, ...)                                                                   \
    {GC_FORM_##ID,                                                                             \
     {{(const void *)gc_k_##ID##_ss_i1, (const void *)gc_k_##ID##_ss_i2, NULL,                 \
       (const void *)gc_k_##ID##_ss_i4},                                                       \
      {(const void *)gc_k_##ID##_rs_i1, (const void *)gc_k_##ID##_rs_i2, NULL,                 \
       (const void *)gc_k_##ID##_rs_i4}}},

GC_WGMMA_FORMS(GC_WG_KERNELS)

static const struct {
    int id;
    const void *k[2][4]; /* [rs][ilp - 1] */
} wg_tab[] = {GC_WGMMA_FORMS(GC_WG_ENTRY)};

/* ---- the CPU-reference check ---- */

/* One warpgroup computes D = A*B (64x256, f32) from random f16 operands in
 * the data words: A row-major (64 x ka halves: ka = 16 dense, 16 compressed
 * for sparse), B^T row-major (256 x kb halves: 16 dense, 32 sparse). mode 0:
 * dense ss, 1: dense rs, 2: sparse ss (metadata 0x4: elements 0 and 1 of
 * every group of four). D goes to sink[row * 256 + col]. */
template <int MODE> __device__ void gc_wg_check_body(GC_T_ARGS)
{
#if GC_WG_ARCH
    (void)rec;
    (void)trips;
    constexpr int F = MODE == 2 ? GC_FORM_WGS_F16_F32_N256 : GC_FORM_WG_F16_F32_N256;
    typedef gc_wg<F, MODE == 1> op;
    extern __shared__ __align__(128) uint8_t gc_wg_smem[];
    const uint16_t *h = reinterpret_cast<const uint16_t *>(in);
    const int ka = 16, kb = MODE == 2 ? 32 : 16;
    const uint16_t *A = h, *Bt = h + 64 * ka;
    uint16_t *sh = reinterpret_cast<uint16_t *>(gc_wg_smem);
    const uint32_t abytes = 64 * ka * 2, bkbytes = kb * 2;
    for (int i = threadIdx.x; i < 64 * ka; i += blockDim.x)
        sh[gc_wg_off(i / ka, (i % ka) * 2, ka * 2) / 2] = A[i];
    for (int i = threadIdx.x; i < 256 * kb; i += blockDim.x)
        sh[(abytes + gc_wg_off(i / kb, (i % kb) * 2, bkbytes)) / 2] = Bt[i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    uint32_t base = (uint32_t)__cvta_generic_to_shared(gc_wg_smem);
    uint64_t da = gc_wg_desc(base, 128, 128 * (ka * 2 / 16));
    uint64_t db = gc_wg_desc(base + abytes, 128, 128 * (bkbytes / 16));
    int t = threadIdx.x, w = t / 32, l = t % 32, g = l / 4, c = l % 4;
    int r0 = 16 * w + g, r1 = r0 + 8;
#define H2(r, k) ((uint32_t)A[(r) * ka + (k)] | (uint32_t)A[(r) * ka + (k) + 1] << 16)
    uint32_t a[4] = {H2(r0, 2 * c), H2(r1, 2 * c), H2(r0, 2 * c + 8), H2(r1, 2 * c + 8)};
#undef H2
    float d[128];
    for (int i = 0; i < 128; i++) {
        d[i] = 0;
        gc_wg_pin(d[i]);
    }
    gc_wg_fence();
    op::run(d, da, db, a, 0x44444444u);
    gc_wg_commit();
    gc_wg_wait0();
    float *D = reinterpret_cast<float *>(sink);
    for (int j = 0; j < 32; j++) {
        gc_wg_pin(d[4 * j]);
        gc_wg_pin(d[4 * j + 1]);
        gc_wg_pin(d[4 * j + 2]);
        gc_wg_pin(d[4 * j + 3]);
        D[r0 * 256 + 8 * j + 2 * c] = d[4 * j];
        D[r0 * 256 + 8 * j + 2 * c + 1] = d[4 * j + 1];
        D[r1 * 256 + 8 * j + 2 * c] = d[4 * j + 2];
        D[r1 * 256 + 8 * j + 2 * c + 1] = d[4 * j + 3];
    }
#else
    (void)in, (void)sink, (void)rec, (void)trips;
#endif
}

extern "C" __global__ void gc_k_wgmma_check_ss(GC_T_ARGS) { gc_wg_check_body<0>(in, sink, rec, trips); }
extern "C" __global__ void gc_k_wgmma_check_rs(GC_T_ARGS) { gc_wg_check_body<1>(in, sink, rec, trips); }
extern "C" __global__ void gc_k_wgmma_check_sp(GC_T_ARGS) { gc_wg_check_body<2>(in, sink, rec, trips); }

static int wg_check(gc_tsweep_t *s, char *note, size_t n, gc_err_t *err)
{
    static const char *const what[3] = {"dense ss", "dense rs", "sparse ss"};
    const void *fns[3] = {(const void *)gc_k_wgmma_check_ss, (const void *)gc_k_wgmma_check_rs,
                          (const void *)gc_k_wgmma_check_sp};
    int rc = gc_tsweep_data(s, "f16", 1, NULL, 0, err);
    enum { NH = 64 * 16 + 256 * 32 };
    uint16_t h[NH];
    if (!rc)
        rc = gc_cuda_check(cudaMemcpy(h, s->d_in, sizeof(h), cudaMemcpyDeviceToHost),
                           "reading the wgmma check's operands", err);
    size_t at = 0;
    int bad = 0;
    for (int mode = 0; mode < 3 && !rc; mode++) {
        rc = gc_cuda_check(cudaMemset(s->d_sink, 0xff, 64 * 256 * sizeof(uint32_t)),
                           "poisoning the wgmma check's output", err);
        const uint32_t *in = s->d_in;
        int zero = 0;
        void *args[] = {(void *)&in, (void *)&s->d_sink, (void *)&s->d_rec, (void *)&zero};
        if (!rc)
            rc = gc_cuda_check(cudaLaunchKernel(fns[mode], dim3(1), dim3(128), args, 24576, 0),
                               "launching the wgmma check", err);
        if (!rc)
            rc = gc_cuda_check(cudaDeviceSynchronize(), "running the wgmma check", err);
        const uint32_t *out;
        if (!rc)
            rc = gc_tsweep_sink(s, 64 * 256, &out, err);
        if (rc)
            break;
        int kb = mode == 2 ? 32 : 16;
        const uint16_t *A = h, *Bt = h + 64 * 16;
        double maxerr = 0, maxref = 0;
        int wi = -1, wj = -1;
        for (int i = 0; i < 64; i++)
            for (int j = 0; j < 256; j++) {
                double ref = 0;
                for (int k = 0; k < 16; k++) {
                    /* sparse: compressed element k is logical 4*(k/2) + k%2 */
                    int kk = mode == 2 ? 4 * (k / 2) + k % 2 : k;
                    ref += (double)gc_half_to_float(A[i * 16 + k]) *
                           (double)gc_half_to_float(Bt[j * kb + kk]);
                }
                float got;
                memcpy(&got, &out[i * 256 + j], sizeof(got));
                double e = fabs((double)got - ref);
                if (!(e <= maxerr)) {
                    maxerr = e;
                    wi = i;
                    wj = j;
                }
                if (fabs(ref) > maxref)
                    maxref = fabs(ref);
            }
        double tol = 1e-5 * (maxref > 1 ? maxref : 1);
        int ok = maxerr <= tol;
        bad |= !ok;
        int k = snprintf(note + at, n > at ? n - at : 0, "%s%s max |error| %.3g%s", at ? "; " : "",
                         what[mode], maxerr, ok ? " ok" : " FAILED");
        if (k > 0)
            at += (size_t)k;
        if (!ok && wi >= 0) {
            float got;
            memcpy(&got, &out[wi * 256 + wj], sizeof(got));
            k = snprintf(note + at, n > at ? n - at : 0, " (D[%d][%d] = %g)", wi, wj, (double)got);
            if (k > 0)
                at += (size_t)k;
        }
    }
    if (!rc && bad)
        return gc_err_set(err, GC_ERUN,
                          "wgmma m64n256k16 f16->f32 against a CPU reference: %s (the "
                          "descriptors or layouts are wrong; nothing was timed)",
                          note);
    return rc;
}

/* What a point of the wgmma sweep takes from the loops around it. */
typedef struct wg_pt {
    const gc_form_t *form;
    int ti, rs, rnd, scope, blocks;
    size_t smem;
} wg_pt_t;

/* The point of the wgmma sweep at wg warpgroups and ILP ilp (gc_tgrid_t
 * plan); skipped where the form's kernels were not compiled for ilp. */
static void wg_plan(void *cookie, int wg, int ilp, gc_tpoint_t *p)
{
    const wg_pt_t *m = (const wg_pt_t *)cookie;
    const gc_form_t *form = m->form;
    const char *ops = m->rs ? "rs" : "ss", *data = m->rnd ? "rand" : "zero",
               *scope = m->scope ? "gpu" : "sm";
    snprintf(p->label, sizeof(p->label), "%s %s %s->%s %s %s %s wg%d ilp%d", form->inst,
             form->shape, form->a, form->c, ops, data, scope, wg, ilp);
    p->skip = !gc_wgmma_ilp_compiled(form, ilp);
    if (p->skip)
        return;
    p->fn = wg_tab[m->ti].k[m->rs][ilp - 1];
    p->blocks = m->blocks;
    p->warps = wg * 4;
    p->smem = m->smem;
    p->unroll = GC_WGMMA_UNROLL;
    p->work = (double)wg * ilp * gc_form_fma(form);
    p->sink_kind = !strcmp(form->c, "s32") ? GC_SINK_INT : GC_SINK_FLOAT;
    p->rand = m->rnd;
    snprintf(p->cols, sizeof(p->cols), "%s,%s,%s,%s,%s,%s,%s,%d", form->inst, form->shape, form->a,
             form->c, ops, data, scope, m->blocks);
}

static int run_wgmma(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    int cc = ctx->dev.cc_major * 10 + ctx->dev.cc_minor;
    const gc_form_t *plan[GC_FORM_COUNT];
    int nplan = gc_forms_plan("wgmma", cc, plan, GC_FORM_COUNT);
    gc_tsweep_t s;
    int rc = gc_tsweep_init(&s, ctx, err);
    if (rc)
        return rc;
    char note[768];
    rc = wg_check(&s, note, sizeof(note), err);
    if (!rc && gc_trace_put_meta(w, "check",
                                 "wgmma m64n256k16 f16->f32, random operands, against a CPU "
                                 "reference (tolerance 1e-5 x max |D|): %s",
                                 note) != 0)
        rc = gc_tsweep_werr(w, err);
    if (!rc && gc_trace_put_meta(w, "pattern",
                                 "rand and zero (data column). rand: random signs and "
                                 "mantissas, magnitudes in [1/16, 1/2) for floating-point "
                                 "operands, every bit pattern for s8/b1; zero: all operands 0. "
                                 "Accumulators start at 0; sparse metadata 0x4 in every nibble") != 0)
        rc = gc_tsweep_werr(w, err);
    if (!rc && gc_measure_columns(w, "wgmma") != 0)
        rc = gc_tsweep_werr(w, err);
    const int *wgs;
    int nwg = gc_sweep_warpgroups(ctx->quick, &wgs);
    static const int ilps[] = {1, 2, 4};
    long total = (long)nplan * 2 * 2 * 2 * nwg * 3, done = 0;
    wg_pt_t m;
    gc_tgrid_t g = {wgs, ilps, nwg, 3, wg_plan, NULL, &m, &done, total};
    uint32_t meta[32];
    for (int i = 0; i < 32; i++)
        meta[i] = 0x44444444u;
    for (int f = 0; f < nplan && !rc; f++) {
        const gc_form_t *form = plan[f];
        int ti = -1;
        for (int i = 0; i < (int)(sizeof(wg_tab) / sizeof(wg_tab[0])); i++)
            if (wg_tab[i].id == form->id)
                ti = i;
        if (ti < 0) {
            rc = gc_err_set(err, GC_ERUN, "form %s is planned but has no kernels", form->name);
            break;
        }
        int sparse = !strcmp(form->inst, "wgmma.sp");
        m.form = form;
        m.ti = ti;
        m.smem = 64 * GC_WG_AKB + (size_t)form->n * (sparse ? 64 : 32);
        for (int data = 0; data < 2 && !rc; data++) {
            m.rnd = data == 0;
            if ((rc = gc_tsweep_data(&s, form->a, m.rnd, meta, 32, err)) != 0)
                break;
            for (int rs = 0; rs < 2 && !rc; rs++)
                for (int scope = 0; scope < 2 && !rc; scope++) {
                    m.rs = rs;
                    m.scope = scope;
                    m.blocks = scope ? ctx->dev.sms : 1;
                    rc = gc_tsweep_grid(&s, w, &g, err);
                }
        }
    }
    gc_tsweep_fini(&s);
    return rc;
}

static gc_forms_rules_t wg_rules;

static int wg_sass_plan(int cc, const gc_sass_rule_t **rules)
{
    int n = gc_forms_rules(&wg_rules, "wgmma", cc);
    *rules = wg_rules.rule;
    return n;
}

extern "C" const gc_bench_t gc_bench_wgmma = {
    "wgmma", "wgmma / wgmma.sp (sm_90a): ss and rs, N 8..256, zero and random data",
    run_wgmma, NULL, 0, 90, 1, wg_sass_plan,
};
