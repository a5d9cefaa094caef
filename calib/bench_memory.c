/* bench_memory.c - calib's handlers of the memory benches: pchase (classic
 * P-chase: plateaus and capacities), pchase_fine (k-means of per-access
 * latencies: L2 near/far hit/miss) and bw (bandwidth per level); the clock
 * bench's is bench_clock.c. See bench.h; the methods are in
 * calib/README.md. */
#define _POSIX_C_SOURCE 200809L
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsio.h"
#include "bench.h"
#include "curve.h"
#include "fine.h"
#include "kmeans.h"

#define KIB 1024.0
#define MIB 1048576.0
/* plateaus: a spread of at most 4 % of their median, at least 2 sizes
 * spanning a quarter of an octave (calib/README.md) */
#define PLATEAU_TOL 0.04
#define PLATEAU_PTS 2
#define PLATEAU_RATIO 1.189207115002721 /* 2^(1/4) */
/* the near L2 plateau ending below this share of the L2: a partition */
#define PARTITION_MAX 0.9
/* an L2 plateau ending at or above this share of the L2: the capacity */
#define CAPACITY_MIN 0.75

/* ---- pchase: plateaus of latency vs array size ---- */

typedef struct curve {
    const char *path, *pattern;
    double stride;
    gc_curve_pt_t *p;
    size_t n;
    gc_plateau_t pl[16];
    size_t k;
} curve_t;

/* The curve of one path: pattern rand if measured (else seq), the stride
 * with the most rows (ties: the smaller). 0 rows: c->n = 0. */
static int build_curve(const gc_table_t *t, const char *path, curve_t *cv, gc_err_t *err)
{
    int cp = gc_table_col(t, "path"), cpat = gc_table_col(t, "pattern"),
        cx = gc_table_col(t, "array_bytes"), cs = gc_table_col(t, "stride_bytes"),
        cy = gc_table_col(t, "latency_cyc"), clo = gc_table_col(t, "lat_lo"),
        chi = gc_table_col(t, "lat_hi");
    memset(cv, 0, sizeof(*cv));
    cv->path = path;
    int has_rand = 0, any = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (!strcmp(gc_table_txt(t, cp, r), path)) {
            any = 1;
            has_rand |= !strcmp(gc_table_txt(t, cpat, r), "rand");
        }
    if (!any)
        return 0;
    cv->pattern = has_rand ? "rand" : "seq";
    /* the most common stride */
    double best = 0;
    size_t best_n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        if (strcmp(gc_table_txt(t, cp, r), path) || strcmp(gc_table_txt(t, cpat, r), cv->pattern))
            continue;
        double s = gc_table_num(t, cs, r);
        size_t m = 0;
        for (size_t q = 0; q < t->nrows; q++)
            m += !strcmp(gc_table_txt(t, cp, q), path) &&
                 !strcmp(gc_table_txt(t, cpat, q), cv->pattern) && gc_table_num(t, cs, q) == s;
        if (m > best_n || (m == best_n && s < best)) {
            best = s;
            best_n = m;
        }
    }
    cv->stride = best;
    cv->p = malloc(best_n * sizeof(*cv->p));
    if (!cv->p)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    for (size_t r = 0; r < t->nrows; r++)
        if (!strcmp(gc_table_txt(t, cp, r), path) &&
            !strcmp(gc_table_txt(t, cpat, r), cv->pattern) && gc_table_num(t, cs, r) == best)
            cv->p[cv->n++] =
                (gc_curve_pt_t){gc_table_num(t, cx, r), gc_table_num(t, cy, r),
                                gc_table_num(t, clo, r), gc_table_num(t, chi, r), t->line[r]};
    cv->n = gc_curve_normalize(cv->p, cv->n);
    cv->k = gc_curve_plateaus(cv->p, cv->n, PLATEAU_TOL, PLATEAU_PTS, PLATEAU_RATIO, cv->pl, 16);
    return 0;
}

static const char *plateau_src(gc_calib_ctx_t *c, const char *file, const curve_t *cv,
                               const gc_plateau_t *pl)
{
    char a[32], b[32];
    return gc_calib_str(c,
                        "%s:%ld: plateau of the %s path (%s pattern, stride %g B) from %s to "
                        "%s, %zu sizes",
                        file, cv->p[pl->first].line, cv->path, cv->pattern, cv->stride,
                        gc_calib_bytes(cv->p[pl->first].x, a, sizeof(a)),
                        gc_calib_bytes(cv->p[pl->last].x, b, sizeof(b)), pl->last - pl->first + 1);
}

/* a capacity: the last size of plateau pl, interval up to the next size */
static void put_capacity(gc_calib_ctx_t *c, gc_qty_t *q, double unit, const char *file,
                         const curve_t *cv, const gc_plateau_t *pl, const char *what)
{
    double last = cv->p[pl->last].x, next = cv->p[pl->last + 1].x;
    char a[32], b[32];
    gc_calib_put(c, q, last / unit, last / unit, next / unit,
                 gc_calib_str(c,
                              "%s:%ld: %s: the last size on the %.0f-cycle plateau (%s path); "
                              "the next size measured, %s, is off it",
                              file, cv->p[pl->last].line, what, pl->level, cv->path,
                              gc_calib_bytes(next, b, sizeof(b))),
                 gc_calib_str(c, "between %s and %s", gc_calib_bytes(last, a, sizeof(a)),
                              gc_calib_bytes(next, b, sizeof(b))));
}

