/* curve.h - plateaus and inflection points of a latency-vs-size curve
 * (the classic P-chase: latency per load against array size).
 *
 * A plateau is a maximal run of at least min_pts consecutive sizes whose
 * latencies spread (max - min) at most tol of the run's median and whose
 * sizes span a factor of at least min_ratio (a fine size grid through a
 * steady rise must not make short runs of "plateaus"); points between
 * plateaus are the transition. Found greedily from the smallest
 * size: a run grows while the next point keeps the spread within tol of the
 * median; a run too short to be a plateau gives up its first point.
 * The capacity that ends a plateau lies between its last size (the data
 * still fit) and the next size measured (they no longer do): that pair is
 * the interval calib reports.
 */
#ifndef GC_CURVE_H
#define GC_CURVE_H

#include <stddef.h>

typedef struct gc_curve_pt {
    double x;      /* array size, bytes */
    double y;      /* latency, cycles */
    double lo, hi; /* its 95 % interval (lo > hi: none given) */
    long line;     /* trace line (first row of this size) */
} gc_curve_pt_t;

typedef struct gc_plateau {
    size_t first, last; /* indices of its first and last point (inclusive) */
    double level;       /* mean latency over its points, cycles */
    double lo, hi;      /* 95 % interval of the level: the wider of t * sd / sqrt(m)
                           and the mean of the points' own intervals */
    double sd;          /* standard deviation of its points, cycles */
} gc_plateau_t;

/* Find the plateaus of n points sorted by ascending x (one point per x):
 * runs of at least min_pts points spreading at most tol of their median
 * whose sizes
 * span a factor of at least min_ratio (last x / first x; 1: no
 * condition). Writes up to max plateaus (ascending x) into out, returns
 * how many. */
size_t gc_curve_plateaus(const gc_curve_pt_t *p, size_t n, double tol, size_t min_pts,
                         double min_ratio, gc_plateau_t *out, size_t max);

/* Sort points by x and merge points of equal x (mean of y, lo, hi; the
 * first line). Returns the new count. */
size_t gc_curve_normalize(gc_curve_pt_t *p, size_t n);

#endif
