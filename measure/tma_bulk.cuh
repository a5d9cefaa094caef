/* tma_bulk.cuh - the mbarrier and bulk-copy (TMA) steps the TMA and clock
 * benches share (sm_90, PTX ISA: mbarrier, cp.async.bulk): a barrier
 * expecting one arrival, an arrival that also expects `bytes` of
 * transactions, the wait for a phase's completion, and a bulk copy of
 * `bytes` (a multiple of 16) from global to this block's shared memory that
 * completes them on barrier b. Addresses of shared memory are 32-bit
 * shared-window addresses (gc_smem_addr). */
#ifndef GC_TMA_BULK_CUH
#define GC_TMA_BULK_CUH

#include <stdint.h>

#if __CUDA_ARCH__ >= 900
static __device__ __forceinline__ void bar_init(uint32_t b)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
}
static __device__ __forceinline__ void bar_expect(uint32_t b, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes)
                 : "memory");
}
static __device__ __forceinline__ void bar_wait(uint32_t b, uint32_t phase)
{
    asm volatile("{\n\t.reg .pred P1;\n"
                 "WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@!P1 bra WAIT;\n}" ::"r"(b),
                 "r"(phase)
                 : "memory");
}
static __device__ __forceinline__ void tma_bulk(uint32_t dst, uint64_t src, uint32_t bytes,
                                                uint32_t b)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], "
                 "%2, [%3];" ::"r"(dst),
                 "l"(src), "r"(bytes), "r"(b)
                 : "memory");
}
#endif

#endif
