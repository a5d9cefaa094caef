/* test_calib.c - the whole calibration (calib/calib.c) on a synthetic trace
 * folder with known ground truth, written here with the trace writer:
 *   mma / wgmma sweeps generated from gc_pipe_cycles with known lat, issue,
 *   overhead and slots plus 0.1 % noise; alu, ldmatrix and smem sweeps
 *   (bank-conflict penalty 2 cycles/way); a classic P-chase curve with L1
 *   256 KiB, L2 near 264.5 up to 25 MiB, far 502 up to 50 MiB, DRAM 656; a
 *   fine-grained P-chase mixture of near/far hits and misses (seed 004's
 *   H800 centres) with a TLB-miss tail; bandwidths; clocks.
 * Checks every value against its truth (2 %), intervals and sources, what a
 * missing bench leaves out, folder-level errors, and that two runs give
 * the same bytes.
 *
 *   test_calib              run the checks (in a temporary folder)
 *   test_calib --write DIR [SMS STEPS]
 *                           write the synthetic folder to DIR and exit (the
 *                           shell test and the benchmark use it); the fine
 *                           P-chase from SMS SMs x STEPS accesses per array
 *                           (default 8 x 512; gpucal measure --full: 132 x 2048)
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calib/calib.h"
#include "calib/kmeans.h"
#include "check.h"
#include "util/rng.h"
#include "arch/arch.h"
#include "arch/pipe.h"
#include "traces/trace.h"

/* ---- deterministic noise ---- */

static uint64_t rs;



/* ---- the ground truth ---- */

#define MIB 1048576.0
#define KIB 1024.0
static const double L2_BYTES = 50 * MIB;

typedef struct form {
    const char *inst, *shape, *a, *c, *ops;
    double mnk;
    gc_pipe_t pipe;
    const char *sass;
} form_t;

static const form_t mma_forms[] = {
    {"mma", "m16n8k16", "f16", "f32", "-", 16 * 8 * 16, {33.0, 16.0, 2.5, 4}, "HMMA.16816.F32"},
    {"mma", "m16n8k8", "f16", "f16", "-", 16 * 8 * 8, {24.0, 8.0, 1.5, 4}, "HMMA.1688.F16"},
    {"wmma", "m16n16k16", "f16", "f32", "-", 16 * 16 * 16, {40.0, 12.0, 3.0, 4}, "HMMA.16816.F32"},
};
static const form_t wg_form = {"wgmma",
                               "m64n256k16",
                               "f16",
                               "f32",
                               "ss",
                               64 * 256 * 16,
                               {200.0, 64.0, 6.0, 1},
                               "HGMMA.64x256x16.F32"};

/* near/far partition of an address seen from an SM: 4 KiB granules */
static int is_near(int sm, double off)
{
    return (((long)off >> 12) ^ (sm >> 2)) & 1;
}

static const double C_NEAR_HIT = 258.0, C_FAR_HIT = 414.1, C_NEAR_MISS = 555.5, C_FAR_MISS = 743.7;

static double plateau_truth(const char *path, double x)
{
    if (!strcmp(path, "shared"))
        return 29.0;
    if (!strcmp(path, "l1") && x <= 256 * KIB)
        return 33.0;
    if (!strcmp(path, "l1") && x <= 512 * KIB)
        return 33.0 + (264.5 - 33.0) * (x - 256 * KIB) / (256 * KIB);
    double base = !strcmp(path, "tma") ? 40.0 : 0.0;
    if (x <= 25 * MIB)
        return 264.5 + base;
    if (x <= 50 * MIB)
        return 502.0 + base;
    return 656.0 + base;
}

/* ---- writing traces ---- */

static char dir[512];

static gc_trace_writer_t *start(const char *bench, const char *sass)
{
    char path[600];
    snprintf(path, sizeof(path), "%s/%s.csv", dir, bench);
    gc_trace_writer_t *w;
    gc_err_t e;
    if (gc_trace_create(&w, path, GC_TRACE_FORCE, &e) != 0) {
        fprintf(stderr, "test_calib: %s\n", e.msg);
        exit(1);
    }
    gc_trace_put_meta(w, "bench", "%s", bench);
    gc_trace_put_meta(w, "device", "Synthetic H100-like GPU (gpucal test)");
    gc_trace_put_meta(w, "cc", "9.0");
    gc_trace_put_meta(w, "sms", "132");
    gc_trace_put_meta(w, "sm_clock_mhz", "1755.0");
    gc_trace_put_meta(w, "date", "2025-01-0%dT03:04:05Z", (int)strlen(bench) % 9 + 1);
    gc_trace_put_meta(w, "gpucal", "test");
    gc_trace_put_meta(w, "sass_check", "%s", sass ? sass : "none: this bench times no opcode");
    gc_trace_put_meta(w, "l2_bytes", "%.0f", L2_BYTES);
    gc_trace_put_meta(w, "smem_optin_bytes", "232448");
    gc_trace_put_meta(w, "mem_bus_bits", "5120");
    gc_trace_put_meta(w, "mem_clock_mhz", "2619");
    gc_trace_put_meta(w, "clock_max_mhz", "1980");
    return w;
}

static void finish(gc_trace_writer_t *w)
{
    gc_err_t e;
    if (gc_trace_finish(w, &e) != 0) {
        fprintf(stderr, "test_calib: %s\n", e.msg);
        exit(1);
    }
}

