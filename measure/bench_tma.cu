/* bench_tma.cu - the `tma` bench (sm_90): the Tensor Memory Accelerator's
 * load latency and throughput, global -> shared (seed 004, section 5).
 *
 * Latency: one thread chases a random ring of 64-byte slots (page-aware,
 * as in pchase) with 16-byte TMA loads: `bulk` = cp.async.bulk (no tensor
 * map), `1d`/`2d`/`3d` = cp.async.bulk.tensor over an int32 tensor map of
 * the array (1D: n; 2D: 1024 x n/1024; 3D: 256 x 64 x n/16384) whose
 * coordinates come from the pointer just loaded. Each step is timed from
 * before mbarrier.arrive.expect_tx to after the mbarrier wait completes,
 * minus the clock-read overhead; the array is read through L2 right before
 * the chase. Two arrays: L2-resident (about L2/6) and 4x the L2 (DRAM).
 *
 * Throughput: one thread per block issues TMA loads into 3 shared-memory
 * stages (3 loads in flight per block) and waits for each; the load sizes
 * and shapes of seed 004 section 5 (bulk 1..16 KiB; 1D int64 boxes of
 * 64..256 elements; 2D f32 boxes 16x16..64x64; 3D f32 boxes 8x8x4..16x16x16)
 * with 1, 2, 3 and 4 blocks per SM, over a 1 GiB array (one pass). Every
 * load's first word is checked against the array's contents (its element
 * index), so a wrong coordinate is an error, not a number.
 *
 * SM link: 16 KiB loads (bulk, and 2D tiles of 64 x 64 f32) into one
 * block a SM (a block takes all of an SM's shared memory), issued by one
 * warp with 3 or 12 in flight or by 4 warps with 3 each, on 1, 8, a
 * quarter and all of the SMs, from a region inside the L2 read over and
 * over: what one SM's TMA brings in per clock when the L2 is idle around
 * it, and as the SMs share the L2.
 *
 * cuTensorMapEncodeTiled is a driver function: it is looked up with
 * cudaGetDriverEntryPointByVersion (the runtime's non-deprecated form of
 * cudaGetDriverEntryPoint), so the binary links only the CUDA runtime.
 * Writes OUT/tma.csv: metric,kind,box,load_bytes,blocks,array_bytes,value,
 * lo,hi,unit,clock_mhz. */
#include <cuda.h>
#include <stdlib.h>
#include <string.h>

#include "mem_sass.h"
#include "mem_util.cuh"
#include "ring.h"
#include "tma_bulk.cuh"

enum { K_BULK, K_1D, K_2D, K_3D };
static const char *const kind_name[] = {"bulk", "1d", "2d", "3d"};
enum { STAGES = 3, SLOT = 64, PAGE = 2 << 20, W2 = 1024, W3X = 256, W3Y = 64, MAXLOAD = 16384,
       LINK_LOAD = 16384, MAXSTAGES = 12, MAXWARPS = 4 };
static const uint64_t SEED = 0x67637061ull;

#if __CUDA_ARCH__ >= 900
/* a tensor load of rank 1..3 at coordinates c (elements) */
static __device__ __forceinline__ void tma_tensor(int rank, uint32_t dst, const CUtensorMap *tm,
                                                  int c0, int c1, int c2, uint32_t b)
{
    uint64_t t = (uint64_t)tm;
    if (rank == 1)
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::"
                     "bytes [%0], [%1, {%2}], [%3];" ::"r"(dst),
                     "l"(t), "r"(c0), "r"(b)
                     : "memory");
    else if (rank == 2)
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::"
                     "bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
                     "l"(t), "r"(c0), "r"(c1), "r"(b)
                     : "memory");
    else
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::"
                     "bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(dst),
                     "l"(t), "r"(c0), "r"(c1), "r"(c2), "r"(b)
                     : "memory");
}
#endif

/* ---- latency: a chase of 16-byte TMA loads ---- */

__global__ void k_tma_lat(const __grid_constant__ CUtensorMap tm, int kind, uint64_t base,
                          uint64_t start, long steps, unsigned long long *out)
{
#if __CUDA_ARCH__ >= 900
    __shared__ __align__(128) uint64_t buf[2];
    __shared__ __align__(8) uint64_t bar;
    __shared__ uint64_t s;
    uint32_t b = gc_smem_addr(&bar), d = gc_smem_addr(buf), a = gc_smem_addr(&s);
    bar_init(b);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    uint32_t phase = 0;
    uint64_t p = start;
    unsigned long long sum = 0;
    unsigned long long t0 = gc_globaltimer();
    long long r0 = gc_clock();
    for (long i = 0; i < steps; i++) {
        uint32_t e = (uint32_t)((p - base) >> 2); /* int32 element index */
        gc_sts64(a, p);
        long long c0 = gc_clock();
        bar_expect(b, 16);
        if (kind == K_BULK)
            tma_bulk(d, p, 16, b);
        else if (kind == K_1D)
            tma_tensor(1, d, &tm, (int)e, 0, 0, b);
        else if (kind == K_2D)
            tma_tensor(2, d, &tm, (int)(e % W2), (int)(e / W2), 0, b);
        else
            tma_tensor(3, d, &tm, (int)(e % W3X), (int)(e / W3X % W3Y), (int)(e / (W3X * W3Y)), b);
        bar_wait(b, phase);
        long long c1 = gc_clock();
        phase ^= 1;
        asm volatile("ld.shared.u64 %0, [%1];" : "=l"(p) : "r"(d) : "memory");
        sum += (unsigned long long)(c1 - c0);
    }
    long long r1 = gc_clock();
    unsigned long long t1 = gc_globaltimer();
    out[0] = p;
    out[1] = sum;
    out[2] = (unsigned long long)(r1 - r0);
    out[3] = t1 - t0;
#else
    out[0] = out[1] = out[2] = out[3] = 0;
#endif
}

