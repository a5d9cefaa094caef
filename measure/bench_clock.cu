/* bench_clock.cu - the `clock` bench: the SM clock the GPU sustains
 *   - idle:   no load besides the measuring thread (one thread spins 20 ms
 *             reading %globaltimer against clock64, 50 times: 1 s);
 *   - memory: under a DRAM-bound kernel (every SM copies between two 1 GiB
 *             buffers with 16-byte accesses);
 *   - tensor: under a tensor-bound kernel (on sm_90a every SM runs two
 *             warpgroups issuing wgmma.m64n64k16.f32.f16.f16 back to back
 *             from shared memory filled with random f16 in [-1, 1); other
 *             GPUs run mma.sync.m16n8k16 HMMA on random registers);
 *   - tensor_mma: under mma.sync.m16n8k16 HMMA on random registers, 8 warps
 *             per SM, on every GPU (on Hopper the kernels that cannot use
 *             wgmma: Ampere-style GEMMs, FlashAttention-2; they draw less
 *             power than wgmma and hold a higher clock).
 * Under load, thread 0 of block 0 records (%globaltimer, clock64) about
 * every 10 ms; the clock of each interval is its cycles / ns, the first
 * 0.25 s (the clock settling) are left out, and the row gives the median
 * over the intervals, its 95 % interval and the seconds covered (>= 1 s,
 * 0.3 s with --quick). The load's own rate (GB/s, TFLOP/s) and the board's
 * power draw while it ran (NVML, read every 20 ms from the host after the
 * same settling time, median; "not read" where the driver's NVML library is
 * absent) go into the trailer so a reader can see the load was real.
 * Writes OUT/clock.csv. */
#include <cuda_fp16.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "mem_sass.h"
#include "mem_util.cuh"
#include "power.h"

enum { MAXS = 1024, SAMPLE_NS = 10000000 };
static const double SETTLE_S = 0.25;

static __device__ __forceinline__ void sample(gc_clk_sample_t *smp, int maxs, int *ns,
                                              unsigned long long *next, unsigned long long t)
{
    if (t >= *next && *ns < maxs) {
        smp[*ns].ns = t;
        smp[*ns].cyc = gc_clock();
        (*ns)++;
        *next = t + SAMPLE_NS;
    }
}

/* DRAM-bound: copy a -> b over and over until `dur` ns have passed. */
__global__ void __launch_bounds__(1024, GC_MEM_MINB) k_clk_mem(const uint4 *a, uint4 *b, size_t n,
                                                  unsigned long long dur, gc_clk_sample_t *smp,
                                                  int maxs, int *nsmp,
                                                  unsigned long long *bytes)
{
    size_t G = (size_t)gridDim.x * blockDim.x;
    size_t i0 = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int sampler = blockIdx.x == 0 && threadIdx.x == 0;
    unsigned long long start = gc_globaltimer(), next = 0, moved = 0;
    int ns = 0;
    for (;;) {
        for (size_t i = i0; i + 3 * G < n; i += 4 * G) {
            uint4 v0 = a[i], v1 = a[i + G], v2 = a[i + 2 * G], v3 = a[i + 3 * G];
            b[i] = v0;
            b[i + G] = v1;
            b[i + 2 * G] = v2;
            b[i + 3 * G] = v3;
            moved += 8 * sizeof(uint4);
        }
        unsigned long long t = gc_globaltimer();
        if (sampler)
            sample(smp, maxs, &ns, &next, t);
        if (t - start >= dur)
            break;
    }
    atomicAdd(bytes, moved);
    if (sampler)
        *nsmp = ns;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
static __device__ __forceinline__ uint64_t gmma_desc(uint32_t saddr, uint32_t lbo, uint32_t sbo)
{
    /* start address, leading and stride byte offsets (all >> 4), no swizzle */
    return (uint64_t)((saddr & 0x3ffff) >> 4) | ((uint64_t)((lbo >> 4) & 0x3fff) << 16) |
           ((uint64_t)((sbo >> 4) & 0x3fff) << 32);
}

static __device__ __forceinline__ void wgmma_64x64x16(float *d, uint64_t da, uint64_t db)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "
        "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, "
        "0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),
          "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),
          "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
          "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
          "+f"(d[31])
        : "l"(da), "l"(db), "r"(1));
}
#endif

/* One step of a load kernel's loop, by the whole block: thread 0 reads
 * the global timer, takes a clock sample when it is the sampler, and
 * sets *stop once dur ns have passed since start; returns *stop, the
 * same in every thread. Inlined so the kernel's code is unchanged. */
