/* test_gemm.c - the gemm template's library model (gemm.h, gemm_int.h):
 * split-K and alignment arithmetic with known answers, the family each rule
 * picks on the shipped Hopper / Ampere / Turing arch files, the kernels a
 * call lists (memset, main, reduction), the kernel descriptions against the
 * SASS counts and grids the profiler showed, and bad arguments. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/predict/gemm.h"
#include "model/predict/gemm_int.h"
#include "model/predict/machine.h"

static void split_arithmetic(void)
{
    /* 32 tiles on 132 SMs: 4 slices fill 128; K = 16384 allows 64 (64-deep steps, 4 a slice) */
    CHECK(gc_gemm_split_fill(32, 132, 16384, 64, 4) == 4);
    /* tiles fill the SMs already */
    CHECK(gc_gemm_split_fill(200, 132, 16384, 64, 4) == 1);
    CHECK(gc_gemm_split_fill(132, 132, 16384, 64, 4) == 1);
    /* fewer than 2 slices worth it */
    CHECK(gc_gemm_split_fill(100, 132, 16384, 64, 4) == 1);
    /* 2 tiles: 66 slices; K = 131072 allows 512 */
    CHECK(gc_gemm_split_fill(2, 132, 131072, 64, 4) == 66);
    /* K limits it: 1024 / (64 x 4) = 4 */
    CHECK(gc_gemm_split_fill(8, 132, 1024, 64, 4) == 4);
    CHECK(gc_gemm_split_fill(8, 132, 64, 64, 4) == 1);
}

static void alignment(void)
{
    gc_gemm_args_t g = {4096, 4096, 4096, 1, GC_GEMM_F16, "nn"};
    CHECK(gc_gemm_align_bytes(&g) == 16);
    g.m = g.n = g.k = 4095; /* 4095 x 2 bytes: 2-byte rows */
    CHECK(gc_gemm_align_bytes(&g) == 2);
    g.m = g.n = 4096, g.k = 4100; /* A's rows: 8200 bytes */
    CHECK(gc_gemm_align_bytes(&g) == 8);
    g.dtype = GC_GEMM_TF32, g.m = g.n = g.k = 4095; /* 4-byte elements */
    CHECK(gc_gemm_align_bytes(&g) == 4);
    g.dtype = GC_GEMM_F16, g.m = 4095, g.n = 4096, g.k = 4096;
    CHECK(gc_gemm_align_bytes(&g) == 16);       /* M is no leading dimension of nn */
    snprintf(g.layout, sizeof(g.layout), "tn"); /* A stored K x M: rows of M */
    CHECK(gc_gemm_align_bytes(&g) == 2);
    gc_gemm_args_t v = {1, 8191, 8191, 1, GC_GEMM_BF16, "nn"}; /* B and C rows of 8191 */
    CHECK(gc_gemm_align_bytes(&v) == 2);
    gc_gemm_args_t w = {8191, 1, 8191, 1, GC_GEMM_BF16, "nn"}; /* vectors: only A's rows count */
    CHECK(gc_gemm_align_bytes(&w) == 2);
    gc_gemm_args_t x = {8192, 1, 8192, 1, GC_GEMM_BF16, "nn"};
    CHECK(gc_gemm_align_bytes(&x) == 16);
}

static gc_gemm_result_t *call(const gc_arch_t *a, long m, long n, long k, long b,
                              gc_gemm_dtype_t dt, const char *lay, int *rc, gc_err_t *e)
{
    static gc_gemm_result_t r;
    gc_gemm_args_t g = {m, n, k, b, dt, ""};
    snprintf(g.layout, sizeof(g.layout), "%s", lay);
    gc_predict_opts_t o = {0};
    gc_err_clear(e);
    *rc = gc_gemm_predict_call(a, &g, &o, &r, e);
    return &r;
}

static double sum_us(const gc_gemm_result_t *r)
{
    double s = 0;
    for (int i = 0; i < r->n_kernels; i++)
        s += r->kern[i].kernel_us;
    return s;
}

