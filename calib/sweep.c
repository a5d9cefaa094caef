/* sweep.c - pipe-model fit, peak and convergence points of an ILP x warps
 * sweep (see sweep.h). */
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"

/* ---- the models: smooth surrogate of gc_pipe_cycles, x = {n} ---- */

typedef struct pipe_ctx {
    double eps; /* smoothing of the max, cycles; 0 = the exact max */
} pipe_ctx_t;

static void smax(double a, double b, double eps, double *v, double *da, double *db)
{
    double d = a - b, s = sqrt(d * d + eps * eps);
    *v = 0.5 * (a + b + s);
    if (s > 0) {
        *da = 0.5 * (1 + d / s);
        *db = 0.5 * (1 - d / s);
    } else {
        *da = *db = 0.5;
    }
}

static double pipe3_f(const double *p, const double *x, const void *ctx)
{
    double v, da, db;
    smax(p[0] + p[2] * (x[0] - 1), x[0] * p[1], ((const pipe_ctx_t *)ctx)->eps, &v, &da, &db);
    return v;
}

static void pipe3_df(const double *p, const double *x, const void *ctx, double *g)
{
    double v, da, db;
    smax(p[0] + p[2] * (x[0] - 1), x[0] * p[1], ((const pipe_ctx_t *)ctx)->eps, &v, &da, &db);
    g[0] = da;
    g[1] = db * x[0];
    g[2] = da * (x[0] - 1);
}

/* overhead held at 0 */
static double pipe2_f(const double *p, const double *x, const void *ctx)
{
    double q[3] = {p[0], p[1], 0};
    return pipe3_f(q, x, ctx);
}

static void pipe2_df(const double *p, const double *x, const void *ctx, double *g)
{
    double q[3] = {p[0], p[1], 0}, h[3];
    pipe3_df(q, x, ctx, h);
    g[0] = h[0];
    g[1] = h[1];
}

static const char *const pipe_names[] = {"lat_cyc", "issue_cyc", "overhead_cyc"};
static const gc_fit_model_t pipe3 = {
    "pipe (lat, issue, overhead)", 3, pipe_names, 1, pipe3_f, pipe3_df};
static const gc_fit_model_t pipe2 = {
    "pipe (lat, issue; overhead 0)", 2, pipe_names, 1, pipe2_f, pipe2_df};

/* ---- one slot count ---- */

typedef struct one {
    double p[3], lo[3], hi[3];
    int has_ci, at_zero, iters;
    double sse; /* relative, exact model */
} one_t;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double rel_sse(const gc_sweep_pt_t *pt, size_t n, const gc_pipe_t *pp)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        double r = (gc_pipe_cycles(pp, pt[i].warps, pt[i].ilp) - pt[i].cyc) / pt[i].cyc;
        s += r * r;
    }
    return s;
}

/* Continuation over eps from p0; fills o (p, intervals of the last run). */
static int continuation(const gc_fit_model_t *m, gc_fit_t *f, const double *x, const double *y,
                        const double *w, double scale, const double *p0, one_t *o, gc_err_t *err)
{
    static const double eps_rel[] = {0.05, 0.01, 0.001, 0.0};
    double p[3];
    memcpy(p, p0, sizeof(p));
    gc_fit_result_t r;
    for (size_t k = 0; k < sizeof(eps_rel) / sizeof(eps_rel[0]); k++) {
        pipe_ctx_t ctx = {eps_rel[k] * scale};
        int rc = gc_fit_init(f, x, y, w, &ctx, err);
        if (!rc)
            rc = gc_fit_run(f, p, &r, err);
        if (rc)
            return rc;
        memcpy(p, r.p, m->n_params * sizeof(*p));
    }
    memset(o, 0, sizeof(*o));
    for (size_t j = 0; j < m->n_params; j++) {
        o->p[j] = r.p[j];
        o->lo[j] = r.lo[j];
        o->hi[j] = r.hi[j];
    }
    o->has_ci = r.has_ci;
    o->iters = r.iters;
    return 0;
}

