/* bench_numeric.cu - the `numeric` bench: what the tensor cores compute.
 *
 * Runs batches of single mma (and wgmma) instructions on inputs made by the
 * deterministic generator (numeric_gen.h) and records the outputs:
 *  - layout check: small integers whose exact result is known, per form;
 *  - fixture sets (random, adversarial, probe cases): a checksum row each in
 *    the trace, and with GPUCAL_NUMERIC_DUMP=DIR the raw outputs as
 *    DIR/<set>.bin plus DIR/sets.csv (the format of tests/fixtures/numerics);
 *  - the probe findings (numeric_probe.h) per form;
 *  - seed 000 section 8: element-wise error profiles and chain matrix
 *    multiplication (numeric_prof.h).
 * Writes the trace columns documented under "numeric" in traces/README.md.
 * Times nothing: the SASS rules only confirm which tensor instruction ran.
 */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsio.h"
#include "measure.h"
#include "numeric_gen.h"
#include "numeric_probe.h"
#include "numeric_prof.h"

/* ---- device side ---- */

__device__ __forceinline__ uint32_t pk16(uint16_t lo, uint16_t hi)
{
    return (uint32_t)lo | (uint32_t)hi << 16;
}

__device__ __forceinline__ uint32_t pk8(const uint8_t *p, int stride)
{
    return (uint32_t)p[0] | (uint32_t)p[stride] << 8 | (uint32_t)p[2 * stride] << 16 |
           (uint32_t)p[3 * stride] << 24;
}

/* mma.sync with A/B in 16-bit formats. AK: 0 f16, 1 bf16; CF: 0 f32, 1 f16 C/D. */
template <int K, int AK, int CF>
__device__ void mma_h(int w, const void *Av, const void *Bv, const void *Cv, void *Dv)
{
    const uint16_t *A = (const uint16_t *)Av + (size_t)w * 16 * K;
    const uint16_t *B = (const uint16_t *)Bv + (size_t)w * K * 8;
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    uint32_t a0 = pk16(A[g * K + 2 * t], A[g * K + 2 * t + 1]);
    uint32_t a1 = pk16(A[(g + 8) * K + 2 * t], A[(g + 8) * K + 2 * t + 1]);
    uint32_t b0 = pk16(B[(2 * t) * 8 + g], B[(2 * t + 1) * 8 + g]);
    uint32_t a2 = 0, a3 = 0, b1 = 0;
    if (K == 16) {
        a2 = pk16(A[g * K + 2 * t + 8], A[g * K + 2 * t + 9]);
        a3 = pk16(A[(g + 8) * K + 2 * t + 8], A[(g + 8) * K + 2 * t + 9]);
        b1 = pk16(B[(2 * t + 8) * 8 + g], B[(2 * t + 9) * 8 + g]);
    }
    if (CF == 0) {
        const float *C = (const float *)Cv + (size_t)w * 128;
        float *D = (float *)Dv + (size_t)w * 128;
        float c0 = C[g * 8 + 2 * t], c1 = C[g * 8 + 2 * t + 1];
        float c2 = C[(g + 8) * 8 + 2 * t], c3 = C[(g + 8) * 8 + 2 * t + 1];
        if (K == 16 && AK == 0)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                         "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        else if (K == 16)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                         "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        else if (AK == 0)
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                         "{%4,%5}, {%6}, {%0,%1,%2,%3};"
                         : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                         : "r"(a0), "r"(a1), "r"(b0));
        else
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                         "{%4,%5}, {%6}, {%0,%1,%2,%3};"
                         : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                         : "r"(a0), "r"(a1), "r"(b0));
        D[g * 8 + 2 * t] = c0;
        D[g * 8 + 2 * t + 1] = c1;
        D[(g + 8) * 8 + 2 * t] = c2;
        D[(g + 8) * 8 + 2 * t + 1] = c3;
    } else {
        const uint16_t *C = (const uint16_t *)Cv + (size_t)w * 128;
        uint16_t *D = (uint16_t *)Dv + (size_t)w * 128;
        uint32_t c0 = pk16(C[g * 8 + 2 * t], C[g * 8 + 2 * t + 1]);
        uint32_t c1 = pk16(C[(g + 8) * 8 + 2 * t], C[(g + 8) * 8 + 2 * t + 1]);
        if (K == 16)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, "
                         "{%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                         : "+r"(c0), "+r"(c1)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        else
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, "
                         "{%2,%3}, {%4}, {%0,%1};"
                         : "+r"(c0), "+r"(c1)
                         : "r"(a0), "r"(a1), "r"(b0));
        D[g * 8 + 2 * t] = (uint16_t)c0;
        D[g * 8 + 2 * t + 1] = (uint16_t)(c0 >> 16);
        D[(g + 8) * 8 + 2 * t] = (uint16_t)c1;
        D[(g + 8) * 8 + 2 * t + 1] = (uint16_t)(c1 >> 16);
    }
}

/* mma.sync tf32 (A/B as f32 bit patterns), f32 C/D. */
template <int K>
__device__ void mma_tf32(int w, const void *Av, const void *Bv, const void *Cv, void *Dv)
{
    const uint32_t *A = (const uint32_t *)Av + (size_t)w * 16 * K;
    const uint32_t *B = (const uint32_t *)Bv + (size_t)w * K * 8;
    const float *C = (const float *)Cv + (size_t)w * 128;
    float *D = (float *)Dv + (size_t)w * 128;
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    uint32_t a0 = A[g * K + t], a1 = A[(g + 8) * K + t], b0 = B[t * 8 + g];
    float c0 = C[g * 8 + 2 * t], c1 = C[g * 8 + 2 * t + 1];
    float c2 = C[(g + 8) * 8 + 2 * t], c3 = C[(g + 8) * 8 + 2 * t + 1];
    if (K == 8) {
        uint32_t a2 = A[g * K + t + 4], a3 = A[(g + 8) * K + t + 4], b1 = B[(t + 4) * 8 + g];
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
                     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    } else {
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
                     "{%4,%5}, {%6}, {%0,%1,%2,%3};"
                     : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                     : "r"(a0), "r"(a1), "r"(b0));
    }
    D[g * 8 + 2 * t] = c0;
    D[g * 8 + 2 * t + 1] = c1;
    D[(g + 8) * 8 + 2 * t] = c2;
    D[(g + 8) * 8 + 2 * t + 1] = c3;
}

