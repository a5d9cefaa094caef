// probe.cuh - what the standalone probes of this folder share: the CUDA-call check that
// stops a probe with the failing call's text, and the device reads several of them use.
// Each probe still builds alone (nvcc finds this header beside it).
#ifndef GC_PROBE_CUH
#define GC_PROBE_CUH

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

/* Runs x; on an error prints the call and CUDA's message and exits 1. */
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

/* The GPU's global timer (ns). */
__device__ __forceinline__ unsigned long long gtimer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* The SM this thread runs on. */
__device__ __forceinline__ unsigned smid()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

/* A 16-byte load cached in the L2 only (ld.global.cg), so every one reaches the L2. */
__device__ __forceinline__ uint4 ldcg(const uint4 *p)
{
    uint4 v;
    asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}

/* The fewest cycles per unit over 5 runs of launch(), which starts a kernel that writes
 * its cycle count to *dcyc (device memory): the count over units, the best of the 5. */
template <typename Launch> double best_of_5(Launch launch, const long long *dcyc, double units)
{
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        launch();
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        long long c;
        CK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
        double v = (double)c / units;
        best = v < best ? v : best;
    }
    return best;
}

#endif
