/* arch.c - load, validate, write, compare and document gpucal-arch/1 files
 * by walking the tables of arch_schema.c. Reads YAML through ytree.c and
 * writes it with the libyaml emitter. */
#define _POSIX_C_SOURCE 200809L
#include "arch.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "../util/arena.h"
#include "../util/fsio.h"
#include "arch_cache.h"
#include "arch_schema.h"
#include "../util/suggest.h"
#include "ytree.h"

#ifndef GC_SHIPPED_ARCH_DIR
#define GC_SHIPPED_ARCH_DIR "arch"
#endif


/* ---- construction ---- */

gc_arch_t *gc_arch_create(void)
{
    gc_arch_t *a = calloc(1, sizeof(*a));
    if (!a)
        return NULL;
    a->arena = gc_arena_create();
    if (!a->arena) {
        free(a);
        return NULL;
    }
    a->schema = GC_ARCH_SCHEMA;
    return a;
}

void gc_arch_destroy(gc_arch_t *a)
{
    if (!a)
        return;
    if (a->view_free)
        a->view_free(a->view);
    gc_arch_cache_release(a);
    gc_arena_destroy(a->arena);
    free(a);
}

const char *gc_arch_str(gc_arch_t *a, const char *s)
{
    return gc_arena_strdup(a->arena, s);
}

void *gc_arch_list(gc_arch_t *a, size_t elem_size, size_t n)
{
    if (n && elem_size > SIZE_MAX / n)
        return NULL;
    return gc_arena_alloc(a->arena, elem_size * (n ? n : 1));
}

void gc_qty_put(gc_arch_t *a, gc_qty_t *q, double v, double lo, double hi, const char *src)
{
    memset(q, 0, sizeof(*q));
    q->v = v;
    q->set = 1;
    if (lo <= hi) {
        q->has_ci = 1;
        q->lo = lo;
        q->hi = hi;
    }
    q->src = src ? gc_arch_str(a, src) : NULL;
}

/* ---- loading ---- */

typedef struct loader {
    gc_arch_t *a;
    const char *file;
    gc_err_t *err;
} loader_t;

static int load_map(loader_t *L, const gc_schema_t *s, void *base, const gc_ynode_t *node,
                    const char *path);

/* One error line: "FILE:LINE:COL: PATH: <fmt...>". Returns the code. */
GC_PRINTF(5, 6)
static int fail(loader_t *L, const gc_ynode_t *n, int code, const char *path, const char *fmt,
                ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = gc_ynode_verr(L->err, code, L->file, n, path, fmt, ap);
    va_end(ap);
    return rc;
}

/* Parse a plain YAML scalar as a finite number: 0 ok, 1 not a number,
 * 2 NaN or infinite. */
static int parse_number(const gc_ynode_t *n, double *v)
{
    if (n->kind != GC_Y_SCALAR || !n->plain || !n->str[0])
        return 1;
    const char *s = n->str;
    const char *t = s + (*s == '-' || *s == '+');
    if (!strcasecmp(t, ".nan") || !strcasecmp(t, "nan") || !strcasecmp(t, ".inf") ||
        !strcasecmp(t, "inf") || !strcasecmp(t, "infinity"))
        return 2;
    for (const char *p = s; *p; p++)
        if (!(isdigit((unsigned char)*p) || *p == '.' || *p == '-' || *p == '+' || *p == 'e' ||
              *p == 'E'))
            return 1;
    char *e;
    errno = 0;
    double x = strtod(s, &e);
    if (e == s || *e)
        return 1;
    if (!isfinite(x) || errno == ERANGE)
        return 2;
    *v = x;
    return 0;
}

static void fmt_range(char *buf, size_t n, const gc_field_t *f)
{
    if (f->flags & GC_F_POS)
        snprintf(buf, n, "at least %g and at most %g %s (arch/README.md, bounds)",
                 gc_field_floor(f), f->hi, f->unit);
    else
        snprintf(buf, n, "between %g and %g %s", f->lo, f->hi, f->unit);
}