/* The points as the fit sees them for `slots` slots (x: instructions per
 * slot, y: cycles, w: relative weights) and its start values: the median
 * cycles (*scale), lat from the n = 1 points, issue from y/n at the largest
 * n. tmp: n doubles of scratch. */
static void fit_start(const gc_sweep_pt_t *pt, size_t n, int slots, double *x, double *y,
                      double *w, double *tmp, double *scale_out, double *lat_out,
                      double *issue_out)
{
    gc_pipe_t shape = {0, 0, 0, slots};
    double nmax = 0, lat0 = INFINITY;
    for (size_t i = 0; i < n; i++) {
        x[i] = gc_pipe_per_slot(&shape, pt[i].warps, pt[i].ilp);
        y[i] = pt[i].cyc;
        w[i] = 1 / (y[i] * y[i]);
        tmp[i] = y[i];
        nmax = x[i] > nmax ? x[i] : nmax;
        if (x[i] == 1 && y[i] < lat0)
            lat0 = y[i];
    }
    double scale = median(tmp, n);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] >= 0.5 * nmax)
            tmp[m++] = y[i] / x[i];
    double issue0 = median(tmp, m);
    if (!isfinite(lat0)) {
        for (size_t i = 0; i < n; i++)
            tmp[i] = y[i];
        lat0 = tmp[0];
        for (size_t i = 1; i < n; i++)
            lat0 = tmp[i] < lat0 ? tmp[i] : lat0;
    }
    *scale_out = scale;
    *lat_out = lat0;
    *issue_out = issue0;
}

static int fit_slots(const gc_sweep_pt_t *pt, size_t n, int slots, one_t *best, gc_err_t *err)
{
    double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y)), *w = malloc(n * sizeof(*w)),
           *tmp = malloc(n * sizeof(*tmp));
    gc_fit_t *f3 = gc_fit_alloc(&pipe3, n), *f2 = gc_fit_alloc(&pipe2, n);
    int rc = 0;
    if (!x || !y || !w || !tmp || !f3 || !f2) {
        rc = gc_err_set(err, GC_ENOMEM, "out of memory (pipe fit)");
        goto done;
    }
    double scale, lat0, issue0;
    fit_start(pt, n, slots, x, y, w, tmp, &scale, &lat0, &issue0);
    const double starts[][3] = {
        {lat0, issue0, 0.02 * lat0}, {lat0, issue0, 0.1 * lat0}, {lat0, 0.5 * issue0, 0.0}};
    best->sse = -1;
    gc_err_t last;
    gc_err_clear(&last);
    for (size_t s = 0; s < sizeof(starts) / sizeof(starts[0]); s++) {
        one_t o;
        gc_err_t e;
        gc_err_clear(&e);
        int r = continuation(&pipe3, f3, x, y, w, scale, starts[s], &o, &e);
        if (r == GC_ENOMEM) {
            rc = gc_err_set(err, r, "%s", e.msg);
            goto done;
        }
        if (r) {
            last = e;
            continue;
        }
        if (o.p[2] < 0) {
            /* overhead is >= 0 by the model: the constrained optimum sits
             * on the bound; refit with overhead = 0 and keep the free
             * fit's upper limit as the interval's */
            one_t o2;
            double hi_free = o.hi[2];
            int has_free = o.has_ci;
            double p2[3] = {o.p[0], o.p[1], 0};
            r = continuation(&pipe2, f2, x, y, w, scale, p2, &o2, &e);
            if (r) {
                last = e;
                continue;
            }
            o2.p[2] = 0;
            o2.lo[2] = 0;
            /* -1: the free fit gave no interval (overhead not determined) */
            o2.hi[2] = has_free ? (hi_free > 0 ? hi_free : 0) : -1;
            o2.at_zero = 1;
            o = o2;
        }
        gc_pipe_t pp = {o.p[0], o.p[1], o.p[2], slots};
        o.sse = rel_sse(pt, n, &pp);
        if (best->sse < 0 || o.sse < best->sse)
            *best = o;
    }
    if (best->sse < 0)
        rc = gc_err_set(err, GC_ENODATA, "%s", last.msg[0] ? last.msg : "no fit converged");
