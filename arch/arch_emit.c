/* arch_emit.c - write an arch as YAML (libyaml emitter, never printf) and as
 * JSON, walking the tables of arch_schema.c. The YAML loads back to an equal
 * arch: numbers are written in the shortest text that reads back exactly. */
#define _POSIX_C_SOURCE 200809L
#include "arch.h"

#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <yaml.h>

#include "../util/fsio.h"
#include "../util/numfmt.h"
#include "arch_schema.h"

/* ---- writing (libyaml emitter) ---- */

/* 1 if s would read as something other than text in YAML (a number, a
 * boolean, null): such strings are written quoted. */
static int looks_typed(const char *s)
{
    static const char *const words[] = {"true", "false", "yes", "no", "on", "off", "null", "~",
                                        "True", "False", "Yes", "No", "Null", "NULL", NULL};
    for (const char *const *w = words; *w; w++)
        if (!strcmp(s, *w))
            return 1;
    char *e;
    strtod(s, &e);
    return e != s && *e == '\0';
}

typedef struct emitter {
    yaml_emitter_t em;
    int failed;
} emitter_t;

static void ev_scalar(emitter_t *E, const char *s, yaml_scalar_style_t style)
{
    yaml_event_t ev;
    if (E->failed)
        return;
    if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1,
                                      style) ||
        !yaml_emitter_emit(&E->em, &ev))
        E->failed = 1;
}

