/* fit.c - gsl_multifit_nlinear in gpucal's lifecycle (see fit.h). */
#include "fit.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct gc_fit {
    const gc_fit_model_t *m;
    size_t n;
    const double *x, *y, *w;
    const void *ctx;
    gsl_multifit_nlinear_workspace *ws;
    gsl_vector *wts;
    gsl_matrix *covar;
    double *resid;
    int ready;
};

static void handler_off(void)
{
    static int done;
    if (!done) {
        gsl_set_error_handler_off();
        done = 1;
    }
}

gc_fit_t *gc_fit_alloc(const gc_fit_model_t *m, size_t n)
{
    handler_off();
    if (!m || !m->f || !m->df || m->n_params < 1 || m->n_params > GC_FIT_PMAX || m->n_x < 1 ||
        n < 1)
        return NULL;
    gc_fit_t *f = calloc(1, sizeof(*f));
    if (!f)
        return NULL;
    f->m = m;
    f->n = n;
    gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
    par.trs = gsl_multifit_nlinear_trs_lm;
    /* GSL needs n >= p for its QR; fewer points are refused in run */
    if (n >= m->n_params)
        f->ws = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, n, m->n_params);
    f->wts = gsl_vector_alloc(n);
    f->covar = gsl_matrix_alloc(m->n_params, m->n_params);
    f->resid = calloc(n, sizeof(*f->resid));
    if ((n >= m->n_params && !f->ws) || !f->wts || !f->covar || !f->resid) {
        gc_fit_free(f);
        return NULL;
    }
    return f;
}

void gc_fit_free(gc_fit_t *f)
{
    if (!f)
        return;
    if (f->ws)
        gsl_multifit_nlinear_free(f->ws);
    if (f->wts)
        gsl_vector_free(f->wts);
    if (f->covar)
        gsl_matrix_free(f->covar);
    free(f->resid);
    free(f);
}

int gc_fit_init(gc_fit_t *f, const double *x, const double *y, const double *w, const void *ctx,
                gc_err_t *err)
{
    for (size_t i = 0; i < f->n; i++) {
        for (size_t j = 0; j < f->m->n_x; j++)
            if (!isfinite(x[i * f->m->n_x + j]))
                return gc_err_set(err, GC_EINPUT,
                                  "fit %s: point %zu: coordinate %zu is not "
                                  "finite",
                                  f->m->name, i, j);
        if (!isfinite(y[i]))
            return gc_err_set(err, GC_EINPUT, "fit %s: point %zu: value is not finite", f->m->name,
                              i);
        if (w && !(w[i] > 0 && isfinite(w[i])))
            return gc_err_set(err, GC_EINPUT, "fit %s: point %zu: weight %g must be > 0",
                              f->m->name, i, w[i]);
        gsl_vector_set(f->wts, i, w ? w[i] : 1.0);
    }
    f->x = x;
    f->y = y;
    f->w = w;
    f->ctx = ctx;
    f->ready = 1;
    return 0;
}

/* residual vector r_i = f(p, x_i) - y_i (GSL applies sqrt(w_i)) */
static int cb_f(const gsl_vector *p, void *data, gsl_vector *r)
{
    const gc_fit_t *f = data;
    for (size_t i = 0; i < f->n; i++) {
        double v = f->m->f(p->data, f->x + i * f->m->n_x, f->ctx) - f->y[i];
        if (!isfinite(v))
            return GSL_EDOM;
        gsl_vector_set(r, i, v);
    }
    return GSL_SUCCESS;
}

static int cb_df(const gsl_vector *p, void *data, gsl_matrix *J)
{
    const gc_fit_t *f = data;
    double g[GC_FIT_PMAX];
    for (size_t i = 0; i < f->n; i++) {
        f->m->df(p->data, f->x + i * f->m->n_x, f->ctx, g);
        for (size_t j = 0; j < f->m->n_params; j++) {
            if (!isfinite(g[j]))
                return GSL_EDOM;
            gsl_matrix_set(J, i, j, g[j]);
        }
    }
    return GSL_SUCCESS;
}

