/* bench_dsm.cu - the `dsm` bench (sm_90): distributed shared memory, the
 * SM-to-SM network inside a thread-block cluster (seed 004, section 7).
 *
 * Latency: a cluster of CS one-warp blocks (CS = 1..16; above 8 with
 * cudaFuncAttributeNonPortableClusterSizeAllowed, when the GPU can place
 * such a cluster); every block writes a uniform 4-byte-stride ring into its
 * own shared memory holding shared::cluster addresses (mapa); thread 0 of
 * rank 0 chases the ring of rank `dst_rank` with ld.shared::cluster, timed
 * with the same clock bracket as pchase (overhead subtracted), for every
 * dst_rank 1..CS-1 (CS = 1: its own memory through the cluster interface).
 * The SMs of source and target come from %smid. The chase's end address is
 * checked on the device.
 *
 * Throughput: 528 blocks of 512 threads with 16 KiB of shared memory each,
 * in clusters of 2, 4, 8, 16 (and 1: `self`); each thread reads 16 bytes x 4
 * independent loads per iteration from the shared memory of one block of
 * its cluster: `ring` rank r reads r+1 mod CS, `pair` r reads r xor 1,
 * `broadcast` everyone reads rank 0. GB/s = bytes read / (last block end -
 * first block start). The first word read is checked against the target's
 * contents. Writes OUT/dsm.csv (columns in traces/README.md). */
#include <stdlib.h>
#include <string.h>

#include "mem_sass.h"
#include "mem_util.cuh"

enum { LSLOTS = 1024, TP_BLOCKS_PER_SM = 4, TP_THREADS = 512, TP_SMEM = 16 << 10, MAXCS = 16 };
enum { PAT_SELF, PAT_RING, PAT_PAIR, PAT_BCAST };
static const char *const pat_name[] = {"self", "ring", "pair", "broadcast"};

