/* test_kernel.c - kernel descriptions: what loads, what is refused (with the
 * right FILE:LINE:COL), what only warns, and descriptions built in code. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdlib.h>
#include <string.h>

#include "model/predict/kernel.h"
#include "model/predict/kernel_emit.h"
#include "check.h"

static const char good[] =
    "schema: gpucal-kernel/1\n"
    "name: demo\n"
    "source: a test\n"
    "launch:\n"
    "  grid: [64, 32]\n"
    "  block: [16, 16]\n"
    "  registers: 64\n"
    "  shared_bytes: 24576\n"
    "  blocks_per_sm: 3\n"
    "prologue:\n"
    "  ops:\n"
    "    - {op: cp_async, width: 16, count: 4, sectors: 16, lines: 8}\n"
    "loop:\n"
    "  trips: 128\n"
    "  stages: 3\n"
    "  ops:\n"
    "    - {op: cp_async, width: 16, count: 2}\n"
    "    - {op: bar, count: 1}\n"
    "    - {op: ldmatrix, num: 4, count: 4, trans: false}\n"
    "    - {op: mma, shape: m16n8k16, a: f16, c: f32, count: 8, chains: 4}\n"
    "    - {op: wgmma, shape: m64n256k16, a: bf16, c: f32, operands: rs, count: 1}\n"
    "    - {op: alu, name: mufu.ex2, count: 2.5, after_tensor: true}\n"
    "    - {op: lds, width: 16, count: 8, broadcast: true}\n"
    "    - {op: ldg, width: 4, count: 8, sectors: 8, lines: 8, l1_hit: 0.875, cache: l1}\n"
    "    - {op: tma, bytes: 16384, count: 0.125}\n"
    "epilogue:\n"
    "  ops:\n"
    "    - {op: stg, width: 8, count: 8}\n"
    "footprint:\n"
    "  read_bytes: 67108864\n"
    "  write_bytes: 1e6\n"
    "  l2_warm: true\n";

static int parse(const char *text, gc_kernel_t **k, gc_err_t *e)
{
    gc_err_clear(e);
    return gc_kernel_parse(k, "t.yaml", text, strlen(text), e);
}

/* Replace the first occurrence of `from` in good with `to`, parse, expect
 * failure whose message contains `want`. */
static void bad(const char *from, const char *to, const char *want)
{
    char buf[4096];
    const char *at = strstr(good, from);
    CHECK(at != NULL);
    if (!at)
        return;
    snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
    gc_kernel_t *k = NULL;
    gc_err_t e;
    int rc = parse(buf, &k, &e);
    CHECK(rc != 0);
    CHECK(k == NULL);
    CHECK(e.located);
    CHECK_HAS(e.msg, want);
    gc_kernel_destroy(k);
}

