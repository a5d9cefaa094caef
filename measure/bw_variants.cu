/* bw_variants.cu - the bandwidth sweep behind the `bw` bench's best rows:
 * the DRAM read, write and copy and the L2 read are each measured with a
 * small set of kernel variants, and the best is reported with the variant
 * that won (so the figure is the best an ordinary kernel reaches on this
 * device, not the figure of one kernel shape). A variant is
 *   - the access width per thread step: 16 bytes (one v4.u32) or 32 bytes
 *     (two adjacent v4.u32; Hopper has no 32-byte load instruction),
 *   - the unroll (independent steps in flight per thread),
 *   - the grid: threads per block x blocks per SM (every block resident),
 *   - the cache hint of loads (default, .cs streaming, .nc read-only with
 *     L1::no_allocate, .cg for the L2, an L2 evict_first policy) and of
 *     stores (default, .cs streaming, L2 evict_first policy).
 * Method: every candidate is screened with SCREEN repeats; the TOP best are
 * measured again with 3 x the bench's repeats, and the best median of those
 * is the row (so one lucky screen does not pick the figure). Global: one
 * pass over about 2 GiB (read) or 1 GiB (write, copy: bytes read + bytes
 * written); L2: an array of about L2/5 read PASSES times with ld.global.cg.
 * The timed region is the span of all blocks (%globaltimer), as in
 * bench_bw.cu. PTX: https://docs.nvidia.com/cuda/parallel-thread-execution/
 * (ld, st: cache operators, eviction priority, createpolicy). */
#include <stdlib.h>
#include <string.h>

#include "bw_variants.h"

enum { H_DEF, H_CS, H_NC, H_CG, H_EF };
enum { SCREEN = 3, TOP = 3 };

static __device__ __forceinline__ uint64_t ef_policy(void)
{
    uint64_t p;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
    return p;
}

/* One 16-byte load with hint H (pol: the L2 policy for H_EF). */
template <int H>
static __device__ __forceinline__ uint4 vld(const char *p, uint64_t pol)
{
    uint4 v;
    if (H == H_CS)
        asm volatile("ld.global.cs.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    else if (H == H_NC)
        asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    else if (H == H_CG)
        asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    else if (H == H_EF)
        asm volatile("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(pol));
    else
        asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}

/* One 16-byte store with hint H. */
template <int H>
static __device__ __forceinline__ void vst(char *p, uint4 v, uint64_t pol)
{
    if (H == H_CS)
        asm volatile("st.global.cs.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y),
                     "r"(v.z), "r"(v.w) : "memory");
    else if (H == H_EF)
        asm volatile("st.global.L2::cache_hint.v4.u32 [%0], {%1,%2,%3,%4}, %5;" ::"l"(p),
                     "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "l"(pol) : "memory");
    else
        asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y),
                     "r"(v.z), "r"(v.w) : "memory");
}

/* OP 0 read, 1 write, 2 copy; V 16-byte vectors per thread step (adjacent),
 * U steps unrolled, LH/SH the load/store hints. Thread t's step i covers the
 * V vectors from ((i x G) + t) x V (G: threads in the grid); `steps` is a
 * multiple of U; `passes` repeats the whole walk (the L2). */
/* Two resident blocks of 1024 threads only where an SM holds 2048 threads
 * (sm_80, sm_90); sm_86/sm_87/sm_89 hold 1536 (CUDA C Programming Guide,
 * "Technical Specifications per Compute Capability"), and asking for more is a
 * ptxas error there. */
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890)
#define GC_BWV_MIN_BLOCKS(n) 1
#else
#define GC_BWV_MIN_BLOCKS(n) (n)
#endif