#if __CUDA_ARCH__ >= 900
static __device__ __forceinline__ uint32_t cl_rank(void)
{
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
static __device__ __forceinline__ uint32_t cl_size(void)
{
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
    return r;
}
static __device__ __forceinline__ uint32_t cl_map(uint32_t a, uint32_t rank)
{
    uint32_t r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
    return r;
}
static __device__ __forceinline__ void cl_sync(void)
{
    asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}
static __device__ __forceinline__ uint32_t ldc32(uint32_t a)
{
    uint32_t v;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    return v;
}
static __device__ __forceinline__ uint32_t ldc128(uint32_t a)
{
    uint32_t x, y, z, w;
    asm volatile("ld.shared::cluster.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                 : "r"(a));
    return x ^ y ^ z ^ w;
}
#endif

/* out = {cycles, ns, end ok}; sm[rank] = %smid */
__global__ void k_dsm_lat(uint32_t target, long warm, long steps, unsigned long long *out,
                          unsigned *sm)
{
#if __CUDA_ARCH__ >= 900
    __shared__ __align__(16) uint32_t ring[LSLOTS];
    __shared__ uint64_t s;
    uint32_t rank = cl_rank(), base = gc_smem_addr(ring);
    for (int i = threadIdx.x; i < LSLOTS; i += blockDim.x)
        ring[i] = cl_map(base + 4u * ((i + 1) % LSLOTS), rank);
    if (threadIdx.x == 0)
        sm[rank] = gc_smid();
    __syncthreads();
    cl_sync();
    if (rank == 0 && threadIdx.x == 0) {
        uint32_t a = gc_smem_addr(&s);
        uint32_t p = cl_map(base, target);
        for (long i = 0; i < warm; i++)
            p = ldc32(p);
        gc_sts32(a, p);
        unsigned long long t0 = gc_globaltimer();
        long long c0 = gc_clock();
        for (long i = 0; i < steps; i += 16) {
#pragma unroll
            for (int u = 0; u < 16; u++)
                p = ldc32(p);
        }
        gc_sts32(a, p);
        long long c1 = gc_clock();
        unsigned long long t1 = gc_globaltimer();
        out[0] = (unsigned long long)(c1 - c0);
        out[1] = t1 - t0;
        out[2] = p == cl_map(base + 4u * (uint32_t)((warm + steps) % LSLOTS), target);
    }
    cl_sync();
#else
    (void)target, (void)warm, (void)steps, (void)sm;
    out[2] = 0;
#endif
}

__global__ void __launch_bounds__(TP_THREADS) k_dsm_tp(int pattern, int iters, int z,
                                                       gc_span_dev_t *span, unsigned *bad,
                                                       unsigned *sink)
{
#if __CUDA_ARCH__ >= 900
    extern __shared__ __align__(16) uint32_t buf[];
    uint32_t rank = cl_rank(), cs = cl_size();
    for (int i = threadIdx.x; i < TP_SMEM / 4; i += blockDim.x)
        buf[i] = (rank << 20) | (uint32_t)i;
    __syncthreads();
    cl_sync();
    uint32_t tgt = pattern == PAT_RING   ? (rank + 1) % cs
                   : pattern == PAT_PAIR ? rank ^ 1u
                   : pattern == PAT_BCAST ? 0u
                                          : rank;
    uint32_t r = cl_map(gc_smem_addr(buf), tgt);
    uint32_t a0 = r + ((threadIdx.x * 16u) & (TP_SMEM - 1)),
             a1 = r + ((threadIdx.x * 16u + 4096u) & (TP_SMEM - 1)),
             a2 = r + ((threadIdx.x * 16u + 8192u) & (TP_SMEM - 1)),
             a3 = r + ((threadIdx.x * 16u + 12288u) & (TP_SMEM - 1));
    unsigned x = 0;
    __syncthreads();
    long long c0 = gc_clock();
    unsigned long long t0 = gc_globaltimer();
    for (int it = 0; it < iters; it++) {
        uint32_t o = (uint32_t)(it & z); /* z = 0, unknown to the compiler: no load is hoisted */
        x ^= ldc128(a0 + o) ^ ldc128(a1 + o) ^ ldc128(a2 + o) ^ ldc128(a3 + o);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        gc_span_close(span, c0, t0);
        if (ldc32(r) != (tgt << 20))
            atomicAdd(bad, 1u);
    }
    cl_sync();
    if (x == 0x9e3779b9u)
        sink[0] = x;
#else
    (void)pattern, (void)iters, (void)z, (void)span, (void)bad, (void)sink;
#endif
}

static int launch_cluster(const void *k, int cs, int blocks, int threads, size_t smem, void **args,
                          int *fits, gc_err_t *err)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(threads);
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = cs;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    if (fits) {
        int n = 0;
        cudaError_t e = cudaOccupancyMaxActiveClusters(&n, k, &cfg);
        cudaGetLastError();
        *fits = e == cudaSuccess && n > 0;
        if (!*fits)
            return 0;
    }
    return gc_cuda_check(cudaLaunchKernelExC(&cfg, k, args), "launching a cluster", err);
}

typedef struct latpt {
    int cs;
    uint32_t target;
    long warm, steps;
    unsigned long long *out;
    unsigned *sm;
} latpt_t;

static int lat_launch(void *cookie, gc_launch_t *o, gc_err_t *err)
{
    latpt_t *p = (latpt_t *)cookie;
    void *args[] = {&p->target, &p->warm, &p->steps, &p->out, &p->sm};
    int rc = launch_cluster((const void *)k_dsm_lat, p->cs, p->cs, 32, 0, args, NULL, err);
    rc = rc ? rc : gc_mem_sync("running the DSM chase", err);
    unsigned long long h[3];
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(h, p->out, sizeof(h), cudaMemcpyDeviceToHost), "reading the DSM chase", err);
    if (rc)
        return rc;
    if (h[2] != 1)
        return gc_err_set(err, GC_ERUN, "DSM chase of rank %u in a cluster of %d ended at the wrong slot",
                          p->target, p->cs);
    o->cycles = (double)h[0];
    o->ns = (double)h[1];
    return 0;
}

