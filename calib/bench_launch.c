/* bench_launch.c - calib's handler of the launch trace: sm.launch_overhead_us
 * is the median event-timed cost of launching an empty kernel of one block
 * (the row kernel=empty, blocks=1), the way a user's timing of one launch
 * sees it; sm.kernel_floor_us the per-kernel time of a CUDA graph of empty
 * one-block kernels (kernel=empty_graph, blocks=1), and sm.block_dispatch_ns
 * the slope of the graph's per-kernel time between its two largest grids
 * (per further block on each SM). See bench.h. */
#include <math.h>
#include <string.h>

#include "bench.h"

/* Row r's us and its interval; a row whose median lies outside its own
 * interval is refused at its line (gc_table_check_ci). */
static int row_us(const gc_table_t *t, size_t r, const char *file, double *v, double *lo,
                  double *hi, gc_err_t *err)
{
    int cv = gc_table_col(t, "us"), clo = gc_table_col(t, "us_lo"), chi = gc_table_col(t, "us_hi");
    *v = gc_table_num(t, cv, r);
    *lo = gc_table_num(t, clo, r);
    *hi = gc_table_num(t, chi, r);
    return gc_table_check_ci(t, file, r, cv, clo, chi, err);
}

/* The first row of kernel k with `blocks` blocks, or -1. */
static long row_of(const gc_table_t *t, const char *k, double blocks)
{
    int ck = gc_table_col(t, "kernel"), cb = gc_table_col(t, "blocks");
    for (size_t r = 0; r < t->nrows; r++)
        if (!strcmp(gc_table_txt(t, ck, r), k) && gc_table_num(t, cb, r) == blocks)
            return (long)r;
    return -1;
}

/* The row of kernel k with the most blocks below `below`, or -1. */
static long row_most(const gc_table_t *t, const char *k, double below)
{
    int ck = gc_table_col(t, "kernel"), cb = gc_table_col(t, "blocks");
    long at = -1;
    for (size_t r = 0; r < t->nrows; r++) {
        double b = gc_table_num(t, cb, r);
        if (!strcmp(gc_table_txt(t, ck, r), k) && b < below &&
            (at < 0 || b > gc_table_num(t, cb, (size_t)at)))
            at = (long)r;
    }
    return at;
}

/* sm.launch_overhead_us from the one-block 'empty' row. */
static int put_overhead(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    long r = row_of(t, "empty", 1);
    double v, lo, hi;
    if (r < 0) {
        gc_calib_leave_out(c, file, 0, "sm.launch_overhead_us left out: no 'empty' row with 1 block");
        return 0;
    }
    int rc = row_us(t, (size_t)r, file, &v, &lo, &hi, err);
    if (rc)
        return rc;
    gc_calib_put(c, &c->a->sm.launch_overhead_us, v, lo, hi,
                 gc_calib_str(c, "%s:%ld: median event-timed launch of an empty kernel, one block",
                              file, (long)t->line[r]),
                 NULL);
    gc_calib_info(c, "%s: launch overhead %.2f us", file, v);
    return 0;
}

/* sm.kernel_floor_us from the one-block 'empty_graph' row; sm.block_dispatch_ns
 * from its two largest grids: (us_big - us_next) / (blocks per SM between
 * them). Left out, with the reason, when the rows are missing (traces from
 * before the graph rows) or the slope is not positive. */
static int put_graph(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    long r1 = row_of(t, "empty_graph", 1);
    double v, lo, hi;
    if (r1 < 0) {
        gc_calib_leave_out(c, file, 0, "sm.kernel_floor_us and sm.block_dispatch_ns left out: "
                                       "no 'empty_graph' rows (re-measure the launch bench)");
        return 0;
    }
    int rc = row_us(t, (size_t)r1, file, &v, &lo, &hi, err);
    if (rc)
        return rc;
    gc_calib_put(c, &c->a->sm.kernel_floor_us, v, lo, hi,
                 gc_calib_str(c, "%s:%ld: per-kernel time of a CUDA graph of empty one-block "
                                 "kernels", file, (long)t->line[r1]),
                 NULL);
    int cb = gc_table_col(t, "blocks");
    long rb = row_most(t, "empty_graph", INFINITY);
    long ra = rb < 0 ? -1 : row_most(t, "empty_graph", gc_table_num(t, cb, (size_t)rb));
    double vb = 0, va = 0, x = 0, sms = c->sms;
    int usable = ra >= 0 && ra != r1 && sms > 0;
    /* a row used is checked like the floor's: a corrupt one is bad input */
    if (usable && ((rc = row_us(t, (size_t)rb, file, &vb, &lo, &hi, err)) != 0 ||
                   (rc = row_us(t, (size_t)ra, file, &va, &lo, &hi, err)) != 0))
        return rc;
    if (!usable ||
        !((x = (gc_table_num(t, cb, (size_t)rb) - gc_table_num(t, cb, (size_t)ra)) / sms) > 0) ||
        !(vb > va)) {
        gc_calib_leave_out(c, file, 0, "sm.block_dispatch_ns left out: the 'empty_graph' rows "
                                       "give no two large grids of rising time");
        return 0;
    }
    gc_calib_put(c, &c->a->sm.block_dispatch_ns, 1e3 * (vb - va) / x, 1, 0,
                 gc_calib_str(c, "%s:%ld-%ld: per-kernel graph time of empty kernels, slope "
                                 "per further block on each SM", file, (long)t->line[ra],
                              (long)t->line[rb]),
                 NULL);
    gc_calib_info(c, "%s: kernel floor %.3f us, block dispatch %.1f ns per block per SM", file, v,
                  1e3 * (vb - va) / x);
    return 0;
}

int gc_bench_launch(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    int rc = put_overhead(c, t, file, err);
    return rc ? rc : put_graph(c, t, file, err);
}
