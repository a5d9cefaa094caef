/* bench_coissue.c - calib's handler of the coissue trace: for each partner
 * pipe (ffma: the FMA pipe, iadd3: the ALU pipe, ex2: MUFU, ldsm_ind:
 * ldmatrix from shared memory at addresses that do not wait for earlier
 * loads, shfl: warp shuffles), the share of
 * the shorter of (tensor alone, partner alone) that a sub-core hides when
 * both run in the same warps:
 *   overlap = (T + P - B) / min(T, P),  clipped to [0, 1]
 * (1: the pair takes as long as the longer alone; 0: as long as both one
 * after the other), with the interval from the rows' own intervals. Writes
 * sm.overlap_tensor_fma, _alu, _xu, _ldsm and _shfl from the trace's first rows
 * (16 warps), and sm.coissue: all five at every warp count measured. A
 * trace of the bench's first version has `ldsm` rows instead, a chain of
 * loads each waiting for the one before: at 1 or 2 warps a sub-core that
 * chain's latency, not the pipes, kept the pair apart (no overlap at 8
 * warps, where independent loads hide 0.83-0.92 of the shorter:
 * model/validation/probe/mma_ldsm.cu), so its ldmatrix overlap is left out
 * (the model then overlaps fully) until the bench runs again. See bench.h. */
#include <string.h>

#include "bench.h"

/* cycles per iteration of (partner, part) at `warps` warps (0: the first
 * row of any), its interval and line; 0 when the row is missing. */
static int find(const gc_table_t *t, const char *partner, const char *part, double warps,
                double v[3], long *line)
{
    int cp = gc_table_col(t, "partner"), cq = gc_table_col(t, "part"),
        cw = gc_table_col(t, "warps");
    for (size_t r = 0; r < t->nrows; r++)
        if (!strcmp(gc_table_txt(t, cp, r), partner) && !strcmp(gc_table_txt(t, cq, r), part) &&
            (warps <= 0 || gc_table_num(t, cw, r) == warps)) {
            v[0] = gc_table_num(t, gc_table_col(t, "cyc_per_iter"), r);
            v[1] = gc_table_num(t, gc_table_col(t, "cyc_lo"), r);
            v[2] = gc_table_num(t, gc_table_col(t, "cyc_hi"), r);
            *line = (long)t->line[r];
            return 1;
        }
    return 0;
}

static double clip01(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* The overlap of one partner at `warps` warps (0: the trace's first rows)
 * into q, or left out with the reason (quiet: no note, for the list). */
static int put_one(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, const char *partner,
                   double warps, const char *key, gc_qty_t *q, int quiet, gc_err_t *err)
{
    double T[3], P[3], B[3];
    long lt, lp, lb;
    if (!find(t, partner, "tensor", warps, T, &lt) || !find(t, partner, "partner", warps, P, &lp) ||
        !find(t, partner, "both", warps, B, &lb)) {
        if (!quiet && !strcmp(partner, "ldsm_ind") && find(t, "ldsm", "both", warps, B, &lb))
            gc_calib_leave_out(c, file, lb,
                               "%s left out: the trace's ldsm rows chain each load's address "
                               "to the load before, whose latency they time at few warps, not "
                               "the overlap; measure coissue again for its ldsm_ind rows",
                               key);
        else if (!quiet)
            gc_calib_leave_out(c, file, 0, "%s left out: the %s rows (tensor, partner, both) "
                                           "are not all there", key, partner);
        return 0;
    }
    const double *rows[3] = {T, P, B};
    const long lines[3] = {lt, lp, lb};
    for (int i = 0; i < 3; i++)
        if (!(rows[i][1] <= rows[i][0] && rows[i][0] <= rows[i][2]) || !(rows[i][0] > 0))
            return gc_err_at(err, GC_EINPUT, file, lines[i], 0,
                             "cyc_per_iter %g is not positive inside its interval [%g, %g] (a "
                             "corrupt row: re-measure)",
                             rows[i][0], rows[i][1], rows[i][2]);
    double m = T[0] < P[0] ? T[0] : P[0];
    double v = clip01((T[0] + P[0] - B[0]) / m), lo = clip01((T[1] + P[1] - B[2]) / m),
           hi = clip01((T[2] + P[2] - B[1]) / m);
    gc_calib_put(c, q, v, lo, hi,
                 gc_calib_str(c, "%s:%ld,%ld,%ld: (tensor + %s - both) / the shorter, clipped "
                                 "to [0, 1]",
                              file, lt, lp, lb, partner),
                 NULL);
    if (!quiet)
        gc_calib_info(c, "%s: tensor beside %s: %.2f overlapped (alone %.1f and %.1f, together "
                         "%.1f cycles)", file, partner, v, T[0], P[0], B[0]);
    return 0;
}

static const char *const partners[5] = {"ffma", "iadd3", "ex2", "ldsm_ind", "shfl"};

/* sm.coissue: every partner's overlap at each warp count the trace holds,
 * ascending. */
static int put_list(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    double ws[16];
    size_t n = gc_table_distinct(t, gc_table_col(t, "warps"), ws, 16);
    gc_sm_t *s = &c->a->sm;
    gc_coissue_t *e = n ? gc_calib_grow(c, (void **)&s->coissue, &s->n_coissue, sizeof(*e), n)
                        : NULL;
    if (n && !e)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        gc_qty_t *dst[5] = {&e[i].fma, &e[i].alu, &e[i].xu, &e[i].ldsm, &e[i].shfl};
        gc_calib_put(c, &e[i].warps, ws[i], ws[i], ws[i],
                     gc_calib_str(c, "%s: warps column", file), NULL);
        for (int k = 0; k < 5 && !rc; k++)
            rc = put_one(c, t, file, partners[k], ws[i], "sm.coissue", dst[k], 1, err);
    }
    if (!rc)
        gc_calib_info(c, "%s: overlaps at %zu warp count%s", file, n, n == 1 ? "" : "s");
    return rc;
}

int gc_bench_coissue(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    gc_sm_t *s = &c->a->sm;
    gc_qty_t *dst[5] = {&s->overlap_tensor_fma, &s->overlap_tensor_alu, &s->overlap_tensor_xu,
                        &s->overlap_tensor_ldsm, &s->overlap_tensor_shfl};
    static const char *const keys[5] = {"sm.overlap_tensor_fma", "sm.overlap_tensor_alu",
                                        "sm.overlap_tensor_xu", "sm.overlap_tensor_ldsm",
                                        "sm.overlap_tensor_shfl"};
    int rc = 0;
    for (int k = 0; k < 5 && !rc; k++)
        rc = put_one(c, t, file, partners[k], 0, keys[k], dst[k], 0, err);
    return rc ? rc : put_list(c, t, file, err);
}
