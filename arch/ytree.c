/* ytree.c - YAML event stream -> gc_ynode tree (see ytree.h). */
#include "ytree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "../util/fsio.h"

static void node_free(gc_ynode_t *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->cap && n->kids; i++)
        node_free(n->kids[i]);
    free(n->kids);
    free(n->str);
    free(n);
}

void gc_ydoc_destroy(gc_ydoc_t *doc)
{
    if (!doc)
        return;
    node_free(doc->root);
    free(doc->name);
    free(doc);
}

static gc_ynode_t *node_new(gc_ykind_t kind, const yaml_mark_t *m)
{
    gc_ynode_t *n = calloc(1, sizeof(*n));
    if (!n)
        return NULL;
    n->kind = kind;
    n->line = (long)m->line + 1;
    n->col = (long)m->column + 1;
    return n;
}

/* Append child c to container p (kids zero-filled beyond n for free). */
static int node_add(gc_ynode_t *p, gc_ynode_t *c)
{
    size_t slots = p->kind == GC_Y_MAP ? 2 * p->n + 2 : p->n + 1;
    if (slots > p->cap) {
        size_t ncap = p->cap ? p->cap * 2 : 8;
        while (ncap < slots)
            ncap *= 2;
        gc_ynode_t **k = realloc(p->kids, ncap * sizeof(*k));
        if (!k)
            return -1;
        memset(k + p->cap, 0, (ncap - p->cap) * sizeof(*k));
        p->kids = k;
        p->cap = ncap;
    }
    if (p->kind == GC_Y_SEQ) {
        p->kids[p->n++] = c;
    } else if (!p->kids[2 * p->n]) {
        p->kids[2 * p->n] = c; /* a key: wait for its value */
    } else {
        p->kids[2 * p->n + 1] = c;
        p->n++;
    }
    return 0;
}

static const char *event_what(yaml_event_type_t t)
{
    switch (t) {
    case YAML_ALIAS_EVENT:
        return "an alias";
    case YAML_SEQUENCE_START_EVENT:
        return "a list";
    case YAML_MAPPING_START_EVENT:
        return "a mapping";
    default:
        return "a scalar";
    }
}

/* The tree being built from the parser's events. */
typedef struct builder {
    gc_ydoc_t *doc;
    const char *name;
    gc_ynode_t *stack[GC_YTREE_DEPTH_MAX + 1];
    int depth, docs;
    gc_err_t *err;
} builder_t;

/* A new node for a scalar / sequence-start / mapping-start event (*np);
 * 0 or the error (the node then freed). */
static int node_of(builder_t *b, const yaml_event_t *ev, gc_ynode_t **np)
{
    const yaml_mark_t *m = &ev->start_mark;
    gc_ynode_t *n;
    int rc = 0;
    *np = NULL;
    if (++b->doc->nodes > GC_YTREE_NODES_MAX)
        return gc_err_at(b->err, GC_ELIMIT, b->name, (long)m->line + 1, (long)m->column + 1,
                         "more than %d YAML nodes: larger than any gpucal file",
                         GC_YTREE_NODES_MAX);
    if (ev->type == YAML_SCALAR_EVENT) {
        n = node_new(GC_Y_SCALAR, m);
        if (n) {
            n->str = malloc(ev->data.scalar.length + 1);
            if (n->str) {
                memcpy(n->str, ev->data.scalar.value, ev->data.scalar.length);
                n->str[ev->data.scalar.length] = '\0';
                if (strlen(n->str) != ev->data.scalar.length)
                    rc = gc_err_at(b->err, GC_EINPUT, b->name, n->line, n->col,
                                   "NUL character inside a value");
            }
            n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        }
    } else {
        n = node_new(ev->type == YAML_MAPPING_START_EVENT ? GC_Y_MAP : GC_Y_SEQ, m);
    }
    if (!n || (n->kind == GC_Y_SCALAR && !n->str))
        rc = gc_err_set(b->err, GC_ENOMEM, "out of memory");
    if (rc) {
        node_free(n);
        return rc;
    }
    *np = n;
    return 0;
}

/* Hang node n (of event type) under the open collection, or make it the
 * root; a collection becomes the open one. */
static int node_place(builder_t *b, gc_ynode_t *n, yaml_event_type_t type)
{
    if (b->depth == 0) {
        if (b->doc->root) { /* cannot happen with one document */
            int rc = gc_err_at(b->err, GC_EINPUT, b->name, n->line, n->col, "unexpected %s",
                               event_what(type));
            node_free(n);
            return rc;
        }
        b->doc->root = n;
    } else if (node_add(b->stack[b->depth - 1], n) != 0) {
        node_free(n);
        return gc_err_set(b->err, GC_ENOMEM, "out of memory");
    }
    if (n->kind != GC_Y_SCALAR) {
        if (b->depth == GC_YTREE_DEPTH_MAX)
            return gc_err_at(b->err, GC_ELIMIT, b->name, n->line, n->col,
                             "nested deeper than %d levels: no gpucal file is that deep",
                             GC_YTREE_DEPTH_MAX);
        b->stack[b->depth++] = n;
    }
    return 0;
}