/* mma.sync m16n8k32 with FP8 A/B. E5: 0 e4m3, 1 e5m2; CF: 0 f32, 1 f16. */
template <int E5, int CF>
__device__ void mma_f8(int w, const void *Av, const void *Bv, const void *Cv, void *Dv)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    const uint8_t *A = (const uint8_t *)Av + (size_t)w * 16 * 32;
    const uint8_t *B = (const uint8_t *)Bv + (size_t)w * 32 * 8;
    int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    uint32_t a0 = pk8(A + g * 32 + 4 * t, 1), a1 = pk8(A + (g + 8) * 32 + 4 * t, 1);
    uint32_t a2 = pk8(A + g * 32 + 16 + 4 * t, 1), a3 = pk8(A + (g + 8) * 32 + 16 + 4 * t, 1);
    uint32_t b0 = pk8(B + (4 * t) * 8 + g, 8), b1 = pk8(B + (16 + 4 * t) * 8 + g, 8);
    if (CF == 0) {
        const float *C = (const float *)Cv + (size_t)w * 128;
        float *D = (float *)Dv + (size_t)w * 128;
        float c0 = C[g * 8 + 2 * t], c1 = C[g * 8 + 2 * t + 1];
        float c2 = C[(g + 8) * 8 + 2 * t], c3 = C[(g + 8) * 8 + 2 * t + 1];
        if (E5 == 0)
            asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, "
                         "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        else
            asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 {%0,%1,%2,%3}, "
                         "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        D[g * 8 + 2 * t] = c0;
        D[g * 8 + 2 * t + 1] = c1;
        D[(g + 8) * 8 + 2 * t] = c2;
        D[(g + 8) * 8 + 2 * t + 1] = c3;
    } else {
        const uint16_t *C = (const uint16_t *)Cv + (size_t)w * 128;
        uint16_t *D = (uint16_t *)Dv + (size_t)w * 128;
        uint32_t c0 = pk16(C[g * 8 + 2 * t], C[g * 8 + 2 * t + 1]);
        uint32_t c1 = pk16(C[(g + 8) * 8 + 2 * t], C[(g + 8) * 8 + 2 * t + 1]);
        if (E5 == 0)
            asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16 {%0,%1}, "
                         "{%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                         : "+r"(c0), "+r"(c1)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        else
            asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16 {%0,%1}, "
                         "{%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                         : "+r"(c0), "+r"(c1)
                         : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        D[g * 8 + 2 * t] = (uint16_t)c0;
        D[g * 8 + 2 * t + 1] = (uint16_t)(c0 >> 16);
        D[(g + 8) * 8 + 2 * t] = (uint16_t)c1;
        D[(g + 8) * 8 + 2 * t + 1] = (uint16_t)(c1 >> 16);
    }
#else
    (void)w, (void)Av, (void)Bv, (void)Cv, (void)Dv;
#endif
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* Issues the one wgmma m64n8kK of KIND (0 f16, 1 bf16, 2 tf32, 3 e4m3,
 * 4 e5m2) with f32 accumulators d0..d3, A and B from the shared-memory
 * descriptors da and db; fence, commit and wait are the caller's.
 * Inlined so wg_mma's code is unchanged. */
template <int KIND>
static __device__ __forceinline__ void wg_mma_f32(float &d0, float &d1, float &d2, float &d3, uint64_t da,
                                                  uint64_t db)
{
    if (KIND == 0)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, %4, %5, p, 1, 1, 0, 0;\n}"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(da), "l"(db) : "memory");
    else if (KIND == 1)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0,%1,%2,%3}, %4, %5, p, 1, 1, 0, 0;\n}"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(da), "l"(db) : "memory");
    else if (KIND == 2)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0,%1,%2,%3}, %4, %5, p, 1, 1;\n}"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(da), "l"(db) : "memory");
    else if (KIND == 3)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0,%1,%2,%3}, %4, %5, p, 1, 1;\n}"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(da), "l"(db) : "memory");
    else
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n8k32.f32.e5m2.e5m2 {%0,%1,%2,%3}, %4, %5, p, 1, 1;\n}"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(da), "l"(db) : "memory");
}
#endif

/* wgmma m64n8kK, A and B from shared memory (no swizzle, K-major), one
 * warpgroup per mma. KIND: 0 f16, 1 bf16, 2 tf32, 3 e4m3, 4 e5m2; CF: 0 f32,
 * 1 f16 C/D. swap: 0 LBO = K-direction core-matrix stride, SBO = M/N stride
 * (the PTX ISA's reading); 1 the other way round (a fallback the host tries
 * if the first fails its check). */