static void hopper(void)
{
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *h = NULL;
    CHECK(gc_arch_open(&h, "hopper-h100", &e) == 0 && gc_machine_attach(h, &e) == 0);
    if (!h)
        return;
    int rc;
    gc_gemm_result_t *r = call(h, 4096, 4096, 4096, 1, GC_GEMM_F16, "nn", &rc, &e);
    CHECK(rc == 0 && r->fam == GC_GEMM_FAM_WGMMA && r->split == 1);
    /* more than two tiles a CTA: the workspace memset first, then the main kernel */
    CHECK(r->n_kernels == 2 && !strcmp(r->kern[0].role, "memset") &&
          !strcmp(r->kern[1].role, "main") && r->kern[1].persistent);
    CHECK_NEAR(r->time_us, sum_us(r), 1e-9);
    /* the host's share: the event-timed launch less the GPU's own kernel cost */
    CHECK_NEAR(r->launch_us, h->sm.launch_overhead_us.v - h->sm.kernel_floor_us.v, 1e-9);
    CHECK_NEAR(r->clock_mhz, h->sm.clock_tensor_mhz.v, 1e-9);
    r = call(h, 4095, 4095, 4095, 1, GC_GEMM_F16, "nn", &rc, &e);
    CHECK(rc == 0 && r->fam == GC_GEMM_FAM_MMA_LDG && r->align == 2);
    r = call(h, 4096, 4096, 4100, 1, GC_GEMM_F16, "nn", &rc, &e);
    CHECK(rc == 0 && r->fam == GC_GEMM_FAM_MMA && r->align == 4);
    r = call(h, 1, 4096, 4096, 1, GC_GEMM_F32, "nn", &rc, &e);
    CHECK(rc == 0 && r->fam == GC_GEMM_FAM_GEMV && r->n_kernels == 1);
    CHECK(r->kern[0].grid[0] == 128 && r->kern[0].block[0] * r->kern[0].block[1] == 512);
    r = call(h, 1024, 1024, 1024, 1, GC_GEMM_F32, "nn", &rc, &e);
    CHECK(rc == 0 && r->fam == GC_GEMM_FAM_FFMA);
    /* K large against M x N: split, with the reduction kernel after the main one */
    r = call(h, 256, 256, 16384, 1, GC_GEMM_F16, "nn", &rc, &e);
    CHECK(rc == 0 && r->split > 1 && r->n_kernels == 2 && !strcmp(r->kern[1].role, "reduce"));
    /* the reduction of 256 x 256: 32 columns a block, 16 blocks down (as profiled) */
    CHECK(r->kern[1].grid[0] == 8 && r->kern[1].grid[1] == 16 && r->kern[1].grid[2] == 1);
    CHECK_NEAR(r->time_us, sum_us(r), 1e-9);
    /* batched: the batch in the grid; more work than one GEMM, less than B calls */
    gc_gemm_result_t one = *call(h, 512, 512, 512, 1, GC_GEMM_F16, "nn", &rc, &e);
    r = call(h, 512, 512, 512, 32, GC_GEMM_F16, "nn", &rc, &e);
    CHECK(rc == 0 && r->batch == 32 && r->time_us > one.time_us && r->time_us < 32 * one.time_us);
    /* f8 needs 16-byte rows (cuBLAS) */
    r = call(h, 4096, 4096, 4095, 1, GC_GEMM_F8E4M3, "nt", &rc, &e);
    CHECK(rc == GC_EINPUT);
    CHECK_HAS(e.msg, "multiples of 16 bytes");
    /* bad arguments */
    r = call(h, 0, 64, 64, 1, GC_GEMM_F16, "nn", &rc, &e);
    CHECK(rc == GC_EUSAGE);
    r = call(h, 64, 64, 64, 1, GC_GEMM_F16, "xn", &rc, &e);
    CHECK(rc == GC_EUSAGE);
    CHECK_HAS(e.msg, "--layout 'xn'");
    CHECK(gc_gemm_layout("tt") == 0 && gc_gemm_layout("t") != 0 && gc_gemm_layout(NULL) != 0);
    /* an explicit clock wins */
    gc_gemm_args_t g = {4096, 4096, 4096, 1, GC_GEMM_F16, "nn"};
    gc_predict_opts_t o = {.clock_mhz = 1000};
    gc_gemm_result_t *q = malloc(sizeof(*q));
    CHECK(q && gc_gemm_predict_call(h, &g, &o, q, &e) == 0 && q->clock_mhz == 1000);
    free(q);
    gc_arch_destroy(h);
}

/* sm.tensor_clock for wgmma on the H100 (two points, put in code): the
 * wgmma kernels time at the clock of their own tensor-pipe activity, the
 * mma.sync families (no mma points) by the old rule; --clock wins. */
