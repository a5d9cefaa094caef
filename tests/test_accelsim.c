/* test_accelsim.c - the Accel-Sim export: known answers on synthetic arch
 * files (every derived value worked out by hand from the inputs below), the
 * rules for values an arch lacks, the refusals, the atomic no-clobber
 * writes, and that every export passes the validator and carries every key
 * of the simulator's SM86 reference configs. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "model/export/accelsim.h"
#include "arch/arch.h"
#include "model/export/simcheck.h"
#include "util/fsio.h"

static const char *src(void)
{
    const char *s = getenv("GC_SRC");
    return s && *s ? s : "..";
}

/* An HBM GPU with a partitioned L2: 80 channels (no IPOLY), near/far L2. */
static const char hbm[] =
    "schema: gpucal-arch/1\nname: t-hbm\nfamily: hopper\ndevice: T\ncc: \"9.0\"\n"
    "sm: {count: 132, sub_cores: 4, fp32_lanes: 128, clock_max_mhz: 1980, registers: 65536,\n"
    "     max_warps: 64, max_blocks: 32, shared_max_kib: 228, shared_block_max_kib: 227,\n"
    "     l1_shared_kib: 256}\n"
    "tensor:\n"
    "  - {inst: mma, shape: m16n8k16, a: f16, c: f32, latency_cyc: 24.1, peak_fma_clk_sm: 1024}\n"
    "memory:\n"
    "  l1: {latency_cyc: 32.3}\n"
    "  shared: {banks: 32, conflicts: [{width_bytes: 4, ways: 1, latency_cyc: 23.2}]}\n"
    "  l2: {size_mib: 50, partitions: 2, near_share: 0.6, near_hit_cyc: 258.0, far_hit_cyc: "
    "414.1,\n"
    "       near_miss_cyc: 555.5, far_miss_cyc: 743.7}\n"
    "  dram: {type: HBM3, bus_bits: 5120, bw_peak_gbs: 2039}\n";

static gc_arch_t *parse(const char *yaml)
{
    gc_arch_t *a = NULL;
    gc_err_t e;
    gc_err_clear(&e);
    if (gc_arch_parse(&a, "test.yaml", yaml, strlen(yaml), &e) != 0) {
        fprintf(stderr, "fixture does not parse: %s\n", e.msg);
        return NULL;
    }
    return a;
}

/* yaml with the first occurrence of from replaced by to (malloc'd). */
static char *subst(const char *yaml, const char *from, const char *to)
{
    const char *p = strstr(yaml, from);
    if (!p) {
        fprintf(stderr, "subst: '%s' not in the fixture\n", from);
        return NULL;
    }
    size_t n = strlen(yaml) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(p - yaml), yaml, to, p + strlen(from));
    return out;
}

/* Value of option name in a rendered file ("" if absent). */
static const char *val(const char *text, const char *name)
{
    static char buf[4][256];
    static int k;
    char *b = buf[k++ & 3];
    b[0] = '\0';
    size_t n = strlen(name);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (!strncmp(p, name, n) && p[n] == ' ') {
            size_t l = strcspn(p + n + 1, "\n");
            snprintf(b, 256, "%.*s", (int)l, p + n + 1);
            break;
        }
    return b;
}

typedef struct out {
    char *g, *t;
    gc_accelsim_info_t info;
    gc_err_t e;
    int rc;
} out_t;

static out_t render(const gc_arch_t *a, const char *clock, const char *form)
{
    out_t o = {0};
    gc_accelsim_opts_t opts = {clock, form};
    gc_err_clear(&o.e);
    o.rc = gc_accelsim_render(a, &opts, &o.g, &o.t, &o.info, &o.e);
    return o;
}

static void out_free(out_t *o)
{
    free(o->g);
    free(o->t);
}

/* The rendered pair passes the validator. */
static int valid(const out_t *o)
{
    gc_simcheck_t *sc = gc_simcheck_create();
    gc_err_t e;
    gc_err_clear(&e);
    int rc = gc_simcheck_add(sc, "gpgpusim.config", o->g, strlen(o->g), &e);
    if (!rc)
        rc = gc_simcheck_add(sc, "trace.config", o->t, strlen(o->t), &e);
    if (!rc)
        rc = gc_simcheck_done(sc, &e);
    if (rc)
        fprintf(stderr, "validator: %s\n", e.msg);
    gc_simcheck_destroy(sc);
    return rc == 0;
}