/* Parameters, expressions, --set, body and the register estimate. */
static void test_params(void)
{
    static const char *const text =
        "schema: gpucal-kernel/1\nname: p\nparams: {N: 4096, TILE: 128, T2: TILE * 2}\n"
        "launch: {grid: [N / TILE, \"cdiv(N, T2)\"], block: TILE}\n"
        "loop:\n  trips: N / 32\n  ops:\n"
        "    - {op: mma, shape: m16n8k16, a: f16, c: f32, count: 32, chains: 16}\n"
        "footprint: {read_bytes: N * N * 2}\n";
    gc_kernel_t *k = NULL;
    gc_err_t e;
    CHECK(parse(text, &k, &e) == 0);
    if (k) {
        CHECK(k->grid[0] == 32 && k->grid[1] == 16 && k->block[0] == 128);
        CHECK_NEAR(k->loop.trips, 128, 0);
        CHECK_NEAR(k->read_bytes, 4096.0 * 4096 * 2, 0);
        /* no registers: 32 + 16 chains x (16 x 8 f32 accumulators over 32 threads) = 96 */
        CHECK(k->regs_estimated == 1);
        CHECK_NEAR(k->regs, 96, 0);
    }
    gc_kernel_destroy(k);
    /* --set replaces a parameter; the ones after it see the new value */
    const char *sets[] = {"N=1024", "TILE=64"};
    gc_kernel_opts_t o = {sets, 2};
    gc_err_clear(&e);
    CHECK(gc_kernel_parse_opts(&k, "t.yaml", text, strlen(text), &o, &e) == 0);
    if (k)
        CHECK(k->grid[0] == 16 && k->grid[1] == 8 && k->block[0] == 64);
    gc_kernel_destroy(k);
    const char *bad_set[] = {"TILES=3"};
    gc_kernel_opts_t ob = {bad_set, 1};
    CHECK(gc_kernel_parse_opts(&k, "t.yaml", text, strlen(text), &ob, &e) != 0);
    CHECK_HAS(e.msg, "--set TILES=3: no such parameter (did you mean 'TILE'?)");
    const char *zero[] = {"TILE=0"};
    gc_kernel_opts_t oz = {zero, 1};
    CHECK(gc_kernel_parse_opts(&k, "t.yaml", text, strlen(text), &oz, &e) != 0);
    CHECK_HAS(e.msg, "division by zero");
    /* a fractional grid, a parameter named after a function, loop and body together */
    CHECK(parse("schema: gpucal-kernel/1\nname: p\nparams: {N: 100}\n"
                "launch: {grid: N / 3, block: 32}\nbody: {ops: []}\n", &k, &e) != 0);
    CHECK_HAS(e.msg, "t.yaml:4:16: launch.grid: N / 3 = 33.3333: must be a whole number of blocks");
    CHECK(parse("schema: gpucal-kernel/1\nname: p\nparams: {ceil: 1}\n"
                "launch: {grid: 1, block: 32}\nbody: {ops: []}\n", &k, &e) != 0);
    CHECK_HAS(e.msg, "'ceil' is not a parameter name");
    CHECK(parse("schema: gpucal-kernel/1\nname: p\nlaunch: {grid: 1, block: 32}\n"
                "body: {ops: [], trips: 2}\n", &k, &e) != 0);
    CHECK_HAS(e.msg, "unknown key 'body.trips'");
    /* a body is a loop of one trip; registers given: not estimated */
    CHECK(parse("schema: gpucal-kernel/1\nname: p\nlaunch: {grid: 1, block: 32, registers: 40}\n"
                "body: {ops: [{op: bar, count: 1}]}\n", &k, &e) == 0);
    if (k)
        CHECK(k->loop.present && k->loop.trips == 1 && k->regs == 40 && !k->regs_estimated);
    gc_kernel_destroy(k);
}

/* The example description loads with every value in place. */
static void loads_good(void)
{
    gc_kernel_t *k = NULL;
    gc_err_t e;
    CHECK(parse(good, &k, &e) == 0);
    if (!k) {
        fprintf(stderr, "%s\n", e.msg);
        return;
    }
    CHECK_STR(k->name, "demo");
    CHECK_STR(k->source, "a test");
    CHECK(k->grid[0] == 64 && k->grid[1] == 32 && k->grid[2] == 1);
    CHECK(gc_kernel_threads(k) == 256);
    CHECK(gc_kernel_warps(k) == 8);
    CHECK_NEAR(gc_kernel_blocks(k), 2048, 0);
    CHECK_NEAR(k->regs, 64, 0);
    CHECK_NEAR(k->shared_bytes, 24576, 0);
    CHECK_NEAR(k->blocks_per_sm, 3, 0);
    CHECK(k->prologue.present && k->prologue.n_ops == 1);
    CHECK_NEAR(k->prologue.trips, 1, 0);
    CHECK_NEAR(k->loop.trips, 128, 0);
    CHECK_NEAR(k->loop.stages, 3, 0);
    CHECK(k->loop.n_ops == 9);
    CHECK(k->epilogue.n_ops == 1);
    const gc_kop_t *o = k->loop.ops;
    CHECK(o[0].cls == GC_OP_CP_ASYNC && o[0].l1 == 0 && o[0].line == 17 && o[0].col == 7);
    CHECK(o[1].cls == GC_OP_BAR);
    CHECK(o[2].cls == GC_OP_LDMATRIX && o[2].num == 4);
    CHECK(o[3].cls == GC_OP_MMA);
    CHECK_STR(o[3].inst, "mma");
    CHECK_STR(o[3].shape, "m16n8k16");
    CHECK_NEAR(o[3].chains, 4, 0);
    CHECK(o[4].cls == GC_OP_WGMMA);
    CHECK_STR(o[4].operands, "rs");
    CHECK_STR(o[5].name, "mufu.ex2");
    CHECK_NEAR(o[5].count, 2.5, 0);
    CHECK(o[5].after_tensor == 1 && o[6].after_tensor == 0);
    CHECK(o[6].broadcast == 1 && o[6].width == 16);
    CHECK(o[7].l1 == 1 && o[7].l1_hit == 0.875 && o[7].sectors == 8);
    CHECK(o[8].cls == GC_OP_TMA && o[8].bytes == 16384);
    CHECK_NEAR(k->read_bytes, 67108864, 0);
    CHECK_NEAR(k->write_bytes, 1e6, 0);
    CHECK(k->l2_warm == 1);
    CHECK_STR(gc_opclass_name(GC_OP_CP_ASYNC), "cp_async");
    gc_kernel_destroy(k);
}

