/* bench_bw.cu - the `bw` bench: throughput of the L1, shared memory, the L2
 * and global memory with 4- and 16-byte accesses per thread (seed 004,
 * section 4.2), in bytes/clk/SM, bytes/clk and GB/s at the measured clock.
 *
 * Method: every level runs a full GPU (L1 and shared: two blocks of 1024
 * threads on every SM, each block over its own 64 KiB, read once untimed
 * and then `iters` times; L2: 2 blocks of 512 threads per SM over an array
 * of about L2/5 read with ld.global.cg, many passes; global: 2 blocks of
 * 1024 threads per SM over arrays of about 2 GiB, one pass). Each load is
 * independent (unrolled, consumed by an XOR that is stored), so the loads
 * are in flight together. The timed region runs from the first block's
 * start to the last block's end (%globaltimer); cycles = its ns x the SM
 * clock of the blocks (sum clock64 / sum globaltimer). Global memory counts
 * the bytes moved: `read` = bytes read, `write` = bytes written, `copy` =
 * bytes read + bytes written (each byte crosses the HBM interface once);
 * `read_l2pf` reads with the .L2::256B prefetch hint, `copy_cs` streams with
 * ld/st.global.cs, `*_blk` give each block one contiguous region, `r5w1` is
 * seed 004's kernel (5 reads and 1 write of 16 bytes per thread step; bytes
 * read + written). Writes OUT/bw.csv. */
#include <stdlib.h>
#include <string.h>

#include "mem_sass.h"
#include "bw_variants.h"
#include "mem_util.cuh"

enum { REGION = 64 << 10, TPB = 1024, NSMMAX = 1024 };

/* ---- loads (volatile: never merged, never hoisted) ---- */

static __device__ __forceinline__ unsigned ld_ca4(const void *p)
{
    unsigned v;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}
static __device__ __forceinline__ unsigned ld_ca16(const void *p)
{
    unsigned a, b, c, d;
    asm volatile("ld.global.ca.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                 : "l"(p));
    return a ^ b ^ c ^ d;
}
static __device__ __forceinline__ unsigned ld_cg4(const void *p)
{
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}
static __device__ __forceinline__ unsigned ld_cg16(const void *p)
{
    unsigned a, b, c, d;
    asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                 : "l"(p));
    return a ^ b ^ c ^ d;
}
static __device__ __forceinline__ unsigned ld_def4(const void *p)
{
    unsigned v;
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}
static __device__ __forceinline__ unsigned ld_def16(const void *p)
{
    unsigned a, b, c, d;
    asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                 : "l"(p));
    return a ^ b ^ c ^ d;
}
static __device__ __forceinline__ unsigned ld_pf16(const void *p)
{
    unsigned a, b, c, d;
    asm volatile("ld.global.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                 : "l"(p));
    return a ^ b ^ c ^ d;
}
static __device__ __forceinline__ unsigned ld_cs16(const void *p)
{
    unsigned a, b, c, d;
    asm volatile("ld.global.cs.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                 : "l"(p));
    return a ^ b ^ c ^ d;
}
static __device__ __forceinline__ unsigned lds4(uint32_t a)
{
    unsigned v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a));
    return v;
}
static __device__ __forceinline__ unsigned lds16(uint32_t p)
{
    unsigned a, b, c, d;
    asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                 : "r"(p));
    return a ^ b ^ c ^ d;
}
static __device__ __forceinline__ void st4(void *p, unsigned v)
{
    asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
static __device__ __forceinline__ void st16(void *p, unsigned v)
{
    asm volatile("st.global.v4.u32 [%0], {%1,%1,%1,%1};" ::"l"(p), "r"(v) : "memory");
}
static __device__ __forceinline__ void st_cs16(void *p, unsigned v)
{
    asm volatile("st.global.cs.v4.u32 [%0], {%1,%1,%1,%1};" ::"l"(p), "r"(v) : "memory");
}

static __device__ __forceinline__ void mark_sm(unsigned *used)
{
    if (threadIdx.x == 0)
        used[gc_smid() % NSMMAX] = 1;
}

/* ---- L1: each block reads its own 64 KiB with ld.global.ca ---- */

#define BW_L1(W, U, LD)                                                                        \
    __global__ void __launch_bounds__(TPB) k_bw_l1_w##W(const char *a, int iters, int z,      \
                                                        gc_span_dev_t *span, unsigned *used,   \
                                                        unsigned *sink)                        \
    {                                                                                          \
        const char *r = a + (size_t)blockIdx.x * REGION + threadIdx.x * W;                     \
        unsigned x = 0;                                                                        \
        _Pragma("unroll") for (int k = 0; k < U; k++) x ^= LD(r + k * TPB * W);                \
        __syncthreads();                                                                       \
        long long c0 = gc_clock();                                                             \
        unsigned long long t0 = gc_globaltimer();                                              \
        for (int it = 0; it < iters; it++) {                                                   \
            const char *ri = r + (it & z);                                                     \
            _Pragma("unroll") for (int k = 0; k < U; k++) x ^= LD(ri + k * TPB * W);           \
        }                                                                                      \
        __syncthreads();                                                                       \
        if (threadIdx.x == 0)                                                                  \
            gc_span_close(span, c0, t0);                                                       \
        mark_sm(used);                                                                         \
        if (x == 0x9e3779b9u)                                                                  \
            sink[0] = x;                                                                       \
    }
