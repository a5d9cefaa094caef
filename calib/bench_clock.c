/* bench_clock.c - calib's handler of the clock trace: the SM clock each
 * load sustains (sm.clock_tensor_mhz, clock_mma_mhz, clock_fma_mhz,
 * clock_memory_mhz; the highest for sm.clock_max_mhz when no header gives
 * it), and, from the partial tensor loads of newer traces, the clock
 * against tensor-pipe activity (sm.tensor_clock): per instruction kind, the
 * idle load's clock at activity 0, each partial load's at its activity
 * (its tensor rate per SM clock over the full load's) and the full load's
 * at 1. A trace without partial loads leaves sm.tensor_clock out. See
 * bench.h; the method is in calib/README.md. */
#include <string.h>

#include "bench.h"
#include "power.h"

/* The loads: the five full ones, then the partial tensor loads of newer
 * traces, each with the full load it is a part of (clk_base; -1: none). */
enum {
    CLK_NL = 14,
    CLK_FULL = 5,
    CLK_IDLE = 0,
    CLK_MEM = 1,
    CLK_TENSOR = 2,
    CLK_MMA = 3,
    CLK_FMA = 4,
    CLK_L2 = 11,
    CLK_VARY = 12,
    CLK_TMA = 13
};
static const char *const clk_loads[CLK_NL] = {
    "idle",       "memory",     "tensor",         "tensor_mma",     "fma",            "tensor_d25",
    "tensor_d50", "tensor_d75", "tensor_mma_d25", "tensor_mma_d50", "tensor_mma_d75", "l2",
    "tensor_vary", "tensor_tma"};
static const int clk_base[CLK_NL] = {-1, -1, -1, -1, -1, 2, 2, 2, 3, 3, 3, -1, -1, -1};

/* What the clock trace says of one load: its row (line 0: none) with the
 * clock, interval, part (-1: a trace without the column; 0 settled, 1
 * unsettled), seconds run, tensor rate (FMA/clk/SM; -1: a trace without
 * the column), board power (W; 0: not read) and bytes moved (GB/s; 0: a
 * trace without the column), and its samples (count, first line, the last
 * one's t_s). */
typedef struct clk_load {
    double v, lo, hi, t_s, rate, watts, gbs;
    long line;
    int part;
    long samples, sample_line;
    double last_t;
} clk_load_t;

/* The columns of the clock trace calib reads. */
typedef struct clk_cols {
    int load, clk, lo, hi, part, t, rate, watts, gbs;
} clk_cols_t;

/* One sample row r of load L: well formed (lo <= clock <= hi) and after the
 * load's previous sample in time. */
static int clk_sample(const gc_table_t *t, const char *file, size_t r, const clk_cols_t *k,
                      const char *name, clk_load_t *L, gc_err_t *err)
{
    int rc = gc_table_check_ci(t, file, r, k->clk, k->lo, k->hi, err);
    if (rc)
        return rc;
    if (!gc_table_has(t, k->t))
        return gc_err_at(err, GC_EINPUT, file, t->line[r], 1,
                         "a sample row needs the t_s column (measure the clock bench again)");
    double ts = gc_table_num(t, k->t, r);
    if (L->samples && ts <= L->last_t)
        return gc_err_at(err, GC_EINPUT, file, t->line[r], 1,
                         "sample of load '%s' at t_s %g is not after the one before it (t_s "
                         "%g): a load's samples are in time order (measure it again)",
                         name, ts, L->last_t);
    if (!L->samples)
        L->sample_line = t->line[r];
    L->samples++;
    L->last_t = ts;
    return 0;
}

/* The row of load L (its clock, settled or not): one per load. */
static int clk_row(const gc_table_t *t, const char *file, size_t r, const clk_cols_t *k,
                   const char *name, int part, clk_load_t *L, gc_err_t *err)
{
    if (L->line) /* gpucal measure writes one row per load: a second is an edit or a mix */
        return gc_err_at(err, GC_EINPUT, file, t->line[r], 1,
                         "load '%s' given twice (first on line %ld): the clock trace "
                         "holds one row per load (keep one)",
                         name, L->line);
    int rc = gc_table_check_ci(t, file, r, k->clk, k->lo, k->hi, err);
    if (rc)
        return rc;
    L->v = gc_table_num(t, k->clk, r);
    L->lo = gc_table_num(t, k->lo, r);
    L->hi = gc_table_num(t, k->hi, r);
    L->t_s = gc_table_has(t, k->t) ? gc_table_num(t, k->t, r) : 0;
    L->rate = gc_table_has(t, k->rate) ? gc_table_num(t, k->rate, r) : -1;
    L->watts = gc_table_has(t, k->watts) ? gc_table_num(t, k->watts, r) : 0;
    L->gbs = gc_table_has(t, k->gbs) ? gc_table_num(t, k->gbs, r) : 0;
    L->part = part;
    L->line = t->line[r];
    return 0;
}