static void ev_start(emitter_t *E, int map, int flow)
{
    yaml_event_t ev;
    if (E->failed)
        return;
    int ok = map ? yaml_mapping_start_event_initialize(
                       &ev, NULL, NULL, 1,
                       flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE)
                 : yaml_sequence_start_event_initialize(
                       &ev, NULL, NULL, 1,
                       flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
    if (!ok || !yaml_emitter_emit(&E->em, &ev))
        E->failed = 1;
}

static void ev_end(emitter_t *E, int map)
{
    yaml_event_t ev;
    if (E->failed)
        return;
    int ok = map ? yaml_mapping_end_event_initialize(&ev) : yaml_sequence_end_event_initialize(&ev);
    if (!ok || !yaml_emitter_emit(&E->em, &ev))
        E->failed = 1;
}

static void ev_num(emitter_t *E, double v, int is_int)
{
    char b[40];
    gc_num_format(b, sizeof(b), v, is_int);
    ev_scalar(E, b, YAML_PLAIN_SCALAR_STYLE);
}

static void emit_qty(emitter_t *E, const gc_qty_t *q, int is_int)
{
    if (!q->src && !q->note && !q->has_ci) {
        ev_num(E, q->v, is_int);
        return;
    }
    ev_start(E, 1, 1);
    ev_scalar(E, "value", YAML_PLAIN_SCALAR_STYLE);
    ev_num(E, q->v, is_int);
    if (q->has_ci) {
        ev_scalar(E, "ci95", YAML_PLAIN_SCALAR_STYLE);
        ev_start(E, 0, 1);
        ev_num(E, q->lo, 0);
        ev_num(E, q->hi, 0);
        ev_end(E, 0);
    }
    if (q->src) {
        ev_scalar(E, "source", YAML_PLAIN_SCALAR_STYLE);
        ev_scalar(E, q->src, YAML_ANY_SCALAR_STYLE);
    }
    if (q->note) {
        ev_scalar(E, "note", YAML_PLAIN_SCALAR_STYLE);
        ev_scalar(E, q->note, YAML_ANY_SCALAR_STYLE);
    }
    ev_end(E, 1);
}

/* 1 if anything in the map at base is set. */
static int map_any(const gc_schema_t *s, const void *base)
{
    for (size_t i = 0; i < s->n; i++) {
        const gc_field_t *f = &s->f[i];
        switch (f->type) {
        case GC_F_QTY:
            if (GC_CAT(base, f->off, gc_qty_t)->set)
                return 1;
            break;
        case GC_F_STR:
            if (*GC_CAT(base, f->off, char *const))
                return 1;
            break;
        case GC_F_FLAG:
            if (GC_CAT(base, f->off, gc_flag_t)->set)
                return 1;
            break;
        case GC_F_MAP:
            if (map_any(f->sub, GC_CAT(base, f->off, void)))
                return 1;
            break;
        case GC_F_LIST:
            if (*GC_CAT(base, f->cnt_off, size_t))
                return 1;
            break;
        }
    }
    return 0;
}

static void emit_map(emitter_t *E, const gc_schema_t *s, const void *base, int flow)
{
    ev_start(E, 1, flow);
    for (size_t i = 0; i < s->n; i++) {
        const gc_field_t *f = &s->f[i];
        const void *m = GC_CAT(base, f->off, void);
        switch (f->type) {
        case GC_F_QTY:
            if (!((const gc_qty_t *)m)->set)
                continue;
            ev_scalar(E, f->key, YAML_PLAIN_SCALAR_STYLE);
            emit_qty(E, m, (f->flags & GC_F_INT) != 0);
            break;
        case GC_F_STR:
            if (!*(const char *const *)m)
                continue;
            ev_scalar(E, f->key, YAML_PLAIN_SCALAR_STYLE);
            ev_scalar(E, *(const char *const *)m,
                      looks_typed(*(const char *const *)m) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
                                                           : YAML_ANY_SCALAR_STYLE);
            break;
        case GC_F_FLAG:
            if (!((const gc_flag_t *)m)->set)
                continue;
            ev_scalar(E, f->key, YAML_PLAIN_SCALAR_STYLE);
            ev_scalar(E, ((const gc_flag_t *)m)->val ? "true" : "false",
                      YAML_PLAIN_SCALAR_STYLE);
            break;
        case GC_F_MAP:
            if (!map_any(f->sub, m))
                continue;
            ev_scalar(E, f->key, YAML_PLAIN_SCALAR_STYLE);
            emit_map(E, f->sub, m, 0);
            break;
        case GC_F_LIST: {
            size_t n = *GC_CAT(base, f->cnt_off, size_t);
            const char *arr = *(const char *const *)m;
            if (!n)
                continue;
            ev_scalar(E, f->key, YAML_PLAIN_SCALAR_STYLE);
            ev_start(E, 0, 0);
            for (size_t k = 0; k < n; k++)
                emit_map(E, f->sub, arr + k * f->sub->size, (f->flags & GC_F_FLOW) != 0);
            ev_end(E, 0);
            break;
        }
        }
    }
    ev_end(E, 1);
}

static int write_file(void *data, unsigned char *buf, size_t n)
{
    return fwrite(buf, 1, n, (FILE *)data) == n;
}

int gc_arch_emit(const gc_arch_t *a, FILE *fp, gc_err_t *err)
{
    emitter_t E = {.failed = 0};
    yaml_event_t ev;
    if (!yaml_emitter_initialize(&E.em))
        return gc_err_set(err, GC_ENOMEM, "out of memory (YAML emitter)");
    yaml_emitter_set_output(&E.em, write_file, fp);
    yaml_emitter_set_unicode(&E.em, 1);
    yaml_emitter_set_width(&E.em, 100);
    yaml_emitter_set_indent(&E.em, 2);
    if (!yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) ||
        !yaml_emitter_emit(&E.em, &ev) ||
        !yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) ||
        !yaml_emitter_emit(&E.em, &ev))
        E.failed = 1;
    emit_map(&E, &gc_arch_root_schema, a, 0);
    if (!E.failed && (!yaml_document_end_event_initialize(&ev, 1) ||
                      !yaml_emitter_emit(&E.em, &ev) || !yaml_stream_end_event_initialize(&ev) ||
                      !yaml_emitter_emit(&E.em, &ev) || !yaml_emitter_flush(&E.em)))
        E.failed = 1;
    const char *problem = E.em.problem;
    yaml_emitter_delete(&E.em);
    if (E.failed)
        return gc_err_set(err, GC_EIO, "writing YAML failed: %s",
                          problem ? problem : "output error");
    return 0;
}

