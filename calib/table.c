/* table.c - a trace read into typed columns (see table.h). */
#define _POSIX_C_SOURCE 200809L
#include "table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void free_cols(gc_table_t *t)
{
    for (int c = 0; c < t->ncols; c++) {
        if (t->num)
            free(t->num[c]);
        if (t->txt)
            free(t->txt[c]);
        if (t->dict && t->dict[c]) {
            for (size_t i = 0; i < t->ndict[c]; i++)
                free(t->dict[c][i]);
            free(t->dict[c]);
        }
    }
    for (int c = 0; t->hash && c < t->ncols; c++)
        free(t->hash[c]);
    free(t->hash);
    free(t->hcap);
    free(t->num);
    free(t->txt);
    free(t->dict);
    free(t->ndict);
    free(t->has);
    free(t->line);
}

void gc_table_free(gc_table_t *t)
{
    if (!t)
        return;
    free_cols(t);
    if (t->sink && t->agg)
        t->sink->destroy(t->agg);
    gc_trace_close(t->r);
    free(t);
}

int gc_table_col(const gc_table_t *t, const char *name)
{
    for (int c = 0; c < t->ncols; c++)
        if (!strcmp(t->cols[c].name, name))
            return c;
    return -1;
}

int gc_table_has(const gc_table_t *t, int col)
{
    return col >= 0 && col < t->ncols && t->has[col];
}

/* where row lives: streamed, only the current row is held, at slot 0 */
static size_t slot_of(const gc_table_t *t, size_t row)
{
    return t->sink ? 0 : row;
}

double gc_table_num(const gc_table_t *t, int col, size_t row)
{
    return t->num[col][slot_of(t, row)];
}

const char *gc_table_txt(const gc_table_t *t, int col, size_t row)
{
    return t->dict[col][t->txt[col][slot_of(t, row)]];
}

size_t gc_table_distinct(const gc_table_t *t, int col, double *out, size_t max)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double v = gc_table_num(t, col, r);
        size_t i = 0;
        while (i < n && out[i] != v)
            i++;
        if (i == n && n < max)
            out[n++] = v;
    }
    for (size_t i = 1; i < n; i++) /* insertion: a few values */
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            double x = out[j];
            out[j] = out[j - 1], out[j - 1] = x;
        }
    return n;
}

long gc_table_meta_line(const gc_table_t *t, const char *key)
{
    return gc_trace_meta_line(t->r, key);
}

/* column (1-based) of cell i in the current line */
static long cell_col(const gc_trace_reader_t *r, int i)
{
    return (long)(gc_trace_cell(r, i) - gc_trace_cell(r, 0)) + 1;
}

static int valid_word(const char *s)
{
    if (!*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
              *p == '-'))
            return 0;
    return 1;
}

/* FNV-1a: the hash of the intern tables */
static size_t hash_str(const char *s)
{
    size_t h = (size_t)1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * (size_t)1099511628211ULL;
    return h;
}

/* Double column c's hash table (open addressing, slots hold index + 1) and
 * re-insert every value. */
static int rehash(gc_table_t *t, int c)
{
    size_t cap = t->hcap[c] ? 2 * t->hcap[c] : 64;
    size_t *h = calloc(cap, sizeof(*h));
    if (!h)
        return -1;
    for (size_t i = 0; i < t->ndict[c]; i++) {
        size_t j = hash_str(t->dict[c][i]) & (cap - 1);
        while (h[j])
            j = (j + 1) & (cap - 1);
        h[j] = i + 1;
    }
    free(t->hash[c]);
    t->hash[c] = h;
    t->hcap[c] = cap;
    return 0;
}

/* The index of s among column c's distinct values, adding it if new:
 * O(1) expected through the hash table (issue 18: 120,000 distinct names
 * took 44 s with a linear search). */
static int intern(gc_table_t *t, int c, const char *s, int *out)
{
    if (2 * (t->ndict[c] + 1) > t->hcap[c] && rehash(t, c) != 0)
        return -1;
    size_t mask = t->hcap[c] - 1, j = hash_str(s) & mask;
    for (; t->hash[c][j]; j = (j + 1) & mask)
        if (!strcmp(t->dict[c][t->hash[c][j] - 1], s)) {
            *out = (int)(t->hash[c][j] - 1);
            return 0;
        }
    if (t->ndict[c] >= 0x7fffffff)
        return -1;
    if ((t->ndict[c] & (t->ndict[c] - 1)) == 0) { /* 0, 1, 2, 4, ...: grow to the next power */
        char **d = realloc(t->dict[c], (t->ndict[c] ? 2 * t->ndict[c] : 1) * sizeof(*d));
        if (!d)
            return -1;
        t->dict[c] = d;
    }
    size_t n = strlen(s) + 1;
    char *copy = malloc(n);
    if (!copy)
        return -1;
    memcpy(copy, s, n);
    t->dict[c][t->ndict[c]] = copy;
    t->hash[c][j] = t->ndict[c] + 1;
    *out = (int)t->ndict[c]++;
    return 0;
}

