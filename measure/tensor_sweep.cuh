/* tensor_sweep.cuh - what the tensor, CUDA-core and shared-memory benches
 * (bench_mma.cu, bench_mma_sp.cu, bench_wgmma.cu, bench_alu.cu,
 * bench_ldmatrix.cu, bench_smem.cu) share: one kernel signature, the timed
 * region, and the host driver (sweep.cu) that sizes, launches and checks a
 * point through the harness (gc_measure_point).
 *
 * Every kernel is `__global__ void k(GC_T_ARGS)`: `in` holds GC_T_WORDS data
 * words (the data pattern) followed by GC_T_AUX auxiliary words (sparsity
 * metadata, zeros); `sink` gets one word per thread (the results, which the
 * host checks); `rec` gets the cycles and %globaltimer
 * nanoseconds of the timed region (the longest block: first warp's start
 * to last warp's end); the timed loop runs `trips` times.
 */
#ifndef GC_TENSOR_SWEEP_CUH
#define GC_TENSOR_SWEEP_CUH

#include <stdint.h>

#include "devclock.cuh"
#include "measure.h"

#define GC_T_WORDS (1u << 16) /* data words; a power of two */
#define GC_T_AUX 8192u        /* auxiliary words after the data */
#define GC_T_META 0u          /* aux[0..32): sparsity metadata words */
#define GC_T_ZERO 32u         /* aux[32..GC_T_AUX): zeros */
#define GC_T_ARGS                                                                              \
    const uint32_t *__restrict__ in, uint32_t *__restrict__ sink, unsigned long long *rec,     \
        int trips

typedef void (*gc_tkernel_t)(const uint32_t *, uint32_t *, unsigned long long *, int);

/* ---- device side ---- */

/* loop-body unrolls; the same numbers as gc_sweep_unroll_mma/_alu (forms.c),
 * which the SASS rules count with */
__host__ __device__ constexpr int gc_sweep_unroll_mma_c(int ilp)
{
    return (16 + ilp - 1) / ilp;
}
__host__ __device__ constexpr int gc_sweep_unroll_alu_c(int ilp)
{
    return (64 + ilp - 1) / ilp;
}

typedef struct gc_ttimer {
    long long c0;
    unsigned long long g0;
} gc_ttimer_t;

/* the block's earliest start and latest end (one SM: one clock) */
__device__ __forceinline__ long long *gc_t_span(void)
{
    __shared__ long long span[4]; /* c0 min, c1 max, g0 min, g1 max */
    return span;
}

/* Start the timed region: the block's warps leave the barrier together. */
__device__ __forceinline__ void gc_t_begin(gc_ttimer_t *t)
{
    long long *sp = gc_t_span();
    if (threadIdx.x == 0) {
        sp[0] = sp[2] = 0x7fffffffffffffffLL;
        sp[1] = sp[3] = 0;
    }
    __syncthreads();
    t->g0 = gc_globaltimer();
    t->c0 = gc_clock();
}

/* End it. The region of a block runs from its first warp's start to its
 * last warp's end: a warp's own start is read only once the scheduler first
 * runs it after the barrier, so per-warp spans alone would miss the time a
 * starved warp waited. rec gets the longest block span (cycles of its SM,
 * and %globaltimer nanoseconds). Every thread of the block must call it. */
__device__ __forceinline__ void gc_t_end(const gc_ttimer_t *t, unsigned long long *rec)
{
    long long c1 = gc_clock();
    unsigned long long g1 = gc_globaltimer();
    long long *sp = gc_t_span();
    if ((threadIdx.x & 31) == 0) {
        atomicMin(&sp[0], t->c0);
        atomicMax(&sp[1], c1);
        atomicMin(&sp[2], (long long)t->g0);
        atomicMax(&sp[3], (long long)g1);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicMax(&rec[0], (unsigned long long)(sp[1] - sp[0]));
        atomicMax(&rec[1], (unsigned long long)(sp[3] - sp[2]));
    }
}

/* Global thread index (the sink slot). */
__device__ __forceinline__ unsigned gc_t_tid(void)
{
    return blockIdx.x * blockDim.x + threadIdx.x;
}

/* ---- host side (sweep.cu) ---- */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gc_tsweep {
    gc_mctx_t *ctx;
    uint32_t *d_in;             /* GC_T_WORDS + GC_T_AUX words */
    uint32_t *d_sink;           /* sink_cap words */
    unsigned long long *d_rec;  /* 2 words */
    uint32_t *h_sink;
    size_t sink_cap;
    double target_cyc;          /* cycles one timed launch should last */
    /* the launch being measured */
    const void *fn;
    int blocks, threads, trips;
    size_t smem;
} gc_tsweep_t;