/* Reads every row into L[] by load; a load with samples but no row of its
 * own is refused. */
static int clk_read(const gc_table_t *t, const char *file, clk_load_t L[CLK_NL], gc_err_t *err)
{
    clk_cols_t k = {gc_table_col(t, "load"),     gc_table_col(t, "clock_mhz"),
                    gc_table_col(t, "clock_lo"), gc_table_col(t, "clock_hi"),
                    gc_table_col(t, "part"),     gc_table_col(t, "t_s"),
                    gc_table_col(t, "tensor_fma_clk_sm"), gc_table_col(t, "power_w"),
                    gc_table_col(t, "gbs")};
    int has_part = gc_table_has(t, k.part), rc;
    for (size_t r = 0; r < t->nrows; r++) {
        int li = 0;
        while (li < CLK_NL && strcmp(gc_table_txt(t, k.load, r), clk_loads[li]))
            li++;
        if (li == CLK_NL)
            continue; /* the contract admits only these names */
        const char *part = has_part ? gc_table_txt(t, k.part, r) : NULL;
        if (part && !strcmp(part, "sample"))
            rc = clk_sample(t, file, r, &k, clk_loads[li], &L[li], err);
        else
            rc = clk_row(t, file, r, &k, clk_loads[li], part ? strcmp(part, "settled") != 0 : -1,
                         &L[li], err);
        if (rc)
            return rc;
    }
    for (int li = 0; li < CLK_NL; li++)
        if (L[li].samples && !L[li].line)
            return gc_err_at(err, GC_EINPUT, file, L[li].sample_line, 1,
                             "load '%s' has clock samples but no row of its own (part settled "
                             "or unsettled): the trace was cut or edited (measure it again)",
                             clk_loads[li]);
    return 0;
}

/* The source of load L's clock: the old form for a trace without `part`. */
static const char *clk_source(gc_calib_ctx_t *c, const char *file, const clk_load_t *L,
                              const char *name)
{
    if (L->part < 0)
        return gc_calib_str(c, "%s:%ld: SM clock sustained under the %s load", file, L->line,
                            name);
    if (L->part == 0)
        return gc_calib_str(c, "%s:%ld: SM clock sustained under the %s load: median of its "
                               "last second, settled after %.2f s (%ld samples)",
                            file, L->line, name, L->t_s, L->samples);
    return gc_calib_str(c, "%s:%ld: SM clock under the %s load: median of its last second, "
                           "still moving when the run ended after %.2f s (%ld samples)",
                        file, L->line, name, L->t_s, L->samples);
}

/* A partial load li and its full load: both there, both with a tensor
 * rate, the full one's positive, and li's activity (the ratio) inside
 * [0, 1] into *act. Else GC_EINPUT at the row at fault. */
static int clk_activity(const char *file, const clk_load_t L[CLK_NL], int li, double *act,
                        gc_err_t *err)
{
    int b = clk_base[li];
    if (!L[b].line)
        return gc_err_at(err, GC_EINPUT, file, L[li].line, 1,
                         "partial load '%s' without its full load '%s': its activity is its "
                         "tensor rate over the full load's (measure the clock bench again)",
                         clk_loads[li], clk_loads[b]);
    if (L[li].rate < 0 || L[b].rate < 0)
        return gc_err_at(err, GC_EINPUT, file, L[li].line, 1,
                         "partial load '%s' needs the tensor_fma_clk_sm column, its rate and "
                         "the full load's (measure the clock bench again)",
                         clk_loads[li]);
    if (!(L[b].rate > 0))
        return gc_err_at(err, GC_EINPUT, file, L[b].line, 1,
                         "the %s load's tensor_fma_clk_sm is 0: no tensor rate to measure the "
                         "partial loads' activity against (measure the clock bench again)",
                         clk_loads[b]);
    *act = L[li].rate / L[b].rate;
    if (!(*act >= 0 && *act <= 1))
        return gc_err_at(err, GC_EINPUT, file, L[li].line, 1,
                         "partial load '%s': activity %g (tensor_fma_clk_sm %g over the %s "
                         "load's %g) is outside [0, 1] (a partial load cannot outrun its full "
                         "load: measure the clock bench again)",
                         clk_loads[li], *act, L[li].rate, clk_loads[b], L[b].rate);
    return 0;
}