static int check_number(loader_t *L, const gc_field_t *f, const gc_ynode_t *n, double v,
                        const char *path)
{
    int pos = (f->flags & GC_F_POS) != 0;
    int neg = v < 0 && (pos || f->lo >= 0);
    int out = pos ? (v < gc_field_floor(f) || v > f->hi) : (v < f->lo || v > f->hi);
    if (neg || out) { /* the range text only for the error: it costs a printf */
        char range[160];
        fmt_range(range, sizeof(range), f);
        if (neg)
            return fail(L, n, GC_EINPUT, path, "negative value %s (must be %s)", n->str, range);
        return fail(L, n, GC_EINPUT, path, "%s is out of range (must be %s)", n->str, range);
    }
    if ((f->flags & GC_F_INT) && v != floor(v))
        return fail(L, n, GC_EINPUT, path, "must be a whole number of %s, found %s", f->unit,
                    n->str);
    return 0;
}

static int number_or_fail(loader_t *L, const gc_field_t *f, const gc_ynode_t *n,
                          const char *path, double *v)
{
    switch (parse_number(n, v)) {
    case 0:
        return 0;
    case 2:
        return fail(L, n, GC_EINPUT, path, "'%s' is not a valid value (NaN and infinity are "
                    "refused; give a finite number in %s)", n->str, f->unit);
    default:
        if (n->kind != GC_Y_SCALAR)
            return fail(L, n, GC_EINPUT, path, "expected a number in %s, found %s", f->unit,
                        gc_ykind_name(n->kind));
        if (!n->plain)
            return fail(L, n, GC_EINPUT, path,
                        "expected a number in %s, found a quoted text (remove the quotes)",
                        f->unit);
        return fail(L, n, GC_EINPUT, path, "expected a number in %s, found '%.40s'", f->unit,
                    n->str);
    }
}

/* Duplicate keys in a mapping: the error names both lines. */
static int check_dups(loader_t *L, const gc_ynode_t *map, const char *path)
{
    for (size_t i = 0; i < map->n; i++) {
        const gc_ynode_t *ki = gc_ymap_keynode(map, i);
        if (ki->kind != GC_Y_SCALAR)
            return fail(L, ki, GC_EINPUT, path, "a key must be a plain name, found %s",
                        gc_ykind_name(ki->kind));
        for (size_t j = 0; j < i; j++)
            if (!strcmp(gc_ymap_key(map, j), ki->str))
                return fail(L, ki, GC_EINPUT, path,
                            "duplicate key '%s' (first on line %ld): keep one of them", ki->str,
                            gc_ymap_keynode(map, j)->line);
    }
    return 0;
}

static int load_qty(loader_t *L, const gc_field_t *f, gc_qty_t *q, const gc_ynode_t *n,
                    const char *path)
{
    memset(q, 0, sizeof(*q));
    const gc_ynode_t *vn = n;
    if (n->kind == GC_Y_MAP) {
        int rc = check_dups(L, n, path);
        if (rc)
            return rc;
        vn = NULL;
        for (size_t i = 0; i < n->n; i++) {
            const char *k = gc_ymap_key(n, i);
            const gc_ynode_t *kn = gc_ymap_keynode(n, i);
            const gc_ynode_t *v = gc_ymap_val(n, i);
            if (!strcmp(k, "value")) {
                vn = v;
            } else if (!strcmp(k, "source") || !strcmp(k, "note")) {
                if (v->kind != GC_Y_SCALAR || !v->str[0])
                    return fail(L, v, GC_EINPUT, path, "'%s' must be a non-empty text", k);
                const char *s = gc_arch_str(L->a, v->str);
                if (!s)
                    return gc_err_set(L->err, GC_ENOMEM, "out of memory");
                *(k[0] == 's' ? &q->src : &q->note) = s;
            } else if (!strcmp(k, "ci95")) {
                if (v->kind != GC_Y_SEQ || v->n != 2)
                    return fail(L, v, GC_EINPUT, path,
                                "ci95 must be a list of two numbers [lo, hi] in %s", f->unit);
                if ((rc = number_or_fail(L, f, v->kids[0], path, &q->lo)) ||
                    (rc = number_or_fail(L, f, v->kids[1], path, &q->hi)))
                    return rc;
                if (q->lo > q->hi)
                    return fail(L, v, GC_EINPUT, path, "ci95 [%g, %g] has lo > hi: swap them",
                                q->lo, q->hi);
                q->has_ci = 1;
            } else {
                static const char *const vkeys[] = {"value", "ci95", "source", "note"};
                char hint[96];
                return gc_err_at(L->err, GC_EINPUT, L->file, kn->line, kn->col,
                                 "%s: unknown key '%s'%s (a value takes value, ci95, source, "
                                 "note)",
                                 path, k, gc_suggest_hint(k, vkeys, 4, hint, sizeof(hint)));
            }
        }
        if (!vn)
            return fail(L, n, GC_EINPUT, path,
                        "a value written as a mapping needs 'value:' (e.g. {value: 24.7, "
                        "source: ...})");
    }
    double v;
    int rc = number_or_fail(L, f, vn, path, &v);
    if (!rc)
        rc = check_number(L, f, vn, v, path);
    if (rc)
        return rc;
    if (q->has_ci && (v < q->lo || v > q->hi))
        return fail(L, n, GC_EINPUT, path, "ci95 [%g, %g] does not contain the value %s",
                    q->lo, q->hi, vn->str);
    q->v = v;
    q->set = 1;
    return 0;
}

