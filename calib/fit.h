/* fit.h - weighted nonlinear least squares: a wrapper of GSL's
 * gsl_multifit_nlinear (trust region, Levenberg-Marquardt) with its own
 * lifecycle, alloc -> init -> run -> free, and models as const vtables.
 *
 * A model is {name, n_params, names, n_x, f, df}: f gives the model value
 * at one point x (n_x coordinates) for parameters p, df its gradient with
 * respect to p. The fit minimises sum_i w_i (f(p, x_i) - y_i)^2 and
 * reports the parameters, their standard errors and 95 % intervals from
 * the covariance (J^T W J)^-1 scaled by chi2 / dof (Student t quantile),
 * and the residuals.
 *
 * GSL's default error handler aborts the process; the first gc_fit_alloc
 * turns it off (gsl_set_error_handler_off) and every GSL status becomes a
 * gc_code here.
 */
#ifndef GC_FIT_H
#define GC_FIT_H

#include <stddef.h>

#include "../util/err.h"

#define GC_FIT_PMAX 8 /* parameters per model, at most */

typedef struct gc_fit_model {
    const char *name;         /* e.g. "line" */
    size_t n_params;          /* 1..GC_FIT_PMAX */
    const char *const *names; /* n_params parameter names */
    size_t n_x;               /* coordinates of one point */
    /* model value at point x (n_x doubles) for parameters p */
    double (*f)(const double *p, const double *x, const void *ctx);
    /* gradient d f / d p_j into g[0..n_params) */
    void (*df)(const double *p, const double *x, const void *ctx, double *g);
} gc_fit_model_t;

typedef struct gc_fit_result {
    size_t n; /* points */
    size_t n_params;
    size_t dof;             /* n - n_params */
    double p[GC_FIT_PMAX];  /* fitted parameters */
    double se[GC_FIT_PMAX]; /* standard errors: sqrt(C_jj * chi2 / dof) */
    double lo[GC_FIT_PMAX]; /* 95 % interval: p -+ t(0.975, dof) * se */
    double hi[GC_FIT_PMAX];
    int has_ci;     /* dof > 0 and the covariance has full rank */
    double chi2;    /* sum_i w_i r_i^2 */
    double rms;     /* sqrt(mean r_i^2), unweighted, data units */
    double max_abs; /* max |r_i|, data units */
    int iters;      /* iterations of the solver */
    int info;       /* GSL's reason to stop: 1 small step, 2 small gradient,
                       3 no further progress */
} gc_fit_result_t;

typedef struct gc_fit gc_fit_t;

/* A fit of model m to n points (n >= 1). NULL when out of memory or when
 * the model is not valid (n_params outside 1..GC_FIT_PMAX, f or df NULL). */
gc_fit_t *gc_fit_alloc(const gc_fit_model_t *m, size_t n);

/* Give the data: x (n * n_x coordinates, row-major), y (n values) and w
 * (n weights > 0, or NULL for all 1), and the context passed to f/df.
 * The arrays are borrowed until gc_fit_free. Fails with GC_EINPUT on a
 * non-finite value or a weight <= 0. */
int gc_fit_init(gc_fit_t *f, const double *x, const double *y, const double *w, const void *ctx,
                gc_err_t *err);

/* Run from the start point p0 (n_params values). 0: converged, res
 * filled. GC_ENODATA: fewer points than parameters, the solver did not
 * converge, or a non-finite result (the message says which). GC_ERUN:
 * GSL failed otherwise. */
int gc_fit_run(gc_fit_t *f, const double *p0, gc_fit_result_t *res, gc_err_t *err);

/* Residuals y_i - f(p, x_i) of the last successful run (n values). */
const double *gc_fit_residuals(const gc_fit_t *f);

/* Free (NULL and a half-built fit are fine). */
void gc_fit_free(gc_fit_t *f);

/* A straight line y = a + b * x (n_x = 1), for linear fits through the
 * same machinery (exact in one iteration). */
extern const gc_fit_model_t gc_fit_line;

/* gc_fit_line fitted to the n points (x[i], y[i]), unweighted, from the
 * start a = y[0], b = 0: 0 with res filled, GC_ENOMEM, or gc_fit_init's /
 * gc_fit_run's error (err says why: too few points, a non-finite value). */
int gc_fit_line_xy(const double *x, const double *y, size_t n, gc_fit_result_t *res,
                   gc_err_t *err);

#endif
