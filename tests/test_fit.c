/* test_fit.c - the GSL wrapper (calib/fit.c) and the pipe-model fit of a
 * sweep (calib/sweep.c) on data with known answers: a line recovered
 * exactly and its interval covering the truth; sweeps generated from
 * gc_pipe_cycles with known lat / issue / overhead plus noise recovered
 * within 2 %, the slot count singled out by the residuals; convergence
 * points of seed 000's A100 form; sweeps that cannot support a fit refused
 * with the reason. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "calib/fit.h"
#include "calib/sweep.h"
#include "check.h"
#include "util/rng.h"

static uint64_t rs = 777;



static void test_line(void)
{
    double x[20], y[20];
    for (int i = 0; i < 20; i++) {
        x[i] = i;
        y[i] = 3 + 2 * i;
    }
    gc_fit_t *f = gc_fit_alloc(&gc_fit_line, 20);
    gc_fit_result_t r;
    gc_err_t e;
    CHECK(f != NULL);
    CHECK(gc_fit_init(f, x, y, NULL, NULL, &e) == 0);
    double p0[2] = {0, 0};
    CHECK(gc_fit_run(f, p0, &r, &e) == 0);
    CHECK_NEAR(r.p[0], 3, 1e-9);
    CHECK_NEAR(r.p[1], 2, 1e-9);
    CHECK(r.dof == 18);
    CHECK(r.max_abs < 1e-9);
    /* with noise: the interval covers the truth, residuals reported */
    for (int i = 0; i < 20; i++)
        y[i] = 3 + 2 * i + 0.1 * gc_rng_gauss(&rs);
    CHECK(gc_fit_init(f, x, y, NULL, NULL, &e) == 0);
    CHECK(gc_fit_run(f, p0, &r, &e) == 0);
    CHECK(r.has_ci);
    CHECK(r.lo[1] < 2 && 2 < r.hi[1]);
    CHECK(r.lo[0] < 3 && 3 < r.hi[0]);
    CHECK(r.rms > 0.03 && r.rms < 0.3);
    const double *res = gc_fit_residuals(f);
    CHECK_NEAR(res[5], y[5] - (r.p[0] + 5 * r.p[1]), 1e-12);
    /* bad input: a non-finite value, a zero weight */
    y[3] = NAN;
    CHECK(gc_fit_init(f, x, y, NULL, NULL, &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "point 3: value is not finite");
    y[3] = 9;
    double w[20];
    for (int i = 0; i < 20; i++)
        w[i] = i == 7 ? 0 : 1;
    CHECK(gc_fit_init(f, x, y, w, NULL, &e) == GC_EINPUT);
    gc_fit_free(f);
    /* a line through one point: not enough data */
    f = gc_fit_alloc(&gc_fit_line, 1);
    CHECK(gc_fit_init(f, x, y, NULL, NULL, &e) == 0);
    CHECK(gc_fit_run(f, p0, &r, &e) == GC_ENODATA);
    CHECK_HAS(e.msg, "1 points for 2 parameters");
    gc_fit_free(f);
    gc_fit_free(NULL);
}

/* warps x ilp grid from a known pipe, multiplicative noise of sd `noise` */
static size_t sweep(const gc_pipe_t *p, const int *warps, int nw, int ilp_max, double noise,
                    double work, gc_sweep_pt_t *pt)
{
    size_t n = 0;
    for (int a = 0; a < nw; a++)
        for (int ilp = 1; ilp <= ilp_max; ilp++) {
            double c = gc_pipe_cycles(p, warps[a], ilp) * (1 + noise * gc_rng_gauss(&rs));
            pt[n] = (gc_sweep_pt_t){.warps = warps[a],
                                    .ilp = ilp,
                                    .cyc = c,
                                    .cyc_lo = c * 0.99,
                                    .cyc_hi = c * 1.01,
                                    .rate = warps[a] * ilp * work / c,
                                    .line = (long)n + 10};
            n++;
        }
    return n;
}

static void check_pipe(const gc_sweep_fit_t *f, const gc_pipe_t *t)
{
    CHECK_NEAR(f->pipe.lat_cyc, t->lat_cyc, 0.02 * t->lat_cyc);
    CHECK_NEAR(f->pipe.issue_cyc, t->issue_cyc, 0.02 * t->issue_cyc);
    CHECK_NEAR(f->pipe.overhead_cyc, t->overhead_cyc, 0.02 * t->overhead_cyc + 1e-9);
    CHECK(f->pipe.slots == t->slots);
    CHECK(f->slots_determined);
    CHECK(f->has_ci);
    for (int j = 0; j < 3; j++)
        CHECK(f->lo[j] <= f->hi[j]);
}