/* Single bad values: refused, with the place and what to do. */
static void refuses_bad(void)
{
    /* refused, with the place and what to do */
    bad("launch:\n  grid: [64, 32]\n  block: [16, 16]\n  registers: 64\n", "launch:\n  block: [16, 16]\n  registers: 64\n",
        "t.yaml:5:3: launch: missing required key 'grid'");
    bad("count: 2}", "count: -2}", "t.yaml:17:40: loop.ops[0].count: negative value -2");
    bad("count: 8, chains: 4}", "count: abc, chains: 4}", "unknown name 'abc'");
    bad("count: 8, chains: 4}", "count: \"8\", chains: 4}", "quoted text (remove the quotes)");
    bad("count: 8, chains: 4}", "count: .nan, chains: 4}", "NaN and infinity are refused");
    bad("count: 8, chains: 4}", "count: 2, chains: 4}", "chains (4) exceeds count (2)");
    bad("{op: bar, count: 1}", "{op: barrier, count: 1}", "t.yaml:18:12: loop.ops[1]: op: unknown instruction class 'barrier'");
    bad("{op: bar, count: 1}", "{op: bar}", "op 'bar' needs 'count'");
    bad("shape: m16n8k16,", "shape: 16x8x16,", "is not well formed (expected mMnNkK");
    bad("a: f16, c: f32, count: 8", "a: f17, c: f32, count: 8", "'f17' is not one of");
    bad("num: 4,", "num: 3,", "1, 2 or 4 matrices, not 3");
    bad("broadcast: true}", "broadcast: true, after_tensor: true}",
        "unknown key 'loop.ops[6].after_tensor'");
    bad("after_tensor: true}", "after_tensor: yes}", "expected true or false, found yes");
    bad("width: 16, count: 2}", "width: 12, count: 2}", "1, 2, 4, 8 or 16 bytes, not 12");
    bad("{op: cp_async, width: 16, count: 2}", "{op: cp_async, width: 2, count: 2}", "cp.async copies 4, 8 or 16");
    bad("{op: cp_async, width: 16, count: 2}", "{op: cp_async, width: 2, count: 2, staged: 1}",
        "expected true or false");
    bad("{op: ldg, width: 4,", "{op: ldg, staged: true, width: 4,", "unknown key");
    bad("sectors: 16, lines: 8}", "sectors: 2, lines: 8}", "sectors (2) cannot hold the 512 bytes");
    bad("block: [16, 16]", "block: [64, 32]", "2048 threads per block");
    bad("block: [16, 16]", "block: {x: 16}", "expected a whole number or a list");
    bad("grid: [64, 32]", "grid: [64, 0]", "0 is out of range");
    bad("registers: 64", "registers: 300", "300 is out of range");
    bad("schema: gpucal-kernel/1", "schema: gpucal-kernel/2", "'gpucal-kernel/2' is not supported");
    bad("schema: gpucal-kernel/1", "schema: gpucal-arch/1", "an arch file is given with --arch");
    bad("  trips: 128\n", "  trip: 128\n", "unknown key 'loop.trip' (did you mean 'trips'?)");
    bad("  trips: 128\n  stages: 3\n", "  trips: 128\n  stages: 0\n", "loop.stages: 0 is out of range");
    bad("name: demo\n", "name: demo\nname: again\n", "duplicate key 'name' (first on line 2)");
    bad("l2_warm: true", "l2_warm: yes", "expected true or false");
    bad("{op: alu, name: mufu.ex2, count: 2.5, after_tensor: true}",
        "{op: alu, name: mufu.ex2, count: 2.5, depth: 0}",
        "depth must be > 0");
    bad("{op: alu, name: mufu.ex2, count: 2.5, after_tensor: true}",
        "{op: alu, name: mufu.ex2, count: 2.5, chains: 1, depth: 4}", "give chains or depth");
    bad("{op: bar, count: 1}", "{op: bar, count: 1, depth: 2}", "unknown key");
}

/* k as gc_kernel_write writes it (caller frees; NULL on failure), its length
 * into *len. */