static void tensor_rows(gc_trace_writer_t *w, const form_t *f, int wg)
{
    static const int warps[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
    static const int wgs[] = {1, 2, 3, 4};
    int nw = wg ? 4 : 10;
    for (int i = 0; i < nw; i++)
        for (int ilp = 1; ilp <= 8; ilp++) {
            if (wg && ilp != 1 && ilp != 2 && ilp != 4)
                continue;
            double units = wg ? wgs[i] : warps[i];
            double cyc = gc_pipe_cycles(&f->pipe, units, ilp) * (1 + 0.001 * gc_rng_gauss(&rs));
            double lo = cyc * 0.998, hi = cyc * 1.002, work = units * ilp * f->mnk;
            gc_trace_rowf(w,
                          "%s,%s,%s,%s,%s,rand,sm,1,%g,%d,1000,7,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,"
                          "1755.0,0",
                          f->inst, f->shape, f->a, f->c, f->ops, wg ? units * 4 : units, ilp, cyc,
                          lo, hi, work / cyc, work / hi, work / lo);
        }
}

static void write_tensor(void)
{
    char sass[1024];
    snprintf(sass, sizeof(sass),
             "ok: HMMA.16816.F32 x1536 in gc_k_MMA_F16_F32_M16N8K16_, "
             "HMMA.1688.F16 x1536 in gc_k_MMA_F16_F16_M16N8K8_, "
             "HMMA.16816.F32 x3072 in gc_k_WMMA_F16_F32_M16N16K16_");
    gc_trace_writer_t *w = start("mma", sass);
    static const char *const cols[] = {
        "inst",   "shape",      "a_type", "c_type", "operands",  "data",         "scope",
        "blocks", "warps",      "ilp",    "iters",  "reps",      "cyc_per_iter", "cyc_lo",
        "cyc_hi", "fma_clk_sm", "fma_lo", "fma_hi", "clock_mhz", "clock_moved"};
    gc_trace_columns(w, cols, 20);
    for (size_t i = 0; i < sizeof(mma_forms) / sizeof(mma_forms[0]); i++)
        tensor_rows(w, &mma_forms[i], 0);
    /* the whole GPU, first form: 8 warps x ILP 4 on every SM */
    const form_t *f = &mma_forms[0];
    double cyc = gc_pipe_cycles(&f->pipe, 8, 4), work = 32 * f->mnk;
    gc_trace_rowf(w,
                  "mma,m16n8k16,f16,f32,-,rand,gpu,132,8,4,1000,7,%.4f,%.4f,%.4f,%.3f,%.3f,"
                  "%.3f,1650.0,1",
                  cyc, cyc * 0.998, cyc * 1.002, work / cyc, work / (cyc * 1.002),
                  work / (cyc * 0.998));
    finish(w);
    w = start("wgmma",
              "ok: HGMMA.64x256x16.F32 x768 in gc_k_WG_F16_F32_N256_, "
              "WARPGROUP.ARRIVE x8 in gc_k_WG_F16_F32_N256_, LDL x0 in gc_k_WG_F16_F32_N256_");
    gc_trace_columns(w, cols, 20);
    tensor_rows(w, &wg_form, 1);
    finish(w);
}

static void write_alu_ldm_smem(void)
{
    static const int warps[] = {1, 2, 4, 8, 16, 32};
    gc_trace_writer_t *w = start("alu", "ok: FFMA x64 in gc_k_alu_ffma_");
    static const char *const acols[] = {
        "op",     "warps",      "ilp",    "iters",  "reps",      "cyc_per_iter", "cyc_lo",
        "cyc_hi", "ops_clk_sm", "ops_lo", "ops_hi", "clock_mhz", "clock_moved"};
    gc_trace_columns(w, acols, 13);
    gc_pipe_t ffma = {4.0, 1.0, 0.0, 4};
    for (int i = 0; i < 6; i++)
        for (int ilp = 1; ilp <= 8; ilp *= 2) {
            double cyc = gc_pipe_cycles(&ffma, warps[i], ilp) * (1 + 0.001 * gc_rng_gauss(&rs));
            /* a lone warp on its sub-core issues every 1.125 cycles at best
             * (sm.issue_1warp_ratio): the issue-bound rows of 1..4 warps */
            if (warps[i] <= 4 && ilp >= 4)
                cyc *= 1.125;
            double ops = warps[i] * 32.0 * ilp;
            gc_trace_rowf(w, "ffma,%d,%d,1000,7,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,1755.0,0", warps[i],
                          ilp, cyc, cyc * 0.998, cyc * 1.002, ops / cyc, ops / (cyc * 1.002),
                          ops / (cyc * 0.998));
        }
    finish(w);

    w = start("ldmatrix", "ok: LDSM.16.M88.4 x64 in gc_k_ldsm_");
    static const char *const lcols[] = {
        "num",    "trans",  "warps",        "ilp",      "iters",    "reps",      "cyc_per_iter",
        "cyc_lo", "cyc_hi", "bytes_clk_sm", "bytes_lo", "bytes_hi", "clock_mhz", "clock_moved"};
    gc_trace_columns(w, lcols, 14);
    gc_pipe_t x4 = {30.0, 4.0, 0.5, 1};
    for (int i = 0; i < 6; i++)
        for (int ilp = 1; ilp <= 8; ilp++) {
            double cyc = gc_pipe_cycles(&x4, warps[i], ilp) * (1 + 0.001 * gc_rng_gauss(&rs));
            double b = warps[i] * ilp * 512.0;
            gc_trace_rowf(w, "4,0,%d,%d,1000,7,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,1755.0,0", warps[i],
                          ilp, cyc, cyc * 0.998, cyc * 1.002, b / cyc, b / (cyc * 1.002),
                          b / (cyc * 0.998));
        }
    finish(w);

    w = start("smem", "ok: LDS x64 in gc_k_smem_");
    static const char *const scols[] = {"width_bytes", "ways",         "warps",        "ilp",
                                        "iters",       "reps",         "cyc_per_iter", "cyc_lo",
                                        "cyc_hi",      "bytes_clk_sm", "bytes_lo",     "bytes_hi",
                                        "clock_mhz",   "clock_moved"};
    gc_trace_columns(w, scols, 14);
    for (int width = 4; width <= 16; width *= 4)
        for (int ways = 1; ways <= 32; ways *= 2) {
            double cyc = (width == 4 ? 29.0 + 2.0 * (ways - 1) : 33.0 + 4.0 * (ways - 1)) *
                         (1 + 0.001 * gc_rng_gauss(&rs));
            double b = 32.0 * width;
            gc_trace_rowf(w, "%d,%d,1,1,1000,7,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,1755.0,0", width, ways,
                          cyc, cyc * 0.998, cyc * 1.002, b / cyc, b / (cyc * 1.002),
                          b / (cyc * 0.998));
            /* a throughput row: not a latency, calib skips it */
            gc_trace_rowf(w, "%d,%d,16,4,1000,7,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,1755.0,0", width,
                          ways, 4 * cyc, 4 * cyc, 4 * cyc, 64 * b / (4 * cyc), 64 * b / (4 * cyc),
                          64 * b / (4 * cyc));
        }
    finish(w);
}

static void write_pchase(void)
{
    gc_trace_writer_t *w = start("pchase", NULL);
    gc_trace_put_meta(w, "clock_overhead_cyc", "2.0");
    static const char *const cols[] = {"path",         "pattern", "array_bytes",
                                       "stride_bytes", "steps",   "latency_cyc",
                                       "lat_lo",       "lat_hi",  "clock_mhz"};
    gc_trace_columns(w, cols, 9);
    static const char *const paths[] = {"l1", "l2", "shared", "tma"};
    for (int p = 0; p < 4; p++) {
        double top = !strcmp(paths[p], "shared") ? 128 * KIB : 256 * MIB;
        for (int e = 0;; e++) {
            double x = round(16 * KIB * pow(2.0, e / 4.0) / 1024) * 1024;
            if (x > top)
                break;
            double y = plateau_truth(paths[p], x) * (1 + 0.003 * gc_rng_gauss(&rs));
            gc_trace_rowf(w, "%s,rand,%.0f,64,100000,%.2f,%.2f,%.2f,1755.0", paths[p], x, y,
                          y * 0.997, y * 1.003);
        }
    }
    finish(w);
}

static int fine_sms = 8, fine_steps = 512;

static void write_fine(void)
{
    gc_trace_writer_t *w = start("pchase_fine", NULL);
    static const char *const cols[] = {"sm",   "array_bytes",  "stride_bytes",
                                       "step", "offset_bytes", "latency_cyc"};
    gc_trace_columns(w, cols, 6);
    /* L2/6 warmed (hits), 0.8 L2 warmed (near hits and misses), 2 L2 (misses) */
    const double arrays[3] = {8 * MIB, 40 * MIB, 100 * MIB};
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < fine_sms; k++) {
            int sm = k * 132 / fine_sms;
            double off0 = floor(arrays[a] / fine_sms * k / 32) * 32;
            for (int step = 0; step < fine_steps; step++) {
                double off = fmod(off0 + 32.0 * step, arrays[a]);
                int near = is_near(sm, off);
                double c, sd;
                double u = gc_rng_open(&rs);
                if (a == 0 || (a == 1 && near && u < 0.6)) {
                    c = near ? C_NEAR_HIT : C_FAR_HIT;
                    sd = near ? 6 : 9;
                } else {
                    c = near ? C_NEAR_MISS : C_FAR_MISS;
                    sd = near ? 14 : 18;
                }
                double lat = gc_rng_open(&rs) < 0.003 ? 1500 + 3500 * gc_rng_open(&rs) : c + sd * gc_rng_gauss(&rs);
                gc_trace_rowf(w, "%d,%.0f,32,%d,%.0f,%.0f", sm, arrays[a], step, off, round(lat));
            }
        }
    finish(w);
}

