/* ops_norm.c - the layernorm template: PyTorch's vectorized_layer_norm_kernel
 * (pytorch aten/src/ATen/native/cuda/layer_norm_kernel.cu,
 * launch_vectorized_layer_norm_kernel) as the three steps a block runs one
 * after another, each a phase of the description:
 *
 *   prologue  compute_stats' loop: a 4-element vector of the row per thread
 *             and trip, folded into the thread's Welford state;
 *   loop      the reduction of (mean, m2, count) over the block: a shuffle
 *             butterfly in every warp, then log2(4) rounds through shared
 *             memory between __syncthreads, then the broadcast;
 *   epilogue  the normalising loop: x again, gamma and beta, y stored.
 *
 * The predictor adds the phases' demands and their latencies (predict.c,
 * round_cycles), which is what the kernel does: no warp starts the second
 * loop before the block's reduction is done, and the reduction waits for
 * the first loop of every warp (the barriers).
 *
 * Instruction counts follow the source as nvcc compiles it without
 * --use_fast_math (PyTorch builds ATen without it; layer_norm_kernel.cu
 * says so in cuWelfordCombine's comment): `1.f / count` is the
 * round-to-nearest reciprocal, MUFU.RCP refined by two FFMAs with a
 * compare for the slow path (CUDA C++ Programming Guide, "Intrinsic
 * Functions": the IEEE-compliant reciprocal is a multi-instruction
 * sequence). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops_build.h"

/* Instructions per element of one cuWelfordOnlineSum (count + 1, the
 * reciprocal, delta, new mean, val - new mean, m2): fp32 ops on the FMA
 * pipe, the reciprocal's MUFU and its slow-path compare. */
#define WF_FMA 7.0
/* One cuWelfordCombine: count, coef = 1 / count (MUFU + 2 FFMA), nA, nB,
 * the mean (FMUL + FFMA), delta, m2 (3 FMUL/FFMA + 2 FADD). */
#define WC_FMA 12.0
/* Dependent fp32 steps of a combine on its critical path: count, the two
 * refinement FFMAs, nB, the mean and m2's last two. */
#define WC_DEPTH 7.0

/* The per-row reduction (compute_stats): every warp of the block runs the
 * 5-level butterfly of three shuffles and a combine, whether or not its
 * lanes read any of the row (the loops skip, the reduction does not); then
 * log2(warps) rounds in which the upper half of the warps store their
 * state, all wait at a barrier, the lower half loads and combines, all
 * wait again; then warp 0 stores the result, a barrier, every thread loads
 * it. warps: the block's warps (4). */
static void ln_reduce(kb_t *b, gc_kphase_t *R, double warps)
{
    double levels = log2(32), rounds = log2(warps);
    kb_op(b, R, GC_OP_SHFL, 3 * levels);
    kb_alu(b, R, "ffma", WC_FMA * levels, WC_FMA / WC_DEPTH);
    kb_alu(b, R, "mufu.rcp", levels, 1);
    kb_alu(b, R, "fsetp", 2 * levels, 0);
    /* the shared-memory rounds: one warp in two stores, the others load;
     * per warp on average half an access of each per round */
    gc_kop_t *s = kb_op(b, R, GC_OP_STS, 3 * rounds / 2 + 2.0 / warps);
    s->width = 4;
    s->active = 1;
    gc_kop_t *l = kb_op(b, R, GC_OP_LDS, 3 * rounds / 2 + 2);
    l->width = 4;
    l->broadcast = 1;
    kb_alu(b, R, "ffma", WC_FMA * rounds / 2, 0);
    kb_op(b, R, GC_OP_BAR, 2 * rounds + 1);
    /* rsqrt(m2 / N + eps): MUFU.RSQ and its refinement */
    kb_alu(b, R, "mufu.rsq", 1, 1);
    kb_alu(b, R, "ffma", 4, 1);
    kb_alu(b, R, "imad", 16, 0); /* row offset, thread index, loop bounds */
}

