/* kmeans.h - one-dimensional k-means with automatic k and a counted tail.
 *
 * Clusters samples of one variable (the per-access latencies of the
 * fine-grained P-chase). In one dimension the clusters of k-means are
 * intervals of the sorted data, so after one sort every Lloyd step costs
 * O(k log n) (prefix sums and binary searches) and the exact silhouette
 * costs O(n); 1e6 samples take well under a second on one core.
 *
 * Method (calib/README.md gives the reasons and the formulas):
 *   - k-means++ seeding from a fixed seed (splitmix64), `restarts` runs per
 *     k, the run with the lowest within-cluster sum of squares kept:
 *     the same input always gives the same output;
 *   - k from 1..kmax: the largest k whose partition is admissible: every
 *     pair of neighbouring clusters separated, median distance >= gap *
 *     (sd_a + sd_b) with sd the robust spread 1.4826 * MAD (at least
 *     min_spread); k = 1 when no k >= 2 is. A unimodal cluster split in two
 *     fails the rule, so it stays one cluster. The mean silhouette of every
 *     k is reported but does not choose: on latency mixtures dominated by one
 *     cluster it prefers merging two small, well separated clusters (H100
 *     fine P-chase: 0.856 for k = 3 against 0.849 for k = 4, although far
 *     hits and near misses lie 5 robust sd apart);
 *   - the tail: a cluster holding less than min_share of the samples, and
 *     any sample further than trim_sigma robust standard deviations
 *     (1.4826 * MAD) from its cluster's median, is an outlier: counted and
 *     reported, never merged into a cluster; k is chosen again without
 *     them until no sample is removed.
 *
 * No allocation survives a call; the result is a plain struct.
 */
#ifndef GC_KMEANS_H
#define GC_KMEANS_H

#include <stddef.h>

#include "../util/err.h"

#define GC_KMEANS_KMAX 6

typedef struct gc_kmeans_opts {
    int kmax;                /* largest k tried, 1..GC_KMEANS_KMAX */
    unsigned long long seed; /* seed of the k-means++ draws */
    int restarts;            /* k-means++ runs per k (>= 1); the lowest SSE is kept */
    double min_share;        /* clusters below this fraction of the samples are tail */
    double trim_sigma;       /* samples beyond this many robust sd from the median are tail */
    double min_spread;       /* floor of the robust sd, in data units (the resolution) */
    double gap;              /* neighbours must be gap * (sd_a + sd_b) apart */
    int max_rounds;          /* rounds of (choose k, remove tail), >= 1 */
} gc_kmeans_opts_t;

typedef struct gc_kmeans_cluster {
    double centre;   /* mean of the members, data units */
    double spread;   /* standard deviation of the members, data units */
    double median;   /* median of the members, data units */
    double rspread;  /* robust spread 1.4826 * MAD of the members (at least min_spread) */
    double lo, hi;   /* 95 % interval of the centre: centre -+ t * spread / sqrt(n) */
    double min, max; /* smallest and largest member */
    double share;    /* members / samples kept (inliers), 0..1 */
    size_t n;        /* members */
} gc_kmeans_cluster_t;

typedef struct gc_kmeans {
    int k;                                 /* clusters found, 1..kmax */
    gc_kmeans_cluster_t c[GC_KMEANS_KMAX]; /* by ascending centre */
    double silhouette[GC_KMEANS_KMAX + 1]; /* mean silhouette per k of the last round;
                                              -1 where not computed (k = 1, no solution) */
    int admissible[GC_KMEANS_KMAX + 1];    /* 1 if every neighbour pair is separated */
    size_t n;                              /* samples given */
    size_t n_in;                           /* samples kept (inliers) */
    size_t n_low, n_high;                  /* outliers below / above their cluster */
    int rounds;                            /* rounds run */
} gc_kmeans_t;

/* The defaults: kmax 6, seed 20240601, 8 restarts, min_share 0.005,
 * trim_sigma 6, min_spread 0, gap 2, max_rounds 4. */
void gc_kmeans_defaults(gc_kmeans_opts_t *o);

/* Cluster x[0..n). labels may be NULL; otherwise labels[i] receives the
 * index (0-based, ascending centre) of x[i]'s cluster, or -1 for an
 * outlier. Fails with GC_EINPUT on a non-finite sample or bad options,
 * GC_ENODATA with fewer than 2 samples, GC_ENOMEM. */
int gc_kmeans_fit(const double *x, size_t n, const gc_kmeans_opts_t *o, gc_kmeans_t *res,
                  int *labels, gc_err_t *err);

/* The same on a histogram: nv distinct values v (ascending, finite), w[r]
 * samples of v[r] (>= 1 each). Memory and time per Lloyd step grow with
 * nv, not with the samples; the result equals gc_kmeans_fit's on the
 * expanded samples (bit for bit on whole numbers). labels may be NULL;
 * otherwise labels[r] receives v[r]'s cluster, or -1 (the tail). Fails
 * like gc_kmeans_fit, and with GC_EINPUT on a value not ascending or a
 * zero count. */
int gc_kmeans_fit_hist(const double *v, const size_t *w, size_t nv, const gc_kmeans_opts_t *o,
                       gc_kmeans_t *res, int *labels, gc_err_t *err);

/* One k-means run for a fixed k on sorted data (ascending, finite):
 * k-means++ seeding from seed, `restarts` runs, Lloyd to convergence.
 * Writes the k centres ascending and the start index of each cluster in
 * xs (start[0] = 0), returns the within-cluster sum of squares, or -1
 * when xs has fewer than k distinct values. */
double gc_kmeans_sorted(const double *xs, size_t n, int k, unsigned long long seed, int restarts,
                        double *centre, size_t *start);

/* Mean silhouette of the partition of sorted xs into k intervals starting
 * at start[0..k) (exact, O(n)). Members of one-sample clusters score 0. */
double gc_kmeans_silhouette(const double *xs, size_t n, int k, const size_t *start);

#endif