BW_L1(4, 16, ld_ca4)
BW_L1(16, 4, ld_ca16)

/* ---- shared: each block reads its own 64 KiB of shared memory ---- */

#define BW_SMEM(W, U, LD)                                                                      \
    __global__ void __launch_bounds__(TPB) k_bw_smem_w##W(int iters, int z, gc_span_dev_t *span, \
                                                          unsigned *used, unsigned *sink)      \
    {                                                                                          \
        extern __shared__ __align__(16) unsigned sm[];                                         \
        for (int i = threadIdx.x; i < REGION / 4; i += TPB)                                    \
            sm[i] = i * 2654435761u;                                                           \
        __syncthreads();                                                                       \
        uint32_t r = gc_smem_addr(sm) + threadIdx.x * W;                                       \
        unsigned x = 0;                                                                        \
        long long c0 = gc_clock();                                                             \
        unsigned long long t0 = gc_globaltimer();                                              \
        for (int it = 0; it < iters; it++) {                                                   \
            uint32_t ri = r + (uint32_t)(it & z);                                              \
            _Pragma("unroll") for (int k = 0; k < U; k++) x ^= LD(ri + k * TPB * W);           \
        }                                                                                      \
        __syncthreads();                                                                       \
        if (threadIdx.x == 0)                                                                  \
            gc_span_close(span, c0, t0);                                                       \
        mark_sm(used);                                                                         \
        if (x == 0x9e3779b9u)                                                                  \
            sink[0] = x;                                                                       \
    }
BW_SMEM(4, 16, lds4)
BW_SMEM(16, 4, lds16)

/* ---- L2 and global: grid-stride passes, U independent loads per step ---- */

#define BW_READ(NAME, W, U, LD)                                                                \
    __global__ void __launch_bounds__(TPB, GC_MEM_MINB)                                                  \
        k_bw_##NAME##_w##W(const char *a, size_t per_thread, int passes, int z,                \
                                       gc_span_dev_t *span, unsigned *sink)                    \
    {                                                                                          \
        size_t G = (size_t)gridDim.x * blockDim.x;                                             \
        const char *r = a + ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * W;               \
        unsigned x = 0;                                                                        \
        __syncthreads();                                                                       \
        long long c0 = gc_clock();                                                             \
        unsigned long long t0 = gc_globaltimer();                                              \
        for (int ps = 0; ps < passes; ps++) {                                                  \
            const char *rp = r + (ps & z);                                                     \
            for (size_t i = 0; i < per_thread; i += U) {                                       \
                _Pragma("unroll") for (int k = 0; k < U; k++) x ^=                             \
                    LD(rp + (i + k) * G * W);                                                  \
            }                                                                                  \
        }                                                                                      \
        __syncthreads();                                                                       \
        if (threadIdx.x == 0)                                                                  \
            gc_span_close(span, c0, t0);                                                       \
        if (x == 0x9e3779b9u)                                                                  \
            sink[0] = x;                                                                       \
    }
