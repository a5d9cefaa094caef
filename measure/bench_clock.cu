/* bench_clock.cu - the `clock` bench: the SM clock against time under each
 * load, until it settles.
 *   - idle:   no load besides the measuring thread (one thread on one SM
 *             spinning on %globaltimer);
 *   - memory: under a DRAM-bound kernel (every SM copies between two 1 GiB
 *             buffers with 16-byte accesses);
 *   - tensor: under a tensor-bound kernel (on sm_90a every SM runs two
 *             warpgroups issuing wgmma.m64n64k16.f32.f16.f16 back to back
 *             from shared memory filled with random f16 in [-1, 1); other
 *             GPUs run mma.sync.m16n8k16 HMMA on random registers);
 *   - tensor_mma: under mma.sync.m16n8k16 HMMA on random registers, 8 warps
 *             per SM, on every GPU (on Hopper the kernels that cannot use
 *             wgmma: Ampere-style GEMMs, FlashAttention-2; they draw less
 *             power than wgmma and hold a higher clock);
 *   - fma:    under CUDA-core FP32 work: every SM full of warps (as many
 *             1024-thread blocks as fit), each thread running 8 independent
 *             FFMA chains on random non-zero registers (the SIMT SGEMMs'
 *             inner loop: cuBLAS's sm80_xmma ffma and cutlass simt kernels);
 *   - tensor_d25, _d50, _d75 and tensor_mma_d25, _d50, _d75: the tensor
 *             and tensor_mma loads' instructions, but each SM works only
 *             for the first 25, 50 or 75 % of every 16 us (by %globaltimer;
 *             each SM's period shifted by its block's share of one, so the
 *             bursts are spread evenly over time) and sleeps the rest
 *             (__nanosleep; the other warps wait at a barrier). Their
 *             activity is their tensor rate per SM clock over the full
 *             load's (column tensor_fma_clk_sm; the trailer says it): the
 *             clock the GPU holds at partial tensor-pipe use. They run
 *             after the five full loads, only where the full load ran the
 *             same instructions (wgmma: sm_90a);
 *   - tensor_vary: the full wgmma load with operands that change from one
 *             instruction to the next (eight A/B tile pairs in turn), as in a
 *             matrix product; the tensor load feeds the same tiles every
 *             time, and a datapath that does not toggle draws less. Runs
 *             last, where wgmma runs (sm_90a);
 *   - l2:     under reads the L2 holds: every SM full of warps reading a
 *             buffer of a quarter of the L2 with 16-byte loads that skip
 *             the L1, over and over (the bytes a GEMM's tiles move from the
 *             L2; with the memory load's DRAM copy, the power that traffic
 *             draws). Runs last.
 * The memory and l2 loads' rows give the bytes they moved per second
 * (column gbs), every load's row the SM clock NVML reports over its last
 * second (nvml_mhz: the clock the driver sets, which the SMs' own cycle
 * rate can run below) and the GPU's temperature then (temp_c), and the trailer the board's enforced power limit
 * (power_limit_w, NVML) where NVML gives it.
 * Under load, thread 0 of block 0 records (%globaltimer, clock64) every
 * 10 ms into pinned host memory the host reads while the load runs; the
 * host reads the board's power (NVML, instantaneous where the driver gives
 * it) every 10 ms too. The load runs until its clock settles: the median
 * clock of the intervals of its last second moves by less than 0.5 % from
 * the median of the second before (at least 2 s), or until 4 s have passed
 * (quick: windows of 0.25 s, at most 0.6 s); the host then raises a stop
 * flag the kernel polls. Each load writes its row (part `settled` or
 * `unsettled`: the last second's median clock, its 95 % interval, how long
 * it ran, the power over that second) and then its curve: one `sample` row
 * per 50 ms (mean clock over the bin, its end time, the median power read
 * in it). The load's own rate (GB/s, TFLOP/s) and power go into the
 * trailer so a reader can see the load was real. A load the GPU fails is
 * a warning and a trailer line (`<load>_load: failed: ...`); the next load
 * still runs. Writes OUT/clock.csv. */
#include <cuda_fp16.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "mem_sass.h"
#include "mem_util.cuh"
#include "power.h"
#include "tma_bulk.cuh"

enum { MAXS = 1024, SAMPLE_NS = 10000000, MAXP = 1024, MAXBINS = 256, NRND = 4096 };
/* the tensor_tma load: bytes of one bulk copy, and the ring of copies in
 * flight per warpgroup (its shared memory: 2 x TT_RING x TT_BYTES) */
enum { TT_BYTES = 12288, TT_RING = 3 };
static const double TOL = 0.005; /* settled: the last window's median within 0.5 % */
static const double BIN_S = 0.05; /* the curve's rows */
static const double POLL_S = 0.01; /* the host's power readings and settling checks */

/* The control block in pinned host memory: the samples the sampler
 * writes, their count (written after them), and the host's stop. */
typedef struct clk_ctl {
    gc_clk_sample_t s[MAXS];
    int n;
    int stop;
} clk_ctl_t;

/* What every load kernel gets: the control block (its device address),
 * the device flag every block polls, and the longest the load may run. */
typedef struct clk_args {
    clk_ctl_t *ctl;
    int *dstop;
    unsigned long long dur_ns;
} clk_args_t;

/* The sampler's step at time t: every SAMPLE_NS a sample (then its count,
 * after a system fence, so the host never reads half a sample), and the
 * host's stop relayed to the device flag the blocks poll. */
static __device__ __forceinline__ void clk_sample(const clk_args_t &a, int *ns,
                                                  unsigned long long *next, unsigned long long t)
{
    if (t < *next)
        return;
    *next = t + SAMPLE_NS;
    if (*ns < MAXS) {
        volatile gc_clk_sample_t *p = &a.ctl->s[*ns];
        p->ns = t;
        p->cyc = gc_clock();
        __threadfence_system();
        *(volatile int *)&a.ctl->n = ++*ns;
    }
    if (*(volatile int *)&a.ctl->stop)
        *(volatile int *)a.dstop = 1;
}

/* 1 once the load should end: its time is up or the host said stop. */
static __device__ __forceinline__ int clk_done(const clk_args_t &a, unsigned long long start,
                                               unsigned long long t)
{
    return t - start >= a.dur_ns || *(volatile int *)a.dstop;
}

/* No load: the calling thread samples until the load should end. */
static __device__ void clk_spin(const clk_args_t &ca)
{
    unsigned long long start = gc_globaltimer(), next = 0;
    int ns = 0;
    for (;;) {
        unsigned long long t = gc_globaltimer();
        clk_sample(ca, &ns, &next, t);
        if (clk_done(ca, start, t))
            break;
    }
}