/* the cold bench: per-kernel times rising 0.04 us a parameter line and, cold
 * over warm, 0.08 us a code block, at 2000 MHz: 80 and 160 cycles */
static void write_cold(void)
{
    gc_trace_writer_t *w = start("cold", "ok: synthetic");
    static const char *const cols[] = {"kind",  "k",     "blocks", "batch",    "reps",
                                       "us",    "us_lo", "us_hi",  "clock_mhz"};
    gc_trace_columns(w, cols, 9);
    static const int ks[] = {0, 4, 8, 16, 32, 62};
    for (int i = 0; i < 6; i++) {
        double us = 0.6 + 0.04 * ks[i];
        gc_trace_rowf(w, "const_line,%d,132,50,31,%.4f,%.4f,%.4f,2000", ks[i], us, us - 0.001,
                      us + 0.001);
    }
    for (int k = 0; k <= 16; k = k ? 2 * k : 1)
        for (int cold = 1; cold >= 0; cold--) {
            double us = 0.65 + 0.29 * k + (cold ? 0.08 * k : 0);
            gc_trace_rowf(w, "%s,%d,132,50,31,%.4f,%.4f,%.4f,2000", cold ? "code_cold" : "code_warm",
                          k, us, us - 0.001, us + 0.001);
        }
    finish(w);
}

static void near(const gc_qty_t *q, double truth, double rel, const char *what);
static gc_arch_t *run(const char *d, gc_err_t *e);

/* ---- the overlap case: far hits and near misses overlap in the pooled data ---- */

/* H200-like centres and spreads (traces/h200/pchase_fine.csv): far hit 455
 * and near miss 529, 74 cycles apart with robust sd ~22 each, so no k-means
 * of all accesses together separates them (2 x (22 + 22) > 74). */
static const double O_NH = 281, O_FH = 455, O_NM = 529, O_FM = 707, O_SLOW = 870;

/* One access's latency in array a (0: L2/6 warmed, 1: 0.8 L2 warmed, 2:
 * 2 L2 cold): hits in a, near hits again and near/far misses beyond the L2,
 * a slower cluster (DRAM page misses, 3 %) and a TLB tail (0.3 %). */
static double overlap_lat(int a, int near)
{
    double u = gc_rng_open(&rs);
    if (gc_rng_open(&rs) < 0.003)
        return 1500 + 3500 * gc_rng_open(&rs);
    if (a == 0 || (a == 1 && u < 0.6) || (a == 2 && near && u < 0.5))
        return (near ? O_NH : O_FH) + (near ? 18 : 22) * gc_rng_gauss(&rs);
    if (a == 2 && u > 0.97)
        return O_SLOW + 40 * gc_rng_gauss(&rs);
    return (near ? O_NM : O_FM) + (near ? 22 : 30) * gc_rng_gauss(&rs);
}

/* Rewrite pchase_fine.csv with the overlap case; the pooled latencies go to
 * *pool (malloc'd, *np of them). */
static void write_fine_overlap(double **pool, size_t *np)
{
    gc_trace_writer_t *w = start("pchase_fine", NULL);
    static const char *const cols[] = {"sm",   "array_bytes",  "stride_bytes",
                                       "step", "offset_bytes", "latency_cyc"};
    gc_trace_columns(w, cols, 6);
    const double arrays[3] = {8 * MIB, 40 * MIB, 100 * MIB};
    *pool = malloc(3 * 16 * 512 * sizeof(**pool));
    *np = 0;
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < 16; k++) {
            int sm = k * 132 / 16;
            double off0 = floor(arrays[a] / 16 * k / 32) * 32;
            for (int step = 0; step < 512; step++) {
                double off = fmod(off0 + 32.0 * step, arrays[a]);
                double lat = round(overlap_lat(a, is_near(sm, off)));
                (*pool)[(*np)++] = lat;
                gc_trace_rowf(w, "%d,%.0f,32,%d,%.0f,%.0f", sm, arrays[a], step, off, lat);
            }
        }
    finish(w);
}

/* Known answers where the pooled data cannot separate far hits from near
 * misses: the pooled k-means finds fewer than 4 clusters, calib's two regimes
 * give all four latencies within 2 %, and the slower cluster is not a miss. */
static void check_overlap(void)
{
    double *pool;
    size_t np;
    write_fine_overlap(&pool, &np);
    gc_kmeans_opts_t ko;
    gc_kmeans_defaults(&ko);
    ko.min_spread = 1;
    gc_kmeans_t km;
    gc_err_t e;
    CHECK(pool && gc_kmeans_fit(pool, np, &ko, &km, NULL, &e) == 0);
    CHECK(km.k < 4); /* the case the regimes exist for */
    free(pool);
    gc_arch_t *a = run(dir, &e);
    CHECK(a != NULL);
    if (!a)
        return;
    const gc_l2_t *l2 = &a->memory.l2;
    near(&l2->near_hit_cyc, O_NH, 0.02, "overlap: near hit");
    near(&l2->far_hit_cyc, O_FH, 0.02, "overlap: far hit");
    near(&l2->near_miss_cyc, O_NM, 0.02, "overlap: near miss");
    near(&l2->far_miss_cyc, O_FM, 0.02, "overlap: far miss");
    near(&l2->partitions, 2, 0, "overlap: partitions");
    CHECK_HAS(l2->near_miss_cyc.src, "of the miss regime (near miss), arrays 100 MiB");
    CHECK_HAS(l2->near_miss_cyc.note, "1 of its clusters in a hit band");
    CHECK_HAS(l2->near_miss_cyc.note, "1 slower cluster");
    gc_arch_destroy(a);
}

