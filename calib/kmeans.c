/* kmeans.c - one-dimensional k-means with automatic k and a counted tail
 * (see kmeans.h and calib/README.md). Works on sorted data with prefix
 * sums: a cluster is an index interval [start, end) of the sorted samples. */
#include "kmeans.h"

#include "../util/rng.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void gc_kmeans_defaults(gc_kmeans_opts_t *o)
{
    o->kmax = GC_KMEANS_KMAX;
    o->seed = 20240601ULL;
    o->restarts = 8;
    o->min_share = 0.005;
    o->trim_sigma = 6.0;
    o->min_spread = 0.0;
    o->gap = 2.0;
    o->max_rounds = 4;
}

/* ---- random numbers: splitmix64, deterministic on every platform ---- */


/* ---- prefix sums over the sorted samples (shifted by a pivot to keep
 * the sums of squares well conditioned) ---- */

typedef struct psum {
    const double *x;
    size_t n;
    double pivot;
    double *s1; /* s1[i] = sum_{j<i} (x_j - pivot) */
    double *s2; /* s2[i] = sum_{j<i} (x_j - pivot)^2 */
} psum_t;

static int psum_init(psum_t *p, const double *xs, size_t n)
{
    p->x = xs;
    p->n = n;
    p->pivot = xs[n / 2];
    p->s1 = malloc((n + 1) * sizeof(*p->s1));
    p->s2 = malloc((n + 1) * sizeof(*p->s2));
    if (!p->s1 || !p->s2) {
        free(p->s1);
        free(p->s2);
        p->s1 = p->s2 = NULL;
        return -1;
    }
    p->s1[0] = p->s2[0] = 0;
    for (size_t i = 0; i < n; i++) {
        double d = xs[i] - p->pivot;
        p->s1[i + 1] = p->s1[i] + d;
        p->s2[i + 1] = p->s2[i] + d * d;
    }
    return 0;
}

static void psum_fini(psum_t *p)
{
    free(p->s1);
    free(p->s2);
}

/* sum over [a, b) of (x - c)^2 */
static double range_sse(const psum_t *p, size_t a, size_t b, double c)
{
    double d = c - p->pivot;
    double v = (p->s2[b] - p->s2[a]) - 2 * d * (p->s1[b] - p->s1[a]) + d * d * (double)(b - a);
    return v > 0 ? v : 0;
}

static double range_mean(const psum_t *p, size_t a, size_t b)
{
    return p->pivot + (p->s1[b] - p->s1[a]) / (double)(b - a);
}

