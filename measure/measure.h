/* measure.h - the measurement harness shared by every bench (C and CUDA).
 *
 * gpucal-measure is one program: a const table of benches (bench_*.cu), one
 * generic harness (harness.cu) that owns the device, the SM clock, warm-up,
 * repeats, median and interval, the SASS check, the trace header and the
 * progress line. A bench only launches its kernels and writes rows.
 * Depends on the CUDA runtime and libc only (never GSL or libyaml).
 */
#ifndef GC_MEASURE_H
#define GC_MEASURE_H

#include <stddef.h>
#include <stdio.h>

#include "../traces/trace.h"
#include "../util/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- statistics (stats.c) ---- */

/* Median of x[0..n) and a distribution-free 95 % interval for it from
 * order statistics (for n < 6 the interval is [min, max], which covers the
 * median with probability 1 - 2^(1-n)). Sorts x in place. n >= 1. */
void gc_stats_median(double *x, int n, double *med, double *lo, double *hi);

/* ---- SASS check (sass.c) ---- */

typedef struct gc_sass gc_sass_t;

/* Parse `cuobjdump -sass` output: functions and their opcodes. */
int gc_sass_parse(gc_sass_t **s, const char *text, size_t len, gc_err_t *err);
void gc_sass_destroy(gc_sass_t *s);

/* Number of functions whose (mangled) name contains func. */
int gc_sass_functions(const gc_sass_t *s, const char *func);

/* Instructions whose opcode equals op or starts with op followed by '.',
 * summed over the functions whose name contains func; -1 if no function
 * matches. */
long gc_sass_count(const gc_sass_t *s, const char *func, const char *op);

/* One expectation: in functions matching func, op occurs between min and
 * max times (max < 0: no upper bound). */
typedef struct gc_sass_rule {
    const char *func;
    const char *op;
    long min, max;
} gc_sass_rule_t;

/* Check n rules; writes "ok: ..." or "FAILED: ..." (one line) into out.
 * Returns 0 if all hold, 1 if any fails. */
int gc_sass_check(const gc_sass_t *s, const gc_sass_rule_t *rules, int n, char *out,
                  size_t outn);

/* ---- the measurement context ---- */

typedef struct gc_devinfo {
    char name[256];
    int cc_major, cc_minor;
    int sms;
    long l2_bytes;
    long smem_optin_bytes;     /* most shared memory one block can opt into */
    long smem_per_sm_bytes;
    int mem_bus_bits;
    double mem_clock_mhz;      /* 0 when the runtime does not say */
    double clock_max_mhz;      /* 0 when the runtime does not say */
    int driver, runtime;       /* versions as cudaDriverGetVersion gives them */
    char kernel_driver[32];    /* e.g. "580.159.04" from /proc/driver/nvidia/version */
    int max_threads_sm, max_blocks_sm, regs_sm;
} gc_devinfo_t;

/* Resuming an interrupted bench (--resume): the rows its .part file kept. */
typedef struct gc_resume {
    int active;                /* the bench is skipping rows it measured before */
    long rows;                 /* complete data rows in the kept .part */
    long done;                 /* rows skipped so far */
    long header_end;           /* byte offset after the column header */
    long *offsets;             /* offsets[i]: byte offset after data row i */
    gc_trace_writer_t *w;      /* the reopened writer */
} gc_resume_t;

typedef struct gc_mctx {
    const char *out_dir;       /* traces go to OUT_DIR/<bench>.csv */
    int resume;                /* --resume: continue interrupted benches */
    gc_resume_t res;           /* the bench now running, when resumed */
    int quick;                 /* smaller sweeps, fewer repeats */
    int full;                  /* the largest sweeps (e.g. every SM) */
    int force;                 /* replace existing traces */
    int reps;                  /* repeats per point (median over them) */
    gc_devinfo_t dev;
    double clock_mhz;          /* SM clock measured at the start of the current bench */
    const gc_sass_t *sass;     /* NULL when cuobjdump was not available */
    const char *sass_skip;     /* why the SASS check was skipped */
    char command[1024];        /* the command line */
    char date[32];             /* run start, ISO 8601 UTC */
    int progress_tty;          /* stderr is a terminal */
    double progress_last;      /* seconds, last progress line */
    const char *bench;         /* bench now running */
} gc_mctx_t;