BW_READ(l2, 4, 16, ld_cg4)
BW_READ(l2, 16, 4, ld_cg16)

/* L2, one request per 128-byte line: thread t's step i reads 16 bytes (one
 * ld.global.cg.v4) of line ((i x G) + t) & mask (mask + 1 lines, a power of
 * two that fits the L2 several times over), so every warp request touches
 * 32 lines once -- what an uncoalesced (transposing) access asks of the
 * L2. `bytes` counts the 16 bytes of each request: / 16 = lines served. */
__global__ void __launch_bounds__(TPB, GC_MEM_MINB)
    k_bw_l2sec_w16(const char *a, size_t per_thread, int passes, unsigned mask,
                   gc_span_dev_t *span, unsigned *sink)
{
    unsigned G = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = 0;
    __syncthreads();
    long long c0 = gc_clock();
    unsigned long long t0 = gc_globaltimer();
    for (int ps = 0; ps < passes; ps++) {
        for (unsigned i = 0; i < per_thread; i += 4) {
#pragma unroll
            for (int k = 0; k < 4; k++) {
                const char *q = a + (size_t)(((i + k) * G + t + (unsigned)ps) & mask) * 128;
                x ^= ld_cg16(q);
            }
        }
    }
    __syncthreads();
    if (threadIdx.x == 0)
        gc_span_close(span, c0, t0);
    if (x == 0x9e3779b9u)
        sink[0] = x;
}
BW_READ(read, 4, 16, ld_def4)
BW_READ(read, 16, 4, ld_def16)
BW_READ(readpf, 16, 4, ld_pf16)

#define BW_WRITE(W, U, ST)                                                                     \
    __global__ void __launch_bounds__(TPB, GC_MEM_MINB)                                                  \
        k_bw_write_w##W(char *a, size_t per_thread, gc_span_dev_t *span)                       \
    {                                                                                          \
        size_t G = (size_t)gridDim.x * blockDim.x;                                             \
        char *r = a + ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * W;                     \
        __syncthreads();                                                                       \
        long long c0 = gc_clock();                                                             \
        unsigned long long t0 = gc_globaltimer();                                              \
        for (size_t i = 0; i < per_thread; i += U) {                                           \
            _Pragma("unroll") for (int k = 0; k < U; k++) ST(r + (i + k) * G * W, (unsigned)i); \
        }                                                                                      \
        __syncthreads();                                                                       \
        if (threadIdx.x == 0)                                                                  \
            gc_span_close(span, c0, t0);                                                       \
    }
BW_WRITE(4, 16, st4)
BW_WRITE(16, 4, st16)

#define BW_COPY(NAME, W, U, LD, ST)                                                            \
    __global__ void __launch_bounds__(TPB, GC_MEM_MINB)                                                  \
        k_bw_##NAME##_w##W(const char *a, char *b, size_t per_thread, gc_span_dev_t *span)     \
    {                                                                                          \
        size_t G = (size_t)gridDim.x * blockDim.x;                                             \
        size_t o = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * W;                        \
        __syncthreads();                                                                       \
        long long c0 = gc_clock();                                                             \
        unsigned long long t0 = gc_globaltimer();                                              \
        for (size_t i = 0; i < per_thread; i += U) {                                           \
            unsigned v[U];                                                                     \
            _Pragma("unroll") for (int k = 0; k < U; k++) v[k] = LD(a + o + (i + k) * G * W);  \
            _Pragma("unroll") for (int k = 0; k < U; k++) ST(b + o + (i + k) * G * W, v[k]);   \
        }                                                                                      \
        __syncthreads();                                                                       \
        if (threadIdx.x == 0)                                                                  \
            gc_span_close(span, c0, t0);                                                       \
    }
