/* sbuf.c - short texts into fixed buffers (sbuf.h). */
#include "sbuf.h"

#include <string.h>

void gc_sbuf_init(gc_sbuf_t *b, char *buf, size_t n)
{
    b->p = buf;
    b->n = n;
    b->len = 0;
    buf[0] = '\0';
}

/* Append the k bytes at s, cut to the room left. */
static void put(gc_sbuf_t *b, const char *s, size_t k)
{
    size_t room = b->n - 1 - b->len;
    if (k > room)
        k = room;
    memcpy(b->p + b->len, s, k);
    b->len += k;
    b->p[b->len] = '\0';
}

gc_sbuf_t *gc_sbuf_str(gc_sbuf_t *b, const char *s)
{
    if (s)
        put(b, s, strlen(s));
    return b;
}

gc_sbuf_t *gc_sbuf_long(gc_sbuf_t *b, long v)
{
    char d[24], *e = d + sizeof(d), *q = e;
    /* the magnitude as unsigned: LONG_MIN has no positive long */
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        *--q = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--q = '-';
    put(b, q, (size_t)(e - q));
    return b;
}

const char *gc_sbuf_copy(char *buf, size_t n, const char *s)
{
    gc_sbuf_t b;
    gc_sbuf_init(&b, buf, n);
    gc_sbuf_str(&b, s);
    return buf;
}