static void tensor_clock(void)
{
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *h = NULL;
    CHECK(gc_arch_open(&h, "hopper-h100", &e) == 0);
    if (!h)
        return;
    gc_tclock_t *t = gc_arch_list(h, sizeof(*t), 2);
    CHECK(t != NULL);
    if (!t) {
        gc_arch_destroy(h);
        return;
    }
    for (int i = 0; i < 2; i++) {
        t[i].inst = "wgmma";
        gc_qty_put(h, &t[i].activity, i, 1, 0, "test");
        gc_qty_put(h, &t[i].clock_mhz, i ? 1500 : 1980, 1, 0, "test");
    }
    h->sm.tensor_clock = t;
    h->sm.n_tensor_clock = 2;
    CHECK(gc_machine_attach(h, &e) == 0);
    int rc;
    /* a big GEMM keeps its tensor pipes busy: near the full load's clock */
    gc_gemm_result_t *r = call(h, 8192, 8192, 8192, 1, GC_GEMM_F16, "nn", &rc, &e);
    CHECK(rc == 0 && r->fam == GC_GEMM_FAM_WGMMA);
    double act = -1;
    CHECK(r->clock_source && sscanf(r->clock_source, "sm.tensor_clock at activity %lf", &act) == 1);
    CHECK(act > 0.8 && act <= 1);
    CHECK_NEAR(r->clock_mhz, 1980 - 480 * act, 0.005 * 480 + 1e-9); /* act printed to 0.01 */
    /* a small one leaves them idle most of its time: near the idle clock */
    r = call(h, 256, 256, 256, 1, GC_GEMM_F16, "nn", &rc, &e);
    CHECK(rc == 0 && r->fam == GC_GEMM_FAM_WGMMA && r->clock_mhz > 1800);
    CHECK_HAS(r->clock_source, "sm.tensor_clock at activity 0.");
    /* an mma.sync family: no mma points, the sustained mma.sync clock */
    r = call(h, 4095, 4095, 4095, 1, GC_GEMM_F16, "nn", &rc, &e);
    CHECK(rc == 0 && r->fam == GC_GEMM_FAM_MMA_LDG);
    CHECK_NEAR(r->clock_mhz, h->sm.clock_mma_mhz.v, 1e-9);
    CHECK_HAS(r->clock_source, "sm.clock_mma_mhz");
    gc_gemm_args_t g = {8192, 8192, 8192, 1, GC_GEMM_F16, "nn"};
    gc_predict_opts_t o = {.clock_mhz = 1000};
    gc_gemm_result_t *q = malloc(sizeof(*q));
    CHECK(q && gc_gemm_predict_call(h, &g, &o, q, &e) == 0 && q->clock_mhz == 1000);
    free(q);
    gc_arch_destroy(h);
}

/* the count of class c (and alu name, when given) in phase ph */
static double op_count(const gc_kphase_t *ph, gc_opclass_t c, const char *name, double *width)
{
    double n = 0;
    for (size_t i = 0; i < ph->n_ops; i++)
        if (ph->ops[i].cls == c && (!name || (ph->ops[i].name && !strcmp(ph->ops[i].name, name)))) {
            n += ph->ops[i].count;
            if (width)
                *width = ph->ops[i].width;
        }
    return n;
}

