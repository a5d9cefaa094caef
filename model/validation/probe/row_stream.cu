// row_stream.cu - DRAM read rate when many warps each stream one short row, as
// PyTorch's reduce_kernel does for a sum over rows (model/validation/README.md,
// rows2): every warp reads rows of S contiguous bytes (row r at r x S), its 32
// lanes 16 bytes each per step, one load in flight per lane (the loop is not
// unrolled and each step's sum needs its load: the SASS of reduce_kernel,
// data/h200/sass/o066), or UNROLL loads in flight. The array (1 GiB) is far
// beyond the L2. Prints one CSV row per (S, warps per SM, loads in flight):
//   row_bytes,warps_sm,inflight,blocks,bytes,us,gbs
// With arguments R S: one row a warp and 16 a block, as reduce_kernel launches a sum
// over R rows of S bytes (warps_sm column: "row"), and an eighth column: the same
// launch's time with no rows (what the events and the launch add to the work).
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o row_stream row_stream.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "probe.cuh"

template <int U>
__global__ void __launch_bounds__(512, 4) k_rows(const uint4 *a, size_t rows, size_t row16,
                                              float *sink)
{
    size_t warp = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    size_t nwarps = (size_t)gridDim.x * blockDim.x / 32;
    unsigned lane = threadIdx.x % 32;
    float acc = 0.f;
    for (size_t r = warp; r < rows; r += nwarps) {
        const uint4 *p = a + r * row16;
#pragma unroll 1
        for (size_t i = lane; i < row16; i += 32 * U) {
            uint4 v[U];
#pragma unroll
            for (int u = 0; u < U; u++)
                v[u] = i + 32 * u < row16 ? __ldcg(p + i + 32 * u) : make_uint4(0, 0, 0, 0);
#pragma unroll
            for (int u = 0; u < U; u++)
                acc += __uint_as_float(v[u].x) + __uint_as_float(v[u].y) +
                       __uint_as_float(v[u].z) + __uint_as_float(v[u].w);
        }
    }
    if (acc == 1234.5f)
        sink[0] = acc;
}

template <int U>
static double run(const uint4 *a, size_t bytes, size_t S, int blocks, float *sink)
{
    size_t row16 = S / 16, rows = bytes / S;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    k_rows<U><<<blocks, 512>>>(a, rows, row16, sink); /* warm-up */
    CK(cudaGetLastError());
    float best = 1e30f;
    for (int rep = 0; rep < 5; rep++) {
        CK(cudaEventRecord(e0));
        k_rows<U><<<blocks, 512>>>(a, rows, row16, sink);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (ms < best)
            best = ms;
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return best * 1e3;
}

/* One row a warp, 16 rows a block, as reduce_kernel launches a sum over rows of S
 * bytes (grid = rows / 16 blocks of 512 threads): the kernel's time for R rows. */
static void one_row_a_warp(const uint4 *a, size_t R, size_t S, float *sink)
{
    int blocks = (int)((R + 15) / 16);
    size_t bytes = R * S;
    double us = run<1>(a, bytes, S, blocks, sink);
    /* the same launch with no rows: what the events add besides the work */
    double empty = run<1>(a, 0, S, blocks, sink);
    printf("%zu,%s,1,%d,%zu,%.2f,%.1f,%.2f\n", S, "row", blocks, bytes, us, bytes / us / 1e3,
           empty);
}

int main(int argc, char **argv)
{
    int sms;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    size_t bytes = (size_t)1 << 30;
    uint4 *a;
    float *sink;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMemset(a, 0x3c, bytes));
    printf("row_bytes,warps_sm,inflight,blocks,bytes,us,gbs\n");
    if (argc == 3) { /* R S: one row a warp (warps_sm: row) */
        one_row_a_warp(a, strtoull(argv[1], NULL, 10), strtoull(argv[2], NULL, 10), sink);
        return 0;
    }
    const size_t sizes[] = {256, 512, 1024, 2048, 4096, 8192, 16384, 65536, 262144};
    for (size_t S : sizes)
        for (int bps = 1; bps <= 4; bps *= 2) {
            int blocks = bps * sms;
            size_t used = bytes / S * S;
            double us1 = run<1>(a, used, S, blocks, sink);
            double us4 = run<4>(a, used, S, blocks, sink);
            printf("%zu,%d,1,%d,%zu,%.2f,%.1f\n", S, 16 * bps, blocks, used, us1, used / us1 / 1e3);
            printf("%zu,%d,4,%d,%zu,%.2f,%.1f\n", S, 16 * bps, blocks, used, us4, used / us4 / 1e3);
        }
    return 0;
}
