/* trace.c - gpucal-trace/1 reader and writer (see trace.h, traces/README.md).
 * Depends on libc only: it is compiled into the measurement binary too. */
#define _POSIX_C_SOURCE 200809L
#include "trace.h"
#include "../util/fsio.h"
#include "../util/iotrack.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct meta {
    char *key;
    char *val;
    long line;
} meta_t;

struct gc_trace_reader {
    FILE *fp;
    long offset;          /* bytes consumed: just after the last line read */
    char *path;
    long line;            /* line number of the last line read */
    char *buf;            /* current line, cut into cells in place */
    meta_t meta[GC_TRACE_META_MAX];
    size_t nmeta;
    char *colbuf;         /* header line, cut into names */
    char *cols[GC_TRACE_COLS_MAX];
    int ncols;
    long header_line;
    char *cells[GC_TRACE_COLS_MAX];
    long rows;
    long end_rows;        /* value of the "end" trailer, -1 if none */
    int after_end;        /* a data row came after the "end" trailer */
};


/* Read one line into r->buf without its newline. Returns 1, 0 at EOF, <0.
 * The bytes are checked as they come, so a binary file (NULs, /dev/zero)
 * is refused at its first control byte, with its line and column, and an
 * endless input stops at GC_TRACE_LINE_MAX (one line) or GC_TRACE_BYTES_MAX
 * (the whole file). A CR is allowed only just before the newline; tab is
 * the one other C0 byte allowed (blank space in metadata), and DEL (0x7f)
 * is refused like the C0 bytes. Bytes from 0x80 (UTF-8 text) pass. */
static int read_line(gc_trace_reader_t *r, gc_err_t *err)
{
    size_t n = 0;
    int c = EOF;
    while ((c = getc_unlocked(r->fp)) != EOF) {
        if (c == '\n')
            break;
        unsigned char u = (unsigned char)c;
        if ((u < 0x20 && u != '\t' && u != '\r') || u == 0x7f)
            return gc_err_at(err, GC_EINPUT, r->path, r->line + 1, (long)n + 1,
                             "control byte 0x%02x: not a text trace (is this a binary file?)",
                             u);
        if (n == GC_TRACE_LINE_MAX - 1)
            return gc_err_at(err, GC_ELIMIT, r->path, r->line + 1, 0,
                             "line longer than %d bytes (a trace line is one CSV row or one "
                             "'# key: value' line)",
                             GC_TRACE_LINE_MAX - 1);
        r->buf[n++] = (char)c;
    }
    if (c == EOF && ferror(r->fp))
        return gc_err_set(err, GC_EIO, "%s: read error", r->path);
    if (c == EOF && n == 0)
        return 0;
    r->line++;
    r->offset += (long)n + (c == '\n');
    if (r->offset > GC_TRACE_BYTES_MAX)
        return gc_err_at(err, GC_ELIMIT, r->path, r->line, 0,
                         "the trace is larger than %lld bytes, the most gpucal reads (is it "
                         "the right file? split the bench into several runs)",
                         (long long)GC_TRACE_BYTES_MAX);
    while (n && r->buf[n - 1] == '\r')
        n--;
    r->buf[n] = '\0';
    char *cr = memchr(r->buf, '\r', n);
    if (cr)
        return gc_err_at(err, GC_EINPUT, r->path, r->line, (long)(cr - r->buf) + 1,
                         "control byte 0x0d inside a line: not a text trace (is this a binary "
                         "file?)");
    return 1;
}

static int valid_key(const char *k, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(islower((unsigned char)k[i]) || isdigit((unsigned char)k[i]) || k[i] == '_' ||
              k[i] == '-'))
            return 0;
    return 1;
}

int gc_trace_parse_cc(const char *s, int *major, int *minor)
{
    int v[2] = {0, 0};
    for (int part = 0; part < 2; part++) {
        int digits = 0;
        while (*s >= '0' && *s <= '9' && digits < 3) {
            v[part] = v[part] * 10 + (*s++ - '0');
            digits++;
        }
        if (digits == 0 || digits > 2 || (part == 0 && *s++ != '.'))
            return -1;
    }
    if (*s || v[0] < 1)
        return -1;
    *major = v[0];
    *minor = v[1];
    return 0;
}