template <int OP, int V, int U, int LH, int SH>
__global__ void __launch_bounds__(1024, GC_BWV_MIN_BLOCKS(U * V <= 4 ? 2 : 1)) k_bwv(const char *a, char *b, size_t steps, int passes, gc_span_dev_t *span,
                      unsigned *sink)
{
    size_t G = (size_t)gridDim.x * blockDim.x, t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t S = G * V * 16; /* bytes between one thread's steps */
    uint64_t pol = (LH == H_EF || SH == H_EF) ? ef_policy() : 0;
    unsigned x = 0;
    __syncthreads();
    long long c0 = gc_clock();
    unsigned long long t0 = gc_globaltimer();
    for (int ps = 0; ps < passes; ps++) {
        const char *pa = a + t * V * 16;
        char *pb = b + t * V * 16;
        for (size_t i = 0; i < steps; i += U, pa += U * S, pb += U * S) {
            uint4 v[U][V];
#pragma unroll
            for (int u = 0; u < U; u++)
#pragma unroll
                for (int k = 0; k < V; k++) {
                    if (OP == 1)
                        v[u][k] = make_uint4((unsigned)i, (unsigned)u, (unsigned)k, 3);
                    else
                        v[u][k] = vld<LH>(pa + u * S + k * 16, pol);
                }
#pragma unroll
            for (int u = 0; u < U; u++)
#pragma unroll
                for (int k = 0; k < V; k++) {
                    if (OP == 0)
                        x ^= v[u][k].x ^ v[u][k].y ^ v[u][k].z ^ v[u][k].w;
                    else
                        vst<SH>(pb + u * S + k * 16, v[u][k], pol);
                }
        }
    }
    __syncthreads();
    if (threadIdx.x == 0)
        gc_span_close(span, c0, t0);
    if (x == 0x9e3779b9u)
        sink[0] = x;
}

typedef void (*kfn_t)(const char *, char *, size_t, int, gc_span_dev_t *, unsigned *);

typedef struct kvar {
    int target, V, U, lh, sh;
    kfn_t fn;
} kvar_t;

#define KV(T, OP, V, U, LH, SH) {T, V, U, LH, SH, k_bwv<OP, V, U, LH, SH>},
#define KU(T, OP, V, LH, SH) KV(T, OP, V, 1, LH, SH) KV(T, OP, V, 2, LH, SH) KV(T, OP, V, 4, LH, SH)
#define KVU(T, OP, LH, SH) KU(T, OP, 1, LH, SH) KU(T, OP, 2, LH, SH)

/* Every kernel variant (declarative table). */
static const kvar_t kvars[] = {
    KV(GC_BWT_L2, 0, 1, 2, H_CG, H_DEF) KV(GC_BWT_L2, 0, 1, 4, H_CG, H_DEF)
    KV(GC_BWT_L2, 0, 1, 8, H_CG, H_DEF)
    KVU(GC_BWT_READ, 0, H_DEF, H_DEF) KVU(GC_BWT_READ, 0, H_CS, H_DEF)
    KVU(GC_BWT_READ, 0, H_NC, H_DEF) KVU(GC_BWT_READ, 0, H_EF, H_DEF)
    KVU(GC_BWT_WRITE, 1, H_DEF, H_DEF) KVU(GC_BWT_WRITE, 1, H_DEF, H_CS)
    KVU(GC_BWT_WRITE, 1, H_DEF, H_EF)
    KVU(GC_BWT_COPY, 2, H_DEF, H_DEF) KVU(GC_BWT_COPY, 2, H_CS, H_CS)
    KVU(GC_BWT_COPY, 2, H_NC, H_DEF) KVU(GC_BWT_COPY, 2, H_NC, H_CS)
    KVU(GC_BWT_COPY, 2, H_DEF, H_CS) KVU(GC_BWT_COPY, 2, H_EF, H_EF)
};
#define NKV ((int)(sizeof(kvars) / sizeof(kvars[0])))

/* threads per block x blocks per SM (2048 threads per SM at most; a
 * kernel of more than 32 registers fits only the 1024-thread ones) */
static const int grids[][2] = {{1024, 2}, {512, 4}, {256, 8}, {1024, 1}, {512, 2}, {256, 4}};
#define NGRID ((int)(sizeof(grids) / sizeof(grids[0])))

static const char *const hname[] = {"ld", "ld.cs", "ld.nc", "ld.cg", "ld.ef"};
static const char *const sname[] = {"st", "st.cs", "", "", "st.ef"};

/* ---- host ---- */