done:
    free(x);
    free(y);
    free(w);
    free(tmp);
    gc_fit_free(f3);
    gc_fit_free(f2);
    return rc;
}

/* Refit lat and issue with overhead held at 0, from the point `from`. */
static int fit_fixed_overhead(const gc_sweep_pt_t *pt, size_t n, int slots, const one_t *from,
                              one_t *o, gc_err_t *err)
{
    double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y)), *w = malloc(n * sizeof(*w)),
           *tmp = malloc(n * sizeof(*tmp));
    gc_fit_t *f2 = gc_fit_alloc(&pipe2, n);
    int rc;
    if (!x || !y || !w || !tmp || !f2) {
        rc = gc_err_set(err, GC_ENOMEM, "out of memory (pipe fit)");
    } else {
        gc_pipe_t shape = {0, 0, 0, slots};
        for (size_t i = 0; i < n; i++) {
            x[i] = gc_pipe_per_slot(&shape, pt[i].warps, pt[i].ilp);
            y[i] = tmp[i] = pt[i].cyc;
            w[i] = 1 / (y[i] * y[i]);
        }
        double p0[3] = {from->p[0], from->p[1], 0};
        rc = continuation(&pipe2, f2, x, y, w, median(tmp, n), p0, o, err);
    }
    free(x);
    free(y);
    free(w);
    free(tmp);
    gc_fit_free(f2);
    return rc;
}

/* 1 if slot counts a and b give every point the same in-flight count */
static int same_pattern(const gc_sweep_pt_t *pt, size_t n, int a, int b)
{
    gc_pipe_t pa = {0, 0, 0, a}, pb = {0, 0, 0, b};
    for (size_t i = 0; i < n; i++)
        if (gc_pipe_per_slot(&pa, pt[i].warps, pt[i].ilp) !=
            gc_pipe_per_slot(&pb, pt[i].warps, pt[i].ilp))
            return 0;
    return 1;
}

/* The slot candidates and points gc_sweep_fit refuses. */
static int check_points(const gc_sweep_pt_t *pt, size_t n, int n_slots, gc_err_t *err)
{
    if (n_slots < 1 || n_slots > GC_SWEEP_SLOTS_MAX)
        return gc_err_set(err, GC_EINPUT, "pipe fit: 1..%d slot candidates", GC_SWEEP_SLOTS_MAX);
    if (n < 5)
        return gc_err_set(err, GC_ENODATA,
                          "pipe fit: %zu points, at least 5 needed (3 "
                          "parameters and 2 degrees of freedom)",
                          n);
    for (size_t i = 0; i < n; i++)
        if (!(pt[i].cyc > 0) || !(pt[i].warps >= 1) || !(pt[i].ilp >= 1))
            return gc_err_set(err, GC_EINPUT,
                              "pipe fit: point %zu: cycles %g, warps %g, "
                              "ilp %g (need cycles > 0, warps and ilp >= 1)",
                              i, pt[i].cyc, pt[i].warps, pt[i].ilp);
    return 0;
}

/* Residuals of out->pipe over the points, which branch of the model each
 * is on; returns how many distinct latency-bound loads there are (0, 1 or
 * 2 = several), which decides whether the overhead is determined. */