static void write_bw_clock(void)
{
    gc_trace_writer_t *w = start("bw", NULL);
    /* with gpucal measure's extra columns op, gbs_lo, gbs_hi; the 'write'
     * rows are faster: calib must use only 'read' rows for L1/shared/L2 and
     * the best op for DRAM */
    static const char *const cols[] = {
        "level",     "width_bytes", "blocks",    "threads", "bytes",  "cycles", "bytes_clk_sm",
        "bytes_clk", "gbs",         "clock_mhz", "op",      "gbs_lo", "gbs_hi"};
    gc_trace_columns(w, cols, 13);
    static const char *const levels[] = {"l1", "shared", "l2", "global"};
    static const double per_sm[4][2] = {{64, 120}, {128, 128}, {40, 80}, {20, 26}};
    for (int op = 0; op < 2; op++)
        for (int l = 0; l < 4; l++)
            for (int wi = 0; wi < 2; wi++)
                for (int threads = 256; threads <= 1024; threads *= 2)
                    for (int rep = 0; rep < 3; rep++) {
                        double eff = threads == 1024 ? 1.0 : threads == 512 ? 0.9 : 0.7;
                        double bcs = per_sm[l][wi] * eff * (op ? 1.5 : 1) * (1 + 0.002 * gc_rng_gauss(&rs));
                        double cycles = 1e6, bytes = bcs * cycles * 132;
                        double gbs = bytes / (cycles / 1755e6) / 1e9;
                        gc_trace_rowf(
                            w, "%s,%d,264,%d,%.0f,%.0f,%.4f,%.3f,%.2f,1755.0,%s,%.2f,%.2f",
                            levels[l], wi ? 16 : 4, threads, bytes, cycles, bcs, bcs * 132, gbs,
                            op ? "write" : "read", gbs * 0.99, gbs * 1.01);
                    }
    finish(w);

    w = start("clock", NULL);
    static const char *const ccols[] = {"load", "clock_mhz", "clock_lo", "clock_hi", "seconds"};
    gc_trace_columns(w, ccols, 5);
    gc_trace_rowf(w, "idle,1755.0,1750.0,1760.0,0.300");
    gc_trace_rowf(w, "memory,1700.0,1690.0,1705.0,2.000");
    gc_trace_rowf(w, "tensor,1650.0,1620.0,1660.0,2.000");
    gc_trace_rowf(w, "tensor_mma,1720.0,1715.0,1725.0,2.000");
    gc_trace_rowf(w, "fma,1900.0,1890.0,1905.0,2.000");
    finish(w);
}

/* the Hopper benches, in gpucal measure's columns */
static void write_coissue(const char *ldsm);

static void write_hopper(void)
{
    gc_trace_writer_t *w = start("tma", NULL);
    static const char *const tcols[] = {"metric", "kind",        "box",      "load_bytes",
                                        "blocks", "array_bytes", "value",    "lo",
                                        "hi",     "unit",        "clock_mhz"};
    gc_trace_columns(w, tcols, 11);
    gc_trace_rowf(w, "latency,bulk,-,16,1,8388608,480.0,478.5,481.5,cyc,1755.0");
    gc_trace_rowf(w, "latency,1d,4,16,1,8388608,500.0,498.0,502.0,cyc,1755.0");
    gc_trace_rowf(w, "latency,bulk,-,16,1,209715200,900.0,890.0,910.0,cyc,1755.0");
    gc_trace_rowf(w, "throughput,bulk,-,4096,132,1073741824,1500.0,1490.0,1510.0,gbs,1755.0");
    gc_trace_rowf(w, "throughput,2d,64x64,16384,264,1073741824,2800.0,2790.0,2810.0,gbs,1755.0");
    finish(w);
    w = start("dsm", NULL);
    static const char *const dcols[] = {"metric", "cluster", "pattern",      "dst_rank", "src_sm",
                                        "dst_sm", "blocks",  "threads",      "value",    "lo",
                                        "hi",     "unit",    "bytes_clk_sm", "clock_mhz"};
    gc_trace_columns(w, dcols, 14);
    gc_trace_rowf(w, "latency,1,chase,0,0,0,1,1,30.0,29.5,30.5,cyc,-1,1755.0");
    gc_trace_rowf(w, "latency,2,chase,1,0,1,2,1,181.0,180.0,182.0,cyc,-1,1755.0");
    for (int r = 1; r < 4; r++)
        gc_trace_rowf(w, "latency,4,chase,%d,0,%d,4,1,%d.0,%d.0,%d.0,cyc,-1,1755.0", r, r,
                      180 + 10 * r, 179 + 10 * r, 181 + 10 * r);
    gc_trace_rowf(w, "throughput,1,self,-1,-1,-1,528,512,3300.0,3290.0,3310.0,gbs,14.2,1755.0");
    gc_trace_rowf(w, "throughput,2,ring,-1,-1,-1,528,512,3200.0,3190.0,3210.0,gbs,13.8,1755.0");
    gc_trace_rowf(w, "throughput,2,pair,-1,-1,-1,528,512,3250.0,3240.0,3260.0,gbs,14.0,1755.0");
    gc_trace_rowf(w, "throughput,4,ring,-1,-1,-1,528,512,3000.0,2990.0,3010.0,gbs,12.9,1755.0");
    finish(w);
    w = start("dpx", NULL);
    static const char *const xcols[] = {"func",  "metric",   "blocks",   "threads", "ilp",
                                        "iters", "value",    "lo",       "hi",      "unit",
                                        "hw",    "sass_ops", "clock_mhz"};
    gc_trace_columns(w, xcols, 13);
    gc_trace_rowf(w, "vimax3_s32,latency,1,1,1,4096,4.00,3.98,4.02,cyc,1,VIMNMX3*16,1755.0");
    gc_trace_rowf(w, "vimax3_s32,throughput,264,1024,4,1024,64.0,63.8,64.2,ops_clk_sm,1,"
                     "VIMNMX3*16,1755.0");
    gc_trace_rowf(w, "viaddmax_s32,latency,1,1,1,4096,4.50,4.48,4.52,cyc,1,VIADDMNMX*16,1755.0");
    gc_trace_rowf(w, "viaddmax_s32,throughput,264,1024,4,1024,64.0,63.8,64.2,ops_clk_sm,1,"
                     "VIADDMNMX*16,1755.0");
    finish(w);
    write_coissue("ldsm_ind");
}

/* coissue, 16 warps: tensor 100, partner 60 / 20 / 250 / 80 / 40;
 * together 160 (nothing hidden: overlap 0), 110 (half of the 20 hidden:
 * 0.5), 240 (less than the longer alone: clipped to 1), 150 (0.375), 120
 * (0.5); 8 warps (written after): tensor 50, every partner half as long,
 * together the sum (0) for all but shfl (0.5). ldsm: the ldmatrix partner's
 * name, ldsm_ind as the bench writes it, ldsm as its first version did. */
static void write_coissue(const char *ldsm)
{
    gc_trace_writer_t *w = start("coissue", NULL);
    static const char *const ccols[] = {"partner", "part", "warps", "tensor_chains",
                                        "partner_chains", "iters", "reps", "cyc_per_iter",
                                        "cyc_lo", "cyc_hi", "clock_mhz", "clock_moved"};
    gc_trace_columns(w, ccols, 12);
    const char *const pn[5] = {"ffma", "iadd3", "ex2", ldsm, "shfl"};
    static const double pc[5] = {60, 20, 250, 80, 40}, bc[5] = {160, 110, 240, 150, 120};
    for (int v = 0; v < 2; v++)
        for (int i = 0; i < 5; i++) {
            double f = v ? 0.5 : 1, t = 100 * f, p = pc[i] * f;
            double b = v ? (i == 4 ? t + p / 2 : t + p) : bc[i];
            int wn = v ? 8 : 16;
            gc_trace_rowf(w, "%s,tensor,%d,4,0,1000,9,%.1f,%.1f,%.1f,1755.0,0", pn[i], wn, t, t, t);
            gc_trace_rowf(w, "%s,partner,%d,0,16,1000,9,%.1f,%.1f,%.1f,1755.0,0", pn[i], wn, p, p,
                          p);
            gc_trace_rowf(w, "%s,both,%d,4,16,1000,9,%.1f,%.1f,%.1f,1755.0,0", pn[i], wn, b, b, b);
        }
    finish(w);
}