static __device__ __forceinline__ int clk_tick(int *stop, int sampler, gc_clk_sample_t *smp, int maxs,
                                               int *ns, unsigned long long *next,
                                               unsigned long long start, unsigned long long dur)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long t = gc_globaltimer();
        if (sampler)
            sample(smp, maxs, ns, next, t);
        *stop = t - start >= dur;
    }
    __syncthreads();
    return *stop;
}

#if __CUDA_ARCH__ >= 800
/* c += A x B for one m16n8k16 f16 fragment with f32 accumulators
 * (mma.sync, row x col): a holds 4 and b 2 packed f16 pairs. */
static __device__ __forceinline__ void mma_16x8x16(float *c, const unsigned *a, const unsigned *b)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
#endif

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* The wgmma load of k_clk_tensor: two warpgroups issue
 * wgmma.m64n64k16.f32.f16.f16 from shared memory until `dur` ns have
 * passed; returns the wgmmas issued by this thread's warpgroup, *acc the
 * accumulators' sum. */
static __device__ unsigned long long clk_wgmma(const __half *rnd, unsigned long long dur,
                                               int sampler, gc_clk_sample_t *smp, int maxs,
                                               int *ns, float *acc)
{
    __shared__ int stop;
    unsigned long long start = gc_globaltimer(), next = 0, done = 0;
    /* A and B: 64 x 16 f16 each, 8x8 core matrices, no swizzle */
    __shared__ __align__(1024) __half sa[64 * 16], sb[64 * 16];
    for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) {
        sa[i] = rnd[i];
        sb[i] = rnd[64 * 16 + i];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    uint64_t da = gmma_desc(gc_smem_addr(sa), 128, 256), db = gmma_desc(gc_smem_addr(sb), 128, 256);
    float d[32];
#pragma unroll
    for (int i = 0; i < 32; i++)
        d[i] = 0.f;
    for (;;) {
        for (int j = 0; j < 32; j++) {
            asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
            for (int k = 0; k < 8; k++)
                wgmma_64x64x16(d, da, db);
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
            asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
        }
        done += 32 * 8;
        if (clk_tick(&stop, sampler, smp, maxs, ns, &next, start, dur))
            break;
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#pragma unroll
    for (int i = 0; i < 32; i++)
        *acc += d[i];
    return done;
}
#endif

#if __CUDA_ARCH__ >= 800
/* The mma.sync load of k_clk_tensor: every warp runs 4 independent
 * mma.sync.m16n8k16 chains on random registers until `dur` ns have passed;
 * returns the mmas this warp issued, *acc the accumulators' sum. */
static __device__ unsigned long long clk_mma(const __half *rnd, unsigned long long dur,
                                             int sampler, gc_clk_sample_t *smp, int maxs,
                                             int *ns, float *acc)
{
    __shared__ int stop;
    unsigned long long start = gc_globaltimer(), next = 0, done = 0;
    int lane = threadIdx.x % 32;
    unsigned a[4], b[2];
    for (int i = 0; i < 4; i++)
        a[i] = ((const unsigned *)rnd)[lane * 4 + i];
    for (int i = 0; i < 2; i++)
        b[i] = ((const unsigned *)rnd)[256 + lane * 2 + i];
    float c[4][4] = {};
    for (;;) {
        for (int j = 0; j < 256; j++) {
#pragma unroll
            for (int q = 0; q < 4; q++)
                mma_16x8x16(c[q], a, b);
        }
        done += 256 * 4;
        if (clk_tick(&stop, sampler, smp, maxs, ns, &next, start, dur))
            break;
    }
    for (int q = 0; q < 4; q++)
        *acc += c[q][0] + c[q][1] + c[q][2] + c[q][3];
    return done;
}
#endif

/* Tensor-bound: until `dur` ns have passed. want: 1 = wgmma where this GPU
 * has it (else mma.sync), 2 = mma.sync. *kind tells what ran: 1 = wgmma,
 * 2 = mma.sync, 0 = neither compiled for this GPU. ops counts
 * multiply-adds. */
__global__ void __launch_bounds__(256, 1) k_clk_tensor(const __half *rnd, unsigned long long dur,
                                                       gc_clk_sample_t *smp, int maxs,
                                                       int *nsmp, unsigned long long *ops,
                                                       float *sink, int *kind, int want)
{
    int sampler = blockIdx.x == 0 && threadIdx.x == 0;
    int ns = 0, ran = 0;
    float acc = 0;
    unsigned long long fma = 0;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    if (want == 1) {
        unsigned long long done = clk_wgmma(rnd, dur, sampler, smp, maxs, &ns, &acc);
        fma = threadIdx.x % 128 == 0 ? done * 64ull * 64 * 16 : 0;
        ran = 1;
    }
#endif
#if __CUDA_ARCH__ >= 800
    if (!ran) {
        unsigned long long done = clk_mma(rnd, dur, sampler, smp, maxs, &ns, &acc);
        fma = threadIdx.x % 32 == 0 ? done * 16ull * 8 * 16 : 0;
        ran = 2;
    }
#endif
    (void)rnd, (void)dur, (void)want;
    if (fma)
        atomicAdd(ops, fma);
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *kind = ran;
    if (acc == 1234.5f)
        sink[0] = acc;
    if (sampler)
        *nsmp = ns;
}

/* Per-interval clocks of the samples after the settling time. */
static int clocks_of(const gc_clk_sample_t *s, int n, double *med, double *lo, double *hi,
                     double *secs, gc_err_t *err)
{
    double *x = (double *)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!x)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int m = 0;
    unsigned long long first = 0;
    for (int i = 0; i + 1 < n; i++) {
        if ((double)(s[i].ns - s[0].ns) < SETTLE_S * 1e9)
            continue;
        if (!first)
            first = s[i].ns;
        double dn = (double)(s[i + 1].ns - s[i].ns), dc = (double)(s[i + 1].cyc - s[i].cyc);
        if (dn > 0)
            x[m++] = dc / dn * 1e3;
    }
    if (m < 3) {
        free(x);
        return gc_err_set(err, GC_ERUN, "only %d clock samples under load (need 3)", m);
    }
    *secs = (double)(s[n - 1].ns - first) / 1e9;
    gc_stats_median(x, m, med, lo, hi);
    free(x);
    return 0;
}