/* The idle load: one thread on one SM sampling. */
__global__ void k_clk_idle(clk_args_t ca)
{
    clk_spin(ca);
}

/* DRAM-bound: copy a -> b over and over until the load ends. */
__global__ void __launch_bounds__(1024, GC_MEM_MINB) k_clk_mem(const uint4 *a, uint4 *b, size_t n,
                                                  clk_args_t ca, unsigned long long *bytes)
{
    /* 32-bit indices (n < 2^32 16-byte elements) and the sampler's state in
     * shared memory: the loop fits in the 32 registers full occupancy
     * leaves, without spilling */
    __shared__ unsigned long long next;
    __shared__ int ns;
    unsigned G = gridDim.x * blockDim.x, m = (unsigned)n;
    unsigned i0 = blockIdx.x * blockDim.x + threadIdx.x;
    int sampler = blockIdx.x == 0 && threadIdx.x == 0;
    unsigned long long start = gc_globaltimer();
    unsigned iters = 0;
    if (sampler)
        next = 0, ns = 0;
    for (;;) {
        for (unsigned i = i0; i + 3 * G < m; i += 4 * G) {
            uint4 v0 = a[i], v1 = a[i + G], v2 = a[i + 2 * G], v3 = a[i + 3 * G];
            b[i] = v0;
            b[i + G] = v1;
            b[i + 2 * G] = v2;
            b[i + 3 * G] = v3;
            iters++;
        }
        unsigned long long t = gc_globaltimer();
        if (sampler)
            clk_sample(ca, &ns, &next, t);
        if (clk_done(ca, start, t))
            break;
    }
    atomicAdd(bytes, (unsigned long long)iters * 8 * sizeof(uint4));
}

/* L2-bound: every thread reads a (n 16-byte elements, a buffer the L2
 * holds) with 16-byte loads that skip the L1 (ld.global.cg), four in
 * flight, striding by the grid and wrapping at the end, 64 steps between
 * two looks at the timer, until the load ends (every thread busy: the
 * buffer is larger than the grid); the words are folded into one register
 * so the loads stay (written out only if it comes to an impossible value). */
