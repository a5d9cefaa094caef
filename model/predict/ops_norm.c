/* ops_norm.c - the layernorm template: PyTorch's vectorized_layer_norm_kernel
 * (pytorch aten/src/ATen/native/cuda/layer_norm_kernel.cu,
 * launch_vectorized_layer_norm_kernel) as the three steps a block runs one
 * after another, each a phase of the description:
 *
 *   prologue  compute_stats' loop: a 4-element vector of the row per thread
 *             and trip, folded into the thread's Welford state;
 *   loop      the reduction of (mean, m2, count) over the block: a shuffle
 *             butterfly in every warp, then log2(4) rounds through shared
 *             memory between __syncthreads, then rstd and its broadcast;
 *   epilogue  the normalising loop: x again, gamma and beta, y stored.
 *
 * The predictor adds the phases' demands and their latencies (predict.c,
 * round_cycles), which is what the kernel does: no warp starts the second
 * loop before the block's reduction is done, and the reduction waits for
 * the first loop of every warp (the barriers).
 *
 * Instruction counts per vector, per butterfly level and per block are
 * those the compiled kernel executes, by unit (ops_mix_t), read off the SASS
 * listings of PyTorch 2.11's sm_90 build with each instruction's executed
 * count (model/validation/data/h200/sass/o051: bf16, 1024 columns, 2
 * vectors a thread; o054: f32, 256 columns, 2 of the 4 warps hold a
 * vector; o060: f32, 65536 columns, 128 vectors a thread). Every `1.f /
 * count` is MUFU.RCP refined by FFMAs (no fast math: cuWelfordCombine's
 * comment); every element's Welford step sits behind its own branch. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops_build.h"

/* Per block and warp: parameters and indices (o051's first 27). The f32
 * build, per warp that holds a vector, computes both loops' trip counts
 * with an integer division (I2F, MUFU.RCP, F2I) before each (o054: 2 x
 * about 30, o060 the same). */
static const ops_mix_t LN_START = {.bra = 2, .ffma = 1, .ialu = 4, .imad = 8, .ldc = 6, .uni = 6};
static const ops_mix_t LN_SETUP32 = {.ialu = 30, .imad = 10, .mufu = 6, .bra = 6, .ldc = 4,
                                     .uni = 3, .ffma = 2};

/* compute_stats per vector (4 elements, each a cuWelfordOnlineSum behind a
 * branch: count + 1, the reciprocal, delta, mean, m2): 16-bit (o051: 71,
 * the widening included); f32 unrolled by 4 (o060: 63) and its remainder
 * loop, one vector a trip (o054: 75). */
static const ops_mix_t LN_STATS16 = {.bra = 13, .ffma = 32, .ialu = 18, .imad = 3, .mufu = 4};
static const ops_mix_t LN_STATS32U = {.bra = 12.25, .ffma = 32, .ialu = 12.75, .imad = 1, .mufu = 4};
static const ops_mix_t LN_STATS32R = {.bra = 15, .ffma = 33, .ialu = 20, .imad = 3, .mufu = 4};

/* The normalising loop per vector besides its loads and store ((x - mean)
 * * rstd * gamma + beta: 12 fp32 ops): 16-bit (o051: the widening of x,
 * gamma and beta, two packs, addresses), f32 unrolled (o060) and remainder
 * (o054). */
static const ops_mix_t LN_NORM16 = {.ffma = 12, .ialu = 12.5, .imad = 9, .f2fp = 2, .bra = 1};
static const ops_mix_t LN_NORM32U = {.ffma = 12, .ialu = 1.25, .imad = 4, .ldc = 0.5, .bra = 0.25};
static const ops_mix_t LN_NORM32R = {.ffma = 13, .ialu = 23, .imad = 6, .bra = 3, .uni = 0.5,
                                     .ldc = 0.5};

/* A butterfly level (WelfordDataLN through 3 shuffles): every warp runs the
 * shuffles and the test of the count; a warp that holds data also combines
 * (cuWelfordCombine: count, the reciprocal, mean, m2; o051 all warps, o054
 * half of them). The rounds through shared memory, rstd (MUFU.RSQ and its
 * range fix-up), warp 0's division by N, the broadcast and the end (o051,
 * o054: 105). */
static const ops_mix_t LN_LEVEL = {.fcmp = 1, .ffma = 2.6, .ialu = 0.8, .bra = 2.6};
static const ops_mix_t LN_LEVEL_ACT = {.ffma = 11.2, .ialu = 2.8, .imad = 0.6, .mufu = 1,
                                       .bra = 3.8};
