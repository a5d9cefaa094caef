/* test_calib_curve.c - plateaus and inflection points (calib/curve.c) on a
 * synthetic P-chase curve with known capacities: L1 256 KiB, L2 near
 * partition up to 25 MiB, far up to 50 MiB, DRAM beyond; noise 0.5 %,
 * a gradual transition after L1 (random-pattern chase), repeated sizes. */
#include <stdint.h>
#include <stdlib.h>

#include "calib/curve.h"
#include "check.h"
#include "util/rng.h"

static uint64_t rs = 99;


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
            double y = truth(x) * (1 + 0.005 * (2 * gc_rng_open(&rs) - 1));
            p[n] = (gc_curve_pt_t){x, y, y * 0.99, y * 1.01, 100 + (long)n};
            n++;
        }
    n = gc_curve_normalize(p, n);
    CHECK(n == 14 * 8 + 1);
    for (size_t i = 1; i < n; i++)
        CHECK(p[i].x > p[i - 1].x);
    gc_plateau_t pl[8];
    size_t k = gc_curve_plateaus(p, n, 0.08, 3, 1.0, pl, 8);
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
    CHECK(gc_curve_plateaus(p, 20, 0.05, 3, 1.0, pl, 4) == 1);
    CHECK(pl[0].first == 0 && pl[0].last == 19);
    CHECK_NEAR(pl[0].level, 100.1, 0.05);
    for (int i = 0; i < 20; i++)
        p[i].y = 100 * pow(1.3, i);
    CHECK(gc_curve_plateaus(p, 20, 0.05, 3, 1.0, pl, 4) == 0);
    CHECK(gc_curve_plateaus(p, 2, 0.5, 3, 1.0, pl, 4) == 0);
    CHECK(gc_curve_plateaus(p, 0, 0.5, 3, 1.0, pl, 4) == 0);
}

/* The H100's l2 path (traces/h100/pchase.csv, rand pattern): the near
 * plateau to 24.5 MiB, then a steady climb to the L2 size (50 MiB) with 10-20
 * sizes per octave, then DRAM. With calib's settings (spread 4 %, 2 sizes
 * spanning a quarter octave) exactly two plateaus: no short run of the
 * climb passes for one. */
static void test_h100_l2(void)
{
    static const double xy[][2] = {
        {1024, 272.48},     {2048, 274.11},      {4096, 274.73},      {8192, 278.31},
        {16384, 280.10},    {32768, 279.00},     {65536, 279.00},     {81920, 279.22},
        {98304, 279.02},    {114688, 279.29},    {131072, 278.98},    {139264, 278.49},
        {147456, 278.30},   {155648, 277.92},    {163840, 277.56},    {172032, 277.32},
        {180224, 277.15},   {188416, 276.68},    {196608, 276.28},    {204800, 276.10},
        {212992, 276.08},   {221184, 275.88},    {229376, 275.72},    {237568, 275.60},
        {245760, 275.59},   {253952, 275.34},    {262144, 275.18},    {270336, 275.30},
        {278528, 275.33},   {286720, 275.37},    {294912, 275.63},    {303104, 275.85},
        {311296, 275.78},   {319488, 276.01},    {327680, 275.89},    {524288, 276.29},
        {1048576, 276.21},  {2097152, 276.17},   {4194304, 276.16},   {8388608, 276.18},
        {13107200, 276.19}, {15728640, 276.16},  {18350080, 276.16},  {20971520, 276.18},
        {23068672, 276.15}, {24641536, 276.14},  {25690112, 276.21},  {26214400, 287.35},
        {26738688, 297.34}, {27787264, 316.45},  {29360128, 333.87},  {31457280, 347.60},
        {36700160, 389.69}, {41943040, 420.69},  {44564480, 424.53},  {47185920, 439.26},
        {49807360, 444.01}, {51380224, 444.64},  {52428800, 446.75},  {53477376, 455.32},
        {55050240, 478.41}, {57671680, 499.48},  {62914560, 516.31},  {70778880, 546.81},
        {78643200, 571.55}, {104857600, 610.71}, {157286400, 647.48}, {209715200, 648.39},
    };
    size_t n = sizeof(xy) / sizeof(xy[0]);
    gc_curve_pt_t p[80];
    for (size_t i = 0; i < n; i++)
        p[i] = (gc_curve_pt_t){xy[i][0], xy[i][1], 1, 0, (long)i};
    gc_plateau_t pl[8];
    size_t k = gc_curve_plateaus(p, n, 0.04, 2, pow(2.0, 0.25), pl, 8);
    CHECK(k == 2);
    if (k != 2)
        return;
    CHECK(pl[0].first == 0 && p[pl[0].last].x == 25690112);
    CHECK_NEAR(pl[0].level, 276.9, 0.5);
    CHECK(p[pl[1].first].x == 157286400 && pl[1].last == n - 1);
    CHECK_NEAR(pl[1].level, 647.9, 0.1);
    /* the old rule (within 8 % of the median, 3 sizes, no span) finds
     * plateaus in the climb, which is what the span rule is for */
    CHECK(gc_curve_plateaus(p, n, 0.16, 3, 1.0, pl, 8) > 2);
}

int main(void)
{
    test_h100_l2();
    test_plateaus();
    test_shapes();
    CHECK_DONE();
}