__global__ void __launch_bounds__(1024, GC_MEM_MINB) k_clk_l2(const uint4 *a, size_t n,
                                                 clk_args_t ca, unsigned long long *bytes,
                                                 unsigned *sink)
{
    __shared__ unsigned long long next;
    __shared__ int ns;
    unsigned G = gridDim.x * blockDim.x, m = (unsigned)n;
    unsigned i = (blockIdx.x * blockDim.x + threadIdx.x) % m;
    int sampler = blockIdx.x == 0 && threadIdx.x == 0;
    unsigned long long start = gc_globaltimer(), steps = 0;
    unsigned x = 0;
    if (sampler)
        next = 0, ns = 0;
    for (;;) {
#pragma unroll 4
        for (int r = 0; r < 64; r++) {
            unsigned i1 = i + G >= m ? i + G - m : i + G;
            unsigned i2 = i1 + G >= m ? i1 + G - m : i1 + G;
            unsigned i3 = i2 + G >= m ? i2 + G - m : i2 + G;
            uint4 v0 = __ldcg(a + i), v1 = __ldcg(a + i1), v2 = __ldcg(a + i2), v3 = __ldcg(a + i3);
            x ^= v0.x ^ v1.y ^ v2.z ^ v3.w;
            i = i3 + G >= m ? i3 + G - m : i3 + G;
        }
        steps += 64;
        unsigned long long t = gc_globaltimer();
        if (sampler)
            clk_sample(ca, &ns, &next, t);
        if (clk_done(ca, start, t))
            break;
    }
    if (x == 0x9e3779b9u)
        sink[0] = x;
    atomicAdd(bytes, steps * 4 * sizeof(uint4));
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
 * sets *stop once the load should end; returns *stop, the same in every
 * thread. Inlined so the kernel's code is unchanged. */
static __device__ __forceinline__ int clk_tick(int *stop, int sampler, const clk_args_t &a,
                                               int *ns, unsigned long long *next,
                                               unsigned long long start)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long t = gc_globaltimer();
        if (sampler)
            clk_sample(a, ns, next, t);
        *stop = clk_done(a, start, t);
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
/* The tensor_tma load's stream: the first thread of each warpgroup keeps
 * TT_RING bulk copies of TT_BYTES in flight from its own part of src (an
 * array the L2 holds) into the block's dynamic shared memory, one more
 * after every 8 wgmmas, as a matrix product's producer feeds its stages.
 * n: the copies this warpgroup issued so far. */
typedef struct tt_stream {
    const char *src;
    size_t part;       /* bytes of src this warpgroup cycles through */
    uint32_t ring, bar; /* its stages and their barriers (shared addresses) */
    unsigned long long n;
} tt_stream_t;

static __device__ __forceinline__ void tt_next(tt_stream_t *t)
{
    int s = (int)(t->n % TT_RING);
    uint32_t b = t->bar + 8u * (uint32_t)s;
    if (t->n >= TT_RING) /* the stage's copy before this one has landed */
        bar_wait(b, (uint32_t)((t->n / TT_RING - 1) & 1));
    bar_expect(b, TT_BYTES);
    tma_bulk(t->ring + (uint32_t)s * TT_BYTES,
             (uint64_t)(t->src + (t->n * TT_BYTES) % t->part), TT_BYTES, b);
    t->n++;
}

/* Waits for the copies still in flight (a block must not end before them). */
static __device__ __forceinline__ void tt_drain(const tt_stream_t *t)
{
    for (unsigned long long i = t->n > TT_RING ? t->n - TT_RING : 0; i < t->n; i++)
        bar_wait(t->bar + 8u * (uint32_t)(i % TT_RING), (uint32_t)((i / TT_RING) & 1));
}

/* The wgmma load of k_clk_tensor: two warpgroups issue
 * wgmma.m64n64k16.f32.f16.f16 from shared memory until the load ends, the
 * eight wgmmas in a row on NP pairs of A and B tiles (64 x 16 random f16
 * each) in turn: NP = 1 the tensor load, the same tiles every time; NP = 8
 * the tensor_vary load, operands changing every instruction as in a matrix
 * product (a datapath that does not toggle draws less); TMA = 1 (with NP =
 * 8) the tensor_tma load, which also streams src_bytes of src into shared
 * memory by bulk copies as the wgmmas run (tt_next). Returns the wgmmas
 * this warpgroup issued, *acc the accumulators' sum. */
template <int NP, int TMA>
static __device__ unsigned long long clk_wgmma(const __half *rnd, const clk_args_t &ca,
                                               int sampler, int *ns, float *acc,
                                               const char *src, size_t src_bytes)
{
    __shared__ int stop;
    __shared__ __align__(8) uint64_t bars[2 * TT_RING];
    extern __shared__ __align__(128) unsigned char tt_ring[];
    int lead = threadIdx.x % 128 == 0, wg = (int)(threadIdx.x / 128);
    tt_stream_t tt = {src, 0, 0, 0, 0};
    if (TMA) {
        size_t part = src_bytes / (2 * gridDim.x) / TT_BYTES * TT_BYTES;
        tt.part = part > 0 ? part : TT_BYTES;
        tt.src = src + (size_t)(2 * blockIdx.x + wg) * part;
        tt.ring = gc_smem_addr(tt_ring) + (uint32_t)(wg * TT_RING * TT_BYTES);
        tt.bar = gc_smem_addr(&bars[wg * TT_RING]);
        if (threadIdx.x < 2 * TT_RING)
            bar_init(gc_smem_addr(&bars[threadIdx.x]));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    unsigned long long start = gc_globaltimer(), next = 0, done = 0;
    /* 8x8 core matrices, no swizzle */
    __shared__ __align__(1024) __half sa[NP][64 * 16], sb[NP][64 * 16];
    for (int t = 0; t < NP; t++)
        for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) {
            sa[t][i] = NP == 1 ? rnd[i] : rnd[(i * 13 + t * 977) % NRND];
            sb[t][i] = NP == 1 ? rnd[64 * 16 + i] : rnd[(i * 29 + t * 1553 + 611) % NRND];
        }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    uint64_t da[NP], db[NP];
#pragma unroll
    for (int t = 0; t < NP; t++) {
        da[t] = gmma_desc(gc_smem_addr(sa[t]), 128, 256);
        db[t] = gmma_desc(gc_smem_addr(sb[t]), 128, 256);
    }
    float d[32];
#pragma unroll
    for (int i = 0; i < 32; i++)
        d[i] = 0.f;
    for (;;) {
        for (int j = 0; j < 32; j++) {
            asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
            for (int k = 0; k < 8; k++)
                wgmma_64x64x16(d, da[k % NP], db[k % NP]);
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
            if (TMA && lead)
                tt_next(&tt);
            asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
        }
        done += 32 * 8;
        if (clk_tick(&stop, sampler, ca, ns, &next, start))
            break;
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    if (TMA && lead)
        tt_drain(&tt);
#pragma unroll
    for (int i = 0; i < 32; i++)
        *acc += d[i];
    return done;
}
#endif

#if __CUDA_ARCH__ >= 800
/* The mma.sync load of k_clk_tensor: every warp runs 4 independent
 * mma.sync.m16n8k16 chains on random registers until the load ends;
 * returns the mmas this warp issued, *acc the accumulators' sum. */
static __device__ unsigned long long clk_mma(const __half *rnd, const clk_args_t &ca, int sampler,
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
        if (clk_tick(&stop, sampler, ca, ns, &next, start))
            break;
    }
    for (int q = 0; q < 4; q++)
        *acc += c[q][0] + c[q][1] + c[q][2] + c[q][3];
    return done;
}
#endif

/* ---- the partial tensor loads: bursts of the same instructions, sleep between ---- */

/* The period of a partial load: each SM works for the first on_ns of every
 * DUTY_NS (its own period shifted by blockIdx.x / gridDim.x of one, so the
 * SMs' bursts are spread evenly over the period and the board draws an even
 * current, as from kernels whose SMs are not in step) and sleeps the rest. */
enum { DUTY_NS = 16000, DUTY_NAP_NS = 500 };

/* One step of a partial load's loop, by the whole block (thread 0 reads the
 * global timer, samples when it is the sampler, judges the end and this
 * SM's place in its period): returns 1 once the load should end; else
 * *wake is 0 while the burst lasts, or the %globaltimer the block sleeps
 * to (the end of its period). The same in every thread. */
static __device__ __forceinline__ int duty_tick(int *stop, unsigned long long *s_wake,
                                                unsigned long long *wake, int sampler,
                                                const clk_args_t &a, int *ns,
                                                unsigned long long *next, unsigned long long start,
                                                unsigned on_ns)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long t = gc_globaltimer();
        if (sampler)
            clk_sample(a, ns, next, t);
        *stop = clk_done(a, start, t);
        unsigned long long ph =
            (t + (unsigned long long)blockIdx.x * DUTY_NS / gridDim.x) % DUTY_NS;
        *s_wake = ph >= on_ns ? t + (DUTY_NS - ph) : 0;
    }
    __syncthreads();
    *wake = *s_wake;
    return *stop;
}

/* The gap of a partial load: thread 0 naps until wake, the other threads
 * wait at the barrier (neither issues work). Block 0's thread 0, the
 * sampler, polls the timer without napping instead, so the SM whose
 * clock64 the samples read never stops issuing (one thread's loop). */
