/* test_jbuf.c - the JSON buffer writer (util/jbuf.h) and numfmt's printf
 * forms (util/numfmt.h): "%.*f" and "%.6g" checked against printf itself
 * on 200,000 values over every magnitude, with the ties and the
 * boundaries where the rounding carries; the compact layout against known
 * one-line texts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/jbuf.h"
#include "../util/numfmt.h"
#include "check.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A value of random sign and magnitude 1e-310 .. 1e17, or a decimal-ish one
 * (k / 2^j, k / 10^j: exact ties and near-ties of the rounding). */
static double draw(int i)
{
    uint64_t r = next();
    double v;
    if (i % 3 == 0) {
        v = (double)(r % 2000001) / (double)(1ULL << (r >> 40) % 12);
    } else if (i % 3 == 1) {
        static const double p10[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7};
        v = (double)(r % 100000000) / p10[(r >> 50) % 8];
    } else {
        v = (double)(r >> 11) / 9007199254740992.0 * 10.0;
        int e = (int)((r >> 3) % 33) - 20;
        for (; e > 0; e--)
            v *= 10;
        for (; e < 0; e++)
            v /= 10;
    }
    return (r & 1) ? -v : v;
}

static int mismatches;

static void same(const char *got, const char *want, const char *fmt, double v)
{
    if (strcmp(got, want) && mismatches++ < 10)
        fprintf(stderr, "%s of %.17g: got %s, printf %s\n", fmt, v, got, want);
}

/* gc_num_format's definition by printf and strtod: the fewest decimals of
 * "%.*f" that read back (plain range), "%.*g" else; ".0" on non-integers */
static void shortest_ref(char *b, size_t n, double v)
{
    double a = fabs(v);
    for (int p = a == 0 || (a >= 1e-4 && a < 1e15) ? 0 : 1; p <= 17; p++) {
        snprintf(b, n, a == 0 || (a >= 1e-4 && a < 1e15) ? "%.*f" : "%.*g", p, v);
        if (strtod(b, NULL) == v)
            break;
    }
    if (!strpbrk(b, ".eEn"))
        strcat(b, ".0");
}

static void check_formats(void)
{
    char a[400], b[400];
    static const double edge[] = {0.0,      -0.0,   0.5,     1.5,     2.5,      0.05,
                                  0.15,     999999.5, 9999995, 0.0001, 0.00009999995, 1e15,
                                  1e-320,   1e300,  123456.5, 0.000123456789, 5e-5, 1e-4};
    for (int i = 0; i < 200000 + (int)(sizeof(edge) / sizeof(edge[0])); i++) {
        double v = i < (int)(sizeof(edge) / sizeof(edge[0])) ? edge[i] : draw(i);
        for (int d = 0; d <= 6; d++) {
            if (d > 1 && d < 4 && i % 8)
                continue;
            snprintf(b, sizeof(b), "%.*f", d, v);
            same(gc_num_fixed(a, sizeof(a), v, d), b, "%.*f", v);
        }
        shortest_ref(b, sizeof(b), v);
        same(gc_num_format(a, sizeof(a), v, 0), b, "shortest", v);
        snprintf(b, sizeof(b), "%.6g", v);
        same(gc_num_general(a, sizeof(a), v, 6), b, "%.6g", v);
        snprintf(b, sizeof(b), "%.17f", v);
        if (i % 16 == 0)
            same(gc_num_fixed(a, sizeof(a), v, 17), b, "%.17f", v);
    }
    CHECK(mismatches == 0);
}

/* The compact layout: newline runs become one space or nothing beside a
 * bracket; strings (escapes included) are left alone. */
static void check_compact(void)
{
    gc_jbuf_t jb;
    gc_jbuf_init(&jb, 1);
    gc_jbuf_lit(&jb, "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"s\": ");
    gc_jbuf_str(&jb, "x\n\"y\\");
    gc_jbuf_lit(&jb, ",\n  ");
    gc_jbuf_json(&jb, "\"t\": \"in \\\" str\n\",\n  \"u\": [\n 1\n]");
    gc_jbuf_lit(&jb, ",\n");
    gc_jbuf_lit(&jb, "  \"n\": ");
    gc_jbuf_g6(&jb, 1545.0);
    gc_jbuf_lit(&jb, ", \"l\": ");
    gc_jbuf_long(&jb, -42);
    gc_jbuf_lit(&jb, "\n}\n");
    CHECK_STR(jb.p, "{\"a\": [1, 2], \"s\": \"x\\u000a\\\"y\\\\\", \"t\": \"in \\\" str\n\", "
                    "\"u\": [1], \"n\": 1545, \"l\": -42}");
    gc_jbuf_reset(&jb);
    jb.compact = 0;
    gc_jbuf_lit(&jb, "{\n  \"a\": 1\n}\n");
    CHECK_STR(jb.p, "{\n  \"a\": 1\n}\n");
    gc_jbuf_fini(&jb);
}

int main(void)
{
    check_formats();
    check_compact();
    return gc_check_failures ? 1 : 0;
}
