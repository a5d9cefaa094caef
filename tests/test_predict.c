/* test_predict.c - the model on a synthetic arch with known answers, the
 * templates, the parameters it derives, its errors, and the seed 002 check
 * (six published RTX 4090 times: each within 10 %, the order exact). */
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "model/predict/gemm.h"
#include "model/predict/kernel.h"
#include "model/predict/predict.h"
#include "model/predict/stream.h"
#include "check.h"

static const char toy_arch[] =
    "schema: gpucal-arch/1\n"
    "name: toy\n"
    "family: ampere\n"
    "device: toy\n"
    "cc: \"8.0\"\n"
    "sm:\n"
    "  count: 10\n"
    "  sub_cores: 4\n"
    "  fp32_lanes: 128\n"
    "  clock_max_mhz: 1000\n"
    "  max_threads: 2048\n"
    "  max_warps: 64\n"
    "  max_blocks: 32\n"
    "  max_block_threads: 1024\n"
    "  registers: 65536\n"
    "  reg_alloc_unit: 256\n"
    "  max_regs_thread: 255\n"
    "  shared_max_kib: 100\n"
    "  shared_block_max_kib: 99\n"
    "  launch_overhead_us: 2\n"
    "tensor:\n"
    "  - {inst: mma, shape: m16n8k16, a: f16, c: f32, latency_cyc: 30, issue_cyc: 8, "
    "overhead_cyc: 0, sub_cores: 4}\n"
    "  - {inst: mma, shape: m16n8k8, a: f16, c: f32, latency_cyc: 20, peak_fma_clk_sm: 512}\n"
    "memory:\n"
    "  l1: {latency_cyc: 30}\n"
    "  shared: {latency_cyc: 30, banks: 32, bank_bytes: 4, bw_v4_bytes_clk_sm: 128}\n"
    "  l2: {size_mib: 4, latency_cyc: 200, bw_v4_bytes_clk: 640}\n"
    "  dram: {bw_gbs: 100, latency_cyc: 500}\n";

static gc_arch_t *toy(void)
{
    gc_arch_t *a = NULL;
    gc_err_t e;
    gc_err_clear(&e);
    if (gc_arch_parse(&a, "toy.yaml", toy_arch, strlen(toy_arch), &e))
        fprintf(stderr, "toy arch: %s\n", e.msg);
    return a;
}

/* The toy arch with one piece of text replaced (NULL when `from` is absent). */
static gc_arch_t *toy_with(const char *from, const char *to)
{
    char buf[4096];
    const char *at = strstr(toy_arch, from);
    if (!at)
        return NULL;
    int n = snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - toy_arch), toy_arch, to,
                     at + strlen(from));
    if (n < 0 || (size_t)n >= sizeof(buf))
        return NULL;
    gc_arch_t *a = NULL;
    gc_err_t e;
    gc_err_clear(&e);
    if (gc_arch_parse(&a, "toy.yaml", buf, (size_t)n, &e))
        fprintf(stderr, "toy arch variant: %s\n", e.msg);
    return a;
}

static gc_kernel_t *kern(const char *text)
{
    gc_kernel_t *k = NULL;
    gc_err_t e;
    gc_err_clear(&e);
    if (gc_kernel_parse(&k, "k.yaml", text, strlen(text), &e))
        fprintf(stderr, "kernel: %s\n", e.msg);
    return k;
}

static int predict(const gc_arch_t *a, const char *text, double clock, gc_prediction_t *p,
                   gc_err_t *e)
{
    gc_kernel_t *k = kern(text);
    if (!k)
        return -99;
    gc_predict_opts_t o = {.clock_mhz = clock};
    gc_err_clear(e);
    int rc = gc_predict(a, k, &o, p, e);
    gc_kernel_destroy(k);
    return rc;
}

#define HEAD "schema: gpucal-kernel/1\nname: t\n"

/* The tensor pipe on the toy arch: latency, throughput, clock, derived
 * figures, fallbacks and a missing form. */