/* The header keys with a physical range (traces/README.md, "Header
 * values"): a value outside it is a corrupt or hand-edited header, refused
 * where it is read so that every reader (trace check, calib) agrees. */
typedef struct key_range {
    const char *key;
    double lo, hi; /* inclusive */
    int whole;     /* 1: a whole number */
} key_range_t;

static const key_range_t key_ranges[] = {
    {"sms", 1, 1024, 1},                   /* largest GPU today: 148 SMs (B200) */
    {"sm_clock_mhz", 1, 10000, 0},         /* SM clocks: 100 MHz idle .. ~3 GHz boost */
    {"sm_clock_end_mhz", 1, 10000, 0},
    {"sm_clock_host_mhz", 1, 10000, 0},
    {"clock_max_mhz", 1, 10000, 0},
    {"mem_clock_mhz", 1, 100000, 0},        /* CUDA's memory clock: ~1.2 GHz HBM .. ~16 GHz GDDR7 */
    {"l2_bytes", 65536, 1073741824.0, 1},   /* 64 KiB .. 1 GiB; L2 today: 256 KiB .. 126 MiB */
    {"smem_optin_bytes", 1024, 4194304.0, 1}, /* 1 KiB .. 4 MiB (the arch file's bound);
                                               * today at most 228 KiB */
    {"mem_bus_bits", 8, 65536, 1},          /* 8-bit bus .. 16x an H100's 5120 bits */
};

/* Check the value v of key (one metadata line, v at column col). */
static int check_value(gc_trace_reader_t *r, const char *key, const char *v, long col,
                       gc_err_t *err)
{
    int maj, min;
    if (!strcmp(key, "cc"))
        return gc_trace_parse_cc(v, &maj, &min) == 0
                   ? 0
                   : gc_err_at(err, GC_EINPUT, r->path, r->line, col,
                               "cc '%.40s' is not a compute capability MAJOR.MINOR such as 9.0",
                               v);
    for (size_t i = 0; i < sizeof(key_ranges) / sizeof(key_ranges[0]); i++) {
        const key_range_t *k = &key_ranges[i];
        if (strcmp(key, k->key) != 0)
            continue;
        char *e;
        errno = 0;
        double x = strtod(v, &e);
        int decimal = strspn(v, "0123456789.eE+-") == strlen(v); /* no hex, inf or nan */
        if (!decimal || e == v || *e || !isfinite(x) || errno == ERANGE || x < k->lo || x > k->hi ||
            (k->whole && x != floor(x)))
            return gc_err_at(err, GC_EINPUT, r->path, r->line, col,
                             "%s '%.40s' must be a %s from %.10g to %.10g (traces/README.md, "
                             "header values)",
                             key, v, k->whole ? "whole number" : "number", k->lo, k->hi);
    }
    return 0;
}

