/* bench_cold.cu - the `cold` bench: what a kernel's first pass through its
 * parameters and its code costs. Each launch brings its own parameters
 * (constant bank 0) and finds its code out of the SM's instruction cache, so
 * a kernel that reads many lines of parameters or jumps to far code pays a
 * miss for each, once per launch, before its work. Rows: per-kernel GPU time
 * in a CUDA graph of `batch` launches of one block of one warp on every SM
 * (the launch bench's empty_graph method), against
 *   const_line K: K parameter words 64 bytes apart, each an independent
 *       instruction's constant operand (a miss in the constant cache stalls
 *       the warp's issue until the line arrives, so they queue);
 *   code_cold K: K far-apart blocks of 128 dependent IMADs (2 KiB of SASS
 *       each, called one after the other, each once);
 *   code_warm K: the same work from one block called K times (warm after
 *       the first).
 * calib reads the slopes: sm.const_miss_cyc per line, sm.code_miss_cyc per
 * cold block (cold - warm). */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "event_time.cuh"
#include "measure.h"

/* 4000 bytes of parameters: K words 64 bytes apart are K constant lines */
struct cold_params {
    unsigned w[1000];
};

template <int K>
__global__ void k_cold_const(cold_params p, unsigned *sink)
{
    unsigned s = 0;
#pragma unroll
    for (int i = 0; i < K; i++)
        s += p.w[16 * i] * (threadIdx.x + i);
    if (s == 0x9e3779b9u)
        sink[0] = s; /* never true for these parameters: keeps the reads */
}

/* 128 dependent IMADs (volatile: not folded into one): 2 KiB of SASS */
#define COLD_OP asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(a), "r"(b));
#define COLD_OP16                                                                            \
    COLD_OP COLD_OP COLD_OP COLD_OP COLD_OP COLD_OP COLD_OP COLD_OP COLD_OP COLD_OP COLD_OP \
        COLD_OP COLD_OP COLD_OP COLD_OP COLD_OP
#define COLD_BLOCK(n)                                                                        \
    __device__ __noinline__ unsigned cold_f##n(unsigned x, unsigned a, unsigned b)          \
    {                                                                                        \
        COLD_OP16 COLD_OP16 COLD_OP16 COLD_OP16 COLD_OP16 COLD_OP16 COLD_OP16 COLD_OP16     \
        return x + n;                                                                        \
    }
COLD_BLOCK(0) COLD_BLOCK(1) COLD_BLOCK(2) COLD_BLOCK(3) COLD_BLOCK(4) COLD_BLOCK(5)
COLD_BLOCK(6) COLD_BLOCK(7) COLD_BLOCK(8) COLD_BLOCK(9) COLD_BLOCK(10) COLD_BLOCK(11)
COLD_BLOCK(12) COLD_BLOCK(13) COLD_BLOCK(14) COLD_BLOCK(15)

/* k blocks: block i (cold: each its own code), or block 0 k times (warm) */
__global__ void k_cold_code(int k, int warm, unsigned a, unsigned b, unsigned *sink)
{
    unsigned x = threadIdx.x;
    for (int i = 0; i < k; i++) {
        switch (warm ? 0 : i) {
        case 0: x = cold_f0(x, a, b); break;
        case 1: x = cold_f1(x, a, b); break;
        case 2: x = cold_f2(x, a, b); break;
        case 3: x = cold_f3(x, a, b); break;
        case 4: x = cold_f4(x, a, b); break;
        case 5: x = cold_f5(x, a, b); break;
        case 6: x = cold_f6(x, a, b); break;
        case 7: x = cold_f7(x, a, b); break;
        case 8: x = cold_f8(x, a, b); break;
        case 9: x = cold_f9(x, a, b); break;
        case 10: x = cold_f10(x, a, b); break;
        case 11: x = cold_f11(x, a, b); break;
        case 12: x = cold_f12(x, a, b); break;
        case 13: x = cold_f13(x, a, b); break;
        case 14: x = cold_f14(x, a, b); break;
        default: x = cold_f15(x, a, b); break;
        }
    }
    if (x == 0x9e3779b9u)
        sink[0] = x;
}

typedef struct cold_row {
    const char *kind;
    int k;
} cold_row_t;

/* Launch one kernel of row r (grid blocks of one warp) on stream s. */
static void cold_launch(const cold_row_t *r, int grid, cudaStream_t s, const cold_params *p,
                        unsigned *sink)
{
    if (strcmp(r->kind, "const_line")) {
        k_cold_code<<<grid, 32, 0, s>>>(r->k, !strcmp(r->kind, "code_warm"), 3u, 7u, sink);
        return;
    }
    switch (r->k) {
    case 0: k_cold_const<0><<<grid, 32, 0, s>>>(*p, sink); break;
    case 4: k_cold_const<4><<<grid, 32, 0, s>>>(*p, sink); break;
    case 8: k_cold_const<8><<<grid, 32, 0, s>>>(*p, sink); break;
    case 16: k_cold_const<16><<<grid, 32, 0, s>>>(*p, sink); break;
    case 32: k_cold_const<32><<<grid, 32, 0, s>>>(*p, sink); break;
    default: k_cold_const<62><<<grid, 32, 0, s>>>(*p, sink); break;
    }
}