static int residuals(const gc_sweep_pt_t *pt, size_t n, gc_sweep_fit_t *out)
{
    double nlat_first = -1;
    int nlat_distinct = 0;
    double ss = 0;
    for (size_t i = 0; i < n; i++) {
        double c = gc_pipe_cycles(&out->pipe, pt[i].warps, pt[i].ilp);
        double r = (c - pt[i].cyc) / pt[i].cyc;
        ss += r * r;
        if (fabs(r) > out->max_rel)
            out->max_rel = fabs(r);
        if (gc_pipe_latency_bound(&out->pipe, pt[i].warps, pt[i].ilp)) {
            double k = gc_pipe_per_slot(&out->pipe, pt[i].warps, pt[i].ilp);
            out->n_lat++;
            if (nlat_first < 0)
                nlat_first = k, nlat_distinct = 1;
            else if (k != nlat_first)
                nlat_distinct = 2;
        } else {
            out->n_thr++;
        }
    }
    out->rms_rel = sqrt(ss / (double)n);
    return nlat_distinct;
}

/* Overhead has no say in any point: fit lat and issue alone (from fit o)
 * into out, with its residuals. */
static int refit_no_overhead(const gc_sweep_pt_t *pt, size_t n, const one_t *o,
                             gc_sweep_fit_t *out, gc_err_t *err)
{
    double ss;
    one_t o2;
    gc_err_t e;
    gc_err_clear(&e);
    int rc = fit_fixed_overhead(pt, n, out->pipe.slots, o, &o2, &e);
    if (rc)
        return gc_err_set(err, rc, "%s", e.msg);
    out->pipe.lat_cyc = o2.p[0];
    out->pipe.issue_cyc = o2.p[1];
    out->pipe.overhead_cyc = 0;
    for (int j = 0; j < 2; j++) {
        out->lo[j] = o2.lo[j];
        out->hi[j] = o2.hi[j];
    }
    out->lo[2] = out->hi[2] = 0;
    out->has_ci = o2.has_ci;
    out->iters = o2.iters;
    ss = 0;
    out->max_rel = 0;
    for (size_t i = 0; i < n; i++) {
        double r = (gc_pipe_cycles(&out->pipe, pt[i].warps, pt[i].ilp) - pt[i].cyc) / pt[i].cyc;
        ss += r * r;
        out->max_rel = fabs(r) > out->max_rel ? fabs(r) : out->max_rel;
    }
    out->rms_rel = sqrt(ss / (double)n);
    return 0;
}

int gc_sweep_fit(const gc_sweep_pt_t *pt, size_t n, const int *slots, int n_slots,
                 gc_sweep_fit_t *out, gc_err_t *err)
{
    memset(out, 0, sizeof(*out));
    out->n = n;
    int vrc = check_points(pt, n, n_slots, err);
    if (vrc)
        return vrc;
    one_t res[GC_SWEEP_SLOTS_MAX];
    int best = -1;
    gc_err_t last;
    gc_err_clear(&last);
    out->n_slots = n_slots;
    for (int s = 0; s < n_slots; s++) {
        out->slot[s] = slots[s];
        out->slot_sse[s] = -1;
        gc_err_t e;
        gc_err_clear(&e);
        int rc = fit_slots(pt, n, slots[s], &res[s], &e);
        if (rc == GC_ENOMEM)
            return gc_err_set(err, rc, "%s", e.msg);
        if (rc) {
            last = e;
            continue;
        }
        out->slot_sse[s] = res[s].sse;
        if (best < 0 || res[s].sse < res[best].sse * (1 - 1e-9))
            best = s;
    }
    if (best < 0)
        return gc_err_set(err, GC_ENODATA, "pipe fit: %s", last.msg);
    const one_t *o = &res[best];
    out->pipe = (gc_pipe_t){o->p[0], o->p[1], o->p[2], slots[best]};
    for (int j = 0; j < 3; j++) {
        out->lo[j] = o->lo[j];
        out->hi[j] = o->hi[j];
    }
    if (out->lo[2] < 0)
        out->lo[2] = 0; /* overhead >= 0 by the model: the interval stops at the bound */
    out->has_ci = o->has_ci;
    out->overhead_at_zero = o->at_zero;
    out->iters = o->iters;
    out->slots_determined = 1;
    for (int s = 0; s < n_slots; s++) {
        if (s == best)
            continue;
        if (same_pattern(pt, n, slots[s], slots[best]) ||
            (out->slot_sse[s] >= 0 && out->slot_sse[s] < 2 * o->sse))
            out->slots_determined = 0;
    }
    int nlat_distinct = residuals(pt, n, out);
    if (out->n_thr < 2)
        return gc_err_set(err, GC_ENODATA,
                          "pipe fit: only %zu of %zu points are "
                          "throughput-bound: the issue interval is not determined (sweep "
                          "more warps or ILP)",
                          out->n_thr, n);
    out->overhead_determined = nlat_distinct >= 2 && !(o->at_zero && o->hi[2] < 0);
    if (!out->overhead_determined) {
        int rc = refit_no_overhead(pt, n, o, out, err);
        if (rc)
            return rc;
    }
    if (!out->has_ci)
        return gc_err_set(err, GC_ENODATA,
                          "pipe fit: the covariance is singular: a parameter "
                          "is not determined by these points");
    if (out->rms_rel > GC_SWEEP_RMS_MAX)
        return gc_err_set(err, GC_ENODATA,
                          "pipe fit: the model does not describe this sweep (rms residual "
                          "%.1f %%, max %.1f %%, over the %.0f %% limit)",
                          100 * out->rms_rel, 100 * out->max_rel, 100 * GC_SWEEP_RMS_MAX);
    return 0;
}