int ops_layernorm(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    int sz = ops_dsize(g->dtype);
    double R = (double)g->rows, C = (double)g->cols;
    if (g->cols % 4)
        return gc_err_set(err, GC_EUSAGE, "layernorm: --cols %ld is not a multiple of 4 (the "
                          "vectorized kernel modelled needs it)", g->cols);
    kb_t b;
    kb_start(&b, "vectorized_layer_norm_kernel",
             "pytorch aten/src/ATen/native/cuda/layer_norm_kernel.cu "
             "(launch_vectorized_layer_norm_kernel, compute_stats, "
             "vectorized_layer_norm_kernel_impl)");
    gc_kernel_t *k = b.k;
    if (!k)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    /* grid = rows, block (32, num_threads() / 32) = (32, 4); shared
     * threads.y * 3 / 2 floats (launch_vectorized_layer_norm_kernel) */
    const double threads = 128, warps = 4;
    k->grid[0] = (long)R;
    k->block[0] = 32;
    k->block[1] = 4;
    /* registers as compiled in PyTorch 2.11's sm_90 build (ptxas, seen by
     * the profiler in model/validation/data/h100/ops.csv): 32 for the
     * 16-bit types, 39 for float */
    k->regs = sz == 2 ? 32 : 39;
    k->shared_bytes = warps * 3 / 2 * 4;
    /* n_vec_to_read = cols / 4 vectors, thread t takes t, t + 128, ...:
     * trips of the busiest thread; lanes and warps that hold a vector */
    double nvec = C / 4, trips = ceil(nvec / threads);
    double busy = fmin(threads, nvec);
    double lanes = fmin(32, busy), wfrac = ceil(busy / 32) / warps;
    double w = 4 * sz;
    gc_kphase_t *P = &k->prologue, *L = &k->loop, *E = &k->epilogue;
    /* compute_stats' loop: the Welford state is carried from element to
     * element (delta, then the new mean: two dependent fp32 steps each),
     * and the next trip's load is issued after this trip's updates (the
     * loop is not unrolled ahead of its carried state) */
    P->trips = trips;
    gc_kop_t *x = kb_ldg(&b, P, w, wfrac, 0);
    x->active = lanes;
    kb_alu(&b, P, "ffma", wfrac * 4 * WF_FMA, fmax(1, wfrac * WF_FMA / 2));
    kb_alu(&b, P, "mufu.rcp", wfrac * 4, 0);
    kb_alu(&b, P, "fsetp", wfrac * 4, 0);
    kb_alu(&b, P, "f2f", wfrac * (sz == 2 ? 4 : 0), 0);
    kb_alu(&b, P, "imad", 3, 0); /* index, bound, branch */
    L->trips = 1;
    ln_reduce(&b, L, warps);
    /* the second loop: x again (from the L1 while the rows of the blocks
     * resident on an SM fit in it, memory.l1.size_kib; else from the L2),
     * gamma and beta (shared by every block: in the L1 after the first) */
    E->trips = trips;
    double live = fmin(floor(ops_sm_threads(a) / threads), ceil(R / ops_sms(a)));
    double l1 = a->memory.l1.size_kib.set ? a->memory.l1.size_kib.v * 1024 : 0;
    gc_kop_t *x2 = kb_ldg(&b, E, w, wfrac, 0);
    x2->active = lanes;
    x2->l1_hit = l1 > 0 ? fmin(1, l1 / (live * C * sz)) : 1;
    double per_sm = fmax(1, R / ops_sms(a)); /* rows an SM runs */
    gc_kop_t *gb = kb_ldg(&b, E, w, 2 * wfrac, 0);
    gb->active = lanes;
    gb->l1_hit = 1 - 1 / per_sm;
    kb_alu(&b, E, "ffma", wfrac * 4 * 4, 0); /* x - mean, * rstd, * gamma, + beta */
    kb_alu(&b, E, "f2f", wfrac * (sz == 2 ? 4 * 4 : 0), 0); /* x, gamma, beta in; y out */
    kb_alu(&b, E, "imad", 3, 0);
    gc_kop_t *y = kb_stg(&b, E, w, wfrac);
    y->active = lanes;
    gc_kop_t *ms = kb_stg(&b, E, 4, 2 / warps / trips); /* mean, rstd by thread 0 */
    ms->active = 1;
    k->read_bytes = R * C * sz + 2 * C * sz;
    k->write_bytes = R * C * sz + 8 * R;
    return ops_push(p, &b, "layernorm", err);
}