static gc_arch_t *load_fixture(void)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/fixtures/export/arch/test-export.yaml", src());
    gc_arch_t *a = NULL;
    gc_err_t e;
    if (gc_arch_load(&a, path, &e) != 0)
        fprintf(stderr, "%s\n", e.msg);
    return a;
}

/* The GDDR6 fixture: every value by hand. */
/* The --clock and --form choices on the fixture arch a. */
static void fixture_choices(const gc_arch_t *a)
{
    out_t o;
    /* the clock choice */
    o = render(a, "tensor", NULL);
    CHECK_STR(val(o.g, "-gpgpu_clock_domains"), "1650:1650:1650:3500.5");
    out_free(&o);
    o = render(a, "base", NULL);
    CHECK_STR(val(o.g, "-gpgpu_clock_domains"), "1500:1500:1500:3500.5");
    CHECK_STR(val(o.g, "-gpgpu_kernel_launch_latency"), "900"); /* 0.6 us x 1500 */
    out_free(&o);
    /* the form choice: m16n8k8 (peak 480): 16 x 8 x 8 x 4 / 480 = 8.53 -> 9;
     * latency 18 less the 4 cycles the simulator adds */
    o = render(a, NULL, "mma m16n8k8 f16.f32");
    CHECK_STR(val(o.t, "-trace_opcode_latency_initiation_tensor"), "14,9");
    out_free(&o);
    o = render(a, NULL, "mma m16n8k16 f16.f32"); /* the label without the data pattern */
    CHECK_STR(val(o.t, "-trace_opcode_latency_initiation_tensor"), "29,16");
    out_free(&o);
    o = render(a, NULL, "mma m16n8k16 bf16.f32"); /* 2048 x 4 / 505 = 16.2 */
    CHECK_STR(val(o.t, "-trace_opcode_latency_initiation_tensor"), "29,16");
    out_free(&o);
    o = render(a, NULL, "wgmma m64n256k16 f16.f32");
    CHECK(o.rc == GC_EINPUT);
    CHECK_HAS(o.e.msg, "no tensor form 'wgmma m64n256k16 f16.f32'");
    out_free(&o);
}