static __device__ __forceinline__ void duty_sleep(unsigned long long wake)
{
    if (threadIdx.x == 0)
        while (gc_globaltimer() < wake)
            if (blockIdx.x)
                __nanosleep(DUTY_NAP_NS);
    __syncthreads();
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* The partial wgmma load: clk_wgmma's instructions in steps of 2 x 8
 * wgmmas (one group kept in flight as there) while the SM's burst lasts;
 * the gap starts after every wgmma has completed. Returns the wgmmas issued
 * by this thread's warpgroup, *acc the accumulators' sum. */
static __device__ unsigned long long clk_wgmma_duty(const __half *rnd, const clk_args_t &ca,
                                                    int sampler, int *ns, float *acc,
                                                    unsigned on_ns)
{
    __shared__ int stop;
    __shared__ unsigned long long s_wake;
    unsigned long long start = gc_globaltimer(), next = 0, done = 0, wake = 0;
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
        for (int j = 0; j < 2; j++) {
            asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
            for (int k = 0; k < 8; k++)
                wgmma_64x64x16(d, da, db);
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
            asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
        }
        done += 2 * 8;
        if (duty_tick(&stop, &s_wake, &wake, sampler, ca, ns, &next, start, on_ns))
            break;
        if (wake) {
            asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
            duty_sleep(wake);
        }
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#pragma unroll
    for (int i = 0; i < 32; i++)
        *acc += d[i];
    return done;
}
#endif

#if __CUDA_ARCH__ >= 800
/* The partial mma.sync load: clk_mma's instructions in steps of 32 x 4
 * while the SM's burst lasts. Returns the mmas this warp issued, *acc the
 * accumulators' sum. */
static __device__ unsigned long long clk_mma_duty(const __half *rnd, const clk_args_t &ca,
                                                  int sampler, int *ns, float *acc, unsigned on_ns)
{
    __shared__ int stop;
    __shared__ unsigned long long s_wake;
    unsigned long long start = gc_globaltimer(), next = 0, done = 0, wake = 0;
    int lane = threadIdx.x % 32;
    unsigned a[4], b[2];
    for (int i = 0; i < 4; i++)
        a[i] = ((const unsigned *)rnd)[lane * 4 + i];
    for (int i = 0; i < 2; i++)
        b[i] = ((const unsigned *)rnd)[256 + lane * 2 + i];
    float c[4][4] = {};
    for (;;) {
        for (int j = 0; j < 32; j++) {
#pragma unroll
            for (int q = 0; q < 4; q++)
                mma_16x8x16(c[q], a, b);
        }
        done += 32 * 4;
        if (duty_tick(&stop, &s_wake, &wake, sampler, ca, ns, &next, start, on_ns))
            break;
        if (wake)
            duty_sleep(wake);
    }
    for (int q = 0; q < 4; q++)
        *acc += c[q][0] + c[q][1] + c[q][2] + c[q][3];
    return done;
}
#endif

/* Fills n words of a with pseudo-random bits (an LCG per word), so that
 * the tensor_tma load's copies toggle shared memory as real operands do. */
__global__ void k_clk_fill(unsigned *a, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        a[i] = (unsigned)(i * 2654435761u) * 1664525u + 1013904223u;
}

/* Tensor-bound until the load ends. want: 1 = wgmma where this GPU has it
 * (else mma.sync), 2 = mma.sync, 3 = wgmma with operands changing, 4 = the
 * same fed by bulk copies of src (src_bytes, the L2 holds it). on_ns: 0 = the full load; else the
 * partial load working on_ns of every DUTY_NS. *kind tells what ran: 1 =
 * wgmma, 2 = mma.sync, 0 = neither compiled for this GPU. ops counts
 * multiply-adds. */
__global__ void __launch_bounds__(256, 1) k_clk_tensor(const __half *rnd, clk_args_t ca,
                                                       unsigned long long *ops, float *sink,
                                                       int *kind, int want, unsigned on_ns,
                                                       const char *src, size_t src_bytes)
{
    int sampler = blockIdx.x == 0 && threadIdx.x == 0;
    int ns = 0, ran = 0;
    float acc = 0;
    unsigned long long fma = 0;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    if (want == 1 || want == 3 || want == 4) {
        unsigned long long done =
            want == 4 ? clk_wgmma<8, 1>(rnd, ca, sampler, &ns, &acc, src, src_bytes)
            : want == 3 ? clk_wgmma<8, 0>(rnd, ca, sampler, &ns, &acc, NULL, 0)
            : on_ns     ? clk_wgmma_duty(rnd, ca, sampler, &ns, &acc, on_ns)
                        : clk_wgmma<1, 0>(rnd, ca, sampler, &ns, &acc, NULL, 0);
        fma = threadIdx.x % 128 == 0 ? done * 64ull * 64 * 16 : 0;
        ran = 1;
    }
#endif
#if __CUDA_ARCH__ >= 800
    if (!ran) {
        unsigned long long done = on_ns ? clk_mma_duty(rnd, ca, sampler, &ns, &acc, on_ns)
                                        : clk_mma(rnd, ca, sampler, &ns, &acc);
        fma = threadIdx.x % 32 == 0 ? done * 16ull * 8 * 16 : 0;
        ran = 2;
    }
#endif
    if (!ran && sampler) /* no tensor-core kernel for this GPU: an idle clock */
        clk_spin(ca);
    (void)rnd, (void)want, (void)ns, (void)on_ns, (void)src, (void)src_bytes;
    if (fma)
        atomicAdd(ops, fma);
    if (threadIdx.x == 0 && blockIdx.x == 0)
        *kind = ran;
    if (acc == 1234.5f)
        sink[0] = acc;
}

/* CUDA-core FP32 until the load ends: every thread runs 8 independent FFMA
 * chains, the multiplicands 8 random non-zero registers; step 2i adds x y
 * to a chain and step 2i + 1 takes the same product back (-x y), so the
 * accumulators stay near their random start (no overflow, no denormals)
 * while every operand changes from one FFMA to the next. ops counts the
 * FFMAs (one per thread each). */
__global__ void __launch_bounds__(1024, GC_MEM_MINB) k_clk_fma(const float *rnd, clk_args_t ca,
                                                  unsigned long long *ops, float *sink)
{
    __shared__ int stop;
    int sampler = blockIdx.x == 0 && threadIdx.x == 0;
    unsigned long long start = gc_globaltimer(), next = 0, done = 0;
    int ns = 0;
    unsigned id = (blockIdx.x * blockDim.x + threadIdx.x) * 16u;
    float x[4], y[4], acc[8];
    for (int i = 0; i < 4; i++) {
        x[i] = rnd[(id + i) % NRND];
        y[i] = rnd[(id + 4 + i) % NRND];
    }
    for (int q = 0; q < 8; q++)
        acc[q] = rnd[(id + 8 + q) % NRND];
    for (;;) {
#pragma unroll 4
        for (int j = 0; j < 64; j++) {
#pragma unroll
            for (int s = 0; s < 8; s++) {
#pragma unroll
                for (int q = 0; q < 8; q++) {
                    float v = x[(q + s / 2) & 3];
                    acc[q] = __fmaf_rn(s & 1 ? -v : v, y[q & 3], acc[q]);
                }
            }
        }
        done += 64 * 64;
        if (clk_tick(&stop, sampler, ca, &ns, &next, start))
            break;
    }
    float sum = 0;
    for (int q = 0; q < 8; q++)
        sum += acc[q];
    if (sum == 1234.5f)
        sink[0] = sum;
    if (threadIdx.x % 32 == 0)
        atomicAdd(ops, done * 32);
}

/* ---- the host side ---- */

enum {
    L_IDLE,
    L_MEM,
    L_TENSOR,
    L_MMA,
    L_FMA,
    L_T25,
    L_T50,
    L_T75,
    L_M25,
    L_M50,
    L_M75,
    L_L2,
    L_TV,
    L_TT,
    NLOADS
};

/* The loads in the order they run: name (the trace's `load`), progress
 * label, and for a partial tensor load the full load it is a part of and
 * the share of each period it works (permille; 0: not a partial load).
 * The partial loads come after the five full ones, so those run as they
 * always did; the l2, tensor_vary and tensor_tma loads, newer still, run
 * last. */
static const struct {
    const char *name, *label;
    int base, duty_pm;
} loads[NLOADS] = {
    {"idle", "idle", -1, 0},
    {"memory", "memory", -1, 0},
    {"tensor", "tensor", -1, 0},
    {"tensor_mma", "tensor (mma.sync)", -1, 0},
    {"fma", "fma (FP32)", -1, 0},
    {"tensor_d25", "tensor at 25 %", L_TENSOR, 250},
    {"tensor_d50", "tensor at 50 %", L_TENSOR, 500},
    {"tensor_d75", "tensor at 75 %", L_TENSOR, 750},
    {"tensor_mma_d25", "tensor (mma.sync) at 25 %", L_MMA, 250},
    {"tensor_mma_d50", "tensor (mma.sync) at 50 %", L_MMA, 500},
    {"tensor_mma_d75", "tensor (mma.sync) at 75 %", L_MMA, 750},
    {"l2", "l2 (reads the L2 holds)", -1, 0},
    {"tensor_vary", "tensor, operands changing", -1, 0},
    {"tensor_tma", "tensor, operands changing, fed by TMA", -1, 0},
};

/* State of the bench: the plan (SMs, the longest run and the settling
 * window in seconds, the copy size in 16-byte elements), the block counts
 * of the memory and FMA loads, the device buffers, the control block, and
 * the power readings and curve of the load now running. */
typedef struct clk {
    gc_mctx_t *ctx;
    gc_trace_writer_t *w;
    int sms, mem_blocks, fma_blocks, l2_blocks;
    double cap_s, win_s;
    size_t n16, l2n16; /* the copy's and the l2 load's 16-byte elements */
    uint4 *a, *b;
    clk_ctl_t *ctl, *d_ctl; /* pinned host memory and its device address */
    int *d_stop, *d_kind;
    unsigned long long *d_cnt;
    __half *d_rnd;
    float *d_frnd, *d_sink;
    int kind[NLOADS];        /* tensor loads: what ran (1 wgmma, 2 mma.sync; 0: not run) */
    double fma_clk[NLOADS];  /* tensor loads: multiply-adds per SM clock per SM */
    double gbs[NLOADS];      /* memory and l2 loads: GB moved per second (read + write);
                              * tensor_tma: GB its bulk copies brought per second */
    gc_power_t *pw; /* NULL: no NVML */
    gc_pw_sample_t pws[MAXP];
    int npw;
    gc_pw_sample_t clks[MAXP]; /* NVML's SM clock (MHz) at each reading */
    int nclk;
    gc_pw_sample_t temps[MAXP]; /* the GPU's temperature (C) at each reading */
    int ntemp;
    gc_clk_bin_t bins[MAXBINS];
} clk_t;

/* Waits for the load on the default stream: every POLL_S reads the
 * board's power (into c->pws, seconds since t0) and judges the samples so
 * far; once the clock has settled, tells the kernel to stop. An error of
 * the load ends the wait; the caller's synchronisation reports it. */
static void clock_watch(clk_t *c, double t0)
{
    volatile clk_ctl_t *ctl = c->ctl;
    c->npw = 0;
    c->nclk = 0;
    c->ntemp = 0;
    while (cudaStreamQuery(0) == cudaErrorNotReady) {
        struct timespec ts = {0, (long)(POLL_S * 1e9)};
        nanosleep(&ts, NULL);
        double v;
        if (c->pw && c->npw < MAXP && gc_power_read_w(c->pw, &v) == 0)
            c->pws[c->npw++] = (gc_pw_sample_t){gc_host_seconds() - t0, v};
        if (c->pw && c->nclk < MAXP && gc_power_clock_mhz(c->pw, &v) == 0)
            c->clks[c->nclk++] = (gc_pw_sample_t){gc_host_seconds() - t0, v};
        if (c->pw && c->ntemp < MAXP && gc_power_temp_c(c->pw, &v) == 0)
            c->temps[c->ntemp++] = (gc_pw_sample_t){gc_host_seconds() - t0, v};
        gc_clk_settle_t st;
        int n = ctl->n;
        if (!ctl->stop && gc_clk_settle(c->ctl->s, n, c->win_s, TOL, &st) == 0 && st.settled)
            ctl->stop = 1;
    }
}

/* Fills what every load shares once: the control block, the flags and
 * counters, random f16 in [-1, 1) for the tensor loads and random non-zero
 * f32 in [-1, 1) for the FMA load (a fixed LCG), and the block counts of
 * the memory and FMA loads (as many as can run at once). Returns 0 or the
 * first CUDA error. */
static int clock_setup(clk_t *c, gc_err_t *err)
{
    static __half hr[NRND];
    static float fr[NRND];
    uint32_t s = 12345;
    for (int i = 0; i < NRND; i++) {
        s = s * 1664525u + 1013904223u;
        float v = (float)((int)(s >> 9) - (1 << 22)) / (float)(1 << 22);
        hr[i] = __float2half(v);
        fr[i] = v != 0 ? v : 0.5f;
    }
    int rc = gc_cuda_check(cudaHostAlloc((void **)&c->ctl, sizeof(*c->ctl), cudaHostAllocMapped), "allocating the clock samples (pinned host memory)", err);
    rc = rc ? rc : gc_cuda_check(cudaHostGetDevicePointer((void **)&c->d_ctl, c->ctl, 0), "mapping the clock samples", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c->d_stop, sizeof(int)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c->d_kind, sizeof(int)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c->d_cnt, sizeof(*c->d_cnt)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c->d_sink, sizeof(float)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c->d_rnd, sizeof(hr)), "allocating random data", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&c->d_frnd, sizeof(fr)), "allocating random data", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(c->d_rnd, hr, sizeof(hr), cudaMemcpyHostToDevice), "copying random data", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(c->d_frnd, fr, sizeof(fr), cudaMemcpyHostToDevice), "copying random data", err);
    int pm = 0, pf = 0, pl = 0;
    rc = rc ? rc : gc_cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pm, k_clk_mem, 1024, 0), "sizing the memory load", err);
    rc = rc ? rc : gc_cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pf, k_clk_fma, 1024, 0), "sizing the FMA load", err);
    rc = rc ? rc : gc_cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pl, k_clk_l2, 1024, 0), "sizing the L2 load", err);
    c->mem_blocks = (pm > 0 ? pm : 1) * c->sms;
    c->fma_blocks = (pf > 0 ? pf : 1) * c->sms;
    c->l2_blocks = (pl > 0 ? pl : 1) * c->sms;
    /* the l2 load's stride wraps once at most: at least two grids of elements */
    size_t grid = (size_t)c->l2_blocks * 1024;
    if (c->l2n16 < 2 * grid)
        c->l2n16 = 2 * grid;
    return rc;
}