BW_COPY(copy, 4, 16, ld_def4, st4)
BW_COPY(copy, 16, 4, ld_def16, st16)
BW_COPY(copycs, 16, 4, ld_cs16, st_cs16)

/* Block-contiguous copy: block b copies bytes [b * chunk, (b + 1) * chunk),
 * its threads U x 16 bytes apart, so each block streams one region. */
__global__ void __launch_bounds__(TPB, GC_MEM_MINB)
    k_bw_copyblk_w16(const char *a, char *b, size_t chunk, gc_span_dev_t *span)
{
    enum { U = 4 };
    size_t o0 = (size_t)blockIdx.x * chunk + threadIdx.x * 16;
    size_t step = (size_t)blockDim.x * 16;
    __syncthreads();
    long long c0 = gc_clock();
    unsigned long long t0 = gc_globaltimer();
    for (size_t o = 0; o < chunk; o += U * step) {
        unsigned v[U];
#pragma unroll
        for (int k = 0; k < U; k++)
            v[k] = ld_def16(a + o0 + o + k * step);
#pragma unroll
        for (int k = 0; k < U; k++)
            st16(b + o0 + o + k * step, v[k]);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        gc_span_close(span, c0, t0);
}

/* The paper's global-memory kernel (seed 004, section 4.2): each thread
 * reads 5 x 16 bytes and writes 16 bytes per step. */
__global__ void __launch_bounds__(TPB, GC_MEM_MINB)
    k_bw_r5w1_w16(const char *a, char *b, size_t per_thread, gc_span_dev_t *span)
{
    size_t G = (size_t)gridDim.x * blockDim.x;
    size_t o = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * 16;
    __syncthreads();
    long long c0 = gc_clock();
    unsigned long long t0 = gc_globaltimer();
    for (size_t i = 0; i < per_thread; i += 5) {
        unsigned v = 0;
#pragma unroll
        for (int k = 0; k < 5; k++)
            v ^= ld_def16(a + o + (i + k) * G * 16);
        st16(b + o + i / 5 * G * 16, v);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        gc_span_close(span, c0, t0);
}

__global__ void __launch_bounds__(TPB, GC_MEM_MINB)
    k_bw_readblk_w16(const char *a, size_t chunk, gc_span_dev_t *span, unsigned *sink)
{
    enum { U = 4 };
    size_t o0 = (size_t)blockIdx.x * chunk + threadIdx.x * 16;
    size_t step = (size_t)blockDim.x * 16;
    unsigned x = 0;
    __syncthreads();
    long long c0 = gc_clock();
    unsigned long long t0 = gc_globaltimer();
    for (size_t o = 0; o < chunk; o += U * step) {
#pragma unroll
        for (int k = 0; k < U; k++)
            x ^= ld_def16(a + o0 + o + k * step);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        gc_span_close(span, c0, t0);
    if (x == 0x9e3779b9u)
        sink[0] = x;
}

/* ---- host ---- */

enum { L_L1, L_SMEM, L_L2, L_READ, L_READPF, L_WRITE, L_COPY, L_COPYCS, L_COPYBLK, L_READBLK,
       L_R5W1, L_L2SEC };

typedef struct bwpt {
    int kind, width, blocks, threads, iters;
    size_t per_thread;
    unsigned mask; /* read_sector: lines - 1 */
    char *a, *b;
    gc_span_dev_t *span;
    unsigned *used, *sink;
    size_t smem;
} bwpt_t;

/* One launch of the fixed kernel p->kind (one of the kernels above). */
static void bw_kernel(const bwpt_t *p)
{
    dim3 g(p->blocks), t(p->threads);
    int w16 = p->width == 16;
    switch (p->kind) {
    case L_L1:
        if (w16)
            k_bw_l1_w16<<<g, t>>>(p->a, p->iters, 0, p->span, p->used, p->sink);
        else
            k_bw_l1_w4<<<g, t>>>(p->a, p->iters, 0, p->span, p->used, p->sink);
        break;
    case L_SMEM:
        if (w16)
            k_bw_smem_w16<<<g, t, p->smem>>>(p->iters, 0, p->span, p->used, p->sink);
        else
            k_bw_smem_w4<<<g, t, p->smem>>>(p->iters, 0, p->span, p->used, p->sink);
        break;
    case L_L2:
        if (w16)
            k_bw_l2_w16<<<g, t>>>(p->a, p->per_thread, p->iters, 0, p->span, p->sink);
        else
            k_bw_l2_w4<<<g, t>>>(p->a, p->per_thread, p->iters, 0, p->span, p->sink);
        break;
    case L_L2SEC:
        k_bw_l2sec_w16<<<g, t>>>(p->a, p->per_thread, p->iters, p->mask, p->span, p->sink);
        break;
    case L_READ:
        if (w16)
            k_bw_read_w16<<<g, t>>>(p->a, p->per_thread, 1, 0, p->span, p->sink);
        else
            k_bw_read_w4<<<g, t>>>(p->a, p->per_thread, 1, 0, p->span, p->sink);
        break;
    case L_READPF: k_bw_readpf_w16<<<g, t>>>(p->a, p->per_thread, 1, 0, p->span, p->sink); break;
    case L_WRITE:
        if (w16)
            k_bw_write_w16<<<g, t>>>(p->b, p->per_thread, p->span);
        else
            k_bw_write_w4<<<g, t>>>(p->b, p->per_thread, p->span);
        break;
    case L_COPYCS: k_bw_copycs_w16<<<g, t>>>(p->a, p->b, p->per_thread, p->span); break;
    case L_COPYBLK: k_bw_copyblk_w16<<<g, t>>>(p->a, p->b, p->per_thread, p->span); break;
    case L_READBLK: k_bw_readblk_w16<<<g, t>>>(p->a, p->per_thread, p->span, p->sink); break;
    case L_R5W1: k_bw_r5w1_w16<<<g, t>>>(p->a, p->b, p->per_thread, p->span); break;
    case L_COPY:
        if (w16)
            k_bw_copy_w16<<<g, t>>>(p->a, p->b, p->per_thread, p->span);
        else
            k_bw_copy_w4<<<g, t>>>(p->a, p->b, p->per_thread, p->span);
        break;
    }
}

static int bw_launch(void *cookie, gc_launch_t *out, gc_err_t *err)
{
    bwpt_t *p = (bwpt_t *)cookie;
    int rc = gc_mem_span_reset(p->span, err);
    if (rc)
        return rc;
    bw_kernel(p);
    return gc_mem_span_read(p->span, out, err);
}

/* The device buffers of the bench. */
typedef struct bwbuf {
    size_t gbytes; /* bytes of a; b holds gbytes / 2 */
    char *a, *b;
    gc_span_dev_t *span;
    unsigned *used, *sink;
} bwbuf_t;

static int bw_alloc(gc_mctx_t *ctx, bwbuf_t *m, gc_err_t *err)
{
    size_t mib = 1 << 20;
    memset(m, 0, sizeof(*m));
    m->gbytes = ctx->quick ? 256 * mib : 2048 * mib;
    int rc = gc_cuda_check(cudaMalloc(&m->a, m->gbytes), "allocating the read buffer", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&m->b, m->gbytes / 2), "allocating the write buffer", err);
    rc = rc ? rc : gc_cuda_check(cudaMemset(m->a, 0x3c, m->gbytes), "filling the read buffer", err);
    rc = rc ? rc : gc_cuda_check(cudaMemset(m->b, 0, m->gbytes / 2), "filling the write buffer", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&m->span, sizeof(*m->span)), "allocating a span", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&m->used, NSMMAX * sizeof(unsigned)), "allocating SM flags", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&m->sink, sizeof(unsigned)), "allocating a sink", err);
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_bw_smem_w4, cudaFuncAttributeMaxDynamicSharedMemorySize, REGION), "allowing 64 KiB of shared memory", err);
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_bw_smem_w16, cudaFuncAttributeMaxDynamicSharedMemorySize, REGION), "allowing 64 KiB of shared memory", err);
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_bw_l1_w4, cudaFuncAttributePreferredSharedMemoryCarveout, 0), "setting the L1 carveout", err);
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_bw_l1_w16, cudaFuncAttributePreferredSharedMemoryCarveout, 0), "setting the L1 carveout", err);
    return rc;
}