static const ops_mix_t LN_ROUNDS = {.bra = 20, .fchk = 0.25, .fcmp = 1.75, .ffma = 14,
                                    .ialu = 40.5, .imad = 2.5, .mufu = 2, .uni = 12};

/* How the row spreads over the block's 4 warps: n_vec_to_read = cols / 4
 * vectors, thread t takes t, t + 128, ...: warp w runs ceil((nvec - 32 w)
 * / 128) trips (none when nvec <= 32 w). */
typedef struct lcfg {
    double trips;  /* trips of the busiest warp (the block's) */
    double avg;    /* trips per warp, over the block's warps */
    double act;    /* share of the warps that hold a vector */
    double lanes;  /* lanes of a warp that hold one (its first trip) */
    double unroll; /* f32: share of the trips in the 4-unrolled loop */
} lcfg_t;

static void ln_config(double C, int sz, lcfg_t *c)
{
    double nvec = C / 4, sum = 0, n = 0;
    for (int w = 0; w < 4; w++) {
        double t = nvec > 32 * w ? ceil((nvec - 32 * w) / 128) : 0;
        sum += t;
        n += t > 0;
    }
    c->trips = ceil(nvec / 128);
    c->avg = sum / 4;
    c->act = n / 4;
    c->lanes = fmin(32, nvec);
    c->unroll = sz == 4 ? 4 * floor(c->trips / 4) / c->trips : 0;
}

/* The Welford chain of one 4-element vector, in dependent steps at the FFMA
 * latency. A warp issues in order, so each element's whole sequence waits
 * step by step, not only the two that carry the mean: count + 1, the range
 * test and its branch, MUFU.RCP and its FFMA refinement, then delta and
 * mean. The listings' trips (model/validation/sass_path.py: each instruction
 * issues when its sources are ready, 4.1 cycles an ALU op, 17 a MUFU) take
 * 204 cycles (sass/o049, f32) and 210 (sass/p022, f16) a vector without its
 * load: 50 steps of 4.1. */
#define LN_CHAIN_STEPS 50

/* The first loop (prologue, trips of the busiest warp): each trip waits for
 * its load (the loads are not issued ahead of the Welford chain), and the
 * chain of count, reciprocal and mean (LN_CHAIN_STEPS) runs through the 4
 * elements. */
static void ln_stats(kb_t *b, gc_kphase_t *P, const lcfg_t *c, int sz)
{
    double per = c->avg / c->trips, f = 1 / c->trips;
    P->trips = c->trips;
    gc_kop_t *x = kb_ldg(b, P, 4 * sz, per, 0);
    x->active = c->lanes;
    ops_mix_t m = {0};
    if (sz == 2) {
        ops_mix_add(&m, &LN_STATS16, per);
    } else {
        ops_mix_add(&m, &LN_STATS32U, per * c->unroll);
        ops_mix_add(&m, &LN_STATS32R, per * (1 - c->unroll));
        ops_mix_add(&m, &LN_SETUP32, c->act * f);
    }
    ops_mix_add(&m, &LN_START, f);
    m.ffma -= per * 8; /* the chain's FFMAs, counted next */
    kb_mix(b, P, &m, 1);
    /* a warp without a vector waits for none (per < 1: the block's share) */
    kb_alu(b, P, "ffma", per * 8, 0)->depth = LN_CHAIN_STEPS * fmin(per, 1);
}

/* The block's reduction (loop phase, once): the 5-level butterfly (3
 * shuffles a level, each level waiting for the one before), the rounds. */
static void ln_reduce(kb_t *b, gc_kphase_t *L, const lcfg_t *c)
{
    L->trips = 1;
    ops_mix_t m = {0};
    ops_mix_add(&m, &LN_LEVEL, 5);
    ops_mix_add(&m, &LN_LEVEL_ACT, 5 * c->act);
    ops_mix_add(&m, &LN_ROUNDS, 1);
    m.ffma -= 5 * 7 * c->act; /* the combine's chain and rsqrt, counted next */
    m.mufu -= 1;
    kb_mix(b, L, &m, 1);
    gc_kop_t *s = kb_op(b, L, GC_OP_SHFL, 15);
    s->chains = 3;
    kb_alu(b, L, "ffma", 5 * 7 * c->act, 1); /* the combine's chain, in the warps with data */
    kb_alu(b, L, "mufu.rsq", 1, 0);
    gc_kop_t *st = kb_op(b, L, GC_OP_STS, 4.25);
    st->width = 4;
    st->active = 1;
    gc_kop_t *l = kb_op(b, L, GC_OP_LDS, 3.25);
    l->width = 4;
    l->broadcast = 1;
    kb_op(b, L, GC_OP_BAR, 5);
}