typedef struct load {
    const char *name;
    double seconds_run;
} load_t;

/* The idle row: 50 spins of 20 ms (5 with --quick), their median, range
 * and seconds, unless resume skips it. Returns 0 or the first error. */
static int clock_idle(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    int rc;
    if (gc_resume_skip(ctx, 1))
        return 0;
    enum { N = 50 };
    double x[N];
    int n = ctx->quick ? 5 : N;
    for (int i = 0; i < n; i++) {
        if ((rc = gc_clock_measure(20.0, &x[i], err)) != 0)
            return rc;
        gc_progress(ctx, i + 1, n + 2, "idle");
    }
    double med, lo, hi;
    gc_stats_median(x, n, &med, &lo, &hi);
    return GC_MEM_ROW(w, err, "idle,%.1f,%.1f,%.1f,%.3f", med, lo, hi, n * 0.020);
}

/* State of the loaded-clock part: the plan (SMs, run time in ns, copy
 * size in 16-byte elements), the memory load's block count, and the
 * device buffers and host samples. */
typedef struct clk {
    gc_mctx_t *ctx;
    gc_trace_writer_t *w;
    int sms, mem_blocks;
    unsigned long long dur;
    size_t n16;
    uint4 *a, *b;
    gc_clk_sample_t *d_s, h_s[MAXS];
    int *d_n, *d_kind;
    unsigned long long *d_cnt;
    __half *d_rnd;
    float *d_sink;
    gc_power_t *pw; /* NULL: no NVML */
} clk_t;

/* Waits for the load on the default stream, reading the board's power every
 * 20 ms once SETTLE_S have passed: *w gets the median reading (0 when there
 * were none), *n their count. An error of the load ends the wait; the
 * caller's synchronisation reports it. */
static void clock_wait_power(gc_power_t *pw, double *w, int *n)
{
    enum { MAXP = 512 };
    double x[MAXP], t0 = gc_host_seconds();
    int m = 0;
    while (cudaStreamQuery(0) == cudaErrorNotReady) {
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
        double v;
        if (pw && m < MAXP && gc_host_seconds() - t0 >= SETTLE_S && gc_power_read_w(pw, &v) == 0)
            x[m++] = v;
    }
    *n = m;
    *w = 0;
    if (m) {
        double lo, hi;
        gc_stats_median(x, m, w, &lo, &hi);
    }
}

/* The trailer's power words for the load (watts from clock_wait_power). */
static void power_words(char *buf, size_t n, const clk_t *c, double w, int nw)
{
    if (nw > 0)
        snprintf(buf, n, "; board power %.0f W (NVML, median of %d readings)", w, nw);
    else
        snprintf(buf, n, "; board power not read (%s)", c->pw ? "NVML gave no reading" : "no NVML");
}

