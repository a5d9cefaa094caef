/* bench_pchase.cu - the `pchase` bench: classic pointer-chase latency
 * against array size, 1 KiB to 4x the L2, for the paths l1 (ld.global.ca),
 * l2 (ld.global.cg), global (ld.global, the default), shared (ld.shared) and
 * tma (cp.async.bulk, sm_90), over seq and rand rings (measure/ring.h).
 *
 * Method (the one the header's `method` key repeats): one thread chases
 * 8-byte pointers p = *p through a single-cycle ring of 64-byte slots (4-byte
 * slots in shared memory); rand rings are random inside 2 MiB pages, pages in
 * address order, so the chase changes page once per 32768 loads and the TLB
 * is not what is measured. Before the timed loads the ring is walked once
 * from the timing thread's SM (what one SM touched is what its L1 and its
 * side of a partitioned L2 hold, as in a long single-thread chase): by the
 * timing thread itself when the ring has <= 32768 slots, else by the 1024
 * threads of its block, each over a segment of the ring in ring order.
 * shared_idx chases the shared ring by index (j = ring[j]), the form of
 * index-based P-chase codes, whose address arithmetic adds to each load.
 * The timed region is bracketed by
 * clock64 reads, each after a shared-memory store of the chased pointer (so
 * the last load has completed); latency = (cycles - clock_overhead_cyc) /
 * steps, with the overhead measured by the same bracket around no load. The
 * chase's end pointer is checked against the ring, so a wrong ring or a
 * dropped load is an error, not a number. Writes OUT/pchase.csv. */
#include <stdlib.h>
#include <string.h>

#include "mem_sass.h"
#include "mem_util.cuh"
#include "ring.h"

enum { P_L1, P_L2, P_GLOBAL, P_SHARED, P_TMA, P_SIDX };
static const char *const path_name[] = {"l1", "l2", "global", "shared", "tma", "shared_idx"};

enum {
    SLOT = 64,               /* bytes per slot of the global paths */
    SSLOT = 4,               /* bytes per slot in shared memory */
    PAGE = 2 << 20,          /* page of the page-aware rand rings */
    SELF_WARM = 32768,       /* rings up to this many slots: the timing thread warms */
    WARM_THREADS = 1024,     /* threads of the walk before timing (one block, one SM) */
    UNROLL = 16,
};
static const uint64_t SEED = 0x67637061ull; /* "gcpa": the rings' seed */

/* ---- kernels ---- */

/* The walk before timing runs in the timing thread's own block, so on the
 * same SM: threads t < nstarts each walk wsteps loads of the ring from
 * starts[t] (the ring cut into segments), then thread 0 walks `warm` loads
 * itself and times `steps` loads. */
#define GC_CHASE_KERNELS(NAME, LD)                                                             \
    __global__ void k_pchase_##NAME(uint64_t start, const uint64_t *starts, int nstarts,       \
                                    long wsteps, long warm, long steps,                        \
                                    unsigned long long *out)                                   \
    {                                                                                          \
        __shared__ uint64_t s;                                                                 \
        if ((int)threadIdx.x < nstarts) {                                                      \
            uint64_t q = starts[threadIdx.x];                                                  \
            for (long i = 0; i < wsteps; i++)                                                  \
                q = LD(q);                                                                     \
            if (q == 1)                                                                        \
                out[3] = q;                                                                    \
        }                                                                                      \
        __syncthreads();                                                                       \
        if (threadIdx.x != 0)                                                                  \
            return;                                                                            \
        uint32_t a = gc_smem_addr(&s);                                                         \
        uint64_t p = start;                                                                    \
        for (long i = 0; i < warm; i++)                                                        \
            p = LD(p);                                                                         \
        gc_sts64(a, p);                                                                        \
        unsigned long long t0 = gc_globaltimer();                                              \
        long long c0 = gc_clock();                                                             \
        for (long i = 0; i < steps; i += UNROLL) {                                             \
            _Pragma("unroll") for (int u = 0; u < UNROLL; u++) p = LD(p);                      \
        }                                                                                      \
        gc_sts64(a, p);                                                                        \
        long long c1 = gc_clock();                                                             \
        unsigned long long t1 = gc_globaltimer();                                              \
        out[0] = p;                                                                            \
        out[1] = (unsigned long long)(c1 - c0);                                                \
        out[2] = t1 - t0;                                                                      \
    }

