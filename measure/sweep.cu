/* sweep.cu - host driver shared by the tensor, CUDA-core and shared-memory
 * benches (see tensor_sweep.cuh): buffers, data patterns, the probe that
 * sizes a launch, the timed launch the harness repeats, and sink checks. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_plan.h"
#include "tensor_sweep.cuh"

extern "C" int gc_tsweep_init(gc_tsweep_t *s, gc_mctx_t *ctx, gc_err_t *err)
{
    memset(s, 0, sizeof(*s));
    s->ctx = ctx;
    s->sink_cap = (size_t)(ctx->dev.sms > 0 ? ctx->dev.sms : 1) * 1024;
    s->target_cyc = ctx->quick ? 1.0e5 : 5.0e5;
    int rc = gc_cuda_check(cudaMalloc(&s->d_in, (GC_T_WORDS + GC_T_AUX) * sizeof(uint32_t)),
                           "allocating the input words", err);
    if (!rc)
        rc = gc_cuda_check(cudaMalloc(&s->d_sink, s->sink_cap * sizeof(uint32_t)),
                           "allocating the sink", err);
    if (!rc)
        rc = gc_cuda_check(cudaMalloc(&s->d_rec, 2 * sizeof(unsigned long long)),
                           "allocating the timing record", err);
    if (!rc && !(s->h_sink = (uint32_t *)malloc(s->sink_cap * sizeof(uint32_t))))
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    if (rc)
        gc_tsweep_fini(s);
    return rc;
}

extern "C" void gc_tsweep_fini(gc_tsweep_t *s)
{
    cudaFree(s->d_in);
    cudaFree(s->d_sink);
    cudaFree(s->d_rec);
    free(s->h_sink);
    s->d_in = s->d_sink = NULL;
    s->d_rec = NULL;
    s->h_sink = NULL;
}

extern "C" int gc_tsweep_data(gc_tsweep_t *s, const char *type, int rand, const uint32_t *aux,
                              size_t naux, gc_err_t *err)
{
    uint32_t *h = (uint32_t *)calloc(GC_T_WORDS + GC_T_AUX, sizeof(uint32_t));
    if (!h)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int rc = 0;
    if (gc_sweep_fill(h, GC_T_WORDS, type, rand, 0x5eed0000u + (uint64_t)strlen(type)) != 0)
        rc = gc_err_set(err, GC_ERUN, "no data pattern for operand type '%s'", type);
    for (size_t i = 0; i < naux && i < GC_T_AUX; i++)
        h[GC_T_WORDS + i] = aux[i];
    if (!rc)
        rc = gc_cuda_check(cudaMemcpy(s->d_in, h, (GC_T_WORDS + GC_T_AUX) * sizeof(uint32_t),
                                      cudaMemcpyHostToDevice),
                           "uploading the input words", err);
    free(h);
    return rc;
}

extern "C" int gc_tsweep_words(gc_tsweep_t *s, const uint32_t *w, size_t n, gc_err_t *err)
{
    if (n > GC_T_WORDS)
        n = GC_T_WORDS;
    return gc_cuda_check(cudaMemcpy(s->d_in, w, n * sizeof(*w), cudaMemcpyHostToDevice),
                         "uploading the input words", err);
}

extern "C" int gc_tsweep_fits(const void *fn, int threads, size_t smem, const gc_devinfo_t *dev)
{
    cudaFuncAttributes a;
    if (cudaFuncGetAttributes(&a, fn) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    if (threads > a.maxThreadsPerBlock)
        return 0;
    return (long)(smem + a.sharedSizeBytes) <= dev->smem_optin_bytes;
}

static int launch(void *cookie, gc_launch_t *out, gc_err_t *err)
{
    gc_tsweep_t *s = (gc_tsweep_t *)cookie;
    int rc = gc_cuda_check(cudaMemsetAsync(s->d_rec, 0, 2 * sizeof(unsigned long long)),
                           "clearing the timing record", err);
    if (rc)
        return rc;
    const uint32_t *in = s->d_in;
    void *args[] = {(void *)&in, (void *)&s->d_sink, (void *)&s->d_rec, (void *)&s->trips};
    rc = gc_cuda_check(cudaLaunchKernel(s->fn, dim3((unsigned)s->blocks), dim3((unsigned)s->threads),
                                        args, s->smem, 0),
                       "launching a bench kernel", err);
    unsigned long long r[2];
    if (!rc)
        rc = gc_cuda_check(cudaMemcpy(r, s->d_rec, sizeof(r), cudaMemcpyDeviceToHost),
                           "running a bench kernel", err);
    if (rc)
        return rc;
    out->cycles = (double)r[0];
    out->ns = (double)r[1];
    return 0;
}

extern "C" int gc_tsweep_point(gc_tsweep_t *s, const void *fn, int blocks, int warps, size_t smem,
                               int unroll, gc_point_t *pt, long *iters, gc_err_t *err)
{
    const gc_devinfo_t *d = &s->ctx->dev;
    if (blocks > 1 && (long)smem <= d->smem_per_sm_bytes / 2) {
        /* one block per SM: ask for more than half of an SM's shared memory */
        size_t half = (size_t)d->smem_per_sm_bytes / 2 + 1024;
        if ((long)half <= d->smem_optin_bytes)
            smem = half;
    }
    if ((size_t)blocks * (size_t)warps * 32 > s->sink_cap)
        return gc_err_set(err, GC_ERUN, "%d blocks of %d warps exceed the sink", blocks, warps);
    int rc = 0;
    if (smem > 48 * 1024)
        rc = gc_cuda_check(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                (int)smem),
                           "raising a kernel's shared-memory limit", err);
    if (rc)
        return rc;
    s->fn = fn;
    s->blocks = blocks;
    s->threads = warps * 32;
    s->smem = smem;
    /* probe: 4 trips, then size the launch to target_cyc */
    s->trips = 4;
    gc_launch_t probe;
    if ((rc = launch(s, &probe, err)) != 0)
        return rc;
    double per_trip = probe.cycles / 4.0;
    double want = per_trip > 0 ? s->target_cyc / per_trip : 1.0;
    s->trips = want < 1 ? 1 : want > 1e7 ? 10000000 : (int)ceil(want);
    rc = gc_measure_point(s->ctx, launch, s, (double)s->trips * unroll, pt, err);
    *iters = (long)s->trips * unroll;
    return rc;
}