/* Parse "# key: value" in r->buf and record it. */
static int add_meta(gc_trace_reader_t *r, gc_err_t *err)
{
    const char *s = r->buf;
    if (s[1] == '\0')
        return 0; /* a lone '#' is a blank comment */
    if (s[1] != ' ')
        return gc_err_at(err, GC_EINPUT, r->path, r->line, 2,
                         "metadata lines are '# key: value' (a space after '#')");
    const char *k = s + 2;
    const char *colon = strchr(k, ':');
    if (!colon || !valid_key(k, (size_t)(colon - k)))
        return gc_err_at(err, GC_EINPUT, r->path, r->line, 3,
                         "metadata lines are '# key: value' with key in [a-z0-9_-]");
    size_t kn = (size_t)(colon - k);
    const char *v = colon + 1;
    while (*v == ' ' || *v == '\t')
        v++;
    size_t vn = strlen(v);
    while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\t'))
        vn--;
    if (kn == 3 && memcmp(k, "end", 3) == 0) {
        char *e;
        errno = 0;
        long rows = strtol(v, &e, 10);
        if (e == v || rows < 0 || errno)
            return gc_err_at(err, GC_EINPUT, r->path, r->line, (long)(v - s) + 1,
                             "'end' takes the number of data rows");
        r->end_rows = rows;
    }
    if (kn < 64) {
        char key[64], val[64];
        memcpy(key, k, kn);
        key[kn] = '\0';
        snprintf(val, sizeof(val), "%.*s", (int)(vn < 63 ? vn : 63), v);
        int rc = check_value(r, key, vn < 63 ? val : v, (long)(v - s) + 1, err);
        if (rc)
            return rc;
    }
    for (size_t i = 0; i < r->nmeta; i++)
        if (strlen(r->meta[i].key) == kn && memcmp(r->meta[i].key, k, kn) == 0 &&
            !(kn == 4 && memcmp(k, "note", 4) == 0))
            return gc_err_at(err, GC_EINPUT, r->path, r->line, 3,
                             "metadata key '%.*s' given twice (first on line %ld)", (int)kn, k,
                             r->meta[i].line);
    if (r->nmeta == GC_TRACE_META_MAX)
        return gc_err_at(err, GC_ELIMIT, r->path, r->line, 0,
                         "more than %d metadata lines", GC_TRACE_META_MAX);
    meta_t *m = &r->meta[r->nmeta];
    m->key = malloc(kn + 1);
    m->val = malloc(vn + 1);
    if (!m->key || !m->val) {
        free(m->key);
        free(m->val);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    memcpy(m->key, k, kn);
    m->key[kn] = '\0';
    memcpy(m->val, v, vn);
    m->val[vn] = '\0';
    m->line = r->line;
    r->nmeta++;
    return 0;
}

/* Cut r->buf-like line into cells at commas; returns count or <0. */
static int split(gc_trace_reader_t *r, char *line, char **out, gc_err_t *err)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (n == GC_TRACE_COLS_MAX)
            return gc_err_at(err, GC_ELIMIT, r->path, r->line, (long)(p - line) + 1,
                             "more than %d cells in a row", GC_TRACE_COLS_MAX);
        out[n++] = p;
        char *c = strchr(p, ',');
        char *q = strchr(p, '"');
        if (q && (!c || q < c))
            return gc_err_at(err, GC_EINPUT, r->path, r->line, (long)(q - line) + 1,
                             "quoted cells are not part of the trace format (cells never "
                             "contain commas or quotes)");
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    return n;
}

void gc_trace_close(gc_trace_reader_t *r)
{
    if (!r)
        return;
    if (r->fp)
        fclose(r->fp);
    for (size_t i = 0; i < r->nmeta; i++) {
        free(r->meta[i].key);
        free(r->meta[i].val);
    }
    free(r->buf);
    free(r->colbuf);
    free(r->path);
    free(r);
}

/* A reader of path with its buffers, the file open (not a folder), nothing
 * read yet. */
static int reader_new(gc_trace_reader_t **out, const char *path, gc_err_t *err)
{
    gc_trace_reader_t *r = calloc(1, sizeof(*r));
    *out = r;
    if (!r)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    r->end_rows = -1;
    r->path = gc_strdup(path);
    r->buf = malloc(GC_TRACE_LINE_MAX);
    if (!r->path || !r->buf)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    r->fp = fopen(path, "rb");
    gc_io_note_input(path); /* no command may write over it (util/iotrack.h) */
    if (!r->fp)
        return gc_err_set(err, GC_EINPUT, "%s: cannot open: %s (check the path)", path,
                          strerror(errno));
    struct stat st;
    if (fstat(fileno(r->fp), &st) == 0 && S_ISDIR(st.st_mode))
        return gc_err_set(err, GC_EINPUT, "%s: is a directory, expected a trace file", path);
    return 0;
}

/* The metadata lines (and blank lines) up to the column header, which is
 * left in r->buf; at most GC_TRACE_HEAD_LINES_MAX lines, so an endless
 * input of comments stops. */