/* The wgmma descriptions (consumers, wgmma a k step, f8's promotion). */
static void wgmma_descriptions(const gc_arch_t *h)
{
    gc_err_t e;
    gc_err_clear(&e);
    gc_kernel_t *k = NULL;
    /* wgmma: 64x8 is one consumer's (ping-pong), 4 wgmma a k step; 256x128
     * is shared by both ("coop"), each 2 slabs x m64n128 x 4 k16 */
    gc_gemm_spec_t p = {
        GC_GEMM_FAM_WGMMA, 256, 256, 256, 1, GC_GEMM_F16, 64, 8, 64, 8, 12, 1, 16, 0, 0, 0, 0, 0};
    CHECK(gc_gemm_build(h, &p, &k, NULL, &e) == 0 && k);
    if (k) {
        CHECK(k->block[0] == 128 && k->blocks_per_sm == 1);
        CHECK_NEAR(op_count(&k->loop, GC_OP_WGMMA, NULL, NULL), 4, 1e-9);
        gc_kernel_destroy(k);
    }
    p.bm = 256, p.bn = 128, p.m = p.n = 4096;
    k = NULL;
    CHECK(gc_gemm_build(h, &p, &k, NULL, &e) == 0 && k);
    if (k) {
        CHECK(k->block[0] == 256);
        CHECK_NEAR(op_count(&k->loop, GC_OP_WGMMA, NULL, NULL), 8, 1e-9);
        CHECK_NEAR(op_count(&k->loop, GC_OP_ALU, "fadd", NULL), 0, 0);
        gc_kernel_destroy(k);
    }
    /* f8 (fast accumulation off): after each 128-k step a consumer adds the
     * k step's sums into f32, one FADD per accumulator a thread holds: a
     * 128x128 coop tile, 64 a thread (g030's FMA pipe: 22 % busy) */
    p.dt = GC_GEMM_F8E4M3, p.bm = 128, p.bn = 128, p.bk = 128, p.stages = 6;
    k = NULL;
    CHECK(gc_gemm_build(h, &p, &k, NULL, &e) == 0 && k);
    if (k) {
        CHECK_NEAR(op_count(&k->loop, GC_OP_ALU, "fadd", NULL), 64, 1e-9);
        for (size_t i = 0; i < k->loop.n_ops; i++)
            if (k->loop.ops[i].cls == GC_OP_ALU && !strcmp(k->loop.ops[i].name, "fadd"))
                CHECK(k->loop.ops[i].after_tensor == 1);
        gc_kernel_destroy(k);
    }
}

/* The descriptions against the SASS counts and grids the profiler showed
 * (model/kernels/README.md, gemm): known answers. */
static void descriptions(void)
{
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *h = NULL;
    CHECK(gc_arch_open(&h, "hopper-h200", &e) == 0 && gc_machine_attach(h, &e) == 0);
    if (!h)
        return;
    gc_kernel_t *k = NULL;
    /* sm80_xmma ffma 256x128x8, 8 warps (g039): 1024 FFMA, 48 LDS.128, 12
     * 4-byte LDGSTS a warp and k step; 254 registers as profiled */
    gc_gemm_spec_t f = {
        GC_GEMM_FAM_FFMA, 4096, 4096, 4096, 1, GC_GEMM_F32, 256, 128, 8, 3, 8, 1, 16, 254, 0, 0, 0, 0};
    CHECK(gc_gemm_build(h, &f, &k, NULL, &e) == 0 && k);
    if (k) {
        double w = 0;
        CHECK_NEAR(op_count(&k->loop, GC_OP_ALU, "ffma", NULL), 1024, 1e-9);
        CHECK_NEAR(op_count(&k->loop, GC_OP_LDS, NULL, NULL), 48, 1e-9);
        CHECK_NEAR(op_count(&k->loop, GC_OP_CP_ASYNC, NULL, &w), 12, 1e-9);
        CHECK_NEAR(w, 4, 1e-9);
        CHECK(k->regs == 254 && k->loop.trips == 512);
        gc_kernel_destroy(k);
    }
    /* splitKreduce grids as profiled: 1024 x 1024 (32, 16), 4 rows a thread
     * (g104); 777 x 1234 (39, 17) (g105); 512 x 512 (16, 32) (g079) */
    static const long want[3][4] = {{1024, 1024, 32, 16}, {777, 1234, 39, 17}, {512, 512, 16, 32}};
    for (int i = 0; i < 3; i++) {
        gc_gemm_spec_t r = {GC_GEMM_FAM_REDUCE,
                            want[i][0],
                            want[i][1],
                            4096,
                            1,
                            GC_GEMM_F16,
                            0,
                            0,
                            0,
                            1,
                            16,
                            4,
                            4,
                            0, 0, 0, 0, 0};
        k = NULL;
        CHECK(gc_gemm_build(h, &r, &k, NULL, &e) == 0 && k);
        if (k) {
            CHECK(k->grid[0] == want[i][2] && k->grid[1] == want[i][3]);
            gc_kernel_destroy(k);
        }
    }
    wgmma_descriptions(h);
    /* tf32: no in-kernel split below K = 8192 (segment_k_off), and the
     * reported block is the library's 384 threads */
    int rc;
    gc_gemm_result_t *r = call(h, 2048, 2048, 2048, 1, GC_GEMM_TF32, "nn", &rc, &e);
    CHECK(rc == 0 && !(r->fam == GC_GEMM_FAM_WGMMA && r->split > 1));
    r = call(h, 4096, 4096, 4096, 1, GC_GEMM_F16, "nn", &rc, &e);
    CHECK(rc == 0 && r->kern[r->n_kernels - 1].block[0] == 384);
    /* tf32 with M or N below 64: the s1688 kernels (cuBLAS's tf32 wgmma
     * tiles are 64x128 and up; observed g052, g056) */
    r = call(h, 16, 8192, 8192, 1, GC_GEMM_TF32, "nn", &rc, &e);
    CHECK(rc == 0 && r->fam == GC_GEMM_FAM_MMA);
    CHECK_HAS(r->why, "below 64");
    r = call(h, 8192, 16, 8192, 1, GC_GEMM_TF32, "nn", &rc, &e);
    CHECK(rc == 0 && r->fam == GC_GEMM_FAM_MMA);
    gc_arch_destroy(h);
}