/* Allocate the buffers for up to every SM x 1024 threads. */
int gc_tsweep_init(gc_tsweep_t *s, gc_mctx_t *ctx, gc_err_t *err);
void gc_tsweep_fini(gc_tsweep_t *s);

/* Fill the data words with `type` operands, zero or random
 * (gc_sweep_fill), and the auxiliary words with aux[0..naux) then zeros. */
int gc_tsweep_data(gc_tsweep_t *s, const char *type, int rand, const uint32_t *aux, size_t naux,
                   gc_err_t *err);

/* Set the first n data words to w[0..n) (the rest keep their contents). */
int gc_tsweep_words(gc_tsweep_t *s, const uint32_t *w, size_t n, gc_err_t *err);

/* 1 if kernel fn can run a block of `threads` threads with `smem` bytes of
 * dynamic shared memory (registers and shared memory permitting), else 0. */
int gc_tsweep_fits(const void *fn, int threads, size_t smem, const gc_devinfo_t *dev);

/* Measure one point: `blocks` blocks (1: one SM; more: one per SM, kept
 * apart by asking for more than half an SM's shared memory) of `warps`
 * warps. A probe launch sizes the trip count so that one launch lasts
 * about s->target_cyc cycles; then gc_measure_point warms up and repeats.
 * pt gets cycles per iteration (iteration = one trip / `unroll`), *iters
 * the iterations per launch. */
int gc_tsweep_point(gc_tsweep_t *s, const void *fn, int blocks, int warps, size_t smem,
                    int unroll, gc_point_t *pt, long *iters, gc_err_t *err);

/* Copy the first n sink words of the last launch to the host; *out points
 * at them (valid until the next call). */
int gc_tsweep_sink(gc_tsweep_t *s, size_t n, const uint32_t **out, gc_err_t *err);

/* Check the sink of the last launch (n words): GC_SINK_FLOAT words are
 * float bits (all must be finite), GC_SINK_INT integers. With zero data
 * every word must be 0; with random data at least one must not be. */
enum { GC_SINK_FLOAT = 1, GC_SINK_INT = 2 };
int gc_tsweep_check(gc_tsweep_t *s, size_t n, int kind, int rand, const char *what,
                    gc_err_t *err);

/* ---- the warps x ILP sweep (the harness's loop; a bench gives its plan) ---- */

/* One point of a sweep, as the bench's plan function fills it. */
typedef struct gc_tpoint {
    const void *fn;  /* the kernel */
    int blocks;      /* 1: one SM; more: one per SM */
    int warps;       /* warps per block (the row's warps column) */
    size_t smem;     /* dynamic shared memory, bytes */
    int unroll;      /* loop iterations per trip */
    double work;     /* work of one iteration of all the block's warps (FMA, ops, bytes):
                      * the rate cells are work / cycles per iteration */
    int sink_kind;   /* GC_SINK_FLOAT or GC_SINK_INT for gc_tsweep_check ... */
    int rand;        /* ... with random (1) or zero (0) data */
    int skip;        /* 1: no kernel for this point (counted in the progress only) */
    char label[128]; /* progress and error messages */
    char cols[192];  /* the row's cells before warps, comma-separated */
} gc_tpoint_t;

/* A sweep over sizes x ILPs (sizes outer): plan fills the point of one
 * size (warps, or warpgroups, as the bench counts) and ILP; check, when
 * not NULL, checks the sink of its launch (n words) instead of
 * gc_tsweep_check. done (NULL: the bench reports progress itself) counts
 * the points against total. */
typedef struct gc_tgrid {
    const int *sizes, *ilps;
    int nsize, nilp;
    void (*plan)(void *cookie, int size, int ilp, gc_tpoint_t *p);
    int (*check)(void *cookie, gc_tsweep_t *s, size_t n, const char *label, gc_err_t *err);
    void *cookie;
    long *done, total;
} gc_tgrid_t;

/* Run the sweep: per point, the progress line, then nothing for a point
 * that is skipped, does not fit (registers, shared memory) or that a
 * resumed run already wrote; else gc_tsweep_point, the sink check and one
 * row: cols, warps, ilp, iters, reps, cyc_per_iter and its interval, the
 * rate (work / cycles) and its interval, clock_mhz, clock_moved. Stops at
 * the first error. */
int gc_tsweep_grid(gc_tsweep_t *s, gc_trace_writer_t *w, const gc_tgrid_t *g, gc_err_t *err);

/* The trace writer's failure (a meta, column or row write) as GC_EIO in err. */
int gc_tsweep_werr(gc_trace_writer_t *w, gc_err_t *err);

#ifdef __cplusplus
}
#endif

#endif