typedef struct cand {
    int kv, grid;  /* kv: kvars[] index, or -1 for the driver's copy */
    double mhz;    /* the driver's copy: the SM clock its event time is scaled by */
    kfn_t fn;
    int blocks, threads, passes;
    size_t steps;
    double bytes, gbs;
    gc_point_t pt;
    char *a, *b;
    gc_span_dev_t *span;
    unsigned *sink;
} cand_t;

/* The driver's device-to-device copy of c->bytes / 2 bytes, timed with CUDA
 * events around the one call (what PyTorch's copy_ of a contiguous tensor
 * calls: aten/src/ATen/native/cuda/Copy.cu, copy_device_to_device, uses
 * cudaMemcpyAsync when source and destination need no conversion). The
 * event time includes the call's launch, a few microseconds of a copy of
 * about 0.3 ms or more: the figure errs low, never high. Cycles are the
 * event time at the clock the bench measured (no SM code of ours runs). */
static int driver_copy(cand_t *c, gc_launch_t *out, gc_err_t *err)
{
    cudaEvent_t e0, e1;
    float ms = 0;
    int rc = gc_cuda_check(cudaEventCreate(&e0), "creating an event", err);
    rc = rc ? rc : gc_cuda_check(cudaEventCreate(&e1), "creating an event", err);
    rc = rc ? rc : gc_cuda_check(cudaEventRecord(e0, 0), "recording an event", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpyAsync(c->b, c->a, (size_t)(c->bytes / 2), cudaMemcpyDeviceToDevice, 0), "copying device to device", err);
    rc = rc ? rc : gc_cuda_check(cudaEventRecord(e1, 0), "recording an event", err);
    rc = rc ? rc : gc_cuda_check(cudaEventSynchronize(e1), "running a device copy", err);
    rc = rc ? rc : gc_cuda_check(cudaEventElapsedTime(&ms, e0, e1), "reading an event time", err);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (!rc && ms <= 0)
        rc = gc_err_set(err, GC_ERUN, "a device copy recorded no time");
    if (!rc) {
        out->ns = 1e6 * (double)ms;
        out->cycles = out->ns * c->mhz * 1e-3;
    }
    return rc;
}

static int cand_launch(void *cookie, gc_launch_t *out, gc_err_t *err)
{
    cand_t *c = (cand_t *)cookie;
    if (c->kv < 0)
        return driver_copy(c, out, err);
    int rc = gc_mem_span_reset(c->span, err);
    if (rc)
        return rc;
    c->fn<<<c->blocks, c->threads>>>(c->a, c->b, c->steps, c->passes, c->span, c->sink);
    return gc_mem_span_read(c->span, out, err);
}

/* Fill c's launch shape for kernel variant kv on grid g; 0 when the grid
 * does not fit on an SM at once (skip it), 1 when it does. */
static int cand_setup(gc_mctx_t *ctx, cand_t *c, int kv, int g, size_t gbytes)
{
    const kvar_t *k = &kvars[kv];
    int occ = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k->fn, grids[g][0], 0) !=
            cudaSuccess ||
        occ < grids[g][1])
        return 0;
    c->kv = kv;
    c->grid = g;
    c->fn = k->fn;
    c->threads = grids[g][0];
    c->blocks = grids[g][1] * ctx->dev.sms;
    size_t G = (size_t)c->blocks * c->threads, unit = G * (size_t)k->V * 16 * (size_t)k->U;
    size_t lim = k->target == GC_BWT_L2     ? (size_t)ctx->dev.l2_bytes / 5
                 : k->target == GC_BWT_READ ? gbytes
                                            : gbytes / 2;
    c->steps = (lim / unit ? lim / unit : 1) * (size_t)k->U;
    c->passes = k->target == GC_BWT_L2 ? (ctx->quick ? 64 : 512) : 1;
    c->bytes = (double)G * (double)c->steps * k->V * 16.0 * c->passes *
               (k->target == GC_BWT_COPY ? 2 : 1);
    return 1;
}