GC_CHASE_KERNELS(l1, gc_ld_ca)
GC_CHASE_KERNELS(l2, gc_ld_cg)
GC_CHASE_KERNELS(global, gc_ld_def)

/* arr[slot s] = address of slot next[s] */
__global__ void k_pchase_fill(char *arr, const uint32_t *next, size_t n, size_t stride)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        *(uint64_t *)(arr + i * stride) = (uint64_t)(arr + (size_t)next[i] * stride);
}

static __device__ __forceinline__ uint32_t lds32(uint32_t a)
{
    uint32_t v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    return v;
}

/* The ring in dynamic shared memory (4-byte slots holding the shared
 * address of the next slot); thread 0 chases. out[0] = end slot. */
__global__ void k_pchase_shared(const uint32_t *next, uint32_t n, uint32_t start, long warm,
                                long steps, unsigned long long *out)
{
    extern __shared__ __align__(16) uint32_t ring[];
    __shared__ uint64_t s;
    uint32_t base = gc_smem_addr(ring);
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
        ring[i] = base + next[i] * SSLOT;
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    uint32_t a = gc_smem_addr(&s);
    uint32_t p = base + start * SSLOT;
    for (long i = 0; i < warm; i++)
        p = lds32(p);
    gc_sts32(a, p);
    unsigned long long t0 = gc_globaltimer();
    long long c0 = gc_clock();
    for (long i = 0; i < steps; i += UNROLL) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            p = lds32(p);
    }
    gc_sts32(a, p);
    long long c1 = gc_clock();
    unsigned long long t1 = gc_globaltimer();
    out[0] = (p - base) / SSLOT;
    out[1] = (unsigned long long)(c1 - c0);
    out[2] = t1 - t0;
}

/* The same ring chased by index, j = ring[j] (the address computed from
 * the index each step, as index-based P-chase codes do): path shared_idx. */
__global__ void k_pchase_sidx(const uint32_t *next, uint32_t n, uint32_t start, long warm,
                              long steps, unsigned long long *out)
{
    extern __shared__ __align__(16) uint32_t ring[];
    __shared__ uint64_t s;
    for (uint32_t i = threadIdx.x; i < n; i += blockDim.x)
        ring[i] = next[i];
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    uint32_t a = gc_smem_addr(&s), base = gc_smem_addr(ring);
    uint32_t j = start;
    for (long i = 0; i < warm; i++)
        j = lds32(base + j * 4);
    gc_sts32(a, j);
    unsigned long long t0 = gc_globaltimer();
    long long c0 = gc_clock();
    for (long i = 0; i < steps; i += UNROLL) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            j = lds32(base + j * 4);
    }
    gc_sts32(a, j);
    long long c1 = gc_clock();
    unsigned long long t1 = gc_globaltimer();
    out[0] = j;
    out[1] = (unsigned long long)(c1 - c0);
    out[2] = t1 - t0;
}

/* TMA chase: each step copies the 16 bytes at p into shared memory with
 * cp.async.bulk and waits on the mbarrier; the step is timed from before the
 * issue to after the wait (the pointer for the next step is read from shared
 * memory outside the timed part). out = {end p, sum of step cycles, region
 * cycles, region ns}. */
