/* jsonl.h - a small reader for one line of JSON lines: a flat object whose
 * members are strings, numbers, true, false or null (what a gpucal batch
 * request is; nested values are refused). Also the JSON string escaper
 * the batch output uses.
 *
 * Errors: GC_EINPUT, "column C: what is wrong; how to fix" (the caller
 * puts the file and line in front).
 */
#ifndef GC_JSONL_H
#define GC_JSONL_H

#include <stddef.h>
#include <stdio.h>

#include "../util/err.h"

#define GC_JSONL_MEMBERS 48
#define GC_JSONL_TEXT 4096

typedef enum { GC_JV_STR, GC_JV_NUM, GC_JV_BOOL, GC_JV_NULL } gc_jv_type_t;

typedef struct gc_jobj {
    int n;
    struct {
        const char *key;
        const char *text; /* string: unescaped; number: as written; bool: "true"/"false" */
        gc_jv_type_t type;
    } m[GC_JSONL_MEMBERS];
    char buf[GC_JSONL_TEXT]; /* keys and values, NUL-separated */
    size_t used;
} gc_jobj_t;

/* Parse line (len bytes, no newline needed) into o. A blank line gives
 * n = 0 and returns 1 (the caller skips it). 0 ok; GC_EINPUT. */
int gc_jsonl_parse(const char *line, size_t len, gc_jobj_t *o, gc_err_t *err);

/* The member named key, or -1. */
int gc_jsonl_find(const gc_jobj_t *o, const char *key);

/* Write s as a JSON string (quotes included). */
void gc_jsonl_string(const char *s, FILE *fp);

#endif
