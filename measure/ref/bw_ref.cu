/* bw_ref.cu - an independent reference for gpucal's DRAM bandwidth: plain
 * vectorised copy, read and write kernels (no gpucal code), each swept over
 * vector width (16 / 32 bytes per thread step), unroll (1 / 2 / 4),
 * threads per block (256 / 512 / 1024), blocks per SM (1 .. 8, as occupancy
 * allows) and cache hint (default / streaming .cs for copy), timed with CUDA
 * events over 1 GiB buffers. Rate = (bytes read + bytes written) / time,
 * best of REPS launches per variant; prints every variant and the best per
 * op. Usage: bw_ref [MiB per buffer, default 1024]. Exit 0, or 1 on a CUDA
 * error. Build: nvcc -O3 -arch=sm_90a -o bw_ref bw_ref.cu */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "bw_ref: %s: %s\n", #x, cudaGetErrorString(e_));                   \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

enum { OP_COPY, OP_READ, OP_WRITE, REPS = 15 };

/* 16 bytes per vector; V vectors (V x 16 bytes) per thread step, U steps
 * unrolled; CS: streaming (evict-first) loads and stores. n16 = number of
 * 16-byte vectors in the buffer. */
template <int V, int U, int CS>
__global__ void k_copy(const int4 *__restrict__ a, int4 *__restrict__ b, size_t n16)
{
    size_t G = (size_t)gridDim.x * blockDim.x * V;
    size_t i0 = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * V;
    for (size_t i = i0; i < n16; i += G * U) {
        int4 v[U][V];
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int k = 0; k < V; k++) {
                size_t j = i + u * G + k;
                if (j < n16)
                    v[u][k] = CS ? __ldcs(a + j) : a[j];
            }
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int k = 0; k < V; k++) {
                size_t j = i + u * G + k;
                if (j < n16) {
                    if (CS)
                        __stcs(b + j, v[u][k]);
                    else
                        b[j] = v[u][k];
                }
            }
    }
}

template <int V, int U, int CS>
__global__ void k_read(const int4 *__restrict__ a, int4 *__restrict__ sink, size_t n16)
{
    size_t G = (size_t)gridDim.x * blockDim.x * V;
    size_t i0 = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * V;
    int x = 0;
    for (size_t i = i0; i < n16; i += G * U) {
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int k = 0; k < V; k++) {
                size_t j = i + u * G + k;
                if (j < n16) {
                    int4 v = CS ? __ldcs(a + j) : __ldg(a + j);
                    x ^= v.x ^ v.y ^ v.z ^ v.w;
                }
            }
    }
    if (x == 0x12345678)
        sink[0] = make_int4(x, x, x, x);
}

template <int V, int U, int CS>
__global__ void k_write(int4 *__restrict__ b, size_t n16)
{
    size_t G = (size_t)gridDim.x * blockDim.x * V;
    size_t i0 = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * V;
    int4 z = make_int4((int)i0, 1, 2, 3);
    for (size_t i = i0; i < n16; i += G * U) {
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int k = 0; k < V; k++) {
                size_t j = i + u * G + k;
                if (j < n16) {
                    if (CS)
                        __stcs(b + j, z);
                    else
                        b[j] = z;
                }
            }
    }
}

typedef struct variant {
    int op, width, unroll, cs;
    const void *fn;
} variant_t;

#define VAR3(V, U, CS)                                                                         \
    {OP_COPY, 16 * V, U, CS, (const void *)k_copy<V, U, CS>},                                  \
        {OP_READ, 16 * V, U, CS, (const void *)k_read<V, U, CS>},                              \
        {OP_WRITE, 16 * V, U, CS, (const void *)k_write<V, U, CS>},
static const variant_t variants[] = {VAR3(1, 1, 0) VAR3(1, 2, 0) VAR3(1, 4, 0) VAR3(2, 1, 0)
                                         VAR3(2, 2, 0) VAR3(1, 1, 1) VAR3(1, 4, 1) VAR3(2, 2, 1)};
static const char *const opname[] = {"copy", "read", "write"};

/* Best and median time in ms of REPS launches of one variant (after one
 * warm-up launch), for `blocks` x `tpb` threads. */
static void time_variant(const variant_t *v, int blocks, int tpb, int4 *a, int4 *b, int4 *sink,
                         size_t n16, float *best, float *med)
{
    void *args3[] = {&a, &b, &n16}, *argsr[] = {&a, &sink, &n16}, *argsw[] = {&b, &n16};
    void **args = v->op == OP_COPY ? args3 : v->op == OP_READ ? argsr : argsw;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float t[REPS];
    CK(cudaLaunchKernel(v->fn, dim3(blocks), dim3(tpb), args, 0, 0));
    for (int r = 0; r < REPS; r++) {
        CK(cudaEventRecord(e0));
        CK(cudaLaunchKernel(v->fn, dim3(blocks), dim3(tpb), args, 0, 0));
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&t[r], e0, e1));
    }
    for (int i = 1; i < REPS; i++) /* insertion sort */
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            float s = t[j];
            t[j] = t[j - 1];
            t[j - 1] = s;
        }
    *best = t[0];
    *med = t[REPS / 2];
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 1024;
    size_t bytes = mib << 20, n16 = bytes / 16;
    cudaDeviceProp pr;
    CK(cudaGetDeviceProperties(&pr, 0));
    int4 *a, *b, *sink;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    CK(cudaMalloc(&sink, 64));
    CK(cudaMemset(a, 1, bytes));
    CK(cudaMemset(b, 0, bytes));
    printf("device %s, %d SMs, %zu MiB per buffer, best of %d launches\n", pr.name,
           pr.multiProcessorCount, mib, REPS);
    printf("op,width_bytes,unroll,streaming,threads,blocks_per_sm,best_gbs,median_gbs\n");
    double best[3] = {0};
    char bestv[3][96] = {"", "", ""};
    static const int tpbs[] = {256, 512, 1024}, bpss[] = {1, 2, 3, 4, 6, 8};
    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
        const variant_t *v = &variants[i];
        for (int ti = 0; ti < 3; ti++)
            for (int bi = 0; bi < 6; bi++) {
                int tpb = tpbs[ti], bps = bpss[bi], occ = 0;
                CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, v->fn, tpb, 0));
                if (bps > occ || tpb * bps > 2048)
                    continue;
                float tb, tm;
                time_variant(v, bps * pr.multiProcessorCount, tpb, a, b, sink, n16, &tb, &tm);
                double mult = v->op == OP_COPY ? 2.0 : 1.0;
                double gb = mult * (double)bytes / 1e6, gbs = gb / tb, gbm = gb / tm;
                printf("%s,%d,%d,%d,%d,%d,%.1f,%.1f\n", opname[v->op], v->width, v->unroll,
                       v->cs, tpb, bps, gbs, gbm);
                if (gbm > best[v->op]) {
                    best[v->op] = gbm;
                    snprintf(bestv[v->op], sizeof(bestv[0]),
                             "width %d B, unroll %d, streaming %d, %d threads x %d blocks/SM",
                             v->width, v->unroll, v->cs, tpb, bps);
                }
            }
    }
    for (int o = 0; o < 3; o++)
        printf("BEST %s %.1f GB/s (median of %d launches; %s)\n", opname[o], best[o], REPS,
               bestv[o]);
    return 0;
}