static void put_level(gc_calib_ctx_t *c, gc_qty_t *q, const char *file, const curve_t *cv,
                      const gc_plateau_t *pl)
{
    gc_calib_put(c, q, pl->level, pl->lo, pl->hi, plateau_src(c, file, cv, pl), NULL);
}

/* L1 from the l1 (else global) path: its first plateau */
static void pchase_l1(gc_calib_ctx_t *c, const char *file, const curve_t *cv)
{
    gc_l1_t *l1 = &c->a->memory.l1;
    if (!cv->k) {
        gc_calib_leave_out(c, file, 0, "memory.l1 left out: no plateau on the %s path", cv->path);
        return;
    }
    if (cv->k >= 2 && !(cv->pl[0].level < 0.5 * cv->pl[1].level)) {
        gc_calib_leave_out(c, file, cv->p[cv->pl[0].first].line,
                           "memory.l1 left out: the first plateau (%.0f cycles) is not an L1 "
                           "hit (start the sweep inside L1)",
                           cv->pl[0].level);
        return;
    }
    put_level(c, &l1->latency_cyc, file, cv, &cv->pl[0]);
    if (cv->pl[0].last + 1 < cv->n)
        put_capacity(c, &l1->size_kib, KIB, file, cv, &cv->pl[0], "L1 capacity");
    else
        gc_calib_leave_out(c, file, 0,
                           "memory.l1.size_kib left out: the %s curve ends on the "
                           "L1 plateau",
                           cv->path);
}

/* L2 and DRAM from the l2 (else global, after its L1 plateau) path */
/* The L2's partition size (and far latency) from the near plateau (and
 * the far one, when nl2 == 2) of curve cv. */
static void pchase_partition(gc_calib_ctx_t *c, const char *file, const curve_t *cv,
                             const gc_plateau_t *near, size_t from, size_t nl2)
{
    gc_l2_t *l2 = &c->a->memory.l2;
    if (nl2 == 2) {
        const gc_plateau_t *far = &cv->pl[from + 1];
        put_level(c, &l2->latency_far_cyc, file, cv, far);
        double last = cv->p[near->last].x, first = cv->p[far->first].x;
        char a[32];
        gc_calib_put(c, &l2->partition_mib, first / MIB, last / MIB, first / MIB,
                     gc_calib_str(c,
                                  "%s:%ld: the first size on the far L2 plateau (%s "
                                  "path); the near plateau ends at %s",
                                  file, cv->p[far->first].line, cv->path,
                                  gc_calib_bytes(last, a, sizeof(a))),
                     NULL);
    } else if (near->last + 1 < cv->n &&
               cv->p[near->last + 1].x < PARTITION_MAX * c->l2_bytes) {
        /* no far plateau, but the latency leaves the near one well before
         * the L2 is full: the far partition begins there */
        double last = cv->p[near->last].x, first = cv->p[near->last + 1].x;
        char a[32];
        gc_calib_put(c, &l2->partition_mib, first / MIB, last / MIB, first / MIB,
                     gc_calib_str(c,
                                  "%s:%ld: the first size off the near L2 plateau (%s "
                                  "path), which ends at %s",
                                  file, cv->p[near->last + 1].line, cv->path,
                                  gc_calib_bytes(last, a, sizeof(a))),
                     gc_calib_str(c,
                                  "no far plateau: the latency climbs from here to "
                                  "the L2 size (%s)",
                                  gc_calib_bytes(c->l2_bytes, a, sizeof(a))));
        gc_calib_leave_out(c, file, 0,
                           "memory.l2.latency_far_cyc left out: no far plateau on the %s "
                           "path (the latency climbs steadily between the partition and "
                           "the L2 size)",
                           cv->path);
    }
}

static void pchase_l2(gc_calib_ctx_t *c, const char *file, const curve_t *cv, size_t from)
{
    gc_l2_t *l2 = &c->a->memory.l2;
    if (!(c->l2_bytes > 0)) {
        gc_calib_leave_out(c, file, 0,
                           "memory.l2 and memory.dram latencies left out: no "
                           "l2_bytes header to tell L2 plateaus from DRAM ones");
        return;
    }
    size_t nl2 = 0, dram = 0;
    int has_dram = 0;
    for (size_t j = from; j < cv->k; j++) {
        if (cv->p[cv->pl[j].first].x < c->l2_bytes) {
            if (!has_dram)
                nl2++;
        } else {
            has_dram = 1;
            dram = j; /* the last one: arrays well beyond the L2 */
        }
    }
    char b[32];
    if (nl2 == 0) {
        gc_calib_leave_out(c, file, 0,
                           "memory.l2 latencies left out: no plateau of the %s path "
                           "below the L2 size (%s)",
                           cv->path, gc_calib_bytes(c->l2_bytes, b, sizeof(b)));
    } else if (nl2 > 2) {
        gc_calib_leave_out(c, file, 0,
                           "memory.l2 latencies left out: %zu plateaus below the L2 "
                           "size on the %s path (expected a near and a far one at most)",
                           nl2, cv->path);
    } else {
        const gc_plateau_t *near = &cv->pl[from];
        put_level(c, &l2->latency_cyc, file, cv, near);
        c->has_l2_plateau = 1;
        c->l2_level = near->level;
        c->l2_lo = near->lo;
        c->l2_hi = near->hi;
        c->l2_src = gc_arch_str(c->a, file);
        pchase_partition(c, file, cv, near, from, nl2);
        /* the L2 capacity ends the last L2 plateau when that one reaches near
         * the L2 size (else the header's l2_bytes stands) */
        const gc_plateau_t *top = &cv->pl[from + nl2 - 1];
        if (has_dram && top->last + 1 < cv->n &&
            cv->p[top->last + 1].x >= CAPACITY_MIN * c->l2_bytes)
            put_capacity(c, &l2->size_mib, MIB, file, cv, top, "L2 capacity");
    }
    if (has_dram)
        put_level(c, &c->a->memory.dram.latency_cyc, file, cv, &cv->pl[dram]);
    else
        gc_calib_leave_out(c, file, 0,
                           "memory.dram.latency_cyc left out: no plateau of the %s "
                           "path above the L2 size (%s)",
                           cv->path, gc_calib_bytes(c->l2_bytes, b, sizeof(b)));
}