static void test_pipe_recovery(void)
{
    static const int slots[] = {1, 2, 4, 8};
    static const int warps[] = {1, 2, 3, 4, 5, 6, 8, 12, 16};
    gc_sweep_pt_t pt[256];
    gc_sweep_fit_t f;
    gc_err_t e;
    /* seed 000's A100 mma m16n8k16 f16.f32 (arch/pipe.h) */
    gc_pipe_t a100 = {24.7, 8.15, 1.35, 4};
    size_t n = sweep(&a100, warps, 9, 8, 0.001, 2048, pt);
    CHECK(gc_sweep_fit(pt, n, slots, 4, &f, &e) == 0);
    check_pipe(&f, &a100);
    CHECK(f.rms_rel < 0.002 && f.max_rel < 0.005);
    CHECK(f.n_lat >= 5 && f.n_thr >= 5);
    /* the intervals of the noisy fit cover the truth */
    CHECK(f.lo[1] <= 8.15 && 8.15 <= f.hi[1]);
    /* an H100-like form: longer latency, larger overhead */
    gc_pipe_t h100 = {33.0, 16.0, 2.5, 4};
    n = sweep(&h100, warps, 9, 8, 0.001, 4096, pt);
    CHECK(gc_sweep_fit(pt, n, slots, 4, &f, &e) == 0);
    check_pipe(&f, &h100);
    /* 1 % noise: lat and issue still within 2 %; the small overhead is
     * not, but its interval covers the truth */
    n = sweep(&h100, warps, 9, 8, 0.01, 4096, pt);
    CHECK(gc_sweep_fit(pt, n, slots, 4, &f, &e) == 0);
    CHECK_NEAR(f.pipe.lat_cyc, 33.0, 0.02 * 33.0);
    CHECK_NEAR(f.pipe.issue_cyc, 16.0, 0.02 * 16.0);
    CHECK(f.lo[2] <= 2.5 && 2.5 <= f.hi[2]);
    CHECK(f.pipe.slots == 4 && f.slots_determined);
    /* a pipe the whole SM shares (ldmatrix-like): slots 1 */
    gc_pipe_t shared = {30.0, 4.0, 0.5, 1};
    n = sweep(&shared, warps, 9, 8, 0.001, 512, pt);
    CHECK(gc_sweep_fit(pt, n, slots, 4, &f, &e) == 0);
    check_pipe(&f, &shared);
    /* no overhead at all: the free fit may go below 0; the answer is 0 */
    gc_pipe_t zero = {33.0, 32.4, 0.0, 4};
    n = sweep(&zero, warps, 9, 6, 0.002, 2048, pt);
    CHECK(gc_sweep_fit(pt, n, slots, 4, &f, &e) == 0);
    CHECK_NEAR(f.pipe.issue_cyc, 32.4, 0.02 * 32.4);
    CHECK_NEAR(f.pipe.lat_cyc, 33.0, 0.02 * 33.0);
    /* lat ~ issue: only ILP 1 is latency-bound, so the overhead is not
     * determined and is left out rather than invented */
    CHECK(!f.overhead_determined);
    CHECK(f.pipe.overhead_cyc == 0);
    /* a pipe with a real zero overhead and a long latency: determined, 0 */
    gc_pipe_t zlong = {40.0, 8.0, 0.0, 4};
    n = sweep(&zlong, warps, 9, 8, 0.002, 2048, pt);
    CHECK(gc_sweep_fit(pt, n, slots, 4, &f, &e) == 0);
    CHECK(f.overhead_determined);
    CHECK(f.pipe.overhead_cyc >= 0 && f.pipe.overhead_cyc < 0.1);
    CHECK(f.lo[2] >= 0 && f.lo[2] <= f.pipe.overhead_cyc && f.pipe.overhead_cyc <= f.hi[2]);
}