size_t gc_sweep_peak(const gc_sweep_pt_t *pt, size_t n)
{
    size_t b = 0;
    for (size_t i = 1; i < n; i++)
        if (pt[i].rate > pt[b].rate)
            b = i;
    return b;
}

size_t gc_sweep_knee(const gc_sweep_pt_t *pt, size_t n, double tol)
{
    double floor_rate = (1 - tol) * pt[gc_sweep_peak(pt, n)].rate;
    size_t k = n;
    for (size_t i = 0; i < n; i++) {
        if (!(pt[i].rate >= floor_rate))
            continue;
        double f = pt[i].warps * pt[i].ilp;
        if (k == n || f < pt[k].warps * pt[k].ilp ||
            (f == pt[k].warps * pt[k].ilp && pt[i].warps < pt[k].warps))
            k = i;
    }
    return k;
}

long gc_sweep_find(const gc_sweep_pt_t *pt, size_t n, double warps, double ilp)
{
    for (size_t i = 0; i < n; i++)
        if (pt[i].warps == warps && pt[i].ilp == ilp)
            return (long)i;
    return -1;
}

size_t gc_sweep_conv(const gc_sweep_pt_t *pt, size_t n, size_t *idx, size_t max)
{
    if (n == 0 || max == 0)
        return 0;
    double peak = pt[gc_sweep_peak(pt, n)].rate;
    size_t got = 0;
    double last_w = -1;
    for (;;) {
        /* next warp count above last_w */
        double w = INFINITY;
        for (size_t i = 0; i < n; i++)
            if (pt[i].warps > last_w && pt[i].warps < w)
                w = pt[i].warps;
        if (!isfinite(w))
            break;
        last_w = w;
        double best = 0;
        for (size_t i = 0; i < n; i++)
            if (pt[i].warps == w && pt[i].rate > best)
                best = pt[i].rate;
        if (best < 0.8 * peak)
            continue;
        long at = -1;
        for (size_t i = 0; i < n; i++)
            if (pt[i].warps == w && pt[i].rate >= 0.95 * best && (at < 0 || pt[i].ilp < pt[at].ilp))
                at = (long)i;
        if (at >= 0 && got < max)
            idx[got++] = (size_t)at;
        if (best >= 0.97 * peak || got == max)
            break;
    }
    return got;
}