int gc_bench_pchase(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    static const char *const paths[] = {"l1", "l2", "global", "shared", "tma"}; /* not
                                                                          shared_idx */
    curve_t cv[5];
    int rc = 0, cy = gc_table_col(t, "latency_cyc"), clo = gc_table_col(t, "lat_lo"),
        chi = gc_table_col(t, "lat_hi");
    memset(cv, 0, sizeof(cv));
    for (size_t r = 0; r < t->nrows; r++)
        if ((rc = gc_table_check_ci(t, file, r, cy, clo, chi, err)) != 0)
            return rc;
    for (int i = 0; i < 5; i++)
        if ((rc = build_curve(t, paths[i], &cv[i], err)) != 0)
            goto done;
    const curve_t *l1 = cv[0].n ? &cv[0] : cv[2].n ? &cv[2] : NULL;
    if (l1)
        pchase_l1(c, file, l1);
    if (cv[1].n)
        pchase_l2(c, file, &cv[1], 0);
    else if (cv[2].n)
        pchase_l2(c, file, &cv[2], 1);
    else
        gc_calib_leave_out(c, file, 0,
                           "memory.l2 and memory.dram latencies left out: no l2 or "
                           "global path rows");
    if (cv[3].n && cv[3].k && !c->a->memory.shared.latency_cyc.set)
        put_level(c, &c->a->memory.shared.latency_cyc, file, &cv[3], &cv[3].pl[0]);
    if (cv[4].n && !c->a->memory.tma.latency_cyc.set) {
        if (!cv[4].k || !(c->l2_bytes > 0) || !(cv[4].p[cv[4].pl[0].first].x < c->l2_bytes))
            gc_calib_leave_out(c, file, 0,
                               "memory.tma.latency_cyc left out: no tma plateau below the L2 "
                               "size");
        else
            put_level(c, &c->a->memory.tma.latency_cyc, file, &cv[4], &cv[4].pl[0]);
    }
    char plat[128] = "";
    size_t at = 0;
    for (int i = 0; i < 5; i++)
        if (cv[i].n) {
            int w = snprintf(plat + at, sizeof(plat) - at, "%s%s %zu", at ? ", " : "", paths[i],
                             cv[i].k);
            if (w > 0 && (size_t)w < sizeof(plat) - at)
                at += (size_t)w;
        }
    gc_calib_info(c, "%s: plateaus per path: %s", file, plat);
done:
    for (int i = 0; i < 5; i++)
        free(cv[i].p);
    return rc;
}

/* ---- pchase_fine: k-means of per-access latencies ---- */

/* One array-size regime of the fine P-chase: the accesses of the arrays with
 * lo < array_bytes <= hi, clustered on their own (calib/README.md). */
typedef struct regime {
    const char *name; /* "hit" or "miss" */
    double lo, hi;    /* array sizes, bytes */
    size_t n;         /* accesses */
    double *v;        /* their distinct latencies, cycles, ascending */
    size_t *w;        /* accesses of each */
    size_t nv;
    int *lab;         /* cluster of each distinct latency (-1: the tail) */
    gc_kmeans_t km;   /* k = 0: fewer than 2 accesses */
    char arrays[160]; /* the array sizes, listed */
    const char *method;
} regime_t;

/* The cluster of latency cyc in rg (-1: the tail, or not one of its values). */
static int regime_label(const regime_t *rg, double cyc)
{
    size_t a = 0, b = rg->nv;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (rg->v[mid] < cyc)
            a = mid + 1;
        else
            b = mid;
    }
    return a < rg->nv && rg->v[a] == cyc ? rg->lab[a] : -1;
}

typedef struct access {
    double sm, array, offset, stride;
    size_t first, n;
    int label;
} access_t;

