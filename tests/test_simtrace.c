/* test_simtrace.c - the Accel-Sim trace writer and the latency corrections:
 * tiny kernels of each shape written byte for byte as the golden file
 * tests/fixtures/export/simtrace/tiny.traceg (worked out by hand from the
 * simulator's reader, trace_parser.cc), the benchmark plan of a synthetic
 * arch with the figures it must carry, and the correction arithmetic with
 * known answers. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/export/accelsim.h"
#include "model/export/simcorr.h"
#include "model/export/simtrace.h"
#include "arch/arch.h"
#include "util/fsio.h"

static const char *src(void)
{
    const char *s = getenv("GC_SRC");
    return s && *s ? s : "..";
}

/* Three tiny kernels: a 2-step FFMA chain, a 3-step L2 chase (kernel 2 of
 * its pair), a 2-block x 2-warp read stream of 2 steps with ILP 2. */
static void test_golden(void)
{
    gc_simbench_t b[3];
    memset(b, 0, sizeof(b));
    snprintf(b[0].name, sizeof(b[0].name), "ffma_chain");
    b[0].kind = GC_SB_ALU;
    b[0].opcode = "FFMA";
    b[0].blocks = b[0].warps = b[0].ilp = 1;
    snprintf(b[1].name, sizeof(b[1].name), "l2_chase");
    b[1].kind = GC_SB_CHASE;
    b[1].where = GC_SB_L2;
    b[1].opcode = "LDG.E";
    b[1].stride_b = 128;
    b[1].blocks = b[1].warps = b[1].ilp = 1;
    snprintf(b[2].name, sizeof(b[2].name), "dram_read");
    b[2].kind = GC_SB_STREAM;
    b[2].opcode = "LDG.E";
    b[2].stride_b = 128;
    b[2].blocks = b[2].warps = b[2].ilp = 2;
    char *got = NULL;
    size_t n = 0;
    FILE *fp = open_memstream(&got, &n);
    gc_err_t e;
    gc_err_clear(&e);
    CHECK(gc_simtrace_kernel(fp, &b[0], 2, 1, &e) == 0);
    CHECK(gc_simtrace_kernel(fp, &b[1], 3, 2, &e) == 0);
    CHECK(gc_simtrace_kernel(fp, &b[2], 2, 1, &e) == 0);
    fclose(fp);
    char path[1024], *want = NULL;
    size_t wn = 0;
    snprintf(path, sizeof(path), "%s/tests/fixtures/export/simtrace/tiny.traceg", src());
    CHECK(gc_file_read(path, 1 << 20, &want, &wn, &e) == 0);
    CHECK(want && wn == n && !memcmp(want, got, n));
    if (want && (wn != n || memcmp(want, got, n)))
        fprintf(stderr, "got:\n%s\n", got);
    free(want);
    free(got);
}

static const char arch_yaml[] =
    "schema: gpucal-arch/1\nname: t-sim\nfamily: hopper\ndevice: T\ncc: \"9.0\"\n"
    "sm: {count: 2, sub_cores: 4, fp32_lanes: 128, clock_max_mhz: 1000, registers: 65536,\n"
    "     max_warps: 64, max_blocks: 32, shared_max_kib: 228, shared_block_max_kib: 227,\n"
    "     l1_shared_kib: 256}\n"
    "alu:\n  - {op: ffma, latency_cyc: 4.2, ops_clk_sm: 128}\n"
    "tensor:\n"
    "  - {inst: mma, shape: m16n8k16, a: f16, c: f32, latency_cyc: 24.4, peak_fma_clk_sm: 1024}\n"
    "memory:\n"
    "  l1: {latency_cyc: 32.3}\n"
    "  shared: {latency_cyc: 23.0, banks: 32}\n"
    "  l2: {size_mib: 50, near_hit_cyc: 260.0, near_miss_cyc: 560.0}\n"
    "  dram: {type: HBM3, bus_bits: 1024, channels: 16, bw_peak_gbs: 2000, bw_gbs: 1500}\n";