static void write_all(void)
{
    rs = 20240601;
    mkdir(dir, 0777);
    write_tensor();
    write_alu_ldm_smem();
    write_pchase();
    write_fine();
    write_bw_clock();
    write_hopper();
    write_cold();
}

/* ---- checks ---- */

static void near(const gc_qty_t *q, double truth, double rel, const char *what)
{
    if (!q->set) {
        fprintf(stderr, "missing: %s\n", what);
        CHECK(q->set);
        return;
    }
    if (fabs(q->v - truth) > rel * fabs(truth))
        fprintf(stderr, "%s = %g, truth %g\n", what, q->v, truth);
    CHECK_NEAR(q->v, truth, rel * fabs(truth));
    CHECK(!q->has_ci || (q->lo <= q->v && q->v <= q->hi));
    CHECK(q->src != NULL);
}

static gc_arch_t *run(const char *d, gc_err_t *e)
{
    gc_calib_opts_t o = {
        .dir = d, .name = "synth-h100", .out = "synth.yaml", .quiet = 1, .silent = 1};
    gc_arch_t *a = NULL;
    gc_err_clear(e);
    if (gc_calib_run(&o, &a, e) != 0)
        return NULL;
    return a;
}

static void check_tensor(const gc_arch_t *a)
{
    CHECK(a->n_tensor == 4);
    for (size_t i = 0; i < 3 && i < a->n_tensor; i++) {
        const form_t *f = &mma_forms[i];
        const gc_tensor_t *t = gc_arch_tensor(a, f->inst, f->shape, f->a, f->c, NULL);
        CHECK(t != NULL);
        if (!t)
            continue;
        near(&t->latency_cyc, f->pipe.lat_cyc, 0.02, "latency_cyc");
        near(&t->issue_cyc, f->pipe.issue_cyc, 0.02, "issue_cyc");
        near(&t->overhead_cyc, f->pipe.overhead_cyc, 0.02, "overhead_cyc");
        near(&t->sub_cores, 4, 0, "sub_cores");
        CHECK_STR(t->sass, f->sass);
        CHECK_STR(t->data, "rand");
        CHECK(t->operands == NULL);
        /* the peak: 32 warps x ILP 8, throughput-bound: 32 * 8 * mnk / (64 * issue) */
        near(&t->peak_fma_clk_sm, 4 * f->mnk / f->pipe.issue_cyc, 0.02, "peak_fma_clk_sm");
        CHECK(t->n_conv >= 1);
        CHECK_HAS(t->issue_cyc.src, "gc_pipe_cycles fitted to 80 rows");
        CHECK_HAS(t->issue_cyc.note, "4 slots of warps");
    }
    const gc_tensor_t *t = gc_arch_tensor(a, "mma", "m16n8k16", "f16", "f32", NULL);
    if (t) {
        /* the gpu row: 2 x fma x 132 SMs x 1650 MHz */
        double fma = 32 * mma_forms[0].mnk / gc_pipe_cycles(&mma_forms[0].pipe, 8, 4);
        near(&t->peak_tflops, 2 * fma * 132 * 1650e6 / 1e12, 0.001, "peak_tflops");
        near(&t->clock_mhz, 1650, 0, "clock_mhz");
        CHECK_HAS(t->latency_cyc.src, "/mma.csv:");
        CHECK_HAS(t->latency_cyc.src, "ILP-1 row (completion latency)");
    }
    const gc_tensor_t *w = gc_arch_tensor(a, "wgmma", "m64n256k16", "f16", "f32", "ss");
    CHECK(w != NULL);
    if (w) {
        near(&w->latency_cyc, wg_form.pipe.lat_cyc, 0.02, "wgmma latency");
        near(&w->issue_cyc, wg_form.pipe.issue_cyc, 0.02, "wgmma issue");
        near(&w->overhead_cyc, wg_form.pipe.overhead_cyc, 0.02, "wgmma overhead");
        near(&w->sub_cores, 1, 0, "wgmma slots");
        CHECK_STR(w->sass, "HGMMA.64x256x16.F32");
        CHECK_STR(w->operands, "ss");
        /* issue 64, latency 200: 4 wgmmas in flight reach the peak; the
         * fewest warps x ILP among (1 wg, ILP 4), (2, 2), (4, 1) with the
         * fewest warps: one warpgroup (4 warps) at ILP 4 */
        near(&w->peak_warps, 4, 0, "wgmma peak_warps");
        near(&w->peak_ilp, 4, 0, "wgmma peak_ilp");
    }
    near(&a->sm.sub_cores, 4, 0, "sm.sub_cores");
}