static int read_head(gc_trace_reader_t *r, gc_err_t *err)
{
    for (;;) {
        int rc = read_line(r, err);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return gc_err_at(err, GC_EINPUT, r->path, r->line + 1, 0,
                             "no column header: the file ends before the first CSV line "
                             "(truncated or empty trace)");
        if (r->line > GC_TRACE_HEAD_LINES_MAX)
            return gc_err_at(err, GC_ELIMIT, r->path, r->line, 0,
                             "no column header in the first %d lines (a trace has at most %d "
                             "metadata lines before its header)",
                             GC_TRACE_HEAD_LINES_MAX, GC_TRACE_META_MAX);
        if (r->buf[0] == '\0')
            continue;
        if (r->buf[0] != '#')
            return 0;
        if ((rc = add_meta(r, err)) < 0)
            return rc;
    }
}

/* The version: the first key, and a major this reader knows. */
static int check_version(gc_trace_reader_t *r, gc_err_t *err)
{
    const char *v = gc_trace_meta(r, "gpucal-trace");
    if (!v || r->nmeta == 0 || strcmp(r->meta[0].key, "gpucal-trace") != 0)
        return gc_err_at(err, GC_EINPUT, r->path, 1, 1,
                         "not a gpucal trace: the first line must be '# gpucal-trace: %d'",
                         GC_TRACE_VERSION);
    char *e;
    long major = strtol(v, &e, 10);
    if (e == v || (*e && *e != '.') || major != GC_TRACE_VERSION)
        return gc_err_at(err, GC_EINPUT, r->path, r->meta[0].line, 3,
                         "trace format version '%s' is not supported (this gpucal reads "
                         "version %d; re-measure or upgrade gpucal)",
                         v, GC_TRACE_VERSION);
    return 0;
}

/* The column header in r->buf: names of [a-z0-9_-]+, none twice. */
static int read_columns(gc_trace_reader_t *r, gc_err_t *err)
{
    r->header_line = r->line;
    r->colbuf = gc_strdup(r->buf);
    if (!r->colbuf)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int rc = split(r, r->colbuf, r->cols, err);
    if (rc < 0)
        return rc;
    r->ncols = rc;
    for (int i = 0; i < r->ncols; i++) {
        if (!valid_key(r->cols[i], strlen(r->cols[i])))
            return gc_err_at(err, GC_EINPUT, r->path, r->line, 0,
                             "column %d name '%s' is not [a-z0-9_-]+ (is a data row missing "
                             "its header line?)",
                             i + 1, r->cols[i]);
        for (int j = 0; j < i; j++)
            if (strcmp(r->cols[i], r->cols[j]) == 0)
                return gc_err_at(err, GC_EINPUT, r->path, r->line, 0,
                                 "column '%s' appears twice in the header", r->cols[i]);
    }
    return 0;
}

int gc_trace_open(gc_trace_reader_t **out, const char *path, gc_err_t *err)
{
    gc_trace_reader_t *r;
    *out = NULL;
    int rc = reader_new(&r, path, err);
    if (!rc && !(rc = read_head(r, err)) && !(rc = check_version(r, err)))
        rc = read_columns(r, err);
    if (rc) {
        gc_trace_close(r);
        return rc;
    }
    *out = r;
    return 0;
}

const char *gc_trace_meta(const gc_trace_reader_t *r, const char *key)
{
    for (size_t i = 0; i < r->nmeta; i++)
        if (strcmp(r->meta[i].key, key) == 0)
            return r->meta[i].val;
    return NULL;
}

int gc_trace_meta_num(const gc_trace_reader_t *r, const char *key, double *v, gc_err_t *err)
{
    for (size_t i = 0; i < r->nmeta; i++) {
        if (strcmp(r->meta[i].key, key) != 0)
            continue;
        char *e;
        errno = 0;
        double x = strtod(r->meta[i].val, &e);
        while (*e == ' ')
            e++;
        if (e == r->meta[i].val || *e || !isfinite(x) || errno == ERANGE)
            return gc_err_at(err, GC_EINPUT, r->path, r->meta[i].line, 3,
                             "metadata '%s' must be a finite number, found '%s'", key,
                             r->meta[i].val);
        *v = x;
        return 0;
    }
    return gc_err_at(err, GC_EINPUT, r->path, 1, 0,
                     "metadata key '%s' is missing from the header (traces/README.md lists "
                     "the required keys)",
                     key);
}