static int load_str(loader_t *L, const gc_field_t *f, const char **out, const gc_ynode_t *n,
                    const char *path)
{
    if (n->kind != GC_Y_SCALAR)
        return fail(L, n, GC_EINPUT, path, "expected a text, found %s", gc_ykind_name(n->kind));
    if (!n->str[0])
        return fail(L, n, GC_EINPUT, path, "empty text: give a value or leave the key out");
    if (f->choices) {
        int ok = 0;
        char list[256] = "";
        size_t at = 0;
        for (const char *const *c = f->choices; *c; c++) {
            ok |= !strcmp(*c, n->str);
            int k = snprintf(list + at, sizeof(list) - at, "%s%s", at ? ", " : "", *c);
            if (k > 0 && (size_t)k < sizeof(list) - at)
                at += (size_t)k;
        }
        if (!ok)
            return fail(L, n, GC_EINPUT, path, "'%.40s' is not one of: %s", n->str, list);
    }
    if (f->check && f->check(n->str) != 0)
        return fail(L, n, GC_EINPUT, path, "'%.40s' is not well formed (expected %s)", n->str,
                    f->hint);
    *out = gc_arch_str(L->a, n->str);
    return *out ? 0 : gc_err_set(L->err, GC_ENOMEM, "out of memory");
}

static int load_flag(loader_t *L, gc_flag_t *fl, const gc_ynode_t *n, const char *path)
{
    if (n->kind == GC_Y_SCALAR && n->plain && (!strcmp(n->str, "true") || !strcmp(n->str, "false"))) {
        fl->set = 1;
        fl->val = n->str[0] == 't';
        return 0;
    }
    return fail(L, n, GC_EINPUT, path, "expected true or false, found %s%.40s%s",
                n->kind == GC_Y_SCALAR ? "'" : "",
                n->kind == GC_Y_SCALAR ? n->str : gc_ykind_name(n->kind),
                n->kind == GC_Y_SCALAR ? "'" : "");
}

/* out = "path[i]" (snprintf's truncation to n bytes, without its cost). */
static void index_path(char *out, size_t n, const char *path, size_t i)
{
    char num[24];
    int k = (int)sizeof(num);
    num[--k] = '\0';
    do
        num[--k] = (char)('0' + i % 10);
    while ((i /= 10) > 0);
    size_t lp = strlen(path), ln = sizeof(num) - 1 - (size_t)k, o = 0;
    char tail[28];
    tail[0] = '[';
    memcpy(tail + 1, num + k, ln);
    tail[ln + 1] = ']';
    for (size_t j = 0; j < lp && o + 1 < n; j++)
        out[o++] = path[j];
    for (size_t j = 0; j < ln + 2 && o + 1 < n; j++)
        out[o++] = tail[j];
    out[o] = '\0';
}

#define LABEL_MAX 128

