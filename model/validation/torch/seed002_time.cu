// Times seed 002's kernels (github.com/spatters/mma-matmul, kernels 1.0 ..
// 3.1) with CUDA events, at the size its runner.cu uses (M = N = K = 4096,
// A row-major M x K, B row-major K x N for 1.x, B transposed (N x K) for
// 2.x / 3.x, C f32 row-major; block 16 x 16; grid and launch exactly as
// runner.cu's run_mma_kernel).  The kernels' source is NOT in this repository:
// run_device.sh compiles this file together with the repository's
// kernel_1.cu, kernel_2.cu, kernel_3.cu and mma_kernels.cuh, carried in
// .dev/seed002 (git-ignored).
//
//   seed002_time time OUT.csv   warm-up 5, then 50 launches each timed with
//                               events (median, min) and 50 back to back
//                               (mean); checks 4096 sampled outputs
//   seed002_time ncu [N]        N launches per kernel, default 4 (1 warm-up + 3;
//                               for ncu)
//   seed002_time occ K B [N]    kernel K (10 .. 31) with B blocks per SM forced
//                               by unused dynamic shared memory, N launches
//                               (default 2; for ncu: occupancy sweeps)
#include <cuda_fp16.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <algorithm>
#include <vector>
#include "mma_kernels.cuh"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

static const int SZ = 4096;

// Fills x[i] with a hash-derived value in [-1, 1) (never zeros).
__global__ void fill_half(half *x, size_t n, unsigned seed) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned h = (unsigned)i * 2654435761u ^ seed;
  h ^= h >> 15; h *= 2246822519u; h ^= h >> 13; h *= 3266489917u; h ^= h >> 16;
  x[i] = __float2half((float)(h & 0xffff) / 32768.0f - 1.0f);
}

// ref[s] = sum_k A[r,k] * B[k,c] (f32) for sampled (r, c) = idx[2s], idx[2s+1].
__global__ void ref_dot(const half *A, const half *B, const int *idx,
                        float *ref, int ns, int N, int K) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= ns) return;
  int r = idx[2 * s], c = idx[2 * s + 1];
  float acc = 0.f;
  for (int k = 0; k < K; k++)
    acc += __half2float(A[(size_t)r * K + k]) * __half2float(B[(size_t)k * N + c]);
  ref[s] = acc;
}

// Transposes B (K x N) into BT (N x K).
__global__ void transpose_half(const half *B, half *BT, int K, int N) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= (size_t)K * N) return;
  int k = (int)(i / N), n = (int)(i % N);
  BT[(size_t)n * K + k] = B[i];
}

struct Bufs { half *A, *B, *BT; float *C; };

// Launches kernel `num` (10, 11, 20, 21, 30, 31) once, as runner.cu does
// (dyn: bytes of dynamic shared memory the kernel does not use, 0 as runner.cu).
static void launch(int num, const Bufs &b, size_t dyn = 0) {
  dim3 blk(16, 16), g;
  int t = (num == 10) ? 32 : (num == 31) ? 128 : 64;
  g.x = (SZ + t - 1) / t; g.y = (SZ + t - 1) / t;
  switch (num) {
    case 10: mma_matmul_1_0<<<g, blk, dyn>>>(b.A, b.B, b.C, SZ, SZ, SZ); break;
    case 11: mma_matmul_1_1<<<g, blk, dyn>>>(b.A, b.B, b.C, SZ, SZ, SZ); break;
    case 20: mma_matmul_2_0<<<g, blk, dyn>>>(b.A, b.BT, b.C, SZ, SZ, SZ); break;
    case 21: mma_matmul_2_1<<<g, blk, dyn>>>(b.A, b.BT, b.C, SZ, SZ, SZ); break;
    case 30: mma_matmul_3_0<<<g, blk, dyn>>>(b.A, b.BT, b.C, SZ, SZ, SZ); break;
    case 31: mma_matmul_3_1<<<g, blk, dyn>>>(b.A, b.BT, b.C, SZ, SZ, SZ); break;
  }
  CK(cudaGetLastError());
}

static const void *kernel_of(int num) {
  switch (num) {
    case 10: return (const void *)mma_matmul_1_0;
    case 11: return (const void *)mma_matmul_1_1;
    case 20: return (const void *)mma_matmul_2_0;
    case 21: return (const void *)mma_matmul_2_1;
    case 30: return (const void *)mma_matmul_3_0;
    case 31: return (const void *)mma_matmul_3_1;
  }
  return NULL;
}

