/* clk_series.h - the clock bench's curve (bench_clock.cu), in C so the CPU
 * tests check it (tests/test_measure.c): per-interval SM clocks from
 * (%globaltimer, clock64) samples of one SM, the test that says the clock
 * has settled, and the curve's rows (bins of samples with the board power
 * read during them). libc only. */
#ifndef GC_CLK_SERIES_H
#define GC_CLK_SERIES_H

#ifdef __cplusplus
extern "C" {
#endif

/* One sample of the SM clock under load, taken by one thread of one SM. */
typedef struct gc_clk_sample {
    unsigned long long ns; /* %globaltimer */
    long long cyc;         /* clock64 of the sampling SM */
} gc_clk_sample_t;

/* One power reading: seconds since the load started, watts. */
typedef struct gc_pw_sample {
    double t_s, w;
} gc_pw_sample_t;

/* Where a run stands: the median clock over the last window and its 95 %
 * interval (MHz), the median over the window before it (0: the run is not
 * two windows long yet), the seconds from the first sample to the last, the
 * intervals in the last window and whether the clock has settled. */
typedef struct gc_clk_settle {
    double med, lo, hi, prev, t_s;
    int n, settled;
} gc_clk_settle_t;

/* Judges samples s[0..n) (in time order, one SM): the clock of each
 * interval between consecutive samples is its cycles / ns; the intervals
 * whose end falls in the last win_s seconds give the median (with its
 * interval), those of the win_s before give prev. Settled: the samples span
 * at least 2 win_s and |med - prev| < tol x prev (tol a fraction, e.g.
 * 0.005). Returns 0, or -1 when fewer than 3 intervals end in the last
 * window (no figure yet: *out is then cleared) or on no memory. */
int gc_clk_settle(const gc_clk_sample_t *s, int n, double win_s, double tol, gc_clk_settle_t *out);

/* One row of the curve: the end of its last interval (seconds since the
 * first sample), its length (the sum of its intervals), its mean clock (its
 * cycles / its ns, MHz) and the median of the power readings taken in it
 * (0: none). */
typedef struct gc_clk_bin {
    double t_s, len_s, mhz, w;
} gc_clk_bin_t;

/* The curve of samples s[0..n) as rows: the intervals grouped by their end
 * into bins of bin_s seconds (an empty bin gives no row), with the power
 * readings p[0..np) (their t_s on the same origin) whose time falls after
 * the previous row's end and up to this row's. Writes at most max rows into
 * out; returns how many. */
int gc_clk_bins(const gc_clk_sample_t *s, int n, const gc_pw_sample_t *p, int np, double bin_s,
                gc_clk_bin_t *out, int max);

/* The median of the power readings p[0..np) taken after t0_s and up to
 * t1_s; 0 when there is none (or no memory to sort them: not read). */
double gc_clk_power(const gc_pw_sample_t *p, int np, double t0_s, double t1_s);

#ifdef __cplusplus
}
#endif

#endif