static void test_not_supported(void)
{
    static const int slots[] = {1, 2, 4, 8};
    gc_sweep_pt_t pt[64];
    gc_sweep_fit_t f;
    gc_err_t e;
    gc_pipe_t a100 = {24.7, 8.15, 1.35, 4};
    /* latency-bound only (1 and 2 warps, ILP 1..2): issue not determined */
    static const int few[] = {1, 2};
    size_t n = sweep(&a100, few, 2, 3, 0, 2048, pt);
    CHECK(gc_sweep_fit(pt, n, slots, 4, &f, &e) == GC_ENODATA);
    CHECK_HAS(e.msg, "throughput-bound: the issue interval is not determined");
    /* four points */
    CHECK(gc_sweep_fit(pt, 4, slots, 4, &f, &e) == GC_ENODATA);
    CHECK_HAS(e.msg, "4 points, at least 5 needed");
    /* up to 4 warps only: 4 and 8 slots cannot be told apart */
    static const int w4[] = {1, 2, 3, 4};
    n = sweep(&a100, w4, 4, 8, 0.001, 2048, pt);
    CHECK(gc_sweep_fit(pt, n, slots, 4, &f, &e) == 0);
    CHECK(!f.slots_determined);
    CHECK_NEAR(f.pipe.issue_cyc, 8.15, 0.02 * 8.15);
    /* a sweep the model cannot describe: cycles growing with the square of
     * the work, no plateau, no linear throughput branch */
    static const int wq[] = {1, 2, 4, 8, 16};
    n = sweep(&a100, wq, 5, 8, 0, 2048, pt);
    for (size_t i = 0; i < n; i++)
        pt[i].cyc = 20 + 0.05 * pow(pt[i].warps * pt[i].ilp, 2);
    CHECK(gc_sweep_fit(pt, n, slots, 4, &f, &e) == GC_ENODATA);
    CHECK_HAS(e.msg, "the model does not describe this sweep (rms residual");
    /* a bad point */
    n = sweep(&a100, w4, 4, 8, 0.001, 2048, pt);
    pt[2].cyc = -1;
    CHECK(gc_sweep_fit(pt, n, slots, 4, &f, &e) == GC_EINPUT);
}

/* Seed 000 Table III's A100 convergence points: (4 warps, ILP 3) and
 * (8 warps, ILP 2), from the model's sweep without noise up to ILP 3 (the
 * model lets 4 warps reach the peak at ILP 4, which the A100 does not:
 * seed 000 measured 900 against 1000 FMA/clk/SM). */
static void test_conv(void)
{
    static const int warps[] = {1, 2, 4, 8, 16};
    gc_sweep_pt_t pt[64];
    gc_pipe_t a100 = {24.7, 8.15, 1.35, 4};
    size_t n = sweep(&a100, warps, 5, 3, 0, 2048, pt);
    size_t idx[8];
    size_t k = gc_sweep_conv(pt, n, idx, 8);
    CHECK(k == 2);
    if (k == 2) {
        CHECK(pt[idx[0]].warps == 4 && pt[idx[0]].ilp == 3);
        CHECK(pt[idx[1]].warps == 8 && pt[idx[1]].ilp == 2);
    }
    size_t pk = gc_sweep_peak(pt, n);
    CHECK_NEAR(pt[pk].rate, 8 * 2 * 2048 / 32.6, 0.5);
    CHECK(gc_sweep_find(pt, n, 1, 1) == 0);
    CHECK(gc_sweep_find(pt, n, 3, 1) == -1);
}

/* The peak's place on a plateau: the fewest warps x ILP within the
 * tolerance, whichever point of the plateau happens to be the argmax. */
static void test_knee(void)
{
    gc_sweep_pt_t pt[6];
    memset(pt, 0, sizeof(pt));
    /* (warps, ilp, rate): a plateau at 100 reached by 8 x 2 and 4 x 4 */
    const double v[6][3] = {{4, 2, 60}, {4, 4, 99.5}, {8, 2, 99.2}, {8, 4, 100}, {16, 4, 99.9}, {2, 8, 98.9}};
    for (int i = 0; i < 6; i++) {
        pt[i].warps = v[i][0];
        pt[i].ilp = v[i][1];
        pt[i].rate = v[i][2];
    }
    CHECK(gc_sweep_peak(pt, 6) == 3);
    CHECK(gc_sweep_knee(pt, 6, 0.01) == 1);  /* 4 x 4 = 16 ties 8 x 2: fewer warps */
    CHECK(gc_sweep_knee(pt, 6, 0.002) == 3); /* only 8 x 4 and 16 x 4 are within: 8 x 4 */
    CHECK(gc_sweep_knee(pt, 6, 0.02) == 5);  /* 2 x 8 = 16, 2 warps: fewest */
    CHECK(gc_sweep_knee(pt, 6, 0) == 3);
}

int main(void)
{
    test_line();
    test_pipe_recovery();
    test_not_supported();
    test_knee();
    test_conv();
    CHECK_DONE();
}
