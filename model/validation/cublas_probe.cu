// cublas_probe.cu - which kernels does cublasGemmEx (f16 in/out, f32 compute)
// run for 1024^3 and 4096^3 on this GPU, and how long does each take?
// Build: nvcc -gencode=arch=compute_90a,code=sm_90a cublas_probe.cu -lcublas; run under
// ncu --clock-control none --cache-control none (clocks left as found). Made
// model/validation/cublas_ncu.txt.
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
int main() {
  cublasHandle_t h; cublasCreate(&h);
  int sizes[2] = {1024, 4096};
  for (int s = 0; s < 2; s++) {
    int n = sizes[s]; half *a, *b, *c;
    cudaMalloc(&a, (size_t)n * n * 2); cudaMalloc(&b, (size_t)n * n * 2); cudaMalloc(&c, (size_t)n * n * 2);
    cudaMemset(a, 0x3c, (size_t)n * n * 2); cudaMemset(b, 0x3c, (size_t)n * n * 2);
    float one = 1.f, zero = 0.f;
    for (int i = 0; i < 3; i++)
      cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_16F, n, b, CUDA_R_16F, n,
                   &zero, c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    cudaDeviceSynchronize();
    printf("size %d done\n", n);
    cudaFree(a); cudaFree(b); cudaFree(c);
  }
  return 0;
}
