/* calib.h - calibration: a folder of traces -> an architecture (gpucal-arch/1).
 *
 * gc_calib_run reads every trace (*.csv) in a folder, recognises each by its
 * `bench` header, runs the bench's fits (calib/README.md: k-means of the
 * fine-grained P-chase, pipe-model fits of the ILP x warps sweeps, plateaus
 * of the classic P-chase, bandwidths, clocks) and fills a new gc_arch_t in
 * which every value carries a 95 % interval where one exists and a source
 * naming the trace file and the method. Device facts (device, cc, SMs,
 * L2 size, ...) come from the trace headers; the family from cc.
 *
 * Only benches present in the folder contribute: a missing bench leaves its
 * keys out (one informational line on stderr), and a value the data cannot
 * support is left out with a warning; nothing is defaulted. The result is
 * deterministic: the same folder gives the same arch, bit for bit (no
 * clock time, fixed seeds, files in name order).
 *
 * Reads: the *.csv files of DIR. Writes: nothing (the caller saves the arch), except the
 * optional near/far map CSV (atomically, through gc_afile).
 */
#ifndef GC_CALIB_H
#define GC_CALIB_H

#include <stdio.h>

#include "../arch/arch.h"
#include "../util/err.h"

typedef struct gc_calib_opts {
    const char *dir;      /* the trace folder */
    const char *name;     /* arch name ([a-z0-9-]) */
    const char *out;      /* the arch file it will be saved to (for provenance), or NULL */
    const char *near_map; /* write the per-SM near/far L2 map here (CSV), or NULL */
    FILE *near_map_fp;    /* if set, the map goes here (the caller's temporary file,
                             committed only when the whole run succeeded) instead of
                             being written to near_map by calib */
    int force;            /* near_map may replace an existing file */
    int quiet;            /* no progress lines (warnings still go to stderr) */
    int silent;           /* no lines at all, warnings neither (benchmarks, tests) */
} gc_calib_opts_t;

/* Calibrate the traces in o->dir into a new arch (*a, caller destroys).
 * Fails with GC_EINPUT ("FILE:LINE:COL: ..." from the trace reader) on a
 * malformed or incomplete trace, traces of different devices, two traces
 * of one bench, an empty folder or one without a bench calib reads;
 * GC_ENODATA when a key the schema requires (sm.count, sm.sub_cores,
 * sm.clock_max_mhz) cannot be supported by the traces; GC_EIO, GC_ENOMEM. */
int gc_calib_run(const gc_calib_opts_t *o, gc_arch_t **a, gc_err_t *err);

/* Read one trace the way calib does (its bench's columns, every cell
 * checked, complete). 0: fine, and summary (n bytes) says what it holds. */
int gc_calib_check(const char *path, char *summary, size_t n, gc_err_t *err);

#endif
