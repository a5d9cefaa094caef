// lrc_probe.cu - how many of the SMs' identical L2 reads the L2 request coalescer (LRC)
// merges, by how many CTAs read the same data at once and where those CTAs sit.
//
// ncu shows cuBLAS's small nvjet GEMMs receiving 1.5-2.9x the bytes the L2 slices serve
// (data/h200/diag_l2_lrc.csv): cluster multicast, and beyond it identical requests merged
// in hardware, 28-75 % of the non-multicast operand's bytes depending on the shape. This
// probe measures that merging on a known access pattern.
//
// Part 1 (the map): 1-CTA-an-SM kernels launched in clusters of 16 (non-portable size) and
// of 2 record %smid per CTA: a cluster lies in one GPC, so the 16-CTA clusters give GPCs'
// SMs, the 2-CTA clusters the SM pairs clusters of 2 take. Printed as
//   map,<cluster_size>,<cluster>,<rank>,<smid>
// Part 2 (the reads): 132 CTAs, one an SM (150 KiB of shared memory each), each reading S
// tiles of 16 KiB in turn (256 threads, four 16-byte ld.global.cg a thread a tile, like a
// GEMM block's operand tile a k step), P passes, the data L2-resident (a warm-up launch
// first). The g CTAs of a group read the same tiles, groups different ones: "near" groups
// neighbouring CTAs (group = blockIdx / g), "far" strides them over the grid (group =
// blockIdx % (132 / g)). Printed as
//   reads,<mode>,<g>,<groups>,<bytes_to_SMs>,<us>,<GB/s>
// with each CTA's SM in smid,<mode>,<g>,<block>,<smid> lines; then the "near" groups again
// with the reads paced like a GEMM's k steps (a barrier after each tile, then 400 cycles of
// waiting: mode "near_paced"); and all three again with TMA ("tma_*": one thread a CTA keeps
// 4 bulk copies of a whole tile in flight, as a GEMM's producer warp does). Under ncu (--ncu: each
// configuration launched once, after its warm-up, in the order printed), the LRC's counters
// give the bytes read from the L2 slices against the bytes delivered to the GPCs.
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o lrc_probe lrc_probe.cu
// Never changes clocks.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include "probe.cuh"

static const int TILE = 16384;    /* bytes a tile: a 128 x 64 f16 operand tile */
static const int THREADS = 256;   /* 4 x 16 bytes a thread a tile */
static const int SMEM = 150 * 1024; /* one CTA an SM */

/* Part 1: each CTA writes its SM; launched in clusters. */
__global__ void k_map(unsigned *out)
{
    extern __shared__ unsigned char pad[];
    if (threadIdx.x == 0) {
        out[blockIdx.x] = smid();
        pad[0] = 0;
    }
}

/* Part 2: block b reads the S tiles of its group, P passes; far: group = b % groups. */
__global__ void __launch_bounds__(THREADS) k_reads(const uint4 *a, int g, int far, int S, int P,
                                                   long long pace, unsigned *where,
                                                   unsigned *sink)
{
    extern __shared__ unsigned char pad[];
    int groups = gridDim.x / g;
    int grp = far ? blockIdx.x % groups : blockIdx.x / g;
    if (grp >= groups)
        grp = groups - 1;
    const uint4 *base = a + (size_t)grp * S * (TILE / 16);
    unsigned x = 0;
    for (int p = 0; p < P; p++)
        for (int s = 0; s < S; s++) {
            const uint4 *t = base + (size_t)s * (TILE / 16);
#pragma unroll
            for (int u = 0; u < 4; u++) {
                uint4 v = ldcg(t + u * THREADS + threadIdx.x);
                x ^= v.x ^ v.y ^ v.z ^ v.w;
            }
            if (pace > 0) { /* a k step's math: the tile used, then this many cycles */
                __syncthreads();
                long long t0 = clock64();
                while (clock64() - t0 < pace)
                    ;
            }
        }
    if (threadIdx.x == 0) {
        where[blockIdx.x] = smid();
        pad[0] = (unsigned char)x;
    }
    if (x == 0x12345678u)
        sink[0] = x;
}

/* Part 2 with TMA, as a GEMM's producer warp loads: one thread of block b keeps NST bulk
 * copies (cp.async.bulk, a whole 16 KiB tile each) in flight into a ring of shared memory,
 * waiting for a stage's copy before reusing it (and then `pace` cycles: the consumers' k
 * step); the groups as k_reads's. */
static const int NST = 4;

__device__ __forceinline__ unsigned saddr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void bar_wait(unsigned b, unsigned phase)
{
    asm volatile("{\n\t.reg .pred P1;\n"
                 "LRC_WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@!P1 bra LRC_WAIT;\n}" ::"r"(b), "r"(phase)
                 : "memory");
}

