/* test_measure.c - the libc-only logic of the measurement side: the median
 * and its interval, and the SASS check on a real cuobjdump dump recorded on
 * an H100 (tests/fixtures/sass/h100_clock.sass). */
#include <stdlib.h>

#include "check.h"
#include "sass_fixture.h"
#include "measure/measure.h"
#include "measure/power.h"
#include "util/fsio.h"

static void test_median(void)
{
    double med, lo, hi;
    double a[] = {5, 1, 3};
    gc_stats_median(a, 3, &med, &lo, &hi);
    CHECK(med == 3 && lo == 1 && hi == 5);
    double b[] = {4, 1, 3, 2};
    gc_stats_median(b, 4, &med, &lo, &hi);
    CHECK(med == 2.5 && lo == 1 && hi == 4);
    /* n = 100 values 1..100: median 50.5; the 95 % interval of the median
     * spans ranks about 40..61 */
    double c[100];
    for (int i = 0; i < 100; i++)
        c[i] = 100 - i;
    gc_stats_median(c, 100, &med, &lo, &hi);
    CHECK(med == 50.5);
    CHECK(lo >= 39 && lo <= 42);
    CHECK(hi >= 59 && hi <= 62);
    double one[] = {7};
    gc_stats_median(one, 1, &med, &lo, &hi);
    CHECK(med == 7 && lo == 7 && hi == 7);
}

static void test_sass(void)
{
    gc_sass_t *s = gc_sass_fixture("h100_clock.sass");
    if (!s)
        return;
    CHECK(gc_sass_functions(s, "k_clock") == 1);
    /* the clock kernel reads the global timer and the SM clock */
    CHECK(gc_sass_count(s, "k_clock", "CS2R") >= 3);
    CHECK(gc_sass_count(s, "k_clock", "HMMA") == 0);
    CHECK(gc_sass_count(s, "no_such_kernel", "CS2R") == -1);
    /* a prefix matches only at a '.' boundary: ULDC.64 is ULDC, not ULD */
    CHECK(gc_sass_count(s, "k_clock", "ULDC") >= 1);
    CHECK(gc_sass_count(s, "k_clock", "ULD") == 0);
    CHECK(gc_sass_count(s, "k_clock", "ULDC.64") >= 1);

    char out[512];
    gc_sass_rule_t ok[] = {{"k_clock", "CS2R", 3, -1}, {"k_clock", "HMMA", 0, 0}};
    CHECK(gc_sass_check(s, ok, 2, out, sizeof(out)) == 0);
    CHECK_HAS(out, "ok: CS2R x");
    gc_sass_rule_t bad[] = {{"k_clock", "HMMA", 1, -1}, {"k_mma", "HMMA", 1, -1},
                            {"k_clock", "CS2R", 0, 1}};
    CHECK(gc_sass_check(s, bad, 3, out, sizeof(out)) == 1);
    CHECK_HAS(out, "FAILED: k_clock has 0 HMMA (expected 1..inf)");
    CHECK_HAS(out, "no function k_mma");
    CHECK_HAS(out, "(expected 0..1)");
    gc_sass_destroy(s);
    /* not a dump */
    gc_err_t e;
    CHECK(gc_sass_parse(&s, "hello\n", 6, &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "no 'Function :' sections");
}

/* The power reader degrades to "not read": a library that is not there,
 * a library without NVML's entry points (libc), and no bus id give NULL;
 * reading and closing NULL are safe. */
static void test_power(void)
{
    CHECK(gc_power_open("00000000:00:00.0", "/nonexistent/libnvidia-ml.so.1") == NULL);
    CHECK(gc_power_open("00000000:00:00.0", "libc.so.6") == NULL);
    CHECK(gc_power_open(NULL, "libc.so.6") == NULL);
    double w = -7;
    CHECK(gc_power_read_w(NULL, &w) == -1 && w == -7);
    gc_power_close(NULL);
}

int main(void)
{
    test_median();
    test_sass();
    test_power();
    CHECK_DONE();
}