template <int KIND, int CF>
__device__ void wg_mma(int w, const void *Av, const void *Bv, const void *Cv, void *Dv, int swap)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr int ES = KIND <= 1 ? 2 : KIND == 2 ? 4 : 1; /* element bytes */
    constexpr int K = 32 / ES;
    __shared__ __align__(256) uint8_t sA[64 * 32];
    __shared__ __align__(256) uint8_t sB[512]; /* 256 used; room for a misread stride */
    const uint8_t *A = (const uint8_t *)Av + (size_t)w * 64 * K * ES;
    const uint8_t *B = (const uint8_t *)Bv + (size_t)w * K * 8 * ES;
    int tid = threadIdx.x;
    for (int idx = tid; idx < 64 * K; idx += 128) {
        int r = idx / K, kb = (idx % K) * ES;
        int off = (r / 8) * 256 + (kb / 16) * 128 + (r % 8) * 16 + kb % 16;
        for (int e = 0; e < ES; e++)
            sA[off + e] = A[(size_t)idx * ES + e];
    }
    for (int idx = tid; idx < 8 * K; idx += 128) {
        int kk = idx / 8, j = idx % 8, kb = kk * ES;
        int off = (kb / 16) * 128 + j * 16 + kb % 16;
        for (int e = 0; e < ES; e++)
            sB[off + e] = B[(size_t)idx * ES + e];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    uint32_t lbo = swap ? 256 : 128, sbo = swap ? 128 : 256;
    uint32_t aa = (uint32_t)__cvta_generic_to_shared(sA), ab = (uint32_t)__cvta_generic_to_shared(sB);
    uint64_t da = (uint64_t)((aa & 0x3ffff) >> 4) | (uint64_t)(lbo >> 4) << 16 |
                  (uint64_t)(sbo >> 4) << 32;
    uint64_t db = (uint64_t)((ab & 0x3ffff) >> 4) | (uint64_t)(lbo >> 4) << 16 |
                  (uint64_t)(sbo >> 4) << 32;
    int warp = tid >> 5, lane = tid & 31, g = lane >> 2, t = lane & 3;
    int r0 = warp * 16 + g;
    if (CF == 0) {
        const float *C = (const float *)Cv + (size_t)w * 512;
        float *D = (float *)Dv + (size_t)w * 512;
        float d0 = C[r0 * 8 + 2 * t], d1 = C[r0 * 8 + 2 * t + 1];
        float d2 = C[(r0 + 8) * 8 + 2 * t], d3 = C[(r0 + 8) * 8 + 2 * t + 1];
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        wg_mma_f32<KIND>(d0, d1, d2, d3, da, db);
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        D[r0 * 8 + 2 * t] = d0;
        D[r0 * 8 + 2 * t + 1] = d1;
        D[(r0 + 8) * 8 + 2 * t] = d2;
        D[(r0 + 8) * 8 + 2 * t + 1] = d3;
    } else {
        const uint16_t *C = (const uint16_t *)Cv + (size_t)w * 512;
        uint16_t *D = (uint16_t *)Dv + (size_t)w * 512;
        uint32_t d0 = pk16(C[r0 * 8 + 2 * t], C[r0 * 8 + 2 * t + 1]);
        uint32_t d1 = pk16(C[(r0 + 8) * 8 + 2 * t], C[(r0 + 8) * 8 + 2 * t + 1]);
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
        if (KIND == 0)
            asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                         "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%0,%1}, %2, %3, p, 1, 1, 0, 0;\n}"
                         : "+r"(d0), "+r"(d1) : "l"(da), "l"(db) : "memory");
        else
            asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                         "wgmma.mma_async.sync.aligned.m64n8k32.f16.e4m3.e4m3 {%0,%1}, %2, %3, p, 1, 1;\n}"
                         : "+r"(d0), "+r"(d1) : "l"(da), "l"(db) : "memory");
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        D[r0 * 8 + 2 * t] = (uint16_t)d0;
        D[r0 * 8 + 2 * t + 1] = (uint16_t)(d0 >> 16);
        D[(r0 + 8) * 8 + 2 * t] = (uint16_t)d1;
        D[(r0 + 8) * 8 + 2 * t + 1] = (uint16_t)(d1 >> 16);
    }
#else
    (void)w, (void)Av, (void)Bv, (void)Cv, (void)Dv, (void)swap;
#endif
}

/* One kernel per form, named so the SASS check can find it. mma kernels:
 * one warp per mma; wgmma kernels: one block (a warpgroup) per mma. */
#define MMA_K(name, call)                                                                      \
    __global__ void name(const void *A, const void *B, const void *C, void *D, int n, int swap) \
    {                                                                                          \
        (void)swap;                                                                            \
        int w = (int)((blockIdx.x * blockDim.x + threadIdx.x) >> 5);                           \
        if (w < n)                                                                             \
            call(w, A, B, C, D);                                                               \
    }
#define WG_K(name, kind, cf)                                                                   \
    __global__ void __launch_bounds__(128) name(const void *A, const void *B, const void *C,   \
                                                void *D, int n, int swap)                      \
    {                                                                                          \
        if ((int)blockIdx.x < n)                                                               \
            wg_mma<kind, cf>((int)blockIdx.x, A, B, C, D, swap);                               \
    }

MMA_K(k_num_mma_f16_f32_k16, (mma_h<16, 0, 0>))
MMA_K(k_num_mma_bf16_f32_k16, (mma_h<16, 1, 0>))
MMA_K(k_num_mma_tf32_f32_k8, mma_tf32<8>)
MMA_K(k_num_mma_f16_f16_k16, (mma_h<16, 0, 1>))
MMA_K(k_num_mma_f16_f32_k8, (mma_h<8, 0, 0>))
MMA_K(k_num_mma_bf16_f32_k8, (mma_h<8, 1, 0>))
MMA_K(k_num_mma_tf32_f32_k4, mma_tf32<4>)
MMA_K(k_num_mma_f16_f16_k8, (mma_h<8, 0, 1>))
MMA_K(k_num_mma_e4m3_f32_k32, (mma_f8<0, 0>))
MMA_K(k_num_mma_e5m2_f32_k32, (mma_f8<1, 0>))
MMA_K(k_num_mma_e4m3_f16_k32, (mma_f8<0, 1>))
MMA_K(k_num_mma_e5m2_f16_k32, (mma_f8<1, 1>))
WG_K(k_num_wgmma_f16_f32_k16, 0, 0)
WG_K(k_num_wgmma_bf16_f32_k16, 1, 0)
WG_K(k_num_wgmma_tf32_f32_k8, 2, 0)
WG_K(k_num_wgmma_f16_f16_k16, 0, 1)
WG_K(k_num_wgmma_e4m3_f32_k32, 3, 0)
WG_K(k_num_wgmma_e5m2_f32_k32, 4, 0)
WG_K(k_num_wgmma_e4m3_f16_k32, 3, 1)

typedef void (*kern_t)(const void *, const void *, const void *, void *, int, int);
/* in the order of gc_nforms[] */
static const kern_t kernels[] = {
    k_num_mma_f16_f32_k16,    k_num_mma_bf16_f32_k16,    k_num_mma_tf32_f32_k8,
    k_num_mma_f16_f16_k16,    k_num_mma_f16_f32_k8,      k_num_mma_bf16_f32_k8,
    k_num_mma_tf32_f32_k4,    k_num_mma_f16_f16_k8,      k_num_mma_e4m3_f32_k32,
    k_num_mma_e5m2_f32_k32,   k_num_mma_e4m3_f16_k32,    k_num_mma_e5m2_f16_k32,
    k_num_wgmma_f16_f32_k16,  k_num_wgmma_bf16_f32_k16,  k_num_wgmma_tf32_f32_k8,
    k_num_wgmma_f16_f16_k16,  k_num_wgmma_e4m3_f32_k32,  k_num_wgmma_e5m2_f32_k32,
    k_num_wgmma_e4m3_f16_k32,
};

