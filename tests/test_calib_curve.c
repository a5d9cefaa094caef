/* test_calib_curve.c - plateaus and inflection points (calib/curve.c) on a
 * synthetic P-chase curve with known capacities: L1 256 KiB, L2 near
 * partition up to 25 MiB, far up to 50 MiB, DRAM beyond; noise 0.5 %,
 * a gradual transition after L1 (random-pattern chase), repeated sizes. */
#include <stdint.h>
#include <stdlib.h>

#include "calib/curve.h"
#include "check.h"

static uint64_t rs = 99;

static double unit(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)

static double truth(double x)
{
    const double l1 = 256 * KIB, half = 25 * MIB, l2 = 50 * MIB;
    if (x <= l1)
        return 32.0;
    if (x <= 2 * l1) /* a random chase misses in L1 gradually */
        return 32.0 + (264.5 - 32.0) * (x - l1) / l1;
    if (x <= half)
        return 264.5;
    if (x <= l2)
        return 502.0;
    return 656.0;
}

static void test_plateaus(void)
{
    gc_curve_pt_t p[400];
    size_t n = 0;
    /* 8 sizes per octave from 16 KiB to 256 MiB, each measured twice */
    for (int rep = 0; rep < 2; rep++)
        for (int e = 0; e <= 14 * 8; e++) {
            double x = round(16 * KIB * pow(2.0, e / 8.0) / 1024) * 1024;
            double y = truth(x) * (1 + 0.005 * (2 * unit() - 1));
            p[n] = (gc_curve_pt_t){x, y, y * 0.99, y * 1.01, 100 + (long)n};
            n++;
        }
    n = gc_curve_normalize(p, n);
    CHECK(n == 14 * 8 + 1);
    for (size_t i = 1; i < n; i++)
        CHECK(p[i].x > p[i - 1].x);
    gc_plateau_t pl[8];
    size_t k = gc_curve_plateaus(p, n, 0.08, 3, pl, 8);
    CHECK(k == 4);
    if (k != 4)
        return;
    const double level[] = {32.0, 264.5, 502.0, 656.0};
    const double cap[] = {256 * KIB, 25 * MIB, 50 * MIB};
    for (int j = 0; j < 4; j++) {
        CHECK_NEAR(pl[j].level, level[j], 0.02 * level[j]);
        CHECK(pl[j].lo <= pl[j].level && pl[j].level <= pl[j].hi);
        CHECK(pl[j].hi - pl[j].lo < 0.05 * level[j]);
    }
    /* each capacity lies between a plateau's last size and the next size */
    for (int j = 0; j < 3; j++) {
        CHECK(p[pl[j].last].x <= cap[j]);
        CHECK(pl[j].last + 1 < n && p[pl[j].last + 1].x > cap[j]);
        CHECK(p[pl[j].last + 1].x <= cap[j] * pow(2.0, 1.0 / 8) * 1.01);
    }
    /* the transition after L1 belongs to no plateau */
    CHECK(pl[1].first > pl[0].last + 3);
}

/* A flat curve is one plateau; a rising line has none; too few points. */
static void test_shapes(void)
{
    gc_curve_pt_t p[20];
    for (int i = 0; i < 20; i++)
        p[i] = (gc_curve_pt_t){(double)(i + 1), 100 + 0.1 * (i % 3), 1, 0, i};
    gc_plateau_t pl[4];
    CHECK(gc_curve_plateaus(p, 20, 0.05, 3, pl, 4) == 1);
    CHECK(pl[0].first == 0 && pl[0].last == 19);
    CHECK_NEAR(pl[0].level, 100.1, 0.05);
    for (int i = 0; i < 20; i++)
        p[i].y = 100 * pow(1.3, i);
    CHECK(gc_curve_plateaus(p, 20, 0.05, 3, pl, 4) == 0);
    CHECK(gc_curve_plateaus(p, 2, 0.5, 3, pl, 4) == 0);
    CHECK(gc_curve_plateaus(p, 0, 0.5, 3, pl, 4) == 0);
}

int main(void)
{
    test_plateaus();
    test_shapes();
    CHECK_DONE();
}
