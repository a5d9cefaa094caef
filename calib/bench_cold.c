/* bench_cold.c - calib's handler of the cold trace (measure/bench_cold.cu):
 * what a kernel's first pass through its parameters and code costs, once per
 * launch. sm.const_miss_cyc: the least-squares slope of the per-kernel time
 * of the const_line rows against the parameter lines they read; sm.
 * code_miss_cyc: the slope of (code_cold - code_warm) against the cold 2 KiB
 * blocks run. Both in cycles at the rows' clock, with the slope's normal 95 %
 * interval. See bench.h. */
#include <math.h>
#include <string.h>

#include "bench.h"

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
        double v = gc_table_num(t, cu, r), lo = gc_table_num(t, clo, r),
               hi = gc_table_num(t, chi, r);
        if (!(lo <= v && v <= hi)) {
            gc_err_at(err, GC_EINPUT, file, (long)t->line[r], 0,
                      "us %g is outside its interval [%g, %g] (a corrupt row: re-measure)", v,
                      lo, hi);
            return -1;
        }
        k[n] = gc_table_num(t, ckk, r);
        us[n] = v;
        line[n++] = (long)t->line[r];
    }
    return n;
}

/* Least-squares slope of y on x over n points and its standard error;
 * 0 when the x do not vary (n < 3 or all equal). */
static int slope(const double *x, const double *y, int n, double *b, double *se)
{
    double mx = 0, my = 0, sxx = 0, sxy = 0, ss = 0;
    if (n < 3)
        return 0;
    for (int i = 0; i < n; i++)
        mx += x[i] / n, my += y[i] / n;
    for (int i = 0; i < n; i++)
        sxx += (x[i] - mx) * (x[i] - mx), sxy += (x[i] - mx) * (y[i] - my);
    if (!(sxx > 0))
        return 0;
    *b = sxy / sxx;
    for (int i = 0; i < n; i++) {
        double e = y[i] - my - *b * (x[i] - mx);
        ss += e * e;
    }
    *se = sqrt(ss / (n - 2) / sxx);
    return 1;
}

/* Put q = slope (us per unit) x clock, with its interval, or leave it out
 * with why. */
static void put_slope(gc_calib_ctx_t *c, gc_qty_t *q, const char *key, const double *x,
                      const double *y, int n, double mhz, const char *file, long l0, long l1,
                      const char *what)
{
    double b, se;
    if (!slope(x, y, n, &b, &se) || !(b > 0) || !(mhz > 0)) {
        gc_calib_leave_out(c, file, 0, "%s left out: %d rows of %s give no rising time", key, n,
                           what);
        return;
    }
    gc_calib_put(c, q, b * mhz, (b - 1.96 * se) * mhz, (b + 1.96 * se) * mhz,
                 gc_calib_str(c, "%s:%ld-%ld: least-squares slope of the per-kernel time of %s "
                                 "(%d rows), at the rows' SM clock",
                              file, l0, l1, what, n),
                 NULL);
    gc_calib_info(c, "%s: %s %.1f cycles", file, key, b * mhz);
}

int gc_bench_cold(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    double k[COLD_ROWS], us[COLD_ROWS], kw[COLD_ROWS], uw[COLD_ROWS], d[COLD_ROWS];
    long line[COLD_ROWS], lw[COLD_ROWS];
    double mhz = t->nrows ? gc_table_num(t, gc_table_col(t, "clock_mhz"), 0) : 0;
    int n = rows_of(t, "const_line", file, k, us, line, err);
    if (n < 0)
        return GC_EINPUT;
    put_slope(c, &c->a->sm.const_miss_cyc, "sm.const_miss_cyc", k, us, n, mhz, file,
              n ? line[0] : 0, n ? line[n - 1] : 0, "the const_line rows against their lines");
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
    put_slope(c, &c->a->sm.code_miss_cyc, "sm.code_miss_cyc", k, d, m, mhz, file,
              n ? line[0] : 0, nw ? lw[nw - 1] : 0,
              "code_cold less code_warm against the cold blocks");
    return 0;
}