/* ---- host side ---- */

typedef struct dbuf {
    void *A, *B, *C, *D;
    long cap;            /* mmas the buffers hold */
    int form;
    unsigned char *hA, *hB, *hC, *hD;
    cudaStream_t stream; /* where its copies and kernels run (0: the default stream) */
} dbuf_t;

/* Free b's buffers (its stream is its owner's). */
static void dbuf_free(dbuf_t *b)
{
    cudaStream_t s = b->stream;
    cudaFree(b->A), cudaFree(b->B), cudaFree(b->C), cudaFree(b->D);
    free(b->hA), free(b->hB), free(b->hC), free(b->hD);
    memset(b, 0, sizeof(*b));
    b->stream = s;
    b->form = -1;
}

static void put_bits(unsigned char *p, int bytes, long i, uint32_t v)
{
    if (bytes == 1)
        p[i] = (unsigned char)v;
    else if (bytes == 2)
        ((uint16_t *)p)[i] = (uint16_t)v;
    else
        ((uint32_t *)p)[i] = v;
}

static uint32_t get_bits(const unsigned char *p, int bytes, long i)
{
    return bytes == 1 ? p[i] : bytes == 2 ? ((const uint16_t *)p)[i] : ((const uint32_t *)p)[i];
}

/* Run mmas mmas of form fi: A/B/C/D are host arrays of bit patterns
 * (mma after mma, layouts of gc_ngen_fill). */
static int run_batch(dbuf_t *db, int fi, long mmas, const uint32_t *A, const uint32_t *B,
                     const uint32_t *C, uint32_t *D, int swap, gc_err_t *err)
{
    const gc_nform_t *f = &gc_nforms[fi];
    int ab = gc_nfmt_info(f->a)->bytes, cb = gc_nfmt_info(f->c)->bytes;
    long na = (long)f->m * f->k, nb = (long)f->k * f->n, nc = (long)f->m * f->n;
    if (db->form != fi || db->cap < mmas) {
        dbuf_free(db);
        long cap = mmas < 1024 ? 1024 : mmas;
        int rc = gc_cuda_check(cudaMalloc(&db->A, (size_t)(cap * na * ab)), "allocating A", err);
        rc = rc ? rc : gc_cuda_check(cudaMalloc(&db->B, (size_t)(cap * nb * ab)), "allocating B", err);
        rc = rc ? rc : gc_cuda_check(cudaMalloc(&db->C, (size_t)(cap * nc * cb)), "allocating C", err);
        rc = rc ? rc : gc_cuda_check(cudaMalloc(&db->D, (size_t)(cap * nc * cb)), "allocating D", err);
        db->hA = (unsigned char *)malloc((size_t)(cap * na * ab));
        db->hB = (unsigned char *)malloc((size_t)(cap * nb * ab));
        db->hC = (unsigned char *)malloc((size_t)(cap * nc * cb));
        db->hD = (unsigned char *)malloc((size_t)(cap * nc * cb));
        if (!rc && (!db->hA || !db->hB || !db->hC || !db->hD))
            rc = gc_err_set(err, GC_ENOMEM, "out of memory for the numeric bench's buffers");
        if (rc) {
            dbuf_free(db);
            return rc;
        }
        db->cap = cap;
        db->form = fi;
    }
    for (long i = 0; i < mmas * na; i++)
        put_bits(db->hA, ab, i, A[i]);
    for (long i = 0; i < mmas * nb; i++)
        put_bits(db->hB, ab, i, B[i]);
    for (long i = 0; i < mmas * nc; i++)
        put_bits(db->hC, cb, i, C[i]);
    cudaStream_t st = db->stream;
    int rc = gc_cuda_check(cudaMemcpyAsync(db->A, db->hA, (size_t)(mmas * na * ab), cudaMemcpyHostToDevice, st), "copying A", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpyAsync(db->B, db->hB, (size_t)(mmas * nb * ab), cudaMemcpyHostToDevice, st), "copying B", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpyAsync(db->C, db->hC, (size_t)(mmas * nc * cb), cudaMemcpyHostToDevice, st), "copying C", err);
    rc = rc ? rc : gc_cuda_check(cudaMemsetAsync(db->D, 0xff, (size_t)(mmas * nc * cb), st), "poisoning D", err);
    if (rc)
        return rc;
    int wg = !strcmp(f->inst, "wgmma");
    unsigned blocks = wg ? (unsigned)mmas : (unsigned)((mmas + 3) / 4);
    kernels[fi]<<<blocks, 128, 0, st>>>(db->A, db->B, db->C, db->D, (int)mmas, swap);
    rc = gc_cuda_check(cudaGetLastError(), "launching a numeric kernel", err);
    rc = rc ? rc : gc_cuda_check(cudaStreamSynchronize(st), "running a numeric kernel", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpyAsync(db->hD, db->D, (size_t)(mmas * nc * cb), cudaMemcpyDeviceToHost, st), "reading D", err);
    rc = rc ? rc : gc_cuda_check(cudaStreamSynchronize(st), "reading D", err);
    if (rc)
        return rc;
    for (long i = 0; i < mmas * nc; i++)
        D[i] = get_bits(db->hD, cb, i);
    return 0;
}

typedef struct bench {
    gc_mctx_t *ctx;
    gc_trace_writer_t *w;
    dbuf_t db;
    int ok[64];            /* form passed its layout check */
    int swap[64];          /* wgmma descriptor reading that passed */
    const char *dump;      /* GPUCAL_NUMERIC_DUMP or NULL */
    uint32_t *wide;        /* stored outputs of the form's first wide mmas (the probes' fit) */
    long wide_mmas;
    int wide_form;
    gc_afile_t manifest;
    int have_manifest;
    double probe_s;        /* seconds of the main thread waiting for probe fits */
    /* The rows, in trace order, written at the end: a probe set's findings
     * are fitted on a thread of their own while the GPU runs on, and their
     * rows take the place the set's turn gives them (the trace is the same
     * as when fitted in turn). */
    struct pending *rows;
    long nrows, caprows;
} bench_t;