extern "C" int gc_tsweep_sink(gc_tsweep_t *s, size_t n, const uint32_t **out, gc_err_t *err)
{
    if (n > s->sink_cap)
        n = s->sink_cap;
    int rc = gc_cuda_check(cudaMemcpy(s->h_sink, s->d_sink, n * sizeof(uint32_t),
                                      cudaMemcpyDeviceToHost),
                           "reading the sink", err);
    *out = s->h_sink;
    return rc;
}

extern "C" int gc_tsweep_check(gc_tsweep_t *s, size_t n, int kind, int rand, const char *what,
                               gc_err_t *err)
{
    const uint32_t *v;
    int rc = gc_tsweep_sink(s, n, &v, err);
    if (rc)
        return rc;
    size_t nonzero = 0;
    for (size_t i = 0; i < n; i++) {
        if (kind == GC_SINK_FLOAT) {
            float f;
            memcpy(&f, &v[i], sizeof(f));
            if (!isfinite(f))
                return gc_err_set(err, GC_ERUN,
                                  "%s: thread %zu's results are not finite (%g): the kernel "
                                  "did not compute what it should",
                                  what, i, (double)f);
        }
        nonzero += v[i] != 0;
    }
    if (!rand && nonzero)
        return gc_err_set(err, GC_ERUN,
                          "%s: %zu of %zu threads report non-zero results on zero data", what,
                          nonzero, n);
    if (rand && !nonzero)
        return gc_err_set(err, GC_ERUN,
                          "%s: every result is zero on random data: the instructions did not "
                          "run or were optimised away",
                          what);
    return 0;
}

extern "C" int gc_tsweep_werr(gc_trace_writer_t *w, gc_err_t *err)
{
    return gc_err_set(err, GC_EIO, "%s", gc_trace_writer_err(w)->msg);
}

/* Measure, check and write one point that is to be measured. */
static int grid_point(gc_tsweep_t *s, gc_trace_writer_t *w, const gc_tgrid_t *g,
                      const gc_tpoint_t *p, int ilp, gc_err_t *err)
{
    gc_point_t pt;
    long iters;
    size_t n = (size_t)p->blocks * p->warps * 32;
    int rc = gc_tsweep_point(s, p->fn, p->blocks, p->warps, p->smem, p->unroll, &pt, &iters, err);
    if (!rc)
        rc = g->check ? g->check(g->cookie, s, n, p->label, err)
                      : gc_tsweep_check(s, n, p->sink_kind, p->rand, p->label, err);
    if (rc)
        return rc;
    double x = p->work;
    if (gc_trace_rowf(w, "%s,%d,%d,%ld,%d,%.3f,%.3f,%.3f,%.2f,%.2f,%.2f,%.1f,%d", p->cols, p->warps,
                      ilp, iters, s->ctx->reps, pt.med, pt.lo, pt.hi, x / pt.med, x / pt.hi,
                      x / pt.lo, pt.clock_mhz, pt.clock_moved) != 0)
        return gc_tsweep_werr(w, err);
    return 0;
}

extern "C" int gc_tsweep_grid(gc_tsweep_t *s, gc_trace_writer_t *w, const gc_tgrid_t *g,
                              gc_err_t *err)
{
    gc_mctx_t *ctx = s->ctx;
    int rc = 0;
    for (int si = 0; si < g->nsize && !rc; si++)
        for (int ii = 0; ii < g->nilp && !rc; ii++) {
            int ilp = g->ilps[ii];
            gc_tpoint_t p;
            memset(&p, 0, sizeof(p));
            g->plan(g->cookie, g->sizes[si], ilp, &p);
            if (g->done)
                gc_progress(ctx, ++*g->done, g->total, p.label);
            if (p.skip || !gc_tsweep_fits(p.fn, p.warps * 32, p.smem, &ctx->dev))
                continue; /* no kernel, or too many registers for this many warps */
            if (gc_resume_skip(ctx, 1))
                continue;
            rc = grid_point(s, w, g, &p, ilp, err);
        }
    return rc;
}