static void test_fixture(void)
{
    gc_arch_t *a = load_fixture();
    CHECK(a != NULL);
    if (!a)
        return;
    out_t o = render(a, NULL, NULL);
    CHECK(o.rc == 0);
    if (o.rc) {
        fprintf(stderr, "%s\n", o.e.msg);
        gc_arch_destroy(a);
        return;
    }
    CHECK(valid(&o));
    const char *g = o.g, *t = o.t;
    CHECK_STR(val(g, "-gpgpu_n_clusters"), "46");
    CHECK_STR(val(g, "-gpgpu_ptx_force_max_capability"), "86");
    CHECK_STR(val(g, "-gpgpu_compute_capability_minor"), "6");
    /* 256 bits / 16-bit GDDR6 channels = 16 channels of 2 bytes: IPOLY */
    CHECK_STR(val(g, "-gpgpu_n_mem"), "16");
    CHECK_STR(val(g, "-gpgpu_dram_buswidth"), "2");
    CHECK_STR(val(g, "-gpgpu_memory_partition_indexing"), "2");
    /* DRAM clock 2 x 7001 / 4 = 3500.5 MHz: 16 x 2 B x 4 x 3500.5 MHz = 448 GB/s */
    CHECK_STR(val(g, "-gpgpu_clock_domains"), "1725:1725:1725:3500.5");
    CHECK_HAS(g, "= 448.064 GB/s");
    /* 4 MiB / 32 slices = 131072 B = 64 sets x 128 B x 16 ways */
    CHECK_STR(val(g, "-gpgpu_cache:dl2"), "S:64:128:16,L:B:m:L:P,A:192:4,32:0,32");
    /* 128 KiB unified = 4 x 128 x 256 */
    CHECK_STR(val(g, "-gpgpu_cache:dl1"), "S:4:128:256,L:T:m:L:L,A:384:48,16:0,32");
    CHECK_STR(val(g, "-gpgpu_unified_l1d_size"), "128");
    CHECK_STR(val(g, "-gpgpu_shmem_option"), "0,8,16,32,64,100");
    CHECK_STR(val(g, "-gpgpu_shmem_size"), "102400");
    CHECK_STR(val(g, "-gpgpu_shmem_per_block"), "101376");
    CHECK_STR(val(g, "-gpgpu_shader_core_pipeline"), "1536:32");
    CHECK_STR(val(g, "-gpgpu_shader_cta"), "16");
    /* less what the simulator adds (model/export/simcorr.h): L1 3, LDS 4 */
    CHECK_STR(val(g, "-gpgpu_l1_latency"), "35");   /* 37.6 - 3 = 34.6 */
    CHECK_STR(val(g, "-gpgpu_smem_latency"), "25"); /* 29.1 - 4 = 25.1 */
    /* the operand collector takes every source in the cycle after issue */
    CHECK_STR(val(g, "-gpgpu_reg_file_port_throughput"), "6");
    /* fine-grained L2 (one partition): rop 210 - 35 (the L1 written) - 12 = 163;
     * DRAM 452.4 - 210 - 80 GDDR6 clocks x 1725 / 3500.5 (39.42) = 202.98 */
    CHECK_STR(val(g, "-gpgpu_l2_rop_latency"), "163");
    CHECK_STR(val(g, "-dram_latency"), "203");
    /* sm.kernel_floor_us 0.6 us x 1725 MHz (not the host-timed 3 us) */
    CHECK_STR(val(g, "-gpgpu_kernel_launch_latency"), "1035");
    /* tensor: m16n8k16 f16.f32 rand, latency 32.6 - 4 = 28.6, issue 16.2 */
    CHECK_STR(val(g, "-ptx_opcode_latency_tesnor"), "29");
    CHECK_STR(val(g, "-ptx_opcode_initiation_tensor"), "16");
    CHECK_STR(val(t, "-trace_opcode_latency_initiation_tensor"), "29,16");
    CHECK_STR(val(t, "-trace_opcode_latency_initiation_spec_op_3"), "29,16");
    CHECK_STR(val(t, "-specialized_unit_3"), "1,4,29,4,4,TENSOR");
    /* ALU, less the 4 cycles the simulator adds, never below the initiation
     * interval: imad 4.5 @ 64/clk -> 2,2 (the floor); ffma 4.2 @ 128 -> 1,1 (the
     * floor); dfma 54 @ 2 -> the initiation 64 exceeds 54 - 4, so 64; mufu
     * 18.3 - 4 = 14.3 @ 16 -> 14,8 */
    CHECK_STR(val(t, "-trace_opcode_latency_initiation_int"), "2,2");
    CHECK_STR(val(t, "-trace_opcode_latency_initiation_sp"), "1,1");
    CHECK_STR(val(t, "-trace_opcode_latency_initiation_dp"), "64,64");
    CHECK_STR(val(t, "-trace_opcode_latency_initiation_sfu"), "14,8");
    CHECK_STR(val(g, "-ptx_opcode_latency_int"), "2,2,2,2,21");
    CHECK_STR(val(g, "-ptx_opcode_initiation_fp"), "1,1,1,1,2");
    CHECK_STR(val(g, "-gpgpu_pipeline_widths"), "4,4,4,4,4,4,4,4,4,4,8,4,4");
    CHECK_STR(val(g, "-gpgpu_dram_timing_opt"),
              "nbk=16:CCD=4:RRD=12:RCD=24:RAS=55:RP=24:RC=78:CL=24:WL=8:CDLR=10:WR=24:nbkgrp=4:"
              "CCDL=6:RTPL=4");
    /* the chains the simulator will run: written + 4 (imad 2 + 4, ffma 1 + 4, tensor
     * 29 + 4), the sim-check floors of the first two */
    CHECK_NEAR(o.info.sim_int_cyc, 6, 1e-12);
    CHECK_NEAR(o.info.sim_sp_cyc, 5, 1e-12);
    CHECK_NEAR(o.info.sim_tc_cyc, 33, 1e-12);
    CHECK(o.info.n_options == 120);
    CHECK(o.info.n_arch + o.info.n_const == 120);
    CHECK_STR(o.info.fallbacks, "");
    CHECK_STR(o.info.form, "mma m16n8k16 f16.f32 rand");
    /* no placeholder anywhere, every value traced by a comment line */
    CHECK(!strstr(g, " X\n") && !strstr(t, " X\n"));
    out_free(&o);

    fixture_choices(a);
    gc_arch_destroy(a);
}

