/* sbuf.h - short texts (kernel names, instruction forms) built into a
 * caller's fixed buffer without the printf machinery: a prediction builds
 * a dozen of them, and snprintf's format parsing cost more than the model.
 * Every append truncates as snprintf does (at n - 1 bytes, the buffer
 * always NUL-terminated), so a text built piece by piece equals the one
 * snprintf would write. Owns nothing. */
#ifndef GC_SBUF_H
#define GC_SBUF_H

#include <stddef.h>

typedef struct gc_sbuf {
    char *p;    /* the caller's buffer */
    size_t n;   /* its size, bytes (> 0) */
    size_t len; /* text written so far (< n) */
} gc_sbuf_t;

/* Start an empty text in buf (n > 0 bytes). */
void gc_sbuf_init(gc_sbuf_t *b, char *buf, size_t n);

/* Append string s (NULL: nothing). Returns b. */
gc_sbuf_t *gc_sbuf_str(gc_sbuf_t *b, const char *s);

/* Append v in decimal, as "%ld" writes it. Returns b. */
gc_sbuf_t *gc_sbuf_long(gc_sbuf_t *b, long v);

/* snprintf(buf, n, "%s", s) in one call; returns buf. */
const char *gc_sbuf_copy(char *buf, size_t n, const char *s);

#endif