/* Frees what clock_setup and the memory load allocated (NULLs are fine). */
static void clock_teardown(clk_t *c)
{
    cudaFree(c->a);
    cudaFree(c->b);
    cudaFree(c->d_stop);
    cudaFree(c->d_kind);
    cudaFree(c->d_cnt);
    cudaFree(c->d_sink);
    cudaFree(c->d_rnd);
    cudaFree(c->d_frnd);
    if (c->ctl)
        cudaFreeHost(c->ctl);
    gc_power_close(c->pw);
}

/* Starts load li on the default stream (the memory load first allocates
 * and fills its copy buffers, freed by the caller). Returns 0 or the first
 * CUDA error. */
static int clock_start(clk_t *c, int li, gc_err_t *err)
{
    clk_args_t ca = {c->d_ctl, c->d_stop, (unsigned long long)(c->cap_s * 1e9)};
    size_t bytes = c->n16 * sizeof(uint4);
    int rc = 0;
    if (li == L_IDLE) {
        k_clk_idle<<<1, 1>>>(ca);
    } else if (li == L_MEM) {
        rc = gc_cuda_check(cudaMalloc(&c->a, bytes), "allocating the copy source", err);
        rc = rc ? rc : gc_cuda_check(cudaMalloc(&c->b, bytes), "allocating the copy target", err);
        rc = rc ? rc : gc_cuda_check(cudaMemset(c->a, 0x3c, bytes), "filling the copy source", err);
        if (rc)
            return rc;
        k_clk_mem<<<c->mem_blocks, 1024>>>(c->a, c->b, c->n16, ca, c->d_cnt);
    } else if (li == L_L2) {
        size_t lb = c->l2n16 * sizeof(uint4);
        rc = gc_cuda_check(cudaMalloc(&c->a, lb), "allocating the L2 load's buffer", err);
        rc = rc ? rc : gc_cuda_check(cudaMemset(c->a, 0x3c, lb), "filling the L2 load's buffer", err);
        if (rc)
            return rc;
        k_clk_l2<<<c->l2_blocks, 1024>>>(c->a, c->l2n16, ca, c->d_cnt, (unsigned *)c->d_sink);
    } else if (li == L_TT) {
        size_t lb = c->l2n16 * sizeof(uint4), smem = 2 * TT_RING * TT_BYTES;
        rc = gc_cuda_check(cudaMalloc(&c->a, lb), "allocating the tensor_tma load's buffer", err);
        if (rc)
            return rc;
        k_clk_fill<<<c->sms, 256>>>((unsigned *)c->a, lb / 4);
        rc = gc_cuda_check(cudaFuncSetAttribute(k_clk_tensor, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem), "allowing the tensor_tma load's shared memory", err);
        if (rc)
            return rc;
        k_clk_tensor<<<c->sms, 256, smem>>>(c->d_rnd, ca, c->d_cnt, c->d_sink, c->d_kind, 4, 0, (const char *)c->a, lb);
    } else if (li == L_FMA) {
        k_clk_fma<<<c->fma_blocks, 1024>>>(c->d_frnd, ca, c->d_cnt, c->d_sink);
    } else {
        int base = loads[li].base >= 0 ? loads[li].base : li;
        unsigned on_ns = (unsigned)((long)DUTY_NS * loads[li].duty_pm / 1000);
        int want = li == L_TV ? 3 : base == L_TENSOR ? 1 : 2;
        k_clk_tensor<<<c->sms, 256>>>(c->d_rnd, ca, c->d_cnt, c->d_sink, c->d_kind, want, on_ns, NULL, 0);
    }
    return gc_cuda_check(cudaGetLastError(), "launching a clock load", err);
}

