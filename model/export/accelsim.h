/* accelsim.h - an arch file as Accel-Sim / GPGPU-Sim configuration files.
 *
 * Writes gpgpusim.config and trace.config with every option the simulator's
 * tested SM86_RTX3070 configs carry (shared/reference/accel-sim). Each value
 * is one of: an arch field, a documented formula of arch fields, or a fixed
 * constant with its reason; the table of all of them is one const array in
 * accelsim.c, printed as Markdown by gc_accelsim_doc (model/export/export.md) and
 * as a comment above each option in the files themselves. When the arch
 * lacks a value the simulator needs and no documented rule derives it, the
 * export fails with one line naming the missing key; it never invents one.
 *
 * Every export is checked with simcheck (the validator) before anything is
 * written; the two files are written atomically and never overwrite an
 * existing file unless forced.
 *
 * Reads: an arch (already loaded). Writes: DIR/gpgpusim.config,
 * DIR/trace.config.
 */
#ifndef GC_ACCELSIM_H
#define GC_ACCELSIM_H

#include <stdio.h>

#include "../../util/err.h"
#include "../../arch/arch.h"

/* Choices the caller may make; zero-initialised = the defaults. */
typedef struct gc_accelsim_opts {
    const char *clock; /* SM clock for the core, interconnect and L2 domains:
                        * "max" (sm.clock_max_mhz, default), "base", "tensor",
                        * "memory" (the sustained clocks sm.clock_*_mhz) */
    const char *form;  /* tensor form for the tensor unit, as gc_tensor_label
                        * prints it ("mma m16n8k16 f16.f32"); NULL = the rule:
                        * mma m16n8k16 f16.f32, else mma m16n8k8 f16.f32 */
} gc_accelsim_opts_t;

/* What an export did, for the summary line. */
typedef struct gc_accelsim_info {
    int n_options;       /* options written, both files */
    int n_arch;          /* values taken or derived from the arch */
    int n_const;         /* fixed constants (by design, see export.md) */
    int n_fallback;      /* constants used because the arch lacks a value */
    char fallbacks[512]; /* the arch keys those stand in for, comma-separated */
    char form[96];       /* the tensor form used */
    int indexing;        /* -gpgpu_memory_partition_indexing written */
    int n_mem;           /* -gpgpu_n_mem written */
    /* the arch figures the export used (for its microbenchmark traces) */
    double core_mhz;      /* SM clock of the core domain */
    double l2_hit_cyc;    /* L2 hit, weighted over near and far partitions */
    double l2_miss_cyc;   /* DRAM miss, weighted the same way */
    double tc_lat_cyc;    /* the tensor form's latency */
    double tc_issue_cyc;  /* its initiation interval per sub-core */
    int tc_m, tc_n, tc_k; /* its shape */
} gc_accelsim_info_t;

/* Render both files into malloc'd NUL-terminated buffers (*gpgpusim,
 * *trace; the caller frees them). Fails with GC_EINPUT and one line
 * "ARCHFILE: KEY is missing: ... needs it for OPTION (...)" when the arch
 * lacks a value, or a bad option value. Does not validate. */
int gc_accelsim_render(const gc_arch_t *a, const gc_accelsim_opts_t *o, char **gpgpusim,
                       char **trace, gc_accelsim_info_t *info, gc_err_t *err);

/* Render, validate with simcheck (a failure here is a gpucal bug: GC_ERUN),
 * create dir if needed, and write DIR/gpgpusim.config and DIR/trace.config
 * atomically. Without force an existing file is not replaced (GC_EEXIST)
 * and nothing is written. */
int gc_accelsim_export(const gc_arch_t *a, const gc_accelsim_opts_t *o, const char *dir, int force,
                       gc_accelsim_info_t *info, gc_err_t *err);

/* The key-by-key table as Markdown: which arch field, formula or constant
 * each option comes from and why (the generated part of model/export/export.md). */
void gc_accelsim_doc(FILE *fp);

#endif