/* An FFMA kernel's fixed code (set-up and epilogue, 200 + 12 a thread's
 * accumulator, counted off the listings) runs once a block, each wave's
 * blocks in turn on an SM, every instruction waiting the arch's imad
 * latency; with the first operands from the L2 (they fit it) and the last
 * stores to it, the kernel's time beyond its rounds is exactly
 * 2 x L2 latency + waves x fixed x imad latency cycles. */
static void fixed_code(void)
{
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *h = NULL;
    CHECK(gc_arch_open(&h, "hopper-h200", &e) == 0 && gc_machine_attach(h, &e) == 0);
    if (!h)
        return;
    int rc;
    gc_gemm_result_t *r = call(h, 1024, 1024, 64, 1, GC_GEMM_F32, "nn", &rc, &e);
    CHECK(rc == 0 && r->fam == GC_GEMM_FAM_FFMA && r->split == 1 && r->n_kernels == 1);
    if (rc == 0 && r->n_kernels == 1) {
        const gc_gemm_kpred_t *k = &r->kern[0];
        double o = (double)r->tile_m * r->tile_n / (32.0 * r->warps);
        double lat = gc_arch_alu(h, "imad")->latency_cyc.v;
        double want = 2 * h->memory.l2.latency_cyc.v + ceil(k->pred.waves) * (200 + 12 * o) * lat;
        double got = (k->kernel_us - (k->pred.time_us - gc_predict_host_launch_us(&k->pred))) *
                     k->pred.clock_mhz;
        CHECK_NEAR(got, want, 1e-6 * want);
    }
    /* the FFMA screening compares issue cycles: 512 x 512 x 16384 splits
     * the 8-warp 256x128 tile (two warps a sub-core), as cuBLAS's
     * simt_sgemm_256x128 split 16 (g080), not a 4-warp one */
    r = call(h, 512, 512, 16384, 1, GC_GEMM_F32, "nn", &rc, &e);
    CHECK(rc == 0 && r->fam == GC_GEMM_FAM_FFMA && r->warps == 8 && r->split > 1);
    gc_arch_destroy(h);
}

static void older_archs(void)
{
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *a = NULL, *t = NULL;
    CHECK(gc_arch_open(&a, "ampere-a100", &e) == 0 && gc_machine_attach(a, &e) == 0);
    CHECK(gc_arch_open(&t, "turing-rtx2080ti", &e) == 0 && gc_machine_attach(t, &e) == 0);
    int rc;
    if (a) {
        gc_gemm_result_t *r = call(a, 4096, 4096, 4096, 1, GC_GEMM_BF16, "nn", &rc, &e);
        CHECK(rc == 0 && r->fam == GC_GEMM_FAM_MMA && !strcmp(r->path, "mma+cp.async"));
        r = call(a, 4095, 4095, 4095, 1, GC_GEMM_F16, "nn", &rc, &e);
        CHECK(rc == 0 && r->fam == GC_GEMM_FAM_MMA_LDG);
    }
    if (t) {
        gc_gemm_result_t *r = call(t, 2048, 2048, 2048, 1, GC_GEMM_F16, "nn", &rc, &e);
        CHECK(rc == 0 && r->fam == GC_GEMM_FAM_MMA_LDG);
    }
    gc_arch_destroy(a);
    gc_arch_destroy(t);
}

int main(void)
{
    split_arithmetic();
    alignment();
    hopper();
    tensor_clock();
    descriptions();
    fixed_code();
    older_archs();
    return gc_check_failures ? 1 : 0;
}