/* One parser event into the tree; *done at the end of the stream. */
static int on_event(builder_t *b, const yaml_event_t *ev, int *done)
{
    const yaml_mark_t *m = &ev->start_mark;
    gc_ynode_t *n = NULL;
    int rc;
    switch (ev->type) {
    case YAML_STREAM_END_EVENT:
        *done = 1;
        return 0;
    case YAML_DOCUMENT_START_EVENT:
        if (++b->docs > 1)
            return gc_err_at(b->err, GC_EINPUT, b->name, (long)m->line + 1, (long)m->column + 1,
                             "a second YAML document ('---'): a gpucal file holds one");
        return 0;
    case YAML_ALIAS_EVENT:
        return gc_err_at(b->err, GC_EINPUT, b->name, (long)m->line + 1, (long)m->column + 1,
                         "YAML aliases ('*name') are not supported in gpucal files: write "
                         "the value out");
    case YAML_SCALAR_EVENT:
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        if ((rc = node_of(b, ev, &n)))
            return rc;
        return node_place(b, n, ev->type);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        if (b->depth > 0)
            b->depth--;
        return 0;
    default:
        return 0;
    }
}

/* A reader error (a byte libyaml refuses: a control byte, invalid UTF-8)
 * carries a byte offset, not a line: count the lines of buf up to it. */
static int reader_error(const yaml_parser_t *parser, const char *name, const char *buf,
                        size_t len, gc_err_t *err)
{
    size_t at = parser->problem_offset < len ? parser->problem_offset : len;
    long line = 1, col = 1;
    for (size_t i = 0; i < at; i++, col++)
        if (buf[i] == '\n') {
            line++;
            col = 0;
        }
    int v = parser->problem_value;
    if ((v >= 0 && v < 0x20) || v == 0x7f)
        return gc_err_at(err, GC_EINPUT, name, line, col,
                         "control byte 0x%02x: not a text YAML file (is this a binary file?)", v);
    return gc_err_at(err, GC_EINPUT, name, line, col,
                     "YAML syntax error: %s (save the file as UTF-8 text)",
                     parser->problem ? parser->problem : "unreadable byte");
}

/* The syntax error the parser stopped at. */
static int syntax_error(const yaml_parser_t *parser, const char *name, const char *buf,
                        size_t len, gc_err_t *err)
{
    if (parser->error == YAML_READER_ERROR)
        return reader_error(parser, name, buf, len, err);
    const char *ctx = parser->context ? parser->context : NULL;
    return gc_err_at(err, GC_EINPUT, name, (long)parser->problem_mark.line + 1,
                     (long)parser->problem_mark.column + 1,
                     "YAML syntax error: %s%s%s (fix the indentation or quoting there)",
                     parser->problem ? parser->problem : "unknown problem", ctx ? ", " : "",
                     ctx ? ctx : "");
}

int gc_ydoc_parse(gc_ydoc_t **out, const char *name, const char *buf, size_t len, gc_err_t *err)
{
    *out = NULL;
    gc_ydoc_t *doc = calloc(1, sizeof(*doc));
    if (!doc)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    size_t nl = strlen(name) + 1;
    doc->name = malloc(nl);
    if (!doc->name) {
        free(doc);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    memcpy(doc->name, name, nl);

    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        gc_ydoc_destroy(doc);
        return gc_err_set(err, GC_ENOMEM, "out of memory (YAML parser)");
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
    builder_t b = {.doc = doc, .name = name, .depth = 0, .docs = 0, .err = err};
    int rc = 0, done = 0;
    while (!done && !rc) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            rc = syntax_error(&parser, name, buf, len, err);
            break;
        }
        rc = on_event(&b, &ev, &done);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    if (rc) {
        gc_ydoc_destroy(doc);
        return rc;
    }
    *out = doc;
    return 0;
}

int gc_ydoc_load(gc_ydoc_t **doc, const char *path, gc_err_t *err)
{
    char *buf;
    size_t len;
    *doc = NULL;
    int rc = gc_file_read(path, GC_YTREE_FILE_MAX, &buf, &len, err);
    if (rc)
        return rc;
    rc = gc_ydoc_parse(doc, path, buf, len, err);
    free(buf);
    return rc;
}

const char *gc_ymap_key(const gc_ynode_t *map, size_t i)
{
    const gc_ynode_t *k = map->kids[2 * i];
    return k->kind == GC_Y_SCALAR ? k->str : "";
}

gc_ynode_t *gc_ymap_keynode(const gc_ynode_t *map, size_t i)
{
    return map->kids[2 * i];
}

gc_ynode_t *gc_ymap_val(const gc_ynode_t *map, size_t i)
{
    return map->kids[2 * i + 1];
}

gc_ynode_t *gc_ymap_get(const gc_ynode_t *map, const char *key)
{
    if (!map || map->kind != GC_Y_MAP)
        return NULL;
    for (size_t i = 0; i < map->n; i++)
        if (map->kids[2 * i]->kind == GC_Y_SCALAR && strcmp(map->kids[2 * i]->str, key) == 0)
            return map->kids[2 * i + 1];
    return NULL;
}

const char *gc_ykind_name(gc_ykind_t k)
{
    switch (k) {
    case GC_Y_SCALAR:
        return "a scalar";
    case GC_Y_MAP:
        return "a mapping";
    default:
        return "a list";
    }
}

int gc_ynode_verr(gc_err_t *err, int code, const char *file, const gc_ynode_t *n,
                  const char *path, const char *fmt, va_list ap)
{
    char msg[GC_ERR_MSG_MAX];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    if (path && path[0])
        return gc_err_at(err, code, file, n->line, n->col, "%s: %s", path, msg);
    return gc_err_at(err, code, file, n->line, n->col, "%s", msg);
}