__global__ void k_pchase_tma(uint64_t start, const uint64_t *starts, int nstarts, long wsteps,
                             long warm, long steps, unsigned long long *out)
{
#if __CUDA_ARCH__ >= 900
    if ((int)threadIdx.x < nstarts) { /* the walk through L2, on this SM */
        uint64_t q = starts[threadIdx.x];
        for (long i = 0; i < wsteps; i++)
            q = gc_ld_cg(q);
        if (q == 1)
            out[3] = q;
    }
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    __shared__ __align__(128) uint64_t buf[2];
    __shared__ __align__(8) uint64_t bar;
    __shared__ uint64_t s;
    uint32_t b = gc_smem_addr(&bar), d = gc_smem_addr(buf), a = gc_smem_addr(&s);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    uint32_t phase = 0;
    uint64_t p = start;
    unsigned long long sum = 0, t0 = 0;
    long long r0 = 0;
    for (long i = 0; i < warm + steps; i++) {
        if (i == warm) {
            t0 = gc_globaltimer();
            r0 = gc_clock();
        }
        gc_sts64(a, p);
        long long c0 = gc_clock();
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16;" ::"r"(b)
                     : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                     "[%0], [%1], 16, [%2];" ::"r"(d),
                     "l"(p), "r"(b)
                     : "memory");
        asm volatile("{\n\t.reg .pred P1;\n"
                     "WAIT:\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
                     "@!P1 bra WAIT;\n}" ::"r"(b),
                     "r"(phase)
                     : "memory");
        long long c1 = gc_clock();
        phase ^= 1;
        asm volatile("ld.shared.u64 %0, [%1];" : "=l"(p) : "r"(d) : "memory");
        if (i >= warm)
            sum += (unsigned long long)(c1 - c0);
    }
    long long r1 = gc_clock();
    unsigned long long t1 = gc_globaltimer();
    out[0] = p;
    out[1] = sum;
    out[2] = (unsigned long long)(r1 - r0);
    out[3] = t1 - t0;
#else
    (void)starts, (void)nstarts, (void)wsteps;
    out[0] = 0;
    out[1] = out[2] = out[3] = 0;
#endif
}

/* ---- host ---- */

typedef struct chase {
    gc_mctx_t *ctx;
    int path;
    char *arr;               /* device array (global paths) */
    uint32_t *d_next;        /* device copy of next[] */
    const uint32_t *order;   /* host ring order */
    size_t n, stride;
    uint64_t *d_starts;      /* parallel warm-up starts */
    int nstarts;
    long wsteps;             /* steps per parallel warm-up thread */
    long warm, steps;        /* in-kernel warm-up and timed steps */
    unsigned long long *d_out;
} chase_t;

static int chase_launch(void *cookie, gc_launch_t *out, gc_err_t *err)
{
    chase_t *c = (chase_t *)cookie;
    int nt = c->nstarts > 32 ? (c->nstarts + 31) / 32 * 32 : 32;
    uint64_t start = (uint64_t)(c->arr + (size_t)c->order[0] * c->stride);
    switch (c->path) {
    case P_L1:
        k_pchase_l1<<<1, nt>>>(start, c->d_starts, c->nstarts, c->wsteps, c->warm, c->steps, c->d_out);
        break;
    case P_L2:
        k_pchase_l2<<<1, nt>>>(start, c->d_starts, c->nstarts, c->wsteps, c->warm, c->steps, c->d_out);
        break;
    case P_GLOBAL:
        k_pchase_global<<<1, nt>>>(start, c->d_starts, c->nstarts, c->wsteps, c->warm, c->steps, c->d_out);
        break;
    case P_TMA:
        k_pchase_tma<<<1, nt>>>(start, c->d_starts, c->nstarts, c->wsteps, c->warm, c->steps, c->d_out);
        break;
    case P_SHARED:
        k_pchase_shared<<<1, 32, c->n * SSLOT>>>(c->d_next, (uint32_t)c->n, c->order[0],
                                                 c->warm, c->steps, c->d_out);
        break;
    case P_SIDX:
        k_pchase_sidx<<<1, 32, c->n * SSLOT>>>(c->d_next, (uint32_t)c->n, c->order[0], c->warm,
                                               c->steps, c->d_out);
        break;
    }
    unsigned long long h[4];
    int rc = gc_mem_sync("running a pointer chase", err);
    if (!rc)
        rc = gc_cuda_check(cudaMemcpy(h, c->d_out, sizeof(h), cudaMemcpyDeviceToHost),
                           "reading a pointer chase", err);
    if (rc)
        return rc;
    size_t endk = (size_t)((c->warm + c->steps) % (long)c->n);
    uint64_t want = c->path == P_SHARED || c->path == P_SIDX ? (uint64_t)c->order[endk]
                                        : (uint64_t)(c->arr + (size_t)c->order[endk] * c->stride);
    if (h[0] != want)
        return gc_err_set(err, GC_ERUN,
                          "%s chase over %zu slots ended at %#llx, not at %#llx where the ring "
                          "says: the ring in memory or the loads are wrong",
                          path_name[c->path], c->n, (unsigned long long)h[0],
                          (unsigned long long)want);
    if (c->path == P_TMA) {
        if (!h[2] || !h[3])
            return gc_err_set(err, GC_ERUN, "the TMA chase recorded no time");
        out->cycles = (double)h[1];
        out->ns = (double)h[3] * (double)h[1] / (double)h[2]; /* keeps the region's clock */
    } else {
        out->cycles = (double)h[1];
        out->ns = (double)h[2];
    }
    return 0;
}