/* The trailer's power words for a load whose row ends at t_s (watts: the
 * median over its last window, 0 when none was read). */
static void power_words(char *buf, size_t n, const clk_t *c, double watts, double t_s)
{
    int m = 0;
    for (int i = 0; i < c->npw; i++)
        m += c->pws[i].t_s > t_s - c->win_s && c->pws[i].t_s <= t_s;
    if (watts > 0)
        snprintf(buf, n, "; board power %.0f W over its last %.2f s (NVML %s, median of %d readings)",
                 watts, c->win_s, gc_power_instant(c->pw) ? "instantaneous" : "1-s average", m);
    else
        snprintf(buf, n, "; board power not read (%s)", c->pw ? "NVML gave no reading" : "no NVML");
}

/* The metadata line of partial load li: what ran, its rate (FMAs per
 * second and per SM clock per SM) and its activity (that rate over its full
 * load's). Returns the writer's status. */
static int clock_duty_meta(const clk_t *c, int li, double rate, const char *pwr)
{
    char key[48];
    snprintf(key, sizeof(key), "%s_load", loads[li].name);
    int b = loads[li].base;
    const char *what = b == L_TENSOR ? "wgmma.m64n64k16.f32.f16.f16 ss, random f16, 2 warpgroups"
                                     : "mma.sync.m16n8k16.f32.f16.f16, random f16, 8 warps";
    return gc_trace_put_meta(c->w, key, "%s x %d SMs working %.0f %% of every %d us (the SMs' periods staggered over it), __nanosleep the rest: %.1f TFLOP/s, %.1f FMA/clk/SM: activity %.3f of the %s load's %.1f FMA/clk/SM%s",
                             what, c->sms, loads[li].duty_pm / 10.0, DUTY_NS / 1000, 2 * rate / 1e12, c->fma_clk[li],
                             c->fma_clk[li] / c->fma_clk[b], loads[b].name, c->fma_clk[b], pwr);
}

/* Writes the metadata line describing load li (for the tensor loads, the
 * kernel kind the device ran: 1 wgmma, 2 mma.sync, else none) with its rate
 * (bytes or FMAs per second). Returns the writer's status. */
