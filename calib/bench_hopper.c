/* bench_hopper.c - calib's handlers of the Hopper benches: tma (TMA latency
 * and throughput), dsm (distributed shared memory) and dpx (DPX functions).
 * Their rows are "metric,...,value,lo,hi,unit": a latency in cycles or a
 * throughput with its 95 % interval (traces/benches.c gives the columns
 * and which calib reads). See bench.h. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* lo <= value <= hi for a row, else a located error */
static int check_row(const gc_table_t *t, const char *file, size_t r, gc_err_t *err)
{
    int cv = gc_table_col(t, "value"), clo = gc_table_col(t, "lo"), chi = gc_table_col(t, "hi");
    double v = gc_table_num(t, cv, r), lo = gc_table_num(t, clo, r), hi = gc_table_num(t, chi, r);
    if (lo <= v && v <= hi)
        return 0;
    return gc_err_at(err, GC_EINPUT, file, t->line[r], 0,
                     "value %g is outside its interval [lo %g, hi %g] (a corrupt row: "
                     "re-measure)",
                     v, lo, hi);
}

static int is(const gc_table_t *t, const char *col, size_t r, const char *want)
{
    return !strcmp(gc_table_txt(t, gc_table_col(t, col), r), want);
}

/* a row's value into q; a value <= 0 (no latency or rate is) is left out */
static void put_row(gc_calib_ctx_t *c, gc_qty_t *q, const gc_table_t *t, size_t r, const char *src)
{
    if (!(gc_table_num(t, gc_table_col(t, "value"), r) > 0)) {
        gc_calib_leave_out(c, src, 0, "left out: the value is not positive");
        return;
    }
    gc_calib_put(c, q, gc_table_num(t, gc_table_col(t, "value"), r),
                 gc_table_num(t, gc_table_col(t, "lo"), r),
                 gc_table_num(t, gc_table_col(t, "hi"), r), src, NULL);
}

static double val(const gc_table_t *t, size_t r)
{
    return gc_table_num(t, gc_table_col(t, "value"), r);
}

/* ---- tma ---- */

int gc_bench_tma(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    int ca = gc_table_col(t, "array_bytes"), ck = gc_table_col(t, "kind");
    long lat = -1, tp = -1;
    int rc;
    for (size_t r = 0; r < t->nrows; r++) {
        if ((rc = check_row(t, file, r, err)) != 0)
            return rc;
        if (is(t, "metric", r, "latency") && is(t, "unit", r, "cyc")) {
            /* an L2 hit: an array below the L2; cp.async.bulk before the tensor forms */
            if (!(c->l2_bytes > 0 && gc_table_num(t, ca, r) < c->l2_bytes))
                continue;
            int bulk = is(t, "kind", r, "bulk");
            if (lat < 0 || (bulk && !is(t, "kind", (size_t)lat, "bulk")))
                lat = (long)r;
        } else if (is(t, "metric", r, "throughput") && is(t, "unit", r, "gbs")) {
            if (tp < 0 || val(t, r) > val(t, (size_t)tp))
                tp = (long)r;
        }
    }
    gc_tma_t *m = &c->a->memory.tma;
    if (lat >= 0)
        put_row(c, &m->latency_cyc, t, (size_t)lat,
                gc_calib_str(c,
                             "%s:%d: TMA load latency, %s, array below the L2 (issue to "
                             "mbarrier wait done)",
                             file, t->line[lat], gc_table_txt(t, ck, (size_t)lat)));
    else
        gc_calib_leave_out(c, file, 0,
                           "memory.tma.latency_cyc left out: no latency row of an array "
                           "below the L2%s",
                           c->l2_bytes > 0 ? "" : " (no l2_bytes header)");
    if (tp >= 0)
        put_row(c, &m->bw_gbs, t, (size_t)tp,
                gc_calib_str(c, "%s:%d: best TMA throughput row (%s)", file, t->line[tp],
                             gc_table_txt(t, ck, (size_t)tp)));
    gc_calib_info(c, "%s: TMA latency %s, throughput %s", file, lat >= 0 ? "yes" : "no",
                  tp >= 0 ? "yes" : "no");
    return 0;
}

/* ---- dsm ---- */

/* One cluster size's point: the mean latency over the target ranks, and
 * the ring (cluster of 1: self) throughput. */