/* ---- throughput ---- */

typedef struct tshape {
    int rank;              /* 0: bulk */
    unsigned box[3];       /* elements per dimension */
    unsigned tiles[3];     /* tiles per dimension */
    unsigned dim[3];       /* tensor extent per dimension, elements */
    unsigned esize;        /* bytes per element */
} tshape_t;

__global__ void k_tma_tp(const __grid_constant__ CUtensorMap tm, tshape_t sh, const char *src,
                         unsigned load_bytes, unsigned long long nloads, gc_span_dev_t *span,
                         unsigned *bad)
{
#if __CUDA_ARCH__ >= 900
    extern __shared__ __align__(128) unsigned char stage[];
    __shared__ __align__(8) uint64_t bars[STAGES];
    if (threadIdx.x != 0)
        return;
    for (int s = 0; s < STAGES; s++)
        bar_init(gc_smem_addr(&bars[s]));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    uint32_t base = (gc_smem_addr(stage) + 127u) & ~127u; /* tensor copies need 128-byte alignment */
    unsigned long long mine = nloads > blockIdx.x ? (nloads - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
    long long c0 = gc_clock();
    unsigned long long t0 = gc_globaltimer();
    unsigned nbad = 0;
    for (unsigned long long i = 0; i < mine + STAGES; i++) {
        int s = (int)(i % STAGES);
        uint32_t b = gc_smem_addr(&bars[s]), dst = base + (uint32_t)s * load_bytes;
        if (i >= STAGES) { /* wait for the load issued STAGES steps ago and check it */
            unsigned long long k = i - STAGES;
            bar_wait(b, (uint32_t)((k / STAGES) & 1));
            unsigned long long j = blockIdx.x + k * gridDim.x;
            unsigned long long e;
            if (sh.rank == 0) {
                e = j * load_bytes / 4;
            } else {
                unsigned long long tx = j % sh.tiles[0], r = j / sh.tiles[0];
                unsigned long long ty = r % sh.tiles[1], tz = r / sh.tiles[1];
                e = (tx * sh.box[0] + (ty * sh.box[1] + tz * sh.box[2] * sh.dim[1]) * sh.dim[0]) *
                    (sh.esize / 4);
            }
            unsigned v;
            asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(dst) : "memory");
            nbad += v != (unsigned)e;
        }
        if (i < mine) {
            unsigned long long j = blockIdx.x + i * gridDim.x;
            bar_expect(b, load_bytes);
            if (sh.rank == 0) {
                tma_bulk(dst, (uint64_t)(src + j * load_bytes), load_bytes, b);
            } else {
                unsigned long long tx = j % sh.tiles[0], r = j / sh.tiles[0];
                unsigned long long ty = r % sh.tiles[1], tz = r / sh.tiles[1];
                tma_tensor(sh.rank, dst, &tm, (int)(tx * sh.box[0]), (int)(ty * sh.box[1]),
                           (int)(tz * sh.box[2]), b);
            }
        }
    }
    gc_span_close(span, c0, t0);
    if (nbad)
        atomicAdd(bad, nbad);
#endif
}

/* The link rows' kernel: lane 0 of each of the block's warps keeps its own
 * ring of `stages` loads in flight (bulk copies, or 2D tiles of a map
 * `tiles0` tiles wide), warp w of block b taking loads b * W + w, then
 * every gridDim.x * W-th after it, wrapping at `wrap` loads; the indices
 * and tile coordinates advance by adds alone (a division a load would cost
 * the issuing thread more than a copy takes to arrive). Each load's first
 * word is checked against the array's contents. */