/* The plan of a synthetic arch: each benchmark with its figure. */
static void test_plan(void)
{
    gc_arch_t *a = NULL;
    gc_err_t e;
    gc_err_clear(&e);
    if (gc_arch_parse(&a, "t.yaml", arch_yaml, strlen(arch_yaml), &e) != 0) {
        fprintf(stderr, "fixture does not parse: %s\n", e.msg);
        CHECK(0);
        return;
    }
    char *g = NULL, *t = NULL;
    gc_accelsim_info_t in;
    CHECK(gc_accelsim_render(a, NULL, &g, &t, &in, &e) == 0);
    gc_simbench_t b[GC_SIMBENCH_MAX];
    int n = gc_simtrace_plan(a, &in, b);
    CHECK(n == 9); /* ffma; hmma; smem, l1, l2, dram; mma, ffma, dram read (no imad) */
    static const char *const names[] = {"ffma_chain", "hmma_chain", "smem_chase", "l1_chase",
                                        "l2_chase",   "dram_chase", "mma_tput",   "ffma_tput",
                                        "dram_read"};
    static const double figs[] = {4.2, 24.4, 23.0, 32.3, 260.0, 560.0, 1024, 128, 1500};
    for (int i = 0; i < n && i < 9; i++) {
        CHECK_STR(b[i].name, names[i]);
        CHECK_NEAR(b[i].figure, figs[i], 1e-9);
    }
    /* mma: 8 warps x 2048 FMA per step; the stream: 4 blocks x 8 warps x 128 B */
    CHECK_NEAR(b[6].work_step, 8 * 2048.0, 1e-9);
    CHECK_NEAR(b[8].work_step, 4 * 8 * 128.0, 1e-9);
    CHECK_NEAR(b[8].clock_mhz, 1000, 1e-9);
    /* the floors: FFMA 4.2 cycles is below the shortest chain (latency 1 + 4 = 5); the
     * HMMA's 24.4 is reachable (20 + 4 = 24), and so are the chases and the throughputs */
    CHECK_NEAR(b[0].floor, 5, 1e-9);
    for (int i = 1; i < n; i++)
        CHECK_NEAR(b[i].floor, 0, 1e-9);
    free(g);
    free(t);
    gc_arch_destroy(a);
}

/* The correction arithmetic, worked by hand. */
static void test_corrections(void)
{
    double sim = 0;
    /* 24.4 - 4 = 20.4 -> 20; the simulator then runs 20 + 4 = 24 */
    CHECK(gc_simcorr_pipe(24.4, GC_SIM_ADD_ALU_CYC, 4, &sim) == 20);
    CHECK_NEAR(sim, 24, 1e-12);
    /* 4.1 - 4 = 0.1 < the initiation interval 1: the floor, simulated 1 + 4 = 5 */
    CHECK(gc_simcorr_pipe(4.1, GC_SIM_ADD_ALU_CYC, 1, &sim) == 1);
    CHECK_NEAR(sim, 5, 1e-12);
    /* IMAD at half rate: 4.1 - 4 < 2, simulated 2 + 4 = 6 */
    CHECK(gc_simcorr_pipe(4.1, GC_SIM_ADD_ALU_CYC, 2, &sim) == 2);
    CHECK_NEAR(sim, 6, 1e-12);
    /* 33 - 4 = 29 < 32: the latency cannot be below the initiation interval */
    CHECK(gc_simcorr_pipe(33, GC_SIM_ADD_ALU_CYC, 32, &sim) == 32);
    CHECK_NEAR(sim, 36, 1e-12);
    /* L2 hit 300.06 over a configured L1 of 29: 300.06 - 29 - 12 = 259.06 -> 259 */
    CHECK(gc_simcorr_rop(300.06, 29) == 259);
    CHECK(gc_simcorr_rop(30, 28) == 1);
    /* H100: miss 583.11 - hit 300.06 - 44 x 1980 / 2619 (33.26) = 249.78 -> 250 */
    CHECK(gc_simcorr_dram(583.11, 300.06, 44, 1980, 2619) == 250);
    /* A100: 548.8 - 282.3 - 44 x 1410 / 1215 (51.06) = 215.44 -> 215 */
    CHECK(gc_simcorr_dram(548.8, 282.3, 44, 1410, 1215) == 215);
    CHECK(gc_simcorr_dram(300, 299, 44, 1000, 1000) == 1);
}

int main(void)
{
    test_golden();
    test_plan();
    test_corrections();
    CHECK_DONE();
}