static void check_memory(const gc_arch_t *a)
{
    const gc_memory_t *m = &a->memory;
    near(&m->l2.near_hit_cyc, C_NEAR_HIT, 0.02, "near hit");
    near(&m->l2.far_hit_cyc, C_FAR_HIT, 0.02, "far hit");
    near(&m->l2.near_miss_cyc, C_NEAR_MISS, 0.02, "near miss");
    near(&m->l2.far_miss_cyc, C_FAR_MISS, 0.02, "far miss");
    /* half near, half far misses, each with its own jitter (14, 18 cycles):
     * sqrt(0.25 (far - near)^2 + (14^2 + 18^2) / 2) */
    near(&m->l2.miss_sd_cyc,
         sqrt(0.25 * (C_FAR_MISS - C_NEAR_MISS) * (C_FAR_MISS - C_NEAR_MISS) + 0.5 * (196 + 324)),
         0.05, "miss spread");
    near(&m->l2.partitions, 2, 0, "partitions");
    near(&m->l2.near_share, 0.5, 0.02, "near share");
    CHECK_HAS(m->l2.near_hit_cyc.src, "k-means cluster 1 of 2 of the hit regime (near hit), arrays 8 MiB");
    CHECK_HAS(m->l2.far_miss_cyc.src, "cluster 2 of 2 of the miss regime (far miss), arrays 100 MiB");
    CHECK_HAS(m->l2.near_hit_cyc.note, "left out as the long tail");
    /* the curve: plateau levels and capacities within their grid step */
    near(&m->l1.latency_cyc, 33.0, 0.02, "l1 latency");
    near(&m->l1.size_kib, 256, 0.0, "l1 size");
    CHECK(m->l1.size_kib.has_ci && m->l1.size_kib.hi > 256 && m->l1.size_kib.hi < 305);
    near(&m->l2.latency_cyc, 264.5, 0.02, "l2 near plateau");
    near(&m->l2.latency_far_cyc, 502, 0.02, "l2 far plateau");
    CHECK(m->l2.partition_mib.set && m->l2.partition_mib.lo <= 25 && m->l2.partition_mib.v > 25 &&
          m->l2.partition_mib.v < 30);
    CHECK(m->l2.size_mib.set && m->l2.size_mib.v <= 50 && m->l2.size_mib.hi > 50);
    CHECK_HAS(m->l2.size_mib.src, "L2 capacity");
    near(&m->dram.latency_cyc, 656, 0.02, "dram");
    /* the tma bench (bulk, array below the L2) wins over the pchase tma path */
    near(&m->tma.latency_cyc, 480, 0, "tma");
    CHECK(m->tma.latency_cyc.lo == 478.5 && m->tma.latency_cyc.hi == 481.5);
    near(&m->tma.latency_extra_cyc, 480 - 264.5, 0.01, "tma extra");
    near(&m->tma.bw_gbs, 2800, 0, "tma bw");
    near(&m->dsm.latency_local_cyc, 30, 0, "dsm local");
    near(&m->dsm.latency_cyc, 181, 0, "dsm cluster 2");
    near(&m->dsm.bw_gbs, 3250, 0, "dsm best (not self)");
    CHECK(m->dsm.n_clusters == 3);
    if (m->dsm.n_clusters == 3) {
        near(&m->dsm.clusters[2].cluster, 4, 0, "cluster 4");
        near(&m->dsm.clusters[2].latency_cyc, 200, 0, "cluster 4 mean latency");
        CHECK(m->dsm.clusters[2].latency_cyc.lo == 189 && m->dsm.clusters[2].latency_cyc.hi == 211);
        near(&m->dsm.clusters[2].bw_gbs, 3000, 0, "cluster 4 ring");
        near(&m->dsm.clusters[0].bw_gbs, 3300, 0, "cluster 1 self");
    }
    /* shared: the smem bench wins over the pchase shared path */
    near(&m->shared.latency_cyc, 29, 0.02, "shared latency");
    near(&m->shared.conflict_cyc, 2.0, 0.02, "conflict_cyc");
    CHECK(m->shared.n_conflicts == 12);
    CHECK_HAS(m->shared.conflict_cyc.src, "linear fit of latency on ways (4-byte loads, 6 degrees");
    /* bandwidths: the best configuration (1024 threads) */
    near(&m->l1.bw_bytes_clk_sm, 64, 0.02, "l1 bw");
    near(&m->l1.bw_v4_bytes_clk_sm, 120, 0.02, "l1 bw v4");
    near(&m->shared.bw_bytes_clk_sm, 128, 0.02, "shared bw");
    near(&m->l2.bw_bytes_clk, 40 * 132, 0.02, "l2 bw");
    near(&m->l2.bw_v4_bytes_clk, 80 * 132, 0.02, "l2 bw v4");
    near(&m->l2.bw_clock_mhz, 1755, 0, "l2 bw clock");
    near(&m->dram.bw_gbs, 1.5 * 26 * 132 * 1.755, 0.02, "dram bw (best op: write)");
    CHECK_HAS(m->dram.bw_gbs.src, "op write, 16-byte accesses");
    CHECK_HAS(m->l1.bw_bytes_clk_sm.src, "op read, 4-byte accesses");
    CHECK(m->dram.bw_gbs.has_ci);
    /* device facts */
    near(&m->dram.bus_bits, 5120, 0, "bus bits");
    near(&a->sm.shared_block_max_kib, 227, 0, "smem opt-in");
}

static void check_rest(const gc_arch_t *a)
{
    CHECK_STR(a->family, "hopper");
    CHECK_STR(a->cc, "9.0");
    CHECK_STR(a->name, "synth-h100");
    near(&a->sm.count, 132, 0, "sms");
    near(&a->sm.clock_max_mhz, 1980, 0, "clock max");
    near(&a->sm.clock_tensor_mhz, 1650, 0, "clock tensor");
    near(&a->sm.clock_memory_mhz, 1700, 0, "clock memory");
    near(&a->sm.const_miss_cyc, 80, 0.001, "parameter line");
    near(&a->sm.code_miss_cyc, 160, 0.001, "far code");
    CHECK(a->sm.clock_tensor_mhz.lo == 1620 && a->sm.clock_tensor_mhz.hi == 1660);
    const gc_alu_t *f = gc_arch_alu(a, "ffma");
    CHECK(f != NULL);
    if (f) {
        near(&f->latency_cyc, 4, 0.02, "ffma latency");
        near(&f->ops_clk_sm, 128, 0.02, "ffma throughput");
    }
    near(&a->sm.issue_1warp_ratio, 1.125, 0.02, "lone-warp issue ratio");
    CHECK(a->n_ldmatrix == 1);
    if (a->n_ldmatrix) {
        near(&a->ldmatrix[0].latency_cyc, 30, 0.02, "ldmatrix latency");
        near(&a->ldmatrix[0].peak_bytes_clk_sm, 128, 0.02, "ldmatrix peak");
        CHECK_HAS(a->ldmatrix[0].peak_bytes_clk_sm.note, "1 slot of warps");
    }
    CHECK(a->n_dpx == 2);
    if (a->n_dpx == 2) {
        CHECK_STR(a->dpx[1].op, "viaddmax_s32");
        near(&a->dpx[1].latency_cyc, 4.5, 0, "dpx latency");
        near(&a->dpx[1].ops_clk_sm, 64, 0, "dpx throughput");
    }
    /* coissue: (tensor + partner - both) / the shorter, clipped to [0, 1] */
    near(&a->sm.overlap_tensor_fma, 0, 0, "overlap fma");
    near(&a->sm.overlap_tensor_alu, 0.5, 1e-12, "overlap alu");
    near(&a->sm.overlap_tensor_xu, 1, 0, "overlap xu");
    near(&a->sm.overlap_tensor_ldsm, 0.375, 1e-12, "overlap ldsm");
    near(&a->sm.overlap_tensor_shfl, 0.5, 1e-12, "overlap shfl");
    near(&a->sm.clock_mma_mhz, 1720, 0, "clock mma");
    near(&a->sm.clock_fma_mhz, 1900, 0, "clock fma");
    /* a trace of the older form (no curve): the older source */
    CHECK_HAS(a->sm.clock_fma_mhz.src, "clock.csv:");
    CHECK(a->sm.clock_fma_mhz.src && !strcmp(strstr(a->sm.clock_fma_mhz.src, ": SM"),
                                             ": SM clock sustained under the fma load"));
    /* sm.coissue: both warp counts, ascending */
    CHECK(a->sm.n_coissue == 2);
    if (a->sm.n_coissue == 2) {
        near(&a->sm.coissue[0].warps, 8, 0, "coissue warps 8");
        near(&a->sm.coissue[0].alu, 0, 0, "coissue 8 alu");
        near(&a->sm.coissue[0].shfl, 0.5, 1e-12, "coissue 8 shfl");
        near(&a->sm.coissue[1].warps, 16, 0, "coissue warps 16");
        near(&a->sm.coissue[1].ldsm, 0.375, 1e-12, "coissue 16 ldsm");
    }
    CHECK_STR(a->provenance.date, "2025-01-09T03:04:05Z");
    CHECK_HAS(a->provenance.command, "gpucal calib ");
    CHECK_HAS(a->provenance.command, " -o synth.yaml --name synth-h100");
    CHECK_HAS(a->provenance.notes, "missing: mma_sp");
}

static char *emit(const gc_arch_t *a, size_t *len)
{
    char *buf = NULL;
    FILE *fp = open_memstream(&buf, len);
    gc_err_t e;
    CHECK(gc_arch_emit(a, fp, &e) == 0);
    fclose(fp);
    return buf;
}

/* A clock trace of the newer form: each load's row (settled or not) and
 * its curve of samples, power in watts, the fma load. */