static void test_hbm(void)
{
    gc_arch_t *a = parse(hbm);
    CHECK(a != NULL);
    if (!a)
        return;
    out_t o = render(a, NULL, NULL);
    CHECK(o.rc == 0);
    if (o.rc)
        fprintf(stderr, "%s\n", o.e.msg);
    else {
        CHECK(valid(&o));
        CHECK_STR(val(o.g, "-gpgpu_n_mem"), "80");
        CHECK_STR(val(o.g, "-gpgpu_dram_buswidth"), "8");
        CHECK_STR(val(o.g, "-gpgpu_memory_partition_indexing"), "0"); /* 80: no IPOLY, no XOR */
        CHECK(o.info.indexing == 0 && o.info.n_mem == 80);
        /* DRAM clock from the datasheet bandwidth: 2039e3 / (2 x 640) = 1592.96875 MHz */
        CHECK_STR(val(o.g, "-gpgpu_clock_domains"), "1980:1980:1980:1592.96875");
        /* 50 MiB / 160 slices = 327680 B = 64 x 128 x 40 */
        CHECK_STR(val(o.g, "-gpgpu_cache:dl2"), "S:64:128:40,L:B:m:L:P,A:192:4,32:0,32");
        /* hit 0.6 x 258 + 0.4 x 414.1 = 320.44; miss 0.6 x 555.5 + 0.4 x 743.7 = 630.78 */
        /* 320.44 - the L1 written (32.3 - 3 = 29) - 12 */
        CHECK_STR(val(o.g, "-gpgpu_l2_rop_latency"), "279");
        /* 630.78 - 320.44 - 44 HBM clocks x 1980 / 1592.97 (54.69) = 255.65 */
        CHECK_STR(val(o.g, "-dram_latency"), "256");
        /* HBM constants */
        CHECK_STR(val(o.g, "-gpgpu_dram_burst_length"), "2");
        CHECK_STR(val(o.g, "-dram_data_command_freq_ratio"), "2");
        CHECK_STR(val(o.g, "-dram_dual_bus_interface"), "1");
        /* cc 9.0 carve-outs up to 228 KiB; shared latency from the conflict table */
        CHECK_STR(val(o.g, "-gpgpu_shmem_option"), "0,8,16,32,64,100,132,164,196,228");
        CHECK_STR(val(o.g, "-gpgpu_smem_latency"), "19"); /* 23.2 - 4 */
        CHECK_STR(val(o.g, "-gpgpu_shader_core_pipeline"), "2048:32"); /* 64 warps x 32 */
        /* no alu entries, no launch overhead: reference constants, named */
        CHECK_STR(val(o.t, "-trace_opcode_latency_initiation_int"), "4,2");
        CHECK_STR(val(o.t, "-trace_opcode_latency_initiation_sp"), "4,1"); /* lanes 128 */
        CHECK_STR(val(o.t, "-trace_opcode_latency_initiation_dp"), "8,4");
        CHECK_STR(val(o.t, "-trace_opcode_latency_initiation_sfu"), "20,8");
        CHECK_HAS(o.info.fallbacks, "alu[imad]");
        CHECK_HAS(o.info.fallbacks, "alu[ffma]");
        CHECK_HAS(o.info.fallbacks, "alu[dfma]");
        CHECK_HAS(o.info.fallbacks, "alu[mufu.ex2]");
        CHECK_HAS(o.info.fallbacks, "sm.launch_overhead_us");
        CHECK_HAS(o.g, "latency constant 4: the arch has no alu[imad] (reference value)");
        /* tensor initiation from the peak: 2048 x 4 / 1024 = 8; latency 24.1 - 4 */
        CHECK_STR(val(o.t, "-trace_opcode_latency_initiation_tensor"), "20,8");
    }
    out_free(&o);
    gc_arch_destroy(a);

    /* near_share absent: 1/partitions; the classic P-chase when the
     * fine-grained miss is absent */
    char *y = subst(hbm, "near_share: 0.6, ", "");
    a = parse(y);
    o = render(a, NULL, NULL);
    /* (555.5+743.7)/2 - (258+414.1)/2 = 313.55, less 54.69 */
    CHECK_STR(val(o.g, "-dram_latency"), "259");
    out_free(&o);
    gc_arch_destroy(a);
    free(y);
    y = subst(hbm, "near_miss_cyc: 555.5, far_miss_cyc: 743.7}",
              "latency_cyc: 262.0, latency_far_cyc: 478.0}");
    char *y2 = subst(y, "  dram: {", "  dram: {latency_cyc: 820, ");
    a = parse(y2);
    o = render(a, NULL, NULL);
    CHECK(o.rc == 0);
    /* hit 0.6 x 262 + 0.4 x 478 = 348.4; miss 820: 820 - 348.4 - 54.69 = 416.91 */
    CHECK_STR(val(o.g, "-dram_latency"), "417");
    CHECK_STR(val(o.g, "-gpgpu_l2_rop_latency"), "307"); /* 348.4 - 29 - 12 */
    CHECK_HAS(o.g, "classic P-chase");
    out_free(&o);
    gc_arch_destroy(a);
    free(y);
    free(y2);
}