/* What a row's graph holds: one kernel of row r, grid blocks of one warp. */
typedef struct cold_call {
    const cold_row_t *r;
    int grid;
    const cold_params *p;
    unsigned *sink;
} cold_call_t;

static void launch_cold(void *cookie, cudaStream_t s)
{
    const cold_call_t *c = (const cold_call_t *)cookie;
    cold_launch(c->r, c->grid, s, c->p, c->sink);
}

static void launch_graph(void *cookie, cudaStream_t s)
{
    cudaGraphLaunch(*(cudaGraphExec_t *)cookie, s);
}

/* Median and 95 % interval, over n timings, of the per-kernel time of a
 * CUDA graph of `batch` launches of row r. */
static int time_row(const cold_row_t *r, int grid, int batch, int n, const cold_params *p,
                    unsigned *sink, double *med, double *lo, double *hi, gc_err_t *err)
{
    cudaStream_t s = NULL;
    cudaGraphExec_t ge = NULL;
    cold_call_t call = {r, grid, p, sink};
    int rc = gc_capture_graph(launch_cold, &call, batch, &ge, err);
    if (rc)
        return rc;
    rc = gc_cuda_check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "creating a stream",
                       err);
    if (!rc) /* warm-up: module load, clocks */
        rc = gc_cuda_check(cudaGraphLaunch(ge, s), "launching the graph", err);
    if (!rc)
        rc = gc_cuda_check(cudaStreamSynchronize(s), "warming up the cold bench", err);
    if (!rc)
        rc = gc_event_time(s, launch_graph, &ge, batch, n, med, lo, hi, err);
    cudaGraphExecDestroy(ge);
    if (s)
        cudaStreamDestroy(s);
    return rc;
}

static int run_cold(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    if (gc_measure_columns(w, "cold") != 0)
        return gc_err_set(err, GC_EIO, "%s", gc_trace_writer_err(w)->msg);
    double mhz;
    int rc = gc_clock_measure(20, &mhz, err);
    if (rc)
        return rc;
    if (gc_trace_put_meta(w, "method",
                          "per-kernel time of a CUDA graph of `batch` launches of one warp on "
                          "every SM, between two events, after one warm-up launch of the "
                          "graph; median and 95 %% interval over `reps` timings; clock_mhz: "
                          "the SM clock measured before the rows") != 0)
        return gc_err_set(err, GC_EIO, "%s", gc_trace_writer_err(w)->msg);
    static const cold_row_t rows[] = {
        {"const_line", 0},  {"const_line", 4},  {"const_line", 8}, {"const_line", 16},
        {"const_line", 32}, {"const_line", 62}, {"code_cold", 0},  {"code_warm", 0},
        {"code_cold", 1},   {"code_warm", 1},   {"code_cold", 2},  {"code_warm", 2},
        {"code_cold", 4},   {"code_warm", 4},   {"code_cold", 8},  {"code_warm", 8},
        {"code_cold", 16},  {"code_warm", 16},
    };
    const int nrows = (int)(sizeof(rows) / sizeof(rows[0]));
    int grid = ctx->dev.sms, batch = 50, n = ctx->quick ? 11 : 31;
    cold_params *p = (cold_params *)calloc(1, sizeof(cold_params));
    unsigned *sink = NULL;
    if (!p)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    for (int i = 0; i < 1000; i++) /* any words: the kernels only read them */
        p->w[i] = (unsigned)(i * 2654435761u);
    rc = gc_cuda_check(cudaMalloc(&sink, 64), "allocating the sink", err);
    for (int i = 0; i < nrows && !rc; i++) {
        char label[48];
        snprintf(label, sizeof(label), "%s %d", rows[i].kind, rows[i].k);
        gc_progress(ctx, i + 1, nrows, label);
        if (gc_resume_skip(ctx, 1))
            continue;
        double med, lo, hi;
        rc = time_row(&rows[i], grid, batch, n, p, sink, &med, &lo, &hi, err);
        if (!rc && gc_trace_rowf(w, "%s,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.1f", rows[i].kind, rows[i].k,
                                 grid, batch, n, med, lo, hi, mhz) != 0)
            rc = gc_err_set(err, GC_EIO, "%s", gc_trace_writer_err(w)->msg);
    }
    free(p);
    if (sink)
        cudaFree(sink);
    return rc;
}

/* the const_line kernels read their words as constant operands (ULDC, the
 * uniform datapath's constant load, from sm_75 on); the code kernel holds
 * its sixteen blocks of 128 IMADs (its listing includes the called
 * functions) and calls them */
static const gc_sass_rule_t cold_rules[] = {
    {"k_cold_constILi62", "ULDC", 62, -1},
    {"k_cold_code", "IMAD", 2048, -1},
    {"k_cold_code", "CALL", 16, -1},
};

extern "C" const gc_bench_t gc_bench_cold = {
    "cold", "a kernel's first pass through its parameters and its code: constant and "
            "instruction cache misses per launch",
    run_cold, cold_rules, 3, 75, 1, NULL,
};