typedef struct tppt {
    int cs, pattern, iters, z, blocks;
    gc_span_dev_t *span;
    unsigned *bad, *sink;
} tppt_t;

static int tp_launch(void *cookie, gc_launch_t *o, gc_err_t *err)
{
    tppt_t *p = (tppt_t *)cookie;
    int rc = gc_mem_span_reset(p->span, err);
    void *args[] = {&p->pattern, &p->iters, &p->z, &p->span, &p->bad, &p->sink};
    rc = rc ? rc : launch_cluster((const void *)k_dsm_tp, p->cs, p->blocks, TP_THREADS, TP_SMEM, args, NULL, err);
    return rc ? rc : gc_mem_span_read(p->span, o, err);
}

/* Device buffers of the DSM bench: the chase result and SM ids, the
 * throughput check counter, its sink and the timing span. */
typedef struct dsm_bufs {
    unsigned long long *d_out;
    unsigned *d_sm, *bad, *sink;
    gc_span_dev_t *span;
} dsm_bufs_t;

/* Writes the DSM trace header (clock overhead, policy, method) and the
 * columns. Returns 0, or the writer's error through gc_mem_row_err. */
static int dsm_meta(gc_trace_writer_t *w, double ovh, long steps, gc_err_t *err)
{
    int rc = gc_trace_put_meta(w, "clock_overhead_cyc", "%.1f", ovh);
    rc = rc ? rc : gc_trace_put_meta(w, "policy", "default cluster scheduling");
    rc = rc ? rc : gc_trace_put_meta(w, "method",
        "latency: thread 0 of rank 0 chases a %d-slot uniform 4-byte ring in the shared memory of "
        "dst_rank with ld.shared::cluster, %ld timed loads after one warm-up walk, (cycles - "
        "clock_overhead_cyc) / loads; throughput: %d-thread blocks, %d KiB shared each, 4 "
        "independent 16-byte ld.shared::cluster per thread per iteration",
        (int)LSLOTS, steps, (int)TP_THREADS, (int)(TP_SMEM >> 10));
    if (rc || gc_measure_columns(w, "dsm") != 0)
        return gc_mem_row_err(w, err);
    return 0;
}

/* Allocates the buffers in b (zeroed by the caller) and allows the two
 * kernels clusters of 16 and the throughput kernel its shared memory.
 * Returns 0 or the first CUDA error; the caller frees b either way. */
static int dsm_alloc(dsm_bufs_t *b, gc_err_t *err)
{
    int rc = gc_cuda_check(cudaMalloc(&b->d_out, 3 * sizeof(unsigned long long)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&b->d_sm, MAXCS * sizeof(unsigned)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&b->bad, sizeof(unsigned)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&b->sink, sizeof(unsigned)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&b->span, sizeof(*b->span)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_dsm_lat, cudaFuncAttributeNonPortableClusterSizeAllowed, 1), "allowing clusters of 16", err);
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_dsm_tp, cudaFuncAttributeNonPortableClusterSizeAllowed, 1), "allowing clusters of 16", err);
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_dsm_tp, cudaFuncAttributeMaxDynamicSharedMemorySize, TP_SMEM), "allowing shared memory", err);
    return rc;
}

/* Measures the chase latency of every rank of cluster size cs (rank 0
 * alone for cs 1) and writes one latency row each; *done counts points
 * for progress. Returns 0 or the first error. */
