// mma_ldsm.cu - does a sub-core overlap mma.sync with ldmatrix when the ldmatrix
// addresses do not wait for earlier loads, as in CUTLASS's and FlashAttention's main
// loops (fragments for the next k step loaded while the mma of this one run)?
//
// The coissue bench (measure/bench_coissue.cu) times ldmatrix as a dependent chain: each
// load's address comes from the one before. At 4 and 8 warps on the SM it sees no overlap
// at all (tensor + ldsm = the sum of the two alone), yet ncu sees cuDNN's
// 256x64_32x4 sm80 conv kernel at 8 warps keep its shared data path 84 % busy and its
// tensor pipe 59 % busy at once (data/h200/diag3_pipes.csv, p002). This probe times, on
// one SM, one block of W warps (4, 8, 12, 16, 32 where the registers allow), per warp and k step:
//   tensor: T = 16 mma.sync.m16n8k16 f32 += bf16 x bf16 on 16 accumulators (independent),
//           operands from fixed registers;
//   ldsm:   L = 4 or 8 ldmatrix.x4 at addresses from the loop counter alone (rotating
//           over 16 KiB of shared memory, 16 B a lane: conflict-free);
//   both:   the two, the mma of step k reading the fragments ldmatrix loaded in step
//           k - 1 (double-buffered registers, as a software-pipelined main loop does);
//   chain:  the coissue bench's pattern for comparison: 2 ldmatrix chains, each address
//           from the previous load's result, beside 4 mma chains (dep = 1 rows).
// cycles a step = (last warp's end - first warp's start) / steps (clock64, SM clock).
// Prints CSV: mode,ldsm_per_step,dep,warps,steps,cyc_step,mma_clk_sm,ldsm_wave_clk_sm
// (mma instructions and ldmatrix.x4 wavefronts, 4 each, per SM cycle).
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o mma_ldsm mma_ldsm.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#include "probe.cuh"

enum { M_TENSOR, M_LDSM, M_BOTH };
enum { T = 16 };

__device__ __forceinline__ void ldsm4(uint32_t addr, uint32_t (&r)[4])
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}

__device__ __forceinline__ void mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/* One k step: the mma read frag `cur`, the loads fill frag `nxt`. */
template <int MODE, int L>
__device__ __forceinline__ void step(float (&c)[T][4], uint32_t (&cur)[L][4], uint32_t (&nxt)[L][4],
                                     uint32_t base, int k)
{
    if (MODE != M_TENSOR)
#pragma unroll
        for (int l = 0; l < L; l++)
            ldsm4(base + (uint32_t)(((k * L + l) & 31) * 512), nxt[l]);
    if (MODE != M_LDSM)
#pragma unroll
        for (int i = 0; i < T; i++)
            mma(c[i], cur[i % L], cur[(i + 1) % L][i & 1], cur[(i + 1) % L][2 + (i & 1)]);
}

