/* kmeans.c - one-dimensional k-means with automatic k and a counted tail
 * (see kmeans.h and calib/README.md). Works on sorted data with prefix
 * sums: a cluster is an index interval [start, end) of the sorted samples.
 * The samples are held as a histogram (distinct values ascending, a count
 * each): sample i is a virtual index into it, so memory is bounded by the
 * distinct values, not the samples (issue 18: a 500 MB fine P-chase). Every
 * statistic equals the one over the expanded samples; on whole-number data
 * (latencies in cycles) bit for bit, since the prefix sums are then exact
 * integers whether summed one sample at a time or a run at a time. */
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

/* ---- prefix sums over the sorted samples, a run of equal values at a
 * time (shifted by a pivot to keep the sums of squares well conditioned) ---- */

typedef struct psum {
    const double *v;   /* distinct values, ascending */
    const size_t *cum; /* cum[r]: samples before run r; cum[nr] = n */
    size_t nr, n;
    double pivot;
    double *s1; /* s1[r] = sum over the samples before run r of (x - pivot) */
    double *s2; /* s2[r] = the same of (x - pivot)^2 */
} psum_t;

/* the run holding sample i (i < n) */
static size_t run_of(const psum_t *p, size_t i)
{
    size_t lo = 0, hi = p->nr;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->cum[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* sample i of the sorted samples */
static double x_at(const psum_t *p, size_t i)
{
    return p->v[run_of(p, i)];
}

/* sum_{j<i} (x_j - pivot) and its square sum, i <= n */
static double sum1(const psum_t *p, size_t i)
{
    if (i >= p->n)
        return p->s1[p->nr];
    size_t r = run_of(p, i);
    return p->s1[r] + (double)(i - p->cum[r]) * (p->v[r] - p->pivot);
}

static double sum2(const psum_t *p, size_t i)
{
    if (i >= p->n)
        return p->s2[p->nr];
    size_t r = run_of(p, i);
    double d = p->v[r] - p->pivot;
    return p->s2[r] + (double)(i - p->cum[r]) * (d * d);
}

static int psum_init(psum_t *p, const double *v, const size_t *cum, size_t nr)
{
    p->v = v;
    p->cum = cum;
    p->nr = nr;
    p->n = cum[nr];
    p->s1 = malloc((nr + 1) * sizeof(*p->s1));
    p->s2 = malloc((nr + 1) * sizeof(*p->s2));
    if (!p->s1 || !p->s2) {
        free(p->s1);
        free(p->s2);
        p->s1 = p->s2 = NULL;
        return -1;
    }
    p->pivot = x_at(p, p->n / 2);
    p->s1[0] = p->s2[0] = 0;
    for (size_t r = 0; r < nr; r++) {
        double d = v[r] - p->pivot, w = (double)(cum[r + 1] - cum[r]);
        p->s1[r + 1] = p->s1[r] + w * d;
        p->s2[r + 1] = p->s2[r] + w * (d * d);
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
    double v = (sum2(p, b) - sum2(p, a)) - 2 * d * (sum1(p, b) - sum1(p, a)) + d * d * (double)(b - a);
    return v > 0 ? v : 0;
}

static double range_mean(const psum_t *p, size_t a, size_t b)
{
    return p->pivot + (sum1(p, b) - sum1(p, a)) / (double)(b - a);
}

/* first sample index i in [lo, hi) with x_i >= val (hi if none) */
static size_t lower_bound(const psum_t *p, size_t lo, size_t hi, double val)
{
    size_t a = 0, b = p->nr; /* first run with v >= val */
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (p->v[mid] < val)
            a = mid + 1;
        else
            b = mid;
    }
    size_t i = p->cum[a];
    return i < lo ? lo : i > hi ? hi : i;
}

/* Interval starts of the nearest-centre partition for ascending centres. */
static void partition(const psum_t *p, int k, const double *c, size_t *start)
{
    start[0] = 0;
    for (int j = 1; j < k; j++)
        start[j] = lower_bound(p, start[j - 1], p->n, 0.5 * (c[j - 1] + c[j]));
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
    c[0] = x_at(p, (size_t)(gc_rng_unit(rng) * (double)p->n) % p->n);
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
        double v = x_at(p, a);
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

/* The histogram of sorted xs[0..n): distinct values into v, run starts
 * into cum (cum[nr] = n), both malloc'd n + 1 long; *nr runs. When rix is
 * not NULL, rix[i] receives the run of xs[i]. -1 when out of memory. */
static int hist_of_sorted(const double *xs, size_t n, double **v, size_t **cum, size_t *nr,
                          size_t *rix)
{
    *v = malloc((n + 1) * sizeof(**v));
    *cum = malloc((n + 1) * sizeof(**cum));
    if (!*v || !*cum) {
        free(*v);
        free(*cum);
        *v = NULL;
        *cum = NULL;
        return -1;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || xs[i] != xs[i - 1]) {
            (*v)[m] = xs[i];
            (*cum)[m++] = i;
        }
        if (rix)
            rix[i] = m - 1;
    }
    (*cum)[m] = n;
    *nr = m;
    return 0;
}

double gc_kmeans_sorted(const double *xs, size_t n, int k, unsigned long long seed, int restarts,
                        double *centre, size_t *start)
{
    psum_t p;
    double *v;
    size_t *cum, nr;
    if (k < 1 || k > GC_KMEANS_KMAX || n < (size_t)k || hist_of_sorted(xs, n, &v, &cum, &nr, NULL))
        return -1;
    double sse = -1;
    if (psum_init(&p, v, cum, nr) == 0) {
        sse = kmeans_k(&p, k, seed, restarts, centre, start);
        psum_fini(&p);
    }
    free(v);
    free(cum);
    return sse;
}

/* sum over [a, b) of |x_j - x_i| for j in [a, b) (x sorted) */
static double abs_within(const psum_t *p, size_t a, size_t b, size_t i)
{
    double xi = x_at(p, i) - p->pivot;
    double below = xi * (double)(i - a) - (sum1(p, i) - sum1(p, a));
    double above = (sum1(p, b) - sum1(p, i + 1)) - xi * (double)(b - i - 1);
    return below + above;
}

/* Mean silhouette. Every sample of a run scores the same, so a run's score
 * is computed once and added once per sample (the same sum, in the same
 * order, as sample by sample). */
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
        for (size_t i = a; i < b;) {
            size_t r = run_of(p, i), e = p->cum[r + 1] < b ? p->cum[r + 1] : b;
            double xi = p->v[r];
            double ai = abs_within(p, a, b, i) / (double)(b - a - 1);
            double bi = INFINITY;
            if (j > 0)
                bi = xi - mean[j - 1];
            if (j + 1 < k && mean[j + 1] - xi < bi)
                bi = mean[j + 1] - xi;
            double m = ai > bi ? ai : bi;
            double s = m > 0 ? (bi - ai) / m : 0;
            for (; i < e; i++)
                if (m > 0)
                    total += s;
        }
    }
    return total / (double)p->n;
}

