/* clk_series.c - the clock bench's curve: settling test and rows (see
 * clk_series.h). */
#include "clk_series.h"

#include <stdlib.h>

#include "measure.h"

/* seconds of sample i after sample 0 */
static double at_s(const gc_clk_sample_t *s, int i)
{
    return (double)(s[i].ns - s[0].ns) / 1e9;
}

/* The clocks (MHz) of the intervals ending after t0 and up to t1 into x;
 * returns their count. */
static int window(const gc_clk_sample_t *s, int n, double t0, double t1, double *x)
{
    int m = 0;
    for (int i = 0; i + 1 < n; i++) {
        double te = at_s(s, i + 1);
        double dn = (double)(s[i + 1].ns - s[i].ns), dc = (double)(s[i + 1].cyc - s[i].cyc);
        if (te > t0 && te <= t1 && dn > 0)
            x[m++] = dc / dn * 1e3;
    }
    return m;
}

int gc_clk_settle(const gc_clk_sample_t *s, int n, double win_s, double tol, gc_clk_settle_t *out)
{
    *out = (gc_clk_settle_t){0};
    if (n < 4)
        return -1;
    double *x = (double *)malloc(sizeof(double) * (size_t)n);
    if (!x)
        return -1;
    double T = at_s(s, n - 1);
    int m = window(s, n, T - win_s, T, x);
    if (m < 3) {
        free(x);
        return -1;
    }
    gc_stats_median(x, m, &out->med, &out->lo, &out->hi);
    out->n = m;
    out->t_s = T;
    if (T >= 2 * win_s) {
        int k = window(s, n, T - 2 * win_s, T - win_s, x);
        if (k >= 3) {
            double lo, hi;
            gc_stats_median(x, k, &out->prev, &lo, &hi);
            double d = out->med - out->prev;
            out->settled = (d < 0 ? -d : d) < tol * out->prev;
        }
    }
    free(x);
    return 0;
}

double gc_clk_power(const gc_pw_sample_t *p, int np, double t0_s, double t1_s)
{
    double *x = (double *)malloc(sizeof(double) * (size_t)(np > 0 ? np : 1));
    if (!x)
        return 0;
    int m = 0;
    for (int i = 0; i < np; i++)
        if (p[i].t_s > t0_s && p[i].t_s <= t1_s)
            x[m++] = p[i].w;
    double med = 0, lo, hi;
    if (m)
        gc_stats_median(x, m, &med, &lo, &hi);
    free(x);
    return med;
}

int gc_clk_bins(const gc_clk_sample_t *s, int n, const gc_pw_sample_t *p, int np, double bin_s,
                gc_clk_bin_t *out, int max)
{
    int rows = 0;
    double cyc = 0, ns = 0, prev_end = 0, end = 0;
    long bin = -1;
    for (int i = 0; i + 1 < n; i++) {
        double te = at_s(s, i + 1);
        long b = (long)(te / bin_s - 1e-9); /* an end on an edge closes the lower bin */
        if (b != bin && ns > 0 && rows < max) {
            out[rows++] =
                (gc_clk_bin_t){end, ns / 1e9, cyc / ns * 1e3, gc_clk_power(p, np, prev_end, end)};
            prev_end = end;
            cyc = ns = 0;
        }
        bin = b;
        double dn = (double)(s[i + 1].ns - s[i].ns);
        if (dn > 0) {
            ns += dn;
            cyc += (double)(s[i + 1].cyc - s[i].cyc);
            end = te;
        }
    }
    if (ns > 0 && rows < max)
        out[rows++] =
            (gc_clk_bin_t){end, ns / 1e9, cyc / ns * 1e3, gc_clk_power(p, np, prev_end, end)};
    return rows;
}
