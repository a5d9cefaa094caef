/* bench_cold.c - calib's handler of the cold trace (measure/bench_cold.cu):
 * what a kernel's first pass through its parameters and code costs, once per
 * launch. sm.const_miss_cyc: the least-squares slope of the per-kernel time
 * of the const_line rows against the parameter lines they read; sm.
 * code_miss_cyc: the slope of (code_cold - code_warm) against the cold 2 KiB
 * blocks run. Both straight-line fits (fit.h, gc_fit_line), in cycles at the
 * rows' clock, with the slope's 95 % interval. See bench.h. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "fit.h"

#define COLD_ROWS 64

/* The k and us of the rows of `kind` (at most COLD_ROWS, in file order) into
 * k[], us[]; returns how many. A row whose median lies outside its own
 * interval is refused at its line (-1 with err set). */
static int rows_of(const gc_table_t *t, const char *kind, const char *file, double *k,
                   double *us, long *line, gc_err_t *err)
{
    int ck = gc_table_col(t, "kind"), ckk = gc_table_col(t, "k"), cu = gc_table_col(t, "us");
    int clo = gc_table_col(t, "us_lo"), chi = gc_table_col(t, "us_hi"), n = 0;
    for (size_t r = 0; r < t->nrows && n < COLD_ROWS; r++) {
        if (strcmp(gc_table_txt(t, ck, r), kind))
            continue;
        if (gc_table_check_ci(t, file, r, cu, clo, chi, err))
            return -1;
        k[n] = gc_table_num(t, ckk, r);
        us[n] = gc_table_num(t, cu, r);
        line[n++] = (long)t->line[r];
    }
    return n;
}

/* Put q = the slope of a straight-line fit of y (us) on x (fit.h's
 * gc_fit_line) times the clock, with its 95 % interval, or leave it out
 * with why. GC_ENOMEM when out of memory, else 0. */
static int put_slope(gc_calib_ctx_t *c, gc_qty_t *q, const char *key, const double *x,
                     const double *y, int n, double mhz, const char *file, long l0, long l1,
                     const char *what, gc_err_t *err)
{
    char why[GC_ERR_MSG_MAX] = "";
    gc_fit_result_t res;
    if (n < 3 || !(mhz > 0)) {
        snprintf(why, sizeof(why), "%d rows of %s at %g MHz (3 rows and a clock needed)", n,
                 what, mhz);
    } else {
        gc_err_t fe;
        gc_err_clear(&fe);
        int rc = gc_fit_line_xy(x, y, (size_t)n, &res, &fe);
        if (rc == GC_ENOMEM)
            return gc_err_set(err, GC_ENOMEM, "out of memory");
        if (rc)
            snprintf(why, sizeof(why), "%s", fe.msg);
        else if (!(res.p[1] > 0))
            snprintf(why, sizeof(why), "%d rows of %s give no rising time", n, what);
    }
    if (why[0]) {
        gc_calib_leave_out(c, file, 0, "%s left out: %s", key, why);
        return 0;
    }
    double b = res.p[1];
    gc_calib_put(c, q, b * mhz, res.has_ci ? res.lo[1] * mhz : 1, res.has_ci ? res.hi[1] * mhz : 0,
                 gc_calib_str(c, "%s:%ld-%ld: slope of a linear fit of the per-kernel time of %s "
                                 "(%d rows; GSL), at the rows' SM clock",
                              file, l0, l1, what, n),
                 NULL);
    gc_calib_info(c, "%s: %s %.1f cycles", file, key, b * mhz);
    return 0;
}

int gc_bench_cold(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    double k[COLD_ROWS], us[COLD_ROWS], kw[COLD_ROWS], uw[COLD_ROWS], d[COLD_ROWS];
    long line[COLD_ROWS], lw[COLD_ROWS];
    double mhz = t->nrows ? gc_table_num(t, gc_table_col(t, "clock_mhz"), 0) : 0;
    int n = rows_of(t, "const_line", file, k, us, line, err);
    if (n < 0)
        return GC_EINPUT;
    int rc = put_slope(c, &c->a->sm.const_miss_cyc, "sm.const_miss_cyc", k, us, n, mhz, file,
                       n ? line[0] : 0, n ? line[n - 1] : 0,
                       "the const_line rows against their lines", err);
    if (rc)
        return rc;
    n = rows_of(t, "code_cold", file, k, us, line, err);
    int nw = n < 0 ? -1 : rows_of(t, "code_warm", file, kw, uw, lw, err);
    if (n < 0 || nw < 0)
        return GC_EINPUT;
    /* cold - warm at each K both have, K >= 1 */
    int m = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < nw; j++)
            if (kw[j] == k[i] && k[i] >= 1) {
                k[m] = k[i];
                d[m++] = us[i] - uw[j];
                break;
            }
    return put_slope(c, &c->a->sm.code_miss_cyc, "sm.code_miss_cyc", k, d, m, mhz, file,
                     n ? line[0] : 0, nw ? lw[nw - 1] : 0,
                     "code_cold less code_warm against the cold blocks", err);
}