/* Starts the memory load: allocates and fills the copy buffers (freed
 * by the caller), then launches k_clk_mem with as many blocks as can run
 * at once. Returns 0 or the first CUDA error. */
static int clock_start_memory(clk_t *c, gc_err_t *err)
{
    size_t n16 = c->n16;
    int rc = gc_cuda_check(cudaMalloc(&c->a, n16 * sizeof(uint4)), "allocating the copy source", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c->b, n16 * sizeof(uint4)), "allocating the copy target", err);
    rc = rc ? rc : gc_cuda_check(cudaMemset(c->a, 0x3c, n16 * sizeof(uint4)), "filling the copy source", err);
    if (rc)
        return rc;
    /* as many blocks as can run at once: every block loads the whole time */
    int per = 0;
    rc = gc_cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k_clk_mem, 1024, 0), "sizing the memory load", err);
    if (rc)
        return rc;
    c->mem_blocks = (per > 0 ? per : 1) * c->sms;
    k_clk_mem<<<c->mem_blocks, 1024>>>(c->a, c->b, n16, c->dur, c->d_s, MAXS, c->d_n, c->d_cnt);
    return 0;
}

/* Starts the tensor load: random f16 in [-1, 1) from a fixed LCG, copied
 * to the device, then k_clk_tensor on one block per SM. Returns 0 or the
 * first CUDA error. */
static int clock_start_tensor(clk_t *c, int want, gc_err_t *err)
{
    enum { NR = 4096 };
    __half hr[NR];
    uint32_t s = 12345;
    for (int i = 0; i < NR; i++) {
        s = s * 1664525u + 1013904223u;
        hr[i] = __float2half((float)((int)(s >> 9) - (1 << 22)) / (float)(1 << 22));
    }
    int rc = gc_cuda_check(cudaMalloc(&c->d_rnd, sizeof(hr)), "allocating random data", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(c->d_rnd, hr, sizeof(hr), cudaMemcpyHostToDevice), "copying random data", err);
    if (rc)
        return rc;
    k_clk_tensor<<<c->sms, 256>>>(c->d_rnd, c->dur, c->d_s, MAXS, c->d_n, c->d_cnt, c->d_sink, c->d_kind, want);
    return 0;
}

/* Writes the metadata line describing load li (memory, or the tensor
 * kernel kind the device ran: 1 wgmma, 2 mma.sync, else none) with its
 * rate (bytes or FMAs per second). Returns the writer's status. */
static int clock_load_meta(const clk_t *c, int li, int kind, double rate, const char *pwr)
{
    gc_mctx_t *ctx = c->ctx;
    gc_trace_writer_t *w = c->w;
    int sms = c->sms;
    if (li == 0)
        return gc_trace_put_meta(w, "memory_load", "copy of %zu MiB between two buffers by %d blocks x 1024 threads, 16-byte accesses: %.1f GB/s (read + write)%s",
                                 (c->n16 * sizeof(uint4)) >> 20, c->mem_blocks, rate / 1e9, pwr);
    const char *key = li == 1 ? "tensor_load" : "tensor_mma_load";
    if (kind == 1)
        return gc_trace_put_meta(w, key, "wgmma.m64n64k16.f32.f16.f16 ss, random f16, 2 warpgroups x %d SMs: %.1f TFLOP/s (SASS: %ld HGMMA)%s", sms, 2 * rate / 1e12,
                                 ctx->sass ? gc_sass_count(ctx->sass, "k_clk_tensor", "HGMMA") : -1L, pwr);
    if (kind == 2)
        return gc_trace_put_meta(w, key, "mma.sync.m16n8k16.f32.f16.f16, random f16, 8 warps x %d SMs: %.1f TFLOP/s (SASS: %ld HMMA)%s", sms, 2 * rate / 1e12,
                                 ctx->sass ? gc_sass_count(ctx->sass, "k_clk_tensor", "HMMA") : -1L, pwr);
    return gc_trace_put_meta(w, key, "no tensor-core kernel for this GPU: the row is the idle clock of a spinning kernel%s", pwr);
}

/* Runs load li (0 memory, 1 tensor, 2 tensor_mma), reads its clock samples and
 * counter, and writes its row and its metadata line. Returns 0 or the
 * first error. */