static void bw_free(bwbuf_t *m)
{
    cudaFree(m->a);
    cudaFree(m->b);
    cudaFree(m->span);
    cudaFree(m->used);
    cudaFree(m->sink);
}

/* Shape one fixed-kernel point (blocks, threads, sizes) and return the
 * bytes it moves per launch. */
static double bw_shape(gc_mctx_t *ctx, bwpt_t *p, size_t gbytes)
{
    int sms = ctx->dev.sms, U = p->width == 16 ? 4 : 16;
    p->blocks = 2 * sms;
    p->threads = TPB;
    size_t G = (size_t)p->blocks * TPB;
    switch (p->kind) {
    case L_L1:
    case L_SMEM:
        p->iters = ctx->quick ? 200 : 2000;
        p->smem = p->kind == L_SMEM ? REGION : 0;
        return (double)p->blocks * p->iters * REGION;
    case L_L2: {
        p->threads = 512;
        G = (size_t)p->blocks * p->threads;
        size_t unit = G * (size_t)U * (size_t)p->width, m = (size_t)ctx->dev.l2_bytes / 5 / unit;
        p->per_thread = (m ? m : 1) * (size_t)U;
        p->iters = ctx->quick ? 16 : 128;
        return (double)G * p->per_thread * p->width * p->iters;
    }
    case L_L2SEC: { /* lines: the largest power of two within L2/5 (as the l2 rows) */
        p->threads = 512;
        G = (size_t)p->blocks * p->threads;
        size_t lines = 1;
        while (lines * 2 * 128 <= (size_t)ctx->dev.l2_bytes / 5)
            lines *= 2;
        p->mask = (unsigned)(lines - 1);
        p->per_thread = 16;
        p->iters = ctx->quick ? 16 : 128;
        return (double)G * p->per_thread * 16 * p->iters;
    }
    case L_COPYBLK:
    case L_READBLK: { /* per_thread holds the bytes of each block's region here */
        size_t unit = (size_t)TPB * 16 * 4, lim = p->kind == L_READBLK ? gbytes : gbytes / 2;
        p->per_thread = lim / p->blocks / unit * unit;
        return (double)p->per_thread * p->blocks * (p->kind == L_COPYBLK ? 2 : 1);
    }
    case L_R5W1:
        p->per_thread = gbytes / (G * 16 * 5) * 5;
        return (double)G * 16 * p->per_thread * 1.2; /* 5 reads + 1 write per step */
    default: {
        size_t unit = G * (size_t)U * (size_t)p->width;
        size_t lim = p->kind == L_READ || p->kind == L_READPF ? gbytes : gbytes / 2;
        p->per_thread = lim / unit * (size_t)U;
        return (double)G * p->per_thread * p->width *
               (p->kind == L_COPY || p->kind == L_COPYCS ? 2 : 1);
    }
    }
}

