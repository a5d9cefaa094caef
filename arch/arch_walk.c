/* arch_walk.c - equality, the quantity walk behind `gpucal compare`, and the
 * key reference of arch/README.md, all from the tables of arch_schema.c. */
#define _POSIX_C_SOURCE 200809L
#include "arch.h"

#include <stdlib.h>
#include <string.h>

#include "arch_schema.h"

/* ---- equality ---- */

static int str_eq(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static int map_equal(const gc_schema_t *s, const void *a, const void *b, const char *path,
                     char *diff, size_t n)
{
    for (size_t i = 0; i < s->n; i++) {
        const gc_field_t *f = &s->f[i];
        char p[GC_KEY_MAX];
        gc_schema_path(p, sizeof(p), path, f->key);
        const void *ma = GC_CAT(a, f->off, void), *mb = GC_CAT(b, f->off, void);
        int eq = 1;
        switch (f->type) {
        case GC_F_QTY: {
            const gc_qty_t *x = ma, *y = mb;
            eq = x->set == y->set &&
                 (!x->set || (x->v == y->v && x->has_ci == y->has_ci &&
                              (!x->has_ci || (x->lo == y->lo && x->hi == y->hi)) &&
                              str_eq(x->src, y->src) && str_eq(x->note, y->note)));
            break;
        }
        case GC_F_STR:
            eq = str_eq(*(const char *const *)ma, *(const char *const *)mb);
            break;
        case GC_F_FLAG:
            eq = ((const gc_flag_t *)ma)->set == ((const gc_flag_t *)mb)->set &&
                 ((const gc_flag_t *)ma)->val == ((const gc_flag_t *)mb)->val;
            break;
        case GC_F_MAP:
            if (!map_equal(f->sub, ma, mb, p, diff, n))
                return 0;
            break;
        case GC_F_LIST: {
            size_t na = *GC_CAT(a, f->cnt_off, size_t), nb = *GC_CAT(b, f->cnt_off, size_t);
            if (na != nb) {
                snprintf(diff, n, "%s: %zu entries vs %zu", p, na, nb);
                return 0;
            }
            const char *xa = *(const char *const *)ma, *xb = *(const char *const *)mb;
            for (size_t k = 0; k < na; k++) {
                char pk[GC_KEY_MAX];
                snprintf(pk, sizeof(pk), "%s[%zu]", p, k);
                if (!map_equal(f->sub, xa + k * f->sub->size, xb + k * f->sub->size, pk, diff,
                               n))
                    return 0;
            }
            break;
        }
        }
        if (!eq) {
            snprintf(diff, n, "%s differs", p);
            return 0;
        }
    }
    return 1;
}

int gc_arch_equal(const gc_arch_t *a, const gc_arch_t *b, char *diff, size_t n)
{
    if (n)
        diff[0] = '\0';
    return map_equal(&gc_arch_root_schema, a, b, "", diff, n);
}

/* ---- walking ---- */

typedef struct walker {
    int all;
    int (*fn)(const gc_arch_item_t *, void *);
    void *ctx;
} walker_t;

static int walk_map(const walker_t *W, const gc_schema_t *s, const void *base, const char *path)
{
    for (size_t i = 0; i < s->n; i++) {
        const gc_field_t *f = &s->f[i];
        char p[GC_KEY_MAX];
        gc_schema_path(p, sizeof(p), path, f->key);
        const void *m = GC_CAT(base, f->off, void);
        int rc = 0;
        if (f->type == GC_F_QTY) {
            const gc_qty_t *q = m;
            if (q->set || W->all) {
                double lo = (f->flags & GC_F_POS) ? gc_field_floor(f) : f->lo;
                gc_arch_item_t it = {p, f->unit, f->doc, q, (f->flags & GC_F_INT) != 0, lo, f->hi};
                rc = W->fn(&it, W->ctx);
            }
        } else if (f->type == GC_F_MAP) {
            rc = walk_map(W, f->sub, m, p);
        } else if (f->type == GC_F_LIST) {
            size_t n = *GC_CAT(base, f->cnt_off, size_t);
            const char *arr = *(const char *const *)m;
            for (size_t k = 0; k < n && !rc; k++) {
                char lab[128], pk[GC_KEY_MAX];
                snprintf(pk, sizeof(pk), "%s[%s]", p,
                         f->sub->label(arr + k * f->sub->size, lab, sizeof(lab)));
                rc = walk_map(W, f->sub, arr + k * f->sub->size, pk);
            }
        }
        if (rc)
            return rc;
    }
    return 0;
}

int gc_arch_walk(const gc_arch_t *a, int all, int (*fn)(const gc_arch_item_t *, void *),
                 void *ctx)
{
    walker_t W = {all, fn, ctx};
    return walk_map(&W, &gc_arch_root_schema, a, "");
}

/* ---- documentation ---- */

static void doc_map(FILE *fp, const gc_schema_t *s, const char *path)
{
    fprintf(fp, "\n### `%s`\n\n| key | type | unit | range | required | meaning |\n"
                "| --- | --- | --- | --- | --- | --- |\n",
            path[0] ? path : "(top level)");
    for (size_t i = 0; i < s->n; i++) {
        const gc_field_t *f = &s->f[i];
        const char *type = "", *unit = "";
        char range[200] = "";
        switch (f->type) {
        case GC_F_QTY:
            type = (f->flags & GC_F_INT) ? "integer" : "number";
            unit = f->unit;
            if (f->flags & GC_F_POS)
                snprintf(range, sizeof(range), ">= %g, <= %g", gc_field_floor(f), f->hi);
            else
                snprintf(range, sizeof(range), "%g .. %g", f->lo, f->hi);
            break;
        case GC_F_STR:
            type = "text";
            if (f->choices) {
                size_t at = 0;
                for (const char *const *c = f->choices; *c; c++) {
                    int k = snprintf(range + at, sizeof(range) - at, "%s`%s`", at ? ", " : "", *c);
                    if (k > 0 && (size_t)k < sizeof(range) - at)
                        at += (size_t)k;
                }
            } else if (f->hint) {
                snprintf(range, sizeof(range), "%s", f->hint);
            }
            break;
        case GC_F_FLAG:
            type = "true/false";
            break;
        case GC_F_MAP:
            type = "mapping";
            snprintf(range, sizeof(range), "see `%s%s%s`", path, path[0] ? "." : "", f->key);
            break;
        case GC_F_LIST:
            type = "list";
            snprintf(range, sizeof(range), "entries: see `%s%s%s[]`", path, path[0] ? "." : "",
                     f->key);
            break;
        }
        fprintf(fp, "| `%s` | %s | %s | %s | %s | %s |\n", f->key, type, unit, range,
                (f->flags & GC_F_REQ) ? "yes" : "no", f->doc);
    }
    for (size_t i = 0; i < s->n; i++) {
        const gc_field_t *f = &s->f[i];
        char p[GC_KEY_MAX];
        gc_schema_path(p, sizeof(p), path, f->key);
        if (f->type == GC_F_MAP) {
            doc_map(fp, f->sub, p);
        } else if (f->type == GC_F_LIST) {
            char pl[GC_KEY_MAX];
            snprintf(pl, sizeof(pl), "%s[]", p);
            doc_map(fp, f->sub, pl);
        }
    }
}

void gc_arch_schema_doc(FILE *fp)
{
    fprintf(fp, "<!-- generated by `gpucal arch schema`: do not edit by hand -->\n");
    doc_map(fp, &gc_arch_root_schema, "");
}