static int clock_load(clk_t *c, int li, gc_err_t *err)
{
    static const char *const names[3] = {"memory", "tensor", "tensor_mma"};
    const char *name = names[li];
    int rc = gc_cuda_check(cudaMemset(c->d_cnt, 0, sizeof(*c->d_cnt)), "clearing a counter", err);
    rc = rc ? rc : gc_cuda_check(cudaMemset(c->d_kind, 0xff, sizeof(int)), "clearing", err);
    if (rc)
        return rc;
    rc = li == 0 ? clock_start_memory(c, err) : clock_start_tensor(c, li, err);
    if (rc)
        return rc;
    int nsmp = 0, kind = 0, npw = 0;
    unsigned long long cnt = 0;
    double watts = 0;
    clock_wait_power(c->pw, &watts, &npw);
    rc = gc_mem_sync(li == 0 ? "running the memory load" : "running a tensor load", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(&nsmp, c->d_n, sizeof(int), cudaMemcpyDeviceToHost), "reading samples", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(&cnt, c->d_cnt, sizeof(cnt), cudaMemcpyDeviceToHost), "reading the load", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(&kind, c->d_kind, sizeof(int), cudaMemcpyDeviceToHost), "reading the load", err);
    if (rc)
        return rc;
    if (nsmp < 2 || nsmp > MAXS)
        return gc_err_set(err, GC_ERUN, "%s load: %d clock samples", name, nsmp);
    gc_clk_sample_t *h_s = c->h_s;
    rc = gc_cuda_check(cudaMemcpy(h_s, c->d_s, sizeof(gc_clk_sample_t) * (size_t)nsmp, cudaMemcpyDeviceToHost), "reading samples", err);
    double med = 0, lo = 0, hi = 0, secs = 0;
    rc = rc ? rc : clocks_of(h_s, nsmp, &med, &lo, &hi, &secs, err);
    if (rc)
        return rc;
    double total_s = (double)(h_s[nsmp - 1].ns - h_s[0].ns) / 1e9;
    double rate = total_s > 0 ? (double)cnt / total_s : 0;
    if ((rc = GC_MEM_ROW(c->w, err, "%s,%.1f,%.1f,%.1f,%.3f", name, med, lo, hi, secs)) != 0)
        return rc;
    char pwr[96];
    power_words(pwr, sizeof(pwr), c, watts, npw);
    if (clock_load_meta(c, li, kind, rate, pwr))
        return gc_mem_row_err(c->w, err);
    return 0;
}

/* The clock bench: the idle row, then the clock under a memory load and
 * under a tensor load; frees every buffer on every path. Returns 0 or
 * the first error. */
static int run_clock(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    int rc = gc_measure_columns(w, "clock");
    if (rc)
        return gc_err_set(err, rc, "%s", gc_trace_writer_err(w)->msg);
    if ((rc = clock_idle(ctx, w, err)) != 0)
        return rc;
    clk_t c;
    memset(&c, 0, sizeof(c));
    c.ctx = ctx;
    c.w = w;
    c.sms = ctx->dev.sms;
    double run_s = SETTLE_S + (ctx->quick ? 0.3 : 1.05);
    c.dur = (unsigned long long)(run_s * 1e9);
    c.n16 = (ctx->quick ? 256u : 1024u) << 16; /* 16-byte elements: 1 GiB (quick 256 MiB) */
    char bus[32];
    int dev = 0;
    if (cudaGetDevice(&dev) == cudaSuccess && cudaDeviceGetPCIBusId(bus, sizeof(bus), dev) == cudaSuccess)
        c.pw = gc_power_open(bus, NULL);
    rc = gc_cuda_check(cudaMalloc(&c.d_s, sizeof(c.h_s)), "allocating clock samples", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c.d_n, sizeof(int)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c.d_kind, sizeof(int)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c.d_cnt, sizeof(*c.d_cnt)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c.d_sink, sizeof(float)), "allocating", err);
    for (int li = 0; li < 3 && !rc; li++) {
        gc_progress(ctx, li + 1 + (ctx->quick ? 5 : 50), (ctx->quick ? 5 : 50) + 3,
                    li == 0 ? "memory" : li == 1 ? "tensor" : "tensor (mma.sync)");
        if (gc_resume_skip(ctx, 1))
            continue;
        rc = clock_load(&c, li, err);
        cudaFree(c.a);
        cudaFree(c.b);
        c.a = c.b = NULL;
    }
    cudaFree(c.d_s);
    cudaFree(c.d_n);
    cudaFree(c.d_kind);
    cudaFree(c.d_cnt);
    cudaFree(c.d_rnd);
    cudaFree(c.d_sink);
    gc_power_close(c.pw);
    return rc;
}

extern "C" const gc_bench_t gc_bench_clock = {
    "clock",
    "SM clock sustained at idle, under a DRAM-bound and under a tensor-bound load",
    run_clock,
    gc_mem_sass_clock,
    gc_mem_sass_clock_n,
    0,
    1,
};