typedef struct pstate {
    gc_mctx_t *ctx;
    gc_trace_writer_t *w;
    double ovh;  /* clock-read overhead, cycles */
    long steps;
    long done, total;
} pstate_t;

static int measure_row(pstate_t *st, chase_t *c, const char *pattern, gc_err_t *err)
{
    char label[96];
    snprintf(label, sizeof(label), "%s %s %zu B", path_name[c->path], pattern, c->n * c->stride);
    gc_progress(st->ctx, ++st->done, st->total, label);
    if (gc_resume_skip(st->ctx, 1))
        return 0;
    gc_point_t pt;
    int rc = gc_measure_point(st->ctx, chase_launch, c, (double)c->steps, &pt, err);
    if (rc)
        return rc;
    double sub = c->path == P_TMA ? st->ovh : st->ovh / (double)c->steps;
    return GC_MEM_ROW(st->w, err, "%s,%s,%zu,%zu,%ld,%.2f,%.2f,%.2f,%.1f", path_name[c->path],
                      pattern, c->n * c->stride, c->stride, c->steps, pt.med - sub, pt.lo - sub,
                      pt.hi - sub, pt.clock_mhz);
}

/* Build one ring on the host, verify it, and put it on the device. */
static int make_ring(chase_t *c, size_t bytes, size_t stride, gc_ring_pattern_t pat,
                     size_t page, uint32_t **order, uint32_t **next, gc_err_t *err)
{
    gc_ring_spec_t sp = {bytes, stride, page, pat, SEED};
    size_t n;
    int rc = gc_ring_check(&sp, &n, err);
    if (rc)
        return rc;
    uint32_t *o = (uint32_t *)realloc(*order, n * sizeof(uint32_t));
    if (o)
        *order = o;
    uint32_t *x = o ? (uint32_t *)realloc(*next, n * sizeof(uint32_t)) : NULL;
    if (x)
        *next = x;
    if (!o || !x)
        return gc_err_set(err, GC_ENOMEM, "out of memory for a ring of %zu slots", n);
    if ((rc = gc_ring_build(&sp, o, x, n, err)) != 0)
        return rc;
    if (!gc_ring_is_cycle(x, n))
        return gc_err_set(err, GC_ERUN, "ring of %zu slots is not one cycle", n);
    c->n = n;
    c->stride = stride;
    c->order = o;
    return gc_cuda_check(cudaMemcpy(c->d_next, x, n * sizeof(uint32_t), cudaMemcpyHostToDevice),
                         "copying a ring to the device", err);
}

/* Writes the pchase trace header (clock overhead, page, seed, L1 size,
 * method) and the columns. Returns 0, or the writer's error through
 * gc_mem_row_err. */
static int pchase_meta(gc_trace_writer_t *w, size_t l1, double ovh, gc_err_t *err)
{
    int rc = gc_trace_put_meta(w, "clock_overhead_cyc", "%.1f", ovh);
    rc = rc ? rc : gc_trace_put_meta(w, "page_bytes", "%d", (int)PAGE);
    rc = rc ? rc : gc_trace_put_meta(w, "seed", "%#llx", (unsigned long long)SEED);
    rc = rc ? rc : gc_trace_put_meta(w, "l1_smem_bytes", "%zu", l1);
    rc = rc ? rc : gc_trace_put_meta(
        w, "method",
        "one thread; dependent 8-byte loads p = *p over a single-cycle ring of %d-byte slots "
        "(shared: %d-byte slots); rand = random order inside %d-byte pages visited in address "
        "order; the ring is walked once before timing on the timing thread's SM (by the timing "
        "thread up to %d slots, else by %d threads of its block, each over a segment of the "
        "ring); latency = (cycles of `steps` loads - clock_overhead_cyc) / steps, each load's "
        "address being the pointer loaded before (shared_idx: j = ring[j], the address computed "
        "from an index each step); tma: cp.async.bulk of 16 bytes per step timed from issue "
        "to mbarrier wait done, clock_overhead_cyc subtracted per step",
        (int)SLOT, (int)SSLOT, (int)PAGE, (int)SELF_WARM, (int)WARM_THREADS);
    if (!rc)
        rc = gc_measure_columns(w, "pchase");
    if (rc)
        return gc_mem_row_err(w, err);
    return 0;
}