static int cmp_access(const void *a, const void *b)
{
    const access_t *x = a, *y = b;
    if (x->sm != y->sm)
        return (x->sm > y->sm) - (x->sm < y->sm);
    if (x->array != y->array)
        return (x->array > y->array) - (x->array < y->array);
    if (x->offset != y->offset)
        return (x->offset > y->offset) - (x->offset < y->offset);
    return (x->first > y->first) - (x->first < y->first);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The hit-regime addresses of f served by cluster near or far (an address
 * by its lowest latency, fine.h), into *out sorted by SM, array, offset
 * and first access; returns how many, or (size_t)-1 when out of memory. */
static size_t map_addrs(const gc_fine_t *f, const regime_t *hit, int near, int far,
                        access_t **out)
{
    size_t na = gc_fine_naddrs(f), n = 0;
    access_t *a = malloc((na ? na : 1) * sizeof(*a));
    if (!a)
        return (size_t)-1;
    for (size_t i = 0; i < na; i++) {
        const gc_fine_addr_t *d = gc_fine_addr(f, i);
        int lab = d->array_bytes <= hit->hi ? regime_label(hit, d->min_cyc) : -1;
        if (lab == near || lab == far)
            a[n++] = (access_t){d->sm, d->array_bytes, d->offset_bytes, d->stride_bytes,
                                d->first, d->n, lab};
    }
    qsort(a, n, sizeof(*a), cmp_access);
    *out = a;
    return n;
}

/* Write the per-SM near/far map: runs of consecutive offsets served by one
 * partition, per SM and array size, hit-regime accesses only. Returns the
 * median run length in bytes through *median_run. */
static int write_map(gc_calib_ctx_t *c, const gc_fine_t *f, const regime_t *hit, int near, int far,
                     double *median_run, size_t *nruns, gc_err_t *err)
{
    access_t *a = NULL;
    size_t n = map_addrs(f, hit, near, far, &a);
    double *len = n != (size_t)-1 ? malloc((n ? n : 1) * sizeof(*len)) : NULL;
    if (!len) {
        free(a);
        return gc_err_set(err, GC_ENOMEM, "out of memory (near map)");
    }
    gc_afile_t af;
    int rc = 0;
    memset(&af, 0, sizeof(af));
    FILE *fp = c->o->near_map_fp; /* the caller's file, else one of our own */
    if (!fp && c->o->near_map &&
        (rc = gc_afile_open(&af, c->o->near_map, c->o->force ? GC_AFILE_FORCE : 0, err)) != 0)
        goto done;
    if (!fp)
        fp = af.fp;
    if (fp)
        fprintf(fp, "sm,array_bytes,offset_lo,offset_hi,partition,accesses\n");
    size_t runs = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1, acc = a[i].n;
        while (j < n && a[j].sm == a[i].sm && a[j].array == a[i].array && a[j].label == a[i].label)
            acc += a[j++].n;
        double end = a[j - 1].offset + a[j - 1].stride;
        len[runs++] = end - a[i].offset;
        if (fp)
            fprintf(fp, "%.0f,%.0f,%.0f,%.0f,%s,%zu\n", a[i].sm, a[i].array, a[i].offset, end,
                    a[i].label == near ? "near" : "far", acc);
        i = j;
    }
    if (af.fp && (rc = gc_afile_commit(&af, err)) != 0)
        goto done;
    qsort(len, runs, sizeof(*len), cmp_double);
    *median_run = runs ? len[runs / 2] : 0;
    *nruns = runs;
done:
    gc_afile_abort(&af);
    free(a);
    free(len);
    return rc;
}

/* rg->arrays: the distinct array sizes of rg, ascending, "10 MiB,
 * 48 MiB" (at most 16, the first the trace shows; the rest are counted as
 * "..."). */
static void regime_arrays(const gc_fine_t *f, regime_t *rg)
{
    double sizes[16];
    size_t nsz = 0, more = 0, at = 0;
    for (size_t i = 0; i < gc_fine_narrays(f); i++) {
        double s = gc_fine_array(f, i);
        if (!(s > rg->lo && s <= rg->hi))
            continue;
        if (nsz < 16)
            sizes[nsz++] = s;
        else
            more = 1;
    }
    qsort(sizes, nsz, sizeof(*sizes), cmp_double);
    rg->arrays[0] = 0;
    for (size_t q = 0; q < nsz + more; q++) {
        char b[32];
        int w = snprintf(rg->arrays + at, sizeof(rg->arrays) - at, "%s%s", at ? ", " : "",
                         q < nsz ? gc_calib_bytes(sizes[q], b, sizeof(b)) : "...");
        if (w > 0 && (size_t)w < sizeof(rg->arrays) - at)
            at += (size_t)w;
    }
}

/* rg->method: how k was chosen (silhouette by k, the tail), for the notes */
static void regime_method(gc_calib_ctx_t *c, const gc_kmeans_opts_t *ko, regime_t *rg)
{
    const gc_kmeans_t *km = &rg->km;
    char sil[160] = "";
    size_t at = 0, nout = km->n_low + km->n_high;
    for (int k = 2; k <= ko->kmax; k++) {
        int w = km->silhouette[k] > -1
                    ? snprintf(sil + at, sizeof(sil) - at, "%s%d: %.2f%s", at ? ", " : "", k,
                               km->silhouette[k], km->admissible[k] ? "" : " (not separated)")
                    : 0;
        if (w > 0 && (size_t)w < sizeof(sil) - at)
            at += (size_t)w;
    }
    rg->method = gc_calib_str(
        c,
        "%s regime (arrays %s): k = %d, the largest separated partition (k = 1..%d; "
        "silhouette by k: %s); %zu of %zu accesses (%.2f %%) outside every cluster left out "
        "as the long tail (%zu above, %zu below)",
        rg->name, rg->arrays, km->k, ko->kmax, sil[0] ? sil : "none", nout, rg->n,
        rg->n ? 100.0 * (double)nout / (double)rg->n : 0.0, km->n_high, km->n_low);
}

/* Gather and cluster the accesses of regime rg (rg->lo, rg->hi set by the
 * caller): the k-means of its latency histogram. rg->km.k stays 0 with
 * fewer than 2 accesses or none left after the tail. Returns 0, or
 * GC_ENOMEM / GC_EINPUT from the k-means. */
