/* export.h - one interface for every simulator export format.
 *
 * An exporter turns an arch into the configuration files of one simulator:
 * it renders them into memory, its validator checks them (every export is
 * checked before anything is written), and it documents key by key where
 * each value comes from. gc_export_write does the rest the same way for all:
 * render, validate, create the folder, write every file atomically, never
 * replace an existing file unless forced. `gpucal export NAME` finds the
 * exporter by name in gc_exporter_list.
 *
 * A new format: one file model/export/<name>.c defining a gc_exporter_t, and
 * one row in export.c's list (docs/extending.md).
 */
#ifndef GC_EXPORT_H
#define GC_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "../../util/err.h"
#include "../../arch/arch.h"

#define GC_EXPORT_FILES_MAX 4

/* Choices the caller may make; zero-initialised = the defaults. An exporter
 * reads the ones that mean something to it. */
typedef struct gc_export_opts {
    const char *clock; /* SM clock for the core, interconnect and L2 domains:
                        * "max" (sm.clock_max_mhz, default), "base", "tensor",
                        * "memory" (the sustained clocks sm.clock_*_mhz) */
    const char *form;  /* tensor form for the tensor unit, as gc_tensor_label
                        * prints it ("mma m16n8k16 f16.f32"); NULL = the
                        * exporter's rule */
} gc_export_opts_t;

/* What an export did, for the summary line. */
typedef struct gc_export_info {
    int n_options;       /* options written, all files */
    int n_arch;          /* values taken or derived from the arch */
    int n_const;         /* fixed constants (by design, see the exporter's table) */
    int n_fallback;      /* constants used because the arch lacks a value */
    char fallbacks[512]; /* the arch keys those stand in for, comma-separated */
    char form[96];       /* the tensor form used */
    int indexing;        /* accel-sim: -gpgpu_memory_partition_indexing written */
    int n_mem;           /* accel-sim: -gpgpu_n_mem written */
    char note[512];      /* a warning to print once the files are written ("": none) */
    double l2_off_pct;   /* accel-sim: L2 size written less the measured, % of it (0: exact) */
    /* accel-sim: the arch figures the export used (for its microbenchmark traces) */
    double core_mhz;      /* SM clock of the core domain */
    double l2_hit_cyc;    /* L2 hit, weighted over near and far partitions */
    double l2_miss_cyc;   /* DRAM miss, weighted the same way */
    double tc_lat_cyc;    /* the tensor form's latency */
    double tc_issue_cyc;  /* its initiation interval per sub-core */
    int tc_m, tc_n, tc_k; /* its shape */
    /* accel-sim: the dependent chain the simulator runs with the latency written
     * (written + what it adds, simcorr.h): above the arch's figure where the
     * written latency had to stay at the initiation interval */
    double sim_int_cyc, sim_sp_cyc, sim_tc_cyc;
} gc_export_info_t;

typedef struct gc_exporter {
    const char *name;                       /* `gpucal export NAME`, e.g. "accel-sim" */
    const char *files[GC_EXPORT_FILES_MAX]; /* the files it writes into DIR, in order */
    size_t n_files;
    /* Render every file into malloc'd text[i] (the caller frees them). Bad
     * input: GC_EINPUT, one line naming the arch key that is missing. */
    int (*render)(const gc_arch_t *a, const gc_export_opts_t *o, char **text,
                  gc_export_info_t *info, gc_err_t *err);
    /* The validator on in-memory files (names for messages): 0 or GC_EINPUT
     * with one line FILE:LINE:COL. */
    int (*check)(const char *const *names, char *const *text, size_t n, gc_err_t *err);
    /* The validator on files on disk; *n_options gets the options read. */
    int (*check_files)(char *const *paths, size_t n, size_t *n_options, gc_err_t *err);
    /* The key-by-key table as Markdown. */
    void (*doc)(FILE *fp);
    /* The summary line of a successful export into dir. */
    void (*summary)(const gc_export_info_t *info, const char *dir, const char *arch, FILE *fp);
} gc_exporter_t;

/* Every exporter, in the order `gpucal export` lists them; *list gets the
 * array. */
size_t gc_exporter_list(const gc_exporter_t *const **list);

/* The exporter called name, or NULL. */
const gc_exporter_t *gc_exporter_find(const char *name);

/* Render with x, validate (a failure here is a gpucal bug: GC_ERUN), create
 * dir if needed, and write every file atomically. Without force an existing
 * file is not replaced (GC_EEXIST) and nothing is written. info may be NULL;
 * its note, if any, is printed as a warning after the files are written. */
int gc_export_write(const gc_exporter_t *x, const gc_arch_t *a, const gc_export_opts_t *o,
                    const char *dir, int force, gc_export_info_t *info, gc_err_t *err);

#endif