double gc_kmeans_silhouette(const double *xs, size_t n, int k, const size_t *start)
{
    psum_t p;
    double *v;
    size_t *cum, nr;
    if (n == 0 || hist_of_sorted(xs, n, &v, &cum, &nr, NULL))
        return -1;
    double s = -1;
    if (psum_init(&p, v, cum, nr) == 0) {
        s = silhouette(&p, k, start);
        psum_fini(&p);
    }
    free(v);
    free(cum);
    return s;
}

/* ---- the automatic fit ---- */

static double range_sd(const psum_t *p, size_t a, size_t b, double mean)
{
    if (b - a < 2)
        return 0;
    return sqrt(range_sse(p, a, b, mean) / (double)(b - a - 1));
}

/* median of samples [a, b) */
static double range_median(const psum_t *p, size_t a, size_t b)
{
    size_t m = b - a;
    return m % 2 ? x_at(p, a + m / 2) : 0.5 * (x_at(p, a + m / 2 - 1) + x_at(p, a + m / 2));
}

/* median absolute deviation from med over samples [a, b): the k-th
 * smallest |x - med| found by merging the two sides outward, a run (or
 * what is left of it) at a time. */
static double range_mad(const psum_t *p, size_t a, size_t b, double med)
{
    size_t m = b - a;
    if (m == 0)
        return 0;
    size_t split = lower_bound(p, a, b, med);
    /* left side walks down from split-1, right side up from split */
    size_t l = split, r = split, want = m / 2 + 1, got = 0;
    double d = 0, prev = 0;
    while (got < want) {
        size_t rl = l > a ? run_of(p, l - 1) : 0, rr = r < b ? run_of(p, r) : 0;
        double dl = l > a ? med - p->v[rl] : INFINITY;
        double dr = r < b ? p->v[rr] - med : INFINITY;
        size_t avail;
        double dist;
        if (dl <= dr) {
            avail = l - (p->cum[rl] > a ? p->cum[rl] : a);
            dist = dl;
        } else {
            avail = (p->cum[rr + 1] < b ? p->cum[rr + 1] : b) - r;
            dist = dr;
        }
        size_t c = avail < want - got ? avail : want - got;
        prev = c >= 2 ? dist : d; /* the one before the last taken */
        d = dist;
        if (dl <= dr)
            l -= c;
        else
            r += c;
        got += c;
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
            mu[j] = range_median(p, ss[j], e);
            sd[j] = 1.4826 * range_mad(p, ss[j], e, mu[j]);
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

static int check_opts(const gc_kmeans_opts_t *o, gc_err_t *err)
{
    if (o->kmax < 1 || o->kmax > GC_KMEANS_KMAX || o->restarts < 1 || o->max_rounds < 1 ||
        !(o->min_share >= 0 && o->min_share < 1) || !(o->trim_sigma > 0) || !(o->gap >= 0) ||
        !(o->min_spread >= 0))
        return gc_err_set(err, GC_EINPUT,
                          "k-means: bad options (kmax 1..%d, restarts >= 1, "
                          "0 <= min_share < 1, trim_sigma > 0)",
                          GC_KMEANS_KMAX);
    return 0;
}

/* The histogram gc_kmeans_fit_hist refuses: values not finite, not
 * ascending or not distinct, a zero count, fewer than 2 samples. */
static int check_hist(const double *v, const size_t *w, size_t nv, size_t *n, gc_err_t *err)
{
    *n = 0;
    for (size_t r = 0; r < nv; r++) {
        if (!isfinite(v[r]) || (r && !(v[r] > v[r - 1])) || w[r] == 0)
            return gc_err_set(err, GC_EINPUT,
                              "k-means: histogram entry %zu is not finite, not ascending or "
                              "empty",
                              r);
        *n += w[r];
    }
    if (*n < 2)
        return gc_err_set(err, GC_ENODATA, "k-means: %zu sample%s, at least 2 needed", *n,
                          *n == 1 ? "" : "s");
    return 0;
}

/* The tail, judged afresh each round over every run of the full histogram
 * (v, nv runs) against this round's k clusters of the kept samples p (so a
 * sample cut by a poor early partition comes back): members of a small
 * cluster, and samples further than trim_sigma robust sd from their
 * cluster's median. nout[r]: 0 in, 1 low, 2 high (equal values share it). */
static void judge_tail(const psum_t *p, int k, const size_t *start, const double *c,
                       const gc_kmeans_opts_t *o, const double *v, size_t nv,
                       unsigned char *nout)
{
    double med[GC_KMEANS_KMAX], sd[GC_KMEANS_KMAX], mid[GC_KMEANS_KMAX];
    int small[GC_KMEANS_KMAX];
    for (int j = 0; j < k; j++) {
        size_t a = start[j], b = seg_end(p, k, start, j);
        small[j] = (double)(b - a) < o->min_share * (double)p->n;
        med[j] = range_median(p, a, b);
        sd[j] = 1.4826 * range_mad(p, a, b, med[j]);
        if (sd[j] < o->min_spread)
            sd[j] = o->min_spread;
        mid[j] = j ? 0.5 * (c[j - 1] + c[j]) : -INFINITY;
    }
    int j = 0;
    for (size_t r = 0; r < nv; r++) {
        while (j + 1 < k && v[r] >= mid[j + 1])
            j++;
        double d = v[r] - med[j];
        if (small[j])
            nout[r] = j == 0 && k > 1 ? 1 : 2; /* below all others: the low tail */
        else
            nout[r] = fabs(d) > o->trim_sigma * sd[j] ? (d < 0 ? 1 : 2) : 0;
    }
}

/* res's clusters from the final round over the kept samples p (run kr of p
 * is run kpos[kr] of the full histogram, w its counts); labels (may be
 * NULL) per full run, -1 for the tail. */
static void final_stats(gc_kmeans_t *res, const psum_t *p, int k, const size_t *start,
                        const unsigned char *out, const size_t *w, size_t nv,
                        const size_t *kpos, int *labels, double min_spread)
{
    res->k = k;
    res->n_in = p->n;
    for (size_t r = 0; r < nv; r++) {
        res->n_low += out[r] == 1 ? w[r] : 0;
        res->n_high += out[r] == 2 ? w[r] : 0;
    }
    for (int j = 0; j < k; j++) {
        size_t a = start[j], b = seg_end(p, k, start, j);
        gc_kmeans_cluster_t *cl = &res->c[j];
        cl->n = b - a;
        cl->centre = range_mean(p, a, b);
        cl->spread = range_sd(p, a, b, cl->centre);
        cl->median = range_median(p, a, b);
        cl->rspread = 1.4826 * range_mad(p, a, b, cl->median);
        if (cl->rspread < min_spread)
            cl->rspread = min_spread;
        double h = t975(cl->n - 1) * cl->spread / sqrt((double)cl->n);
        cl->lo = cl->centre - h;
        cl->hi = cl->centre + h;
        cl->min = x_at(p, a);
        cl->max = x_at(p, b - 1);
        cl->share = (double)cl->n / (double)p->n;
    }
    if (labels) {
        for (size_t r = 0; r < nv; r++)
            labels[r] = -1;
        for (int j = 0; j < k; j++) {
            size_t b = seg_end(p, k, start, j);
            for (size_t kr = run_of(p, start[j]); kr < p->nr && p->cum[kr] < b; kr++)
                labels[kpos[kr]] = j;
        }
    }
}

/* The kept runs (out[r] == 0) of the full histogram (v, w, nv) into kv,
 * kcum (kcum[nk] = samples kept) and kpos; returns nk. */
static size_t keep_runs(const double *v, const size_t *w, size_t nv, const unsigned char *out,
                        double *kv, size_t *kcum, size_t *kpos)
{
    size_t nk = 0;
    kcum[0] = 0;
    for (size_t r = 0; r < nv; r++)
        if (!out[r]) {
            kv[nk] = v[r];
            kpos[nk] = r;
            kcum[nk + 1] = kcum[nk] + w[r];
            nk++;
        }
    return nk;
}

/* Rounds of (choose k, judge the tail) over the histogram; *p, c, start and
 * *k hold the last round's kept samples and partition on return. */
static int fit_rounds(const double *v, const size_t *w, size_t nv, const gc_kmeans_opts_t *o,
                      gc_kmeans_t *res, unsigned char *out, unsigned char *nout, double *kv,
                      size_t *kcum, size_t *kpos, psum_t *p, double *c, size_t *start, int *k,
                      gc_err_t *err)
{
    for (int round = 0; round < o->max_rounds; round++) {
        size_t nk = keep_runs(v, w, nv, out, kv, kcum, kpos);
        if (kcum[nk] < 2)
            return gc_err_set(err, GC_ENODATA,
                              "k-means: only %zu sample%s left after removing the tail",
                              kcum[nk], kcum[nk] == 1 ? "" : "s");
        psum_fini(p);
        p->s1 = p->s2 = NULL;
        if (psum_init(p, kv, kcum, nk) != 0)
            return gc_err_set(err, GC_ENOMEM, "k-means: out of memory for %zu samples", res->n);
        *k = choose_k(p, o, res, c, start);
        res->rounds = round + 1;
        if (round + 1 == o->max_rounds)
            break;
        judge_tail(p, *k, start, c, o, v, nv, nout);
        if (!memcmp(nout, out, nv))
            break;
        memcpy(out, nout, nv);
    }
    return 0;
}

int gc_kmeans_fit_hist(const double *v, const size_t *w, size_t nv, const gc_kmeans_opts_t *o,
                       gc_kmeans_t *res, int *labels, gc_err_t *err)
{
    memset(res, 0, sizeof(*res));
    size_t n;
    int rc = check_opts(o, err);
    if (rc || (rc = check_hist(v, w, nv, &n, err)) != 0)
        return rc;
    res->n = n;
    unsigned char *out = calloc(nv, 1), *nout = malloc(nv);
    double *kv = malloc(nv * sizeof(*kv));
    size_t *kcum = malloc((nv + 1) * sizeof(*kcum)), *kpos = malloc(nv * sizeof(*kpos));
    psum_t p = {0};
    double c[GC_KMEANS_KMAX] = {0};
    size_t start[GC_KMEANS_KMAX] = {0};
    int k = 1;
    if (!out || !nout || !kv || !kcum || !kpos)
        rc = gc_err_set(err, GC_ENOMEM, "k-means: out of memory for %zu samples", n);
    else if ((rc = fit_rounds(v, w, nv, o, res, out, nout, kv, kcum, kpos, &p, c, start, &k,
                              err)) == 0)
        final_stats(res, &p, k, start, out, w, nv, kpos, labels, o->min_spread);
    psum_fini(&p);
    free(out);
    free(nout);
    free(kv);
    free(kcum);
    free(kpos);
    return rc;
}

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

/* The samples gc_kmeans_fit refuses (before the options are looked at
 * only when they are valid). */
static int check_input(const double *x, size_t n, const gc_kmeans_opts_t *o, gc_err_t *err)
{
    int rc = check_opts(o, err);
    if (rc)
        return rc;
    if (n < 2)
        return gc_err_set(err, GC_ENODATA, "k-means: %zu sample%s, at least 2 needed", n,
                          n == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return gc_err_set(err, GC_EINPUT, "k-means: sample %zu is not finite", i);
    return 0;
}

int gc_kmeans_fit(const double *x, size_t n, const gc_kmeans_opts_t *o, gc_kmeans_t *res,
                  int *labels, gc_err_t *err)
{
    memset(res, 0, sizeof(*res));
    int rc = check_input(x, n, o, err);
    if (rc)
        return rc;
    sample_t *s = malloc(n * sizeof(*s));
    double *xs = malloc(n * sizeof(*xs)), *v = NULL;
    size_t *rix = malloc(n * sizeof(*rix)), *cum = NULL, *w = NULL, nr = 0;
    int *rlab = NULL;
    if (s && xs && rix) {
        for (size_t i = 0; i < n; i++)
            s[i] = (sample_t){x[i], i};
        qsort(s, n, sizeof(*s), cmp_sample);
        for (size_t i = 0; i < n; i++)
            xs[i] = s[i].v;
    }
    if (!s || !xs || !rix || hist_of_sorted(xs, n, &v, &cum, &nr, rix) ||
        !(w = malloc(nr * sizeof(*w))) || !(rlab = malloc(nr * sizeof(*rlab)))) {
        rc = gc_err_set(err, GC_ENOMEM, "k-means: out of memory for %zu samples", n);
        goto done;
    }
    for (size_t r = 0; r < nr; r++)
        w[r] = cum[r + 1] - cum[r];
    rc = gc_kmeans_fit_hist(v, w, nr, o, res, rlab, err);
    if (rc == 0 && labels)
        for (size_t i = 0; i < n; i++)
            labels[s[i].i] = rlab[rix[i]];
done:
    free(s);
    free(xs);
    free(rix);
    free(v);
    free(cum);
    free(w);
    free(rlab);
    return rc;
}
