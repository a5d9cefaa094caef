// l2_probe.cu - two questions about the L2 that the model's figures answer differently.
//
// 1. Its read bandwidth. The bw bench's sweep (traces/h200/bw.csv:30) reports 4399.6 B/clk
//    (8710 GB/s at 1980 MHz) for 16-byte ld.global.cg reads of an array of L2/5, and the
//    model takes that (memory.l2.bw_v4_bytes_clk); the clock bench's l2 load
//    (traces/h200/clock.csv:543) moved 9830.8 GB/s at 1980 MHz with what looks like the
//    same access. Part 1 times both kernels' access patterns side by side, for fixed work,
//    with CUDA events and the SMs' own clock: every thread reads U 16-byte words in flight
//    a step, striding by the grid, over an array of F MiB, in these grids.
//      stride,<F_MiB>,<blocks>,<threads>,<U>,<bytes>,<us>,<GB/s>,<B/clk>,<MHz>
//    stride: "wrap" walks the clock bench's way (each of the U loads one grid further, the
//    index wrapping at the end of the array), "pass" the bw bench's (whole passes over the
//    array, the U loads of a step one grid apart).
// 2. How much of the L2 a row kernel's re-reads find. PyTorch's cunn_SoftMaxForward reads
//    its row three times, one block of 1024 threads a row, two blocks an SM; the model says
//    the second and third reads hit when the rows in flight fit memory.l2.size_mib. Part 2
//    runs that access (block b reads row b, R KiB, P times, a barrier between passes;
//    16-byte loads, 4 in flight) for P = 1 and 3 over 1024 rows, the L2 left as the
//    previous call left it (as the harness's repeated calls do), and prints
//      rows,<R_KiB>,<resident_MiB>,<us_1pass>,<us_3pass>,<ratio>,<reread_GB/s>
//    resident_MiB = rows in flight (2 a SM) x R; ratio = us_3pass / us_1pass (3 when the
//    re-reads miss like the first read, lower when they hit); reread_GB/s = the re-reads'
//    bytes over (us_3pass - us_1pass).
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o l2_probe l2_probe.cu
// Never changes clocks.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "probe.cuh"

struct clk_t { unsigned long long ns0, ns1; long long c0, c1; };

/* The clock bench's walk: U loads a step, each one grid on from the last, wrapping. */
template <int U>
__global__ void __launch_bounds__(1024) k_wrap(const uint4 *a, unsigned m, int steps, clk_t *ck,
                                                unsigned *sink)
{
    unsigned G = gridDim.x * blockDim.x, i = (blockIdx.x * blockDim.x + threadIdx.x) % m;
    unsigned x = 0;
    if (blockIdx.x == 0 && threadIdx.x == 0) { ck->ns0 = gtimer(); ck->c0 = clock64(); }
    for (int s = 0; s < steps; s++) {
        uint4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            v[u] = ldcg(a + i);
            i = i + G >= m ? i + G - m : i + G;
        }
#pragma unroll
        for (int u = 0; u < U; u++) x ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) { ck->ns1 = gtimer(); ck->c1 = clock64(); }
    if (x == 0x9e3779b9u) sink[0] = x;
}

/* The bw bench's walk: whole passes over the array, U loads a step one grid apart. */
template <int U>
__global__ void __launch_bounds__(1024) k_pass(const uint4 *a, size_t per_thread, int passes,
                                                clk_t *ck, unsigned *sink)
{
    size_t G = (size_t)gridDim.x * blockDim.x, t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = 0;
    if (blockIdx.x == 0 && threadIdx.x == 0) { ck->ns0 = gtimer(); ck->c0 = clock64(); }
    for (int p = 0; p < passes; p++)
        for (size_t i = 0; i < per_thread; i += U) {
            uint4 v[U];
#pragma unroll
            for (int u = 0; u < U; u++) v[u] = ldcg(a + (i + u) * G + t);
#pragma unroll
            for (int u = 0; u < U; u++) x ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
        }
    if (blockIdx.x == 0 && threadIdx.x == 0) { ck->ns1 = gtimer(); ck->c1 = clock64(); }
    if (x == 0x9e3779b9u) sink[0] = x;
}