/* One probe set's fit, on its own thread: copies of what it reads, and the
 * row texts it makes. */
typedef struct fitjob {
    const gc_nform_t *f;
    uint32_t *o;           /* the probe outputs (n) */
    long n;
    const gc_nset_t *ws;   /* the form's wide set, or NULL */
    uint32_t *wide;        /* its stored outputs (wide_mmas x per), or NULL */
    long wide_mmas;
    char fc[128];          /* the form's columns */
    char text[32][768];    /* the finished rows */
    int ntext;
    pthread_t tid;
    int started;
} fitjob_t;

/* One form's profiles and chains, on a thread of its own with its own
 * buffers and stream (sub: a bench of its own whose rows are only lines). */
typedef struct formjob {
    bench_t sub;
    int fi, device;
    int rc;
    gc_err_t err;
    pthread_t tid;
    int started;
} formjob_t;

/* A row of the trace: a finished line, a fit job's rows or a form job's. */
typedef struct pending {
    char *line;
    fitjob_t *job;
    formjob_t *fj;
} pending_t;

static int row(bench_t *b, gc_err_t *err, const char *fmt, ...) GC_PRINTF(3, 4);
/* Append a pending entry (a line or a job) to b's rows. */
static int push_row(bench_t *b, char *line, fitjob_t *job, gc_err_t *err)
{
    if (b->nrows == b->caprows) {
        long cap = b->caprows ? 2 * b->caprows : 256;
        pending_t *r = (pending_t *)realloc(b->rows, sizeof(*r) * (size_t)cap);
        if (!r) {
            free(line);
            return gc_err_set(err, GC_ENOMEM, "out of memory for the numeric bench's rows");
        }
        b->rows = r;
        b->caprows = cap;
    }
    b->rows[b->nrows].line = line;
    b->rows[b->nrows].fj = NULL;
    b->rows[b->nrows++].job = job;
    return 0;
}

static int row(bench_t *b, gc_err_t *err, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    char *copy = strdup(line);
    if (!copy)
        return gc_err_set(err, GC_ENOMEM, "out of memory for the numeric bench's rows");
    return push_row(b, copy, NULL, err);
}

/* The fit of one probe set (a thread's body): the findings and their rows. */
static void *fit_probe(void *arg)
{
    fitjob_t *j = (fitjob_t *)arg;
    gc_nfind_t fd;
    gc_nprobe_findings(j->f, j->o, j->n, j->wide ? j->ws : NULL, j->wide, j->wide ? j->wide_mmas : 0,
                       &fd);
    gc_nrow_t rows[32];
    int nr = gc_nfind_rows(j->f, &fd, rows, 32);
    for (int i = 0; i < nr; i++)
        snprintf(j->text[i], sizeof(j->text[i]), "probe,%s,-,-,%s,-,%ld,%s,-,%s", j->fc,
                 rows[i].key, j->n, rows[i].value, rows[i].detail);
    j->ntext = nr;
    return NULL;
}

static void *form_work(void *arg);
static int flush_rows(bench_t *b, int rc, gc_err_t *err);

/* Wait for entry e's thread, if it has one (run it here if it never
 * started). */
static void wait_entry(pending_t *e)
{
    if (e->job && e->job->started)
        pthread_join(e->job->tid, NULL);
    else if (e->job)
        fit_probe(e->job); /* no thread could start: fit here */
    if (e->fj && e->fj->started)
        pthread_join(e->fj->tid, NULL);
    else if (e->fj)
        form_work(e->fj);
}

/* Write entry e's rows (unless rc already failed) and free it; returns
 * the first failure: rc, the form job's own, or a write's. */
static int emit_entry(bench_t *b, pending_t *e, int rc, gc_err_t *err)
{
    if (!rc && e->line && gc_trace_rowf(b->w, "%s", e->line) != 0)
        rc = gc_err_set(err, GC_EIO, "%s", gc_trace_writer_err(b->w)->msg);
    for (int k = 0; e->job && !rc && k < e->job->ntext; k++)
        if (gc_trace_rowf(b->w, "%s", e->job->text[k]) != 0)
            rc = gc_err_set(err, GC_EIO, "%s", gc_trace_writer_err(b->w)->msg);
    free(e->line);
    if (e->job) {
        free(e->job->o);
        free(e->job->wide);
        free(e->job);
    }
    if (e->fj) {
        if (!rc && e->fj->rc) {
            *err = e->fj->err;
            rc = e->fj->rc;
        }
        rc = flush_rows(&e->fj->sub, rc, err);
        free(e->fj);
    }
    return rc;
}

/* Wait for every thread, then write every row in order; frees the rows.
 * The first failure is reported; the rest are freed. */
static int flush_rows(bench_t *b, int rc, gc_err_t *err)
{
    double t0 = gc_host_seconds();
    for (long i = 0; i < b->nrows; i++)
        wait_entry(&b->rows[i]);
    b->probe_s += gc_host_seconds() - t0;
    for (long i = 0; i < b->nrows; i++)
        rc = emit_entry(b, &b->rows[i], rc, err);
    free(b->rows);
    b->rows = NULL;
    b->nrows = b->caprows = 0;
    return rc;
}

static void form_cols(const gc_nform_t *f, char *buf, size_t n)
{
    snprintf(buf, n, "%s,%s,%s,%s", f->inst, f->shape, gc_nfmt_info(f->a)->name,
             gc_nfmt_info(f->c)->name);
}

static int form_runs(bench_t *b, const gc_nform_t *f)
{
    int cc = b->ctx->dev.cc_major * 10 + b->ctx->dev.cc_minor;
    if (cc < f->min_cc)
        return 0;
    if (!strcmp(f->inst, "wgmma") && cc != 90)
        return 0; /* sm_90a code runs on cc 9.0 only */
    return 1;
}