/* first index i in [lo, hi) with xs[i] >= v (hi if none) */
static size_t lower_bound(const double *xs, size_t lo, size_t hi, double v)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (xs[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Interval starts of the nearest-centre partition for ascending centres. */
static void partition(const psum_t *p, int k, const double *c, size_t *start)
{
    start[0] = 0;
    for (int j = 1; j < k; j++)
        start[j] = lower_bound(p->x, start[j - 1], p->n, 0.5 * (c[j - 1] + c[j]));
}

static size_t seg_end(const psum_t *p, int k, const size_t *start, int j)
{
    return j + 1 < k ? start[j + 1] : p->n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* k-means++ seeding: centres ascending in c[0..k). -1 if fewer than k
 * distinct values. */
static int seed_pp(const psum_t *p, int k, uint64_t *rng, double *c)
{
    size_t start[GC_KMEANS_KMAX];
    int m = 1;
    c[0] = p->x[(size_t)(gc_rng_unit(rng) * (double)p->n) % p->n];
    while (m < k) {
        partition(p, m, c, start);
        /* sub-ranges with a fixed nearest centre: [start_j, end_j) -> c_j */
        double w[GC_KMEANS_KMAX], total = 0;
        for (int j = 0; j < m; j++) {
            w[j] = range_sse(p, start[j], seg_end(p, m, start, j), c[j]);
            total += w[j];
        }
        if (!(total > 0))
            return -1;
        double u = gc_rng_unit(rng) * total;
        int j = 0;
        while (j < m - 1 && u >= w[j]) {
            u -= w[j];
            j++;
        }
        /* smallest i in the range with sse(start_j, i+1) > u */
        size_t lo = start[j], hi = seg_end(p, m, start, j);
        size_t a = lo, b = hi;
        while (a < b) {
            size_t mid = a + (b - a) / 2;
            if (range_sse(p, lo, mid + 1, c[j]) > u)
                b = mid;
            else
                a = mid + 1;
        }
        if (a >= hi)
            a = hi - 1;
        double v = p->x[a];
        for (int t = 0; t < m; t++)
            if (c[t] == v)
                return -1; /* only zero-weight points left */
        c[m++] = v;
        qsort(c, (size_t)m, sizeof(*c), cmp_double);
    }
    return 0;
}

/* Lloyd iterations from centres c; returns the SSE of the final partition. */
static double lloyd(const psum_t *p, int k, double *c, size_t *start)
{
    size_t prev[GC_KMEANS_KMAX];
    partition(p, k, c, start);
    for (int it = 0; it < 300; it++) {
        for (int j = 0; j < k; j++) {
            size_t e = seg_end(p, k, start, j);
            if (e > start[j])
                c[j] = range_mean(p, start[j], e);
        }
        memcpy(prev, start, sizeof(prev[0]) * (size_t)k);
        partition(p, k, c, start);
        if (!memcmp(prev, start, sizeof(prev[0]) * (size_t)k))
            break;
    }
    double sse = 0;
    for (int j = 0; j < k; j++)
        sse += range_sse(p, start[j], seg_end(p, k, start, j), c[j]);
    return sse;
}

static double kmeans_k(const psum_t *p, int k, unsigned long long seed, int restarts, double *c,
                       size_t *start)
{
    double best = -1;
    for (int r = 0; r < (restarts > 0 ? restarts : 1); r++) {
        uint64_t rng = seed + 0x1000193ULL * (uint64_t)(k * 131 + r);
        double cc[GC_KMEANS_KMAX];
        size_t ss[GC_KMEANS_KMAX];
        if (seed_pp(p, k, &rng, cc) != 0)
            return -1;
        double sse = lloyd(p, k, cc, ss);
        int empty = 0;
        for (int j = 0; j < k; j++)
            empty |= seg_end(p, k, ss, j) <= ss[j];
        if (empty)
            continue;
        if (best < 0 || sse < best) {
            best = sse;
            memcpy(c, cc, sizeof(cc[0]) * (size_t)k);
            memcpy(start, ss, sizeof(ss[0]) * (size_t)k);
        }
    }
    return best;
}

double gc_kmeans_sorted(const double *xs, size_t n, int k, unsigned long long seed, int restarts,
                        double *centre, size_t *start)
{
    psum_t p;
    if (k < 1 || k > GC_KMEANS_KMAX || n < (size_t)k || psum_init(&p, xs, n) != 0)
        return -1;
    double sse = kmeans_k(&p, k, seed, restarts, centre, start);
    psum_fini(&p);
    return sse;
}

/* sum over [a, b) of |x_i - x_t| for i in [a, b) (x sorted) */
static double abs_within(const psum_t *p, size_t a, size_t b, size_t i)
{
    double xi = p->x[i] - p->pivot;
    double below = xi * (double)(i - a) - (p->s1[i] - p->s1[a]);
    double above = (p->s1[b] - p->s1[i + 1]) - xi * (double)(b - i - 1);
    return below + above;
}

static double silhouette(const psum_t *p, int k, const size_t *start)
{
    if (k < 2)
        return -1;
    double mean[GC_KMEANS_KMAX];
    for (int j = 0; j < k; j++)
        mean[j] = range_mean(p, start[j], seg_end(p, k, start, j));
    double total = 0;
    for (int j = 0; j < k; j++) {
        size_t a = start[j], b = seg_end(p, k, start, j);
        if (b - a < 2)
            continue; /* s = 0 for a one-member cluster */
        for (size_t i = a; i < b; i++) {
            double xi = p->x[i];
            double ai = abs_within(p, a, b, i) / (double)(b - a - 1);
            double bi = INFINITY;
            if (j > 0)
                bi = xi - mean[j - 1];
            if (j + 1 < k && mean[j + 1] - xi < bi)
                bi = mean[j + 1] - xi;
            double m = ai > bi ? ai : bi;
            if (m > 0)
                total += (bi - ai) / m;
        }
    }
    return total / (double)p->n;
}

double gc_kmeans_silhouette(const double *xs, size_t n, int k, const size_t *start)
{
    psum_t p;
    if (n == 0 || psum_init(&p, xs, n) != 0)
        return -1;
    double s = silhouette(&p, k, start);
    psum_fini(&p);
    return s;
}

/* ---- the automatic fit ---- */

typedef struct sample {
    double v;
    size_t i;
} sample_t;

static int cmp_sample(const void *a, const void *b)
{
    const sample_t *x = a, *y = b;
    if (x->v != y->v)
        return (x->v > y->v) - (x->v < y->v);
    return (x->i > y->i) - (x->i < y->i);
}

static double range_sd(const psum_t *p, size_t a, size_t b, double mean)
{
    if (b - a < 2)
        return 0;
    return sqrt(range_sse(p, a, b, mean) / (double)(b - a - 1));
}

/* median of xs[a..b) (sorted) */
static double range_median(const double *xs, size_t a, size_t b)
{
    size_t m = b - a;
    return m % 2 ? xs[a + m / 2] : 0.5 * (xs[a + m / 2 - 1] + xs[a + m / 2]);
}

/* median absolute deviation from med over sorted xs[a..b): the k-th
 * smallest |x - med| found by merging the two sides outward. */
static double range_mad(const double *xs, size_t a, size_t b, double med)
{
    size_t m = b - a;
    if (m == 0)
        return 0;
    size_t split = lower_bound(xs, a, b, med);
    /* left side walks down from split-1, right side up from split */
    size_t l = split, r = split, want = m / 2 + 1, got = 0;
    double d = 0, prev = 0;
    while (got < want) {
        double dl = l > a ? med - xs[l - 1] : INFINITY;
        double dr = r < b ? xs[r] - med : INFINITY;
        prev = d;
        if (dl <= dr) {
            d = dl;
            l--;
        } else {
            d = dr;
            r++;
        }
        got++;
    }
    return m % 2 ? d : 0.5 * (d + prev);
}

/* Choose k on the sorted samples of p: the largest k whose partition is
 * admissible (neighbours separated); fills res->silhouette/admissible, the
 * chosen k, its centres and starts. */
static int choose_k(const psum_t *p, const gc_kmeans_opts_t *o, gc_kmeans_t *res, double *c,
                    size_t *start)
{
    int best_k = 1;
    double cc[GC_KMEANS_KMAX];
    size_t ss[GC_KMEANS_KMAX];
    for (int k = 0; k <= GC_KMEANS_KMAX; k++) {
        res->silhouette[k] = -1;
        res->admissible[k] = 0;
    }
    res->admissible[1] = 1;
    c[0] = range_mean(p, 0, p->n);
    start[0] = 0;
    for (int k = 2; k <= o->kmax; k++) {
        if (kmeans_k(p, k, o->seed, o->restarts, cc, ss) < 0)
            break; /* fewer distinct values than k */
        int ok = 1;
        /* robust centre and spread (median, 1.4826 MAD): a long tail must
         * not make two clusters look inseparable */
        double sd[GC_KMEANS_KMAX], mu[GC_KMEANS_KMAX];
        for (int j = 0; j < k; j++) {
            size_t e = seg_end(p, k, ss, j);
            mu[j] = range_median(p->x, ss[j], e);
            sd[j] = 1.4826 * range_mad(p->x, ss[j], e, mu[j]);
            if (sd[j] < o->min_spread)
                sd[j] = o->min_spread; /* distinct values 1 unit apart are not clusters */
        }
        for (int j = 0; j + 1 < k; j++)
            if (mu[j + 1] - mu[j] < o->gap * (sd[j] + sd[j + 1]))
                ok = 0;
        res->admissible[k] = ok;
        res->silhouette[k] = silhouette(p, k, ss);
        if (ok) { /* the largest separated partition */
            best_k = k;
            memcpy(c, cc, sizeof(cc[0]) * (size_t)k);
            memcpy(start, ss, sizeof(ss[0]) * (size_t)k);
        }
    }
    return best_k;
}

static double t975(size_t dof)
{
    return dof > 0 ? gsl_cdf_tdist_Pinv(0.975, (double)dof) : 0;
}

/* The options and samples gc_kmeans_fit refuses. */
static int check_input(const double *x, size_t n, const gc_kmeans_opts_t *o, gc_err_t *err)
{
    if (o->kmax < 1 || o->kmax > GC_KMEANS_KMAX || o->restarts < 1 || o->max_rounds < 1 ||
        !(o->min_share >= 0 && o->min_share < 1) || !(o->trim_sigma > 0) || !(o->gap >= 0) ||
        !(o->min_spread >= 0))
        return gc_err_set(err, GC_EINPUT,
                          "k-means: bad options (kmax 1..%d, restarts >= 1, "
                          "0 <= min_share < 1, trim_sigma > 0)",
                          GC_KMEANS_KMAX);
    if (n < 2)
        return gc_err_set(err, GC_ENODATA, "k-means: %zu sample%s, at least 2 needed", n,
                          n == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return gc_err_set(err, GC_EINPUT, "k-means: sample %zu is not finite", i);
    return 0;
}

/* The tail, judged afresh each round over all n sorted samples xs against
 * this round's k clusters of kept[0..m) (so a sample cut by a poor early
 * partition comes back): members of a small cluster, and samples further
 * than trim_sigma robust sd from their cluster's median. nout[i]: 0 in,
 * 1 low, 2 high. */
static void judge_tail(const psum_t *p, const double *kept, size_t m, int k, const size_t *start,
                       const double *c, const gc_kmeans_opts_t *o, const double *xs, size_t n,
                       unsigned char *nout)
{
    double med[GC_KMEANS_KMAX], sd[GC_KMEANS_KMAX], mid[GC_KMEANS_KMAX];
    int small[GC_KMEANS_KMAX];
    for (int j = 0; j < k; j++) {
        size_t a = start[j], b = seg_end(p, k, start, j);
        small[j] = (double)(b - a) < o->min_share * (double)m;
        med[j] = range_median(kept, a, b);
        sd[j] = 1.4826 * range_mad(kept, a, b, med[j]);
        if (sd[j] < o->min_spread)
            sd[j] = o->min_spread;
        mid[j] = j ? 0.5 * (c[j - 1] + c[j]) : -INFINITY;
    }
    int j = 0;
    for (size_t i = 0; i < n; i++) {
        while (j + 1 < k && xs[i] >= mid[j + 1])
            j++;
        double d = xs[i] - med[j];
        if (small[j])
            nout[i] = j == 0 && k > 1 ? 1 : 2; /* below all others: the low tail */
        else
            nout[i] = fabs(d) > o->trim_sigma * sd[j] ? (d < 0 ? 1 : 2) : 0;
    }
}

/* res's clusters from the final round; labels (may be NULL) per sample in
 * input order, -1 for the tail. */
static void final_stats(gc_kmeans_t *res, const psum_t *p, const double *kept, size_t m, int k,
                        const size_t *start, const unsigned char *out, size_t n,
                        const sample_t *s, const size_t *pos, int *labels)
{
    res->k = k;
    res->n_in = m;
    for (size_t i = 0; i < n; i++) {
        res->n_low += out[i] == 1;
        res->n_high += out[i] == 2;
    }
    for (int j = 0; j < k; j++) {
        size_t a = start[j], b = seg_end(p, k, start, j);
        gc_kmeans_cluster_t *cl = &res->c[j];
        cl->n = b - a;
        cl->centre = range_mean(p, a, b);
        cl->spread = range_sd(p, a, b, cl->centre);
        double h = t975(cl->n - 1) * cl->spread / sqrt((double)cl->n);
        cl->lo = cl->centre - h;
        cl->hi = cl->centre + h;
        cl->min = kept[a];
        cl->max = kept[b - 1];
        cl->share = (double)cl->n / (double)m;
    }
    if (labels) {
        for (size_t i = 0; i < n; i++)
            labels[s[i].i] = -1;
        for (int j = 0; j < k; j++)
            for (size_t i = start[j], b = seg_end(p, k, start, j); i < b; i++)
                labels[s[pos[i]].i] = j;
    }
}

/* xs = the n samples x sorted; with keep_order also *s, the samples with
 * their input positions in that order (malloc'd). -1 when out of memory. */
static int sort_samples(const double *x, size_t n, int keep_order, sample_t **sp, double *xs)
{
    if (!keep_order) {
        memcpy(xs, x, n * sizeof(*xs));
        qsort(xs, n, sizeof(*xs), cmp_double);
        return 0;
    }
    sample_t *s = malloc(n * sizeof(*s));
    if (!s)
        return -1;
    for (size_t i = 0; i < n; i++) {
        s[i].v = x[i];
        s[i].i = i;
    }
    qsort(s, n, sizeof(*s), cmp_sample);
    for (size_t i = 0; i < n; i++)
        xs[i] = s[i].v;
    *sp = s;
    return 0;
}

int gc_kmeans_fit(const double *x, size_t n, const gc_kmeans_opts_t *o, gc_kmeans_t *res,
                  int *labels, gc_err_t *err)
{
    memset(res, 0, sizeof(*res));
    int rc = check_input(x, n, o, err);
    if (rc)
        return rc;
    res->n = n;

    sample_t *s = NULL;
    double *xs = malloc(n * sizeof(*xs));
    unsigned char *out = calloc(n, 1); /* per sorted position: 0 in, 1 low, 2 high */
    unsigned char *nout = malloc(n);   /* the same, judged by the latest round */
    double *kept = malloc(n * sizeof(*kept));
    size_t *pos = NULL; /* sorted position of each kept sample */
    psum_t p = {0};
    if (!xs || !out || !nout || !kept) {
        rc = gc_err_set(err, GC_ENOMEM, "k-means: out of memory for %zu samples", n);
        goto done;
    }
    if (sort_samples(x, n, labels != NULL, &s, xs)) {
        rc = gc_err_set(err, GC_ENOMEM, "k-means: out of memory for %zu samples", n);
        goto done;
    }
    pos = malloc(n * sizeof(*pos));
    if (!pos) {
        rc = gc_err_set(err, GC_ENOMEM, "k-means: out of memory for %zu samples", n);
        goto done;
    }

    double c[GC_KMEANS_KMAX];
    size_t start[GC_KMEANS_KMAX];
    size_t m = 0;
    int k = 1;
    for (int round = 0; round < o->max_rounds; round++) {
        m = 0;
        for (size_t i = 0; i < n; i++)
            if (!out[i]) {
                pos[m] = i;
                kept[m++] = xs[i];
            }
        if (m < 2) {
            rc = gc_err_set(err, GC_ENODATA,
                            "k-means: only %zu sample%s left after removing "
                            "the tail",
                            m, m == 1 ? "" : "s");
            goto done;
        }
        psum_fini(&p);
        p.s1 = p.s2 = NULL;
        if (psum_init(&p, kept, m) != 0) {
            rc = gc_err_set(err, GC_ENOMEM, "k-means: out of memory for %zu samples", n);
            goto done;
        }
        k = choose_k(&p, o, res, c, start);
        res->rounds = round + 1;
        if (round + 1 == o->max_rounds)
            break;
        /* the tail, judged afresh against this round's clusters */
        judge_tail(&p, kept, m, k, start, c, o, xs, n, nout);
        if (!memcmp(nout, out, n))
            break;
        memcpy(out, nout, n);
    }

    /* final statistics */
    final_stats(res, &p, kept, m, k, start, out, n, s, pos, labels);
done:
    psum_fini(&p);
    free(s);
    free(xs);
    free(out);
    free(nout);
    free(kept);
    free(pos);
    return rc;
}