int gc_fit_run(gc_fit_t *f, const double *p0, gc_fit_result_t *res, gc_err_t *err)
{
    const gc_fit_model_t *m = f->m;
    size_t np = m->n_params;
    memset(res, 0, sizeof(*res));
    res->n = f->n;
    res->n_params = np;
    if (!f->ready)
        return gc_err_set(err, GC_ERUN, "fit %s: gc_fit_run before gc_fit_init", m->name);
    if (f->n < np || !f->ws)
        return gc_err_set(err, GC_ENODATA, "fit %s: %zu points for %zu parameters", m->name, f->n,
                          np);
    for (size_t j = 0; j < np; j++)
        if (!isfinite(p0[j]))
            return gc_err_set(err, GC_EINPUT, "fit %s: start value of %s is not finite", m->name,
                              m->names[j]);
    gsl_multifit_nlinear_fdf fdf;
    memset(&fdf, 0, sizeof(fdf));
    fdf.f = cb_f;
    fdf.df = cb_df;
    fdf.fvv = NULL;
    fdf.n = f->n;
    fdf.p = np;
    fdf.params = f;
    double start[GC_FIT_PMAX];
    memcpy(start, p0, np * sizeof(*start));
    gsl_vector_view x0 = gsl_vector_view_array(start, np);
    int st = gsl_multifit_nlinear_winit(&x0.vector, f->wts, &fdf, f->ws);
    if (st != GSL_SUCCESS)
        return gc_err_set(err, GC_ENODATA,
                          "fit %s: the model cannot be evaluated at the start "
                          "point (%s)",
                          m->name, gsl_strerror(st));
    int info = 0;
    st = gsl_multifit_nlinear_driver(500, 1e-12, 1e-12, 0.0, NULL, NULL, &info, f->ws);
    if (st == GSL_ENOPROG) {
        info = 3; /* the trust region cannot shrink further: at a minimum of a kinked model */
        st = GSL_SUCCESS;
    }
    res->iters = (int)gsl_multifit_nlinear_niter(f->ws);
    res->info = info;
    if (st == GSL_EMAXITER)
        return gc_err_set(err, GC_ENODATA, "fit %s did not converge in %d iterations", m->name,
                          res->iters);
    if (st != GSL_SUCCESS)
        return gc_err_set(err, GC_ENODATA, "fit %s failed: %s", m->name, gsl_strerror(st));
    const gsl_vector *p = gsl_multifit_nlinear_position(f->ws);
    for (size_t j = 0; j < np; j++) {
        res->p[j] = gsl_vector_get(p, j);
        if (!isfinite(res->p[j]))
            return gc_err_set(err, GC_ENODATA, "fit %s: %s is not finite", m->name, m->names[j]);
    }
    /* residuals, unweighted, and chi2 */
    double ss = 0;
    for (size_t i = 0; i < f->n; i++) {
        double r = f->y[i] - m->f(res->p, f->x + i * m->n_x, f->ctx);
        f->resid[i] = r;
        ss += r * r;
        res->chi2 += (f->w ? f->w[i] : 1.0) * r * r;
        if (fabs(r) > res->max_abs)
            res->max_abs = fabs(r);
    }
    res->rms = sqrt(ss / (double)f->n);
    res->dof = f->n - np;
    /* covariance: (J^T W J)^-1 at the solution, scaled by chi2 / dof */
    const gsl_matrix *J = gsl_multifit_nlinear_jac(f->ws);
    st = gsl_multifit_nlinear_covar(J, 1e-12, f->covar);
    res->has_ci = st == GSL_SUCCESS && res->dof > 0;
    double t = res->dof > 0 ? gsl_cdf_tdist_Pinv(0.975, (double)res->dof) : 0;
    double s2 = res->dof > 0 ? res->chi2 / (double)res->dof : 0;
    for (size_t j = 0; j < np; j++) {
        double c = st == GSL_SUCCESS ? gsl_matrix_get(f->covar, j, j) : 0;
        if (!(c > 0) || !isfinite(c))
            res->has_ci = 0; /* a parameter the data do not determine */
        res->se[j] = c > 0 ? sqrt(c * s2) : 0;
        res->lo[j] = res->p[j] - t * res->se[j];
        res->hi[j] = res->p[j] + t * res->se[j];
    }
    return 0;
}

const double *gc_fit_residuals(const gc_fit_t *f)
{
    return f->resid;
}

/* ---- the straight line ---- */

static double line_f(const double *p, const double *x, const void *ctx)
{
    (void)ctx;
    return p[0] + p[1] * x[0];
}

static void line_df(const double *p, const double *x, const void *ctx, double *g)
{
    (void)p;
    (void)ctx;
    g[0] = 1;
    g[1] = x[0];
}

static const char *const line_names[] = {"a", "b"};
const gc_fit_model_t gc_fit_line = {"line", 2, line_names, 1, line_f, line_df};

int gc_fit_line_xy(const double *x, const double *y, size_t n, gc_fit_result_t *res,
                   gc_err_t *err)
{
    gc_fit_t *f = gc_fit_alloc(&gc_fit_line, n ? n : 1);
    if (!f)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    double p0[2] = {n ? y[0] : 0, 0};
    int rc = gc_fit_init(f, x, y, NULL, NULL, err);
    if (!rc)
        rc = gc_fit_run(f, p0, res, err);
    gc_fit_free(f);
    return rc;
}