static int load_list(loader_t *L, const gc_field_t *f, void *base, const gc_ynode_t *n,
                     const char *path)
{
    if (n->kind != GC_Y_SEQ)
        return fail(L, n, GC_EINPUT, path, "expected a list ('- ' entries), found %s",
                    gc_ykind_name(n->kind));
    const gc_schema_t *s = f->sub;
    char *arr = gc_arch_list(L->a, s->size, n->n);
    /* each entry's label once (the duplicate check compares every pair) */
    char *lab = malloc(LABEL_MAX * (n->n ? n->n : 1));
    if (!arr || !lab) {
        free(lab);
        return gc_err_set(L->err, GC_ENOMEM, "out of memory");
    }
    int rc = 0;
    for (size_t i = 0; i < n->n && !rc; i++) {
        char p[GC_KEY_MAX];
        index_path(p, sizeof(p), path, i);
        rc = load_map(L, s, arr + i * s->size, n->kids[i], p);
        if (rc)
            break;
        char *li = lab + i * LABEL_MAX;
        const char *got = s->label(arr + i * s->size, li, LABEL_MAX);
        if (got != li)
            snprintf(li, LABEL_MAX, "%s", got);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(li, lab + j * LABEL_MAX)) {
                rc = fail(L, n->kids[i], GC_EINPUT, path,
                          "duplicate %s '%s' (first on line %ld): keep one", s->name, li,
                          n->kids[j]->line);
                break;
            }
    }
    free(lab);
    if (rc)
        return rc;
    *GC_AT(base, f->off, void *) = arr;
    *GC_AT(base, f->cnt_off, size_t) = n->n;
    return 0;
}

static int load_map(loader_t *L, const gc_schema_t *s, void *base, const gc_ynode_t *node,
                    const char *path)
{
    if (node->kind != GC_Y_MAP)
        return fail(L, node, GC_EINPUT, path, "expected a mapping of keys (%s), found %s",
                    s->name, gc_ykind_name(node->kind));
    int rc = check_dups(L, node, path);
    if (rc)
        return rc;
    for (size_t i = 0; i < node->n; i++) {
        const char *k = gc_ymap_key(node, i);
        const gc_ynode_t *kn = gc_ymap_keynode(node, i);
        const gc_ynode_t *v = gc_ymap_val(node, i);
        const gc_field_t *f = NULL;
        for (size_t j = 0; j < s->n && !f; j++)
            if (!strcmp(s->f[j].key, k))
                f = &s->f[j];
        char p[GC_KEY_MAX];
        gc_schema_path(p, sizeof(p), path, k);
        if (!f) {
            char hint[96];
            return gc_err_at(L->err, GC_EINPUT, L->file, kn->line, kn->col,
                             "unknown key '%s'%s (arch/README.md lists the keys of %s)", p,
                             gc_schema_suggest(s, k, hint, sizeof(hint)), s->name);
        }
        switch (f->type) {
        case GC_F_QTY:
            rc = load_qty(L, f, GC_AT(base, f->off, gc_qty_t), v, p);
            break;
        case GC_F_STR:
            rc = load_str(L, f, GC_AT(base, f->off, const char *), v, p);
            break;
        case GC_F_FLAG:
            rc = load_flag(L, GC_AT(base, f->off, gc_flag_t), v, p);
            break;
        case GC_F_MAP:
            rc = load_map(L, f->sub, GC_AT(base, f->off, void), v, p);
            break;
        case GC_F_LIST:
            rc = load_list(L, f, base, v, p);
            break;
        }
        if (rc)
            return rc;
    }
    for (size_t j = 0; j < s->n; j++) {
        if (!(s->f[j].flags & GC_F_REQ) || gc_ymap_get(node, s->f[j].key))
            continue;
        const gc_field_t *f = &s->f[j];
        return fail(L, node, GC_EINPUT, path[0] ? path : NULL,
                    "missing required key '%s' (%s%s%s)", f->key, f->doc,
                    f->unit ? " Unit: " : "", f->unit ? f->unit : "");
    }
    return 0;
}

