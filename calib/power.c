/* power.c - the board's power model from the clock trace (power.h).
 *
 * Every load of the clock bench runs until its clock settles and records
 * the board's power over its last second. Above the idle load's draw, a
 * tensor load draws E(f) x the SM cycles per second its tensor pipes are
 * busy (its activity x SMs x clock; the full load is busy every cycle),
 * where the energy of a busy cycle E follows the square of the voltage the
 * clock f needs: E(f) = E_k (f / f_max)^g for kind k (wgmma, mma.sync).
 * Per busy cycle rather than per multiply-add: a pipe cycle of f8 or tf32
 * work moves as many operand bits as one of f16 (twice or half the
 * multiply-adds), and the clock bench measures f16 alone. ln E is linear in
 * ln(f / f_max) with one intercept per kind and one slope g: a linear least
 * squares over the full and partial tensor loads, which ran at clocks
 * between the full load's and the idle one's. The l2 load's draw over its
 * bytes per second is the energy of a byte the SMs read from the L2; the
 * memory load (a DRAM copy) moves every byte through the L2 as well, so a
 * DRAM byte costs its draw per byte less the L2's. The tensor loads feed
 * the same tiles to every instruction; where the trace has the tensor_vary
 * load (operands changing every instruction, as in a matrix product), the
 * wgmma level is its energy per busy cycle, the slope the fit's: E_wgmma
 * scaled by E_vary(f_vary) / E_fit(f_vary). */
#include "power.h"

#include <math.h>

#include <gsl/gsl_multifit.h>

/* The draw of load L above the idle draw, per unit of its rate (J per
 * busy tensor SM cycle or per byte), into *e. Refused at L's line when it drew no
 * more than idle or has no rate. */
static int per_unit(const char *file, const char *name, const gc_power_load_t *L, double idle_w,
                    double *e, gc_err_t *err)
{
    if (!(L->rate > 0) || !(L->watts > idle_w))
        return gc_err_at(err, GC_EINPUT, file, L->line, 1,
                         "the %s load drew %g W at a rate of %g a second, with %g W idle: a "
                         "load draws more than idle and does work (measure the clock bench "
                         "again)",
                         name, L->watts, L->rate, idle_w);
    *e = (L->watts - idle_w) / L->rate;
    return 0;
}

/* ln E = a_kind + g ln(f / fmax) over the tensor loads: the two energies at
 * fmax (pJ, into e[0] wgmma, e[1] mma; 0 where a kind has no load) and g
 * with its standard error. Needs loads at two clocks at least. */
static int fit_tensor(const char *file, const gc_power_in_t *in, double fmax, double e[2],
                      double *g, double *g_se, gc_err_t *err)
{
    int n = in->n, have[2] = {0, 0};
    for (int i = 0; i < n; i++)
        have[in->tensor[i].kind]++;
    int np = (have[0] > 0) + (have[1] > 0) + 1;
    if (n < np + 1)
        return GC_EINPUT; /* too few to fit: the caller leaves the keys out */
    gsl_matrix *X = gsl_matrix_alloc((size_t)n, (size_t)np), *cov = gsl_matrix_alloc((size_t)np, (size_t)np);
    gsl_vector *y = gsl_vector_alloc((size_t)n), *p = gsl_vector_alloc((size_t)np);
    gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc((size_t)n, (size_t)np);
    int rc = !X || !cov || !y || !p || !ws ? GC_ENOMEM : 0;
    int col[2] = {have[0] ? 0 : -1, have[1] ? (have[0] ? 1 : 0) : -1};
    for (int i = 0; i < n && !rc; i++) {
        const gc_power_load_t *L = &in->tensor[i];
        double ej = 0;
        if ((rc = per_unit(file, L->kind ? "mma.sync tensor" : "wgmma tensor", L, in->idle.watts,
                           &ej, err)) != 0)
            break;
        for (int j = 0; j < np; j++)
            gsl_matrix_set(X, (size_t)i, (size_t)j, 0);
        gsl_matrix_set(X, (size_t)i, (size_t)col[L->kind], 1);
        gsl_matrix_set(X, (size_t)i, (size_t)np - 1, log(L->mhz / fmax));
        gsl_vector_set(y, (size_t)i, log(ej * 1e12));
    }
    double chi2 = 0;
    if (!rc && gsl_multifit_linear(X, y, p, cov, &chi2, ws) != 0)
        rc = gc_err_set(err, GC_EINPUT, "%s: the power fit over the tensor loads failed", file);
    if (!rc) {
        for (int k = 0; k < 2; k++)
            e[k] = col[k] >= 0 ? exp(gsl_vector_get(p, (size_t)col[k])) : 0;
        *g = gsl_vector_get(p, (size_t)np - 1);
        double dof = n - np;
        *g_se = dof > 0 ? sqrt(gsl_matrix_get(cov, (size_t)np - 1, (size_t)np - 1) * chi2 / dof) : 0;
    }
    gsl_multifit_linear_free(ws);
    gsl_vector_free(p);
    gsl_vector_free(y);
    gsl_matrix_free(cov);
    gsl_matrix_free(X);
    return rc;
}

