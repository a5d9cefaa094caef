/* table.h - one trace read into typed columns for calib.
 *
 * A bench's column contract (built from the bench table, traces/benches.c)
 * is a list of gc_col_t: the columns calib uses, each with a kind (number, whole number, text from a
 * fixed set) and limits. gc_table_read streams the trace once, checks every
 * cell it keeps and fails on the first bad one with the trace reader's
 * located message "FILE:LINE:COL: ..." (exit status 2 at the CLI). Columns
 * a bench has but calib does not use are not parsed. A trace without its
 * matching `end` trailer (an interrupted run) is refused.
 *
 * Text cells are interned: each text column keeps its distinct values
 * (few: inst, shape, path, ...; found through a hash table, so many are
 * fine too) and a row stores an index.
 */
#ifndef GC_TABLE_H
#define GC_TABLE_H

#include <stddef.h>

#include "../traces/trace.h"
#include "../util/err.h"

#define GC_TABLE_ROWS_MAX 50000000L /* rows per trace calib accepts */

enum gc_col_kind {
    GC_COL_NUM,   /* finite number >= lo */
    GC_COL_WHOLE, /* whole number >= lo */
    GC_COL_TEXT,  /* one of choices (NULL choices: [a-z0-9._-]+) */
};

typedef struct gc_col {
    const char *name;
    int kind;                   /* enum gc_col_kind */
    double lo;                  /* smallest value allowed (numbers) */
    int strict;                 /* 1: the value must be > lo */
    const char *const *choices; /* text: allowed values, NULL-terminated */
    int optional;               /* 1: a trace may lack it (gc_table_has says) */
} gc_col_t;

struct gc_table;

/* A bench read as it streams: rows are not kept but handed one by one to
 * row(), whose aggregate (made by create(), NULL when out of memory; freed
 * by destroy() with the table) stays in t->agg for the handler. Inside
 * row(), the row's cells are read with gc_table_num/gc_table_txt at `row`
 * (its 0-based index); no other row is readable. Memory is then bounded
 * by what the aggregate keeps, not by the rows (issue 18). */
typedef struct gc_table_sink {
    void *(*create)(void);
    int (*row)(void *agg, const struct gc_table *t, size_t row, gc_err_t *err);
    void (*destroy)(void *agg);
} gc_table_sink_t;

typedef struct gc_table {
    gc_trace_reader_t *r; /* still open: metadata (and trailer) lookups */
    const char *bench;    /* the bench header value */
    int ncols;
    const gc_col_t *cols; /* the contract it was read with */
    size_t nrows;
    unsigned char *has; /* has[c]: the trace has column c (optional ones may lack it) */
    double **num;       /* num[c][row] (numeric columns) */
    int **txt;          /* txt[c][row]: index into dict[c] (text columns) */
    char ***dict;       /* dict[c][i]: distinct values of text column c */
    size_t *ndict;
    size_t **hash;      /* hash[c]: open-addressing table of dict[c] (index + 1; 0 empty) */
    size_t *hcap;       /* its size, a power of two */
    int *line; /* trace line of each row */
    const gc_table_sink_t *sink; /* streamed: rows live one at a time, at slot 0 */
    void *agg;                   /* the sink's aggregate */
} gc_table_t;

/* Read the trace at path with ncols columns cols (all required but the
 * optional ones). */
int gc_table_read(gc_table_t **t, const char *path, const gc_col_t *cols, int ncols, gc_err_t *err);

/* The same, streamed through sink (NULL: rows kept, as gc_table_read);
 * t->nrows counts the rows seen. */
int gc_table_stream(gc_table_t **t, const char *path, const gc_col_t *cols, int ncols,
                    const gc_table_sink_t *sink, gc_err_t *err);

void gc_table_free(gc_table_t *t);

/* Column index by name (-1 if not in the contract). */
int gc_table_col(const gc_table_t *t, const char *name);

/* 1 if the trace has column col (always, for a required column). */
int gc_table_has(const gc_table_t *t, int col);

/* Cell values by column index. */
double gc_table_num(const gc_table_t *t, int col, size_t row);
const char *gc_table_txt(const gc_table_t *t, int col, size_t row);

/* The distinct values of numeric column col in out[], ascending: the first
 * max of them in row order; returns how many. Not for a streamed table. */
size_t gc_table_distinct(const gc_table_t *t, int col, double *out, size_t max);

/* The line of the metadata key in the file (for messages), or 0. */
long gc_table_meta_line(const gc_table_t *t, const char *key);

/* A row's value and its interval: 0 if lo <= v <= hi (columns cv, clo, chi),
 * else GC_EINPUT naming FILE:LINE and the three values (a corrupt row). */
int gc_table_check_ci(const gc_table_t *t, const char *file, size_t row, int cv, int clo, int chi,
                      gc_err_t *err);

#endif