/* SMs that ran a block of the last launch (L1 and shared are per SM). */
static int bw_sms_used(const bwbuf_t *m, double *nsm, gc_err_t *err)
{
    static unsigned h[NSMMAX];
    int rc = gc_cuda_check(cudaMemcpy(h, m->used, sizeof(h), cudaMemcpyDeviceToHost), "reading SM flags", err);
    int k = 0;
    for (int j = 0; j < NSMMAX; j++)
        k += h[j] != 0;
    *nsm = k;
    return rc;
}

/* One point of a fixed kernel: shape, measure; fills *best as a row. */
static int bw_fixed(gc_mctx_t *ctx, const bwbuf_t *m, int kind, int width, gc_bw_best_t *best,
                    double *nsm, gc_err_t *err)
{
    bwpt_t p;
    memset(&p, 0, sizeof(p));
    p.kind = kind;
    p.width = width;
    p.a = m->a;
    p.b = m->b;
    p.span = m->span;
    p.used = m->used;
    p.sink = m->sink;
    memset(best, 0, sizeof(*best));
    best->bytes = bw_shape(ctx, &p, m->gbytes);
    best->width = width;
    best->blocks = p.blocks;
    best->threads = p.threads;
    snprintf(best->variant, sizeof(best->variant), "fixed");
    *nsm = ctx->dev.sms;
    int rc = gc_cuda_check(cudaMemset(m->used, 0, NSMMAX * sizeof(unsigned)), "clearing SM flags", err);
    rc = rc ? rc : gc_measure_point(ctx, bw_launch, &p, best->bytes, &best->pt, err);
    if (!rc && (kind == L_L1 || kind == L_SMEM))
        rc = bw_sms_used(m, nsm, err);
    return rc;
}