/* Small integers with a known exact result: catches fragment-layout bugs. */
static int layout_check(bench_t *b, int fi, gc_err_t *err)
{
    const gc_nform_t *f = &gc_nforms[fi];
    int m = f->m, n = f->n, k = f->k;
    const long mmas = 2;
    uint32_t *A = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(mmas * m * k));
    uint32_t *B = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(mmas * k * n));
    uint32_t *C = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(mmas * m * n));
    uint32_t *D = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(mmas * m * n));
    if (!A || !B || !C || !D) {
        free(A), free(B), free(C), free(D);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    for (long q = 0; q < mmas; q++) {
        for (int r = 0; r < m; r++)
            for (int kk = 0; kk < k; kk++)
                A[q * m * k + r * k + kk] =
                    gc_nfmt_encode(f->a, (double)((r * 3 + kk * 5 + (int)q) % 7 - 3));
        for (int kk = 0; kk < k; kk++)
            for (int j = 0; j < n; j++)
                B[q * k * n + kk * n + j] =
                    gc_nfmt_encode(f->a, (double)((kk * 2 + j * 3 + 2 * (int)q) % 5 - 2));
        for (int r = 0; r < m; r++)
            for (int j = 0; j < n; j++)
                C[q * m * n + r * n + j] = gc_nfmt_encode(f->c, (double)(r - 2 * j + (int)q));
    }
    int rc = 0, tries = !strcmp(f->inst, "wgmma") ? 2 : 1, bad = 1;
    for (int s = 0; s < tries && bad && !rc; s++) {
        rc = run_batch(&b->db, fi, mmas, A, B, C, D, s, err);
        if (rc)
            break;
        bad = 0;
        for (long q = 0; q < mmas && !bad; q++)
            for (int r = 0; r < m; r++)
                for (int j = 0; j < n; j++) {
                    double e = gc_nfmt_decode(f->c, C[q * m * n + r * n + j]);
                    for (int kk = 0; kk < k; kk++)
                        e += gc_nfmt_decode(f->a, A[q * m * k + r * k + kk]) *
                             gc_nfmt_decode(f->a, B[q * k * n + kk * n + j]);
                    if (gc_nfmt_decode(f->c, D[q * m * n + r * n + j]) != e)
                        bad = 1;
                }
        if (!bad)
            b->swap[fi] = s;
    }
    free(A), free(B), free(C), free(D);
    if (rc)
        return rc;
    b->ok[fi] = !bad;
    char fc[128];
    form_cols(f, fc, sizeof(fc));
    return row(b, err, "layout,%s,-,-,-,-,%ld,%s,-,%s", fc, mmas * m * n, bad ? "FAILED" : "ok",
               bad ? "wrong-results-on-small-integers" : b->swap[fi] ? "descriptor-lbo-sbo-swapped" : "fragment-layout-as-ptx-isa");
}

/* The findings of a probe set (out: its stored outputs, cb bytes each):
 * a fit job started on a thread of its own, its rows in this place. */
static int probe_rows(bench_t *b, const gc_nset_t *s, const unsigned char *out, gc_err_t *err)
{
    const gc_nform_t *f = &gc_nforms[s->form];
    long n = gc_nprobe_count(f);
    int cb = gc_nfmt_info(f->c)->bytes;
    fitjob_t *j = (fitjob_t *)calloc(1, sizeof(*j));
    if (j)
        j->o = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(n ? n : 1));
    if (!j || !j->o) {
        free(j);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    j->f = f;
    j->n = n;
    for (long i = 0; i < n; i++)
        j->o[i] = get_bits(out, cb, i);
    const gc_nset_t *sets;
    int ns = gc_nset_plan(&sets);
    for (int i = 0; i < ns; i++)
        if (sets[i].form == s->form && sets[i].gen == GC_NG_WIDE)
            j->ws = &sets[i];
    if (j->ws && b->wide && b->wide_form == s->form) {
        int per = gc_nset_per_mma(j->ws);
        j->wide = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(b->wide_mmas * per));
        if (j->wide) {
            memcpy(j->wide, b->wide, sizeof(uint32_t) * (size_t)(b->wide_mmas * per));
            j->wide_mmas = b->wide_mmas;
        }
    }
    form_cols(f, j->fc, sizeof(j->fc));
    int rc = push_row(b, NULL, j, err);
    if (rc) {
        free(j->o);
        free(j->wide);
        free(j);
        return rc;
    }
    j->started = pthread_create(&j->tid, NULL, fit_probe, j) == 0;
    return 0;
}

