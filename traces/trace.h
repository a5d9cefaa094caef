/* trace.h - the gpucal trace format (gpucal-trace/1): reader and writer.
 *
 * A trace is plain CSV with '#' metadata lines (see traces/README.md):
 *
 *   # gpucal-trace: 1
 *   # bench: mma
 *   # device: NVIDIA H100 80GB HBM3
 *   inst,shape,a_type,...          <- the first line not starting with '#'
 *   mma,m16n8k16,f16,...           <- data rows, as many cells as columns
 *   # end: 1234                    <- trailer: the bench finished, N rows
 *
 * This library is shared by measure (on the GPU host: needs libc only) and
 * calib. The reader streams rows, so a trace of any length is read in
 * memory bounded by its longest line. The writer appends rows to
 * "PATH.part", flushed row by row so an interrupted run keeps what it
 * measured, and renames it to PATH only when the bench completed.
 */
#ifndef GC_TRACE_H
#define GC_TRACE_H

#include <stddef.h>

#include "../util/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GC_TRACE_VERSION 1
#define GC_TRACE_LINE_MAX 65536 /* bytes per line, newline included */
#define GC_TRACE_COLS_MAX 256
#define GC_TRACE_META_MAX 256
#define GC_TRACE_HEAD_LINES_MAX 4096 /* lines before the column header (comments, blanks) */
#define GC_TRACE_BYTES_MAX (16LL << 30) /* bytes per trace: stops an endless input (a FIFO) */

/* ---- reader ---- */

typedef struct gc_trace_reader gc_trace_reader_t;

/* Open path and read its metadata and column header. Fails (GC_EINPUT,
 * message "FILE:LINE:COL: ...") on a missing or unknown-major
 * gpucal-trace version, a malformed metadata line, an empty header, or
 * duplicate column names. */
int gc_trace_open(gc_trace_reader_t **r, const char *path, gc_err_t *err);

/* Close and free (NULL is a no-op). */
void gc_trace_close(gc_trace_reader_t *r);

/* Metadata value for key, or NULL. Trailer keys (after the rows) are
 * visible once gc_trace_next has returned 0. */
const char *gc_trace_meta(const gc_trace_reader_t *r, const char *key);

/* Metadata value for key parsed as a number; fails with FILE:LINE when
 * absent (required) or not a finite number. */
int gc_trace_meta_num(const gc_trace_reader_t *r, const char *key, double *v, gc_err_t *err);

/* Parse a compute capability "MAJOR.MINOR" (digits only, 1-2 each,
 * MAJOR >= 1): 0 and the two numbers, or -1. The one parser of cc: the
 * reader checks the header's cc with it, calib maps it to a family. */
int gc_trace_parse_cc(const char *s, int *major, int *minor);

/* Line of metadata key in the file (header or trailer), or 0 if absent. */
long gc_trace_meta_line(const gc_trace_reader_t *r, const char *key);

size_t gc_trace_meta_count(const gc_trace_reader_t *r);
void gc_trace_meta_at(const gc_trace_reader_t *r, size_t i, const char **key, const char **val);

const char *gc_trace_path(const gc_trace_reader_t *r);
int gc_trace_ncols(const gc_trace_reader_t *r);
const char *gc_trace_colname(const gc_trace_reader_t *r, int i);

/* Index of column name, or -1. */
int gc_trace_col(const gc_trace_reader_t *r, const char *name);

/* Look up n column names into idx[]; a missing one is an error naming the
 * header line and the columns the caller needs. */
int gc_trace_cols(const gc_trace_reader_t *r, const char *const *names, int *idx, int n,
                  gc_err_t *err);

/* Read the next data row: 1 = a row is ready, 0 = end of file, <0 = error
 * (wrong cell count, a line too long, a quoted cell, a stray byte). */
int gc_trace_next(gc_trace_reader_t *r, gc_err_t *err);

/* Line number (1-based) of the current row. */
long gc_trace_line(const gc_trace_reader_t *r);

/* Cell i of the current row (never NULL for 0 <= i < ncols). */
const char *gc_trace_cell(const gc_trace_reader_t *r, int i);

/* Cell i parsed as a finite double / a long integer; the error names
 * FILE:LINE:COL, the column and what was found. */
int gc_trace_num(const gc_trace_reader_t *r, int i, double *v, gc_err_t *err);
int gc_trace_long(const gc_trace_reader_t *r, int i, long *v, gc_err_t *err);

/* Data rows read so far. */
long gc_trace_rows(const gc_trace_reader_t *r);

/* Byte offset just after the last line read (a row boundary once
 * gc_trace_next returned 1); after gc_trace_open, the end of the header. */
long gc_trace_offset(const gc_trace_reader_t *r);

/* After gc_trace_next returned 0: 1 if the trace ends with an "end"
 * trailer whose row count matches, else 0 (an interrupted trace). */
int gc_trace_complete(const gc_trace_reader_t *r);

/* ---- writer ---- */

typedef struct gc_trace_writer gc_trace_writer_t;

enum { GC_TRACE_FORCE = 1 };

/* Start PATH: rows go to "PATH.part" until gc_trace_finish. Fails with
 * GC_EEXIST if PATH exists and flags lacks GC_TRACE_FORCE, or if
 * PATH.part exists (an interrupted run: resume it or remove it). */
int gc_trace_create(gc_trace_writer_t **w, const char *path, int flags, gc_err_t *err);

/* Add a metadata line (before gc_trace_columns, or after rows as a
 * trailer). key is [a-z0-9_]+; the value is one line. */
int gc_trace_put_meta(gc_trace_writer_t *w, const char *key, const char *fmt, ...)
    GC_PRINTF(3, 4);

/* Write the column header; exactly once, before the first row. */
int gc_trace_columns(gc_trace_writer_t *w, const char *const *names, int n);

/* Write one row from n cells / from a printf format producing the cells
 * separated by commas. The cell count must equal the column count. The
 * row is flushed to disk before the call returns. */
int gc_trace_row(gc_trace_writer_t *w, const char *const *cells, int n);
int gc_trace_rowf(gc_trace_writer_t *w, const char *fmt, ...) GC_PRINTF(2, 3);

/* Rows written so far. */
long gc_trace_written(const gc_trace_writer_t *w);

/* Continue an interrupted trace: open "PATH.part", cut it to its first
 * keep_bytes bytes (a row boundary from gc_trace_offset on r, a reader of
 * that same file, holding the header and `rows` data rows) and append after
 * them. On the reopened writer gc_trace_columns only checks that the names
 * match, and gc_trace_put_meta skips a key r already has with the same
 * value (a changed value is written as a `note`). r must stay open until
 * this returns. */
int gc_trace_reopen(gc_trace_writer_t **w, const char *path, const gc_trace_reader_t *r,
                    long keep_bytes, long rows, int flags, gc_err_t *err);

/* Cut the trace being written back to keep_bytes bytes holding `rows`
 * data rows (a row boundary), e.g. to drop a half-written unit. */
int gc_trace_truncate(gc_trace_writer_t *w, long keep_bytes, long rows);

/* Append the "end" trailer, fsync, and move PATH.part to PATH; frees w. */
int gc_trace_finish(gc_trace_writer_t *w, gc_err_t *err);

/* Stop without finishing: PATH.part stays on disk with every row written
 * so far (for --resume); frees w. NULL is a no-op. */
void gc_trace_abandon(gc_trace_writer_t *w);

/* The last error of a writer call that returned <0. */
const gc_err_t *gc_trace_writer_err(const gc_trace_writer_t *w);

#ifdef __cplusplus
}
#endif

#endif