static char *written(const gc_kernel_t *k, size_t *len)
{
    char *buf = NULL;
    *len = 0;
    FILE *fp = open_memstream(&buf, len);
    if (!fp)
        return NULL;
    int rc = k ? gc_kernel_write(k, fp) : -1;
    fclose(fp);
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* depth (alu, shfl): read, and written back as given (describe -> predict
 * round trips), beyond the count when one warp's work is waited for. */
static void depth_round_trip(void)
{
    static const char src[] = "schema: gpucal-kernel/1\nname: d\n"
                              "launch: {grid: 8, block: 1024, registers: 32}\n"
                              "loop:\n  trips: 2\n  ops:\n"
                              "    - {op: shfl, count: 0.3125, depth: 10}\n"
                              "    - {op: alu, name: fsetp, count: 0.625, depth: 20}\n"
                              "    - {op: bar, count: 2}\n";
    gc_kernel_t *k = NULL, *k2 = NULL;
    gc_err_t e;
    gc_err_clear(&e);
    CHECK(gc_kernel_parse(&k, "d.yaml", src, sizeof(src) - 1, &e) == 0);
    CHECK(k && k->loop.n_ops == 3 && k->loop.ops[0].depth == 10 && k->loop.ops[1].depth == 20);
    size_t len;
    char *buf = written(k, &len);
    CHECK(buf && strstr(buf, "count: 0.3125, depth: 10}") && strstr(buf, "depth: 20}"));
    CHECK(buf && gc_kernel_parse(&k2, "d2.yaml", buf, len, &e) == 0);
    CHECK(k2 && k2->loop.ops[0].depth == 10 && k2->loop.ops[1].depth == 20);
    free(buf);
    gc_kernel_destroy(k);
    gc_kernel_destroy(k2);
}

/* A register-staged copy (staged: true): any width, read, and written back
 * as given, so that it loads again. */
static void staged_round_trip(void)
{
    static const char src[] = "schema: gpucal-kernel/1\nname: s\n"
                              "launch: {grid: 8, block: 256, registers: 32}\n"
                              "loop:\n  trips: 2\n  stages: 2\n  ops:\n"
                              "    - {op: cp_async, width: 2, count: 48, staged: true}\n"
                              "    - {op: sts, width: 16, count: 6}\n";
    gc_kernel_t *k = NULL, *k2 = NULL;
    gc_err_t e;
    gc_err_clear(&e);
    CHECK(gc_kernel_parse(&k, "s.yaml", src, sizeof(src) - 1, &e) == 0);
    CHECK(k && k->loop.ops[0].staged == 1 && k->loop.ops[0].width == 2);
    size_t len;
    char *buf = written(k, &len);
    CHECK(buf && strstr(buf, "width: 2, staged: true,"));
    CHECK(buf && gc_kernel_parse(&k2, "s2.yaml", buf, len, &e) == 0);
    CHECK(k2 && k2->loop.ops[0].staged == 1);
    free(buf);
    gc_kernel_destroy(k);
    gc_kernel_destroy(k2);
}

/* Whole-document failures, unknown keys, an empty op list. */
static void documents(void)
{
    gc_kernel_t *k = NULL;
    gc_err_t e;
    /* whole-document failures */
    CHECK(parse("", &k, &e) != 0);
    CHECK_HAS(e.msg, "empty file");
    CHECK(parse("- 1\n- 2\n", &k, &e) != 0);
    CHECK_HAS(e.msg, "t.yaml:1:1: expected a mapping of keys");
    CHECK(parse("schema: gpucal-kernel/1\nname: x\nlaunch: {grid: 1, block: 32, registers: 8}\n", &k, &e) != 0);
    CHECK_HAS(e.msg, "missing required key 'loop'");
    CHECK(parse("schema: gpucal-kernel/1\nname: x\nloop: {trips: 1, ops: []}\n", &k, &e) != 0);
    CHECK_HAS(e.msg, "missing required key 'launch'");
    CHECK(parse("schema: gpucal-kernel/1\nname: x\nlaunch: {grid: 1, block: 32, registers: 8}\n"
                "loop: {trips: 1, ops: {op: bar}}\n",
                &k, &e) != 0);
    CHECK_HAS(e.msg, "t.yaml:4:23: loop.ops: expected a list of ops");
    CHECK(parse("schema: [\n", &k, &e) != 0);
    CHECK(e.located);

    /* unknown keys are errors naming the closest known key */
    char buf[4096];
    snprintf(buf, sizeof(buf), "%s", good);
    char *at = strstr(buf, "count: 1}");
    memcpy(at, "cnt: 1}  ", 9);
    CHECK(parse(buf, &k, &e) != 0);
    CHECK_HAS(e.msg, "unknown key 'loop.ops[1].cnt' (did you mean 'count'?)");
    snprintf(buf, sizeof(buf), "%scolour: blue\n", good);
    CHECK(parse(buf, &k, &e) != 0);
    CHECK_HAS(e.msg, "unknown key 'colour'");

    /* an empty op list is a loop that does nothing (an empty kernel) */
    CHECK(parse("schema: gpucal-kernel/1\nname: e\nlaunch: {grid: 1, block: 32, registers: 8}\n"
                "loop: {trips: 1, ops: []}\n",
                &k, &e) == 0);
    CHECK(k && k->loop.n_ops == 0);
    gc_kernel_destroy(k);
}

/* Descriptions built in code, and the shipped ones. */
static void built_and_shipped(void)
{
    gc_kernel_t *k = NULL;
    gc_err_t e;
    /* built in code */
    k = gc_kernel_create("built");
    CHECK(k != NULL);
    CHECK(k->loop.present && k->loop.trips == 1 && k->loop.stages == 1);
    for (int i = 0; i < GC_KERNEL_OPS_MAX; i++) {
        gc_kop_t *op = gc_kernel_op(k, &k->loop, GC_OP_ALU);
        CHECK(op != NULL);
        if (op)
            op->name = "ffma";
    }
    CHECK(gc_kernel_op(k, &k->loop, GC_OP_ALU) == NULL); /* the limit */
    CHECK(k->loop.n_ops == GC_KERNEL_OPS_MAX);
    CHECK(k->loop.ops[0].count == 1 && k->loop.ops[0].active == 32 && k->loop.ops[0].ways == 1);
    CHECK(gc_kernel_check(k, &e) == 0);
    k->loop.ops[3].count = -1;
    CHECK(gc_kernel_check(k, &e) != 0);
    CHECK_HAS(e.msg, "count must be a number >= 0");
    gc_kernel_destroy(k);
    gc_kernel_destroy(NULL);

    /* the shipped descriptions all load */
    const char *src = getenv("GC_SRC");
    if (src) {
        static const char *const names[] = {"mma_matmul_1_0", "mma_matmul_1_1", "mma_matmul_2_0",
                                            "mma_matmul_2_1", "mma_matmul_3_0", "mma_matmul_3_1",
                                            "h100_pipe_gemm", "h100_s003_wmma_n4096"};
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
            char path[1024];
            snprintf(path, sizeof(path), "%s/model/kernels/%s.yaml", src, names[i]);
            gc_err_clear(&e);
            int rc = gc_kernel_load(&k, path, &e);
            if (rc)
                fprintf(stderr, "%s\n", e.msg);
            CHECK(rc == 0);
            CHECK(k && !strcmp(k->name, names[i]));
            gc_kernel_destroy(k);
        }
    }
}

