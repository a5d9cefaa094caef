/* curve.c - plateaus and inflection points of latency vs size (see
 * curve.h). Curves have tens to a few hundred points: plain loops. */
#include "curve.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_pt(const void *a, const void *b)
{
    const gc_curve_pt_t *p = a, *q = b;
    if (p->x != q->x)
        return (p->x > q->x) - (p->x < q->x);
    return (p->line > q->line) - (p->line < q->line);
}

size_t gc_curve_normalize(gc_curve_pt_t *p, size_t n)
{
    if (n == 0)
        return 0;
    qsort(p, n, sizeof(*p), cmp_pt);
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        double sy = 0, slo = 0, shi = 0;
        int ci = 1;
        while (j < n && p[j].x == p[i].x) {
            sy += p[j].y;
            slo += p[j].lo;
            shi += p[j].hi;
            ci &= p[j].lo <= p[j].hi;
            j++;
        }
        double m = (double)(j - i);
        gc_curve_pt_t q = p[i];
        q.y = sy / m;
        q.lo = ci ? slo / m : 1;
        q.hi = ci ? shi / m : 0;
        p[out++] = q;
        i = j;
    }
    return out;
}

/* 1 if the y of [a, b] spread (max - min) at most tol of their median */
static int within(const gc_curve_pt_t *p, size_t a, size_t b, double tol, double *tmp)
{
    size_t m = b - a + 1;
    for (size_t i = 0; i < m; i++)
        tmp[i] = p[a + i].y;
    qsort(tmp, m, sizeof(*tmp), cmp_double);
    double med = m % 2 ? tmp[m / 2] : 0.5 * (tmp[m / 2 - 1] + tmp[m / 2]);
    return tmp[m - 1] - tmp[0] <= tol * fabs(med);
}

static void stats(const gc_curve_pt_t *p, gc_plateau_t *pl)
{
    size_t m = pl->last - pl->first + 1;
    double s = 0, ss = 0, slo = 0, shi = 0;
    int ci = 1;
    for (size_t i = pl->first; i <= pl->last; i++) {
        s += p[i].y;
        slo += p[i].lo;
        shi += p[i].hi;
        ci &= p[i].lo <= p[i].hi;
    }
    pl->level = s / (double)m;
    for (size_t i = pl->first; i <= pl->last; i++)
        ss += (p[i].y - pl->level) * (p[i].y - pl->level);
    pl->sd = m > 1 ? sqrt(ss / (double)(m - 1)) : 0;
    double h = m > 1 ? gsl_cdf_tdist_Pinv(0.975, (double)(m - 1)) * pl->sd / sqrt((double)m) : 0;
    pl->lo = pl->level - h;
    pl->hi = pl->level + h;
    if (ci) {
        if (slo / (double)m < pl->lo)
            pl->lo = slo / (double)m;
        if (shi / (double)m > pl->hi)
            pl->hi = shi / (double)m;
    }
    if (pl->lo > pl->level)
        pl->lo = pl->level;
    if (pl->hi < pl->level)
        pl->hi = pl->level;
}

size_t gc_curve_plateaus(const gc_curve_pt_t *p, size_t n, double tol, size_t min_pts,
                         double min_ratio, gc_plateau_t *out, size_t max)
{
    if (n == 0 || max == 0)
        return 0;
    if (min_pts < 1)
        min_pts = 1;
    double *tmp = malloc(n * sizeof(*tmp));
    if (!tmp)
        return 0;
    size_t got = 0, i = 0;
    while (i < n && got < max) {
        size_t j = i;
        while (j + 1 < n && within(p, i, j + 1, tol, tmp))
            j++;
        if (j - i + 1 >= min_pts && p[j].x >= min_ratio * p[i].x) {
            gc_plateau_t *pl = &out[got++];
            memset(pl, 0, sizeof(*pl));
            pl->first = i;
            pl->last = j;
            stats(p, pl);
            i = j + 1;
        } else {
            i++;
        }
    }
    free(tmp);
    return got;
}