/* Measure c with `reps` repeats; c->gbs = the median rate in GB/s. */
static int cand_measure(gc_mctx_t *ctx, cand_t *c, int reps, gc_err_t *err)
{
    int keep = ctx->reps;
    ctx->reps = reps;
    int rc = gc_measure_point(ctx, cand_launch, c, c->bytes, &c->pt, err);
    ctx->reps = keep;
    c->gbs = rc ? 0 : c->pt.clock_mhz / c->pt.med / 1e3;
    return rc;
}

/* The driver's copy as a candidate for the copy target: the same bytes as
 * the kernels' copy (gbytes / 2 read and as many written). */
static void driver_setup(gc_mctx_t *ctx, cand_t *c, size_t gbytes)
{
    c->kv = -1;
    c->mhz = ctx->clock_mhz;
    c->bytes = 2.0 * (double)(gbytes / 2);
}

/* The row of winner c. */
static void fill_best(const cand_t *c, int ncand, gc_bw_best_t *best)
{
    best->bytes = c->bytes;
    best->pt = c->pt;
    best->candidates = ncand;
    if (c->kv < 0) {
        best->width = 0;
        best->blocks = 0;
        best->threads = 0;
        snprintf(best->variant, sizeof(best->variant), "cudaMemcpyAsync");
        return;
    }
    const kvar_t *k = &kvars[c->kv];
    best->width = 16 * k->V;
    best->blocks = c->blocks;
    best->threads = c->threads;
    const char *st = k->target == GC_BWT_READ || k->target == GC_BWT_L2 ? "" : sname[k->sh];
    const char *ld = k->target == GC_BWT_WRITE ? "" : hname[k->lh];
    snprintf(best->variant, sizeof(best->variant), "%s%s%s v%d u%d %dx%d", ld,
             *ld && *st ? "+" : "", st, 16 * k->V, k->U, c->threads, grids[c->grid][1]);
}

/* Keep c among the TOP fastest screened candidates (top[], best first). */
static void keep_top(cand_t *top, int *ntop, const cand_t *c)
{
    if (*ntop == TOP && top[TOP - 1].gbs >= c->gbs)
        return;
    int j = *ntop < TOP ? (*ntop)++ : TOP - 1;
    for (; j > 0 && top[j - 1].gbs < c->gbs; j--)
        top[j] = top[j - 1];
    top[j] = *c;
}

int gc_bw_sweep(gc_mctx_t *ctx, int target, char *a, char *b, size_t gbytes,
                gc_span_dev_t *span, unsigned *sink, gc_bw_best_t *best, gc_err_t *err)
{
    cand_t top[TOP];
    int ntop = 0, ncand = 0, rc = 0;
    for (int kv = 0; kv < NKV && !rc; kv++) {
        if (kvars[kv].target != target)
            continue;
        for (int g = 0; g < NGRID && !rc; g++) {
            cand_t c;
            memset(&c, 0, sizeof(c));
            c.a = a;
            c.b = b;
            c.span = span;
            c.sink = sink;
            if (!cand_setup(ctx, &c, kv, g, gbytes))
                continue;
            ncand++;
            if ((rc = cand_measure(ctx, &c, SCREEN, err)) == 0)
                keep_top(top, &ntop, &c);
        }
    }
    if (!rc && target == GC_BWT_COPY) { /* the driver's copy competes too */
        cand_t c;
        memset(&c, 0, sizeof(c));
        c.a = a;
        c.b = b;
        driver_setup(ctx, &c, gbytes);
        ncand++;
        if ((rc = cand_measure(ctx, &c, SCREEN, err)) == 0)
            keep_top(top, &ntop, &c);
    }
    if (rc || ntop == 0)
        return rc ? rc : gc_err_set(err, GC_ERUN, "bw: no kernel variant fits on this GPU's SMs");
    /* the finalists again, with more repeats: the best median wins */
    int reps = ctx->quick ? ctx->reps : 3 * (ctx->reps > 0 ? ctx->reps : 1), w = 0;
    for (int j = 0; j < ntop && !rc; j++) {
        rc = cand_measure(ctx, &top[j], reps, err);
        if (!rc && top[j].gbs > top[w].gbs)
            w = j;
    }
    if (!rc)
        fill_best(&top[w], ncand, best);
    return rc;
}