/* One point of sm.tensor_clock into e: kind inst, activity act (its
 * source asrc), the clock of load L. */
static void clk_point(gc_calib_ctx_t *c, const char *file, gc_tclock_t *e, const char *inst,
                      double act, const char *asrc, const clk_load_t *L, const char *name)
{
    e->inst = gc_arch_str(c->a, inst);
    gc_calib_put(c, &e->activity, act, 1, 0, asrc, NULL);
    gc_calib_put(c, &e->clock_mhz, L->v, L->lo, L->hi, clk_source(c, file, L, name), NULL);
}

/* The points of kind base (CLK_TENSOR: wgmma, CLK_MMA: mma) into e (room
 * for 2 + its partial loads), by activity: the idle load's clock at 0 (the
 * partial loads sleep between bursts; else the fma load's), each partial
 * load's at its activity, the full load's at 1. Returns how many. */
static size_t clk_kind(gc_calib_ctx_t *c, const char *file, const clk_load_t L[CLK_NL], int base,
                       const double act[CLK_NL], gc_tclock_t *e)
{
    const char *inst = base == CLK_TENSOR ? "wgmma" : "mma";
    size_t n = 0;
    int zero = L[CLK_IDLE].line ? CLK_IDLE : L[CLK_FMA].line ? CLK_FMA : -1;
    if (zero >= 0)
        clk_point(c, file, &e[n++], inst, 0,
                  gc_calib_str(c, "%s:%ld: the %s load: no tensor work", file, L[zero].line,
                               clk_loads[zero]),
                  &L[zero], clk_loads[zero]);
    int done[CLK_NL] = {0};
    for (;;) { /* the partial loads by activity */
        int li = -1;
        for (int k = CLK_FULL; k < CLK_NL; k++)
            if (clk_base[k] == base && L[k].line && !done[k] && (li < 0 || act[k] < act[li]))
                li = k;
        if (li < 0)
            break;
        done[li] = 1;
        clk_point(c, file, &e[n++], inst, act[li],
                  gc_calib_str(c, "%s:%ld,%ld: tensor_fma_clk_sm of the %s load (%g) over the "
                                  "%s load's (%g)",
                               file, L[li].line, L[base].line, clk_loads[li], L[li].rate,
                               clk_loads[base], L[base].rate),
                  &L[li], clk_loads[li]);
    }
    clk_point(c, file, &e[n++], inst, 1,
              gc_calib_str(c, "%s:%ld: the full %s load (activity 1 by definition)", file,
                           L[base].line, clk_loads[base]),
              &L[base], clk_loads[base]);
    return n;
}

/* sm.tensor_clock from the partial loads the trace holds (none: left out,
 * as in traces that predate them). */
static int clk_points(gc_calib_ctx_t *c, const char *file, const clk_load_t L[CLK_NL],
                      gc_err_t *err)
{
    double act[CLK_NL] = {0};
    int parts[CLK_NL] = {0}; /* partial loads per full load */
    for (int li = CLK_FULL; li < CLK_NL; li++) {
        if (!L[li].line || clk_base[li] < 0)
            continue;
        int rc = clk_activity(file, L, li, &act[li], err);
        if (rc)
            return rc;
        parts[clk_base[li]]++;
    }
    int kinds[2] = {CLK_TENSOR, CLK_MMA};
    size_t want = 0;
    for (int i = 0; i < 2; i++)
        want += parts[kinds[i]] ? (size_t)parts[kinds[i]] + 2 : 0;
    if (!want)
        return 0;
    gc_sm_t *sm = &c->a->sm;
    gc_tclock_t *e = gc_calib_grow(c, (void **)&sm->tensor_clock, &sm->n_tensor_clock,
                                   sizeof(*e), want);
    if (!e)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    size_t n = 0;
    for (int i = 0; i < 2; i++)
        if (parts[kinds[i]])
            n += clk_kind(c, file, L, kinds[i], act, e + n);
    sm->n_tensor_clock -= want - n; /* no idle or fma load: one point fewer per kind */
    gc_calib_info(c, "%s: sm.tensor_clock: %zu points against tensor-pipe activity", file, n);
    return 0;
}

/* The power fit's view of load li (line 0 where the trace lacks it): a
 * tensor load's rate in SM cycles per second its tensor pipes are busy (its
 * activity, tensor_fma_clk_sm over its full load's, x sms x its clock), a
 * memory or l2 load's in bytes per second; the tensor_tma load's both (its
 * bulk copies' bytes into bytes). */