static int dsm_latency_cs(gc_mctx_t *ctx, gc_trace_writer_t *w, const dsm_bufs_t *b, int cs, double ovh,
                          long steps, long *done, long total, gc_err_t *err)
{
    int rc = 0;
    for (int t = cs > 1 ? 1 : 0; t < cs && !rc; t++) {
        char label[48];
        snprintf(label, sizeof(label), "latency cluster %d rank %d", cs, t);
        gc_progress(ctx, ++*done, total, label);
        if (gc_resume_skip(ctx, 1))
            continue;
        latpt_t p = {cs, (uint32_t)t, LSLOTS, steps, b->d_out, b->d_sm};
        gc_point_t pt;
        rc = gc_measure_point(ctx, lat_launch, &p, (double)steps, &pt, err);
        unsigned hs[MAXCS];
        rc = rc ? rc : gc_cuda_check(cudaMemcpy(hs, b->d_sm, sizeof(hs), cudaMemcpyDeviceToHost), "reading SM ids", err);
        double sub = ovh / (double)steps;
        rc = rc ? rc : GC_MEM_ROW(w, err, "latency,%d,chase,%d,%u,%u,%d,1,%.2f,%.2f,%.2f,cyc,-1,%.1f", cs, t, hs[0], hs[t], cs,
                                  pt.med - sub, pt.lo - sub, pt.hi - sub, pt.clock_mhz);
    }
    return rc;
}

/* Latency part: for cluster sizes 1..maxcs, probes whether the cluster
 * can be placed, measures it if so, else notes the size; then writes the
 * note of unplaceable sizes. Returns 0 or the first error. */
static int dsm_latency(gc_mctx_t *ctx, gc_trace_writer_t *w, const dsm_bufs_t *b, int maxcs, double ovh,
                       long steps, long *done, long total, gc_err_t *err)
{
    int rc = 0;
    char notes[256] = "";
    for (int cs = 1; cs <= maxcs && !rc; cs++) {
        int fits = 1;
        {
            latpt_t probe = {cs, 0, 0, 16, b->d_out, b->d_sm};
            void *args[] = {&probe.target, &probe.warm, &probe.steps, &probe.out, &probe.sm};
            rc = launch_cluster((const void *)k_dsm_lat, cs, cs, 32, 0, args, &fits, err);
            rc = rc ? rc : gc_mem_sync("probing a cluster", err);
        }
        if (rc)
            break;
        if (!fits) {
            size_t at = strlen(notes);
            snprintf(notes + at, sizeof(notes) - at, "%s%d", at ? " " : "", cs);
            *done += cs > 1 ? cs - 1 : 1;
            continue;
        }
        rc = dsm_latency_cs(ctx, w, b, cs, ovh, steps, done, total, err);
    }
    if (!rc && notes[0])
        rc = gc_trace_put_meta(w, "note", "cluster sizes this GPU cannot place: %s", notes) ? gc_mem_row_err(w, err) : 0;
    return rc;
}

/* Measures one throughput point (cluster size cs, pattern pat over
 * blocks blocks): probes placement, skips silently if the cluster does
 * not fit, checks that no block read another's memory, writes the row.
 * Returns 0 or the first error. */