/* A bench: a row of the const table in main.cu. run() writes the column
 * header and the rows to w (already opened, header metadata written) and
 * may add metadata (gc_trace_put_meta). Returns 0 or a gc_code. */
typedef struct gc_bench {
    const char *name;            /* file stem and --bench name */
    const char *summary;         /* one line for --list */
    int (*run)(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err);
    const gc_sass_rule_t *sass;  /* expectations checked on this binary's SASS */
    int n_sass;
    int min_cc;                  /* 10*major+minor the bench needs (0: any) */
    int resumable;               /* 1: run() calls gc_resume_skip before each unit of rows,
                                  * so --resume continues it; 0: --resume starts it over */
    /* optional: the rules for compute capability cc (10*major+minor), when
     * they depend on it; overrides sass/n_sass; returns their number */
    int (*sass_plan)(int cc, const gc_sass_rule_t **rules);
} gc_bench_t;

/* ---- harness services for benches (harness.cu) ---- */

/* The SM clock in MHz: one thread spins `ms` milliseconds reading
 * %globaltimer and clock64; returns the ratio. */
int gc_clock_measure(double ms, double *mhz, gc_err_t *err);

/* The host's monotonic clock, in seconds (CLOCK_MONOTONIC): progress,
 * bench and phase times. */
double gc_host_seconds(void);

/* The same, also timing the spin with the host's monotonic clock:
 * *host_mhz = cycles / host seconds (slightly low: the host time includes
 * the launch and the copy back, a few microseconds). A cross-check of
 * %globaltimer. host_mhz may be NULL. */
int gc_clock_measure2(double ms, double *mhz, double *host_mhz, gc_err_t *err);

/* Result of one timed launch. */
typedef struct gc_launch {
    double cycles;     /* SM cycles of the timed region (slowest warp) */
    double ns;         /* %globaltimer nanoseconds of the timed region */
} gc_launch_t;

/* One measured point: launch(cookie, out) is called once to warm up, then
 * ctx->reps times; the figures are per `per` units (e.g. iterations). */
typedef struct gc_point {
    double med, lo, hi;   /* cycles per unit: median and 95 % interval */
    double clock_mhz;     /* SM clock during the repeats (sum cycles / sum ns) */
    int clock_moved;      /* |clock_mhz - ctx->clock_mhz| > 2 % */
} gc_point_t;

int gc_measure_point(gc_mctx_t *ctx, int (*launch)(void *cookie, gc_launch_t *out, gc_err_t *e),
                     void *cookie, double per, gc_point_t *pt, gc_err_t *err);

/* Resume support. A resumable bench measures in units (a point, a launch)
 * that each write `rows` rows in a fixed order, and calls this before
 * measuring a unit: 1 = the interrupted run already wrote this unit (skip
 * it, write nothing), 0 = measure and write it. The first 0 also cuts off
 * a unit the interrupted run left half-written. Always 0 when not
 * resuming. */
int gc_resume_skip(gc_mctx_t *ctx, long rows);

/* Progress on stderr: "[bench] done/total label", at most a few lines a
 * second (one per 10 % when stderr is not a terminal). */
void gc_progress(gc_mctx_t *ctx, long done, long total, const char *label);

/* Write the column header of bench `bench` (its row of the bench table,
 * traces/benches.c) to w; as gc_trace_columns. */
int gc_measure_columns(gc_trace_writer_t *w, const char *bench);

/* Turn a CUDA error code into a gc_err (GC_ERUN, with cudaGetErrorString
 * and what was being done). Returns 0 when code is cudaSuccess. */
int gc_cuda_check(int code, const char *what, gc_err_t *err);

#ifdef __cplusplus
}
#endif

#endif