/* Run one fixture set; checksum row; optional dump. */
static int run_set(bench_t *b, const gc_nset_t *s, gc_err_t *err)
{
    const gc_nform_t *f = &gc_nforms[s->form];
    int m = f->m, n = f->n, k = f->k;
    long chunk = 256;
    int per = gc_nset_per_mma(s);
    int cb = gc_nfmt_info(f->c)->bytes;
    unsigned char *out = (unsigned char *)malloc((size_t)(s->mmas * per * cb));
    uint32_t *A = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(chunk * m * k));
    uint32_t *B = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(chunk * k * n));
    uint32_t *C = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(chunk * m * n));
    uint32_t *D = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(chunk * m * n));
    int rc = 0;
    if (!out || !A || !B || !C || !D)
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    long nan_out = 0;
    for (long q0 = 0; !rc && q0 < s->mmas; q0 += chunk) {
        long cnt = s->mmas - q0 < chunk ? s->mmas - q0 : chunk;
        for (long q = 0; q < cnt; q++)
            gc_ngen_fill(f, s->gen, s->seed, q0 + q, A + q * m * k, B + q * k * n, C + q * m * n);
        rc = run_batch(&b->db, s->form, cnt, A, B, C, D, b->swap[s->form], err);
        for (long q = 0; !rc && q < cnt; q++)
            for (int i = 0; i < per; i++) {
                int r, c;
                gc_nset_pos(s, i, &r, &c);
                uint32_t v = D[q * m * n + r * n + c];
                nan_out += gc_nfmt_is_nan(f->c, v);
                put_bits(out, cb, (q0 + q) * per + i, v);
            }
    }
    free(A), free(B), free(C), free(D);
    char name[128], fc[128];
    gc_nset_name(s, name, sizeof(name));
    form_cols(f, fc, sizeof(fc));
    uint64_t h = rc ? 0 : gc_nfnv1a(GC_NFNV_INIT, out, (unsigned long)(s->mmas * per * cb));
    if (!rc)
        rc = row(b, err, "fixture,%s,-,-,%s,%ld,%ld,%016llx,%ld,%s", fc, gc_ngen_name(s->gen),
                 s->mmas, s->mmas * per, (unsigned long long)h, nan_out,
                 s->sel == GC_NSEL_DIAG ? "diag" : "all");
    if (!rc && s->gen == GC_NG_WIDE) { /* up to 16384 random cases for the probes' fit */
        long keep = s->mmas, cap = 16384 / per;
        keep = keep < cap ? keep : cap;
        free(b->wide);
        b->wide = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(keep * per));
        b->wide_mmas = b->wide ? keep : 0;
        b->wide_form = s->form;
        for (long i = 0; b->wide && i < keep * per; i++)
            b->wide[i] = get_bits(out, cb, i);
    }
    if (!rc && s->gen == GC_NG_PROBE)
        rc = probe_rows(b, s, out, err);
    if (!rc && b->dump) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s.bin", b->dump, name);
        rc = gc_file_write_atomic(path, out, (size_t)(s->mmas * per * cb),
                                  b->ctx->force ? GC_AFILE_FORCE : 0, err);
        if (!rc && b->have_manifest)
            fprintf(b->manifest.fp, "%s,%s,%s,%s,%s,%s,%llu,%ld,%s,%ld,%016llx\n", name, f->inst,
                    f->shape, gc_nfmt_info(f->a)->name, gc_nfmt_info(f->c)->name,
                    gc_ngen_name(s->gen), (unsigned long long)s->seed, s->mmas,
                    s->sel == GC_NSEL_DIAG ? "diag" : "all", s->mmas * per,
                    (unsigned long long)h);
    }
    free(out);
    return rc;
}

/* Element-wise profiles of one form: 3 experiments x 2 initialisations. */
static int run_profiles(bench_t *b, int fi, long mmas, gc_err_t *err)
{
    const gc_nform_t *f = &gc_nforms[fi];
    int m = f->m, n = f->n, k = f->k;
    uint32_t *A = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(mmas * m * k));
    uint32_t *B = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(mmas * k * n));
    uint32_t *C = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(mmas * m * n));
    uint32_t *D = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(mmas * m * n));
    float *ref = (float *)malloc(sizeof(float) * (size_t)(mmas * n));
    int rc = (!A || !B || !C || !D || !ref) ? gc_err_set(err, GC_ENOMEM, "out of memory") : 0;
    char fc[128];
    form_cols(f, fc, sizeof(fc));
    for (int e = 0; !rc && e < GC_NX_COUNT; e++)
        for (int in = 0; !rc && in < GC_NI_COUNT; in++) {
            for (long q = 0; q < mmas; q++)
                gc_nprof_fill(f, (gc_nexp_t)e, (gc_ninit_t)in, GC_NPROF_SEED(fi), q,
                              A + q * m * k, B + q * k * n, C + q * m * n, ref + q * n);
            rc = run_batch(&b->db, fi, mmas, A, B, C, D, b->swap[fi], err);
            if (rc)
                break;
            gc_nerr_t acc;
            memset(&acc, 0, sizeof(acc));
            for (long q = 0; q < mmas; q++)
                gc_nprof_add(f, D + q * m * n, ref + q * n, &acc);
            rc = row(b, err, "%s,%s,%s,f32,-,-,%ld,%.6g,%.6g,nonfinite=%ld", gc_nexp_name((gc_nexp_t)e),
                     fc, gc_ninit_name((gc_ninit_t)in), acc.n, acc.n ? acc.sum_abs / acc.n : 0,
                     acc.n_rel ? acc.sum_rel / acc.n_rel : 0, acc.nonfinite);
            if (!rc && f->c == GC_NF_F16)
                rc = row(b, err, "%s,%s,%s,f32cvt16,-,-,%ld,%.6g,%.6g,nonfinite=%ld",
                         gc_nexp_name((gc_nexp_t)e), fc, gc_ninit_name((gc_ninit_t)in), acc.n,
                         acc.n ? acc.sum_abs16 / acc.n : 0,
                         acc.n_rel16 ? acc.sum_rel16 / acc.n_rel16 : 0, acc.nonfinite);
        }
    free(A), free(B), free(C), free(D), free(ref);
    return rc;
}

/* Chain matrix multiplication of one form, both initialisations. */
static int run_chains(bench_t *b, int fi, long chains, int maxlen, gc_err_t *err)
{
    const gc_nform_t *f = &gc_nforms[fi];
    int m = f->m, n = f->n, k = f->k;
    uint32_t *A = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(chains * m * k));
    uint32_t *B = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(chains * k * n));
    uint32_t *C = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(chains * m * n));
    uint32_t *D = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)(chains * m * n));
    int rc = (!A || !B || !C || !D) ? gc_err_set(err, GC_ENOMEM, "out of memory") : 0;
    char fc[128];
    form_cols(f, fc, sizeof(fc));
    for (int in = 0; !rc && in < GC_NI_COUNT; in++) {
        gc_nchain_t *ch = gc_nchain_create(f, (gc_ninit_t)in, GC_NCHAIN_SEED(fi), chains);
        if (!ch) {
            rc = gc_err_set(err, GC_ENOMEM, "out of memory");
            break;
        }
        for (int len = 1; !rc && len <= maxlen; len++) {
            gc_nchain_inputs(ch, A, B, C);
            rc = run_batch(&b->db, fi, chains, A, B, C, D, b->swap[fi], err);
            if (rc)
                break;
            double mean;
            long live;
            gc_nchain_advance(ch, D, &mean, &live);
            rc = row(b, err, "chain,%s,%s,f32,-,%d,%ld,%.6g,%ld,-", fc, gc_ninit_name((gc_ninit_t)in),
                     len, live, live ? mean : 0.0, chains);
            if (!live)
                break;
        }
        gc_nchain_destroy(ch);
    }
    free(A), free(B), free(C), free(D);
    return rc;
}

