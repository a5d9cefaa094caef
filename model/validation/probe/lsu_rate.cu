// lsu_rate.cu - how many narrow global loads, asynchronous copies and shared stores an SM
// issues a cycle, every SM busy: the load/store path of the GEMM kernels cuBLAS runs for
// unaligned shapes (cutlass_75 ... align1: 2-byte ld.global staged in registers, then
// st.shared; cutlass_80 ... align2: 4-byte cp.async), which ncu sees stalled on the
// global and MIO queues (data/h200/diag_summary.csv, g104 g105 g106).
//
// Every warp of 264 or 1056 blocks (2 or 8 a SM) x 128 threads runs, per iteration, U = 8
// independent accesses of one kind; lanes consecutive. Global sources: a 16 MiB buffer
// (the L2 holds it, the L1 does not), each warp walking it from its own start, so that the
// lines an SM touches far exceed its L1. Kinds:
//   ldg2   ld.global.u16          (64 bytes a warp)      ldg4  ld.global.u32 (128)
//   ldg16  ld.global.v4.u32       (512)
//   cpa4   cp.async.ca 4 bytes    (128)                  cpa8  cp.async.ca 8 (256)
//   cpg16  cp.async.cg 16 bytes   (512)
//   sts2   st.shared.u16          (64, no global)
//   ldg2+sts2  one of each, the sm75 kernels' pair
// cycles = clock64 over the loop, the slowest warp; rate = warp instructions per SM cycle.
// Under ncu (data/h200/lsu_ncu.csv) a 4-byte cp.async of consecutive lanes takes one L1
// wavefront, a 2-byte load one: the 4-5 of cuBLAS's unaligned kernels come from their thread
// maps (gemm_build.c). The cpg16 row is not the L2's rate: ncu counts 2.2 sectors a
// cp.async.cg of 16 bytes there, not 16 (not understood; nothing uses that row).
// Prints CSV: kind,warps_sm,iters,cyc,inst_clk_sm,bytes_clk_sm (global bytes, or shared for sts2).
// `lsu_rate ncu` runs each kind once (2 blocks an SM, 64 iterations) for ncu's counts.
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o lsu_rate lsu_rate.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#include "probe.cuh"

enum { K_LDG2, K_LDG4, K_LDG16, K_CPA4, K_CPA8, K_CPG16, K_STS2, K_PAIR, K_N };
static const char *const kname[K_N] = {"ldg2", "ldg4", "ldg16", "cpa4", "cpa8", "cpg16", "sts2",
                                       "ldg2+sts2"};
static const int kbytes[K_N] = {64, 128, 512, 128, 256, 512, 64, 64};
enum { U = 8 };
static const size_t BUF = (size_t)16 << 20;

