/* jbuf.c - JSON text into a growing memory buffer (jbuf.h). */
#include "jbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"

void gc_jbuf_init(gc_jbuf_t *jb, int compact)
{
    memset(jb, 0, sizeof(*jb));
    jb->compact = compact;
}

void gc_jbuf_fini(gc_jbuf_t *jb)
{
    free(jb->p);
    memset(jb, 0, sizeof(*jb));
}

void gc_jbuf_reset(gc_jbuf_t *jb)
{
    jb->len = 0;
    jb->pend = 0;
    jb->prev = 0;
    jb->bad = 0;
    if (jb->p)
        jb->p[0] = '\0';
}

/* Room for n more bytes and the NUL; 0 when memory ran out. */
static int room(gc_jbuf_t *jb, size_t n)
{
    if (jb->bad)
        return 0;
    if (jb->len + n + 1 <= jb->cap)
        return 1;
    size_t cap = jb->cap ? jb->cap : 4096;
    while (cap < jb->len + n + 1)
        cap *= 2;
    char *p = realloc(jb->p, cap);
    if (!p) {
        jb->bad = 1;
        return 0;
    }
    jb->p = p;
    jb->cap = cap;
    return 1;
}

/* Bytes as they are; in the compact layout a dropped newline before them
 * first becomes a space unless a bracket is on either side. */
static void put(gc_jbuf_t *jb, const char *s, size_t n)
{
    if (n == 0 || !room(jb, n + 1))
        return;
    if (jb->compact && jb->pend) {
        jb->pend = 0;
        if (jb->prev != '{' && jb->prev != '[' && s[0] != '}' && s[0] != ']')
            jb->p[jb->len++] = ' ';
    }
    memcpy(jb->p + jb->len, s, n);
    jb->len += n;
    jb->p[jb->len] = '\0';
    jb->prev = s[n - 1];
}

void gc_jbuf_raw(gc_jbuf_t *jb, const char *s, size_t n)
{
    put(jb, s, n);
}

/* The compact layout of literal text (no newline inside its strings):
 * the runs between newlines are copied whole; a newline and the blanks
 * after it are dropped (put decides on the space). */
static void lit_compact(gc_jbuf_t *jb, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (jb->pend)
            while (i < n && (s[i] == ' ' || s[i] == '\n'))
                i++;
        if (i == n)
            return;
        size_t end = i;
        while (end < n && s[end] != '\n') /* literals are short: no memchr call */
            end++;
        put(jb, s + i, end - i);
        if (end == n)
            return;
        jb->pend = 1;
        i = end + 1;
    }
}

void gc_jbuf_json(gc_jbuf_t *jb, const char *s)
{
    size_t n = strlen(s), i = 0, run;
    int in_str = 0;
    if (!jb->compact) {
        put(jb, s, n);
        return;
    }
    if (jb->pend)
        while (i < n && (s[i] == ' ' || s[i] == '\n'))
            i++;
    run = i;
    while (i < n) { /* the strings' own bytes (newlines too) are copied as they are */
        if (!in_str && s[i] == '\n') {
            put(jb, s + run, i - run);
            while (i < n && (s[i] == '\n' || s[i] == ' '))
                i++;
            jb->pend = 1;
            run = i;
            continue;
        }
        if (in_str && s[i] == '\\' && i + 1 < n)
            i++;
        else if (s[i] == '"')
            in_str = !in_str;
        i++;
    }
    put(jb, s + run, n - run);
}

void gc_jbuf_litn(gc_jbuf_t *jb, const char *s, size_t n)
{
    if (jb->compact)
        lit_compact(jb, s, n);
    else
        put(jb, s, n);
}

void gc_jbuf_lit1_slow(gc_jbuf_t *jb, const char *s, size_t n)
{
    if (jb->compact && jb->pend) /* the blanks after a dropped newline */
        while (n > 0 && *s == ' ')
            s++, n--;
    put(jb, s, n);
}

void gc_jbuf_nl(gc_jbuf_t *jb, int indent)
{
    static const char blanks[] = "\n                ";
    if (jb->compact)
        jb->pend = 1;
    else
        put(jb, blanks, 1 + (size_t)(indent < 16 ? indent : 16));
}

void gc_jbuf_lit(gc_jbuf_t *jb, const char *s)
{
    gc_jbuf_litn(jb, s, strlen(s));
}

void gc_jbuf_str(gc_jbuf_t *jb, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)p);
    put(jb, "\"", 1);
    if (!room(jb, 6 * n + 1)) /* the worst case: every byte as \u00XX */
        return;
    char *d = jb->p + jb->len;
    for (; *p; p++) { /* straight into the buffer */
        unsigned char c = *p;
        if (c >= 0x20 && c != '"' && c != '\\') {
            *d++ = (char)c;
        } else if (c >= 0x20) {
            *d++ = '\\';
            *d++ = (char)c;
        } else {
            memcpy(d, "\\u00", 4);
            d[4] = hex[c >> 4], d[5] = hex[c & 15];
            d += 6;
        }
    }
    *d++ = '"';
    *d = '\0';
    jb->len = (size_t)(d - jb->p);
    jb->prev = '"';
}

void gc_jbuf_qraw(gc_jbuf_t *jb, const char *s)
{
    put(jb, "\"", 1);
    if (s)
        put(jb, s, strlen(s));
    put(jb, "\"", 1);
}

/* Room for a value of at most n bytes written in place, the space a
 * dropped newline asks for already in front; NULL when out of memory. */
static char *value_at(gc_jbuf_t *jb, size_t n)
{
    if (!room(jb, n + 2))
        return NULL;
    if (jb->compact && jb->pend) { /* a value never starts with a bracket */
        jb->pend = 0;
        if (jb->prev != '{' && jb->prev != '[')
            jb->p[jb->len++] = ' ';
    }
    return jb->p + jb->len;
}

/* The value of k bytes written at value_at's place. */
static void value_done(gc_jbuf_t *jb, size_t k)
{
    if (k == 0)
        return;
    jb->len += k;
    jb->p[jb->len] = '\0';
    jb->prev = jb->p[jb->len - 1];
}

void gc_jbuf_num(gc_jbuf_t *jb, double v)
{
    char *d = value_at(jb, 64);
    if (d)
        value_done(jb, gc_num_format_len(d, 64, isfinite(v) ? v : 0, 0));
}

void gc_jbuf_long(gc_jbuf_t *jb, long v)
{
    char dig[24];
    int k = (int)sizeof(dig);
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        dig[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        dig[--k] = '-';
    char *d = value_at(jb, sizeof(dig));
    if (d) {
        memcpy(d, dig + k, sizeof(dig) - (size_t)k);
        value_done(jb, sizeof(dig) - (size_t)k);
    }
}

void gc_jbuf_fixed(gc_jbuf_t *jb, double v, int d)
{
    char buf[400]; /* "%.17f" of DBL_MAX: 309 digits, the point, 17 decimals */
    gc_num_fixed(buf, sizeof(buf), v, d);
    put(jb, buf, strlen(buf));
}

void gc_jbuf_g6(gc_jbuf_t *jb, double v)
{
    char buf[40];
    gc_num_general(buf, sizeof(buf), v, 6);
    put(jb, buf, strlen(buf));
}

int gc_jbuf_write(const gc_jbuf_t *jb, FILE *fp)
{
    return jb->len == 0 || fwrite(jb->p, 1, jb->len, fp) == jb->len;
}