__global__ void k_tma_link(const __grid_constant__ CUtensorMap tm, int rank, const char *src,
                           unsigned load_bytes, unsigned per_warp, unsigned wrap, unsigned tiles0,
                           unsigned box0, unsigned box1, unsigned dim0, int stages,
                           gc_span_dev_t *span, unsigned *bad)
{
#if __CUDA_ARCH__ >= 900
    extern __shared__ __align__(128) unsigned char stage[];
    __shared__ __align__(8) uint64_t bars[MAXWARPS * MAXSTAGES];
    unsigned w = threadIdx.x / 32, W = blockDim.x / 32;
    if (threadIdx.x % 32 != 0)
        return;
    uint64_t *mb = bars + w * MAXSTAGES;
    for (int s = 0; s < stages; s++)
        bar_init(gc_smem_addr(&mb[s]));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    uint32_t base = ((gc_smem_addr(stage) + 127u) & ~127u) + w * (uint32_t)stages * load_bytes;
    unsigned stride = gridDim.x * W, first = (blockIdx.x * W + w) % wrap;
    unsigned step0 = stride % tiles0, step1 = stride / tiles0; /* the stride in tiles */
    unsigned jn = first, jc = first;                    /* next load to issue, to check */
    unsigned xn = first % tiles0, yn = first / tiles0, xc = xn, yc = yn;
    unsigned rows = wrap / tiles0;                      /* 2D: tile rows in the region */
    long long c0 = gc_clock();
    unsigned long long t0 = gc_globaltimer();
    unsigned nbad = 0;
    int s = 0;
    uint32_t phase = 0;
    for (unsigned i = 0; i < per_warp + stages; i++) {
        uint32_t b = gc_smem_addr(&mb[s]), dst = base + (uint32_t)s * load_bytes;
        if (i >= (unsigned)stages) { /* wait for the load issued `stages` steps ago, check it */
            bar_wait(b, phase ^ 1u);
            unsigned long long e = rank == 0 ? (unsigned long long)jc * load_bytes / 4
                                             : ((unsigned long long)yc * box1 * dim0 + xc * box0);
            unsigned v;
            asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(dst) : "memory");
            nbad += v != (unsigned)e;
            jc += stride;
            while (jc >= wrap)
                jc -= wrap;
            xc += step0;
            yc += step1 + (xc >= tiles0);
            xc -= xc >= tiles0 ? tiles0 : 0;
            while (rows && yc >= rows)
                yc -= rows;
        }
        if (i < per_warp) {
            bar_expect(b, load_bytes);
            if (rank == 0)
                tma_bulk(dst, (uint64_t)(src + (size_t)jn * load_bytes), load_bytes, b);
            else
                tma_tensor(2, dst, &tm, (int)(xn * box0), (int)(yn * box1), 0, b);
            jn += stride;
            while (jn >= wrap)
                jn -= wrap;
            xn += step0;
            yn += step1 + (xn >= tiles0);
            xn -= xn >= tiles0 ? tiles0 : 0;
            while (rows && yn >= rows)
                yn -= rows;
        }
        if (++s == stages) {
            s = 0;
            phase ^= 1u;
        }
    }
    gc_span_close(span, c0, t0);
    if (nbad)
        atomicAdd(bad, nbad);
#endif
}

/* element i of the array holds i (as 32-bit words) */
__global__ void k_tma_fill(unsigned *a, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        a[i] = (unsigned)i;
}

__global__ void k_tma_ring(char *arr, const uint32_t *next, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        *(uint64_t *)(arr + i * SLOT) = (uint64_t)(arr + (size_t)next[i] * SLOT);
}

__global__ void k_tma_touch(const uint4 *a, size_t n, unsigned *sink)
{
    unsigned x = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned v0, v1, v2, v3;
        asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3)
                     : "l"(a + i));
        x ^= v0 ^ v1 ^ v2 ^ v3;
    }
    if (x == 0x12345678u)
        sink[0] = x;
}

/* ---- host ---- */

typedef CUresult (*encode_fn_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                                const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static int get_encode(encode_fn_t *fn, gc_err_t *err)
{
    void *p = NULL;
    cudaDriverEntryPointQueryResult q;
    int rc = gc_cuda_check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                                            cudaEnableDefault, &q),
                           "looking up cuTensorMapEncodeTiled", err);
    if (rc)
        return rc;
    if (q != cudaDriverEntryPointSuccess || !p)
        return gc_err_set(err, GC_ERUN, "the driver has no cuTensorMapEncodeTiled (status %d)",
                          (int)q);
    *fn = (encode_fn_t)p;
    return 0;
}