template <int K>
__global__ void k_lsu(const uint8_t *g, uint32_t *sink, long long *cyc, int iters)
{
    __shared__ __align__(128) uint8_t sm[U * 512 * 4];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int gw = blockIdx.x * (blockDim.x >> 5) + warp;
    const int step = K == K_LDG16 || K == K_CPG16 ? 512 : K == K_CPA8 ? 256
                     : K == K_LDG4 || K == K_CPA4 ? 128 : 64;
    /* each warp walks the buffer from its own start (the SM's warps together
     * touch far more than its L1 holds: every access misses it) */
    size_t off = ((size_t)gw * 40961 * 512) & (BUF - 1), pos = 0;
    uint32_t acc = 0, sbase = (uint32_t)__cvta_generic_to_shared(sm) + warp * 0;
    __syncthreads();
    long long t0 = clock64();
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int u = 0; u < U; u++) {
            const uint8_t *p = g + ((off + pos) & (BUF - 1));
            uint32_t so = sbase + (uint32_t)((u * 512 + warp * 64) % (U * 512 * 4));
            if (K == K_LDG2 || K == K_PAIR) {
                unsigned short v;
                asm volatile("ld.global.u16 %0, [%1];" : "=h"(v) : "l"(p + 2 * lane));
                acc += v;
                if (K == K_PAIR)
                    asm volatile("st.shared.u16 [%0], %1;" ::"r"(so + 2 * lane), "h"(v));
            } else if (K == K_LDG4) {
                uint32_t v;
                asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p + 4 * lane));
                acc += v;
            } else if (K == K_LDG16) {
                uint32_t a, b, c, d;
                asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];"
                             : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(p + 16 * lane));
                acc += a ^ b ^ c ^ d;
            } else if (K == K_CPA4) {
                asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(so + 4 * lane),
                             "l"(p + 4 * lane));
            } else if (K == K_CPA8) {
                asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(so + 8 * lane),
                             "l"(p + 8 * lane));
            } else if (K == K_CPG16) {
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(
                                 (sbase + (uint32_t)((u * 512) % (U * 512 * 4))) + 16 * lane),
                             "l"(p + 16 * lane));
            } else if (K == K_STS2) {
                asm volatile("st.shared.u16 [%0], %1;" ::"r"(so + 2 * lane),
                             "h"((unsigned short)(acc + u)));
            }
            pos += step;
        }
        if (K == K_CPA4 || K == K_CPA8 || K == K_CPG16)
            asm volatile("cp.async.commit_group;\ncp.async.wait_group 4;" ::: "memory");
    }
    if (K == K_CPA4 || K == K_CPA8 || K == K_CPG16)
        asm volatile("cp.async.wait_all;" ::: "memory");
    long long t1 = clock64();
    __syncthreads();
    acc += sm[threadIdx.x];
    sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    if (lane == 0)
        cyc[gw] = t1 - t0;
}

typedef void (*kfn)(const uint8_t *, uint32_t *, long long *, int);

int main(int argc, char **argv)
{
    /* `lsu_rate ncu`: each kind once, 8 warps an SM, 64 iterations: for a profiler's
     * counts per instruction (wavefronts, sectors) */
    int ncu = argc > 1 && argv[1][0] == 'n';
    int dev = 0, sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    uint8_t *g;
    uint32_t *sink;
    long long *dcyc;
    CK(cudaMalloc(&g, BUF));
    CK(cudaMemset(g, 1, BUF));
    CK(cudaMalloc(&sink, (size_t)sms * 8 * 128 * 4));
    CK(cudaMalloc(&dcyc, (size_t)sms * 8 * 4 * sizeof(long long)));
    kfn ks[K_N] = {k_lsu<K_LDG2>, k_lsu<K_LDG4>, k_lsu<K_LDG16>, k_lsu<K_CPA4>,
                   k_lsu<K_CPA8>, k_lsu<K_CPG16>, k_lsu<K_STS2>, k_lsu<K_PAIR>};
    const int iters = ncu ? 64 : 2048;
    printf("kind,warps_sm,iters,cyc,inst_clk_sm,bytes_clk_sm\n");
    for (int k = 0; k < K_N; k++)
        for (int bps : {2, 8}) {
            if (ncu && bps != 2)
                continue;
            int blocks = sms * bps, nw = blocks * 4;
            double best = 1e30;
            for (int rep = 0; rep < (ncu ? 1 : 3); rep++) {
                ks[k]<<<blocks, 128>>>(g, sink, dcyc, iters);
                CK(cudaGetLastError());
                CK(cudaDeviceSynchronize());
                long long *h = (long long *)malloc(nw * sizeof(long long)), mx = 0;
                CK(cudaMemcpy(h, dcyc, nw * sizeof(long long), cudaMemcpyDeviceToHost));
                for (int w = 0; w < nw; w++)
                    mx = h[w] > mx ? h[w] : mx;
                free(h);
                best = (double)mx < best ? (double)mx : best;
            }
            int wsm = bps * 4;
            double inst = (double)wsm * iters * U * (k == K_PAIR ? 2 : 1);
            double bytes = (double)wsm * iters * U * kbytes[k];
            printf("%s,%d,%d,%.0f,%.4f,%.2f\n", kname[k], wsm, iters, best, inst / best,
                   bytes / best);
        }
    return 0;
}
