/* mem_util.cuh - what the memory benches (pchase, pchase_fine, bw, clock,
 * tma, dsm, dpx) share: device-side loads with a named cache path, the
 * span of a multi-block timed region, and host helpers (device buffers,
 * the clock-read overhead, rows); clock samples under load are in
 * clk_series.h. Host functions live in mem_util.cu. CUDA runtime and libc
 * only. */
#ifndef GC_MEM_UTIL_CUH
#define GC_MEM_UTIL_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "clk_series.h"
#include "devclock.cuh"
#include "measure.h"

/* Blocks of 1024 threads one SM holds at once (a __launch_bounds__ minimum):
 * 2 where an SM runs 2048 threads (sm_80, sm_90), 1 where it runs 1536
 * (sm_86, sm_87, sm_89). */
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890)
#define GC_MEM_MINB 1
#else
#define GC_MEM_MINB 2
#endif

/* ---- loads with a named path (volatile asm: never merged or removed) ---- */

/* ld.global.ca: cached in L1 and L2 */
static __device__ __forceinline__ uint64_t gc_ld_ca(uint64_t p)
{
    uint64_t v;
    asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
/* ld.global.cg: cached in L2 only */
static __device__ __forceinline__ uint64_t gc_ld_cg(uint64_t p)
{
    uint64_t v;
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
/* ld.global with no cache operator: the compiler's and hardware's default */
static __device__ __forceinline__ uint64_t gc_ld_def(uint64_t p)
{
    uint64_t v;
    asm volatile("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* Store v to shared memory at the 32-bit shared address a: the store
 * cannot issue before v is loaded, so a clock read after it sees the load
 * complete (the fine-grained P-chase method). */
static __device__ __forceinline__ void gc_sts64(uint32_t a, uint64_t v)
{
    asm volatile("st.shared.u64 [%0], %1;" ::"r"(a), "l"(v) : "memory");
}
static __device__ __forceinline__ void gc_sts32(uint32_t a, uint32_t v)
{
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}
static __device__ __forceinline__ uint32_t gc_smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* ---- the span of a timed region over many blocks ---- */

/* Each block's thread 0 reads (clock64, globaltimer) at the start and end
 * of its part of the region; the span keeps the first start, the last end
 * (globaltimer ns: one clock for the whole chip) and the sums of cycles and
 * ns over blocks (their ratio is the SM clock during the region). */
typedef struct gc_span_dev {
    unsigned long long t0;   /* earliest start, ns */
    unsigned long long t1;   /* latest end, ns */
    unsigned long long cyc;  /* sum over blocks of their cycles */
    unsigned long long ns;   /* sum over blocks of their ns */
} gc_span_dev_t;

static __device__ __forceinline__ void gc_span_close(gc_span_dev_t *s, long long c0,
                                                     unsigned long long t0)
{
    long long c1 = gc_clock();
    unsigned long long t1 = gc_globaltimer();
    atomicMin(&s->t0, t0);
    atomicMax(&s->t1, t1);
    atomicAdd(&s->cyc, (unsigned long long)(c1 - c0));
    atomicAdd(&s->ns, t1 - t0);
}


/* ---- host helpers (mem_util.cu) ---- */
#ifdef __cplusplus
extern "C" {
#endif

/* Reset a device span before a launch. */
int gc_mem_span_reset(gc_span_dev_t *d, gc_err_t *err);

/* After a launch: check it, wait for it, read the span and give the
 * region as a launch result: ns = last end - first start, cycles = ns x the
 * SM clock of the region (sum cycles / sum ns over blocks). */
int gc_mem_span_read(const gc_span_dev_t *d, gc_launch_t *out, gc_err_t *err);

/* Check the last launch and wait for it (what names the kernel). */
int gc_mem_sync(const char *what, gc_err_t *err);

/* The clock-read overhead in cycles: the median over many samples of one
 * thread reading clock64, storing a register to shared memory and reading
 * clock64 again (the bracket every chase bench puts around its loads). */
int gc_mem_clock_overhead(double *cyc, gc_err_t *err);

/* A trace row error as a gc_err. */
int gc_mem_row_err(gc_trace_writer_t *w, gc_err_t *err);

#ifdef __cplusplus
}
#endif

/* Write one row; on failure fill err and return the code. */
#define GC_MEM_ROW(w, err, ...)                                                                \
    (gc_trace_rowf((w), __VA_ARGS__) != 0 ? gc_mem_row_err((w), (err)) : 0)

#endif
