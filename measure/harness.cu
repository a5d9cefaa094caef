/* harness.cu - the generic measurement harness (see measure.h): device
 * facts, the SM clock, warm-up + repeats + median, progress, CUDA errors. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "devclock.cuh"
#include "event_time.cuh"
#include "measure.h"

extern "C" int gc_cuda_check(int code, const char *what, gc_err_t *err)
{
    if (code == cudaSuccess)
        return 0;
    return gc_err_set(err, GC_ERUN, "CUDA error while %s: %s (%s)", what,
                      cudaGetErrorString((cudaError_t)code), cudaGetErrorName((cudaError_t)code));
}

/* One thread spins `ns` nanoseconds; out[0] = cycles, out[1] = ns. */
__global__ void k_clock(unsigned long long ns, long long *out)
{
    unsigned long long t0 = gc_globaltimer();
    long long c0 = gc_clock();
    unsigned long long t;
    do {
        t = gc_globaltimer();
    } while (t - t0 < ns);
    long long c1 = gc_clock();
    out[0] = c1 - c0;
    out[1] = (long long)(t - t0);
}

extern "C" double gc_host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

extern "C" int gc_clock_measure(double ms, double *mhz, gc_err_t *err)
{
    return gc_clock_measure2(ms, mhz, NULL, err);
}

extern "C" int gc_clock_measure2(double ms, double *mhz, double *host_mhz, gc_err_t *err)
{
    long long *d, h[2];
    int rc = gc_cuda_check(cudaMalloc(&d, sizeof(h)), "allocating the clock buffer", err);
    if (rc)
        return rc;
    double t0 = gc_host_seconds();
    k_clock<<<1, 1>>>((unsigned long long)(ms * 1e6), d);
    rc = gc_cuda_check(cudaGetLastError(), "launching the clock kernel", err);
    if (!rc)
        rc = gc_cuda_check(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost),
                           "reading the clock kernel's result", err);
    double host = gc_host_seconds() - t0; /* includes launch and copy: a few us of ms */
    cudaFree(d);
    if (rc)
        return rc;
    if (h[1] <= 0 || h[0] <= 0)
        return gc_err_set(err, GC_ERUN, "the clock kernel saw no time pass (%lld ns)", h[1]);
    *mhz = (double)h[0] / (double)h[1] * 1e3;
    if (host_mhz)
        *host_mhz = (double)h[0] / host * 1e-6;
    return 0;
}

extern "C" int gc_measure_point(gc_mctx_t *ctx,
                                int (*launch)(void *cookie, gc_launch_t *out, gc_err_t *e),
                                void *cookie, double per, gc_point_t *pt, gc_err_t *err)
{
    gc_launch_t r;
    int rc = launch(cookie, &r, err); /* warm-up: caches, clocks, lazy module load */
    if (rc)
        return rc;
    int n = ctx->reps > 0 ? ctx->reps : 1;
    double *x = (double *)malloc(sizeof(double) * (size_t)n);
    if (!x)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    double cyc = 0, ns = 0;
    for (int i = 0; i < n; i++) {
        if ((rc = launch(cookie, &r, err)) != 0) {
            free(x);
            return rc;
        }
        x[i] = r.cycles / per;
        cyc += r.cycles;
        ns += r.ns;
    }
    gc_stats_median(x, n, &pt->med, &pt->lo, &pt->hi);
    free(x);
    /* the region's own clock when it ran long enough to read it; else the
     * clock measured at the bench's start */
    pt->clock_mhz = ns >= 1e5 ? cyc / ns * 1e3 : ctx->clock_mhz;
    pt->clock_moved = ns >= 1e5 && fabs(pt->clock_mhz - ctx->clock_mhz) > 0.02 * ctx->clock_mhz;
    return 0;
}

extern "C" void gc_progress(gc_mctx_t *ctx, long done, long total, const char *label)
{
    double t = gc_host_seconds();
    if (ctx->progress_tty) {
        if (done < total && t - ctx->progress_last < 0.2)
            return;
        fprintf(stderr, "\r\033[K[%s] %ld/%ld %s", ctx->bench, done, total, label);
        if (done >= total)
            fputc('\n', stderr);
    } else {
        /* one line per 10 % step */
        long step = total >= 10 ? total / 10 : 1;
        if (done != total && done % step != 0)
            return;
        fprintf(stderr, "[%s] %ld/%ld %s\n", ctx->bench, done, total, label);
    }
    ctx->progress_last = t;
}

extern "C" int gc_resume_skip(gc_mctx_t *ctx, long rows)
{
    gc_resume_t *r = &ctx->res;
    if (!r->active)
        return 0;
    if (r->rows - r->done >= rows) {
        r->done += rows;
        return 1;
    }
    /* what is left is a half-written unit (or nothing): cut it off */
    long keep = r->done ? r->offsets[r->done - 1] : r->header_end;
    if (r->rows > r->done)
        fprintf(stderr, "[%s] resume: dropping %ld row(s) of a half-written unit\n", ctx->bench,
                r->rows - r->done);
    gc_trace_truncate(r->w, keep, r->done);
    r->active = 0;
    return 0;
}

/* ---- CUDA-event timing of launches (event_time.cuh) ---- */

int gc_capture_graph(gc_launch_fn launch, void *cookie, int batch, cudaGraphExec_t *ge,
                     gc_err_t *err)
{
    cudaStream_t s;
    cudaGraph_t g;
    int rc = gc_cuda_check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
                           "creating a stream", err);
    if (rc)
        return rc;
    rc = gc_cuda_check(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), "capturing a graph",
                       err);
    for (int j = 0; j < batch && !rc; j++)
        launch(cookie, s);
    if (!rc)
        rc = gc_cuda_check(cudaStreamEndCapture(s, &g), "capturing a graph", err);
    if (!rc) {
        rc = gc_cuda_check(cudaGraphInstantiate(ge, g, 0), "instantiating a graph", err);
        cudaGraphDestroy(g);
    }
    cudaStreamDestroy(s);
    return rc;
}

int gc_event_time(cudaStream_t s, gc_launch_fn launch, void *cookie, int batch, int n, double *med,
                  double *lo, double *hi, gc_err_t *err)
{
    cudaEvent_t a = NULL, b = NULL;
    double *x = (double *)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!x)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int rc = gc_cuda_check(cudaEventCreate(&a), "creating an event", err);
    if (!rc)
        rc = gc_cuda_check(cudaEventCreate(&b), "creating an event", err);
    for (int i = 0; i < n && !rc; i++) {
        float ms = 0;
        cudaEventRecord(a, s);
        launch(cookie, s);
        cudaEventRecord(b, s);
        rc = gc_cuda_check(cudaEventSynchronize(b), "timing a launch", err);
        if (!rc)
            rc = gc_cuda_check(cudaEventElapsedTime(&ms, a, b), "reading an event", err);
        x[i] = ms * 1e3 / batch;
    }
    if (!rc)
        gc_stats_median(x, n, med, lo, hi);
    free(x);
    if (a)
        cudaEventDestroy(a);
    if (b)
        cudaEventDestroy(b);
    return rc;
}