static int clock_load_meta(const clk_t *c, int li, int kind, double rate, const char *pwr)
{
    gc_mctx_t *ctx = c->ctx;
    gc_trace_writer_t *w = c->w;
    int sms = c->sms;
    if (loads[li].base >= 0)
        return clock_duty_meta(c, li, rate, pwr);
    if (li == L_IDLE)
        return gc_trace_put_meta(w, "idle_load", "none: one thread on one SM reading %%globaltimer and clock64%s", pwr);
    if (li == L_L2)
        return gc_trace_put_meta(w, "l2_load", "reads of %zu MiB (a quarter of the L2) over and over by %d blocks x 1024 threads, 16-byte ld.global.cg (L1 skipped), four in flight, every thread striding by the grid: %.1f GB/s%s",
                                 (c->l2n16 * sizeof(uint4)) >> 20, c->l2_blocks, rate / 1e9, pwr);
    if (li == L_MEM)
        return gc_trace_put_meta(w, "memory_load", "copy of %zu MiB between two buffers by %d blocks x 1024 threads, 16-byte accesses: %.1f GB/s (read + write)%s",
                                 (c->n16 * sizeof(uint4)) >> 20, c->mem_blocks, rate / 1e9, pwr);
    if (li == L_FMA)
        return gc_trace_put_meta(w, "fma_load", "FFMA on random non-zero f32 registers, 8 chains per thread, %d blocks x 1024 threads: %.1f TFLOP/s (SASS: %ld FFMA)%s", c->fma_blocks, 2 * rate / 1e12,
                                 ctx->sass ? gc_sass_count(ctx->sass, "k_clk_fma", "FFMA") : -1L, pwr);
    const char *key = li == L_TENSOR ? "tensor_load" : li == L_TV ? "tensor_vary_load" : li == L_TT ? "tensor_tma_load" : "tensor_mma_load";
    if (kind == 1 && li == L_TT)
        return gc_trace_put_meta(w, key, "the tensor_vary load whose first thread of each warpgroup also keeps %d bulk copies (cp.async.bulk) of %d bytes in flight from %zu MiB the L2 holds into shared memory, one more every 8 wgmmas: %.1f TFLOP/s, %.1f GB/s copied%s", TT_RING, TT_BYTES, (c->l2n16 * sizeof(uint4)) >> 20, 2 * rate / 1e12, c->gbs[li], pwr);
    if (kind == 1 && li == L_TV)
        return gc_trace_put_meta(w, key, "wgmma.m64n64k16.f32.f16.f16 ss, random f16, 2 warpgroups x %d SMs, each of 8 wgmmas in a row on its own A and B tiles (operands changing as in a matrix product): %.1f TFLOP/s%s", sms, 2 * rate / 1e12, pwr);
    if (kind == 1)
        return gc_trace_put_meta(w, key, "wgmma.m64n64k16.f32.f16.f16 ss, random f16, 2 warpgroups x %d SMs: %.1f TFLOP/s (SASS: %ld HGMMA)%s", sms, 2 * rate / 1e12,
                                 ctx->sass ? gc_sass_count(ctx->sass, "k_clk_tensor", "HGMMA") : -1L, pwr);
    if (kind == 2)
        return gc_trace_put_meta(w, key, "mma.sync.m16n8k16.f32.f16.f16, random f16, 8 warps x %d SMs: %.1f TFLOP/s (SASS: %ld HMMA)%s", sms, 2 * rate / 1e12,
                                 ctx->sass ? gc_sass_count(ctx->sass, "k_clk_tensor", "HMMA") : -1L, pwr);
    return gc_trace_put_meta(w, key, "no tensor-core kernel for this GPU: the row is the idle clock of a spinning kernel%s", pwr);
}

/* Writes load li's row (its settled or unsettled clock: the median over
 * the last window, how long it ran, the power over that window into
 * *watts, its tensor rate per SM clock) and its curve (one sample row per
 * bin). Returns 0 or the writer's error. */
static int clock_rows(clk_t *c, int li, const gc_clk_settle_t *st, double *watts, gc_err_t *err)
{
    const char *name = loads[li].name;
    *watts = gc_clk_power(c->pws, c->npw, st->t_s - c->win_s, st->t_s);
    double nvml = gc_clk_power(c->clks, c->nclk, st->t_s - c->win_s, st->t_s);
    double temp = gc_clk_power(c->temps, c->ntemp, st->t_s - c->win_s, st->t_s);
    int rc = GC_MEM_ROW(c->w, err, "%s,%.1f,%.1f,%.1f,%.3f,%s,%.3f,%.1f,%.2f,%.1f,%.0f,%.0f",
                        name, st->med, st->lo, st->hi, c->win_s,
                        st->settled ? "settled" : "unsettled", st->t_s, *watts, c->fma_clk[li],
                        c->gbs[li], nvml, temp);
    int nb = gc_clk_bins(c->ctl->s, c->ctl->n, c->pws, c->npw, BIN_S, c->bins, MAXBINS);
    for (int i = 0; i < nb && !rc; i++) {
        const gc_clk_bin_t *b = &c->bins[i];
        rc = GC_MEM_ROW(c->w, err, "%s,%.1f,%.1f,%.1f,%.3f,sample,%.3f,%.1f,0,0,0,0", name, b->mhz,
                        b->mhz, b->mhz, b->len_s, b->t_s, b->w);
    }
    return rc;
}

/* Runs load li on the GPU until its clock settles (or its time is up):
 * its multiply-add count and kernel kind into *cnt and *kind, the settling
 * into *st. Returns 0 or the first CUDA error (nothing written yet). */
static int clock_run(clk_t *c, int li, unsigned long long *cnt, int *kind, gc_clk_settle_t *st,
                     gc_err_t *err)
{
    memset(c->ctl, 0, sizeof(*c->ctl));
    int rc = gc_cuda_check(cudaMemset(c->d_cnt, 0, sizeof(*c->d_cnt)), "clearing a counter", err);
    rc = rc ? rc : gc_cuda_check(cudaMemset(c->d_stop, 0, sizeof(int)), "clearing", err);
    rc = rc ? rc : gc_cuda_check(cudaMemset(c->d_kind, 0xff, sizeof(int)), "clearing", err);
    rc = rc ? rc : clock_start(c, li, err);
    if (rc)
        return rc;
    clock_watch(c, gc_host_seconds());
    rc = gc_mem_sync("running a clock load", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(cnt, c->d_cnt, sizeof(*cnt), cudaMemcpyDeviceToHost), "reading the load", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(kind, c->d_kind, sizeof(int), cudaMemcpyDeviceToHost), "reading the load", err);
    if (rc)
        return rc;
    int n = c->ctl->n;
    if (n < 2 || n > MAXS || gc_clk_settle(c->ctl->s, n, c->win_s, TOL, st) != 0)
        return gc_err_set(err, GC_ERUN, "%s load: %d clock samples, too few to judge its clock", loads[li].name, n);
    return 0;
}