static int regime_fit(gc_calib_ctx_t *c, const gc_fine_t *f, const gc_kmeans_opts_t *ko,
                      regime_t *rg, gc_err_t *err)
{
    if (gc_fine_hist(f, rg->lo, rg->hi, &rg->v, &rg->w, &rg->nv) != 0 ||
        !(rg->lab = malloc((rg->nv ? rg->nv : 1) * sizeof(*rg->lab))))
        return gc_err_set(err, GC_ENOMEM, "out of memory (fine P-chase, %zu latencies)", rg->nv);
    rg->n = 0;
    for (size_t i = 0; i < rg->nv; i++)
        rg->n += rg->w[i];
    regime_arrays(f, rg);
    memset(&rg->km, 0, sizeof(rg->km));
    if (rg->n < 2)
        return 0;
    int rc = gc_kmeans_fit_hist(rg->v, rg->w, rg->nv, ko, &rg->km, rg->lab, err);
    if (rc == GC_ENODATA) {
        gc_err_clear(err);
        memset(&rg->km, 0, sizeof(rg->km));
        return 0;
    }
    if (rc == 0)
        regime_method(c, ko, rg);
    return rc;
}

static void regime_free(regime_t *rg)
{
    free(rg->v);
    free(rg->w);
    free(rg->lab);
}

/* The misses among the clusters of the miss regime mk: a cluster whose
 * median lies inside the band of a hit cluster (its median -+ gap robust sd,
 * where that partition's hits fall) is those hits seen again in arrays beyond
 * the L2; the others above the near hit are misses. Their indices go to
 * miss[] ascending; returns how many; *again counts the hits seen again. */
static int miss_clusters(const gc_kmeans_t *hk, const gc_kmeans_t *mk, double gap, int *miss,
                         int *again)
{
    int nm = 0;
    *again = 0;
    for (int j = 0; j < mk->k; j++) {
        double m = mk->c[j].median;
        int hit = 0;
        for (int h = 0; h < hk->k; h++)
            hit |= fabs(m - hk->c[h].median) <= gap * hk->c[h].rspread;
        if (hit)
            ++*again;
        else if (m > hk->c[0].median)
            miss[nm++] = j;
    }
    return nm;
}

/* One cluster j of regime rg as key q, named `what` (near hit, ...). */
static void fine_put(gc_calib_ctx_t *c, gc_qty_t *q, const char *file, const regime_t *rg, int j,
                     const char *what, const char *method)
{
    const gc_kmeans_cluster_t *cl = &rg->km.c[j];
    gc_calib_put(c, q, cl->centre, cl->lo, cl->hi,
                 gc_calib_str(c, "%s: k-means cluster %d of %d of the %s regime (%s), arrays %s",
                              file, j + 1, rg->km.k, rg->name, what, rg->arrays),
                 gc_calib_str(c, "spread %.3g cycles, %.2f %% of the %s-regime accesses%s%s",
                              cl->spread, 100 * cl->share, rg->name, method ? "; " : "",
                              method ? method : ""));
}

/* The hit regime's clusters (1 or 2, checked by the caller): near and far
 * hit, partitions, near_share and the near/far map. */
static int fine_hits(gc_calib_ctx_t *c, const gc_fine_t *f, const char *file, const regime_t *hit,
                     double *median_run, size_t *runs, gc_err_t *err)
{
    gc_l2_t *l2 = &c->a->memory.l2;
    const gc_kmeans_t *km = &hit->km;
    char b[32];
    fine_put(c, &l2->near_hit_cyc, file, hit, 0, "near hit", hit->method);
    if (km->k == 2)
        fine_put(c, &l2->far_hit_cyc, file, hit, 1, "far hit", NULL);
    gc_calib_put_count(c, &l2->partitions, km->k,
                       gc_calib_str(c,
                                    "%s: k-means clusters of the arrays of at most half the L2 "
                                    "(%s): one per partition",
                                    file, gc_calib_bytes(hit->hi, b, sizeof(b))),
                       NULL);
    if (km->k < 2) {
        if (c->o->near_map)
            gc_calib_leave_out(c, file, 0, "no near/far map written: the L2 shows one partition");
        return 0;
    }
    double m = (double)(km->c[0].n + km->c[1].n);
    double p = (double)km->c[0].n / m, h = 1.96 * sqrt(p * (1 - p) / m);
    gc_calib_put(c, &l2->near_share, p, p - h > 0 ? p - h : 0, p + h < 1 ? p + h : 1,
                 gc_calib_str(c,
                              "%s: near-hit accesses / all hits in arrays of at most "
                              "half the L2 (%.0f accesses; normal interval)",
                              file, m),
                 NULL);
    return write_map(c, f, hit, 0, 1, median_run, runs, err);
}

/* The spread of one miss's latency: the standard deviation of the accesses of
 * regime rg whose cluster is one of miss[0..nm) (the long tail, label -1, left
 * out). Writes their count to *n; returns 0 without any. */
static double miss_sd(const regime_t *rg, const int *miss, int nm, double *n)
{
    double w = 0, s = 0, s2 = 0;
    for (size_t i = 0; i < rg->nv; i++) {
        int in = 0;
        for (int j = 0; j < nm; j++)
            in |= rg->lab[i] == miss[j];
        if (!in)
            continue;
        double x = rg->v[i], c = (double)rg->w[i];
        w += c, s += c * x, s2 += c * x * x;
    }
    *n = w;
    if (w < 2)
        return 0;
    double m = s / w, var = s2 / w - m * m;
    return var > 0 ? sqrt(var) : 0;
}