/* An explicit footprint 0 is kept as given through a write and a load
 * (gc_kernel_write used to drop it, and the file loaded back as 'derive
 * it from the ops'); so is an alu op's after_tensor. */
static void footprint_zero_round_trip(void)
{
    static const char src[] = "schema: gpucal-kernel/1\nname: fp\n"
                              "launch: {grid: 8, block: 32, registers: 32}\n"
                              "loop:\n  trips: 2\n  ops:\n    - {op: ldg, width: 16, count: 1}\n"
                              "    - {op: alu, name: fadd, count: 4, after_tensor: true}\n"
                              "footprint:\n  read_bytes: 0\n  write_bytes: 0\n  reuse_bytes: 0\n";
    gc_kernel_t *k = NULL, *k2 = NULL;
    gc_err_t e;
    gc_err_clear(&e);
    CHECK(gc_kernel_parse(&k, "fp.yaml", src, sizeof(src) - 1, &e) == 0);
    CHECK(k && k->footprint_given == (GC_FP_READ | GC_FP_WRITE | GC_FP_REUSE));
    size_t len;
    char *buf = written(k, &len);
    CHECK(buf && strstr(buf, "read_bytes: 0") && strstr(buf, "reuse_bytes: 0"));
    CHECK(buf && gc_kernel_parse(&k2, "fp2.yaml", buf, len, &e) == 0);
    CHECK(k2 && k2->footprint_given == k->footprint_given && k2->read_bytes == 0);
    CHECK(k2 && k2->loop.n_ops == 2 && k2->loop.ops[1].after_tensor == 1);
    free(buf);
    gc_kernel_destroy(k);
    gc_kernel_destroy(k2);
}

int main(void)
{
    footprint_zero_round_trip();
    depth_round_trip();
    staged_round_trip();
    test_params();
    gc_warn_set_quiet(1);
    loads_good();
    refuses_bad();
    documents();
    built_and_shipped();
    CHECK_DONE();
}