/* Why the power keys cannot be had from in, or NULL. */
static const char *missing(const gc_power_in_t *in)
{
    if (!in->idle.line || !(in->idle.watts > 0))
        return "no idle load with a power reading";
    if (!in->limit_line)
        return "no power_limit_w in the trailer (a clock trace from before it)";
    if (!in->l2.line)
        return "no l2 load (a clock trace from before it)";
    if (!in->mem.line || !(in->mem.watts > 0) || !(in->l2.watts > 0))
        return "the memory or l2 load has no power reading";
    for (int i = 0; i < in->n; i++)
        if (!(in->tensor[i].watts > 0))
            return "a tensor load has no power reading";
    return NULL;
}

/* What the fit gives: the reference clock (MHz), the energies per busy
 * tensor SM cycle at it (pJ; wgmma, mma.sync), the clock exponent and its
 * standard error, the energies per byte of the l2 and the memory loads
 * (J), and the tensor_vary load's energy over the fit's (1: none). */
typedef struct fitted {
    double fmax, e[2], g, g_se, e_l2, e_mem, vary;
} fitted_t;

/* Fits everything in into *f: 0, 1 when the tensor loads are too few (a
 * warning said so: no keys), or an error. */
static int fit_all(gc_calib_ctx_t *c, const char *file, const gc_power_in_t *in, fitted_t *f,
                   gc_err_t *err)
{
    *f = (fitted_t){c->a->sm.clock_max_mhz.set ? c->a->sm.clock_max_mhz.v : c->clk,
                    {0, 0}, 0, 0, 0, 0, 1};
    int rc = fit_tensor(file, in, f->fmax, f->e, &f->g, &f->g_se, err);
    if (rc == GC_EINPUT && !err->code) {
        gc_calib_leave_out(c, file, 0, "sm.power_* left out: %d tensor loads, too few to fit "
                                       "their energy against the clock", in->n);
        return 1;
    }
    if (rc || (rc = per_unit(file, "l2", &in->l2, in->idle.watts, &f->e_l2, err)) != 0 ||
        (rc = per_unit(file, "memory", &in->mem, in->idle.watts, &f->e_mem, err)) != 0)
        return rc;
    if (!(f->e_mem > f->e_l2))
        return gc_err_at(err, GC_EINPUT, file, in->mem.line, 1,
                         "a DRAM copy byte drew %.3g pJ, no more than an L2 read byte (%.3g "
                         "pJ): DRAM traffic passes through the L2 (measure the clock bench "
                         "again)",
                         f->e_mem * 1e12, f->e_l2 * 1e12);
    if (in->vary.line && f->e[0] > 0) {
        double ev = 0;
        if ((rc = per_unit(file, "tensor_vary", &in->vary, in->idle.watts, &ev, err)) != 0)
            return rc;
        f->vary = ev * 1e12 / (f->e[0] * pow(in->vary.mhz / f->fmax, f->g));
    }
    return 0;
}

/* The sm keys of f: limit, idle draw, exponent, the two energies. */
static void put_sm(gc_calib_ctx_t *c, const char *file, const gc_power_in_t *in,
                   const fitted_t *f)
{
    gc_sm_t *sm = &c->a->sm;
    gc_calib_put(c, &sm->power_limit_w, in->limit_w, 1, 0,
                 gc_calib_str(c, "%s:%ld: the board's enforced power limit (NVML)", file,
                              in->limit_line), NULL);
    gc_calib_put(c, &sm->power_idle_w, in->idle.watts, 1, 0,
                 gc_calib_str(c, "%s:%ld: board power under the idle load (its last second)",
                              file, in->idle.line), NULL);
    gc_calib_put(c, &sm->power_exponent, f->g, f->g - 1.96 * f->g_se, f->g + 1.96 * f->g_se,
                 gc_calib_str(c, "%s: slope of ln(energy per busy tensor SM cycle) against ln(clock / "
                                 "%g MHz) over the %d full and partial tensor loads (one "
                                 "intercept per kind), +-1.96 standard errors",
                              file, f->fmax, in->n), NULL);
    const char *kinds[2] = {"wgmma", "mma.sync"};
    gc_qty_t *dst[2] = {&sm->energy_wgmma_pj, &sm->energy_mma_pj};
    for (int k = 0; k < 2; k++)
        if (f->e[k] > 0 && (k || f->vary == 1))
            gc_calib_put(c, dst[k], f->e[k], 1, 0,
                         gc_calib_str(c, "%s: the power fit's %s intercept: (board power - "
                                         "idle) / busy tensor SM cycles per second, at %g MHz",
                                      file, kinds[k], f->fmax), NULL);
    if (f->e[0] > 0 && f->vary != 1)
        gc_calib_put(c, dst[0], f->e[0] * f->vary, 1, 0,
                     gc_calib_str(c, "%s:%ld: the tensor_vary load's (board power - idle) / busy "
                                     "tensor SM cycles per second (%.1f W at %.1f MHz), brought "
                                     "to %g MHz by the fit's slope: %.3f x the fixed-operand "
                                     "loads' intercept",
                                  file, in->vary.line, in->vary.watts, in->vary.mhz, f->fmax,
                                  f->vary), NULL);
}