static void write_clock_series(void)
{
    gc_trace_writer_t *w = start("clock", NULL);
    static const char *const ccols[] = {"load",    "clock_mhz", "clock_lo", "clock_hi",
                                        "seconds", "part",      "t_s",      "power_w"};
    gc_trace_columns(w, ccols, 8);
    static const struct {
        const char *load, *part;
        double mhz, lo, hi, t_s, w, first, last;
    } L[] = {
        {"idle", "settled", 1980.0, 1979.9, 1980.0, 2.000, 80.0, 1980.0, 1980.0},
        {"memory", "settled", 1700.0, 1690.0, 1705.0, 2.010, 450.0, 1980.0, 1700.0},
        {"tensor", "unsettled", 1455.0, 1450.0, 1460.0, 4.000, 700.0, 1900.0, 1455.0},
        {"tensor_mma", "settled", 1812.6, 1812.5, 1812.7, 2.500, 650.0, 1980.0, 1812.6},
        {"fma", "settled", 1930.0, 1925.0, 1935.0, 2.250, 520.0, 1980.0, 1930.0},
    };
    for (size_t i = 0; i < sizeof(L) / sizeof(L[0]); i++) {
        gc_trace_rowf(w, "%s,%.1f,%.1f,%.1f,1.000,%s,%.3f,%.1f", L[i].load, L[i].mhz, L[i].lo,
                      L[i].hi, L[i].part, L[i].t_s, L[i].w);
        /* the curve: from its first clock to its last in 50 ms steps */
        int n = (int)(L[i].t_s / 0.05 + 0.5);
        for (int k = 1; k <= n; k++) {
            double f = (double)(k - 1) / (n - 1), mhz = L[i].first + f * (L[i].last - L[i].first);
            gc_trace_rowf(w, "%s,%.1f,%.1f,%.1f,0.050,sample,%.3f,%.1f", L[i].load, mhz, mhz, mhz,
                          0.05 * k, L[i].w);
        }
    }
    finish(w);
}

/* A clock trace of before the fma load leaves sm.clock_fma_mhz out; the
 * newer clock trace calibrates each load's row, samples and all. */
static void check_clock_series(void)
{
    gc_trace_writer_t *w = start("clock", NULL);
    static const char *const ccols[] = {"load", "clock_mhz", "clock_lo", "clock_hi", "seconds"};
    gc_trace_columns(w, ccols, 5);
    gc_trace_rowf(w, "idle,1755.0,1750.0,1760.0,0.300");
    gc_trace_rowf(w, "tensor,1650.0,1620.0,1660.0,2.000");
    finish(w);
    gc_err_t e;
    gc_arch_t *a = run(dir, &e);
    CHECK(a != NULL);
    if (a) {
        CHECK(!a->sm.clock_fma_mhz.set && !a->sm.clock_memory_mhz.set);
        near(&a->sm.clock_tensor_mhz, 1650, 0, "clock tensor (older form)");
        gc_arch_destroy(a);
    }
    write_clock_series();
    a = run(dir, &e);
    if (!a)
        fprintf(stderr, "calib failed: %s\n", e.msg);
    CHECK(a != NULL);
    if (!a)
        return;
    near(&a->sm.clock_fma_mhz, 1930, 0, "clock fma");
    CHECK(a->sm.clock_fma_mhz.lo == 1925 && a->sm.clock_fma_mhz.hi == 1935);
    CHECK_HAS(a->sm.clock_fma_mhz.src, "clock.csv:");
    CHECK_HAS(a->sm.clock_fma_mhz.src, "under the fma load: median of its last second, settled "
                                       "after 2.25 s (45 samples)");
    near(&a->sm.clock_tensor_mhz, 1455, 0, "clock tensor (series)");
    CHECK_HAS(a->sm.clock_tensor_mhz.src, "still moving when the run ended after 4.00 s");
    near(&a->sm.clock_memory_mhz, 1700, 0, "clock memory (series)");
    near(&a->sm.clock_mma_mhz, 1812.6, 0, "clock mma (series)");
    CHECK(a->sm.n_tensor_clock == 0); /* no partial loads: the key left out */
    gc_arch_destroy(a);
}

/* One load's row of the newest clock trace (its tensor rate last) and a
 * two-sample curve. */
static void duty_row(gc_trace_writer_t *w, const char *load, double mhz, double lo, double hi,
                     double rate)
{
    gc_trace_rowf(w, "%s,%.1f,%.1f,%.1f,1.000,settled,2.000,400.0,%.2f", load, mhz, lo, hi, rate);
    gc_trace_rowf(w, "%s,%.1f,%.1f,%.1f,0.050,sample,0.050,400.0,0", load, mhz, mhz, mhz);
    gc_trace_rowf(w, "%s,%.1f,%.1f,%.1f,0.050,sample,0.100,400.0,0", load, mhz, mhz, mhz);
}

/* The partial tensor loads: sm.tensor_clock per kind, by activity (each
 * partial load's tensor rate over its full load's), the idle load's clock
 * at 0 and the full load's at 1; the partial loads may come in any order. */
static void check_tensor_clock(void)
{
    gc_trace_writer_t *w = start("clock", NULL);
    static const char *const ccols[] = {"load", "clock_mhz", "clock_lo", "clock_hi", "seconds",
                                        "part", "t_s", "power_w", "tensor_fma_clk_sm"};
    gc_trace_columns(w, ccols, 9);
    duty_row(w, "idle", 1980.0, 1979.0, 1980.0, 0);
    duty_row(w, "tensor", 1500.0, 1495.0, 1505.0, 2000);
    duty_row(w, "tensor_mma", 1815.0, 1815.0, 1815.0, 1300);
    duty_row(w, "fma", 1970.0, 1970.0, 1970.0, 0);
    duty_row(w, "tensor_d50", 1800.0, 1790.0, 1810.0, 1000); /* 0.5 */
    duty_row(w, "tensor_d25", 1960.0, 1950.0, 1965.0, 500);  /* 0.25 */
    duty_row(w, "tensor_mma_d75", 1890.0, 1885.0, 1895.0, 975); /* 0.75 */
    finish(w);
    gc_err_t e;
    gc_arch_t *a = run(dir, &e);
    if (!a)
        fprintf(stderr, "calib failed: %s\n", e.msg);
    CHECK(a != NULL);
    if (!a)
        return;
    near(&a->sm.clock_tensor_mhz, 1500, 0, "clock tensor (duty trace)");
    near(&a->sm.clock_fma_mhz, 1970, 0, "clock fma (duty trace)");
    static const struct {
        const char *inst;
        double act, mhz, lo, hi;
    } want[] = {
        {"wgmma", 0, 1980, 1979, 1980},    {"wgmma", 0.25, 1960, 1950, 1965},
        {"wgmma", 0.5, 1800, 1790, 1810},  {"wgmma", 1, 1500, 1495, 1505},
        {"mma", 0, 1980, 1979, 1980},      {"mma", 0.75, 1890, 1885, 1895},
        {"mma", 1, 1815, 1815, 1815},
    };
    size_t n = sizeof(want) / sizeof(want[0]);
    CHECK(a->sm.n_tensor_clock == n);
    for (size_t i = 0; i < n && i < a->sm.n_tensor_clock; i++) {
        const gc_tclock_t *t = &a->sm.tensor_clock[i];
        CHECK(t->inst && !strcmp(t->inst, want[i].inst));
        near(&t->activity, want[i].act, 0, "tensor_clock activity");
        near(&t->clock_mhz, want[i].mhz, 0, "tensor_clock clock");
        CHECK(t->clock_mhz.has_ci && t->clock_mhz.lo == want[i].lo &&
              t->clock_mhz.hi == want[i].hi);
    }
    if (a->sm.n_tensor_clock == n) {
        CHECK_HAS(a->sm.tensor_clock[0].activity.src, "the idle load: no tensor work");
        CHECK_HAS(a->sm.tensor_clock[1].activity.src,
                  "tensor_fma_clk_sm of the tensor_d25 load (500) over the tensor load's (2000)");
        CHECK_HAS(a->sm.tensor_clock[2].clock_mhz.src, "under the tensor_d50 load");
        CHECK_HAS(a->sm.tensor_clock[3].activity.src, "the full tensor load (activity 1");
        CHECK_HAS(a->sm.tensor_clock[5].activity.src, "over the tensor_mma load's (1300)");
    }
    gc_arch_destroy(a);
}

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    fputs(text, fp);
    fclose(fp);
}