int gc_arch_save(const gc_arch_t *a, const char *path, int force, gc_err_t *err)
{
    gc_afile_t af;
    int rc = gc_afile_open(&af, path, force ? GC_AFILE_FORCE : 0, err);
    if (rc)
        return rc;
    fprintf(af.fp, "# %s: architecture file (schema %s); keys in arch/README.md\n", a->name,
            GC_ARCH_SCHEMA);
    rc = gc_arch_emit(a, af.fp, err);
    if (rc) {
        gc_afile_abort(&af);
        return rc;
    }
    return gc_afile_commit(&af, err);
}

/* ---- JSON ---- */

void gc_json_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(fp, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(fp, "\\u%04x", *p);
        else
            fputc(*p, fp);
    }
    fputc('"', fp);
}

static void json_map(FILE *fp, const gc_schema_t *s, const void *base, int ind)
{
    int first = 1;
    fputc('{', fp);
    for (size_t i = 0; i < s->n; i++) {
        const gc_field_t *f = &s->f[i];
        const void *m = GC_CAT(base, f->off, void);
        int has = 0;
        switch (f->type) {
        case GC_F_QTY:
            has = ((const gc_qty_t *)m)->set;
            break;
        case GC_F_STR:
            has = *(const char *const *)m != NULL;
            break;
        case GC_F_FLAG:
            has = ((const gc_flag_t *)m)->set;
            break;
        case GC_F_MAP:
            has = map_any(f->sub, m);
            break;
        case GC_F_LIST:
            has = *GC_CAT(base, f->cnt_off, size_t) > 0;
            break;
        }
        if (!has)
            continue;
        fprintf(fp, "%s\n%*s\"%s\": ", first ? "" : ",", ind + 2, "", f->key);
        first = 0;
        char b[40];
        switch (f->type) {
        case GC_F_QTY: {
            const gc_qty_t *q = m;
            gc_num_format(b, sizeof(b), q->v, (f->flags & GC_F_INT) != 0);
            fprintf(fp, "{\"value\": %s", b);
            if (q->has_ci) {
                gc_num_format(b, sizeof(b), q->lo, 0);
                fprintf(fp, ", \"ci95\": [%s, ", b);
                gc_num_format(b, sizeof(b), q->hi, 0);
                fprintf(fp, "%s]", b);
            }
            fprintf(fp, ", \"unit\": ");
            gc_json_str(fp, f->unit);
            if (q->src) {
                fprintf(fp, ", \"source\": ");
                gc_json_str(fp, q->src);
            }
            if (q->note) {
                fprintf(fp, ", \"note\": ");
                gc_json_str(fp, q->note);
            }
            fputc('}', fp);
            break;
        }
        case GC_F_STR:
            gc_json_str(fp, *(const char *const *)m);
            break;
        case GC_F_FLAG:
            fputs(((const gc_flag_t *)m)->val ? "true" : "false", fp);
            break;
        case GC_F_MAP:
            json_map(fp, f->sub, m, ind + 2);
            break;
        case GC_F_LIST: {
            size_t n = *GC_CAT(base, f->cnt_off, size_t);
            const char *arr = *(const char *const *)m;
            fputc('[', fp);
            for (size_t k = 0; k < n; k++) {
                fprintf(fp, "%s\n%*s", k ? "," : "", ind + 4, "");
                json_map(fp, f->sub, arr + k * f->sub->size, ind + 4);
            }
            fprintf(fp, "\n%*s]", ind + 2, "");
            break;
        }
        }
    }
    fprintf(fp, "\n%*s}", ind, "");
}

int gc_arch_emit_json(const gc_arch_t *a, FILE *fp)
{
    json_map(fp, &gc_arch_root_schema, a, 0);
    fputc('\n', fp);
    return ferror(fp) ? GC_EIO : 0;
}