static int bw_header(gc_mctx_t *ctx, gc_trace_writer_t *w, double peak, gc_err_t *err)
{
    int rc = 0;
    if (peak > 0)
        rc = gc_trace_put_meta(w, "dram_peak_gbs", "%.1f", peak);
    rc = rc ? rc : gc_trace_put_meta(
        w, "method",
        "full GPU; l1/shared: 2 blocks x 1024 threads per SM, each block over its own 64 KiB "
        "(l1 read once untimed), `bytes` = all loads; l2: ld.global.cg over an array of about "
        "L2/5, many passes; global: about 2 GiB, one pass; op read = bytes read, write = bytes "
        "written, copy = bytes read + bytes written (each byte crosses the HBM interface once); "
        "variant `fixed`: one kernel shape; any other variant: the best of a sweep over access "
        "width (16/32 B per thread step), unroll, threads x blocks per SM and cache hints "
        "(ld/ld.cs/ld.nc/ld.cg/L2 evict_first, st/st.cs/L2 evict_first), the 3 best of a "
        "screen measured again with 3x the repeats; the copy's sweep also holds the driver's "
        "device-to-device cudaMemcpyAsync (variant cudaMemcpyAsync, width/blocks/threads 0: "
        "timed with CUDA events around the call, cycles = event time x the bench's SM clock); "
        "read_l2pf: .L2::256B hint; copy_cs: ld/st.global.cs; *_blk: each block streams one "
        "contiguous region instead of grid-stride; r5w1: 5 reads + 1 write of 16 bytes per "
        "thread step (seed 004's kernel), bytes = read + written; read_lines: L2, one 16-byte "
        "load per 128-byte line (the access of a transpose), bytes = 16 per line; "
        "cycles = (last block end - first block start, globaltimer) x SM clock of the blocks");
    (void)ctx;
    if (rc || gc_measure_columns(w, "bw") != 0)
        return gc_mem_row_err(w, err);
    return 0;
}

typedef struct bwplan {
    int kind, width, sweep; /* sweep: a GC_BWT_ target (the best variant), or -1 */
    const char *level, *op;
} bwplan_t;

