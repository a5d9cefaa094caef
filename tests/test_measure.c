/* test_measure.c - the libc-only logic of the measurement side: the median
 * and its interval, the SASS check on a real cuobjdump dump recorded on
 * an H100 (tests/fixtures/sass/h100_clock.sass), and the clock bench's
 * curve (settling test, rows) on synthetic samples with known answers. */
#include <stdlib.h>

#include "check.h"
#include "sass_fixture.h"
#include "measure/clk_series.h"
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

/* n samples 10 ms apart whose clock is hi for the first drop_s seconds,
 * then lo (the power limit catching up), with a drift of drift_pct per
 * second after the drop */
static void clk_samples(gc_clk_sample_t *s, int n, double hi, double lo, double drop_s,
                        double drift_pct)
{
    s[0] = (gc_clk_sample_t){1000000000ull, 5000};
    for (int i = 1; i < n; i++) {
        double t = i * 0.01,
               mhz = t <= drop_s + 1e-9 ? hi : lo * (1 - drift_pct / 100 * (t - drop_s));
        s[i].ns = s[i - 1].ns + 10000000ull;
        s[i].cyc = s[i - 1].cyc + (long long)(mhz * 1e4 + 0.5); /* MHz x 10 ms */
    }
}

/* The settling test: a clock that drops once and holds settles as soon as
 * two one-second windows agree (the median ignores the drop); one that
 * keeps drifting by 1 %/s never does; too few samples give no figure. */
static void test_settle(void)
{
    enum { N = 401 };
    static gc_clk_sample_t s[N];
    gc_clk_settle_t st;
    clk_samples(s, N, 1980, 1600, 0.3, 0);
    /* 1.5 s: one window only */
    CHECK(gc_clk_settle(s, 151, 1.0, 0.005, &st) == 0);
    CHECK_NEAR(st.med, 1600, 1e-9);
    CHECK(st.prev == 0 && !st.settled && st.n == 100);
    CHECK_NEAR(st.t_s, 1.5, 1e-12);
    /* 2.0 s: the first second holds 30 intervals at 1980 and 70 at 1600 */
    CHECK(gc_clk_settle(s, 201, 1.0, 0.005, &st) == 0);
    CHECK_NEAR(st.med, 1600, 1e-9);
    CHECK_NEAR(st.prev, 1600, 1e-9);
    CHECK(st.settled && st.lo == st.med && st.hi == st.med);
    /* the drop at 0.6 s: the first second's median is still 1980 at 2.0 s */
    clk_samples(s, N, 1980, 1600, 0.6, 0);
    CHECK(gc_clk_settle(s, 201, 1.0, 0.005, &st) == 0);
    CHECK_NEAR(st.med, 1600, 1e-9);
    CHECK_NEAR(st.prev, 1980, 1e-9);
    CHECK(!st.settled);
    CHECK(gc_clk_settle(s, 261, 1.0, 0.005, &st) == 0 && st.settled);
    /* 1 % per second: the medians of two seconds differ by 1 % */
    clk_samples(s, N, 1980, 1900, 0.0, 1.0);
    CHECK(gc_clk_settle(s, N, 1.0, 0.005, &st) == 0);
    CHECK(!st.settled && st.prev > st.med);
    CHECK_NEAR(st.prev / st.med, 1.0101, 0.001);
    CHECK(gc_clk_settle(s, N, 1.0, 0.02, &st) == 0 && st.settled);
    /* no figure yet */
    CHECK(gc_clk_settle(s, 3, 1.0, 0.005, &st) == -1 && st.n == 0);
    CHECK(gc_clk_settle(s, 0, 1.0, 0.005, &st) == -1);
}

/* The curve: 50 ms bins of 5 intervals each, their mean clock, and the
 * median power read in each (readings every 20 ms, 300 W + 100 W/s). */
static void test_bins(void)
{
    enum { N = 201, P = 100 };
    static gc_clk_sample_t s[N];
    static gc_pw_sample_t p[P];
    static gc_clk_bin_t b[64];
    clk_samples(s, N, 1980, 1600, 0.32, 0);
    for (int i = 0; i < P; i++)
        p[i] = (gc_pw_sample_t){0.02 * (i + 1) - 0.005, 300 + 100 * (0.02 * (i + 1) - 0.005)};
    int n = gc_clk_bins(s, N, p, P, 0.05, b, 64);
    CHECK(n == 40);
    CHECK_NEAR(b[0].t_s, 0.05, 1e-12);
    CHECK_NEAR(b[0].len_s, 0.05, 1e-12);
    CHECK_NEAR(b[0].mhz, 1980, 1e-9);
    CHECK_NEAR(b[0].w, 302.5, 1e-9); /* readings at 0.015 and 0.035 s */
    CHECK_NEAR(b[1].w, 307.5, 1e-9); /* 0.055, 0.075, 0.095 */
    /* the bin of the drop: 2 intervals at 1980, 3 at 1600 */
    CHECK_NEAR(b[6].t_s, 0.35, 1e-12);
    CHECK_NEAR(b[6].mhz, (2 * 1980 + 3 * 1600) / 5.0, 1e-9);
    CHECK_NEAR(b[39].t_s, 2.0, 1e-12);
    CHECK_NEAR(b[39].mhz, 1600, 1e-9);
    for (int i = 1; i < n; i++)
        CHECK(b[i].t_s > b[i - 1].t_s);
    /* no power: 0 (not read); room for 3 rows: 3 */
    CHECK(gc_clk_bins(s, N, NULL, 0, 0.05, b, 3) == 3 && b[2].w == 0);
    CHECK_NEAR(gc_clk_power(p, P, 0.99, 1.03), 400.5, 1e-9); /* 0.995 and 1.015 s */
    CHECK(gc_clk_power(p, P, 5, 6) == 0);
}

int main(void)
{
    test_median();
    test_settle();
    test_bins();
    test_sass();
    test_power();
    CHECK_DONE();
}
