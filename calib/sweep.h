/* sweep.h - an ILP x warps sweep of one instruction form on one SM: the
 * pipe-model fit (arch/pipe.h), the peak and the convergence points.
 *
 * The fit: gc_pipe_cycles(p, W, ilp) = max(lat + overhead * (n - 1),
 * n * issue) with n = ceil(W / slots) * ilp, fitted to the measured cycles
 * per iteration with relative weights (1 / y^2) by calib/fit.c. The max()
 * has a kink, so GSL works on a smooth surrogate
 *   smax(a, b) = (a + b + sqrt((a - b)^2 + eps^2)) / 2
 * with eps shrinking 5 % -> 1 % -> 0.1 % of the median cycles -> 0; the
 * last run is the exact max (eps = 0), so the parameters reported are those
 * of gc_pipe_cycles and the residuals are computed with gc_pipe_cycles.
 * The slot count is a discrete choice: each candidate is fitted, the
 * lowest residual wins, and it counts as determined only when every
 * candidate that assigns the points differently has at least twice the
 * residual sum of squares.
 */
#ifndef GC_SWEEP_H
#define GC_SWEEP_H

#include <stddef.h>

#include "../arch/pipe.h"
#include "../util/err.h"

typedef struct gc_sweep_pt {
    double warps;            /* model units per SM: warps (warpgroups for wgmma) */
    double ilp;              /* independent chains per unit */
    double cyc;              /* cycles per iteration (median) */
    double cyc_lo, cyc_hi;   /* its 95 % interval, cycles */
    double rate;             /* throughput per SM (FMA/clk/SM, bytes/clk/SM, ops/clk/SM) */
    double rate_lo, rate_hi; /* its 95 % interval */
    double clock_mhz;        /* SM clock of the row, MHz */
    long line;               /* trace line of the row */
} gc_sweep_pt_t;

#define GC_SWEEP_SLOTS_MAX 6

/* A fit whose rms relative residual exceeds this is refused (GC_ENODATA):
 * the model does not describe the sweep (on the H100: forms emulated on
 * CUDA cores, mma.sp with fp8). */
#define GC_SWEEP_RMS_MAX 0.15

typedef struct gc_sweep_fit {
    gc_pipe_t pipe;                      /* lat_cyc, issue_cyc, overhead_cyc, slots */
    double lo[3], hi[3];                 /* 95 % intervals of lat, issue, overhead (cycles) */
    int has_ci;                          /* intervals available (dof > 0, full rank) */
    int overhead_at_zero;                /* the free fit put overhead below 0: refitted with 0 */
    int overhead_determined;             /* 0: the latency-bound points sit at one in-flight
                                            count; overhead is left out (refitted with 0) */
    int slots_determined;                /* the residuals single out one slot count */
    int n_slots;                         /* candidates tried */
    int slot[GC_SWEEP_SLOTS_MAX];        /* candidate slot counts */
    double slot_sse[GC_SWEEP_SLOTS_MAX]; /* relative SSE per candidate (-1: no fit) */
    size_t n;                            /* points fitted */
    size_t n_lat, n_thr;                 /* points on the latency / throughput branch */
    double rms_rel, max_rel;             /* relative residuals (gc_pipe_cycles - y) / y */
    int iters;                           /* solver iterations of the final run */
} gc_sweep_fit_t;

/* Fit the pipe model to n points, trying each of the n_slots slot counts.
 * 0: fitted, out filled; when the latency-bound points sit at a single
 * in-flight count the overhead is not determined: overhead_determined = 0,
 * lat and issue come from a refit with overhead 0. GC_ENODATA: the data
 * cannot support a fit; the message says why (too few points, fewer than
 * two throughput-bound points, no convergence, a singular covariance, an
 * rms relative residual above GC_SWEEP_RMS_MAX; out is filled as far as
 * the fit got). */
int gc_sweep_fit(const gc_sweep_pt_t *pt, size_t n, const int *slots, int n_slots,
                 gc_sweep_fit_t *out, gc_err_t *err);

/* Index of the point of highest rate (ties: the earlier one), n > 0. */
size_t gc_sweep_peak(const gc_sweep_pt_t *pt, size_t n);

/* Where the peak is reached, stably: among the points whose rate is at
 * least (1 - tol) of the highest rate, the one with the fewest warps x ILP
 * in flight (ties: fewer warps, then the earlier point). On a flat plateau
 * the argmax moves between runs with noise; this point does not. n > 0. */
size_t gc_sweep_knee(const gc_sweep_pt_t *pt, size_t n, double tol);

/* The tolerance of gc_sweep_knee for the peak's warps and ILP: 1 %. */
#define GC_SWEEP_KNEE_TOL 0.01

/* Index of the point at (warps, ilp), or -1. */
long gc_sweep_find(const gc_sweep_pt_t *pt, size_t n, double warps, double ilp);

/* Convergence points: for each warp count W (ascending) whose best rate
 * r*(W) is at least 80 % of the peak, the smallest ILP reaching 95 % of
 * r*(W); the list stops after the first W with r*(W) >= 97 % of the
 * peak. Writes up to max indices into idx; returns how many. */
size_t gc_sweep_conv(const gc_sweep_pt_t *pt, size_t n, size_t *idx, size_t max);

#endif
