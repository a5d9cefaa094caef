/* ytree.h - a YAML document as a small tree with source marks.
 *
 * Built from libyaml's event stream (not its recursive document loader), so
 * the nesting depth and the node count are bounded here and a hostile file
 * is refused with a message instead of exhausting the stack. Aliases are
 * refused (no expansion attacks). Every node keeps the 1-based line and
 * column where it starts, for "FILE:LINE:COL: ..." messages.
 */
#ifndef GC_YTREE_H
#define GC_YTREE_H

#include <stdarg.h>
#include <stddef.h>

#include "../util/err.h"

#define GC_YTREE_DEPTH_MAX 32
#define GC_YTREE_NODES_MAX 200000
#define GC_YTREE_FILE_MAX (8u << 20) /* bytes */

typedef enum { GC_Y_SCALAR, GC_Y_MAP, GC_Y_SEQ } gc_ykind_t;

typedef struct gc_ynode {
    gc_ykind_t kind;
    long line, col;          /* 1-based start of the node */
    char *str;               /* SCALAR: its text (NUL-terminated) */
    int plain;               /* SCALAR: 1 if written without quotes */
    size_t n;                /* SEQ: items; MAP: key/value pairs */
    struct gc_ynode **kids;  /* SEQ: n items; MAP: 2n nodes, key then value */
    size_t cap;
} gc_ynode_t;

typedef struct gc_ydoc {
    char *name;              /* file name used in messages */
    gc_ynode_t *root;        /* NULL for an empty document */
    size_t nodes;
} gc_ydoc_t;

/* Parse len bytes of YAML (one document). name is used in messages.
 * Errors: syntax (with libyaml's problem and mark), several documents,
 * aliases, nesting deeper than GC_YTREE_DEPTH_MAX, more than
 * GC_YTREE_NODES_MAX nodes: all GC_EINPUT/GC_ELIMIT with FILE:LINE:COL. */
int gc_ydoc_parse(gc_ydoc_t **doc, const char *name, const char *buf, size_t len,
                  gc_err_t *err);

/* Read path (at most GC_YTREE_FILE_MAX bytes) and parse it. */
int gc_ydoc_load(gc_ydoc_t **doc, const char *path, gc_err_t *err);

void gc_ydoc_destroy(gc_ydoc_t *doc);

/* Fill err with one line "FILE:LINE:COL: PATH: <fmt...>" (no "PATH: " when
 * path is NULL or empty) placed at node n of file; the loaders of arch and
 * kernel files report through it. Returns code. */
int gc_ynode_verr(gc_err_t *err, int code, const char *file, const gc_ynode_t *n,
                  const char *path, const char *fmt, va_list ap);

/* MAP helpers: key i's text and value i. */
const char *gc_ymap_key(const gc_ynode_t *map, size_t i);
gc_ynode_t *gc_ymap_val(const gc_ynode_t *map, size_t i);
gc_ynode_t *gc_ymap_keynode(const gc_ynode_t *map, size_t i);

/* Value for key in map, or NULL. */
gc_ynode_t *gc_ymap_get(const gc_ynode_t *map, const char *key);

/* Human word for a node kind: "a scalar", "a mapping", "a list". */
const char *gc_ykind_name(gc_ykind_t k);

#endif