static const bwplan_t plan[] = {
    {L_L1, 4, -1, "l1", "read"},       {L_L1, 16, -1, "l1", "read"},
    {L_SMEM, 4, -1, "shared", "read"}, {L_SMEM, 16, -1, "shared", "read"},
    {L_L2, 4, -1, "l2", "read"},       {L_L2, 16, GC_BWT_L2, "l2", "read"},
    {L_READ, 4, -1, "global", "read"}, {L_READ, 16, GC_BWT_READ, "global", "read"},
    {L_READPF, 16, -1, "global", "read_l2pf"},
    {L_WRITE, 4, -1, "global", "write"}, {L_WRITE, 16, GC_BWT_WRITE, "global", "write"},
    {L_COPY, 4, -1, "global", "copy"},   {L_COPY, 16, GC_BWT_COPY, "global", "copy"},
    {L_COPYCS, 16, -1, "global", "copy_cs"}, {L_COPYBLK, 16, -1, "global", "copy_blk"},
    {L_READBLK, 16, -1, "global", "read_blk"}, {L_R5W1, 16, -1, "global", "r5w1"},
    {L_L2SEC, 16, -1, "l2", "read_lines"},
};
#define NPLAN ((int)(sizeof(plan) / sizeof(plan[0])))

/* Write the row of plan entry q from its measured point b (nsm: SMs). */
static int bw_row(gc_trace_writer_t *w, const bwplan_t *q, const gc_bw_best_t *b, double nsm,
                  gc_err_t *err)
{
    double bclk = 1.0 / b->pt.med, mhz = b->pt.clock_mhz;
    return GC_MEM_ROW(w, err, "%s,%d,%d,%d,%.0f,%.0f,%.3f,%.2f,%.1f,%.1f,%s,%.1f,%.1f,%s",
                      q->level, b->width, b->blocks, b->threads, b->bytes, b->pt.med * b->bytes,
                      bclk / nsm, bclk, bclk * mhz / 1e3, mhz, q->op, 1.0 / b->pt.hi * mhz / 1e3,
                      1.0 / b->pt.lo * mhz / 1e3, b->variant);
}

static int run_bw(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    const gc_devinfo_t *dv = &ctx->dev;
    double peak = dv->mem_clock_mhz > 0 && dv->mem_bus_bits > 0
                      ? 2.0 * dv->mem_clock_mhz * 1e6 * dv->mem_bus_bits / 8.0 / 1e9
                      : 0;
    bwbuf_t m;
    memset(&m, 0, sizeof(m));
    int rc = bw_header(ctx, w, peak, err);
    rc = rc ? rc : bw_alloc(ctx, &m, err);
    double best = 0;
    const char *bestop = "";
    for (int i = 0; i < NPLAN && !rc; i++) {
        const bwplan_t *q = &plan[i];
        char label[64];
        snprintf(label, sizeof(label), "%s %s %d B%s", q->level, q->op, q->width,
                 q->sweep >= 0 ? " (variant sweep)" : "");
        gc_progress(ctx, i + 1, NPLAN, label);
        if (gc_resume_skip(ctx, 1))
            continue;
        gc_bw_best_t b;
        double nsm = dv->sms;
        if (q->sweep >= 0)
            rc = gc_bw_sweep(ctx, q->sweep, m.a, m.b, m.gbytes, m.span, m.sink, &b, err);
        else
            rc = bw_fixed(ctx, &m, q->kind, q->width, &b, &nsm, err);
        if (rc)
            break;
        double gbs = b.pt.clock_mhz / b.pt.med / 1e3;
        if (!strcmp(q->level, "global") && gbs > best) {
            best = gbs;
            bestop = q->op;
        }
        rc = bw_row(w, q, &b, nsm, err);
    }
    if (!rc && best > 0 && peak > 0)
        rc = gc_trace_put_meta(w, "note", "best global throughput %.1f GB/s (%s) = %.1f %% of %.1f GB/s",
                               best, bestop, 100.0 * best / peak, peak)
                 ? gc_mem_row_err(w, err)
                 : 0;
    bw_free(&m);
    return rc;
}

extern "C" const gc_bench_t gc_bench_bw = {
    "bw",
    "throughput of L1, shared, L2 and global memory (best of a variant sweep; 4/16/32-byte accesses)",
    run_bw,
    gc_mem_sass_bw,
    gc_mem_sass_bw_n,
    0,
    1,
};