/* The memory keys of f: energy per L2 byte and per DRAM byte beyond it. */
static void put_memory(gc_calib_ctx_t *c, const char *file, const gc_power_in_t *in,
                       const fitted_t *f)
{
    gc_calib_put(c, &c->a->memory.l2.energy_pj_byte, f->e_l2 * 1e12, 1, 0,
                 gc_calib_str(c, "%s:%ld: (board power - idle) / bytes per second of the l2 "
                                 "load (%.1f W at %.1f GB/s)",
                              file, in->l2.line, in->l2.watts, in->l2.rate / 1e9), NULL);
    gc_calib_put(c, &c->a->memory.dram.energy_pj_byte, (f->e_mem - f->e_l2) * 1e12, 1, 0,
                 gc_calib_str(c, "%s:%ld: (board power - idle) / bytes per second of the memory "
                                 "load (a DRAM copy, %.1f W at %.1f GB/s), less the L2's "
                                 "%.2f pJ",
                              file, in->mem.line, in->mem.watts, in->mem.rate / 1e9,
                              f->e_l2 * 1e12), NULL);
}

/* The tensor_tma load against the model: its draw less idle, its wgmma at
 * the fitted energy at its clock and the L2 energy of its copies' bytes,
 * said on a progress line (what streaming operands into shared memory adds
 * per byte beyond an L2 read; no key: one load's residual is within what
 * the draws move run to run). */
static void tma_check(gc_calib_ctx_t *c, const char *file, const gc_power_in_t *in,
                      const fitted_t *f)
{
    const gc_power_load_t *t = &in->tma;
    if (!t->line || !(t->watts > 0) || !(t->rate > 0) || !(t->bytes > 0) || !(f->e[0] > 0))
        return;
    double tensor_w = f->e[0] * f->vary * pow(t->mhz / f->fmax, f->g) * t->rate * 1e-12;
    double rest = t->watts - in->idle.watts - tensor_w - f->e_l2 * t->bytes;
    gc_calib_info(c, "%s:%ld: the tensor_tma load drew %.0f W at %.0f MHz: %.0f W idle, %.0f W "
                     "its wgmma, %.0f W the L2 reads of its copies (%.0f GB/s), %+.0f W beyond "
                     "(%+.1f pJ a byte copied)",
                  file, t->line, t->watts, t->mhz, in->idle.watts, tensor_w,
                  f->e_l2 * t->bytes, t->bytes / 1e9, rest, rest / t->bytes * 1e12);
}

int gc_calib_power(gc_calib_ctx_t *c, const char *file, const gc_power_in_t *in, gc_err_t *err)
{
    const char *why = missing(in);
    if (why) { /* a trace from before the power readings: nothing to leave out */
        gc_calib_info(c, "%s: no power model (%s)", file, why);
        return 0;
    }
    if (!(in->limit_w > in->idle.watts))
        return gc_err_at(err, GC_EINPUT, file, in->limit_line, 1,
                         "power_limit_w %g W is not above the idle load's draw (%g W): a board "
                         "limited below its idle draw could not run (measure the clock bench "
                         "again)",
                         in->limit_w, in->idle.watts);
    fitted_t f;
    int rc = fit_all(c, file, in, &f, err);
    if (rc)
        return rc == 1 ? 0 : rc;
    put_sm(c, file, in, &f);
    put_memory(c, file, in, &f);
    tma_check(c, file, in, &f);
    if (f.vary != 1)
        gc_calib_info(c, "%s: operands changing every wgmma draw %.3f x what fixed ones do", file,
                      f.vary);
    gc_calib_info(c, "%s: power: limit %g W, idle %g W, tensor energy ~ clock^%.2f, wgmma %.3g "
                     "pJ, mma %.3g pJ per busy tensor SM cycle at %g MHz; L2 %.3g, DRAM %.3g pJ per byte",
                  file, in->limit_w, in->idle.watts, f.g, f.e[0] * f.vary, f.e[1], f.fmax,
                  f.e_l2 * 1e12, (f.e_mem - f.e_l2) * 1e12);
    return 0;
}