int gc_arch_parse(gc_arch_t **out, const char *name, const char *buf, size_t len, gc_err_t *err)
{
    *out = NULL;
    gc_ydoc_t *doc;
    int rc = gc_ydoc_parse(&doc, name, buf, len, err);
    if (rc)
        return rc;
    if (!doc->root || (doc->root->kind == GC_Y_SCALAR && !doc->root->str[0])) {
        gc_ydoc_destroy(doc);
        return gc_err_at(err, GC_EINPUT, name, 1, 1,
                         "empty file: an arch file starts with 'schema: %s'", GC_ARCH_SCHEMA);
    }
    gc_arch_t *a = gc_arch_create();
    if (!a) {
        gc_ydoc_destroy(doc);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    a->schema = NULL;
    loader_t L = {a, name, err};
    /* the schema version first: a newer file must not fail on its new keys */
    const gc_ynode_t *sv = gc_ymap_get(doc->root, "schema");
    if (doc->root->kind == GC_Y_MAP && sv && sv->kind == GC_Y_SCALAR &&
        strcmp(sv->str, GC_ARCH_SCHEMA) != 0)
        rc = fail(&L, sv, GC_EINPUT, "schema",
                  "'%.40s' is not supported: this gpucal reads %s (upgrade gpucal, or convert "
                  "the file)",
                  sv->str, GC_ARCH_SCHEMA);
    else
        rc = load_map(&L, &gc_arch_root_schema, a, doc->root, "");
    gc_ydoc_destroy(doc);
    if (!rc) {
        a->path = gc_arch_str(a, name);
        *out = a;
    } else {
        gc_arch_destroy(a);
    }
    return rc;
}

int gc_arch_load(gc_arch_t **a, const char *path, gc_err_t *err)
{
    char *buf;
    size_t len;
    *a = NULL;
    /* a large file's compiled image when one is valid (arch_cache.h) */
    if ((*a = gc_arch_cache_get(path)))
        return 0;
    int rc = gc_file_read(path, GC_YTREE_FILE_MAX, &buf, &len, err);
    if (rc)
        return rc;
    rc = gc_arch_parse(a, path, buf, len, err);
    if (!rc)
        gc_arch_cache_put(*a, path, buf, len);
    free(buf);
    return rc;
}

/* Set once by an installed program or library before it loads an arch
 * (gc_arch_set_dir); empty: the source tree's folder. */
static char installed_dir[4096];

void gc_arch_set_dir(const char *dir)
{
    snprintf(installed_dir, sizeof(installed_dir), "%s", dir ? dir : "");
}

const char *gc_arch_dir(void)
{
    const char *e = getenv("GPUCAL_ARCH_DIR");
    if (e && e[0])
        return e;
    return installed_dir[0] ? installed_dir : GC_SHIPPED_ARCH_DIR;
}

int gc_arch_resolve(const char *name, char *path, size_t n, gc_err_t *err)
{
    size_t len = strlen(name);
    int is_path = strchr(name, '/') != NULL || (len > 5 && !strcmp(name + len - 5, ".yaml")) ||
                  (len > 4 && !strcmp(name + len - 4, ".yml"));
    if (is_path) {
        if ((size_t)snprintf(path, n, "%s", name) >= n)
            return gc_err_set(err, GC_EUSAGE, "path too long: %.60s...", name);
        return 0;
    }
    for (size_t i = 0; i < len; i++)
        if (!(islower((unsigned char)name[i]) || isdigit((unsigned char)name[i]) ||
              name[i] == '-'))
            return gc_err_set(err, GC_EUSAGE,
                              "'%.60s' is neither a shipped arch name nor a path to a .yaml "
                              "file (see `gpucal arch list`)",
                              name);
    if (len == 0)
        return gc_err_set(err, GC_EUSAGE, "empty arch name (see `gpucal arch list`)");
    if ((size_t)snprintf(path, n, "%s/%s.yaml", gc_arch_dir(), name) >= n)
        return gc_err_set(err, GC_EUSAGE, "arch name too long");
    if (!gc_path_exists(path))
        return gc_err_set(err, GC_EUSAGE,
                          "no shipped arch named '%s' in %s (see `gpucal arch list`, or give "
                          "a path to a .yaml file)",
                          name, gc_arch_dir());
    return 0;
}

int gc_arch_open(gc_arch_t **a, const char *name, gc_err_t *err)
{
    char path[4096];
    *a = NULL;
    int rc = gc_arch_resolve(name, path, sizeof(path), err);
    return rc ? rc : gc_arch_load(a, path, err);
}

/* ---- lookups ---- */

/* Append s to buf (n bytes) at *o, snprintf's truncation. */
static void cat(char *buf, size_t n, size_t *o, const char *s)
{
    while (*s && *o + 1 < n)
        buf[(*o)++] = *s++;
}

const char *gc_tensor_label(const gc_tensor_t *t, char *buf, size_t n)
{
    /* "%s %s %s.%s%s%s%s%s" by hand: the loader labels every entry, the
     * predictor every derived key */
    size_t o = 0;
    if (!n)
        return buf;
    cat(buf, n, &o, t->inst ? t->inst : "?");
    cat(buf, n, &o, " ");
    cat(buf, n, &o, t->shape ? t->shape : "?");
    cat(buf, n, &o, " ");
    cat(buf, n, &o, t->a ? t->a : "?");
    cat(buf, n, &o, ".");
    cat(buf, n, &o, t->c ? t->c : "?");
    if (t->operands) {
        cat(buf, n, &o, " ");
        cat(buf, n, &o, t->operands);
    }
    if (t->data) {
        cat(buf, n, &o, " ");
        cat(buf, n, &o, t->data);
    }
    buf[o] = '\0';
    return buf;
}

int gc_tensor_shape(const char *shape, int *m, int *n, int *k)
{
    /* digits by hand, not sscanf: the predictor reads every tensor op's
     * shape on each prediction (model/predict/machine.c) */
    static const char tag[3] = {'m', 'n', 'k'};
    static const int most[3] = {256, 256, 1024};
    int v[3];
    const char *s = shape;
    for (int i = 0; s && i < 3; i++) {
        if (*s++ != tag[i] || *s < '0' || *s > '9')
            return -1;
        v[i] = 0;
        while (*s >= '0' && *s <= '9' && v[i] <= most[i])
            v[i] = v[i] * 10 + (*s++ - '0');
        if (v[i] < 1 || v[i] > most[i])
            return -1;
    }
    if (!s || *s)
        return -1;
    if (m)
        *m = v[0];
    if (n)
        *n = v[1];
    if (k)
        *k = v[2];
    return 0;
}

const gc_tensor_t *gc_arch_tensor(const gc_arch_t *a, const char *inst, const char *shape,
                                  const char *at, const char *ct, const char *operands)
{
    const gc_tensor_t *best = NULL;
    for (size_t i = 0; i < a->n_tensor; i++) {
        const gc_tensor_t *t = &a->tensor[i];
        if (strcmp(t->inst, inst) || strcmp(t->shape, shape) || strcmp(t->a, at) ||
            strcmp(t->c, ct))
            continue;
        if (operands && t->operands && strcmp(operands, t->operands))
            continue;
        if (!best || (t->data && !strcmp(t->data, "rand")))
            best = t;
    }
    return best;
}

const gc_alu_t *gc_arch_alu(const gc_arch_t *a, const char *op)
{
    for (size_t i = 0; i < a->n_alu; i++)
        if (!strcmp(a->alu[i].op, op))
            return &a->alu[i];
    return NULL;
}

const gc_numerics_t *gc_arch_numerics(const gc_arch_t *arch, const char *inst, const char *a,
                                      const char *c)
{
    for (size_t i = 0; arch && i < arch->n_numerics; i++) {
        const gc_numerics_t *n = &arch->numerics[i];
        const char *ni = n->inst ? n->inst : "mma";
        if (n->a && n->c && !strcmp(n->a, a) && !strcmp(n->c, c) &&
            !strcmp(ni, inst ? inst : "mma"))
            return n;
    }
    return NULL;
}

int gc_arch_cc(const gc_arch_t *a)
{
    int maj, min;
    if (!a->cc || sscanf(a->cc, "%d.%d", &maj, &min) != 2)
        return 0;
    return maj * 10 + min;
}