long gc_trace_meta_line(const gc_trace_reader_t *r, const char *key)
{
    for (size_t i = 0; i < r->nmeta; i++)
        if (!strcmp(r->meta[i].key, key))
            return r->meta[i].line;
    return 0;
}

size_t gc_trace_meta_count(const gc_trace_reader_t *r)
{
    return r->nmeta;
}

void gc_trace_meta_at(const gc_trace_reader_t *r, size_t i, const char **key, const char **val)
{
    *key = r->meta[i].key;
    *val = r->meta[i].val;
}

const char *gc_trace_path(const gc_trace_reader_t *r)
{
    return r->path;
}

int gc_trace_ncols(const gc_trace_reader_t *r)
{
    return r->ncols;
}

const char *gc_trace_colname(const gc_trace_reader_t *r, int i)
{
    return r->cols[i];
}

int gc_trace_col(const gc_trace_reader_t *r, const char *name)
{
    for (int i = 0; i < r->ncols; i++)
        if (strcmp(r->cols[i], name) == 0)
            return i;
    return -1;
}

int gc_trace_cols(const gc_trace_reader_t *r, const char *const *names, int *idx, int n,
                  gc_err_t *err)
{
    for (int i = 0; i < n; i++) {
        idx[i] = gc_trace_col(r, names[i]);
        if (idx[i] < 0) {
            char want[512];
            size_t at = 0;
            want[0] = '\0';
            for (int j = 0; j < n && at < sizeof(want) - 1; j++) {
                int k = snprintf(want + at, sizeof(want) - at, "%s%s", j ? "," : "", names[j]);
                if (k < 0)
                    break;
                at += (size_t)k;
            }
            return gc_err_at(err, GC_EINPUT, r->path, r->header_line, 0,
                             "column '%s' is missing (a '%s' trace needs columns %s)",
                             names[i], gc_trace_meta(r, "bench") ? gc_trace_meta(r, "bench")
                                                                 : "this",
                             want);
        }
    }
    return 0;
}

int gc_trace_next(gc_trace_reader_t *r, gc_err_t *err)
{
    for (;;) {
        int rc = read_line(r, err);
        if (rc <= 0)
            return rc;
        if (r->buf[0] == '\0')
            continue;
        if (r->buf[0] == '#') {
            if ((rc = add_meta(r, err)) < 0)
                return rc;
            continue;
        }
        if (r->end_rows >= 0)
            r->after_end = 1;
        int n = split(r, r->buf, r->cells, err);
        if (n < 0)
            return n;
        if (n != r->ncols)
            return gc_err_at(err, GC_EINPUT, r->path, r->line, 0,
                             "%d cells, but the header (line %ld) has %d columns%s", n,
                             r->header_line, r->ncols,
                             n < r->ncols ? " (truncated row?)" : "");
        r->rows++;
        return 1;
    }
}

long gc_trace_line(const gc_trace_reader_t *r)
{
    return r->line;
}

const char *gc_trace_cell(const gc_trace_reader_t *r, int i)
{
    return r->cells[i];
}

/* Column (1-based) of cell i in the current line, for messages. */
static long cell_col(const gc_trace_reader_t *r, int i)
{
    return (long)(r->cells[i] - r->buf) + 1;
}

int gc_trace_num(const gc_trace_reader_t *r, int i, double *v, gc_err_t *err)
{
    const char *s = r->cells[i];
    char *e;
    errno = 0;
    double x = strtod(s, &e);
    if (e == s || *e || isspace((unsigned char)*s))
        return gc_err_at(err, GC_EINPUT, r->path, r->line, cell_col(r, i),
                         "column '%s': expected a number, found '%.40s'", r->cols[i], s);
    if (!isfinite(x) || errno == ERANGE)
        return gc_err_at(err, GC_EINPUT, r->path, r->line, cell_col(r, i),
                         "column '%s': '%.40s' is not a finite number in range", r->cols[i], s);
    *v = x;
    return 0;
}