/* A row kernel: block b reads its row (n16 16-byte words) `passes` times. */
__global__ void __launch_bounds__(1024, 2) k_rows(const uint4 *a, unsigned n16, int passes,
                                                   unsigned *sink)
{
    const uint4 *r = a + (size_t)blockIdx.x * n16;
    unsigned x = 0;
    for (int p = 0; p < passes; p++) {
        for (unsigned i = threadIdx.x; i < n16; i += 4 * blockDim.x) {
            uint4 v[4];
#pragma unroll
            for (int u = 0; u < 4; u++)
                v[u] = i + u * blockDim.x < n16 ? ldcg(r + i + u * blockDim.x) : make_uint4(0, 0, 0, 0);
#pragma unroll
            for (int u = 0; u < 4; u++) x ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
        }
        __syncthreads();
    }
    if (x == 0x9e3779b9u) sink[0] = x;
}

static float median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/* The median of reps launches of launch() timed with events, the first `warm` left out (us). */
template <typename F>
static double time_us(F launch, int reps, int warm, cudaEvent_t e0, cudaEvent_t e1)
{
    std::vector<float> t;
    for (int r = 0; r < reps; r++) {
        CK(cudaEventRecord(e0));
        launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= warm)
            t.push_back(ms);
    }
    CK(cudaGetLastError());
    return median(t) * 1e3;
}

int main()
{
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    size_t big = (size_t)1024 * 256 * 1024; /* 256 MiB: part 2's 1024 rows of up to 256 KiB */
    uint4 *a;
    unsigned *sink;
    clk_t *ck;
    CK(cudaMalloc(&a, big));
    CK(cudaMemset(a, 1, big));
    CK(cudaMalloc(&sink, 64));
    CK(cudaMallocManaged(&ck, sizeof(clk_t)));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    printf("# part 1: stride,F_MiB,blocks,threads,U,bytes,us,GBs,B_clk,MHz\n");
    const int grids[4][2] = {{2, 1024}, {8, 256}, {4, 512}, {16, 128}};
    const int fmib[5] = {4, 8, 12, 15, 24};
    for (int fi = 0; fi < 5; fi++)
        for (int gi = 0; gi < 4; gi++)
            for (int kind = 0; kind < 2; kind++)
                for (int U = 4; U <= 8; U *= 2) {
                    int blocks = grids[gi][0] * sms, threads = grids[gi][1];
                    size_t G = (size_t)blocks * threads;
                    size_t m = (size_t)fmib[fi] << 16; /* 16-byte words */
                    /* the pass walk: whole steps of U words a thread (arrays of fewer
                     * words a thread than U: the wrap walk only) */
                    size_t per = (m / G) / U * U;
                    if (kind == 1 && per == 0)
                        continue;
                    int passes = 256, steps = kind ? (int)(per * passes / U) : (int)(m * 256 / G / U);
                    double bytes = (double)G * steps * U * 16;
                    double us = time_us([&] {
                        if (kind == 0 && U == 4) k_wrap<4><<<blocks, threads>>>(a, (unsigned)m, steps, ck, sink);
                        if (kind == 0 && U == 8) k_wrap<8><<<blocks, threads>>>(a, (unsigned)m, steps, ck, sink);
                        if (kind == 1 && U == 4) k_pass<4><<<blocks, threads>>>(a, per, passes, ck, sink);
                        if (kind == 1 && U == 8) k_pass<8><<<blocks, threads>>>(a, per, passes, ck, sink);
                    }, 6, 1, e0, e1);
                    double mhz = (double)(ck->c1 - ck->c0) * 1e3 / (double)(ck->ns1 - ck->ns0);
                    printf("stride,%s,%d,%d,%d,%d,%.0f,%.1f,%.1f,%.1f,%.1f\n", kind ? "pass" : "wrap",
                           fmib[fi], blocks, threads, U, bytes, us, bytes / us / 1e3,
                           bytes / (us * mhz), mhz);
                    fflush(stdout);
                }
    printf("# part 2: rows,R_KiB,resident_MiB,us_1pass,us_3pass,ratio,reread_GBs\n");
    const int rk[10] = {16, 32, 48, 64, 80, 96, 112, 128, 160, 192};
    for (int ri = 0; ri < 10; ri++) {
        unsigned n16 = rk[ri] * 1024 / 16;
        int rows = 1024;
        double us[2];
        for (int pi = 0; pi < 2; pi++) {
            int passes = pi ? 3 : 1;
            us[pi] = time_us([&] { k_rows<<<rows, 1024>>>(a, n16, passes, sink); }, 12, 2, e0, e1);
        }
        double rb = (double)rows * rk[ri] * 1024;
        printf("rows,%d,%.1f,%.2f,%.2f,%.3f,%.1f\n", rk[ri], 2.0 * sms * rk[ri] / 1024.0, us[0],
               us[1], us[1] / us[0], 2 * rb / ((us[1] - us[0]) * 1e3));
        fflush(stdout);
    }
    return 0;
}