/* The miss regime's clusters beyond the hits: one miss latency per partition
 * (the hit clusters), lowest first: near miss, far miss. Slower clusters
 * beyond those (DRAM page or TLB misses) are named in the note as tail. */
static void fine_misses(gc_calib_ctx_t *c, const char *file, const regime_t *hit,
                        const regime_t *miss, double gap)
{
    gc_l2_t *l2 = &c->a->memory.l2;
    char b[32];
    if (!miss->km.k) {
        gc_calib_leave_out(c, file, 0,
                           "memory.l2 near_miss_cyc, far_miss_cyc left out: no array larger "
                           "than the L2 (%s) to cluster misses in (measure one)",
                           gc_calib_bytes(miss->lo, b, sizeof(b)));
        return;
    }
    int idx[GC_KMEANS_KMAX], again, want = hit->km.k;
    int nm = miss_clusters(&hit->km, &miss->km, gap, idx, &again);
    if (nm < want) {
        gc_calib_leave_out(c, file, 0,
                           "memory.l2 near_miss_cyc, far_miss_cyc left out: %d cluster%s of the "
                           "arrays beyond the L2 (%s) outside the hit bands, %d expected (one "
                           "miss latency per partition)",
                           nm, nm == 1 ? "" : "s", miss->arrays, want);
        return;
    }
    double slow = 0;
    for (int j = want; j < nm; j++)
        slow += miss->km.c[idx[j]].share;
    const char *how = gc_calib_str(
        c, "%s; %d of its clusters in a hit band (hit-regime median -+ %g robust sd): hits; "
           "the %d lowest of the others: misses%s",
        miss->method, again, gap, want,
        nm > want ? gc_calib_str(c, "; %d slower cluster%s (%.2f %% of the accesses, from %.0f "
                                    "cycles: slower than both miss paths, e.g. DRAM page or TLB "
                                    "misses) counted with the tail",
                                 nm - want, nm - want == 1 ? "" : "s", 100 * slow,
                                 miss->km.c[idx[want]].min)
                  : "");
    fine_put(c, &l2->near_miss_cyc, file, miss, idx[0], "near miss", how);
    double nmiss, sd = miss_sd(miss, idx, nm, &nmiss);
    if (sd > 0)
        gc_calib_put(c, &l2->miss_sd_cyc, sd, sd, sd,
                     gc_calib_str(c,
                                  "%s: standard deviation of the %.0f accesses in the %d miss "
                                  "cluster%s of the arrays %s (near, far%s; the long tail "
                                  "left out)",
                                  file, nmiss, nm, nm == 1 ? "" : "s", miss->arrays,
                                  nm > want ? " and slower" : ""),
                     NULL);
    if (want < 2) {
        gc_calib_leave_out(c, file, 0,
                           "memory.l2.far_miss_cyc left out: the L2 shows one partition");
        return;
    }
    const gc_kmeans_cluster_t *nh = &hit->km.c[0], *fh = &hit->km.c[1];
    const gc_kmeans_cluster_t *nmc = &miss->km.c[idx[0]], *fm = &miss->km.c[idx[1]];
    fine_put(c, &l2->far_miss_cyc, file, miss, idx[1], "far miss",
             gc_calib_str(c, "far - near: %.0f cycles on misses, %.0f on hits", fm->centre -
                          nmc->centre, fh->centre - nh->centre));
}

int gc_bench_fine(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    char b[32];
    const gc_fine_t *f = t->agg;
    if (!f || t->sink != &gc_fine_sink)
        return gc_err_set(err, GC_EINPUT, "internal: a pchase_fine trace not read through "
                                          "gc_fine_sink");
    if (t->nrows < 2) {
        gc_calib_leave_out(c, file, 0, "memory.l2 near/far latencies left out: %zu access%s",
                           t->nrows, t->nrows == 1 ? "" : "es");
        return 0;
    }
    if (!(c->l2_bytes > 0)) {
        gc_calib_leave_out(c, file, 0,
                           "memory.l2 near/far latencies left out: no l2_bytes "
                           "header to tell the hit regime (arrays up to half the L2) from misses");
        return 0;
    }
    gc_kmeans_opts_t ko;
    gc_kmeans_defaults(&ko);
    ko.min_spread = 1; /* latencies are whole cycles */
    regime_t hit = {.name = "hit", .lo = 0, .hi = c->l2_bytes / 2};
    regime_t miss = {.name = "miss", .lo = c->l2_bytes, .hi = INFINITY};
    double median_run = 0;
    size_t runs = 0;
    int rc = regime_fit(c, f, &ko, &hit, err);
    if (!rc)
        rc = regime_fit(c, f, &ko, &miss, err);
    if (rc)
        goto done;
    if (!hit.km.k || hit.km.k > 2) {
        gc_calib_leave_out(c, file, 0,
                           "memory.l2 near/far latencies left out: %d k-means clusters in the "
                           "arrays of at most half the L2 (%s; expected a near and a far hit)",
                           hit.km.k, gc_calib_bytes(hit.hi, b, sizeof(b)));
        goto info;
    }
    if ((rc = fine_hits(c, f, file, &hit, &median_run, &runs, err)) != 0)
        goto done;
    fine_misses(c, file, &hit, &miss, ko.gap);
info:
    gc_calib_info(
        c, "%s: %zu accesses, k = %d (hit regime) and %d (miss regime), %zu tail outliers%s%s",
        file, t->nrows, hit.km.k, miss.km.k,
        hit.km.n_low + hit.km.n_high + miss.km.n_low + miss.km.n_high,
        runs ? gc_calib_str(c, "; near/far runs: %zu, median %.0f bytes", runs, median_run) : "",
        c->o->near_map && runs ? gc_calib_str(c, " (map: %s)", c->o->near_map) : "");
done:
    regime_free(&hit);
    regime_free(&miss);
    return rc;
}