// occ K B [N]: the smallest unused dynamic shared memory (1 KiB steps) that
// leaves at most B blocks of kernel K per SM (all of the SM's shared memory
// for shared: carveout 100), checked with the occupancy API; then N launches.
static int occ(int num, int want, int reps, const Bufs &b) {
  const void *f = kernel_of(num);
  if (!f || want < 1) { fprintf(stderr, "occ: kernel 10..31 and blocks >= 1\n"); return 2; }
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  CK(cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  CK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          (int)p.sharedMemPerBlockOptin - 49152));
  size_t dyn = 0;
  int got = 0;
  for (;; dyn += 1024) {
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&got, f, 256, dyn));
    if (got <= want || dyn + 1024 > p.sharedMemPerBlockOptin - 49152) break;
  }
  printf("occ kernel %d.%d: %d blocks per SM (asked %d), %zu bytes of dynamic shared memory\n",
         num / 10, num % 10, got, want, dyn);
  for (int r = 0; r < reps; r++) launch(num, b, dyn);
  CK(cudaDeviceSynchronize());
  return got == want ? 0 : 3;
}

// ||C_sampled - ref|| / ||ref|| over the sampled outputs.
static double check(const Bufs &b, const int *d_idx, const std::vector<int> &idx,
                    const std::vector<float> &ref) {
  std::vector<float> c(SZ * (size_t)SZ);
  CK(cudaMemcpy(c.data(), b.C, c.size() * 4, cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  for (size_t s = 0; s < ref.size(); s++) {
    double d = c[(size_t)idx[2 * s] * SZ + idx[2 * s + 1]] - ref[s];
    num += d * d; den += (double)ref[s] * ref[s];
  }
  (void)d_idx;
  return sqrt(num / den);
}

int main(int argc, char **argv) {
  if (argc < 2 || (strcmp(argv[1], "time") && strcmp(argv[1], "ncu") &&
                    (strcmp(argv[1], "occ") || argc < 4))) {
    fprintf(stderr, "usage: seed002_time time OUT.csv | ncu [N] | occ K B [N]\n");
    return 2;
  }
  size_t n = (size_t)SZ * SZ;
  Bufs b;
  CK(cudaMalloc(&b.A, n * 2)); CK(cudaMalloc(&b.B, n * 2));
  CK(cudaMalloc(&b.BT, n * 2)); CK(cudaMalloc(&b.C, n * 4));
  fill_half<<<(n + 255) / 256, 256>>>(b.A, n, 12345u);
  fill_half<<<(n + 255) / 256, 256>>>(b.B, n, 67890u);
  transpose_half<<<(n + 255) / 256, 256>>>(b.B, b.BT, SZ, SZ);
  CK(cudaDeviceSynchronize());
  const int nums[6] = {10, 11, 20, 21, 30, 31};
  if (!strcmp(argv[1], "occ"))
    return occ(atoi(argv[2]), atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 2, b);
  if (!strcmp(argv[1], "ncu")) {
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    for (int i = 0; i < 6; i++)
      for (int r = 0; r < reps; r++) launch(nums[i], b);
    CK(cudaDeviceSynchronize());
    return 0;
  }
  const int NS = 4096;
  std::vector<int> idx(2 * NS);
  srand(7);
  for (int s = 0; s < 2 * NS; s++) idx[s] = rand() % SZ;
  int *d_idx; float *d_ref;
  CK(cudaMalloc(&d_idx, idx.size() * 4)); CK(cudaMalloc(&d_ref, NS * 4));
  CK(cudaMemcpy(d_idx, idx.data(), idx.size() * 4, cudaMemcpyHostToDevice));
  ref_dot<<<NS / 128, 128>>>(b.A, b.B, d_idx, d_ref, NS, SZ, SZ);
  std::vector<float> ref(NS);
  CK(cudaMemcpy(ref.data(), d_ref, NS * 4, cudaMemcpyDeviceToHost));
  FILE *fp = fopen(argv[2], "w");
  if (!fp) { perror(argv[2]); return 1; }
  fprintf(fp, "kernel,m,n,k,event_median_us,event_min_us,event_loop_mean_us,reps,rel_err\n");
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  for (int i = 0; i < 6; i++) {
    CK(cudaMemset(b.C, 0xff, n * 4));  // poison: NaN unless written
    for (int r = 0; r < 5; r++) launch(nums[i], b);
    CK(cudaDeviceSynchronize());
    double err = check(b, d_idx, idx, ref);
    std::vector<float> t(50);
    for (int r = 0; r < 50; r++) {
      CK(cudaEventRecord(e0)); launch(nums[i], b); CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1)); CK(cudaEventElapsedTime(&t[r], e0, e1));
    }
    CK(cudaEventRecord(e0));
    for (int r = 0; r < 50; r++) launch(nums[i], b);
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float loop; CK(cudaEventElapsedTime(&loop, e0, e1));
    std::sort(t.begin(), t.end());
    fprintf(fp, "%d.%d,%d,%d,%d,%.2f,%.2f,%.2f,50,%.3g\n", nums[i] / 10, nums[i] % 10,
            SZ, SZ, SZ, 500.0 * (t[24] + t[25]), 1000.0 * t[0], 1000.0 * loop / 50, err);
    printf("seed002 %d.%d median %.1f us rel_err %.3g\n", nums[i] / 10, nums[i] % 10,
           500.0 * (t[24] + t[25]), err);
  }
  fclose(fp);
  return 0;
}