int gc_trace_long(const gc_trace_reader_t *r, int i, long *v, gc_err_t *err)
{
    const char *s = r->cells[i];
    char *e;
    errno = 0;
    long x = strtol(s, &e, 10);
    if (e == s || *e || isspace((unsigned char)*s) || errno == ERANGE)
        return gc_err_at(err, GC_EINPUT, r->path, r->line, cell_col(r, i),
                         "column '%s': expected an integer, found '%.40s'", r->cols[i], s);
    *v = x;
    return 0;
}

long gc_trace_rows(const gc_trace_reader_t *r)
{
    return r->rows;
}

long gc_trace_offset(const gc_trace_reader_t *r)
{
    return r->offset;
}

int gc_trace_complete(const gc_trace_reader_t *r)
{
    return r->end_rows >= 0 && r->end_rows == r->rows && !r->after_end;
}

/* ---- writer ---- */

struct gc_trace_writer {
    FILE *fp;
    char *path;
    char *part;
    int flags;
    int ncols;
    long rows;
    gc_err_t err;
    /* a reopened trace: what the kept part already holds */
    char **cols;
    char **meta;   /* "key\0value" pairs, nmeta of them */
    size_t nmeta;
    char *notes;   /* metadata changed on resume: written as a trailer at finish */
    size_t notes_len;
};

static void free_kept(gc_trace_writer_t *w)
{
    for (int i = 0; w->cols && i < w->ncols; i++)
        free(w->cols[i]);
    free(w->cols);
    for (size_t i = 0; i < w->nmeta; i++)
        free(w->meta[i]);
    free(w->meta);
    free(w->notes);
    w->cols = NULL;
    w->meta = NULL;
    w->notes = NULL;
    w->nmeta = 0;
    w->notes_len = 0;
}

const gc_err_t *gc_trace_writer_err(const gc_trace_writer_t *w)
{
    return &w->err;
}

/* A writer for path with its names set (path, path.part) and no file
 * open yet; NULL when out of memory. */
static gc_trace_writer_t *writer_new(const char *path)
{
    gc_trace_writer_t *w = calloc(1, sizeof(*w));
    if (!w)
        return NULL;
    size_t n = strlen(path);
    w->path = gc_strdup(path);
    w->part = malloc(n + 6);
    if (!w->path || !w->part) {
        gc_trace_abandon(w);
        return NULL;
    }
    snprintf(w->part, n + 6, "%s.part", path);
    return w;
}

int gc_trace_create(gc_trace_writer_t **out, const char *path, int flags, gc_err_t *err)
{
    *out = NULL;
    if (!(flags & GC_TRACE_FORCE) && access(path, F_OK) == 0)
        return gc_err_set(err, GC_EEXIST,
                          "%s: already exists; refusing to overwrite it (pass --force, or "
                          "choose another --out folder)",
                          path);
    gc_trace_writer_t *w = writer_new(path);
    if (!w)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    /* O_EXCL: never append to a stale partial trace by accident */
    FILE *fp = fopen(w->part, "wx");
    if (!fp) {
        int rc = gc_err_set(err, errno == EEXIST ? GC_EEXIST : GC_EIO,
                            "%s: %s (an interrupted run left it: resume the run or remove "
                            "the file)",
                            w->part, errno == EEXIST ? "exists" : strerror(errno));
        free(w->path);
        free(w->part);
        free(w);
        return rc;
    }
    w->fp = fp;
    w->flags = flags;
    w->ncols = -1;
    *out = w;
    return gc_trace_put_meta(w, "gpucal-trace", "%d", GC_TRACE_VERSION) < 0 ? w->err.code : 0;
}

static int wfail(gc_trace_writer_t *w)
{
    return gc_err_set(&w->err, GC_EIO, "%s: write failed: %s", w->part, strerror(errno));
}