/* Allocates the device buffers of c (arr_bytes of chase array, maxn
 * ring slots, maxstarts warm-up starts, the results) and sets the
 * shared-memory limit (smax) and L1 carveout of the chase kernels.
 * Returns 0 or the first CUDA error; the caller frees c either way. */
static int pchase_alloc(chase_t *c, size_t arr_bytes, size_t maxn, int maxstarts, size_t smax, gc_err_t *err)
{
    int rc = gc_cuda_check(cudaMalloc(&c->arr, arr_bytes), "allocating the chase array", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c->d_next, maxn * sizeof(uint32_t)), "allocating a ring", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c->d_starts, (size_t)maxstarts * sizeof(uint64_t)), "allocating warm-up starts", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c->d_out, 4 * sizeof(unsigned long long)), "allocating chase results", err);
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_pchase_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smax), "allowing the shared ring", err);
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_pchase_sidx, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smax), "allowing the shared ring", err);
    /* the chase kernels use 8 bytes of shared memory: ask for the largest L1 */
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_pchase_l1, cudaFuncAttributePreferredSharedMemoryCarveout, 0), "setting the L1 carveout", err);
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_pchase_global, cudaFuncAttributePreferredSharedMemoryCarveout, 0), "setting the L1 carveout", err);
    return rc;
}

/* Host-side scratch of the pchase bench: the ring order and next arrays
 * (grown by make_ring) and the warm-up starts. */
typedef struct pbufs {
    uint32_t *order, *next;
    uint64_t *hstarts;
    int maxstarts;
} pbufs_t;

static const gc_ring_pattern_t pc_pats[] = {GC_RING_SEQ, GC_RING_RAND};
static const char *const pc_patn[] = {"seq", "rand"};

/* One array size of the cache paths: builds the ring of pattern pi,
 * writes it into the chase array with its warm-up starts, then measures
 * l1, l2 and global (and tma for rand when tma). Returns 0 or the first
 * error. */
static int pchase_cache_size(pstate_t *st, chase_t *c, pbufs_t *hb, size_t bytes, int pi, int tma, gc_err_t *err)
{
    /* the ring, and the parallel warm-up's starting points along it */
    int rc = make_ring(c, bytes, SLOT, pc_pats[pi], PAGE, &hb->order, &hb->next, err);
    if (rc)
        return rc;
    int T = c->n < (size_t)hb->maxstarts ? (int)c->n : hb->maxstarts;
    for (int t = 0; t < T; t++)
        hb->hstarts[t] = (uint64_t)(c->arr + (size_t)hb->order[(size_t)t * c->n / T] * SLOT);
    c->wsteps = (long)((c->n + T - 1) / T);
    k_pchase_fill<<<st->ctx->dev.sms * 4, 256>>>(c->arr, c->d_next, c->n, SLOT);
    rc = gc_mem_sync("writing a ring into the chase array", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(c->d_starts, hb->hstarts, (size_t)T * sizeof(uint64_t), cudaMemcpyHostToDevice), "copying warm-up starts", err);
    int self = c->n <= SELF_WARM;
    for (int path = P_L1; path <= P_GLOBAL && !rc; path++) {
        c->path = path;
        c->warm = self ? (long)c->n : 0;
        c->nstarts = self ? 0 : T;
        rc = measure_row(st, c, pc_patn[pi], err);
    }
    if (!rc && tma && pc_pats[pi] == GC_RING_RAND) {
        c->path = P_TMA;
        c->warm = 0;
        c->nstarts = T;
        rc = measure_row(st, c, pc_patn[pi], err);
    }
    return rc;
}