/* A tiled tensor map of `rank` dimensions over base. */
static int encode(encode_fn_t fn, CUtensorMap *tm, CUtensorMapDataType type, unsigned esize,
                  int rank, void *base, const unsigned *dim, const unsigned *box, gc_err_t *err)
{
    cuuint64_t gd[3] = {1, 1, 1}, gs[2] = {0, 0};
    cuuint32_t bx[3] = {1, 1, 1}, es[3] = {1, 1, 1};
    uint64_t stride = esize;
    for (int i = 0; i < rank; i++) {
        gd[i] = dim[i];
        bx[i] = box[i];
        if (i > 0)
            gs[i - 1] = stride;
        stride *= dim[i];
    }
    CUresult r = fn(tm, type, (cuuint32_t)rank, base, gd, gs, bx, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                    CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return gc_err_set(err, GC_ERUN,
                          "cuTensorMapEncodeTiled refused a %dD map (dims %u x %u x %u, box %u x "
                          "%u x %u): CUresult %d",
                          rank, dim[0], rank > 1 ? dim[1] : 1, rank > 2 ? dim[2] : 1, box[0],
                          rank > 1 ? box[1] : 1, rank > 2 ? box[2] : 1, (int)r);
    return 0;
}

typedef struct latpt {
    CUtensorMap tm;
    int kind;
    char *arr;
    uint64_t start, want;
    long steps;
    unsigned long long *out;
    const uint4 *touch;
    size_t touch_n;
    unsigned *sink;
    int sms;
} latpt_t;

static int lat_launch(void *cookie, gc_launch_t *out, gc_err_t *err)
{
    latpt_t *p = (latpt_t *)cookie;
    k_tma_touch<<<p->sms * 2, 1024>>>(p->touch, p->touch_n, p->sink);
    k_tma_lat<<<1, 1>>>(p->tm, p->kind, (uint64_t)p->arr, p->start, p->steps, p->out);
    unsigned long long h[4];
    int rc = gc_mem_sync("running a TMA chase", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(h, p->out, sizeof(h), cudaMemcpyDeviceToHost), "reading a TMA chase", err);
    if (rc)
        return rc;
    if (h[0] != p->want)
        return gc_err_set(err, GC_ERUN, "%s TMA chase ended at %#llx, not at %#llx",
                          kind_name[p->kind], h[0], (unsigned long long)p->want);
    if (!h[2] || !h[3])
        return gc_err_set(err, GC_ERUN, "the TMA chase recorded no time");
    out->cycles = (double)h[1];
    out->ns = (double)h[3] * (double)h[1] / (double)h[2];
    return 0;
}

typedef struct tppt {
    CUtensorMap tm;
    tshape_t sh;
    const char *src;
    unsigned load_bytes;
    unsigned long long nloads;
    int blocks;
    size_t smem;
    gc_span_dev_t *span;
    unsigned *bad;
} tppt_t;

static int tp_launch(void *cookie, gc_launch_t *out, gc_err_t *err)
{
    tppt_t *p = (tppt_t *)cookie;
    int rc = gc_mem_span_reset(p->span, err);
    if (rc)
        return rc;
    k_tma_tp<<<p->blocks, 32, p->smem>>>(p->tm, p->sh, p->src, p->load_bytes, p->nloads, p->span,
                                        p->bad);
    return gc_mem_span_read(p->span, out, err);
}

/* State of the TMA bench: the encoder, clock overhead, plan (latency
 * array sizes, throughput bytes, chase steps, block multiples), progress
 * counters, and the device and host buffers. */
typedef struct tma {
    gc_mctx_t *ctx;
    gc_trace_writer_t *w;
    encode_fn_t enc;
    double ovh;
    size_t lat_arr[2], tp_bytes;
    long steps;
    int nbl;
    long done, total;
    char *arr;
    uint32_t *d_next, *order, *next;
    unsigned long long *d_out;
    unsigned *sink, *bad;
    gc_span_dev_t *span;
} tma_t;

/* 1 GiB / 16 KiB loads at 4 blocks per SM: the plan of seed 004 section 5 */
static const struct tma_shape {
    int kind;
    unsigned box[3];
} tma_shapes[] = {
    {K_BULK, {1024, 1, 1}}, {K_BULK, {2048, 1, 1}}, {K_BULK, {4096, 1, 1}},
    {K_BULK, {8192, 1, 1}}, {K_BULK, {12288, 1, 1}}, {K_BULK, {16384, 1, 1}},
    {K_1D, {64, 1, 1}},     {K_1D, {96, 1, 1}},     {K_1D, {128, 1, 1}},
    {K_1D, {160, 1, 1}},    {K_1D, {192, 1, 1}},    {K_1D, {256, 1, 1}},
    {K_2D, {16, 16, 1}},    {K_2D, {32, 16, 1}},    {K_2D, {32, 32, 1}},
    {K_2D, {64, 32, 1}},    {K_2D, {96, 32, 1}},    {K_2D, {64, 64, 1}},
    {K_3D, {8, 8, 4}},      {K_3D, {8, 8, 8}},      {K_3D, {16, 8, 8}},
    {K_3D, {16, 16, 8}},    {K_3D, {16, 16, 12}},   {K_3D, {16, 16, 16}},
};

/* Writes the TMA trace header (clock overhead, method) and the columns.
 * Returns 0, or the writer's error through gc_mem_row_err. */
static int tma_meta(const tma_t *t, gc_err_t *err)
{
    int rc = gc_trace_put_meta(t->w, "clock_overhead_cyc", "%.1f", t->ovh);
    rc = rc ? rc : gc_trace_put_meta(t->w, "method",
        "latency: one thread, 16-byte TMA loads chasing a random ring of %d-byte slots in %d-byte "
        "pages (coordinates from the loaded pointer), each timed from before "
        "mbarrier.arrive.expect_tx to after the mbarrier wait, minus clock_overhead_cyc, after a "
        "read of the array through L2; throughput: one issuing thread per block, %d stages, "
        "one pass over %zu MiB, GB/s = bytes / (last block end - first block start); link: "
        "%d-byte loads (bulk; 2D 64x64 f32 tiles), in_flight of them per block, into one block "
        "a SM on the blocks column's SMs, from a region inside the L2 (array_bytes) read over "
        "and over, bytes_clk_sm = bytes / blocks / SM cycles of the span",
        (int)SLOT, (int)PAGE, (int)STAGES, t->tp_bytes >> 20, (int)LINK_LOAD);
    if (rc || gc_measure_columns(t->w, "tma") != 0)
        return gc_mem_row_err(t->w, err);
    return 0;
}

/* Dynamic shared memory of a link block: all a block may opt into, less
 * 1 KiB for the kernel's static barriers (as pchase sizes its arrays), and
 * never below what the throughput rows' stages take. */
static size_t link_smem(const tma_t *t)
{
    size_t s = (size_t)t->ctx->dev.smem_optin_bytes / 1024 * 1024 - 1024;
    return s > (size_t)STAGES * MAXLOAD + 128 ? s : (size_t)STAGES * MAXLOAD + 128;
}

/* Allocates the device buffers (array for the larger of the latency and
 * throughput sizes, ring, results, checks, span), allows the TMA stages'
 * shared memory, and the host ring arrays. Returns 0 or the first
 * error; the caller frees t either way. */
static int tma_alloc(tma_t *t, gc_err_t *err)
{
    size_t arr_bytes = t->lat_arr[1] > t->tp_bytes ? t->lat_arr[1] : t->tp_bytes;
    size_t maxn = t->lat_arr[1] / SLOT;
    int rc = gc_cuda_check(cudaMalloc(&t->arr, arr_bytes), "allocating the TMA array", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&t->d_next, maxn * sizeof(uint32_t)), "allocating a ring", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&t->d_out, 4 * sizeof(unsigned long long)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&t->sink, sizeof(unsigned)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&t->bad, sizeof(unsigned)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&t->span, sizeof(*t->span)), "allocating", err);
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_tma_tp, cudaFuncAttributeMaxDynamicSharedMemorySize, STAGES * MAXLOAD + 128), "allowing TMA stages", err);
    /* the link rows take all of an SM's shared memory: one block a SM */
    rc = rc ? rc : gc_cuda_check(cudaFuncSetAttribute(k_tma_link, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)link_smem(t)), "allowing the link rows' shared memory", err);
    t->order = (uint32_t *)malloc(maxn * sizeof(uint32_t));
    t->next = (uint32_t *)malloc(maxn * sizeof(uint32_t));
    if (!rc && (!t->order || !t->next))
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    return rc;
}