static void dsm_point(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, double size,
                      gc_dsm_point_t *pt)
{
    int ccl = gc_table_col(t, "cluster"), clo = gc_table_col(t, "lo"),
        chi = gc_table_col(t, "hi");
    double s = 0, lo = 0, hi = 0;
    size_t m = 0;
    long ring = -1, first = -1;
    for (size_t r = 0; r < t->nrows; r++) {
        if (gc_table_num(t, ccl, r) != size)
            continue;
        if (is(t, "metric", r, "latency")) {
            if (!m || gc_table_num(t, clo, r) < lo)
                lo = gc_table_num(t, clo, r);
            if (!m || gc_table_num(t, chi, r) > hi)
                hi = gc_table_num(t, chi, r);
            if (first < 0)
                first = (long)r;
            s += val(t, r);
            m++;
        } else if (is(t, "metric", r, "throughput") &&
                   (is(t, "pattern", r, "ring") ||
                    (size == 1 && is(t, "pattern", r, "self"))) &&
                   ring < 0) {
            ring = (long)r;
        }
    }
    gc_calib_put_count(c, &pt->cluster, size, gc_calib_str(c, "%s: cluster column", file),
                       NULL);
    if (m)
        gc_calib_put(c, &pt->latency_cyc, s / (double)m, lo, hi,
                     gc_calib_str(c,
                                  "%s:%d: mean latency over the %zu target rank%s "
                                  "(interval: their lowest lo to highest hi)",
                                  file, t->line[first], m, m == 1 ? "" : "s"),
                     NULL);
    if (ring >= 0)
        put_row(c, &pt->bw_gbs, t, (size_t)ring,
                gc_calib_str(c, "%s:%d: %s pattern throughput", file, t->line[ring],
                             size == 1 ? "self" : "ring"));
}

int gc_bench_dsm(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    int ccl = gc_table_col(t, "cluster"), crank = gc_table_col(t, "dst_rank");
    int rc;
    double sizes[32];
    long local = -1, remote = -1, best = -1;
    for (size_t r = 0; r < t->nrows; r++) {
        if ((rc = check_row(t, file, r, err)) != 0)
            return rc;
        double cs = gc_table_num(t, ccl, r);
        if (cs > 16)
            return gc_err_at(err, GC_EINPUT, file, t->line[r], 0,
                             "column 'cluster': %g blocks (a cluster has at most 16)", cs);
        if (is(t, "metric", r, "latency")) {
            if (cs == 1 && local < 0)
                local = (long)r;
            if (cs == 2 && gc_table_num(t, crank, r) == 1 && remote < 0)
                remote = (long)r;
        } else if (is(t, "metric", r, "throughput") && !is(t, "pattern", r, "self") &&
                   (best < 0 || val(t, r) > val(t, (size_t)best))) {
            best = (long)r;
        }
    }
    gc_dsm_t *d = &c->a->memory.dsm;
    if (local >= 0)
        put_row(c, &d->latency_local_cyc, t, (size_t)local,
                gc_calib_str(c,
                             "%s:%d: the block's own shared memory through the cluster "
                             "interface (cluster of 1)",
                             file, t->line[local]));
    if (remote >= 0)
        put_row(
            c, &d->latency_cyc, t, (size_t)remote,
            gc_calib_str(c, "%s:%d: rank 0 reading rank 1, cluster of 2", file, t->line[remote]));
    if (best >= 0)
        put_row(c, &d->bw_gbs, t, (size_t)best,
                gc_calib_str(c, "%s:%d: best SM-to-SM throughput row (pattern %s, cluster %g)",
                             file, t->line[best],
                             gc_table_txt(t, gc_table_col(t, "pattern"), (size_t)best),
                             gc_table_num(t, ccl, (size_t)best)));
    /* per cluster size: mean latency over the target ranks, ring throughput */
    size_t nsz = gc_table_distinct(t, ccl, sizes, 32);
    gc_dsm_point_t *pt =
        nsz ? gc_calib_grow(c, (void **)&d->clusters, &d->n_clusters, sizeof(*pt), nsz) : NULL;
    if (nsz && !pt)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    for (size_t i = 0; i < nsz; i++)
        dsm_point(c, t, file, sizes[i], &pt[i]);
    gc_calib_info(c, "%s: distributed shared memory, %zu cluster size%s", file, nsz,
                  nsz == 1 ? "" : "s");
    return 0;
}

/* ---- dpx ---- */

int gc_bench_dpx(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    int cf = gc_table_col(t, "func");
    int rc;
    for (size_t r = 0; r < t->nrows; r++)
        if ((rc = check_row(t, file, r, err)) != 0)
            return rc;
    size_t n = t->ndict[cf];
    if (!n) {
        gc_calib_leave_out(c, file, 0, "no rows: no dpx entries");
        return 0;
    }
    gc_dpx_t *e = gc_calib_grow(c, (void **)&c->a->dpx, &c->a->n_dpx, sizeof(*e), n);
    if (!e)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    for (size_t g = 0; g < n; g++) {
        e[g].op = gc_arch_str(c->a, t->dict[cf][g]);
        for (size_t r = 0; r < t->nrows; r++) {
            if (t->txt[cf][r] != (int)g)
                continue;
            if (is(t, "metric", r, "latency") && is(t, "unit", r, "cyc") && !e[g].latency_cyc.set)
                put_row(
                    c, &e[g].latency_cyc, t, r,
                    gc_calib_str(c, "%s:%d: dependent-call chain, one thread", file, t->line[r]));
            else if (is(t, "metric", r, "throughput") && is(t, "unit", r, "ops_clk_sm") &&
                     !e[g].ops_clk_sm.set)
                put_row(
                    c, &e[g].ops_clk_sm, t, r,
                    gc_calib_str(c, "%s:%d: calls per clock per SM, whole GPU", file, t->line[r]));
        }
    }
    gc_calib_info(c, "%s: %zu DPX function%s", file, n, n == 1 ? "" : "s");
    return 0;
}