/* Shared-memory part: for both patterns and every size in ssz, a ring
 * in the block's shared memory chased by pointer and by index. Returns
 * 0 or the first error. */
static int pchase_shared(pstate_t *st, chase_t *c, pbufs_t *hb, const size_t *ssz, int nss, gc_err_t *err)
{
    int rc = 0;
    for (int pi = 0; pi < 2 && !rc; pi++) {
        for (int si = 0; si < nss && !rc; si++) {
            rc = make_ring(c, ssz[si], SSLOT, pc_pats[pi], 0, &hb->order, &hb->next, err);
            if (rc)
                break;
            c->warm = (long)c->n;
            c->nstarts = 0;
            c->path = P_SHARED;
            rc = measure_row(st, c, pc_patn[pi], err);
            c->path = P_SIDX;
            rc = rc ? rc : measure_row(st, c, pc_patn[pi], err);
        }
    }
    return rc;
}

/* The pchase bench: array sizes from the L1 and L2 sizes, header,
 * buffers, the cache paths (both patterns, every size), then shared
 * memory; frees everything on every path. Returns 0 or the first
 * error. */
static int run_pchase(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    const gc_devinfo_t *dv = &ctx->dev;
    int cc = dv->cc_major * 10 + dv->cc_minor;
    /* L1 + shared memory of an SM: the data cache is what the carveout leaves */
    size_t l1 = (size_t)(dv->smem_per_sm_bytes > 0 ? dv->smem_per_sm_bytes : 100 << 10);
    l1 = (l1 + (32 << 10)) / (32 << 10) * (32 << 10);
    size_t sizes[128];
    int ns = gc_ring_sizes(l1, (size_t)dv->l2_bytes, SLOT, ctx->quick, sizes, 128, err);
    if (ns < 0)
        return ns;
    double ovh = 0;
    int rc = gc_mem_clock_overhead(&ovh, err);
    if (rc)
        return rc;
    long steps = ctx->quick ? 1024 : 4096;
    if ((rc = pchase_meta(w, l1, ovh, err)) != 0)
        return rc;

    /* shared sizes: powers of two from 1 KiB up to what a block may opt into */
    size_t ssz[24];
    int nss = 0;
    size_t smax = (size_t)dv->smem_optin_bytes / 1024 * 1024 - 1024;
    for (size_t s = 1024; s < smax && nss < 22; s *= ctx->quick ? 8 : 2)
        ssz[nss++] = s;
    ssz[nss++] = smax;
    int tma = cc >= 90;
    pstate_t st = {ctx, w, ovh, steps, 0, 0};
    st.total = (long)ns * (3 * 2 + tma) + 4L * nss;

    chase_t c;
    memset(&c, 0, sizeof(c));
    c.ctx = ctx;
    c.steps = steps;
    pbufs_t hb = {NULL, NULL, NULL, WARM_THREADS};
    hb.hstarts = (uint64_t *)malloc((size_t)hb.maxstarts * sizeof(uint64_t));
    size_t maxn = sizes[ns - 1] / SLOT;
    if (smax / SSLOT > maxn)
        maxn = smax / SSLOT;
    rc = hb.hstarts ? 0 : gc_err_set(err, GC_ENOMEM, "out of memory");
    rc = rc ? rc : pchase_alloc(&c, sizes[ns - 1], maxn, hb.maxstarts, smax, err);
    for (int pi = 0; pi < 2 && !rc; pi++)
        for (int si = 0; si < ns && !rc; si++)
            rc = pchase_cache_size(&st, &c, &hb, sizes[si], pi, tma, err);
    /* shared memory: the ring lives in the block's shared memory */
    rc = rc ? rc : pchase_shared(&st, &c, &hb, ssz, nss, err);
    free(hb.order);
    free(hb.next);
    free(hb.hstarts);
    cudaFree(c.arr);
    cudaFree(c.d_next);
    cudaFree(c.d_starts);
    cudaFree(c.d_out);
    return rc;
}

extern "C" const gc_bench_t gc_bench_pchase = {
    "pchase",
    "pointer-chase latency vs array size (l1/l2/global/shared/tma paths, seq/rand)",
    run_pchase,
    gc_mem_sass_pchase,
    gc_mem_sass_pchase_n,
    0,
    1,
};