/* Frees every buffer of t (NULL ones included). */
static void tma_free(tma_t *t)
{
    free(t->order);
    free(t->next);
    cudaFree(t->arr);
    cudaFree(t->d_next);
    cudaFree(t->d_out);
    cudaFree(t->sink);
    cudaFree(t->bad);
    cudaFree(t->span);
}

/* Builds and checks the random ring over latency array ai, copies it to
 * the device and writes it into the array; *n gets its slot count.
 * Returns 0 or the first error. */
static int tma_lat_ring(tma_t *t, int ai, size_t *n, gc_err_t *err)
{
    gc_ring_spec_t sp = {t->lat_arr[ai], SLOT, PAGE, GC_RING_RAND, SEED};
    int rc = gc_ring_check(&sp, n, err);
    rc = rc ? rc : gc_ring_build(&sp, t->order, t->next, *n, err);
    if (!rc && !gc_ring_is_cycle(t->next, *n))
        rc = gc_err_set(err, GC_ERUN, "ring of %zu slots is not one cycle", *n);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(t->d_next, t->next, *n * sizeof(uint32_t), cudaMemcpyHostToDevice), "copying a ring", err);
    if (rc)
        return rc;
    k_tma_ring<<<t->ctx->dev.sms * 4, 256>>>(t->arr, t->d_next, *n);
    return gc_mem_sync("writing the TMA ring", err);
}

/* Encodes into tm the 4-byte-element tensor map of kind (1D, 2D of
 * width W2, 3D of W3X x W3Y planes; nothing for bulk) over elems
 * elements of the array, with a 4x1x1 box. Returns 0 or the error. */
static int tma_lat_encode(const tma_t *t, int kind, size_t elems, CUtensorMap *tm, gc_err_t *err)
{
    unsigned box[3] = {4, 1, 1}, dim[3];
    if (kind == K_1D) {
        dim[0] = (unsigned)elems;
        return encode(t->enc, tm, CU_TENSOR_MAP_DATA_TYPE_INT32, 4, 1, t->arr, dim, box, err);
    }
    if (kind == K_2D) {
        dim[0] = W2;
        dim[1] = (unsigned)(elems / W2);
        return encode(t->enc, tm, CU_TENSOR_MAP_DATA_TYPE_INT32, 4, 2, t->arr, dim, box, err);
    }
    if (kind == K_3D) {
        dim[0] = W3X;
        dim[1] = W3Y;
        dim[2] = (unsigned)(elems / (W3X * W3Y));
        return encode(t->enc, tm, CU_TENSOR_MAP_DATA_TYPE_INT32, 4, 3, t->arr, dim, box, err);
    }
    return 0;
}

/* Latency of one load kind over latency array ai (ring of n slots):
 * encodes its map, times the chase, writes the row. Returns 0 or the
 * first error. */
static int tma_lat_point(tma_t *t, int ai, int kind, size_t n, gc_err_t *err)
{
    latpt_t lp;
    memset(&lp, 0, sizeof(lp));
    int rc = tma_lat_encode(t, kind, t->lat_arr[ai] / 4, &lp.tm, err);
    if (rc)
        return rc;
    char *arr = t->arr;
    double ovh = t->ovh;
    lp.kind = kind;
    lp.arr = arr;
    lp.start = (uint64_t)(arr + (size_t)t->order[0] * SLOT);
    lp.want = (uint64_t)(arr + (size_t)t->order[(size_t)t->steps % n] * SLOT);
    lp.steps = t->steps;
    lp.out = t->d_out;
    lp.touch = (const uint4 *)arr;
    lp.touch_n = t->lat_arr[ai] / 16;
    lp.sink = t->sink;
    lp.sms = t->ctx->dev.sms;
    gc_point_t pt;
    rc = gc_measure_point(t->ctx, lat_launch, &lp, (double)t->steps, &pt, err);
    return rc ? rc : GC_MEM_ROW(t->w, err, "latency,%s,%s,16,1,%zu,%.1f,%.1f,%.1f,cyc,%.1f,1,1",
                                kind_name[kind], kind == K_BULK ? "-" : kind == K_1D ? "4" : kind == K_2D ? "4x1" : "4x1x1",
                                t->lat_arr[ai], pt.med - ovh, pt.lo - ovh, pt.hi - ovh, pt.clock_mhz);
}

