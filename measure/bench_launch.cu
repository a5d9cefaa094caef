/* bench_launch.cu - the `launch` bench: what an empty kernel costs, timed the
 * way a user times a kernel (CUDA events around one launch, after warm-up;
 * median of many). The predictor adds this to every kernel's time
 * (sm.launch_overhead_us). Rows: one block of one warp; one block per SM of
 * 1024 threads; four blocks per SM of 256 threads; back-to-back launches
 * between two events (the cost per launch in a stream); and `empty_graph`:
 * a CUDA graph of `batch` empty kernels between two events, per kernel --
 * the GPU's own cost of a kernel with no host launch in between (what a
 * profiler's kernel duration cannot go below), for grids of 1 to 256
 * blocks per SM (the block dispatch rate shows as the grid grows). */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "event_time.cuh"
#include "measure.h"

__global__ void k_launch_empty(int *sink)
{
    if (sink && threadIdx.x == 0 && blockIdx.x == 0x7fffffff)
        *sink = 1; /* never true: keeps the kernel from being an empty body */
}

/* What one timing of a launch row covers: `batch` empty kernels of grid x
 * block back to back on the default stream, or its CUDA graph ge. */
typedef struct empty_batch {
    int grid, block, batch;
    cudaGraphExec_t ge;
} empty_batch_t;

/* One empty kernel of the row's grid x block on s (what a graph captures). */
static void launch_empty(void *cookie, cudaStream_t s)
{
    const empty_batch_t *e = (const empty_batch_t *)cookie;
    k_launch_empty<<<e->grid, e->block, 0, s>>>(NULL);
}

static void launch_empty_batch(void *cookie, cudaStream_t s)
{
    const empty_batch_t *e = (const empty_batch_t *)cookie;
    if (e->ge)
        cudaGraphLaunch(e->ge, s);
    else
        for (int j = 0; j < e->batch; j++)
            launch_empty(cookie, s);
}

/* Median and 95 % interval of n event-timed launches of grid x block, or
 * of `batch` back-to-back launches per timing (per launch); graph: the
 * batch as one CUDA graph. */
static int time_launch(int grid, int block, int batch, int graph, int n, double *med, double *lo,
                       double *hi, gc_err_t *err)
{
    for (int i = 0; i < 20; i++) /* warm-up: module load, clocks */
        k_launch_empty<<<grid, block>>>(NULL);
    int rc = gc_cuda_check(cudaDeviceSynchronize(), "warming up the empty kernel", err);
    empty_batch_t e = {grid, block, batch, NULL};
    if (!rc && graph)
        rc = gc_capture_graph(launch_empty, &e, batch, &e.ge, err);
    if (!rc)
        rc = gc_event_time(0, launch_empty_batch, &e, batch, n, med, lo, hi, err);
    if (e.ge)
        cudaGraphExecDestroy(e.ge);
    return rc;
}

static int run_launch(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    if (gc_measure_columns(w, "launch") != 0)
        return gc_err_set(err, GC_EIO, "%s", gc_trace_writer_err(w)->msg);
    if (gc_trace_put_meta(w, "method", "CUDA events around each launch (or around `batch` "
                                       "back-to-back launches, per launch; empty_graph: around "
                                       "one launch of a CUDA graph of `batch` kernels, per "
                                       "kernel), after 20 warm-up launches; median and 95 %% "
                                       "interval over `launches` timings") != 0)
        return gc_err_set(err, GC_EIO, "%s", gc_trace_writer_err(w)->msg);
    int sms = ctx->dev.sms, n = ctx->quick ? 51 : 201, ng = ctx->quick ? 11 : 31;
    const struct {
        const char *kernel;
        int grid, block, batch;
    } rows[] = {
        {"empty", 1, 32, 1},
        {"empty", sms, 1024, 1},
        {"empty", 4 * sms, 256, 1},
        {"empty_stream", 1, 32, 100},
        {"empty_graph", 1, 32, 1000},
        {"empty_graph", sms, 128, 1000},
        {"empty_graph", 4 * sms, 256, 1000},
        {"empty_graph", 16 * sms, 128, 1000},
        {"empty_graph", 64 * sms, 128, 200},
        {"empty_graph", 256 * sms, 128, 50},
    };
    const int nrows = (int)(sizeof(rows) / sizeof(rows[0]));
    for (int i = 0; i < nrows; i++) {
        gc_progress(ctx, i + 1, nrows, rows[i].kernel);
        if (gc_resume_skip(ctx, 1))
            continue;
        double med, lo, hi;
        int graph = !strcmp(rows[i].kernel, "empty_graph"), reps = graph ? ng : n;
        int rc = time_launch(rows[i].grid, rows[i].block, rows[i].batch, graph, reps, &med, &lo,
                             &hi, err);
        if (rc)
            return rc;
        if (gc_trace_rowf(w, "%s,%d,%d,%d,%d,%.3f,%.3f,%.3f", rows[i].kernel, rows[i].grid,
                          rows[i].block, rows[i].batch, reps, med, lo, hi) != 0)
            return gc_err_set(err, GC_EIO, "%s", gc_trace_writer_err(w)->msg);
    }
    return 0;
}

extern "C" const gc_bench_t gc_bench_launch = {
    "launch", "cost of launching an empty kernel (CUDA events), alone and back to back",
    run_launch, NULL, 0, 0, 1, NULL,
};