/* Runs load li, then writes its row, its curve and its metadata line.
 * Returns 0 or the first error; *wrote 0 when the error came before
 * anything was written (the GPU's: the bench goes on with the next load). */
static int clock_load(clk_t *c, int li, int *wrote, gc_err_t *err)
{
    int kind = 0;
    unsigned long long cnt = 0;
    gc_clk_settle_t st;
    *wrote = 0;
    int rc = clock_run(c, li, &cnt, &kind, &st, err);
    if (rc)
        return rc;
    *wrote = 1;
    const gc_clk_sample_t *s = c->ctl->s;
    int n = c->ctl->n;
    double total_s = (double)(s[n - 1].ns - s[0].ns) / 1e9;
    double cyc = (double)(s[n - 1].cyc - s[0].cyc);
    double rate = total_s > 0 ? (double)cnt / total_s : 0, watts = 0;
    int tensor = li == L_TENSOR || li == L_MMA || li == L_TV || li == L_TT || loads[li].base >= 0;
    c->kind[li] = tensor ? kind : 0;
    c->fma_clk[li] = tensor && (kind == 1 || kind == 2) && cyc > 0 ? (double)cnt / c->sms / cyc : 0;
    c->gbs[li] = li == L_MEM || li == L_L2 ? rate / 1e9 : 0;
    if (li == L_TT) /* one copy per warpgroup every 8 wgmmas of 64 x 64 x 16 */
        c->gbs[li] = rate / (8.0 * 64 * 64 * 16) * TT_BYTES / 1e9;
    if ((rc = clock_rows(c, li, &st, &watts, err)) != 0)
        return rc;
    char pwr[160];
    power_words(pwr, sizeof(pwr), c, watts, st.t_s);
    if (clock_load_meta(c, li, kind, rate, pwr))
        return gc_mem_row_err(c->w, err);
    return 0;
}

/* 1 when partial load li can run: its full load ran the same kind of
 * tensor instruction (wgmma for tensor, mma.sync for tensor_mma) at a rate. */
static int clock_can_run(const clk_t *c, int li)
{
    int b = li == L_TV || li == L_TT ? L_TENSOR : loads[li].base;
    return b < 0 || (c->kind[b] == (b == L_TENSOR ? 1 : 2) && c->fma_clk[b] > 0);
}

/* Each load in turn until its clock settles. A load the GPU fails is a
 * warning and a trailer line, and the next load runs; an error writing the
 * trace ends the bench. Returns 0, the writer's error, or the first GPU
 * error when no load ran. */
static int clock_loads(clk_t *c, gc_err_t *err)
{
    int ran = 0, rc = 0;
    gc_err_t first;
    gc_err_clear(&first);
    for (int li = 0; li < NLOADS; li++) {
        char key[48];
        snprintf(key, sizeof(key), "%s_load", loads[li].name);
        gc_progress(c->ctx, li + 1, NLOADS, loads[li].label);
        if (!clock_can_run(c, li)) {
            int b = li == L_TV || li == L_TT ? L_TENSOR : loads[li].base;
            if (gc_trace_put_meta(c->w, key, "not run: the %s load did not run %s on this GPU", loads[b].name, b == L_TENSOR ? "wgmma" : "mma.sync"))
                return gc_mem_row_err(c->w, err);
            continue;
        }
        int wrote = 0;
        gc_err_t e;
        gc_err_clear(&e);
        rc = clock_load(c, li, &wrote, &e);
        cudaFree(c->a);
        cudaFree(c->b);
        c->a = c->b = NULL;
        if (rc && wrote) {
            *err = e;
            return rc;
        }
        if (rc) {
            fprintf(stderr, "gpucal measure: warning: clock: the %s load failed (%s); going on with the next\n", loads[li].name, e.msg);
            if (!first.code)
                first = e;
            if (gc_trace_put_meta(c->w, key, "failed: %s", e.msg))
                return gc_mem_row_err(c->w, err);
            continue;
        }
        ran++;
    }
    if (!ran && first.code) {
        *err = first;
        return first.code;
    }
    return 0;
}

/* The clock bench: the full loads (idle, memory, tensor, tensor_mma, fma),
 * then the partial tensor loads, each until its clock settles; frees every
 * buffer on every path. Returns 0 or the first error. */
static int run_clock(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    int rc = gc_measure_columns(w, "clock");
    if (rc)
        return gc_err_set(err, rc, "%s", gc_trace_writer_err(w)->msg);
    clk_t *c = (clk_t *)calloc(1, sizeof(*c));
    if (!c)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    c->ctx = ctx;
    c->w = w;
    c->sms = ctx->dev.sms;
    c->cap_s = ctx->quick ? 0.6 : 4.0;
    c->win_s = ctx->quick ? 0.25 : 1.0;
    c->n16 = (ctx->quick ? 256u : 1024u) << 16; /* 16-byte elements: 1 GiB (quick 256 MiB) */
    long l2 = ctx->dev.l2_bytes > 0 ? ctx->dev.l2_bytes : 4L << 20;
    c->l2n16 = (size_t)(l2 / 4) / sizeof(uint4); /* a quarter of the L2 */
    char bus[32];
    int dev = 0;
    if (cudaGetDevice(&dev) == cudaSuccess && cudaDeviceGetPCIBusId(bus, sizeof(bus), dev) == cudaSuccess)
        c->pw = gc_power_open(bus, NULL);
    rc = clock_setup(c, err);
    if (!rc)
        rc = clock_loads(c, err);
    double lim = 0;
    if (!rc && gc_power_limit_w(c->pw, &lim) == 0 &&
        gc_trace_put_meta(w, "power_limit_w", "%.1f", lim))
        rc = gc_mem_row_err(w, err);
    clock_teardown(c);
    free(c);
    return rc;
}

extern "C" const gc_bench_t gc_bench_clock = {
    "clock",
    "SM clock against time, idle and under DRAM, tensor (wgmma, mma.sync; full and partial) and FP32 (FFMA) load, until it settles",
    run_clock,
    gc_mem_sass_clock,
    gc_mem_sass_clock_n,
    0,
    0,
};
