/* arch_schema.h - the declarative description of gpucal-arch/1 (internal).
 *
 * One gc_field_t per key: its type, where it lives in the C struct, its
 * unit, range and meaning. arch.c walks these tables to load, validate,
 * write, compare and document arch files, so the five never disagree.
 */
#ifndef GC_ARCH_SCHEMA_H
#define GC_ARCH_SCHEMA_H

#include <stddef.h>

typedef enum { GC_F_QTY, GC_F_STR, GC_F_FLAG, GC_F_MAP, GC_F_LIST } gc_ftype_t;

enum {
    GC_F_REQ = 1,  /* the key must be present */
    GC_F_INT = 2,  /* the value must be a whole number */
    GC_F_POS = 4,  /* the value must be >= its unit's physical floor (gc_field_floor), > 0 */
    GC_F_FLOW = 8, /* LIST: write each entry on one line */
};

struct gc_schema;

typedef struct gc_field {
    const char *key;
    gc_ftype_t type;
    size_t off;                   /* offset of the member in its struct */
    unsigned flags;
    double lo, hi;                /* QTY: inclusive range */
    const char *unit;             /* QTY: unit in words */
    const struct gc_schema *sub;  /* MAP/LIST: schema of the map / of each entry */
    size_t cnt_off;               /* LIST: offset of the size_t count */
    const char *const *choices;   /* STR: allowed values (NULL-terminated) */
    int (*check)(const char *s);  /* STR: 0 if s is well formed */
    const char *hint;             /* STR: what a well-formed value looks like */
    const char *doc;              /* one sentence */
} gc_field_t;

/* The smallest value a GC_F_POS field may take: the physical floor of its
 * unit (arch/README.md, "Bounds"), so that no value the loader accepts can
 * make a prediction overflow (1e-300 GB/s -> an infinite time). 0 for a
 * field without GC_F_POS. */
double gc_field_floor(const gc_field_t *f);

typedef struct gc_schema {
    const char *name;             /* "tensor entry", "memory.l2", ... */
    size_t size;                  /* LIST entry size */
    const gc_field_t *f;
    size_t n;
    /* LIST entries: a short label that identifies the entry */
    const char *(*label)(const void *entry, char *buf, size_t n);
} gc_schema_t;

extern const gc_schema_t gc_arch_root_schema;

/* Member at byte offset off of the struct at base. */
#define GC_AT(base, off, T) ((T *)((char *)(base) + (off)))
#define GC_CAT(base, off, T) ((const T *)((const char *)(base) + (off)))

/* Longest dotted key path ("memory.l2.near_hit_cyc", "tensor[...].conv[4x3].rate"). */
#define GC_KEY_MAX 320

/* out = "path.key" (or "key" at the top level), truncated to n bytes. */
void gc_schema_path(char *out, size_t n, const char *path, const char *key);

/* " (did you mean 'K'?)" naming the key of s closest to key, or "" (util/suggest.h);
 * into buf of n bytes, returned. */
const char *gc_schema_suggest(const gc_schema_t *s, const char *key, char *buf, size_t n);

#endif