/* A form job's body: the form's profiles and chains on its own stream
 * (the thread's device set first: a new host thread starts on device 0). */
static void *form_work(void *arg)
{
    formjob_t *j = (formjob_t *)arg;
    bench_t *b = &j->sub;
    gc_mctx_t *ctx = b->ctx;
    int rc = gc_cuda_check(cudaSetDevice(j->device), "selecting the device", &j->err);
    rc = rc ? rc : gc_cuda_check(cudaStreamCreateWithFlags(&b->db.stream, cudaStreamNonBlocking), "creating a stream", &j->err);
    if (!rc)
        rc = run_profiles(b, j->fi, ctx->quick ? 128 : GC_NPROF_MMAS, &j->err);
    if (!rc)
        rc = run_chains(b, j->fi, ctx->quick ? 100 : GC_NCHAIN_CHAINS, GC_NCHAIN_LEN, &j->err);
    dbuf_free(&b->db);
    if (b->db.stream)
        cudaStreamDestroy(b->db.stream);
    j->rc = rc;
    return NULL;
}

/* Start form fi's profiles and chains on a thread of their own; their rows
 * take this place in b's rows. */
static int start_form(bench_t *b, int fi, gc_err_t *err)
{
    formjob_t *j = (formjob_t *)calloc(1, sizeof(*j));
    if (!j)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    j->fi = fi;
    j->sub.ctx = b->ctx;
    j->sub.w = b->w;
    j->sub.db.form = -1;
    memcpy(j->sub.ok, b->ok, sizeof(b->ok));
    memcpy(j->sub.swap, b->swap, sizeof(b->swap));
    int rc = gc_cuda_check(cudaGetDevice(&j->device), "reading the current device", err);
    rc = rc ? rc : push_row(b, NULL, NULL, err);
    if (rc) {
        free(j);
        return rc;
    }
    b->rows[b->nrows - 1].fj = j;
    j->started = pthread_create(&j->tid, NULL, form_work, j) == 0;
    return 0;
}

static int run_numeric(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    int rc = gc_trace_put_meta(w, "pattern", "deterministic generator (numeric_gen.h): normal wide cancel special subnorm probe");
    rc = rc ? rc : gc_measure_columns(w, "numeric");
    if (rc)
        return gc_err_set(err, rc, "%s", gc_trace_writer_err(w)->msg);
    bench_t b;
    memset(&b, 0, sizeof(b));
    b.ctx = ctx;
    b.w = w;
    b.db.form = -1;
    b.dump = getenv("GPUCAL_NUMERIC_DUMP");
    if (b.dump && *b.dump) {
        if ((rc = gc_mkdir_p(b.dump, err)) != 0)
            return rc;
        char path[4096];
        snprintf(path, sizeof(path), "%s/sets.csv", b.dump);
        if ((rc = gc_afile_open(&b.manifest, path, ctx->force ? GC_AFILE_FORCE : 0, err)) != 0)
            return rc;
        b.have_manifest = 1;
        fprintf(b.manifest.fp, "set,inst,shape,a,c,gen,seed,mmas,outputs,cases,fnv1a64\n");
    } else {
        b.dump = NULL;
    }
    double t0 = gc_host_seconds(), t1, t2;
    /* 1. layouts */
    for (int fi = 0; !rc && fi < gc_nforms_count; fi++)
        if (form_runs(&b, &gc_nforms[fi]))
            rc = layout_check(&b, fi, err);
    t1 = gc_host_seconds();
    /* 2. fixture sets (probe sets included) */
    const gc_nset_t *sets;
    int nsets = gc_nset_plan(&sets);
    for (int i = 0; !rc && i < nsets; i++) {
        if (!b.ok[sets[i].form])
            continue;
        if (ctx->quick && !gc_nforms[sets[i].form].main)
            continue;
        rc = run_set(&b, &sets[i], err);
        gc_progress(ctx, i + 1, nsets, "fixture sets");
    }
    t2 = gc_host_seconds();
    /* 3. seed 000 section 8: profiles and chains */
    static const char *const prof[][4] = {
        {"mma", "m16n8k8", "tf32", "f32"},   {"mma", "m16n8k8", "bf16", "f32"},
        {"mma", "m16n8k8", "f16", "f32"},    {"mma", "m16n8k8", "f16", "f16"},
        {"mma", "m16n8k32", "e4m3", "f32"},  {"mma", "m16n8k32", "e5m2", "f32"},
        {"mma", "m16n8k32", "e4m3", "f16"},  {"wgmma", "m64n8k32", "e4m3", "f32"},
        {"wgmma", "m64n8k32", "e5m2", "f32"}, {"mma", "m16n8k16", "f16", "f32"},
        {"mma", "m16n8k16", "bf16", "f32"},  {"wgmma", "m64n8k16", "f16", "f32"},
    };
    int nprof = (int)(sizeof(prof) / sizeof(prof[0]));
    for (int i = 0; !rc && i < nprof; i++) {
        int fi = gc_nform_find(prof[i][0], prof[i][1], prof[i][2], prof[i][3]);
        if (fi < 0 || !b.ok[fi])
            continue;
        rc = start_form(&b, fi, err);
        gc_progress(ctx, i + 1, nprof, "profiles and chains started");
    }
    rc = flush_rows(&b, rc, err);
    if (!rc)
        fprintf(stderr, "[numeric] seconds: layouts %.1f, fixture sets %.1f, then waiting for the "
                        "probe fits, profiles and chains %.1f\n",
                t1 - t0, t2 - t1, b.probe_s);
    dbuf_free(&b.db);
    free(b.wide);
    if (b.have_manifest) {
        if (rc)
            gc_afile_abort(&b.manifest);
        else
            rc = gc_afile_commit(&b.manifest, err);
    }
    return rc;
}

extern "C" const gc_bench_t gc_bench_numeric = {
    "numeric",
    "tensor-core arithmetic: probes, bit-exact fixtures, seed 000 sec. 8 error profiles",
    run_numeric,
    gc_numeric_sass,
    GC_NUMERIC_SASS_N,
    80,
};