/* -gpgpu_kernel_launch_latency: the GPU-side gap between kernels
 * (sm.kernel_floor_us) when the arch has it, else the host-timed launch
 * overhead, named as the stand-in. */
static void test_launch(void)
{
    char *y = subst(hbm, "sm: {count: 132,",
                    "sm: {count: 132, launch_overhead_us: 5.5, kernel_floor_us: 0.787,");
    gc_arch_t *a = parse(y);
    CHECK(a != NULL);
    if (a) {
        out_t o = render(a, NULL, NULL);
        /* 0.787 us x 1980 MHz = 1558.26 */
        CHECK_STR(val(o.g, "-gpgpu_kernel_launch_latency"), "1558");
        CHECK_HAS(o.g, "sm.kernel_floor_us 0.787 x 1980 MHz");
        CHECK(!strstr(o.info.fallbacks, "launch_overhead") && !strstr(o.info.fallbacks, "floor"));
        out_free(&o);
        gc_arch_destroy(a);
    }
    free(y);
    y = subst(hbm, "sm: {count: 132,", "sm: {count: 132, launch_overhead_us: 5.5,");
    a = parse(y);
    CHECK(a != NULL);
    if (a) {
        out_t o = render(a, NULL, NULL);
        /* 5.5 us x 1980 MHz = 10890, the host-timed upper bound */
        CHECK_STR(val(o.g, "-gpgpu_kernel_launch_latency"), "10890");
        CHECK_HAS(o.info.fallbacks, "sm.kernel_floor_us");
        out_free(&o);
        gc_arch_destroy(a);
    }
    free(y);
}

/* An L2 that does not divide into whole ways per slice: the nearest layout
 * at 64 sets, said in the comment and the note (the H200: 60 MiB over 94
 * channels x 2 slices). */
static void test_l2_nearest(void)
{
    char *y = subst(hbm, "size_mib: 50,", "size_mib: 50.3,");
    gc_arch_t *a = parse(y);
    CHECK(a != NULL);
    if (a) {
        out_t o = render(a, NULL, NULL);
        /* 50.3 MiB / 160 slices / (64 x 128 B) = 40.24 ways -> 40: 50 MiB, -0.60 % */
        CHECK_STR(val(o.g, "-gpgpu_cache:dl2"), "S:64:128:40,L:B:m:L:P,A:192:4,32:0,32");
        CHECK_HAS(o.g, "the nearest layout the simulator takes, 64 sets x 128 B x 40 ways = 50 "
                       "MiB in all (-0.60 %)");
        CHECK(fabs(o.info.l2_off_pct + 0.596) < 0.001);
        out_free(&o);
        gc_arch_destroy(a);
    }
    free(y);
    y = subst(hbm, "bus_bits: 5120, bw_peak_gbs: 2039", "bus_bits: 6016, bw_peak_gbs: 4800");
    char *y2 = subst(y, "size_mib: 50,", "size_mib: 60,");
    a = parse(y2);
    CHECK(a != NULL);
    if (a) {
        out_t o = render(a, NULL, NULL);
        /* 60 MiB / 188 slices / 8192 B = 40.85 ways -> 41: 60.22 MiB, +0.36 % */
        CHECK(o.rc == 0);
        CHECK_STR(val(o.g, "-gpgpu_n_mem"), "94");
        CHECK_STR(val(o.g, "-gpgpu_memory_partition_indexing"), "0");
        CHECK_STR(val(o.g, "-gpgpu_cache:dl2"), "S:64:128:41,L:B:m:L:P,A:192:4,32:0,32");
        out_free(&o);
        gc_arch_destroy(a);
    }
    free(y);
    free(y2);

    /* a measured stream below the datasheet peak sets the DRAM clock: bw_gbs 1800 x 1000 /
     * (80 channels x 8 B x 2) = 1406.25 MHz; bw_read_gbs wins over bw_gbs; a stream above
     * the peak (2039 GB/s at 1592.97 MHz) leaves the datasheet clock */
    static const struct {
        const char *dram, *clocks;
    } streams[] = {
        {"bus_bits: 5120, bw_peak_gbs: 2039, bw_gbs: 1800", "1980:1980:1980:1406.25"},
        {"bus_bits: 5120, bw_peak_gbs: 2039, bw_gbs: 1800, bw_read_gbs: 1900",
         "1980:1980:1980:1484.38"},
        {"bus_bits: 5120, bw_peak_gbs: 2039, bw_gbs: 2100", "1980:1980:1980:1592.96875"},
    };
    for (size_t i = 0; i < sizeof(streams) / sizeof(streams[0]); i++) {
        y = subst(hbm, "bus_bits: 5120, bw_peak_gbs: 2039", streams[i].dram);
        a = parse(y);
        CHECK(a != NULL);
        if (a) {
            out_t o = render(a, NULL, NULL);
            CHECK(o.rc == 0);
            CHECK_STR(val(o.g, "-gpgpu_clock_domains"), streams[i].clocks);
            if (i < 2)
                CHECK_HAS(o.g, "the GPU's sustained stream");
            out_free(&o);
            gc_arch_destroy(a);
        }
        free(y);
    }
}

