/* stats.c - median and its distribution-free 95 % interval (see measure.h). */
#include <math.h>
#include <stdlib.h>

#include "measure.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void gc_stats_median(double *x, int n, double *med, double *lo, double *hi)
{
    qsort(x, (size_t)n, sizeof(*x), cmp);
    *med = (n % 2) ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    if (n < 6) {
        *lo = x[0];
        *hi = x[n - 1];
        return;
    }
    /* ranks n/2 -+ 1.96 sqrt(n)/2 (normal approximation of the binomial) */
    double h = 0.98 * sqrt((double)n);
    int j = (int)floor(n / 2.0 - h);
    int k = (int)ceil(n / 2.0 + 1 + h) - 1;
    if (j < 0)
        j = 0;
    if (k > n - 1)
        k = n - 1;
    *lo = x[j];
    *hi = x[k];
}
