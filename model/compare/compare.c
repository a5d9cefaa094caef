/* compare.c - the side-by-side table of `gpucal compare` (see compare.h). */
#include "compare.h"

#include <stdlib.h>
#include <string.h>

#include "../../util/numfmt.h"

typedef struct row {
    char *key;
    const char *unit;
    int is_int;
    const gc_qty_t **q; /* one per arch, NULL = missing */
} row_t;

/* One arch's quantities in walk order, before merging. */
typedef struct item {
    char *key;
    const char *unit;
    int is_int;
    const gc_qty_t *q;
} item_t;

typedef struct items {
    item_t *v;
    size_t n, cap;
    int oom;
} items_t;

static int collect(const gc_arch_item_t *it, void *ctx)
{
    items_t *l = ctx;
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 256;
        item_t *v = realloc(l->v, nc * sizeof(*v));
        if (!v)
            return l->oom = 1;
        l->v = v;
        l->cap = nc;
    }
    size_t kl = strlen(it->key) + 1;
    char *k = malloc(kl);
    if (!k)
        return l->oom = 1;
    memcpy(k, it->key, kl);
    l->v[l->n++] = (item_t){k, it->unit, it->is_int, it->q};
    return 0;
}

/* Replace the first `from` in s by `to` (to no longer than from), in place. */
static int replace(char *s, const char *from, const char *to)
{
    char *p = strstr(s, from);
    if (!p)
        return 0;
    size_t fl = strlen(from), tl = strlen(to);
    memcpy(p, to, tl);
    memmove(p + tl, p + fl, strlen(p + fl) + 1);
    return 1;
}

/* Data patterns: a tensor form measured with random data is shown under the
 * plain label (papers give one figure per form, measured on random data or
 * not saying); its zero-data twin is left out of the table. A form measured
 * on zeros only keeps " zero" in its label, so it is never compared as if
 * it were the realistic figure. Returns 0 to keep the item, 1 to drop it. */
static int normalise(items_t *l, size_t i)
{
    char *k = l->v[i].key;
    if (replace(k, " rand]", "]"))
        return 0;
    char *z = strstr(k, " zero]");
    if (!z)
        return 0;
    size_t n = strlen(k) + 1;
    char *twin = malloc(n);
    if (!twin)
        return 0;
    memcpy(twin, k, n);
    replace(twin, " zero]", " rand]");
    int has = 0;
    for (size_t j = 0; j < l->n && !has; j++)
        has = !strcmp(l->v[j].key, twin);
    free(twin);
    return has;
}

typedef struct table {
    row_t *rows;
    size_t n, cap;
    int narch;
    int cur;        /* arch being merged */
    size_t after;   /* insert position for the next new key of cur */
    int oom;
} table_t;

static long find(const table_t *t, const char *key)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->rows[i].key, key))
            return (long)i;
    return -1;
}

/* Merge one quantity of arch t->cur: known keys get filled in; a new key
 * is inserted after the last key this arch placed, so every arch's own
 * order is kept. */
static int merge(const gc_arch_item_t *it, void *ctx)
{
    table_t *t = ctx;
    long i = find(t, it->key);
    if (i < 0) {
        if (t->n == t->cap) {
            size_t ncap = t->cap ? 2 * t->cap : 64;
            row_t *r = realloc(t->rows, ncap * sizeof(*r));
            if (!r)
                return t->oom = 1;
            t->rows = r;
            t->cap = ncap;
        }
        row_t nr = {NULL, it->unit, it->is_int, calloc((size_t)t->narch, sizeof(gc_qty_t *))};
        size_t kl = strlen(it->key) + 1;
        nr.key = malloc(kl);
        if (!nr.key || !nr.q) {
            free(nr.key);
            free(nr.q);
            return t->oom = 1;
        }
        memcpy(nr.key, it->key, kl);
        /* keep a list entry's rows together: after the last row of the same
         * entry if another arch placed some, else after this arch's last */
        size_t at = t->after;
        const char *br = strchr(it->key, ']');
        if (br) {
            size_t pl = (size_t)(br - it->key) + 1;
            for (size_t j = 0; j < t->n; j++)
                if (!strncmp(t->rows[j].key, it->key, pl) && j + 1 > at)
                    at = j + 1;
        }
        memmove(t->rows + at + 1, t->rows + at, (t->n - at) * sizeof(row_t));
        t->rows[at] = nr;
        t->n++;
        i = (long)at;
    }
    t->rows[i].q[t->cur] = it->q;
    t->after = (size_t)i + 1;
    return 0;
}

static void fmt_val(char *b, size_t n, const gc_qty_t *q, int is_int)
{
    if (!q)
        snprintf(b, n, "-");
    else
        gc_num_format(b, n, q->v, is_int);
}

static int wanted(const char *key, const char *const *match)
{
    if (!match)
        return 1;
    for (const char *const *m = match; *m; m++)
        if (strstr(key, *m))
            return 1;
    return 0;
}

/* The rows of every arch into t: each arch's quantities, zero-data twins
 * and unmatched keys dropped, merged by key. */