/* Each refusal names what is missing or wrong, in one line. */
static void refused(const char *from, const char *to, const char *msg)
{
    char *y = subst(hbm, from, to);
    gc_arch_t *a = y ? parse(y) : NULL;
    CHECK(a != NULL);
    if (a) {
        out_t o = render(a, NULL, NULL);
        CHECK(o.rc == GC_EINPUT);
        CHECK_HAS(o.e.msg, msg);
        CHECK(!strchr(o.e.msg, '\n'));
        CHECK(o.g == NULL && o.t == NULL);
        out_free(&o);
        gc_arch_destroy(a);
    }
    free(y);
}

static void test_refusals(void)
{
    refused("  l1: {latency_cyc: 32.3}\n", "",
            "test.yaml: memory.l1.latency_cyc is missing: the Accel-Sim export needs it for "
            "-gpgpu_l1_latency");
    refused("near_hit_cyc: 258.0, ", "", "memory.l2.near_hit_cyc is missing");
    refused("latency_cyc: 24.1, ", "", "tensor[mma m16n8k16 f16.f32].latency_cyc is missing");
    refused("latency_cyc: 24.1, peak_fma_clk_sm: 1024", "latency_cyc: 24.1",
            "tensor[mma m16n8k16 f16.f32].issue_cyc is missing");
    refused("shape: m16n8k16", "shape: m16n8k32", "tensor[mma m16n8k16 f16.f32] is missing");
    refused("type: HBM3", "type: DDR4", "memory.dram.type 'DDR4' has no DRAM model");
    refused("type: HBM3, bus_bits: 5120, bw_peak_gbs: 2039", "bus_bits: 384, clock_mhz: 10501",
            "memory.dram.type is missing");
    refused("bus_bits: 5120, bw_peak_gbs: 2039", "bw_peak_gbs: 2039",
            "memory.dram.channels is missing");
    refused("bus_bits: 5120, bw_peak_gbs: 2039", "bus_bits: 5120",
            "memory.dram.clock_mhz is missing");
    refused("bus_bits: 5120", "bus_bits: 5100", "is not a multiple of the 64-bit HBM channel");
    /* 2 MiB over 160 slices: 1.6 ways of 64 sets, 6.4 of 16; no layout within 1 % */
    refused("size_mib: 50,", "size_mib: 2,", "does not divide into 160 slices");
    refused("l1: {latency_cyc: 32.3}", "l1: {latency_cyc: 32.3, line_bytes: 64}",
            "memory.l1.line_bytes is 64: the simulator's sector cache needs 128-byte lines");
    refused("l1_shared_kib: 256}", "l1_shared_kib: 200}",
            "sm.shared_max_kib 228 exceeds sm.l1_shared_kib 200");
    refused("l1: {latency_cyc: 32.3}", "l1: {latency_cyc: 400}", "is not above memory.l1");
    /* cc 8.7 is not in gpucal's table of CUDA-guide limits */
    char *y = subst(hbm, "registers: 65536,", "");
    char *y2 = subst(y, "cc: \"9.0\"", "cc: \"8.7\"");
    gc_arch_t *b = parse(y2);
    out_t ob = render(b, NULL, NULL);
    CHECK(ob.rc == GC_EINPUT);
    CHECK_HAS(ob.e.msg, "sm.registers is missing");
    out_free(&ob);
    gc_arch_destroy(b);
    free(y);
    free(y2);
    refused("shared_block_max_kib: 227", "shared_block_max_kib: 229",
            "sm.shared_block_max_kib 229 exceeds sm.shared_max_kib 228");
    refused("cc: \"9.0\"", "cc: \"6.1\"", "the sub-core model of Volta (7.0) and newer");
    /* a clock the arch lacks */
    gc_arch_t *a = parse(hbm);
    out_t o = render(a, "memory", NULL);
    CHECK(o.rc == GC_EINPUT);
    CHECK_HAS(o.e.msg, "sm.clock_memory_mhz is missing");
    out_free(&o);
    o = render(a, "turbo", NULL);
    CHECK(o.rc == GC_EUSAGE);
    out_free(&o);
    gc_arch_destroy(a);
}