/* Latency part for array ai: the ring, then every load kind (progress
 * and resume per kind). Returns 0 or the first error. */
static int tma_latency(tma_t *t, int ai, gc_err_t *err)
{
    size_t n;
    int rc = tma_lat_ring(t, ai, &n, err);
    for (int kind = K_BULK; kind <= K_3D && !rc; kind++) {
        char label[64];
        snprintf(label, sizeof(label), "latency %s %zu MiB", kind_name[kind], t->lat_arr[ai] >> 20);
        gc_progress(t->ctx, ++t->done, t->total, label);
        if (gc_resume_skip(t->ctx, 1))
            continue;
        rc = tma_lat_point(t, ai, kind, n, err);
    }
    return rc;
}

/* Tiles shape sh (rank 1..3, boxes from the table) over the throughput
 * bytes: x = 32 boxes (1D: all), y = 16 boxes, z what is left; fills
 * dim and tiles, and returns the bytes of one load and *tiles. */
static unsigned tma_tile(const tma_t *t, const struct tma_shape *s, tshape_t *sh, size_t *ntiles)
{
    size_t elems = t->tp_bytes / sh->esize, tiles = 1;
    unsigned load = sh->esize;
    for (int d = 0; d < 3; d++) {
        sh->box[d] = d < sh->rank ? s->box[d] : 1;
        load *= sh->box[d];
    }
    /* extents: x = 32 (1D: all) boxes, y = 16 boxes, z what is left */
    if (sh->rank == 1) {
        sh->dim[0] = (unsigned)(elems / sh->box[0] * sh->box[0]);
        sh->dim[1] = sh->dim[2] = 1;
    } else if (sh->rank == 2) {
        sh->dim[0] = sh->box[0] * 32;
        sh->dim[1] = (unsigned)(elems / sh->dim[0] / sh->box[1] * sh->box[1]);
        sh->dim[2] = 1;
    } else {
        sh->dim[0] = sh->box[0] * 16;
        sh->dim[1] = sh->box[1] * 16;
        sh->dim[2] = (unsigned)(elems / ((size_t)sh->dim[0] * sh->dim[1]) / sh->box[2] * sh->box[2]);
    }
    for (int d = 0; d < 3; d++) {
        sh->tiles[d] = sh->dim[d] / sh->box[d];
        tiles *= sh->tiles[d];
    }
    *ntiles = tiles;
    return load;
}

/* Sets up the throughput point of table shape s in tp (loads, bytes per
 * load, tensor map for the tiled kinds) and its box label in boxs.
 * Returns 0 or the encoding error. */
static int tma_tp_shape(const tma_t *t, const struct tma_shape *s, tppt_t *tp, char *boxs, size_t nboxs,
                        gc_err_t *err)
{
    int kind = s->kind;
    tshape_t *sh = &tp->sh;
    unsigned esz = kind == K_1D ? 8 : 4;
    sh->esize = esz;
    if (kind == K_BULK) {
        sh->rank = 0;
        tp->load_bytes = s->box[0];
        tp->nloads = t->tp_bytes / tp->load_bytes;
        snprintf(boxs, nboxs, "-");
        return 0;
    }
    sh->rank = kind; /* K_1D = 1, K_2D = 2, K_3D = 3 */
    size_t tiles;
    tp->load_bytes = tma_tile(t, s, sh, &tiles);
    tp->nloads = tiles;
    if (sh->rank == 1)
        snprintf(boxs, nboxs, "%u", sh->box[0]);
    else if (sh->rank == 2)
        snprintf(boxs, nboxs, "%ux%u", sh->box[0], sh->box[1]);
    else
        snprintf(boxs, nboxs, "%ux%ux%u", sh->box[0], sh->box[1], sh->box[2]);
    return encode(t->enc, &tp->tm, kind == K_1D ? CU_TENSOR_MAP_DATA_TYPE_INT64 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                  esz, sh->rank, t->arr, sh->dim, sh->box, err);
}

/* Measures tp over tp->blocks blocks, checks that no tile came back
 * wrong and writes the throughput row. Returns 0 or the first error. */
/* Times one point (launch with cookie, `bytes` per launch) into *pt with
 * the check counter cleared before and read after: a load that brought a
 * wrong tile is an error naming `kind` and `boxs`, not a number. Returns 0
 * or the first error. */
static int tma_checked_point(tma_t *t, int (*launch)(void *, gc_launch_t *, gc_err_t *),
                             void *cookie, double bytes, int kind, const char *boxs,
                             gc_point_t *pt, gc_err_t *err)
{
    int rc = gc_cuda_check(cudaMemset(t->bad, 0, sizeof(unsigned)), "clearing the check", err);
    rc = rc ? rc : gc_measure_point(t->ctx, launch, cookie, bytes, pt, err);
    unsigned nbad = 0;
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(&nbad, t->bad, sizeof(nbad), cudaMemcpyDeviceToHost), "reading the check", err);
    if (!rc && nbad)
        rc = gc_err_set(err, GC_ERUN, "%s TMA loads (%s) brought %u wrong tiles", kind_name[kind], boxs, nbad);
    return rc;
}

