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

/* The round-to-nearest reciprocal `1.f / x` as nvcc emits it for sm_70 and
 * newer without --use_fast_math: MUFU.RCP and two FFMAs refining it (FMA
 * pipe), and an exponent range check (IADD3, LOP3, ISETP) with a branch to
 * the slow path (integer pipe; the branch issues like one) - CUDA C++
 * Programming Guide, "Floating-Point Standard" and "Intrinsic Functions"
 * (the intrinsic __frcp_rn is this sequence). */
#define RCP_FMA 2.0
#define RCP_INT 4.0

/* One cuWelfordOnlineSum per element (layer_norm_kernel.cu): count + 1,
 * delta, the new mean (FFMA), val - new mean, m2 (FFMA): 5 fp32 ops and
 * the reciprocal; two of them (delta, then the new mean) are the carried
 * chain from element to element. */
#define WF_FMA (5.0 + RCP_FMA)
#define WF_DEPTH 2.0
/* One cuWelfordCombine: count, nA, nB, the mean (FMUL + FFMA), delta, m2
 * (FMUL, FMUL, FFMA, FADD, FADD): 11 fp32 ops and the reciprocal, behind a
 * `count > 0` test and branch; on its critical path: count, the
 * reciprocal's two FFMAs, nB, the mean, m2's last two (7 steps). */
#define WC_FMA (11.0 + RCP_FMA)
#define WC_INT (2.0 + RCP_INT)
#define WC_DEPTH 7.0

/* The per-row reduction (compute_stats) and rstd: every warp of the block
 * runs the 5-level butterfly of three shuffles and a combine, whether or
 * not its lanes read any of the row (the loops skip, the reduction does
 * not); then log2(warps) rounds in which the upper half of the warps store
 * their state (3 floats, lane 0), all wait at a barrier, the lower half
 * loads it and combines, all wait again (per warp and round: the two
 * conditions' compares and branches); then warp 0 stores the mean and m2 /
 * N (an IEEE division: the reciprocal and 2 more FFMAs), a barrier, every
 * thread loads both; rsqrt(m2 + eps) is MUFU.RSQ with its range fix-up (3
 * ops). warps: the block's warps (4). */
static void ln_reduce(kb_t *b, gc_kphase_t *R, double warps)
{
    double levels = log2(32), rounds = log2(warps);
    double stores = warps - 1, combines = warps - 1; /* over all rounds, per block */
    kb_op(b, R, GC_OP_SHFL, 3 * levels);
    kb_alu(b, R, "ffma", WC_FMA * levels, WC_FMA / WC_DEPTH);
    kb_alu(b, R, "mufu.rcp", levels + (1 + combines) / warps, 0);
    kb_alu(b, R, "isetp", WC_INT * levels + 5 * rounds + (WC_INT * combines + 8) / warps, 0);
    gc_kop_t *s = kb_op(b, R, GC_OP_STS, (3 * stores + 2) / warps);
    s->width = 4;
    s->active = 1;
    gc_kop_t *l = kb_op(b, R, GC_OP_LDS, 3 * combines / warps + 2);
    l->width = 4;
    l->broadcast = 1;
    kb_alu(b, R, "ffma", (WC_FMA * combines + 4 + 3) / warps + 3, 0);
    kb_alu(b, R, "mufu.rsq", 1, 0);
    kb_op(b, R, GC_OP_BAR, 2 * rounds + 1);
    /* the kernel's start: thread and block indices (S2R), the row's
     * offsets, the parameters */
    kb_alu(b, R, "imad", 15, 0);
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
                              "vectorized_layer_norm_kernel_impl)",
                              err);
    if (!k)
        return GC_ENOMEM;
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
    kb_alu(&b, P, "ffma", wfrac * 4 * WF_FMA, fmax(1, wfrac * WF_FMA / WF_DEPTH));
    kb_alu(&b, P, "mufu.rcp", wfrac * 4, 0);
    kb_alu(&b, P, "isetp", wfrac * 4 * RCP_INT, 0);
    kb_alu(&b, P, "f2f", wfrac * (sz == 2 ? 4 : 0), 0);
    kb_alu(&b, P, "imad", 5, 0); /* address, index, bound, branch */
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
    kb_alu(&b, E, "ffma", wfrac * 4 * 3, 0); /* x - mean, * rstd, * gamma + beta */
    kb_alu(&b, E, "f2f", wfrac * (sz == 2 ? 3 * 4 + 2 : 0), 0); /* x, gamma, beta in; y */
    kb_alu(&b, E, "imad", 7, 0); /* three addresses, index, bound, branch */
    gc_kop_t *y = kb_stg(&b, E, w, wfrac);
    y->active = lanes;
    gc_kop_t *ms = kb_stg(&b, E, 4, 2 / warps / trips); /* mean, rstd by thread 0 */
    ms->active = 1;
    k->read_bytes = R * C * sz + 2 * C * sz;
    k->write_bytes = R * C * sz + 8 * R;
    return ops_push(p, &b, "layernorm", err);
}