/* Figures the model derives, fallbacks, and a form the arch lacks. */
static void synthetic_derived(const gc_arch_t *a)
{
    gc_prediction_t p;
    gc_err_t e;

    /* the issue interval derived from the peak: 16*8*8 * 4 / 512 = 8 */
    CHECK(predict(a,
                  HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
                       "loop: {trips: 10, ops: [{op: mma, shape: m16n8k8, a: f16, c: f32, "
                       "count: 1}]}\n",
                  0, &p, &e) == 0);
    int found = 0;
    for (int i = 0; i < p.derived.n; i++) {
        char key[160];
        if (!strcmp(gc_derived_key(&p.derived.d[i], key, sizeof(key)),
                    "tensor[mma m16n8k8 f16.f32].issue_cyc")) {
            CHECK_NEAR(p.derived.d[i].value, 8, 1e-12);
            found = 1;
        }
    }
    CHECK(found);
    /* bf16 runs at the f16 form's rate, and says so */
    CHECK(predict(a,
                  HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
                       "loop: {trips: 1000, ops: [{op: mma, shape: m16n8k16, a: bf16, c: f32, "
                       "count: 1, chains: 1}]}\n",
                  0, &p, &e) == 0);
    CHECK_NEAR(p.cycles, 32000, 1e-6);
    /* wmma m16n16k16 runs as two mma m16n8k16 */
    CHECK(predict(a,
                  HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
                       "loop: {trips: 1000, ops: [{op: wmma, shape: m16n16k16, a: f16, c: f32, "
                       "count: 1, chains: 1}]}\n",
                  0, &p, &e) == 0);
    CHECK_NEAR(p.tensor_fma, 1000.0 * 16 * 16 * 16, 0);
    CHECK_NEAR(p.cycles, 32000, 1e-6); /* two independent halves: still one latency */

    /* a form the arch lacks: one line at the op */
    CHECK(predict(a,
                  HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
                       "loop:\n  trips: 1\n  ops:\n"
                       "    - {op: mma, shape: m16n8k32, a: e4m3, c: f32, count: 1}\n",
                  0, &p, &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "k.yaml:7:7: the arch toy has no tensor form 'mma m16n8k32 e4m3.f32'");
    CHECK_HAS(e.msg, "forms it has: mma m16n8k16 f16.f32, mma m16n8k8 f16.f32");
    CHECK(predict(a,
                  HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
                       "loop:\n  trips: 1\n  ops:\n    - {op: alu, name: frobnicate, count: 1}\n",
                  0, &p, &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "k.yaml:7:7: the arch toy has no alu entry for 'frobnicate'");
}

static void synthetic_pipes(const gc_arch_t *a)
{
    gc_prediction_t p;
    gc_err_t e;

    /* one warp, one dependent mma chain: 1000 x latency 30, plus the 2 us launch */
    CHECK(predict(a,
                  HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
                       "loop: {trips: 1000, ops: [{op: mma, shape: m16n8k16, a: f16, c: f32, "
                       "count: 1, chains: 1}]}\n",
                  0, &p, &e) == 0);
    CHECK_NEAR(p.cycles, 30000 + 2000, 1e-6);
    CHECK_NEAR(p.time_us, 32, 1e-9);
    CHECK_NEAR(p.clock_mhz, 1000, 0);
    CHECK_STR(p.clock_source, "sm.clock_max_mhz");
    CHECK(p.blocks_per_sm == 32 && p.warps_per_sm == 32); /* what fits, not what runs */
    CHECK_STR(p.occupancy_limit, "blocks");
    CHECK_NEAR(p.breakdown[GC_R_TAIL], 0, 0); /* one partial wave is no tail */
    double sum = 0;
    for (int r = 0; r < GC_R_N; r++)
        sum += p.breakdown[r];
    CHECK_NEAR(sum, p.cycles, 1e-6 * p.cycles);

    /* 8 warps x 8 chains on 4 sub-cores: 16 mma per slot per iteration at an
     * issue interval of 8: 128 cycles, the pipe busy */
    CHECK(predict(a,
                  HEAD "launch: {grid: 10, block: 256, registers: 32}\n"
                       "loop: {trips: 1000, ops: [{op: mma, shape: m16n8k16, a: f16, c: f32, "
                       "count: 8, chains: 8}]}\n",
                  0, &p, &e) == 0);
    CHECK(p.cycles >= 128000 + 2000 - 1e-6);
    CHECK(p.cycles <= 1.05 * 128000 + 2000);
    CHECK(p.bound == GC_R_TENSOR);
    CHECK_STR(p.load_class, "tensor");
    CHECK(p.util[GC_R_TENSOR] > 0.9);
    CHECK_NEAR(p.tensor_fma, 10.0 * 8 * 1000 * 8 * 2048, 0);
    /* a locked clock: the same cycles, time at that clock */
    double cyc = p.cycles - 2000;
    CHECK(predict(a,
                  HEAD "launch: {grid: 10, block: 256, registers: 32}\n"
                       "loop: {trips: 1000, ops: [{op: mma, shape: m16n8k16, a: f16, c: f32, "
                       "count: 8, chains: 8}]}\n",
                  500, &p, &e) == 0);
    CHECK_NEAR(p.cycles - 1000, cyc, 1e-6 * cyc);
    CHECK_NEAR(p.time_us, (cyc + 1000) / 500, 1e-6);
    CHECK_STR(p.clock_source, "--clock");
    synthetic_derived(a);
}

/* Occupancy and waves on the toy arch. */
static void synthetic_occupancy(const gc_arch_t *a)
{
    gc_prediction_t p;
    gc_err_t e;

    /* occupancy: registers, shared memory, threads, and too big for an SM */
    const char *lp = "loop: {trips: 1, ops: [{op: alu, name: ffma, count: 1}]}\n";
    char buf[1024];
    snprintf(buf, sizeof(buf), HEAD "launch: {grid: 10, block: 256, registers: 128}\n%s", lp);
    CHECK(predict(a, buf, 0, &p, &e) == 0);
    CHECK(p.blocks_per_sm == 2);
    CHECK_STR(p.occupancy_limit, "registers");
    snprintf(buf, sizeof(buf),
             HEAD "launch: {grid: 10, block: 64, registers: 32, shared_bytes: 61440}\n%s", lp);
    CHECK(predict(a, buf, 0, &p, &e) == 0);
    CHECK(p.blocks_per_sm == 1);
    CHECK_STR(p.occupancy_limit, "shared");
    snprintf(buf, sizeof(buf), HEAD "launch: {grid: 10, block: 1024, registers: 16}\n%s", lp);
    CHECK(predict(a, buf, 0, &p, &e) == 0);
    CHECK(p.blocks_per_sm == 2);
    CHECK_STR(p.occupancy_limit, "threads");
    snprintf(buf, sizeof(buf),
             HEAD "launch: {grid: 10, block: 64, registers: 32, blocks_per_sm: 3}\n%s", lp);
    CHECK(predict(a, buf, 0, &p, &e) == 0);
    CHECK(p.blocks_per_sm == 3);
    CHECK_STR(p.occupancy_limit, "cap");
    snprintf(buf, sizeof(buf),
             HEAD "launch: {grid: 10, block: 64, registers: 32, shared_bytes: 200000}\n%s", lp);
    CHECK(predict(a, buf, 0, &p, &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "launch.shared_bytes: 200000 bytes per block, the arch allows");
    snprintf(buf, sizeof(buf), HEAD "launch: {grid: 10, block: 1024, registers: 255}\n%s", lp);
    CHECK(predict(a, buf, 0, &p, &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "one block does not fit on an SM (registers");

    /* waves: 11 blocks that each hold an SM alone: a full wave, then one
     * block on one SM - as long again, 90 % of it idle capacity (tail) */
    const char *big = "loop: {trips: 1000, ops: [{op: alu, name: ffma, count: 8, chains: 8}]}\n";
    snprintf(buf, sizeof(buf),
             HEAD "launch: {grid: 10, block: 256, registers: 32, shared_bytes: 90000}\n%s", big);
    CHECK(predict(a, buf, 0, &p, &e) == 0);
    double one = p.cycles - 2000;
    snprintf(buf, sizeof(buf),
             HEAD "launch: {grid: 11, block: 256, registers: 32, shared_bytes: 90000}\n%s", big);
    CHECK(predict(a, buf, 0, &p, &e) == 0);
    CHECK_NEAR(p.cycles - 2000, 2 * one, 1e-6 * one);
    CHECK_NEAR(p.breakdown[GC_R_TAIL], 0.9 * one, 1e-6 * one);
    CHECK_NEAR(p.waves, 1.1, 1e-12);
    CHECK_NEAR(p.full_waves, 1, 0);
    CHECK_NEAR(p.tail_blocks, 1, 0);
}

/* Memory traffic, the gemm template and the JSON keys on the toy arch. */
static void synthetic_memory(const gc_arch_t *a)
{
    gc_prediction_t p;
    gc_err_t e;

    /* a stream through DRAM: 100 GB/s at 1000 MHz is 100 bytes per cycle */
    gc_stream_result_t s;
    gc_predict_opts_t o = {0};
    CHECK(gc_stream_predict(a, GC_STREAM_COPY, 100e6, &o, &s, &e) == 0);
    CHECK_NEAR(s.moved, 200e6, 16);
    CHECK(s.pred.bound == GC_R_DRAM);
    CHECK_STR(s.pred.load_class, "memory");
    CHECK_NEAR(s.pred.time_us, 2000 + 2, 0.02 * 2000);
    CHECK(gc_stream_predict(a, GC_STREAM_TRIAD, 100e6, &o, &s, &e) == 0);
    CHECK_NEAR(s.pred.time_us, 3000 + 2, 0.02 * 3000);
    CHECK(gc_stream_predict(a, GC_STREAM_REDUCE, 100e6, &o, &s, &e) == 0);
    CHECK_NEAR(s.pred.time_us, 1000 + 2, 0.03 * 1000);
    gc_stream_op_t sop;
    CHECK(gc_stream_op("triad", &sop) == 0 && sop == GC_STREAM_TRIAD);
    CHECK(gc_stream_op("scale", &sop) != 0);

    /* data that fits the L2 and is warm costs no DRAM traffic */
    CHECK(predict(a,
                  HEAD "launch: {grid: 10, block: 256, registers: 32}\n"
                       "loop: {trips: 4, ops: [{op: ldg, width: 16, count: 4}]}\n"
                       "footprint: {l2_warm: true}\n",
                  0, &p, &e) == 0);
    CHECK_NEAR(p.dram_bytes, 0, 0);
    CHECK_NEAR(p.l2_bytes, 10.0 * 8 * 4 * 4 * 512, 0);

    /* the gemm template on a cc 8.0 arch: mma.sync + cp.async; f32 on CUDA cores */
    gc_gemm_result_t g;
    CHECK(gc_gemm_predict(a, 1024, 1024, 1024, GC_GEMM_F16, &o, &g, &e) == 0);
    CHECK_STR(g.path, "mma+cp.async");
    CHECK_STR(g.inst, "mma m16n8k16 f16.f32");
    CHECK(g.candidates >= 3);
    CHECK(g.tflops > 0);
    CHECK(gc_gemm_predict(a, 512, 512, 512, GC_GEMM_F32, &o, &g, &e) == 0);
    CHECK_STR(g.path, "ffma");
    CHECK(gc_gemm_predict(a, 512, 512, 512, GC_GEMM_I8, &o, &g, &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "has no tensor form 'mma m16n8k32 s8.s32'");
    gc_gemm_dtype_t dt;
    CHECK(gc_gemm_dtype("f8e4m3", &dt) == 0 && dt == GC_GEMM_F8E4M3);
    CHECK(gc_gemm_dtype("f64", &dt) != 0);

    /* JSON: the documented keys */
    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    if (fp) {
        gc_predict_print_json(&g.pred, "\"template\": {\"name\": \"x\"}", fp);
        rewind(fp);
        char out[8192];
        size_t n = fread(out, 1, sizeof(out) - 1, fp);
        out[n] = 0;
        fclose(fp);
        static const char *const keys[] = {"\"schema\": \"gpucal-predict/1\"",
                                           "\"cycles\": ",
                                           "\"time_us\": ",
                                           "\"clock_mhz\": ",
                                           "\"bound\": ",
                                           "\"breakdown\": {\"tensor\": ",
                                           "\"utilisation\": {",
                                           "\"occupancy\": {",
                                           "\"waves\": {",
                                           "\"traffic\": {",
                                           "\"derived\": [",
                                           "\"template\": {\"name\": \"x\"}"};
        for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
            CHECK_HAS(out, keys[i]);
    }
}

static void synthetic(void)
{
    gc_arch_t *a = toy();
    CHECK(a != NULL);
    if (!a)
        return;
    synthetic_pipes(a);
    synthetic_occupancy(a);
    synthetic_memory(a);
    gc_arch_destroy(a);
}

/* Seed 002's six kernels on the RTX 4090, at the 2520 MHz the post locked. */
static void seed002(void)
{
    const char *src = getenv("GC_SRC");
    if (!src) {
        fprintf(stderr, "GC_SRC unset: seed 002 check skipped\n");
        return;
    }
    gc_arch_t *a = NULL;
    gc_err_t e;
    gc_err_clear(&e);
    CHECK(gc_arch_open(&a, "ada-rtx4090", &e) == 0);
    if (!a) {
        fprintf(stderr, "%s\n", e.msg);
        return;
    }
    static const char *const names[6] = {"mma_matmul_1_0", "mma_matmul_1_1", "mma_matmul_2_0",
                                         "mma_matmul_2_1", "mma_matmul_3_0", "mma_matmul_3_1"};
    static const double published[6] = {4680, 2400, 1080, 1030, 1000, 895}; /* us */
    double t[6] = {0};
    for (int i = 0; i < 6; i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/model/kernels/%s.yaml", src, names[i]);
        gc_kernel_t *k = NULL;
        gc_err_clear(&e);
        CHECK(gc_kernel_load(&k, path, &e) == 0);
        if (!k) {
            fprintf(stderr, "%s\n", e.msg);
            continue;
        }
        gc_predict_opts_t o = {.clock_mhz = 2520};
        gc_prediction_t p;
        CHECK(gc_predict(a, k, &o, &p, &e) == 0);
        t[i] = p.time_us;
        double err = (t[i] - published[i]) / published[i];
        printf("%s: predicted %.0f us, published %.0f us, %+.1f %%\n", names[i], t[i], published[i],
               100 * err);
        CHECK(err > -0.10 && err < 0.10);
        gc_kernel_destroy(k);
    }
    for (int i = 1; i < 6; i++)
        CHECK(t[i] < t[i - 1]); /* the published order: each kernel faster than the one before */
    /* the gemm template picks wgmma on Hopper and says so */
    gc_arch_t *h = NULL;
    CHECK(gc_arch_open(&h, "hopper-h800", &e) == 0);
    if (h) {
        gc_gemm_result_t g;
        gc_predict_opts_t o = {0};
        CHECK(gc_gemm_predict(h, 4096, 4096, 4096, GC_GEMM_F16, &o, &g, &e) == 0);
        CHECK_STR(g.path, "wgmma+tma");
        CHECK_HAS(g.inst, "wgmma m64n");
        CHECK(g.pred.bound != GC_R_LATENCY);
        gc_arch_destroy(h);
    }
    gc_arch_destroy(a);
}

/* What the model accounts for beyond the basics, each on the toy arch with
 * the figure that turns it on, against the toy without it. */
/* CUDA-core pipes side by side, and the slowest of several lines. */
static void refinements_pipes(void)
{
    gc_prediction_t p, q;
    gc_err_t e;

    /* CUDA-core pipes: FFMA (fma pipe) and IADD3 (alu pipe) work side by side,
     * so 8 of each cost what the slower 8 IADD3 cost alone (issue apart) */
    gc_arch_t *a = toy();
    CHECK(a != NULL);
    if (a) {
        const char *l = HEAD "launch: {grid: 10, block: 1024, registers: 32}\n";
        char buf[512];
        snprintf(buf, sizeof(buf),
                 "%sloop: {trips: 100, ops: [{op: alu, name: iadd3, count: 8, "
                 "chains: 8}]}\n",
                 l);
        CHECK(predict(a, buf, 0, &p, &e) == 0);
        snprintf(buf, sizeof(buf),
                 "%sloop: {trips: 100, ops: [{op: alu, name: iadd3, count: 8, "
                 "chains: 8}, {op: alu, name: ffma, count: 8, chains: 8}]}\n",
                 l);
        CHECK(predict(a, buf, 0, &q, &e) == 0);
        CHECK(p.busy[GC_R_ALU] > 0);
        CHECK_NEAR(q.busy[GC_R_ALU], p.busy[GC_R_ALU], 1e-9 * p.busy[GC_R_ALU]);
        CHECK(q.busy[GC_R_ISSUE] > p.busy[GC_R_ISSUE]); /* twice the instructions to issue */
        gc_arch_destroy(a);
    }

    /* a warp that waits for 4 lines at once waits for the slowest: near 200,
     * far 400 cycles, half of each: E[max of 4] = 200/16 + 400*15/16 = 387.5,
     * 87.5 over the mean */
    a = toy();
    gc_arch_t *f = toy_with("l2: {size_mib: 4, latency_cyc: 200,",
                            "l2: {size_mib: 4, latency_cyc: 200, partitions: 2, near_hit_cyc: 200, "
                            "far_hit_cyc: 400, near_miss_cyc: 500, far_miss_cyc: 700, "
                            "near_share: 0.5,");
    CHECK(a != NULL && f != NULL);
    if (a && f) {
        const char *k4 = HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
                              "loop: {trips: 100, ops: [{op: ldg, width: 16, count: 1}]}\n"
                              "footprint: {l2_warm: true}\n";
        const char *k1 = HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
                              "loop: {trips: 100, ops: [{op: ldg, width: 4, active: 1, "
                              "count: 1}]}\nfootprint: {l2_warm: true}\n";
        CHECK(predict(a, k4, 0, &p, &e) == 0);
        CHECK(predict(f, k4, 0, &q, &e) == 0);
        CHECK_NEAR(q.busy[GC_R_LATENCY] - p.busy[GC_R_LATENCY], 100 * 87.5, 1e-6);
        CHECK(predict(a, k1, 0, &p, &e) == 0); /* one line: the plateau, as before */
        CHECK(predict(f, k1, 0, &q, &e) == 0);
        CHECK_NEAR(q.busy[GC_R_LATENCY], p.busy[GC_R_LATENCY], 1e-9);
    }
    gc_arch_destroy(a);
    gc_arch_destroy(f);
}

/* what a kernel adds beyond its rounds: its slowest warp, its first pass
 * through its parameters and code */
static void kernel_ends(void)
{
    gc_prediction_t p, q;
    gc_err_t e;

    /* the slowest warp: with a miss's spread known, 132 one-warp blocks (one
     * wave) of 100 dependent hit steps (near 200, far 400, half each: 100
     * cycles a step) end sqrt(100) x 100 x E[max of 132 normals] = 1000 x
     * 2.59527 cycles after their mean warp; a lone warp, nothing later */
    gc_arch_t *f = toy_with("l2: {size_mib: 4, latency_cyc: 200,",
                            "l2: {size_mib: 4, latency_cyc: 200, partitions: 2, near_hit_cyc: 200, "
                            "far_hit_cyc: 400, near_miss_cyc: 500, far_miss_cyc: 700, "
                            "near_share: 0.5,");
    gc_arch_t *g = toy_with("l2: {size_mib: 4, latency_cyc: 200,",
                            "l2: {size_mib: 4, latency_cyc: 200, partitions: 2, near_hit_cyc: 200, "
                            "far_hit_cyc: 400, near_miss_cyc: 500, far_miss_cyc: 700, "
                            "miss_sd_cyc: 50, near_share: 0.5,");
    CHECK(f != NULL && g != NULL);
    if (f && g) {
        const char *w1 = HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
                              "loop: {trips: 100, ops: [{op: ldg, width: 4, active: 1, "
                              "count: 1}]}\nfootprint: {l2_warm: true}\n";
        const char *w132 = HEAD "launch: {grid: 132, block: 32, registers: 32}\n"
                                "loop: {trips: 100, ops: [{op: ldg, width: 4, active: 1, "
                                "count: 1}]}\nfootprint: {l2_warm: true}\n";
        CHECK(predict(f, w1, 0, &p, &e) == 0);
        CHECK(predict(g, w1, 0, &q, &e) == 0);
        CHECK_NEAR(q.cycles, p.cycles, 1e-9);
        CHECK(predict(f, w132, 0, &p, &e) == 0);
        CHECK(predict(g, w132, 0, &q, &e) == 0);
        CHECK_NEAR(q.cycles - p.cycles, 1000 * 2.59527, 0.05);
        /* a TMA copy is one draw for its whole block: 132 blocks of 4 warps
         * waiting for one copy each end 100 x E[max of 132] after the mean,
         * not E[max of 528] */
        const char *t132 = HEAD "launch: {grid: 132, block: 128, registers: 32}\n"
                                "prologue: {trips: 1, ops: [{op: tma, bytes: 4096, count: 1}]}\n"
                                "loop: {trips: 10, ops: [{op: alu, name: ffma, count: 4}]}\n"
                                "footprint: {l2_warm: true}\n";
        CHECK(predict(f, t132, 0, &p, &e) == 0);
        CHECK(predict(g, t132, 0, &q, &e) == 0);
        CHECK_NEAR(q.cycles - p.cycles, 100 * 2.59527, 0.05);
    }
    gc_arch_destroy(f);
    gc_arch_destroy(g);

    /* a launch's first pass: 5 lines of parameters (4 beyond an empty
     * kernel's) at 100 cycles and 2 far jumps at 200 cost 800 cycles once */
    f = toy_with("  launch_overhead_us: 2\n",
                 "  launch_overhead_us: 2\n  const_miss_cyc: 100\n  code_miss_cyc: 200\n");
    CHECK(f != NULL);
    if (f) {
        const char *k0 = HEAD "launch: {grid: 264, block: 64, registers: 32}\n"
                              "loop: {trips: 10, ops: [{op: alu, name: ffma, count: 4}]}\n";
        const char *kc = HEAD "launch: {grid: 264, block: 64, registers: 32, param_lines: 5, "
                              "far_jumps: 2}\n"
                              "loop: {trips: 10, ops: [{op: alu, name: ffma, count: 4}]}\n";
        CHECK(predict(f, k0, 0, &p, &e) == 0);
        CHECK(predict(f, kc, 0, &q, &e) == 0);
        CHECK_NEAR(q.cycles - p.cycles, 800, 1e-6);
    }
    gc_arch_destroy(f);
}

static void refinements(void)
{
    gc_prediction_t p;
    gc_err_t e;
    gc_predict_opts_t o = {0};
    gc_stream_result_t s;

    /* DRAM: reads and writes alone at 100 GB/s, a copy at 50 (both directions
     * counted): each byte of the smaller direction costs 2/50 - 2/100 more */
    gc_arch_t *d = toy_with("dram: {bw_gbs: 100,", "dram: {bw_gbs: 100, bw_read_gbs: 100, "
                                                   "bw_write_gbs: 100, bw_copy_gbs: 50,");
    CHECK(d != NULL);
    if (d) {
        CHECK(gc_stream_predict(d, GC_STREAM_COPY, 100e6, &o, &s, &e) == 0);
        CHECK_NEAR(s.pred.time_us, 4000 + 2, 0.02 * 4000);
        CHECK(gc_stream_predict(d, GC_STREAM_TRIAD, 100e6, &o, &s, &e) == 0);
        CHECK_NEAR(s.pred.time_us, 5000 + 2, 0.02 * 5000); /* 300 MB + 100 MB turnaround */
        CHECK(gc_stream_predict(d, GC_STREAM_REDUCE, 100e6, &o, &s, &e) == 0);
        CHECK_NEAR(s.pred.time_us, 1000 + 2, 0.03 * 1000); /* reads only: no turnaround */
        gc_arch_destroy(d);
    }

    /* a loop that issues tensor instructions runs at its form's clock, whatever
     * bounds it; one without them at the maximum clock */
    gc_arch_t *c = toy_with("latency_cyc: 30, issue_cyc: 8,", "clock_mhz: 800, latency_cyc: 30, "
                                                              "issue_cyc: 8,");
    CHECK(c != NULL);
    if (c) {
        CHECK(predict(c,
                      HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
                           "loop: {trips: 1000, ops: [{op: mma, shape: m16n8k16, a: f16, "
                           "c: f32, count: 1, chains: 1}, {op: lds, width: 4, count: 40}]}\n",
                      0, &p, &e) == 0);
        CHECK_NEAR(p.clock_mhz, 800, 0);
        CHECK_STR(p.clock_source, "tensor[form].clock_mhz");
        CHECK_STR(p.load_class, "tensor");
        CHECK(predict(c,
                      HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
                           "loop: {trips: 1000, ops: [{op: lds, width: 4, count: 40}]}\n",
                      0, &p, &e) == 0);
        CHECK_NEAR(p.clock_mhz, 1000, 0);
        gc_arch_destroy(c);
    }
    refinements_pipes();
    kernel_ends();
}

/* The GPU's own per-kernel cost and the block dispatch rate (toy arch at
 * 1000 MHz, 10 SMs): the launch's host share is the event-timed launch
 * less sm.kernel_floor_us; 2000 empty blocks of one warp start at one per
 * 50 ns on each SM: 200 per SM = 10 us = 10000 cycles, whatever else. */
static void floor_and_dispatch(void)
{
    gc_arch_t *a = toy_with("  launch_overhead_us: 2\n",
                            "  launch_overhead_us: 2\n  kernel_floor_us: 0.5\n"
                            "  block_dispatch_ns: 50\n");
    CHECK(a != NULL);
    if (!a)
        return;
    gc_prediction_t p;
    gc_err_t e;
    const char *k = HEAD "launch: {grid: 2000, block: 32, registers: 16}\n"
                         "loop: {trips: 1, ops: [{op: lds, width: 4, count: 1}]}\n";
    CHECK(predict(a, k, 0, &p, &e) == 0);
    CHECK_NEAR(p.clock_mhz, 1000, 0);
    CHECK_NEAR(gc_predict_host_launch_us(&p), 1.5, 1e-12);
    CHECK_NEAR(p.cycles, 10000 + 2000, 1e-6); /* dispatch-bound, + the 2 us launch */
    double sum = 0; /* the wait for blocks goes to the tail; the stack still sums */
    for (int r = 0; r < GC_R_N; r++)
        sum += p.breakdown[r];
    CHECK_NEAR(sum, p.cycles, 1e-6);
    CHECK(p.bound == GC_R_TAIL);
    /* without the figures: no floor, no bound (the old behaviour) */
    gc_arch_t *b = toy();
    CHECK(b && predict(b, k, 0, &p, &e) == 0);
    CHECK_NEAR(gc_predict_host_launch_us(&p), 2, 1e-12);
    CHECK(p.cycles < 10000);
    gc_arch_destroy(a);
    gc_arch_destroy(b);
}

/* A warp alone on its sub-core issues every sm.issue_1warp_ratio cycles
 * (toy arch, 4 sub-cores, 10 SMs, one block a SM): 1000 issue-only
 * instructions a trip cost 1.25 x 1000 issue cycles with 4 warps (one a
 * sub-core), 2 x 1000 with 8 (two a sub-core: every cycle), 1000 with 4
 * warps on an arch without the key. */
static void lone_warp_issue(void)
{
    gc_arch_t *a = toy_with("  launch_overhead_us: 2\n",
                            "  launch_overhead_us: 2\n  issue_1warp_ratio: 1.25\n");
    gc_arch_t *b = toy();
    CHECK(a && b);
    if (a && b) {
#define LW(blk)                                                                                \
    HEAD "launch: {grid: 10, block: " #blk ", registers: 32}\n"                                 \
         "loop: {trips: 100, ops: [{op: alu, name: bra, count: 1000}]}\n"
        gc_prediction_t p4, p8, q4;
        gc_err_t e;
        CHECK(predict(a, LW(128), 0, &p4, &e) == 0 && predict(a, LW(256), 0, &p8, &e) == 0);
        CHECK(predict(b, LW(128), 0, &q4, &e) == 0);
#undef LW
        CHECK_NEAR(p4.busy[GC_R_ISSUE], 1.25 * 1000 * 100, 1e-6);
        CHECK_NEAR(p8.busy[GC_R_ISSUE], 2.0 * 1000 * 100, 1e-6);
        CHECK_NEAR(q4.busy[GC_R_ISSUE], 1000 * 100, 1e-6);
        CHECK(p4.bound == GC_R_ISSUE && p4.cycles > 1.25 * 1000 * 100);
    }
    gc_arch_destroy(a);
    gc_arch_destroy(b);
}

/* An alu op that waits for the loop's tensor results (after_tensor) keeps
 * the tensor pipe idle while it issues (toy arch, one 4-warp block a SM):
 * 8 mma m16n8k16 a trip (8 x 8 cycles) then 16 FADD (one a cycle) make the
 * tensor term 80 cycles a trip, while the tensor activity counts the 64;
 * without the flag the FADD overlap on their own pipe, and in a loop with
 * no tensor work the flag changes nothing. */
static void after_tensor_work(void)
{
    gc_arch_t *a = toy();
    CHECK(a != NULL);
    if (!a)
        return;
#define AT(mma, flag)                                                                          \
    HEAD "launch: {grid: 10, block: 128, registers: 32}\n"                                      \
         "loop: {trips: 100, ops: [" mma "{op: alu, name: fadd, count: 16, chains: 16" flag     \
         "}]}\n"
#define MMA "{op: mma, shape: m16n8k16, a: f16, c: f32, count: 8, chains: 8}, "
    gc_prediction_t ps, po, pn, pf;
    gc_err_t e;
    CHECK(predict(a, AT(MMA, ", after_tensor: true"), 0, &ps, &e) == 0);
    CHECK(predict(a, AT(MMA, ""), 0, &po, &e) == 0);
    CHECK(predict(a, AT("", ", after_tensor: true"), 0, &pn, &e) == 0);
    CHECK(predict(a, AT("", ""), 0, &pf, &e) == 0);
#undef MMA
#undef AT
    CHECK_NEAR(ps.busy[GC_R_TENSOR], 80 * 100, 1e-6);
    CHECK_NEAR(ps.tensor_busy_gpu, 64 * 100, 1e-6);
    CHECK_NEAR(ps.busy[GC_R_ALU], 0, 1e-9);
    CHECK_NEAR(po.busy[GC_R_TENSOR], 64 * 100, 1e-6);
    CHECK_NEAR(po.busy[GC_R_ALU], 16 * 100, 1e-6);
    CHECK(ps.cycles > po.cycles);
    CHECK_NEAR(pn.cycles, pf.cycles, 1e-9 * pf.cycles);
    CHECK_NEAR(pn.busy[GC_R_ALU], 16 * 100, 1e-6);
    gc_arch_destroy(a);
}

/* mma.sync beside ldmatrix: the share hidden at the round's warps comes from
 * sm.coissue, linear between its warp counts. A block of 8 warps between
 * points of 4 warps (nothing hidden) and 16 (all hidden) times exactly as a
 * list that hides 1/3 everywhere; hiding nothing is slower than hiding all,
 * and a list with one point holds at every warp count. */
static void coissue_by_warps(void)
{
#define CO(w, v) "  - {warps: " #w ", fma: 1, alu: 1, xu: 1, ldsm: " v ", shfl: 1}\n"
    static const char at[] = "  launch_overhead_us: 2\n";
    gc_arch_t *lin = toy_with(at, "  launch_overhead_us: 2\n  coissue:\n" CO(4, "0") CO(16, "1"));
    gc_arch_t *third =
        toy_with(at, "  launch_overhead_us: 2\n  coissue:\n" CO(4, "0.333333333333333333")
                         CO(16, "0.333333333333333333"));
    gc_arch_t *none = toy_with(at, "  launch_overhead_us: 2\n  coissue:\n" CO(8, "0"));
    gc_arch_t *all = toy_with(at, "  launch_overhead_us: 2\n  coissue:\n" CO(8, "1"));
#undef CO
    CHECK(lin && third && none && all);
    if (lin && third && none && all) {
        const char *k = HEAD "launch: {grid: 10, block: 256, registers: 32}\n"
                             "loop: {trips: 1000, ops: [{op: mma, shape: m16n8k16, a: f16, "
                             "c: f32, count: 8, chains: 8}, {op: ldmatrix, num: 4, count: 8}]}\n";
        gc_prediction_t pl, pt, pn, pa;
        gc_err_t e;
        CHECK(predict(lin, k, 0, &pl, &e) == 0 && predict(third, k, 0, &pt, &e) == 0);
        CHECK(predict(none, k, 0, &pn, &e) == 0 && predict(all, k, 0, &pa, &e) == 0);
        CHECK_NEAR(pl.cycles, pt.cycles, 1e-6 * pt.cycles);
        CHECK(pn.cycles > pa.cycles * 1.05);
        CHECK(pn.cycles > pl.cycles && pl.cycles > pa.cycles);
    }
    gc_arch_destroy(lin);
    gc_arch_destroy(third);
    gc_arch_destroy(none);
    gc_arch_destroy(all);
}

/* sm.clock_fma_mhz: a loop of CUDA-core FP32 work (the FMA pipe its busiest
 * pipe, no tensor op) runs at it where the arch has it, at the maximum clock
 * where not (class fma either way); a loop whose busiest pipe is another
 * (integer ALU, MUFU) stays compute at the maximum clock. The cycles do not
 * depend on the clock here (no DRAM), only the launch's 2 us does. */
static void fma_clock(void)
{
    gc_prediction_t p, q;
    gc_err_t e;
    gc_arch_t *a = toy(), *f = toy_with("  clock_max_mhz: 1000\n",
                                        "  clock_max_mhz: 1000\n  clock_fma_mhz: 900\n");
    CHECK(a != NULL && f != NULL);
    if (!a || !f) {
        gc_arch_destroy(a);
        gc_arch_destroy(f);
        return;
    }
    const char *ffma = HEAD "launch: {grid: 10, block: 256, registers: 32}\n"
                            "loop: {trips: 1000, ops: [{op: alu, name: ffma, count: 8, "
                            "chains: 8}, {op: alu, name: iadd3, count: 1}]}\n";
    CHECK(predict(a, ffma, 0, &p, &e) == 0);
    CHECK_STR(p.load_class, "fma");
    CHECK_STR(p.clock_source, "sm.clock_max_mhz");
    CHECK_NEAR(p.clock_mhz, 1000, 0);
    CHECK(predict(f, ffma, 0, &q, &e) == 0);
    CHECK_STR(q.load_class, "fma");
    CHECK_STR(q.clock_source, "sm.clock_fma_mhz");
    CHECK_NEAR(q.clock_mhz, 900, 0);
    CHECK_NEAR(q.cycles - 1800, p.cycles - 2000, 1e-9 * p.cycles);
    CHECK_NEAR(q.time_us, q.cycles / 900, 1e-12 * q.time_us);
    /* --clock still wins */
    CHECK(predict(f, ffma, 700, &q, &e) == 0);
    CHECK_STR(q.clock_source, "--clock");
    CHECK_NEAR(q.clock_mhz, 700, 0);
    /* the integer pipe busiest, then MUFU (16/clk/SM) busiest beside FFMA */
    CHECK(predict(f,
                  HEAD "launch: {grid: 10, block: 256, registers: 32}\n"
                       "loop: {trips: 1000, ops: [{op: alu, name: iadd3, count: 8, chains: 8}, "
                       "{op: alu, name: ffma, count: 2}]}\n",
                  0, &q, &e) == 0);
    CHECK_STR(q.load_class, "compute");
    CHECK_NEAR(q.clock_mhz, 1000, 0);
    CHECK(predict(f,
                  HEAD "launch: {grid: 10, block: 256, registers: 32}\n"
                       "loop: {trips: 1000, ops: [{op: alu, name: mufu.ex2, count: 2, "
                       "chains: 2}, {op: alu, name: ffma, count: 8, chains: 8}]}\n",
                  0, &q, &e) == 0);
    CHECK_STR(q.load_class, "compute");
    CHECK_STR(q.clock_source, "sm.clock_max_mhz");
    gc_arch_destroy(a);
    gc_arch_destroy(f);
}

/* The clock of sm.tensor_clock's mma points {0: 1000, 0.5: 900, 1: 600}
 * at activity x (piecewise linear). */
static double toy_tclock(double x)
{
    return x <= 0.5 ? 1000 - 200 * x : 900 - 600 * (x - 0.5);
}

/* sm.tensor_clock: a loop of mma times at the clock of its tensor-pipe
 * activity (busy tensor cycles over all SMs / its own cycles), linear
 * between the points; a full wave of pipe-bound warps sits near the full
 * load's clock, half the SMs busy near the middle point, one warp's chain
 * near the idle clock. The cycles here do not depend on the clock (no
 * DRAM; the launch is left out), so the activity is the same at any clock. */
static void tensor_clock_points(const gc_arch_t *t)
{
    gc_prediction_t p;
    gc_err_t e;
    static const char *const loops[3] = {
        HEAD "launch: {grid: 10, block: 256, registers: 32}\n"
             "loop: {trips: 1000, ops: [{op: mma, shape: m16n8k16, a: f16, c: f32, count: 8, "
             "chains: 8}]}\n",
        HEAD "launch: {grid: 5, block: 256, registers: 32}\n"
             "loop: {trips: 1000, ops: [{op: mma, shape: m16n8k16, a: f16, c: f32, count: 8, "
             "chains: 8}]}\n",
        HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
             "loop: {trips: 1000, ops: [{op: mma, shape: m16n8k16, a: f16, c: f32, count: 1, "
             "chains: 1}]}\n"};
    static const double lo[3] = {0.9, 0.45, 0}, hi[3] = {1, 0.5, 0.05};
    for (int i = 0; i < 3; i++) {
        CHECK(predict(t, loops[i], 0, &p, &e) == 0);
        double own = p.cycles - p.breakdown[GC_R_LAUNCH];
        double act = p.tensor_busy_gpu / own;
        CHECK(act >= lo[i] && act <= hi[i]);
        CHECK_NEAR(p.clock_mhz, toy_tclock(act), 1e-9 * p.clock_mhz);
        CHECK_NEAR(p.time_us, p.cycles / p.clock_mhz, 1e-12 * p.time_us);
        char src[64];
        snprintf(src, sizeof(src), "sm.tensor_clock at activity %.2f", act);
        CHECK_STR(p.clock_source, src);
        CHECK_STR(p.load_class, "tensor");
    }
    /* the full wave: busy on every SM, as in the one-kernel case above */
    CHECK(predict(t, loops[0], 0, &p, &e) == 0);
    CHECK_NEAR(p.tensor_busy_gpu, p.busy[GC_R_TENSOR], 1e-9 * p.busy[GC_R_TENSOR]);
    /* half the SMs: half the busy cycles of its SMs */
    CHECK(predict(t, loops[1], 0, &p, &e) == 0);
    CHECK_NEAR(p.tensor_busy_gpu, p.busy[GC_R_TENSOR] / 2, 1e-9 * p.busy[GC_R_TENSOR]);
    /* --clock wins */
    CHECK(predict(t, loops[0], 700, &p, &e) == 0);
    CHECK_STR(p.clock_source, "--clock");
    CHECK_NEAR(p.clock_mhz, 700, 0);
}

/* sm.tensor_clock on the toy arch: the interpolation (points in any order
 * in the file), the end points' clocks outside them, and the old rules
 * wherever the arch has no points for the loop's kind. */
static void tensor_clock(void)
{
    gc_prediction_t p;
    gc_err_t e;
    const char *max = "  clock_max_mhz: 1000\n";
    gc_arch_t *t = toy_with(max, "  clock_max_mhz: 1000\n  tensor_clock:\n"
                                 "  - {inst: mma, activity: 1, clock_mhz: 600}\n"
                                 "  - {inst: mma, activity: 0, clock_mhz: 1000}\n"
                                 "  - {inst: mma, activity: 0.5, clock_mhz: 900}\n"
                                 "  - {inst: wgmma, activity: 0.5, clock_mhz: 100}\n");
    gc_arch_t *g = toy_with(max, "  clock_max_mhz: 1000\n  tensor_clock:\n"
                                 "  - {inst: wgmma, activity: 0, clock_mhz: 1000}\n"
                                 "  - {inst: wgmma, activity: 1, clock_mhz: 600}\n");
    gc_arch_t *f = toy_with(max, "  clock_max_mhz: 1000\n  tensor_clock:\n"
                                 "  - {inst: mma, activity: 0.25, clock_mhz: 950}\n"
                                 "  - {inst: mma, activity: 0.75, clock_mhz: 650}\n");
    CHECK(t && g && f);
    if (t && g && f) {
        tensor_clock_points(t);
        const char *one = HEAD "launch: {grid: 1, block: 32, registers: 32}\n"
                               "loop: {trips: 1000, ops: [{op: mma, shape: m16n8k16, a: f16, "
                               "c: f32, count: 1, chains: 1}]}\n";
        const char *full = HEAD "launch: {grid: 10, block: 256, registers: 32}\n"
                                "loop: {trips: 1000, ops: [{op: mma, shape: m16n8k16, a: f16, "
                                "c: f32, count: 8, chains: 8}]}\n";
        /* only wgmma points: an mma loop keeps the old rule (no form clock:
         * the maximum clock), exactly as on the toy arch */
        gc_prediction_t q;
        gc_arch_t *a = toy();
        CHECK(predict(g, full, 0, &p, &e) == 0 && a && predict(a, full, 0, &q, &e) == 0);
        CHECK_STR(p.clock_source, "sm.clock_max_mhz");
        CHECK(p.cycles == q.cycles && p.time_us == q.time_us && p.clock_mhz == q.clock_mhz);
        gc_arch_destroy(a);
        /* outside the points: the nearest end point's clock */
        CHECK(predict(f, one, 0, &p, &e) == 0);
        CHECK_NEAR(p.clock_mhz, 950, 0);
        CHECK(predict(f, full, 0, &p, &e) == 0);
        CHECK_NEAR(p.clock_mhz, 650, 0);
        CHECK_HAS(p.clock_source, "sm.tensor_clock at activity 0.9");
    }
    gc_arch_destroy(t);
    gc_arch_destroy(g);
    gc_arch_destroy(f);
}

/* The rules for row kernels, known answers on the toy arch (shared latency
 * 30, L2 200, DRAM 500 cycles; ffma one warp instruction a clock a
 * sub-core): a butterfly given `depth` waits that many shuffle steps; a
 * block waits for its slowest warp through a phase without barriers when
 * its main loop's barriers make blocks the customers; the first touches of
 * the distinct bytes miss in the first phase that reads them; a step of
 * loads waits for its slowest line, L1 hits beside L2 loads included. */
static void row_rules(void)
{
    gc_prediction_t p, q;
    gc_err_t e;
    gc_arch_t *a = toy();
    CHECK(a != NULL);
    if (!a)
        return;
    char buf[1024];
    const char *w1 = HEAD "launch: {grid: 1, block: 32, registers: 32}\n";
    /* depth 10 against one step: 9 more shuffle latencies a trip, 100 trips */
    snprintf(buf, sizeof(buf), "%sloop: {trips: 100, ops: [{op: shfl, count: 1, depth: 10}]}\n",
             w1);
    CHECK(predict(a, buf, 0, &p, &e) == 0);
    snprintf(buf, sizeof(buf), "%sloop: {trips: 100, ops: [{op: shfl, count: 1, chains: 1}]}\n",
             w1);
    CHECK(predict(a, buf, 0, &q, &e) == 0);
    CHECK_NEAR(p.busy[GC_R_LATENCY] - q.busy[GC_R_LATENCY], 100 * 9 * 30, 1e-6);
    CHECK_NEAR(p.busy[GC_R_ISSUE], q.busy[GC_R_ISSUE], 1e-9); /* the same instructions */

    /* 32 warps, a barrier in the loop: the epilogue's 100 FFMA a warp cost the
     * block 8 warps a sub-core x 100 = 800 cycles, not one warp's 100 */
    const char *b32 = HEAD "launch: {grid: 1, block: 1024, registers: 32}\n"
                           "loop: {trips: 1, ops: [{op: bar, count: 1}]}\n";
    snprintf(buf, sizeof(buf), "%sepilogue: {ops: [{op: alu, name: ffma, count: 100}]}\n", b32);
    CHECK(predict(a, buf, 0, &p, &e) == 0);
    CHECK(predict(a, b32, 0, &q, &e) == 0);
    CHECK_NEAR(p.busy[GC_R_LATENCY] - q.busy[GC_R_LATENCY], 800, 1e-6);

    /* the prologue reads 512 distinct bytes (4 lines at once), the loop 128 of
     * them again: the prologue waits for DRAM (500), the loop for the L2
     * (200); warm in the L2, both 200: 300 apart (one miss ratio for the
     * kernel, 0.8, gave 2 x 240) */
    const char *ft = "prologue: {ops: [{op: ldg, width: 16, count: 1}]}\n"
                     "loop: {trips: 1, ops: [{op: ldg, width: 4, count: 1}]}\n";
    snprintf(buf, sizeof(buf), "%s%sfootprint: {read_bytes: 512, reuse_bytes: 512}\n", w1, ft);
    CHECK(predict(a, buf, 0, &p, &e) == 0);
    snprintf(buf, sizeof(buf), "%s%sfootprint: {read_bytes: 512, l2_warm: true}\n", w1, ft);
    CHECK(predict(a, buf, 0, &q, &e) == 0);
    CHECK_NEAR(p.busy[GC_R_LATENCY] - q.busy[GC_R_LATENCY], 300, 1e-6);
    CHECK_NEAR(p.dram_bytes, 512, 1e-9); /* the distinct bytes once, as before */

    /* a step waits for its slowest line: an L1 hit beside an L2 load waits
     * the L2's 200 like the L2 load alone; one line that hits half the time
     * waits 0.5 x 200 + 0.5 x 30 = 115, 85 less than a miss (100 trips;
     * a chain of 50 FFMA, 200 cycles, is each warp's own work in all three) */
    const char *ch = "{op: alu, name: ffma, count: 50, chains: 1}";
    const char *fp = "footprint: {l2_warm: true}\n";
    snprintf(buf, sizeof(buf),
             "%sloop: {trips: 100, ops: [%s, {op: ldg, width: 4, count: 1, l1_hit: 1}, "
             "{op: ldg, width: 4, count: 1}]}\n%s", w1, ch, fp);
    CHECK(predict(a, buf, 0, &p, &e) == 0);
    snprintf(buf, sizeof(buf), "%sloop: {trips: 100, ops: [%s, {op: ldg, width: 4, count: 1}]}\n%s",
             w1, ch, fp);
    CHECK(predict(a, buf, 0, &q, &e) == 0);
    CHECK_NEAR(p.busy[GC_R_LATENCY], q.busy[GC_R_LATENCY], 1e-6);
    snprintf(buf, sizeof(buf),
             "%sloop: {trips: 100, ops: [%s, {op: ldg, width: 4, count: 1, l1_hit: 0.5}]}\n%s",
             w1, ch, fp);
    CHECK(predict(a, buf, 0, &p, &e) == 0);
    CHECK_NEAR(q.busy[GC_R_LATENCY] - p.busy[GC_R_LATENCY], 100 * 85, 1e-6);
    gc_arch_destroy(a);
}

/* Phases in step, on the toy arch (10 SMs, one block of 32 warps each, one
 * wave): every warp runs the prologue's 12 mma.sync (8 a sub-core x 12 x 8
 * cycles: 768) and then the loop's 100 FFMA (800 cycles a sub-core), so the
 * blocks, started together, are in one phase at a time and the kernel takes
 * what the two take alone, one after the other. A prologue that only starts
 * copies runs beside the loop instead, and so does every phase of a kernel
 * whose loads are TMA copies (warp-specialised): there tensor and FMA work
 * overlap (their L6 norm: 12 % over the longer). */
static void phases_in_step(void)
{
    gc_prediction_t pa, pb, pab, pws, pcopy;
    gc_err_t e;
    gc_arch_t *a = toy();
    CHECK(a != NULL);
    if (!a)
        return;
    char buf[1024];
    const char *w = HEAD "launch: {grid: 10, block: 1024, registers: 32}\n";
    const char *fa = "{op: mma, shape: m16n8k16, a: f16, c: f32, count: 12}",
               *fb = "{op: alu, name: ffma, count: 100}";
    snprintf(buf, sizeof(buf), "%sloop: {trips: 1, ops: [%s]}\n", w, fa);
    CHECK(predict(a, buf, 1000, &pa, &e) == 0);
    snprintf(buf, sizeof(buf), "%sloop: {trips: 1, ops: [%s]}\n", w, fb);
    CHECK(predict(a, buf, 1000, &pb, &e) == 0);
    snprintf(buf, sizeof(buf), "%sprologue: {ops: [%s]}\nloop: {trips: 1, ops: [%s]}\n", w, fa, fb);
    CHECK(predict(a, buf, 1000, &pab, &e) == 0);
    double ta = pa.cycles - pa.breakdown[GC_R_LAUNCH], tb = pb.cycles - pb.breakdown[GC_R_LAUNCH];
    double tab = pab.cycles - pab.breakdown[GC_R_LAUNCH];
    CHECK_NEAR(tab, ta + tb, 1e-6 * (ta + tb));
    CHECK(ta >= 768 && tb >= 800);
    /* the same two phases, the kernel's loads TMA copies: overlapped */
    const char *tma = "{op: tma, bytes: 128, count: 0.01}";
    snprintf(buf, sizeof(buf),
             "%sprologue: {ops: [%s, %s]}\nloop: {trips: 1, stages: 2, ops: [%s, %s]}\n", w, fa,
             tma, fb, tma);
    CHECK(predict(a, buf, 1000, &pws, &e) == 0);
    snprintf(buf, sizeof(buf), "%sloop: {trips: 1, stages: 2, ops: [%s, %s]}\n", w, fa, tma);
    CHECK(predict(a, buf, 1000, &pa, &e) == 0);
    snprintf(buf, sizeof(buf), "%sloop: {trips: 1, stages: 2, ops: [%s, %s]}\n", w, fb, tma);
    CHECK(predict(a, buf, 1000, &pb, &e) == 0);
    double tws = pws.cycles - pws.breakdown[GC_R_LAUNCH];
    double sa = pa.cycles - pa.breakdown[GC_R_LAUNCH], sb = pb.cycles - pb.breakdown[GC_R_LAUNCH];
    CHECK(tws < 1.2 * (sa > sb ? sa : sb)); /* the shorter hidden, but for the norm's 12 % */
    /* a prologue of copies alone (a pipeline's fill) beside a loop of FFMA:
     * no longer than the loop with those copies in it */
    const char *cp = "{op: cp_async, width: 16, count: 4}";
    fa = fb;
    snprintf(buf, sizeof(buf), "%sprologue: {ops: [%s]}\nloop: {trips: 1, stages: 2, ops: [%s]}\n",
             w, cp, fa);
    CHECK(predict(a, buf, 1000, &pcopy, &e) == 0);
    snprintf(buf, sizeof(buf), "%sloop: {trips: 1, stages: 2, ops: [%s, %s]}\n", w, fa, cp);
    CHECK(predict(a, buf, 1000, &pab, &e) == 0);
    CHECK_NEAR(pcopy.cycles, pab.cycles, 1e-4 * pab.cycles);
    gc_arch_destroy(a);
}

int main(void)
{
    gc_warn_set_quiet(1);
    tensor_clock();
    fma_clock();
    synthetic();
    refinements();
    row_rules();
    phases_in_step();
    floor_and_dispatch();
    lone_warp_issue();
    after_tensor_work();
    coissue_by_warps();
    seed002();
    CHECK_DONE();
}