static int tma_tp_point(tma_t *t, tppt_t *tp, int kind, const char *boxs, gc_err_t *err)
{
    gc_point_t pt;
    double bytes = (double)tp->nloads * tp->load_bytes;
    int rc = tma_checked_point(t, tp_launch, tp, bytes, kind, boxs, &pt, err);
    if (rc)
        return rc;
    double mhz = pt.clock_mhz;
    return GC_MEM_ROW(t->w, err, "throughput,%s,%s,%u,%d,%.0f,%.1f,%.1f,%.1f,gbs,%.1f,%d,1", kind_name[kind], boxs,
                      tp->load_bytes, tp->blocks, bytes, mhz / pt.med / 1e3, mhz / pt.hi / 1e3,
                      mhz / pt.lo / 1e3, mhz, (int)STAGES);
}

/* Throughput part: fills the array with its own word index, then every
 * table shape at 1..nbl blocks per SM (progress and resume per point).
 * Returns 0 or the first error. */
static int tma_throughput(tma_t *t, gc_err_t *err)
{
    int nsh = (int)(sizeof(tma_shapes) / sizeof(tma_shapes[0]));
    k_tma_fill<<<t->ctx->dev.sms * 4, 256>>>((unsigned *)t->arr, t->tp_bytes / 4);
    int rc = gc_mem_sync("filling the TMA array", err);
    for (int si = 0; si < nsh && !rc; si++) {
        tppt_t tp;
        memset(&tp, 0, sizeof(tp));
        int kind = tma_shapes[si].kind;
        char boxs[32];
        if ((rc = tma_tp_shape(t, &tma_shapes[si], &tp, boxs, sizeof(boxs), err)) != 0)
            break;
        tp.src = t->arr;
        tp.smem = (size_t)STAGES * tp.load_bytes + 128;
        tp.span = t->span;
        tp.bad = t->bad;
        for (int bi = 1; bi <= t->nbl && !rc; bi++) {
            char label[64];
            snprintf(label, sizeof(label), "throughput %s %s x%d", kind_name[kind], boxs, bi);
            gc_progress(t->ctx, ++t->done, t->total, label);
            if (gc_resume_skip(t->ctx, 1))
                continue;
            tp.blocks = bi * t->ctx->dev.sms;
            rc = tma_tp_point(t, &tp, kind, boxs, err);
        }
    }
    return rc;
}

/* The link rows' loads: 16 KiB each, a bulk copy and a 2D tensor tile
 * (64 x 64 f32), the copy a GEMM's or a convolution's operand tile takes. */
static const struct tma_shape link_shapes[] = {{K_BULK, {LINK_LOAD, 1, 1}}, {K_2D, {64, 64, 1}}};

typedef struct linkpt {
    CUtensorMap tm;
    int rank, warps, stages, blocks;
    const char *src;
    unsigned load_bytes, per_warp, wrap, tiles0, box0, box1, dim0;
    size_t smem;
    gc_span_dev_t *span;
    unsigned *bad;
} linkpt_t;

static int link_launch(void *cookie, gc_launch_t *out, gc_err_t *err)
{
    linkpt_t *p = (linkpt_t *)cookie;
    int rc = gc_mem_span_reset(p->span, err);
    if (rc)
        return rc;
    k_tma_link<<<p->blocks, 32 * p->warps, p->smem>>>(p->tm, p->rank, p->src, p->load_bytes,
                                                      p->per_warp, p->wrap, p->tiles0, p->box0,
                                                      p->box1, p->dim0, p->stages, p->span,
                                                      p->bad);
    return gc_mem_span_read(p->span, out, err);
}

/* One link row: loads of shape ls (k_tma_link), `stages` in flight in each
 * of `warps` issuing warps, into one block on each of g SMs (each block
 * asks for all of an SM's shared memory, so no two share one) from the
 * first `region` bytes of the array, read over and over (warm in the L2
 * after the first repeat). Returns 0 or the first error. */
static int tma_link_point(tma_t *t, const struct tma_shape *ls, int g, int warps, int stages,
                          size_t region, gc_err_t *err)
{
    tppt_t tp; /* the shape's load bytes, map and box label */
    memset(&tp, 0, sizeof(tp));
    char boxs[32];
    int rc = tma_tp_shape(t, ls, &tp, boxs, sizeof(boxs), err);
    if (rc)
        return rc;
    linkpt_t lp;
    memset(&lp, 0, sizeof(lp));
    lp.tm = tp.tm;
    lp.rank = tp.sh.rank;
    lp.warps = warps;
    lp.stages = stages;
    lp.blocks = g;
    lp.src = t->arr;
    lp.load_bytes = tp.load_bytes;
    lp.per_warp = t->ctx->quick ? 64 : 256;
    lp.wrap = (unsigned)(region / tp.load_bytes); /* the first tiles (2D: whole rows of them) */
    lp.tiles0 = lp.rank ? tp.sh.tiles[0] : 1;
    lp.box0 = tp.sh.box[0];
    lp.box1 = tp.sh.box[1];
    lp.dim0 = tp.sh.dim[0];
    lp.smem = link_smem(t);
    lp.span = t->span;
    lp.bad = t->bad;
    gc_point_t pt;
    double bytes = (double)g * warps * lp.per_warp * lp.load_bytes;
    rc = tma_checked_point(t, link_launch, &lp, bytes, ls->kind, boxs, &pt, err);
    /* cycles per byte of all g SMs -> bytes per clock of one SM */
    return rc ? rc : GC_MEM_ROW(t->w, err, "link,%s,%s,%u,%d,%zu,%.2f,%.2f,%.2f,bytes_clk_sm,%.1f,%d,%d",
                                kind_name[ls->kind], boxs, lp.load_bytes, g,
                                (size_t)lp.wrap * lp.load_bytes, 1 / (pt.med * g),
                                1 / (pt.hi * g), 1 / (pt.lo * g), pt.clock_mhz,
                                stages * warps, warps);
}

