/* benches.h - the bench table: every bench's name, what it measures, and
 * its columns (name, type, unit, meaning, the range calib accepts) in the
 * order the trace has them. One table for the three readers of the
 * contract: the measurement writes its column header through it
 * (gc_bench_columns), calib builds the contract it reads a trace with from
 * it (calib/calib.c), and traces/README.md's column reference is generated
 * from it (`gpucal trace columns`, checked by tests/trace_docs.sh).
 *
 * libc only (the measurement binary links it). A new bench or column is a
 * row here (docs/extending.md).
 */
#ifndef GC_BENCHES_H
#define GC_BENCHES_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Cell types. */
enum gc_bcol_type {
    GC_BCOL_TEXT,  /* a name: one of choices, or [a-z0-9._-]+ (NULL choices) */
    GC_BCOL_NUM,   /* a finite number */
    GC_BCOL_WHOLE, /* a whole number */
};

/* What calib does with a column. */
enum gc_bcol_use {
    GC_BCOL_UNREAD,   /* written, not read by calib */
    GC_BCOL_REQUIRED, /* read; a trace without it is refused */
    GC_BCOL_OPTIONAL, /* read when present (older traces lack it) */
};

typedef struct gc_bench_col {
    const char *name;
    int type;                   /* enum gc_bcol_type */
    const char *unit;           /* "cycles", "MHz", "bytes", ... ("-": a name) */
    const char *what;           /* one phrase */
    double lo;                  /* numbers: the smallest value calib accepts */
    int strict;                 /* 1: the value must be > lo */
    const char *const *choices; /* text: allowed values, NULL-terminated (NULL: any name) */
    int use;                    /* enum gc_bcol_use */
} gc_bench_col_t;

typedef struct gc_bench_spec {
    const char *name;  /* the bench, its trace file <name>.csv */
    const char *what;  /* what it measures, one sentence */
    const gc_bench_col_t *cols;
    int ncols;
} gc_bench_spec_t;

/* Every bench, in the order calib runs their handlers; *list gets the array. */
size_t gc_bench_specs(const gc_bench_spec_t **list);

/* The bench called name, or NULL. */
const gc_bench_spec_t *gc_bench_spec(const char *name);

/* The column names of b, in trace order, into names (room for max); the
 * count, or -1 when max is too small. For gc_trace_columns. */
int gc_bench_columns(const gc_bench_spec_t *b, const char **names, int max);

/* The column reference as Markdown (traces/README.md's generated section). */
void gc_bench_doc(FILE *fp);

#ifdef __cplusplus
}
#endif

#endif