__global__ void k_tma(const unsigned char *a, int g, int far, int S, int P, long long pace,
                      unsigned *where, unsigned *sink)
{
    extern __shared__ __align__(128) unsigned char ring[];
    unsigned long long *bars = (unsigned long long *)(ring + NST * TILE);
    if (threadIdx.x != 0)
        return;
    int groups = gridDim.x / g;
    int grp = far ? blockIdx.x % groups : blockIdx.x / g;
    if (grp >= groups)
        grp = groups - 1;
    const unsigned char *base = a + (size_t)grp * S * TILE;
    for (int st = 0; st < NST; st++)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(saddr(&bars[st])) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    unsigned phase = 0; /* bit st: the parity stage st waits for next */
    int n = S * P;
    for (int i = 0; i < n + NST; i++) {
        int st = i % NST;
        unsigned b = saddr(&bars[st]);
        if (i >= NST) { /* the copy that used this stage NST tiles ago */
            bar_wait(b, (phase >> st) & 1);
            phase ^= 1u << st;
            if (pace > 0) {
                long long t0 = clock64();
                while (clock64() - t0 < pace)
                    ;
            }
        }
        if (i >= n)
            continue;
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(TILE)
                     : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                     "[%0], [%1], %2, [%3];" ::"r"(saddr(ring + st * TILE)),
                     "l"(base + (size_t)(i % S) * TILE), "r"(TILE), "r"(b)
                     : "memory");
    }
    where[blockIdx.x] = smid();
    if (ring[0] == 0x12 && ring[TILE] == 0x34)
        sink[0] = 1;
}

static void map(int csize, int sms)
{
    int n = sms / csize * csize;
    unsigned *d;
    CK(cudaMalloc(&d, n * sizeof(unsigned)));
    CK(cudaFuncSetAttribute(k_map, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CK(cudaFuncSetAttribute(k_map, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    cudaLaunchConfig_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDim = dim3(n);
    cfg.blockDim = dim3(32);
    cfg.dynamicSmemBytes = SMEM;
    cudaLaunchAttribute at;
    at.id = cudaLaunchAttributeClusterDimension;
    at.val.clusterDim.x = csize;
    at.val.clusterDim.y = 1;
    at.val.clusterDim.z = 1;
    cfg.attrs = &at;
    cfg.numAttrs = 1;
    cudaError_t e = cudaLaunchKernelEx(&cfg, k_map, d);
    if (e != cudaSuccess) {
        printf("map,%d,failed,%s\n", csize, cudaGetErrorString(e));
        cudaGetLastError();
        CK(cudaFree(d));
        return;
    }
    CK(cudaDeviceSynchronize());
    unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
    CK(cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        printf("map,%d,%d,%d,%u\n", csize, i / csize, i % csize, h[i]);
    free(h);
    CK(cudaFree(d));
}

int main(int argc, char **argv)
{
    int ncu = argc > 1 && !strcmp(argv[1], "--ncu");
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if (!ncu) {
        map(16, sms);
        map(2, sms);
    }
    const int S = 16, P = ncu ? 4 : 64;
    size_t bytes = (size_t)sms * S * TILE;
    uint4 *a;
    unsigned *where, *sink;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMemset(a, 0x5a, bytes));
    CK(cudaMalloc(&where, sms * sizeof(unsigned)));
    CK(cudaMalloc(&sink, sizeof(unsigned)));
    CK(cudaFuncSetAttribute(k_reads, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    CK(cudaFuncSetAttribute(k_tma, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    static const int gs[] = {1, 2, 4, 6, 11, 12, 22, 33, 44, 66, 132};
    unsigned *h = (unsigned *)malloc(sms * sizeof(unsigned));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    static const char *const mode[6] = {"near", "far", "near_paced", "tma_near", "tma_far",
                                        "tma_near_paced"};
    for (int m = 0; m < 6; m++)
        for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++) {
            int g = gs[i], far = m % 3 == 1;
            long long pace = m % 3 == 2 ? 400 : 0;
            if (sms % g || (far && (g == 1 || g == sms)))
                continue;
            for (int rep = 0; rep < 2; rep++) { /* a warm-up, then the timed launch */
                if (rep)
                    CK(cudaEventRecord(e0));
                if (m < 3)
                    k_reads<<<sms, THREADS, SMEM>>>(a, g, far, S, P, pace, where, sink);
                else
                    k_tma<<<sms, THREADS, SMEM>>>((const unsigned char *)a, g, far, S, P, pace,
                                                  where, sink);
                CK(cudaGetLastError());
            }
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            double moved = (double)sms * S * P * TILE;
            printf("reads,%s,%d,%d,%.0f,%.2f,%.1f\n", mode[m], g, sms / g, moved,
                   ms * 1e3, moved / (ms * 1e-3) / 1e9);
            CK(cudaMemcpy(h, where, sms * sizeof(unsigned), cudaMemcpyDeviceToHost));
            for (int b = 0; b < sms && !ncu; b++)
                printf("smid,%s,%d,%d,%u\n", mode[m], g, b, h[b]);
        }
    free(h);
    CK(cudaFree(a));
    CK(cudaFree(where));
    CK(cudaFree(sink));
    return 0;
}