/* Device limits the arch lacks: the CUDA guide's figures for the cc; an
 * untyped DRAM with a 5120-bit bus is HBM. Each is named as a fallback. */
static void test_cc_rules(void)
{
    const char *sm = "sm: {count: 132, sub_cores: 4, fp32_lanes: 128, clock_max_mhz: 1980, "
                     "registers: 65536,\n     max_warps: 64, max_blocks: 32, shared_max_kib: "
                     "228, shared_block_max_kib: 227,\n     l1_shared_kib: 256}";
    char *y = subst(hbm, sm, "sm: {count: 132, sub_cores: 4, clock_max_mhz: 1980}");
    char *y2 = subst(y, "banks: 32, ", "");
    char *y3 = subst(y2, "type: HBM3, ", "");
    gc_arch_t *a = parse(y3);
    CHECK(a != NULL);
    out_t o = render(a, NULL, NULL);
    CHECK(o.rc == 0);
    if (o.rc)
        fprintf(stderr, "%s\n", o.e.msg);
    else {
        CHECK(valid(&o));
        /* cc 9.0: 64 K registers, 2048 threads, 32 blocks, 228 / 256 KiB, 32 banks */
        CHECK_STR(val(o.g, "-gpgpu_shader_registers"), "65536");
        CHECK_STR(val(o.g, "-gpgpu_shader_core_pipeline"), "2048:32");
        CHECK_STR(val(o.g, "-gpgpu_shader_cta"), "32");
        CHECK_STR(val(o.g, "-gpgpu_shmem_size"), "233472");
        CHECK_STR(val(o.g, "-gpgpu_shmem_per_block"), "49152");
        CHECK_STR(val(o.g, "-gpgpu_unified_l1d_size"), "256");
        CHECK_STR(val(o.g, "-gpgpu_shmem_num_banks"), "32");
        CHECK_STR(val(o.g, "-gpgpu_dram_burst_length"), "2");
        CHECK_STR(val(o.g, "-gpgpu_n_mem"), "80");
        CHECK_HAS(o.g, "Technical Specifications per Compute Capability: the arch has no "
                       "sm.max_blocks");
        static const char *const fb[] = {"sm.registers",      "sm.max_threads",
                                         "sm.max_blocks",     "sm.l1_shared_kib",
                                         "sm.shared_max_kib", "memory.shared.banks",
                                         "memory.dram.type",  "sm.shared_block_max_kib"};
        for (size_t i = 0; i < sizeof(fb) / sizeof(fb[0]); i++)
            CHECK_HAS(o.info.fallbacks, fb[i]);
    }
    out_free(&o);
    gc_arch_destroy(a);
    free(y);
    free(y2);
    free(y3);
}

static void test_carveouts(void)
{
    char *y = subst(hbm, "cc: \"9.0\"", "cc: \"7.5\"");
    char *y2 = subst(y, "shared_max_kib: 228, shared_block_max_kib: 227,\n     l1_shared_kib: 256",
                     "shared_max_kib: 64, shared_block_max_kib: 64,\n     l1_shared_kib: 96");
    gc_arch_t *a = parse(y2);
    out_t o = render(a, NULL, NULL);
    CHECK_STR(val(o.g, "-gpgpu_shmem_option"), "32,64");
    CHECK_STR(val(o.g, "-gpgpu_cache:dl1"), "S:4:128:192,L:T:m:L:L,A:384:48,16:0,32");
    CHECK(valid(&o));
    out_free(&o);
    gc_arch_destroy(a);
    free(y);
    free(y2);
    /* a maximum that is not one of CUDA's sizes ends the list */
    y = subst(hbm, "shared_max_kib: 228, shared_block_max_kib: 227",
              "shared_max_kib: 120, shared_block_max_kib: 120");
    a = parse(y);
    o = render(a, NULL, NULL);
    CHECK_STR(val(o.g, "-gpgpu_shmem_option"), "0,8,16,32,64,100,120");
    CHECK(valid(&o));
    out_free(&o);
    gc_arch_destroy(a);
    free(y);
}