int gc_trace_put_meta(gc_trace_writer_t *w, const char *key, const char *fmt, ...)
{
    if (!valid_key(key, strlen(key)))
        return gc_err_set(&w->err, GC_EINPUT, "internal: bad trace metadata key '%s'", key);
    static char val[GC_TRACE_LINE_MAX - 256]; /* one line; not reentrant, like the writer */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(val, sizeof(val), fmt, ap);
    va_end(ap);
    for (char *p = val; *p; p++)
        if ((unsigned char)*p < 0x20)
            *p = ' ';
    for (size_t i = 0; i < w->nmeta; i++) {
        const char *k = w->meta[i], *v = k + strlen(k) + 1;
        if (strcmp(k, key) != 0)
            continue;
        if (!strcmp(v, val))
            return 0; /* the kept part has it already */
        /* changed: keep it for the trailer (a cut of a half-written unit
         * must not take it along) */
        size_t add = strlen(key) + strlen(val) + 32;
        char *nn = realloc(w->notes, w->notes_len + add);
        if (!nn)
            return gc_err_set(&w->err, GC_ENOMEM, "out of memory");
        w->notes = nn;
        int len = snprintf(nn + w->notes_len, add, "# note: %s on resume: %s\n", key, val);
        w->notes_len += len > 0 ? (size_t)len : 0;
        return 0;
    }
    if (fprintf(w->fp, "# %s: %s\n", key, val) < 0 || fflush(w->fp) != 0)
        return wfail(w);
    return 0;
}

int gc_trace_columns(gc_trace_writer_t *w, const char *const *names, int n)
{
    if (w->cols) { /* reopened: the header is in the kept part */
        int same = n == w->ncols;
        for (int i = 0; same && i < n; i++)
            same = !strcmp(names[i], w->cols[i]);
        if (!same)
            return gc_err_set(&w->err, GC_EINPUT,
                              "%s: the interrupted trace has other columns than this bench "
                              "writes now (remove the .part file and measure again)",
                              w->part);
        return 0;
    }
    if (w->ncols >= 0 || n <= 0 || n > GC_TRACE_COLS_MAX)
        return gc_err_set(&w->err, GC_EINPUT, "internal: column header written twice or empty");
    for (int i = 0; i < n; i++) {
        if (!valid_key(names[i], strlen(names[i])))
            return gc_err_set(&w->err, GC_EINPUT, "internal: bad column name '%s'", names[i]);
        if (fprintf(w->fp, "%s%s", i ? "," : "", names[i]) < 0)
            return wfail(w);
    }
    if (fputc('\n', w->fp) == EOF || fflush(w->fp) != 0)
        return wfail(w);
    w->ncols = n;
    return 0;
}

static int check_cell(gc_trace_writer_t *w, const char *c)
{
    for (const char *p = c; *p; p++)
        if (*p == ',' || *p == '"' || (unsigned char)*p < 0x20)
            return gc_err_set(&w->err, GC_EINPUT,
                              "internal: trace cell '%s' holds a comma, quote or control byte",
                              c);
    return 0;
}

int gc_trace_row(gc_trace_writer_t *w, const char *const *cells, int n)
{
    if (n != w->ncols)
        return gc_err_set(&w->err, GC_EINPUT, "internal: row of %d cells for %d columns", n,
                          w->ncols);
    for (int i = 0; i < n; i++) {
        if (check_cell(w, cells[i]) < 0)
            return w->err.code;
        if (fprintf(w->fp, "%s%s", i ? "," : "", cells[i]) < 0)
            return wfail(w);
    }
    if (fputc('\n', w->fp) == EOF || fflush(w->fp) != 0)
        return wfail(w);
    w->rows++;
    return 0;
}