static gc_power_load_t clk_power_load(const clk_load_t L[CLK_NL], int li, double sms)
{
    const clk_load_t *l = &L[li];
    int base = li == CLK_TENSOR || li == CLK_MMA ? li
               : li == CLK_VARY || li == CLK_TMA ? CLK_TENSOR
                                                 : clk_base[li];
    double act = base >= 0 && L[base].rate > 0 && l->rate > 0 ? l->rate / L[base].rate : 0;
    double rate = base >= 0 ? act * sms * l->v * 1e6 : l->gbs * 1e9;
    return (gc_power_load_t){l->line, l->v, l->watts, rate, base == CLK_MMA,
                             li == CLK_TMA ? l->gbs * 1e9 : 0};
}

/* The power keys from the loads' readings, the trailer's power_limit_w
 * and the header's sms (see power.h). */
static int clk_power(gc_calib_ctx_t *c, const gc_table_t *t, const char *file,
                     const clk_load_t L[CLK_NL], gc_err_t *err)
{
    gc_power_load_t tl[CLK_NL];
    gc_power_in_t in = {.tensor = tl};
    double sms = 0;
    int rc = gc_trace_meta_num(t->r, "sms", &sms, err);
    if (rc)
        return rc;
    if (gc_trace_meta(t->r, "power_limit_w")) {
        if ((rc = gc_trace_meta_num(t->r, "power_limit_w", &in.limit_w, err)) != 0)
            return rc;
        in.limit_line = gc_table_meta_line(t, "power_limit_w");
        if (!(in.limit_w > 0))
            return gc_err_at(err, GC_EINPUT, file, in.limit_line, 1,
                             "power_limit_w %g is not a power (a board's limit is positive: "
                             "measure the clock bench again)",
                             in.limit_w);
    }
    in.idle = clk_power_load(L, CLK_IDLE, sms);
    in.mem = clk_power_load(L, CLK_MEM, sms);
    in.l2 = clk_power_load(L, CLK_L2, sms);
    if (L[CLK_TENSOR].line) {
        in.vary = clk_power_load(L, CLK_VARY, sms);
        in.tma = clk_power_load(L, CLK_TMA, sms);
    }
    for (int li = 0; li < CLK_NL; li++) {
        int tensor = li == CLK_TENSOR || li == CLK_MMA || clk_base[li] >= 0;
        if (tensor && L[li].line && L[li].rate > 0)
            tl[in.n++] = clk_power_load(L, li, sms);
    }
    return gc_calib_power(c, file, &in, err);
}

int gc_bench_clock(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    static const char *const keys[CLK_FULL] = {NULL, "memory", "tensor", "mma", "fma"};
    clk_load_t L[CLK_NL];
    memset(L, 0, sizeof(L));
    int rc = clk_read(t, file, L, err);
    if (rc)
        return rc;
    gc_sm_t *sm = &c->a->sm;
    gc_qty_t *dst[CLK_FULL] = {NULL, &sm->clock_memory_mhz, &sm->clock_tensor_mhz,
                               &sm->clock_mma_mhz, &sm->clock_fma_mhz};
    int best = -1, n = 0;
    for (int k = 0; k < CLK_NL; k++) {
        if (!L[k].line)
            continue;
        n++;
        if (k < CLK_FULL && dst[k])
            gc_calib_put(c, dst[k], L[k].v, L[k].lo, L[k].hi,
                         clk_source(c, file, &L[k], clk_loads[k]), NULL);
        if (L[k].part == 1)
            gc_calib_info(c, "%s:%ld: the %s load's clock was still moving after %.2f s", file,
                          L[k].line, clk_loads[k], L[k].t_s);
        if (k < CLK_FULL && (best < 0 || L[k].v > L[best].v))
            best = k;
    }
    if (best >= 0) {
        c->clk = L[best].v;
        c->clk_lo = L[best].lo;
        c->clk_hi = L[best].hi;
        c->clk_src = gc_calib_str(c, "%s:%ld: the highest sustained SM clock measured (%s load)",
                                  file, L[best].line, clk_loads[best]);
    }
    for (int k = 1; k < CLK_FULL; k++)
        if (!L[k].line)
            gc_calib_leave_out(c, file, 0, "sm.clock_%s_mhz left out: no '%s' load rows", keys[k],
                               clk_loads[k]);
    if ((rc = clk_points(c, file, L, err)) != 0 || (rc = clk_power(c, t, file, L, err)) != 0)
        return rc;
    gc_calib_info(c, "%s: clocks of %d load%s", file, n, n == 1 ? "" : "s");
    return 0;
}