static void rm_dir(const char *d)
{
    DIR *dd = opendir(d);
    if (!dd)
        return;
    struct dirent *de;
    char p[1024];
    while ((de = readdir(dd)))
        if (de->d_name[0] != '.') {
            snprintf(p, sizeof(p), "%s/%s", d, de->d_name);
            unlink(p);
        }
    closedir(dd);
    rmdir(d);
}

/* Folder-level failures, each with its message. */
static void check_folders(void)
{
    gc_err_t e;
    char d[600], p[700];
    snprintf(d, sizeof(d), "%s-bad", dir);
    mkdir(d, 0777);
    CHECK(run(d, &e) == NULL && e.code == GC_EINPUT);
    CHECK_HAS(e.msg, "no traces (*.csv) in the folder");
    snprintf(p, sizeof(p), "%s/other.csv", d);
    write_file(p, "# gpucal-trace: 1\n# bench: numerics\n# device: X\n# cc: 9.0\n# sms: 1\n"
                  "a\n1\n# end: 1\n");
    CHECK(run(d, &e) == NULL && e.code == GC_EINPUT);
    CHECK_HAS(e.msg, "no trace of a bench calib reads");
    /* only a clock trace: sm.sub_cores (required) cannot be supported */
    snprintf(p, sizeof(p), "%s/clock.csv", d);
    write_file(p, "# gpucal-trace: 1\n# bench: clock\n# device: X\n# cc: 9.0\n# sms: 1\n"
                  "load,clock_mhz,clock_lo,clock_hi,seconds\nidle,1500,1490,1510,1\n# end: 1\n");
    CHECK(run(d, &e) == NULL && e.code == GC_ENODATA);
    CHECK_HAS(e.msg, "sm.sub_cores (required by gpucal-arch/1)");
    /* a second clock trace, and a trace of another device */
    snprintf(p, sizeof(p), "%s/clock2.csv", d);
    write_file(p, "# gpucal-trace: 1\n# bench: clock\n# device: X\n# cc: 9.0\n# sms: 1\n"
                  "load,clock_mhz,clock_lo,clock_hi,seconds\nidle,1500,1490,1510,1\n# end: 1\n");
    CHECK(run(d, &e) == NULL && e.code == GC_EINPUT);
    CHECK_HAS(e.msg, "a second trace of bench 'clock'");
    unlink(p);
    snprintf(p, sizeof(p), "%s/bw.csv", d);
    write_file(p, "# gpucal-trace: 1\n# bench: bw\n# device: Y\n# cc: 9.0\n# sms: 1\n"
                  "level,width_bytes,blocks,threads,bytes_clk_sm,bytes_clk,gbs\n"
                  "l1,4,1,1,1,1,1\n# end: 1\n");
    CHECK(run(d, &e) == NULL && e.code == GC_EINPUT);
    /* files go in name order: bw.csv sets the device, clock.csv differs */
    CHECK_HAS(e.msg, "clock.csv:3:3: device differs from");
    CHECK_HAS(e.msg, "bw.csv: one folder holds the traces of one GPU");
    rm_dir(d);
}

int main(int argc, char **argv)
{
    if ((argc == 3 || argc == 5) && !strcmp(argv[1], "--write")) {
        snprintf(dir, sizeof(dir), "%s", argv[2]);
        if (argc == 5) {
            fine_sms = atoi(argv[3]);
            fine_steps = atoi(argv[4]);
            if (fine_sms < 1 || fine_sms > 132 || fine_steps < 1 || fine_steps > 100000) {
                fprintf(stderr, "test_calib: SMS 1..132, STEPS 1..100000\n");
                return 2;
            }
        }
        write_all();
        return 0;
    }
    snprintf(dir, sizeof(dir), "test_calib_tmp_%ld", (long)getpid());
    write_all();
    gc_err_t e;
    gc_arch_t *a = run(dir, &e);
    if (!a)
        fprintf(stderr, "calib failed: %s\n", e.msg);
    CHECK(a != NULL);
    if (a) {
        check_tensor(a);
        check_memory(a);
        check_rest(a);
        /* twice: the same bytes */
        gc_arch_t *b = run(dir, &e);
        CHECK(b != NULL);
        if (b) {
            size_t la, lb;
            char *ta = emit(a, &la), *tb = emit(b, &lb);
            CHECK(la == lb && !memcmp(ta, tb, la));
            free(ta);
            free(tb);
            gc_arch_destroy(b);
        }
        gc_arch_destroy(a);
    }
    check_overlap();
    check_clock_series();
    check_tensor_clock();
    /* the bench's first version timed a chain of dependent ldmatrix (rows
     * `ldsm`): its overlap is left out, the other four stay */
    write_coissue("ldsm");
    a = run(dir, &e);
    CHECK(a != NULL);
    if (a) {
        CHECK(!a->sm.overlap_tensor_ldsm.set);
        near(&a->sm.overlap_tensor_alu, 0.5, 1e-12, "old coissue: overlap alu");
        CHECK(a->sm.n_coissue == 2);
        for (size_t i = 0; i < a->sm.n_coissue; i++)
            CHECK(!a->sm.coissue[i].ldsm.set && a->sm.coissue[i].fma.set);
        gc_arch_destroy(a);
    }
    write_coissue("ldsm_ind");
    /* a missing bench leaves its keys out, nothing defaulted */
    char p[700];
    snprintf(p, sizeof(p), "%s/bw.csv", dir);
    unlink(p);
    snprintf(p, sizeof(p), "%s/pchase_fine.csv", dir);
    unlink(p);
    a = run(dir, &e);
    CHECK(a != NULL);
    if (a) {
        CHECK(!a->memory.l1.bw_bytes_clk_sm.set && !a->memory.dram.bw_gbs.set);
        CHECK(!a->memory.l2.near_hit_cyc.set && !a->memory.l2.partitions.set);
        CHECK(a->memory.l2.latency_cyc.set);
        CHECK_HAS(a->provenance.notes, "missing: mma_sp, pchase_fine, bw, launch;");
        gc_arch_destroy(a);
    }
    rm_dir(dir);
    check_folders();
    CHECK_DONE();
}
