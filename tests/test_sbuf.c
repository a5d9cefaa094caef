/* test_sbuf.c - short texts into fixed buffers (util/sbuf.h): every text
 * built piece by piece equals snprintf's of the same format, at every
 * buffer size from 1 byte up (the truncation), for longs over their whole
 * range (0, signs, LONG_MIN / LONG_MAX, each power of ten and its
 * neighbours) and for strings with NULL as nothing. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../util/sbuf.h"
#include "check.h"

/* "%s_%ldx%ld%s" both ways at buffer size n */
static void one(size_t n, const char *a, long x, long y, const char *b)
{
    char want[64], got[64];
    memset(got, 'Z', sizeof(got));
    snprintf(want, n, "%s_%ldx%ld%s", a, x, y, b);
    gc_sbuf_t s;
    gc_sbuf_init(&s, got, n);
    gc_sbuf_str(&s, a);
    gc_sbuf_str(&s, "_");
    gc_sbuf_long(&s, x);
    gc_sbuf_str(gc_sbuf_long(gc_sbuf_str(&s, "x"), y), b); /* chained as well */
    if (strcmp(want, got) != 0 || got[n] != 'Z' || s.len != strlen(got)) {
        fprintf(stderr, "n %zu: \"%s\" vs snprintf \"%s\"\n", n, got, want);
        gc_check_failures++;
    }
}

int main(void)
{
    long v[80];
    int nv = 0;
    v[nv++] = 0;
    v[nv++] = LONG_MAX;
    v[nv++] = LONG_MIN;
    v[nv++] = LONG_MIN + 1;
    for (long p = 1; nv < 76 && p <= LONG_MAX / 10; p *= 10) {
        v[nv++] = p;
        v[nv++] = p - 1 > 0 ? p - 1 : 9;
        v[nv++] = -p;
        v[nv++] = -(p + 1);
    }
    for (int i = 0; i < nv; i++)
        for (size_t n = 1; n <= 60; n++)
            one(n, "wgmma+tma", v[i], v[(i * 7 + 3) % nv], i % 3 ? "_splitK" : "");
    char buf[8];
    gc_sbuf_t s;
    gc_sbuf_init(&s, buf, sizeof(buf));
    gc_sbuf_str(&s, NULL);
    CHECK_STR(buf, "");
    CHECK_STR(gc_sbuf_copy(buf, sizeof(buf), "gemm"), "gemm");
    CHECK_STR(gc_sbuf_copy(buf, sizeof(buf), "splitk-reduce"), "splitk-");
    CHECK_STR(gc_sbuf_copy(buf, 1, "x"), "");
    return gc_check_failures ? 1 : 0;
}