template <int MODE, int L>
__global__ void k_pipe(const uint32_t *in, uint32_t *sink, long long *rec, int steps)
{
    __shared__ __align__(128) uint32_t buf[4096]; /* 16 KiB: 32 slots of 512 B */
    for (int i = threadIdx.x; i < 4096; i += blockDim.x)
        buf[i] = in[i] & 0x3eff3effu; /* bf16 pairs below 0.5 */
    __syncthreads();
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    uint32_t base = (uint32_t)__cvta_generic_to_shared(buf) + 16u * lane;
    uint32_t f0[L][4], f1[L][4];
    float c[T][4];
#pragma unroll
    for (int l = 0; l < L; l++)
#pragma unroll
        for (int j = 0; j < 4; j++) {
            f0[l][j] = in[(threadIdx.x * 4 + l * 4 + j) & 4095] & 0x3eff3effu;
            f1[l][j] = f0[l][j];
        }
#pragma unroll
    for (int i = 0; i < T; i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
            c[i][j] = 0;
    __syncthreads();
    long long t0 = clock64();
#pragma unroll 1
    for (int k = 0; k < steps; k += 2) {
        step<MODE, L>(c, f0, f1, base, k);
        step<MODE, L>(c, f1, f0, base, k + 1);
    }
    long long t1 = clock64();
    uint32_t v = 0;
#pragma unroll
    for (int i = 0; i < T; i++)
        v = v * 31u + __float_as_uint(c[i][0] + c[i][3]);
#pragma unroll
    for (int l = 0; l < L; l++)
        v = v * 31u + (f0[l][0] ^ f1[l][3]);
    sink[threadIdx.x] = v;
    if (lane == 0) {
        rec[2 * warp] = t0;
        rec[2 * warp + 1] = t1;
    }
}

/* The coissue bench's pattern: 4 mma chains on fixed operands and/or 2 ldmatrix chains
 * whose next address is this one's result (zeros) plus the address. */
template <int MODE>
__global__ void k_chain(const uint32_t *in, uint32_t *sink, long long *rec, int steps)
{
    __shared__ __align__(128) uint32_t zeros[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        zeros[i] = 0;
    __syncthreads();
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    uint32_t a[4], x[2];
    for (int j = 0; j < 4; j++)
        a[j] = in[(threadIdx.x * 4 + j) & 4095] & 0x3eff3effu;
    float c[4][4] = {};
    for (int i = 0; i < 2; i++)
        x[i] = (uint32_t)__cvta_generic_to_shared(zeros) + 512u * i + 16u * lane;
    __syncthreads();
    long long t0 = clock64();
#pragma unroll 1
    for (int k = 0; k < steps; k += 2)
#pragma unroll
        for (int u = 0; u < 2; u++) {
            if (MODE != M_LDSM)
#pragma unroll
                for (int i = 0; i < 4; i++)
                    mma(c[i], a, a[1], a[2]);
            if (MODE != M_TENSOR)
#pragma unroll
                for (int i = 0; i < 2; i++) {
                    uint32_t r[4];
                    ldsm4(x[i], r);
                    x[i] += r[0] | r[1] | r[2] | r[3];
                }
        }
    long long t1 = clock64();
    uint32_t v = x[0] ^ x[1];
    for (int i = 0; i < 4; i++)
        v = v * 31u + __float_as_uint(c[i][0]);
    sink[threadIdx.x] = v;
    if (lane == 0) {
        rec[2 * warp] = t0;
        rec[2 * warp + 1] = t1;
    }
}

typedef void (*kfn)(const uint32_t *, uint32_t *, long long *, int);

static double time_one(kfn f, int warps, int steps, const uint32_t *din, uint32_t *dsink,
                       long long *drec)
{
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        f<<<1, warps * 32>>>(din, dsink, drec, steps);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        long long h[64];
        CK(cudaMemcpy(h, drec, 2 * warps * sizeof(long long), cudaMemcpyDeviceToHost));
        long long lo = h[0], hi = h[1];
        for (int w = 1; w < warps; w++) {
            lo = h[2 * w] < lo ? h[2 * w] : lo;
            hi = h[2 * w + 1] > hi ? h[2 * w + 1] : hi;
        }
        double c = (double)(hi - lo) / steps;
        best = c < best ? c : best;
    }
    return best;
}

int main()
{
    uint32_t *din, *dsink;
    long long *drec;
    CK(cudaMalloc(&din, 4096 * 4));
    CK(cudaMalloc(&dsink, 1024 * 4));
    CK(cudaMalloc(&drec, 64 * sizeof(long long)));
    uint32_t h[4096];
    srand(7);
    for (int i = 0; i < 4096; i++)
        h[i] = (uint32_t)rand() * 2654435761u;
    CK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
    struct { const char *mode; int l, dep, m; kfn f; } ks[] = {
        {"tensor", 4, 0, M_TENSOR, k_pipe<M_TENSOR, 4>},
        {"ldsm", 4, 0, M_LDSM, k_pipe<M_LDSM, 4>},
        {"both", 4, 0, M_BOTH, k_pipe<M_BOTH, 4>},
        {"ldsm", 8, 0, M_LDSM, k_pipe<M_LDSM, 8>},
        {"both", 8, 0, M_BOTH, k_pipe<M_BOTH, 8>},
        {"tensor", 2, 1, M_TENSOR, k_chain<M_TENSOR>},
        {"ldsm", 2, 1, M_LDSM, k_chain<M_LDSM>},
        {"both", 2, 1, M_BOTH, k_chain<M_BOTH>},
    };
    const int warps_of[] = {4, 8, 12, 16, 32};
    const int steps = 4096;
    printf("mode,ldsm_per_step,dep,warps,steps,cyc_step,mma_clk_sm,ldsm_wave_clk_sm\n");
    for (auto &k : ks)
        for (int w : warps_of) {
            cudaFuncAttributes fa;
            CK(cudaFuncGetAttributes(&fa, (const void *)k.f));
            if (w * 32 > fa.maxThreadsPerBlock)
                continue; /* its registers leave fewer warps a block */
            double c = time_one(k.f, w, steps, din, dsink, drec);
            int mma_step = k.m == M_LDSM ? 0 : (k.dep ? 4 : T);
            int ldsm_step = k.m == M_TENSOR ? 0 : k.l;
            printf("%s,%d,%d,%d,%d,%.3f,%.4f,%.4f\n", k.mode, k.l, k.dep, w, steps, c,
                   mma_step * w / c, 4.0 * ldsm_step * w / c);
        }
    return 0;
}
