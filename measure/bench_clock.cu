/* bench_clock.cu - the `clock` bench: the SM clock the GPU sustains, with
 * no load besides the measuring thread (load = idle). Each sample is one
 * 20 ms spin of one thread reading %globaltimer against clock64. */
#include "measure.h"

static int run_clock(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    static const char *const cols[] = {"load", "clock_mhz", "clock_lo", "clock_hi", "seconds"};
    int rc = gc_trace_columns(w, cols, 5);
    if (rc)
        return gc_err_set(err, rc, "%s", gc_trace_writer_err(w)->msg);
    if (gc_resume_skip(ctx, 1))
        return 0; /* the idle row was measured before the interruption */
    enum { N = 15 };
    double x[N];
    int n = ctx->quick ? 5 : N;
    for (int i = 0; i < n; i++) {
        if ((rc = gc_clock_measure(20.0, &x[i], err)) != 0)
            return rc;
        gc_progress(ctx, i + 1, n, "idle");
    }
    double med, lo, hi;
    gc_stats_median(x, n, &med, &lo, &hi);
    if (gc_trace_rowf(w, "idle,%.1f,%.1f,%.1f,%.3f", med, lo, hi, n * 0.020) != 0)
        return gc_err_set(err, GC_EIO, "%s", gc_trace_writer_err(w)->msg);
    return 0;
}

extern "C" const gc_bench_t gc_bench_clock = {
    "clock", "SM clock sustained at idle (globaltimer vs clock64)", run_clock, NULL, 0, 0, 1,
};
