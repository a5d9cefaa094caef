/* bench.h - inside calib: what the driver (calib.c) and the bench handlers
 * (bench_sweep.c: mma, mma_sp, wgmma, alu, ldmatrix, smem; bench_memory.c:
 * pchase, pchase_fine, bw; bench_clock.c: clock; bench_hopper.c: tma, dsm, dpx;
 * bench_coissue.c, bench_launch.c, bench_cold.c) share. Not part of calib's public API.
 *
 * A handler gets one trace read into a gc_table_t (its column contract is
 * the bench's row of the bench table, traces/benches.c), fits what the trace supports
 * and fills the arch through gc_calib_put, with a source naming the trace
 * file and the method. What the data cannot support is left out with a
 * warning (gc_warn_at: "FILE:LINE: warning: KEY left out: why"). Each
 * handler prints one progress line.
 */
#ifndef GC_CALIB_BENCH_H
#define GC_CALIB_BENCH_H

#include <stdio.h>

#include "../arch/arch.h"
#include "../util/err.h"
#include "calib.h"
#include "table.h"

typedef struct gc_calib_ctx {
    gc_arch_t *a;
    const gc_calib_opts_t *o;
    FILE *log;       /* progress lines and warnings, printed on stderr only when
                        the run succeeds (an error is then the one line); NULL:
                        silent */
    const char *dir; /* the trace folder, as given, without trailing '/' */
    double l2_bytes; /* header l2_bytes (0: no trace gave it) */
    double sms;      /* header sms */
    /* sm.sub_cores: votes of the warp-level tensor fits (slot count -> forms) */
    int slot_votes[9];
    const char *slot_file; /* the trace the first vote came from */
    /* the L2 plateau of the classic P-chase (ld.cg path), for TMA's extra latency */
    int has_l2_plateau;
    double l2_level, l2_lo, l2_hi;
    const char *l2_src;
    /* the highest clock of the clock bench (for sm.clock_max_mhz when the
     * headers lack clock_max_mhz) */
    double clk, clk_lo, clk_hi;
    const char *clk_src;
    int n_left_out; /* values left out with a warning */
} gc_calib_ctx_t;

typedef int (*gc_bench_fn)(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);

/* the handlers */
int gc_bench_tensor(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_alu(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_ldmatrix(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_smem(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_pchase(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_fine(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_bw(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_clock(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_tma(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_dsm(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_dpx(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_coissue(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_launch(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);
int gc_bench_cold(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err);

/* Set q to v with interval [lo, hi] (lo > hi: none), source src and note
 * (NULL: none), rounded to 5 significant digits (the interval outward, to
 * the same decimal place). */
void gc_calib_put(gc_calib_ctx_t *c, gc_qty_t *q, double v, double lo, double hi, const char *src,
                  const char *note);

/* Set a whole-number quantity (a count), exact, no interval. */
void gc_calib_put_count(gc_calib_ctx_t *c, gc_qty_t *q, double v, const char *src,
                        const char *note);

/* printf into the arch's arena (for sources and notes); NULL when out of memory. */
const char *gc_calib_str(gc_calib_ctx_t *c, const char *fmt, ...) GC_PRINTF(2, 3);

/* One progress line "calib: MSG" (unless quiet) into the log. */
void gc_calib_info(gc_calib_ctx_t *c, const char *fmt, ...) GC_PRINTF(2, 3);

/* A value left out: "FILE:LINE: warning: MSG" into the log (quiet or
 * not), counted. */
void gc_calib_leave_out(gc_calib_ctx_t *c, const char *file, long line, const char *fmt, ...)
    GC_PRINTF(4, 5);

/* Append n zeroed entries to an arch list (old entries copied); returns the
 * first new one or NULL when out of memory. */
void *gc_calib_grow(gc_calib_ctx_t *c, void **list, size_t *count, size_t elem, size_t n);

/* A byte count as text: "40 MiB", "256 KiB", "1536 B". buf of n bytes. */
const char *gc_calib_bytes(double b, char *buf, size_t n);

#endif