static void collect_all(table_t *t, const gc_arch_t *const *archs, int n,
                        const char *const *match)
{
    for (int a = 0; a < n && !t->oom; a++) {
        t->cur = a;
        t->after = 0;
        items_t l = {NULL, 0, 0, 0};
        gc_arch_walk(archs[a], 0, collect, &l);
        t->oom |= l.oom;
        /* decide every drop before any key is rewritten (twins are found by
         * their original keys) */
        unsigned char *drop = calloc(l.n ? l.n : 1, 1);
        t->oom |= !drop;
        for (size_t i = 0; drop && i < l.n; i++)
            drop[i] = strstr(l.v[i].key, " zero]") && normalise(&l, i);
        for (size_t i = 0; drop && i < l.n; i++)
            if (!drop[i]) {
                normalise(&l, i);
                drop[i] = !wanted(l.v[i].key, match);
            }
        for (size_t i = 0; drop && i < l.n && !t->oom; i++) {
            if (drop[i])
                continue;
            gc_arch_item_t it = {l.v[i].key, l.v[i].unit, NULL, l.v[i].q, l.v[i].is_int, 0, 0};
            merge(&it, t);
        }
        for (size_t i = 0; i < l.n; i++)
            free(l.v[i].key);
        free(l.v);
        free(drop);
    }
}

/* t as CSV: one row per quantity, then the ratios to the first arch. */
static void write_csv(FILE *fp, const table_t *t, const gc_arch_t *const *archs, int n)
{
    fprintf(fp, "quantity,unit");
    for (int a = 0; a < n; a++)
        fprintf(fp, ",%s", archs[a]->name);
    for (int a = 1; a < n; a++)
        fprintf(fp, ",%s/%s", archs[a]->name, archs[0]->name);
    fputc('\n', fp);
    for (size_t i = 0; i < t->n; i++) {
        const row_t *r = &t->rows[i];
        fprintf(fp, "%s,%s", r->key, r->unit);
        for (int a = 0; a < n; a++)
            if (r->q[a]) {
                char b[48];
                fprintf(fp, ",%s", gc_num_format(b, sizeof(b), r->q[a]->v, r->is_int));
            } else {
                fputc(',', fp);
            }
        for (int a = 1; a < n; a++)
            (r->q[a] && r->q[0] && r->q[0]->v != 0)
                ? fprintf(fp, ",%.4f", r->q[a]->v / r->q[0]->v)
                : fprintf(fp, ",");
        fputc('\n', fp);
    }
}

/* t as a Markdown table with ratios to the first arch. */
static void write_md(FILE *fp, const table_t *t, const gc_arch_t *const *archs, int n)
{
    fprintf(fp, "| quantity | unit |");
    for (int a = 0; a < n; a++)
        fprintf(fp, " %s |", archs[a]->name);
    fprintf(fp, "\n| --- | --- |");
    for (int a = 0; a < n; a++)
        fprintf(fp, " ---: |");
    fputc('\n', fp);
    for (size_t i = 0; i < t->n; i++) {
        const row_t *r = &t->rows[i];
        fprintf(fp, "| %s | %s |", r->key, r->unit);
        for (int a = 0; a < n; a++) {
            char b[48];
            fmt_val(b, sizeof(b), r->q[a], r->is_int);
            if (a && r->q[a] && r->q[0] && r->q[0]->v != 0)
                fprintf(fp, " %s (%.2fx) |", b, r->q[a]->v / r->q[0]->v);
            else
                fprintf(fp, " %s |", b);
        }
        fputc('\n', fp);
    }
    fprintf(fp, "\n%zu quantities; (Nx) = ratio to %s; '-' = not in that file.\n", t->n,
            archs[0]->name);
}


/* {"schema": "gpucal-compare/1", "archs": [...], "rows": [{"quantity",
 * "unit", "values": [v|null per arch], "ratios": [v / first|null per arch
 * after the first]}]}: a missing value is null, never 0. */
static void write_json(FILE *fp, const table_t *t, const gc_arch_t *const *archs, int n)
{
    fputs("{\n  \"schema\": \"gpucal-compare/1\",\n  \"archs\": [", fp);
    for (int a = 0; a < n; a++) {
        fputs(a ? ", " : "", fp);
        gc_json_str(fp, archs[a]->name);
    }
    fputs("],\n  \"rows\": [", fp);
    for (size_t i = 0; i < t->n; i++) {
        const row_t *r = &t->rows[i];
        fputs(i ? ",\n    {\"quantity\": " : "\n    {\"quantity\": ", fp);
        gc_json_str(fp, r->key);
        fputs(", \"unit\": ", fp);
        gc_json_str(fp, r->unit);
        fputs(", \"values\": [", fp);
        for (int a = 0; a < n; a++) {
            char b[48];
            fprintf(fp, "%s%s", a ? ", " : "",
                    r->q[a] ? gc_num_format(b, sizeof(b), r->q[a]->v, r->is_int) : "null");
        }
        fputs("], \"ratios\": [", fp);
        for (int a = 1; a < n; a++) {
            fputs(a > 1 ? ", " : "", fp);
            if (r->q[a] && r->q[0] && r->q[0]->v != 0)
                fprintf(fp, "%.6g", r->q[a]->v / r->q[0]->v);
            else
                fputs("null", fp);
        }
        fputs("]}", fp);
    }
    fprintf(fp, "%s]\n}\n", t->n ? "\n  " : "");
}

int gc_compare_write(FILE *fp, const gc_arch_t *const *archs, int n, gc_compare_fmt_t fmt,
                     const char *const *match, gc_err_t *err)
{
    table_t t = {NULL, 0, 0, n, 0, 0, 0};
    collect_all(&t, archs, n, match);
    int rc = 0;
    if (t.oom)
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    else if (fmt == GC_COMPARE_CSV)
        write_csv(fp, &t, archs, n);
    else if (fmt == GC_COMPARE_JSON)
        write_json(fp, &t, archs, n);
    else
        write_md(fp, &t, archs, n);
    if (!rc && ferror(fp))
        rc = gc_err_set(err, GC_EIO, "write error");
    for (size_t i = 0; i < t.n; i++) {
        free(t.rows[i].key);
        free(t.rows[i].q);
    }
    free(t.rows);
    return rc;
}