int gc_trace_rowf(gc_trace_writer_t *w, const char *fmt, ...)
{
    char line[GC_TRACE_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (k < 0 || k >= (int)sizeof(line))
        return gc_err_set(&w->err, GC_ELIMIT, "internal: trace row longer than %d bytes",
                          GC_TRACE_LINE_MAX - 1);
    char *cells[GC_TRACE_COLS_MAX];
    int n = 0;
    char *p = line;
    for (;;) {
        if (n == GC_TRACE_COLS_MAX)
            return gc_err_set(&w->err, GC_ELIMIT, "internal: too many cells");
        cells[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    return gc_trace_row(w, (const char *const *)cells, n);
}

long gc_trace_written(const gc_trace_writer_t *w)
{
    return w->rows;
}

int gc_trace_finish(gc_trace_writer_t *w, gc_err_t *err)
{
    int rc = 0;
    if (w->ncols < 0)
        rc = gc_err_set(err, GC_EINPUT, "internal: trace finished without a column header");
    else if ((w->notes_len && fwrite(w->notes, 1, w->notes_len, w->fp) != w->notes_len) ||
             fprintf(w->fp, "# end: %ld\n", w->rows) < 0 || fflush(w->fp) != 0 ||
             fsync(fileno(w->fp)) != 0)
        rc = gc_err_set(err, GC_EIO, "%s: write failed: %s", w->part, strerror(errno));
    if (fclose(w->fp) != 0 && !rc)
        rc = gc_err_set(err, GC_EIO, "%s: write failed: %s", w->part, strerror(errno));
    w->fp = NULL;
    if (!rc) {
        if (w->flags & GC_TRACE_FORCE) {
            if (rename(w->part, w->path) != 0)
                rc = gc_err_set(err, GC_EIO, "%s: cannot move into place: %s", w->path,
                                strerror(errno));
        } else if (link(w->part, w->path) != 0) {
            rc = gc_err_set(err, errno == EEXIST ? GC_EEXIST : GC_EIO,
                            "%s: cannot move into place: %s (the rows stay in %s)", w->path,
                            strerror(errno), w->part);
        } else {
            unlink(w->part);
        }
    }
    free_kept(w);
    free(w->path);
    free(w->part);
    free(w);
    return rc;
}

int gc_trace_reopen(gc_trace_writer_t **out, const char *path, const gc_trace_reader_t *r,
                    long keep_bytes, long rows, int flags, gc_err_t *err)
{
    *out = NULL;
    gc_trace_writer_t *w = writer_new(path);
    if (!w)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    w->fp = fopen(w->part, "r+b");
    if (!w->fp || ftruncate(fileno(w->fp), keep_bytes) != 0 || fseek(w->fp, 0, SEEK_END) != 0) {
        int rc = gc_err_set(err, GC_EIO, "%s: cannot reopen to resume: %s", w->part,
                            strerror(errno));
        gc_trace_abandon(w);
        return rc;
    }
    w->flags = flags;
    w->ncols = r->ncols;
    w->rows = rows;
    w->cols = calloc((size_t)r->ncols, sizeof(char *));
    w->meta = calloc(r->nmeta ? r->nmeta : 1, sizeof(char *));
    int oom = !w->cols || !w->meta;
    for (int i = 0; !oom && i < r->ncols; i++)
        oom = !(w->cols[i] = gc_strdup(r->cols[i]));
    for (size_t i = 0; !oom && i < r->nmeta; i++) {
        size_t kn = strlen(r->meta[i].key), vn = strlen(r->meta[i].val);
        char *m = malloc(kn + vn + 2);
        if (!(oom = !m)) {
            memcpy(m, r->meta[i].key, kn + 1);
            memcpy(m + kn + 1, r->meta[i].val, vn + 1);
            w->meta[w->nmeta++] = m;
        }
    }
    if (oom) {
        gc_trace_abandon(w);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    *out = w;
    return 0;
}

int gc_trace_truncate(gc_trace_writer_t *w, long keep_bytes, long rows)
{
    if (fflush(w->fp) != 0 || ftruncate(fileno(w->fp), keep_bytes) != 0 ||
        fseek(w->fp, 0, SEEK_END) != 0)
        return wfail(w);
    w->rows = rows;
    return 0;
}

void gc_trace_abandon(gc_trace_writer_t *w)
{
    if (!w)
        return;
    if (w->fp)
        fclose(w->fp);
    free_kept(w);
    free(w->path);
    free(w->part);
    free(w);
}