static int dsm_tp_point(gc_mctx_t *ctx, gc_trace_writer_t *w, const dsm_bufs_t *b, int cs, int pat, int blocks,
                        gc_err_t *err)
{
    const gc_devinfo_t *dv = &ctx->dev;
    tppt_t p = {cs, pat, ctx->quick ? 32 : 128, 0, blocks, b->span, b->bad, b->sink};
    int fits = 1;
    void *args[] = {&p.pattern, &p.iters, &p.z, &p.span, &p.bad, &p.sink};
    int rc = gc_mem_span_reset(b->span, err);
    rc = rc ? rc : launch_cluster((const void *)k_dsm_tp, cs, blocks, TP_THREADS, TP_SMEM, args, &fits, err);
    rc = rc ? rc : gc_mem_sync("probing a cluster", err);
    if (rc)
        return rc;
    if (!fits)
        return 0;
    rc = gc_cuda_check(cudaMemset(b->bad, 0, sizeof(unsigned)), "clearing the check", err);
    double bytes = (double)blocks * TP_THREADS * p.iters * 4 * 16;
    gc_point_t pt;
    rc = rc ? rc : gc_measure_point(ctx, tp_launch, &p, bytes, &pt, err);
    unsigned nbad = 0;
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(&nbad, b->bad, sizeof(nbad), cudaMemcpyDeviceToHost), "reading the check", err);
    if (!rc && nbad)
        rc = gc_err_set(err, GC_ERUN, "DSM %s reads in clusters of %d saw the wrong block's memory %u times", pat_name[pat], cs, nbad);
    if (rc)
        return rc;
    double mhz = pt.clock_mhz;
    return GC_MEM_ROW(w, err, "throughput,%d,%s,-1,-1,-1,%d,%d,%.1f,%.1f,%.1f,gbs,%.2f,%.1f", cs, pat_name[pat], blocks,
                      TP_THREADS, mhz / pt.med / 1e3, mhz / pt.hi / 1e3, mhz / pt.lo / 1e3,
                      1.0 / pt.med / dv->sms, mhz);
}

/* Throughput part: cluster 1 reading itself, then cluster sizes 2, 4
 * (and 8, 16 unless quick) with the ring, pair and broadcast patterns.
 * *done counts points for progress. Returns 0 or the first error. */
static int dsm_throughput(gc_mctx_t *ctx, gc_trace_writer_t *w, const dsm_bufs_t *b, long *done, long total,
                          gc_err_t *err)
{
    int rc = 0;
    int blocks = ctx->dev.sms * TP_BLOCKS_PER_SM / MAXCS * MAXCS;
    static const int css[] = {2, 4, 8, 16};
    for (int ci = -1; ci < (ctx->quick ? 2 : 4) && !rc; ci++) {
        int cs = ci < 0 ? 1 : css[ci];
        for (int pat = ci < 0 ? PAT_SELF : PAT_RING; pat <= (ci < 0 ? PAT_SELF : PAT_BCAST) && !rc; pat++) {
            char label[48];
            snprintf(label, sizeof(label), "throughput cluster %d %s", cs, pat_name[pat]);
            gc_progress(ctx, ++*done, total, label);
            if (gc_resume_skip(ctx, 1))
                continue;
            rc = dsm_tp_point(ctx, w, b, cs, pat, blocks, err);
        }
    }
    return rc;
}

/* The DSM bench: header, buffers, latency rows then throughput rows;
 * frees the buffers on every path. Returns 0 or the first error. */
static int run_dsm(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    double ovh = 0;
    int rc = gc_mem_clock_overhead(&ovh, err);
    if (rc)
        return rc;
    long steps = ctx->quick ? 512 : 2048;
    rc = dsm_meta(w, ovh, steps, err);
    if (rc)
        return rc;

    dsm_bufs_t b = {NULL, NULL, NULL, NULL, NULL};
    rc = dsm_alloc(&b, err);
    int maxcs = ctx->quick ? 4 : MAXCS;
    long total = 1, done = 0;
    for (int cs = 2; cs <= maxcs; cs++)
        total += cs - 1;
    total += 1 + 3L * (ctx->quick ? 2 : 4);
    rc = rc ? rc : dsm_latency(ctx, w, &b, maxcs, ovh, steps, &done, total, err);
    rc = rc ? rc : dsm_throughput(ctx, w, &b, &done, total, err);
    cudaFree(b.d_out);
    cudaFree(b.d_sm);
    cudaFree(b.bad);
    cudaFree(b.sink);
    cudaFree(b.span);
    return rc;
}

extern "C" const gc_bench_t gc_bench_dsm = {
    "dsm",
    "distributed shared memory latency (clusters 1..16) and throughput (ring/pair/broadcast)",
    run_dsm,
    gc_mem_sass_dsm,
    gc_mem_sass_dsm_n,
    90,
    1,
};