/* The second loop (epilogue, the first loop's trips): x again (from the L1
 * while the rows of the blocks resident on an SM fit in it,
 * memory.l1.size_kib; else from the L2), gamma and beta one element a load
 * (8 loads a vector, as compiled: o051, o060; a warp's lanes 4 elements
 * apart, so a load spans 4 x its bytes; in the L1 after the SM's first row
 * and the array's first load), the normalised vector stored; thread 0
 * stores mean and rstd. */
static void ln_normalize(kb_t *b, gc_kphase_t *E, const lcfg_t *c, const gc_arch_t *a, double R,
                         double C, int sz)
{
    double per = c->avg / c->trips;
    E->trips = c->trips;
    double live = fmin(floor(ops_sm_threads(a) / 128), ceil(R / ops_sms(a)));
    double l1 = a->memory.l1.size_kib.set ? a->memory.l1.size_kib.v * 1024 : 0;
    gc_kop_t *x = kb_ldg(b, E, 4 * sz, per, 0);
    x->active = c->lanes;
    x->l1_hit = l1 > 0 && live * C * sz > l1 ? 0 : 1;
    double per_sm = fmax(1, R / ops_sms(a)); /* rows an SM runs */
    gc_kop_t *gb = kb_ldg(b, E, sz, 8 * per, 0);
    gb->active = c->lanes;
    gb->sectors = fmax(1, ceil(c->lanes * 4 * sz / 32));
    gb->l1_hit = 1 - 1 / (4 * per_sm);
    ops_mix_t m = {0};
    if (sz == 2) {
        ops_mix_add(&m, &LN_NORM16, per);
    } else {
        ops_mix_add(&m, &LN_NORM32U, per * c->unroll);
        ops_mix_add(&m, &LN_NORM32R, per * (1 - c->unroll));
    }
    /* the end: thread 0's mean and rstd (0.25 of the warps), the exit */
    ops_mix_t end = {.ialu = 1, .bra = 1.25, .imad = 0.5, .ldc = 0.75};
    ops_mix_add(&m, &end, 1 / c->trips);
    kb_mix(b, E, &m, 1);
    gc_kop_t *y = kb_stg(b, E, 4 * sz, per);
    y->active = c->lanes;
    gc_kop_t *ms = kb_stg(b, E, 4, 0.5 / c->trips); /* mean, rstd by thread 0 */
    ms->active = 1;
}

int ops_layernorm(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    int sz = ops_dsize(g->dtype);
    double R = (double)g->rows, C = (double)g->cols;
    if (g->cols % 4)
        return gc_err_set(err, GC_EUSAGE, "layernorm: --cols %ld is not a multiple of 4 (the "
                          "vectorized kernel modelled needs it)", g->cols);
    kb_t b;
    gc_kernel_t *k = kb_start(&b, "vectorized_layer_norm_kernel",
                              "pytorch aten/src/ATen/native/cuda/layer_norm_kernel.cu "
                              "(launch_vectorized_layer_norm_kernel, compute_stats, "
                              "vectorized_layer_norm_kernel_impl); counts: "
                              "model/validation/data/h200/sass/o051, o054, o060",
                              err);
    if (!k)
        return GC_ENOMEM;
    /* grid = rows, block (32, num_threads() / 32) = (32, 4); shared
     * threads.y * 3 / 2 floats (launch_vectorized_layer_norm_kernel) */
    k->grid[0] = (long)R;
    k->block[0] = 32;
    k->block[1] = 4;
    /* registers as compiled in PyTorch 2.11's sm_90 build (ptxas, seen by
     * the profiler in model/validation/data/h100/ops.csv): 32 for the
     * 16-bit types, 39 for float */
    k->regs = sz == 2 ? 32 : 39;
    /* its first pass through parameters and code (sass/o050 o051 o058: 3 lines,
     * no far jump for 16-bit input; f32: o060 1 far jump, o054 2) */
    k->param_lines = 3;
    k->far_jumps = sz == 2 ? 0 : 1;
    k->shared_bytes = 4 * 3 / 2 * 4;
    lcfg_t c;
    ln_config(C, sz, &c);
    ln_stats(&b, &k->prologue, &c, sz);
    ln_reduce(&b, &k->loop, &c);
    ln_normalize(&b, &k->epilogue, &c, a, R, C, sz);
    k->read_bytes = R * C * sz + 2 * C * sz;
    k->write_bytes = R * C * sz + 8 * R;
    return ops_push(p, &b, "layernorm", err);
}