/* ---- bw: best throughput per level and width ---- */

typedef struct target {
    const char *level;
    double width;       /* 0: any width (the best) */
    const char *metric; /* the column */
    int read_only;      /* with an op column: only op 'read' rows */
    const char *op;     /* NULL, or only rows of exactly this op */
} target_t;

/* one configuration: the rows of one (level, width, blocks, threads, op) */
typedef struct config {
    int level, op; /* dictionary ids (op -1: no op column) */
    double width, blocks, threads;
    size_t first; /* first row */
    size_t n;     /* rows */
} config_t;

/* The bw trace grouped by configuration (level, op, width, blocks,
 * threads). */
typedef struct bwset {
    const gc_table_t *t;
    int cl, cop, cg, cglo, cghi, has_op, has_gci;
    config_t *cf; /* the configurations, in first-row order */
    size_t ncf;
    size_t *of;   /* each row's configuration */
    double *v;    /* scratch, one per row */
} bwset_t;

/* Group the rows into configurations, checking each row's gbs interval. */
static int bw_group(bwset_t *B, const char *file, gc_err_t *err)
{
    const gc_table_t *t = B->t;
    int cw = gc_table_col(t, "width_bytes"), cb = gc_table_col(t, "blocks"),
        ct = gc_table_col(t, "threads");
    for (size_t r = 0; r < t->nrows; r++) {
        config_t k = {t->txt[B->cl][r],
                      B->has_op ? t->txt[B->cop][r] : -1,
                      gc_table_num(t, cw, r),
                      gc_table_num(t, cb, r),
                      gc_table_num(t, ct, r),
                      r,
                      0};
        if (B->has_gci) {
            double g = gc_table_num(t, B->cg, r), lo = gc_table_num(t, B->cglo, r),
                   hi = gc_table_num(t, B->cghi, r);
            if (!(lo <= g && g <= hi))
                return gc_err_at(err, GC_EINPUT, file, t->line[r], 0,
                                 "gbs %g is outside its interval [gbs_lo %g, gbs_hi %g] (a "
                                 "corrupt row: re-measure)",
                                 g, lo, hi);
        }
        size_t j = 0;
        const config_t *cf = B->cf;
        while (j < B->ncf && !(cf[j].level == k.level && cf[j].op == k.op &&
                               cf[j].width == k.width && cf[j].blocks == k.blocks &&
                               cf[j].threads == k.threads))
            j++;
        if (j == B->ncf)
            B->cf[B->ncf++] = k;
        B->cf[j].n++;
        B->of[r] = j;
    }
    return 0;
}

/* The mean of metric column cm over configuration j's rows, and its 95 %
 * interval (several rows: Student t; one row: its own gbs interval). */
static double bw_mean(const bwset_t *B, size_t j, int cm, double *lo, double *hi)
{
    const gc_table_t *t = B->t;
    const config_t *cf = &B->cf[j];
    size_t mm = 0;
    double s = 0;
    for (size_t r = cf->first; r < t->nrows; r++)
        if (B->of[r] == j) {
            B->v[mm] = gc_table_num(t, cm, r);
            s += B->v[mm++];
        }
    double mean = s / (double)mm;
    *lo = 1;
    *hi = 0;
    if (mm >= 2) {
        double ss = 0;
        for (size_t q = 0; q < mm; q++)
            ss += (B->v[q] - mean) * (B->v[q] - mean);
        double h = gsl_cdf_tdist_Pinv(0.975, (double)(mm - 1)) * sqrt(ss / (double)(mm - 1)) /
                   sqrt((double)mm);
        *lo = mean - h;
        *hi = mean + h;
    } else if (B->has_gci && gc_table_num(t, B->cg, cf->first) > 0) {
        /* one row: its own interval (gbs_lo/hi), scaled to the metric */
        double g = gc_table_num(t, B->cg, cf->first);
        *lo = mean * gc_table_num(t, B->cglo, cf->first) / g;
        *hi = mean * gc_table_num(t, B->cghi, cf->first) / g;
    }
    return mean;
}

/* The configuration of target tgk with the best mean (-1: none). */
static long bw_best(const bwset_t *B, const target_t *tgk, double *bmean, double *blo,
                    double *bhi)
{
    const gc_table_t *t = B->t;
    int cm = gc_table_col(t, tgk->metric), cl = B->cl, cop = B->cop;
    long best = -1;
    *bmean = 0, *blo = 1, *bhi = 0;
    for (size_t j = 0; j < B->ncf; j++) {
        const config_t *cf = &B->cf[j];
        if (strcmp(t->dict[cl][cf->level], tgk->level) ||
            (tgk->width && cf->width != tgk->width) ||
            (tgk->read_only && cf->op >= 0 && strcmp(t->dict[cop][cf->op], "read")) ||
            (tgk->op && (cf->op < 0 || strcmp(t->dict[cop][cf->op], tgk->op))))
            continue;
        double lo, hi, mean = bw_mean(B, j, cm, &lo, &hi);
        if (best < 0 || mean > *bmean) {
            best = (long)j;
            *bmean = mean;
            *blo = lo;
            *bhi = hi;
        }
    }
    return best;
}

