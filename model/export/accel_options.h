/* accel_options.h - the simulator's option list as data: every option
 * GPGPU-Sim / Accel-Sim registers, the misspellings worth a hint, and what
 * each option's value must look like. simcheck.c (the validator) reads these
 * tables; accelsim.c (the exporter) writes options from the same list.
 * A simulator release that registers a new option is one new row here.
 */
#ifndef GC_ACCEL_OPTIONS_H
#define GC_ACCEL_OPTIONS_H

#include <stddef.h>

/* Names of the simulator's options with their '-', then the DRAM-timing
 * sub-option names (no '-'); sorted by strcmp (bsearch). */
extern const char *const gc_accel_option_names[];
extern const size_t gc_accel_n_option_names;

/* {misspelling, the simulator's own spelling} */
extern const char *const gc_accel_respell[][2];
extern const size_t gc_accel_n_respell;

/* ---- what each option's value must look like ---- */

typedef enum {
    V_ANY,    /* not typed here: only the placeholder check */
    V_UINT,   /* whole number >= 0 */
    V_POS,    /* whole number > 0 */
    V_INT,    /* whole number, may be negative */
    V_BOOL,   /* 0 or 1 */
    V_LIST,   /* comma-separated whole numbers > 0, nmin..nmax fields */
    V_WIDTHS, /* -gpgpu_pipeline_widths: 13 whole numbers >= 0 */
    V_PAIR,   /* <latency>,<initiation interval> */
    V_SPEC,   /* <enabled>,<num_units>,<max_latency>,<ID_OC>,<OC_EX>,<NAME> */
    V_CACHE,  /* a cache geometry and policy string */
    V_CLOCKS, /* <core>:<icnt>:<l2>:<dram> MHz */
    V_PIPE,   /* <threads>:<warp size> */
    V_QUEUES, /* four whole numbers separated by ':' */
    V_MAP,    /* [dramid@N;]64 address bits */
    V_TIMING, /* name=value:name=value... */
    V_SHMEM,  /* increasing comma-separated KiB */
    V_SCHED,  /* a warp scheduler name */
    V_INDEX,  /* memory partition indexing 0..6 */
} vkind_t;

typedef struct gc_accel_rule {
    const char *name;
    vkind_t k;
    int nmin, nmax;
} gc_accel_rule_t;

/* The value kind of each option checked on its own (the others: V_ANY). */
extern const gc_accel_rule_t gc_accel_rules[];
extern const size_t gc_accel_n_rules;

#endif