/* Every option of the simulator's SM86 reference configs, in each file. */
static void test_sm86_keys(void)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/fixtures/export/sm86-keys.txt", src());
    char *buf;
    size_t len;
    gc_err_t e;
    CHECK(gc_file_read(path, 1 << 20, &buf, &len, &e) == 0);
    gc_arch_t *a = load_fixture();
    if (!buf || !a) {
        free(buf);
        gc_arch_destroy(a);
        return;
    }
    out_t o = render(a, NULL, NULL);
    int n = 0;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char file[64], key[128];
        if (sscanf(line, "%63s %127s", file, key) != 2)
            continue;
        const char *text = !strcmp(file, "trace.config") ? o.t : o.g;
        if (!val(text, key)[0])
            fprintf(stderr, "the export lacks %s of %s\n", key, file);
        CHECK(val(text, key)[0] != '\0');
        n++;
    }
    CHECK(n == 120);
    CHECK(o.info.n_options == n);
    out_free(&o);
    free(buf);
    gc_arch_destroy(a);
}

static void test_export_files(void)
{
    char dir[] = "/tmp/gpucal-test-accelsim-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char sub[256], g[300], t[300];
    snprintf(sub, sizeof(sub), "%s/new/dir", dir);
    snprintf(g, sizeof(g), "%s/gpgpusim.config", sub);
    snprintf(t, sizeof(t), "%s/trace.config", sub);
    gc_arch_t *a = load_fixture();
    gc_err_t e;
    gc_err_clear(&e);
    gc_accelsim_info_t info;
    CHECK(gc_accelsim_export(a, NULL, sub, 0, &info, &e) == 0);
    CHECK(gc_path_exists(g) && gc_path_exists(t));
    gc_simcheck_t *sc = gc_simcheck_create();
    CHECK(gc_simcheck_file(sc, g, &e) == 0 && gc_simcheck_file(sc, t, &e) == 0);
    CHECK(gc_simcheck_done(sc, &e) == 0);
    gc_simcheck_destroy(sc);
    /* no overwrite without force, and nothing half-written */
    FILE *fp = fopen(g, "w");
    fputs("# mine\n", fp);
    fclose(fp);
    unlink(t);
    CHECK(gc_accelsim_export(a, NULL, sub, 0, &info, &e) == GC_EEXIST);
    CHECK(!gc_path_exists(t));
    char *buf;
    size_t len;
    CHECK(gc_file_read(g, 1 << 20, &buf, &len, &e) == 0);
    CHECK_STR(buf, "# mine\n");
    free(buf);
    CHECK(gc_accelsim_export(a, NULL, sub, 1, &info, &e) == 0);
    CHECK(gc_file_read(g, 1 << 20, &buf, &len, &e) == 0);
    CHECK_HAS(buf, "-gpgpu_n_clusters 46");
    free(buf);
    unlink(g);
    unlink(t);
    rmdir(sub);
    snprintf(sub, sizeof(sub), "%s/new", dir);
    rmdir(sub);
    rmdir(dir);
    gc_arch_destroy(a);
}

static void test_doc(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    gc_accelsim_doc(fp);
    fclose(fp);
    CHECK_HAS(buf, "<!-- generated by `gpucal export keys`");
    CHECK_HAS(buf, "| `-gpgpu_n_clusters` | derived | `sm.count` |");
    CHECK_HAS(buf, "| `-gpgpu_simd_model` | `1` | constant |");
    CHECK_HAS(buf, "### `trace.config`");
    int rows = 0;
    for (const char *p = buf; (p = strstr(p, "\n| `-")) != NULL; p++)
        rows++;
    CHECK(rows == 120);
    free(buf);
}

int main(void)
{
    gc_warn_set_quiet(1);
    test_fixture();
    test_hbm();
    test_launch();
    test_l2_nearest();
    test_refusals();
    test_cc_rules();
    test_carveouts();
    test_sm86_keys();
    test_export_files();
    test_doc();
    CHECK_DONE();
}