/* The SM clock of row r (the L2 throughput row calib chose) into q, when
 * the trace has the column and the value is positive. */
static void l2_clock(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, size_t r,
                     gc_qty_t *q)
{
    int cc = gc_table_col(t, "clock_mhz");
    if (!gc_table_has(t, cc))
        return;
    double v = gc_table_num(t, cc, r);
    if (v > 0)
        gc_calib_put(c, q, v, v, v,
                     gc_calib_str(c, "%s:%ld: SM clock of the 16-byte L2 throughput row", file,
                                  (long)t->line[r]),
                     NULL);
}

int gc_bench_bw(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    gc_memory_t *m = &c->a->memory;
    gc_qty_t *dst[] = {&m->l1.bw_bytes_clk_sm,
                       &m->l1.bw_v4_bytes_clk_sm,
                       &m->shared.bw_bytes_clk_sm,
                       &m->shared.bw_v4_bytes_clk_sm,
                       &m->l2.bw_bytes_clk,
                       &m->l2.bw_v4_bytes_clk,
                       &m->dram.bw_gbs,
                       &m->dram.bw_read_gbs,
                       &m->dram.bw_write_gbs,
                       &m->dram.bw_copy_gbs,
                       &m->l2.lines_bw_bytes_clk};
    static const target_t tg[] = {
        {"l1", 4, "bytes_clk_sm", 1, NULL},     {"l1", 16, "bytes_clk_sm", 1, NULL},
        {"shared", 4, "bytes_clk_sm", 1, NULL}, {"shared", 16, "bytes_clk_sm", 1, NULL},
        {"l2", 4, "bytes_clk", 1, NULL},        {"l2", 16, "bytes_clk", 1, NULL},
        {"global", 0, "gbs", 0, NULL},          {"global", 0, "gbs", 0, "read"},
        {"global", 0, "gbs", 0, "write"},       {"global", 0, "gbs", 0, "copy"},
        {"l2", 16, "bytes_clk", 0, "read_lines"},
    };
    size_t nr = t->nrows ? t->nrows : 1;
    bwset_t B = {.t = t, .cl = gc_table_col(t, "level"), .cop = gc_table_col(t, "op"),
                 .cg = gc_table_col(t, "gbs"), .cglo = gc_table_col(t, "gbs_lo"),
                 .cghi = gc_table_col(t, "gbs_hi")};
    B.has_op = gc_table_has(t, B.cop);
    B.has_gci = gc_table_has(t, B.cglo) && gc_table_has(t, B.cghi);
    B.cf = malloc(nr * sizeof(*B.cf));
    B.of = malloc(nr * sizeof(*B.of));
    B.v = malloc(nr * sizeof(*B.v));
    int given = 0;
    int rc = !B.cf || !B.of || !B.v ? gc_err_set(err, GC_ENOMEM, "out of memory")
                                    : bw_group(&B, file, err);
    /* dram.bw_gbs: the kernel that reads five times for each write (seed
     * 004's method, behind the published figures it is compared with) when
     * the trace has it; else the best of every access mix */
    target_t mix = tg[6];
    for (size_t j = 0; !rc && j < B.ncf && B.has_op; j++)
        if (B.cf[j].op >= 0 && !strcmp(t->dict[B.cop][B.cf[j].op], "r5w1") &&
            !strcmp(t->dict[B.cl][B.cf[j].level], "global"))
            mix.op = "r5w1";
    for (size_t k = 0; !rc && k < sizeof(tg) / sizeof(tg[0]); k++) {
        const target_t *tgk = k == 6 ? &mix : &tg[k];
        double bmean, blo, bhi;
        long best = bw_best(&B, tgk, &bmean, &blo, &bhi);
        if (best < 0)
            continue;
        const config_t *b = &B.cf[best];
        if (!(bmean > 0)) {
            gc_calib_leave_out(c, file, t->line[b->first], "%s %s bandwidth left out: 0",
                               tgk->level, tgk->metric);
            continue;
        }
        char opn[64] = "";
        if (b->op >= 0)
            snprintf(opn, sizeof(opn), "op %s, ", t->dict[B.cop][b->op]);
        gc_calib_put(c, dst[k], bmean, blo, bhi,
                     gc_calib_str(c,
                                  "%s:%d: best %s of level %s (%s%g-byte accesses, %g blocks "
                                  "x %g threads; mean of %zu row%s)",
                                  file, t->line[b->first], tgk->metric, tgk->level, opn, b->width,
                                  b->blocks, b->threads, b->n, b->n == 1 ? "" : "s"),
                     NULL);
        if (dst[k] == &m->l2.bw_v4_bytes_clk)
            l2_clock(c, t, file, (size_t)b->first, &m->l2.bw_clock_mhz);
        given++;
    }
    if (!rc)
        gc_calib_info(c, "%s: %d bandwidth%s", file, given, given == 1 ? "" : "s");
    free(B.cf);
    free(B.of);
    free(B.v);
    return rc;
}
