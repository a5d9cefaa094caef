/* jbuf.h - JSON text into a growing memory buffer, the fast way gpucal
 * writes its JSON documents (predictions, batch answers): no stdio, numbers
 * through numfmt.h's exact formatters, so the bytes are those fprintf would
 * have written.
 *
 * Two layouts from one writer: pretty (the text as given, newlines and
 * indentation included: `--format json`) and compact (one line: each
 * newline outside a string, with the blanks after it, becomes one space,
 * or nothing next to an opening or closing bracket: the batch answers).
 * A writer that runs out of memory sets bad and writes nothing more.
 */
#ifndef GC_JBUF_H
#define GC_JBUF_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef struct gc_jbuf {
    char *p;      /* the text, NUL-terminated when len > 0 (owned) */
    size_t len, cap;
    int compact;  /* 1: one line (see above) */
    int pend;     /* compact: a newline was dropped, the next byte decides */
    char prev;    /* compact: the last byte written */
    int bad;      /* out of memory */
} gc_jbuf_t;

/* An empty buffer, pretty (compact = 0) or one line (compact = 1). */
void gc_jbuf_init(gc_jbuf_t *jb, int compact);

/* Free the text. */
void gc_jbuf_fini(gc_jbuf_t *jb);

/* Empty the buffer (keeps its memory and layout). */
void gc_jbuf_reset(gc_jbuf_t *jb);

/* Literal JSON text (structure, keys, quoted constants) of n bytes, laid
 * out per the buffer's layout; no newline may stand inside its strings. */
void gc_jbuf_litn(gc_jbuf_t *jb, const char *s, size_t n);

/* gc_jbuf_litn of a NUL-terminated text. */
void gc_jbuf_lit(gc_jbuf_t *jb, const char *s);

/* A JSON fragment from elsewhere (balanced strings, which may hold any
 * byte), laid out per the buffer's layout. */
void gc_jbuf_json(gc_jbuf_t *jb, const char *s);

/* Literal text of n bytes without a newline (gc_jbuf_litn without the
 * scan for one): blanks in front are dropped after a dropped newline.
 * Inline, so that a literal's constant length makes its copy a few moves;
 * gc_jbuf_lit1_slow does the rest (growth, a dropped newline). */
void gc_jbuf_lit1_slow(gc_jbuf_t *jb, const char *s, size_t n);

static inline void gc_jbuf_lit1(gc_jbuf_t *jb, const char *s, size_t n)
{
    if (n > 0 && !jb->pend && jb->len + n + 1 <= jb->cap) {
        memcpy(jb->p + jb->len, s, n);
        jb->len += n;
        jb->p[jb->len] = '\0';
        jb->prev = s[n - 1];
        return;
    }
    gc_jbuf_lit1_slow(jb, s, n);
}

/* A newline and indent blanks (0..16) in the pretty layout; in the compact
 * one nothing now, the next byte decides (see above). */
void gc_jbuf_nl(gc_jbuf_t *jb, int indent);

/* Raw bytes, no layout (a number, an escaped string's body). */
void gc_jbuf_raw(gc_jbuf_t *jb, const char *s, size_t n);

/* s as a JSON string: quoted, '"' and '\' escaped, control bytes as
 * \u00XX; NULL as "" (gc_json_str's bytes). */
void gc_jbuf_str(gc_jbuf_t *jb, const char *s);

/* s between quotes as it is (printf's "\"%s\"": no escaping; NULL: ""). */
void gc_jbuf_qraw(gc_jbuf_t *jb, const char *s);

/* A number, gc_num_format's shortest exact text (is_int 0); inf and NaN
 * are written as 0. */
void gc_jbuf_num(gc_jbuf_t *jb, double v);

/* printf's "%ld". */
void gc_jbuf_long(gc_jbuf_t *jb, long v);

/* printf's "%.*f" with d decimals (0 <= d <= 17). */
void gc_jbuf_fixed(gc_jbuf_t *jb, double v, int d);

/* printf's "%.6g". */
void gc_jbuf_g6(gc_jbuf_t *jb, double v);

/* Write the text to fp; returns fwrite's count == len. */
int gc_jbuf_write(const gc_jbuf_t *jb, FILE *fp);

#endif