/* The SM link part: bulk copies and 2D tiles of 16 KiB into one block a
 * SM, issued by one warp with 3 or 12 in flight or by 4 warps with 3 each,
 * on 1, 8, a quarter and all of the SMs (rows "link", unit bytes_clk_sm),
 * from a region a quarter of the L2 (at most 16 MiB): the bytes one SM
 * takes in per clock with the L2 idle around it, then shared, and whether
 * one issuing thread is what limits it. Needs the array filled with its
 * word index (tma_throughput). Returns 0 or the first error. */
static int tma_link(tma_t *t, gc_err_t *err)
{
    int sms = t->ctx->dev.sms, gs[4] = {1, 8, sms / 4, sms};
    static const int cfg[3][2] = {{1, STAGES}, {1, MAXSTAGES}, {MAXWARPS, STAGES}}; /* warps, stages */
    size_t region = (size_t)t->ctx->dev.l2_bytes / 4;
    if (region > ((size_t)16 << 20))
        region = (size_t)16 << 20;
    region = region / (512 << 10) * (512 << 10); /* whole rows of 2D tiles (32 x 16 KiB) */
    if (region < (size_t)MAXSTAGES * LINK_LOAD * MAXWARPS)
        return gc_err_set(err, GC_ERUN, "the L2 (%ld bytes) is too small for the link rows",
                          (long)t->ctx->dev.l2_bytes);
    if (link_smem(t) < (size_t)MAXSTAGES * LINK_LOAD + 128)
        return gc_err_set(err, GC_ERUN, "a block's shared memory (%ld bytes) is too small for "
                          "the link rows", t->ctx->dev.smem_optin_bytes);
    int rc = 0;
    for (int k = 0; k < 2 && !rc; k++)
        for (int c = 0; c < 3 && !rc; c++)
            for (int i = 0; i < 4 && !rc; i++) {
                int g = gs[i];
                if (g < 1 || g > sms || (i > 0 && g <= gs[i - 1]))
                    continue;
                char label[80];
                snprintf(label, sizeof(label), "link %s, %d warp%s x %d in flight, %d SM%s",
                         kind_name[link_shapes[k].kind], cfg[c][0], cfg[c][0] == 1 ? "" : "s",
                         cfg[c][1], g, g == 1 ? "" : "s");
                gc_progress(t->ctx, ++t->done, t->total, label);
                if (gc_resume_skip(t->ctx, 1))
                    continue;
                rc = tma_link_point(t, &link_shapes[k], g, cfg[c][0], cfg[c][1], region, err);
            }
    return rc;
}

/* The TMA bench: header, buffers, latency of every load kind over an
 * array inside and one beyond L2, then throughput of every table shape;
 * frees everything on every path. Returns 0 or the first error. */
static int run_tma(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    tma_t t;
    memset(&t, 0, sizeof(t));
    t.ctx = ctx;
    t.w = w;
    int rc = get_encode(&t.enc, err);
    rc = rc ? rc : gc_mem_clock_overhead(&t.ovh, err);
    if (rc)
        return rc;
    size_t l2 = (size_t)ctx->dev.l2_bytes, g64 = 64 << 10;
    t.lat_arr[0] = l2 / 6 / g64 * g64;
    t.lat_arr[1] = 4 * l2 / g64 * g64;
    t.tp_bytes = (size_t)(ctx->quick ? 256 : 1024) << 20;
    t.steps = ctx->quick ? 256 : 1024;
    if ((rc = tma_meta(&t, err)) != 0)
        return rc;
    rc = tma_alloc(&t, err);
    t.nbl = ctx->quick ? 2 : 4;
    t.total = 8 + (long)(sizeof(tma_shapes) / sizeof(tma_shapes[0])) * t.nbl + 24;
    for (int ai = 0; ai < 2 && !rc; ai++)
        rc = tma_latency(&t, ai, err);
    /* throughput: the array holds its own word index */
    rc = rc ? rc : tma_throughput(&t, err);
    rc = rc ? rc : tma_link(&t, err);
    tma_free(&t);
    return rc;
}

extern "C" const gc_bench_t gc_bench_tma = {
    "tma",
    "TMA load latency and throughput (bulk and 1D/2D/3D tensor maps), sm_90",
    run_tma,
    gc_mem_sass_tma,
    gc_mem_sass_tma_n,
    90,
    1,
};