static int grow(gc_table_t *t, size_t *cap)
{
    size_t nc = *cap ? 2 * *cap : 1024;
    for (int c = 0; c < t->ncols; c++) {
        if (!t->has[c])
            continue;
        if (t->cols[c].kind == GC_COL_TEXT) {
            int *p = realloc(t->txt[c], nc * sizeof(*p));
            if (!p)
                return -1;
            t->txt[c] = p;
        } else {
            double *p = realloc(t->num[c], nc * sizeof(*p));
            if (!p)
                return -1;
            t->num[c] = p;
        }
    }
    int *l = realloc(t->line, nc * sizeof(*l));
    if (!l)
        return -1;
    t->line = l;
    *cap = nc;
    return 0;
}

/* Check and store one cell. */
static int put_cell(gc_table_t *t, int c, int ci, size_t row, gc_err_t *err)
{
    const gc_col_t *col = &t->cols[c];
    const gc_trace_reader_t *r = t->r;
    const char *path = gc_trace_path(r);
    long line = gc_trace_line(r);
    if (col->kind == GC_COL_TEXT) {
        const char *s = gc_trace_cell(r, ci);
        int ok = 0;
        if (col->choices) {
            for (const char *const *k = col->choices; *k && !ok; k++)
                ok = !strcmp(*k, s);
        } else {
            ok = valid_word(s);
        }
        if (!ok) {
            char list[256] = "";
            size_t at = 0;
            for (const char *const *k = col->choices; k && *k; k++) {
                int w = snprintf(list + at, sizeof(list) - at, "%s%s", at ? ", " : "", *k);
                if (w > 0 && (size_t)w < sizeof(list) - at)
                    at += (size_t)w;
            }
            if (col->choices)
                return gc_err_at(err, GC_EINPUT, path, line, cell_col(r, ci),
                                 "column '%s': '%.40s' is not one of: %s", col->name, s, list);
            return gc_err_at(err, GC_EINPUT, path, line, cell_col(r, ci),
                             "column '%s': '%.40s' is not a name of [a-z0-9._-]", col->name, s);
        }
        int id;
        if (intern(t, c, s, &id) != 0)
            return gc_err_set(err, GC_ENOMEM, "out of memory reading %s", path);
        t->txt[c][row] = id;
        return 0;
    }
    double v;
    int rc = gc_trace_num(r, ci, &v, err);
    if (rc)
        return rc;
    if (col->kind == GC_COL_WHOLE && v != floor(v))
        return gc_err_at(err, GC_EINPUT, path, line, cell_col(r, ci),
                         "column '%s': expected a whole number, found '%.40s'", col->name,
                         gc_trace_cell(r, ci));
    if (col->strict ? !(v > col->lo) : !(v >= col->lo))
        return gc_err_at(err, GC_EINPUT, path, line, cell_col(r, ci),
                         "column '%s': %.40s is out of range (must be %s %g)", col->name,
                         gc_trace_cell(r, ci), col->strict ? ">" : ">=", col->lo);
    t->num[c][row] = v;
    return 0;
}

/* A table for path's open reader r with the contract cols: the arrays
 * allocated, the columns found (a missing required one fails, naming the
 * header line); idx[c] the trace column of contract column c or -1. */
static int table_init(gc_table_t *t, const gc_col_t *cols, int ncols, int *idx, gc_err_t *err)
{
    int ridx[GC_TRACE_COLS_MAX], nreq = 0;
    const char *names[GC_TRACE_COLS_MAX];
    t->ncols = ncols;
    t->cols = cols;
    t->bench = gc_trace_meta(t->r, "bench");
    t->num = calloc((size_t)ncols, sizeof(*t->num));
    t->txt = calloc((size_t)ncols, sizeof(*t->txt));
    t->dict = calloc((size_t)ncols, sizeof(*t->dict));
    t->ndict = calloc((size_t)ncols, sizeof(*t->ndict));
    t->has = calloc((size_t)ncols, 1);
    t->hash = calloc((size_t)ncols, sizeof(*t->hash));
    t->hcap = calloc((size_t)ncols, sizeof(*t->hcap));
    if (!t->num || !t->txt || !t->dict || !t->ndict || !t->has || !t->hash || !t->hcap ||
        ncols > GC_TRACE_COLS_MAX)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    for (int c = 0; c < ncols; c++)
        if (!cols[c].optional)
            names[nreq++] = cols[c].name;
    int rc = gc_trace_cols(t->r, names, ridx, nreq, err);
    if (rc)
        return rc;
    for (int c = 0; c < ncols; c++) {
        idx[c] = gc_trace_col(t->r, cols[c].name);
        t->has[c] = idx[c] >= 0;
    }
    return 0;
}

/* Room for one more row (streamed: the one slot); fails past
 * GC_TABLE_ROWS_MAX kept rows or out of memory. */
static int room(gc_table_t *t, size_t *cap, gc_err_t *err)
{
    if (t->nrows < *cap || (t->sink && *cap))
        return 0;
    const char *path = gc_trace_path(t->r);
    if ((long)*cap >= GC_TABLE_ROWS_MAX)
        return gc_err_at(err, GC_ELIMIT, path, gc_trace_line(t->r), 0,
                         "more than %ld rows: calib reads at most that many per trace "
                         "(record fewer accesses)",
                         GC_TABLE_ROWS_MAX);
    if (grow(t, cap) != 0)
        return gc_err_set(err, GC_ENOMEM, "out of memory reading %s (%zu rows)", path, t->nrows);
    return 0;
}

/* Every data row: checked, stored (or handed to the sink), counted.
 * Returns 0 at the end of the file, <0 on the first error. */
static int read_rows(gc_table_t *t, const int *idx, gc_err_t *err)
{
    size_t cap = 0;
    int rc;
    while ((rc = gc_trace_next(t->r, err)) > 0) {
        if ((rc = room(t, &cap, err)) != 0)
            return rc;
        size_t slot = t->sink ? 0 : t->nrows;
        for (int c = 0; c < t->ncols; c++)
            if (t->has[c] && (rc = put_cell(t, c, idx[c], slot, err)) != 0)
                return rc;
        long line = gc_trace_line(t->r);
        t->line[slot] = line > 0x7fffffffL ? 0x7fffffff : (int)line;
        if (t->sink && (rc = t->sink->row(t->agg, t, t->nrows, err)) != 0)
            return rc;
        t->nrows++;
    }
    return rc;
}

/* The trace ended: refused unless its `end` trailer matches the rows. */
static int check_complete(gc_table_t *t, gc_err_t *err)
{
    if (gc_trace_complete(t->r))
        return 0;
    const char *path = gc_trace_path(t->r), *end = gc_trace_meta(t->r, "end");
    if (end)
        return gc_err_at(err, GC_EINPUT, path, gc_table_meta_line(t, "end"), 0,
                         "the 'end' trailer says %s rows, the trace has %zu (a truncated or "
                         "edited trace: re-measure the bench)",
                         end, t->nrows);
    return gc_err_at(err, GC_EINPUT, path, gc_trace_line(t->r) + 1, 0,
                     "incomplete trace: no 'end' trailer after %zu rows (the bench was "
                     "interrupted: finish it with `gpucal measure --resume` or re-measure)",
                     t->nrows);
}

int gc_table_stream(gc_table_t **out, const char *path, const gc_col_t *cols, int ncols,
                    const gc_table_sink_t *sink, gc_err_t *err)
{
    *out = NULL;
    gc_table_t *t = calloc(1, sizeof(*t));
    if (!t)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int rc = gc_trace_open(&t->r, path, err);
    if (rc) {
        free(t);
        return rc;
    }
    int idx[GC_TRACE_COLS_MAX];
    t->sink = sink;
    if (sink && !(t->agg = sink->create()))
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    if (rc || (rc = table_init(t, cols, ncols, idx, err)) != 0 ||
        (rc = read_rows(t, idx, err)) != 0 || (rc = check_complete(t, err)) != 0) {
        gc_table_free(t);
        return rc;
    }
    *out = t;
    return 0;
}

int gc_table_read(gc_table_t **out, const char *path, const gc_col_t *cols, int ncols,
                  gc_err_t *err)
{
    return gc_table_stream(out, path, cols, ncols, NULL, err);
}

int gc_table_check_ci(const gc_table_t *t, const char *file, size_t row, int cv, int clo, int chi,
                      gc_err_t *err)
{
    double v = gc_table_num(t, cv, row), lo = gc_table_num(t, clo, row),
           hi = gc_table_num(t, chi, row);
    if (lo <= v && v <= hi)
        return 0;
    return gc_err_at(err, GC_EINPUT, file, t->line[slot_of(t, row)], 0,
                     "%s %g is outside its interval [%s %g, %s %g] (a corrupt row: "
                     "re-measure)",
                     t->cols[cv].name, v, t->cols[clo].name, lo, t->cols[chi].name, hi);
}
