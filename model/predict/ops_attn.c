/* ops_attn.c - the attention template: the FlashAttention-2 forward kernel
 * PyTorch vendors (conv2d: ops_conv.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "ops_build.h"
#include "predict.h"

/* Kernel_traits of the forward kernel FlashAttention-2 picks (pytorch
 * aten/src/ATen/native/transformers/cuda/flash_attn/flash_fwd_launch_template.h,
 * run_mha_fwd_hdim32/64/96/128, no dropout): hdim 32 and 64: 128 x 128
 * blocks, 4 warps; hdim 96: 128 x 64 (sm86/sm89 causal: 64 x 64); hdim 128:
 * 128 x 64 on sm80 and sm90, on sm86/sm89 128 x 32 (64 x 64 causal). The
 * head dimension runs at the next of these sizes. */
typedef struct fa_cfg {
    int d, bm, bn, warps;
} fa_cfg_t;

static int fa_config(const gc_arch_t *a, long d, int causal, fa_cfg_t *c)
{
    int cc = gc_arch_cc(a);
    int sm8x = cc / 10 == 8 && cc % 10 > 0;
    c->warps = 4;
    if (d <= 32 || d <= 64) {
        c->d = d <= 32 ? 32 : 64;
        c->bm = 128;
        c->bn = 128;
    } else if (d <= 96) {
        c->d = 96;
        c->bm = sm8x && causal ? 64 : 128;
        c->bn = 64;
    } else if (d <= 128) {
        c->d = 128;
        c->bm = sm8x && causal ? 64 : 128;
        c->bn = sm8x && !causal ? 32 : 64;
    } else {
        return -1;
    }
    return 0;
}

/* K / V blocks row block m visits: all of them, or with --causal those up
 * to the diagonal (flash_fwd_kernel.h: n_block_max = min(ceil(S / bn),
 * ceil((m_block + 1) * bm / bn))). */
static double fa_block_trips(double S, const fa_cfg_t *c, int causal, double m)
{
    double nb = ceil(S / c->bn);
    return causal ? fmin(nb, ceil((m + 1) * c->bm / c->bn)) : nb;
}

/* The row blocks' trips averaged. */
static double fa_trips(double S, const fa_cfg_t *c, int causal)
{
    double mb = ceil(S / c->bm), sum = 0;
    for (double m = 0; m < mb; m++)
        sum += fa_block_trips(S, c, causal, m);
    return sum / mb;
}

/* Push t onto the min-heap h of n entries (n + 1 after). */
static void heap_push(double *h, long n, double t)
{
    long i = n;
    for (; i > 0 && h[(i - 1) / 2] > t; i = (i - 1) / 2)
        h[i] = h[(i - 1) / 2];
    h[i] = t;
}

/* Replace the smallest entry of the min-heap h of n entries by t. */
static void heap_top(double *h, long n, double t)
{
    long i = 0;
    for (;;) {
        long l = 2 * i + 1, r = l + 1, m = i;
        double v = t;
        if (l < n && h[l] < v)
            m = l, v = h[l];
        if (r < n && h[r] < v)
            m = r;
        if (m == i)
            break;
        h[i] = h[m];
        i = m;
    }
    h[i] = t;
}

/* What a slot spends on the grid, in K/V-block trips per wave of blocks:
 * each block costs its trips (fa_block_trips) plus F, its once-per-block
 * work in trips; the block scheduler starts blocks in linear index order
 * (blockIdx.x = m_block fastest: grid (ceil(S / bm), B, H)) on whichever
 * of the `slots` resident places frees first, so in a causal grid the last
 * long row blocks decide when the kernel ends. The list-scheduling makespan
 * over ceil(G / slots) waves, each slot running its blocks one after
 * another at one pace: FlashAttention-2's warps are latency-bound (ncu on
 * the H200, model/validation/data/h200/diag_summary.csv: 2 warps per
 * scheduler issuing 41-49 % of slots, top stall `wait'; in o031's SASS a
 * single block per SM spends about as long on a K/V block as two blocks per
 * SM do), so a slot runs at its own pace whatever its neighbour does.
 * Without memory for the heap: the mean trips plus F. */
static double fa_slot_trips(const fa_cfg_t *c, const gc_ops_args_t *g, double slots, double F)
{
    double S = (double)g->seq, mb = ceil(S / c->bm), mean = fa_trips(S, c, g->causal);
    double G = mb * g->batch * g->heads;
    if (!g->causal || !(slots >= 1) || G <= 1)
        return mean + F;
    long ns = (long)fmin(slots, G), n = 0;
    double *h = malloc(sizeof(*h) * (size_t)ns), end = 0;
    if (!h)
        return mean + F;
    for (double b = 0; b < G; b++) {
        double t = fa_block_trips(S, c, 1, fmod(b, mb)) + F;
        if (n < ns)
            heap_push(h, n++, t), end = fmax(end, t);
        else
            end = fmax(end, h[0] + t), heap_top(h, n, h[0] + t);
    }
    free(h);
    return end / ceil(G / ns);
}

/* Instructions per warp in one trip of k's three step phases. */
static double fa_trip_insts(const gc_kernel_t *k)
{
    const gc_kphase_t *ph[3] = {&k->prologue, &k->loop, &k->epilogue};
    double n = 0;
    for (int i = 0; i < 3; i++)
        for (size_t j = 0; j < ph[i]->n_ops; j++)
            n += ph[i]->ops[j].count;
    return n;
}

/* A block's work outside its K/V trips, in trips (F of fa_slot_trips):
 * the code before the first and after the last trip, at the trips' pace
 * per instruction (per warp, FA2's SASS on the H200, sass/o001.1.sass,
 * o002.1, o005.1: 295-313 instructions up to the first HMMA, 435 (hdim 64)
 * and 618 (hdim 128) after the last: about 300 + 230 + 3.1 x D), and the
 * wait for the first loads, which nothing in the block hides: the Q block
 * and the first K block from DRAM at the SM's share of the read bandwidth,
 * after the DRAM latency (memory.dram.latency_cyc, bw_read_gbs). round_cyc:
 * the predicted cycles of one trip of the resident blocks. */
static double fa_fixed_trips(const gc_arch_t *a, const fa_cfg_t *c, const gc_kernel_t *k,
                             double clock_mhz, double round_cyc)
{
    const gc_machine_t *m = gc_machine_of(a);
    double D = c->d, n = fa_trip_insts(k);
    double F = n > 0 ? (300 + 230 + 3.1 * D) / n : 0;
    if (m && m->dram_rd_gbs > 0 && round_cyc > 0) {
        double bytes_cyc = m->dram_rd_gbs * 1e3 / (m->sms * clock_mhz);
        F += (m->dram_lat_cyc + (c->bm + c->bn) * D * 2 / bytes_cyc) / round_cyc;
    }
    return F;
}

/* k predicted on a at the trips it has: the cycles of one trip of the
 * resident blocks, the clock, the resident places (SMs x blocks per SM).
 * 0 when it cannot be predicted. */
static int fa_round(const gc_arch_t *a, const gc_kernel_t *k, double *round_cyc, double *clock_mhz,
                    double *slots)
{
    gc_prediction_t p;
    gc_predict_opts_t o = {0};
    gc_err_t e;
    gc_err_clear(&e);
    if (gc_predict(a, k, &o, &p, &e) || !(k->loop.trips > 0))
        return 0;
    *round_cyc = (p.cycles - p.breakdown[GC_R_LAUNCH]) / (ceil(p.waves) * k->loop.trips);
    *clock_mhz = p.clock_mhz;
    *slots = ops_sms(a) * p.blocks_per_sm;
    return 1;
}

/* One K/V block of the main loop per warp (flash_fwd_kernel.h,
 * compute_attn_1rowblock), as the three steps each iteration runs one after
 * another, one phase of the description each, all with the loop's trips
 * (the predictor runs the phases one after another, the blocks in step:
 * predict.c, round_of):
 *
 *   prologue  S = Q K^T: cp_async_wait<0>() and __syncthreads() for this K
 *             block, then flash::gemm: mma m16n8k16 with f32 accumulators
 *             over the warp's bm / warps rows, Q and K from shared memory by
 *             ldmatrix.x4 each k step (Is_Q_in_regs false); the V block's
 *             cp.async (16 bytes, .cg) is issued first;
 *   epilogue  softmax_rescale_o on S (softmax.h): row max (FMNMX, an
 *             Allreduce over the 4 threads of a row: 2 shuffles), exp2 (one
 *             FFMA and MUFU.EX2 per element), row sum, rescale of O; P packed
 *             to 16 bits. It needs all of S, so it starts when the warp's
 *             S = Q K^T is done, and O += P V needs all of P;
 *   loop      O += P V (flash::gemm_rs: P from registers, V by
 *             ldmatrix.x4.trans) after cp_async_wait<0>() and
 *             __syncthreads() for V; the next K block's cp.async is issued
 *             first.
 *
 * Within a warp nothing overlaps these steps, and the blocks of a wave,
 * started together, run them in step (ncu on the H200: no pipe of o001 near
 * full, data/h200/ncu_pipes9.csv). O += P V is the
 * description's loop so that the kernel runs at the tensor forms' clock
 * (predict.c, pick_clock). */
static void fa_steps(kb_t *b, gc_kernel_t *k, const fa_cfg_t *c, const char *dt)
{
    double mw = (double)c->bm / c->warps, D = c->d, BN = c->bn;
    double e = mw * BN / 32; /* S elements per thread */
    double rows = mw / 8;    /* rows per thread (2 per m16 tile) */
    gc_kphase_t *S = &k->prologue, *X = &k->epilogue, *O = &k->loop;
    gc_kop_t *m = kb_op(b, S, GC_OP_MMA, (mw / 16) * (BN / 8) * (D / 16));
    m->inst = "mma";
    m->shape = "m16n8k16";
    m->a = dt;
    m->c = "f32";
    m->chains = (mw / 16) * (BN / 8); /* independent accumulators of S */
    gc_kop_t *l = kb_op(b, S, GC_OP_LDMATRIX, (mw * D * 2 + BN * D * 2) / 512);
    l->num = 4;
    gc_kop_t *cp = kb_op(b, S, GC_OP_CP_ASYNC, BN * D * 2 / 512 / c->warps);
    cp->width = 16;
    cp->l1 = 0;
    kb_op(b, S, GC_OP_BAR, 1);
    kb_alu(b, S, "imad", 6, 0);
    /* softmax.h, scale_apply_exp2 and softmax_rescale_o, as the SASS runs
     * them (ncu's per-opcode counts of this kernel on the lent H100, b2 h32
     * s4096 d128: FMUL 336, FADD 128, FSETP 72, FMNMX 72, MUFU 68, F2FP 33,
     * SHFL 8 per warp and K/V block): the score times the log2 scale (FMUL)
     * minus the row max (FADD), not fused; exp2f is ex2.approx.f32 without
     * .ftz, which handles subnormal results around MUFU.EX2 with a range
     * test and a scaling before and after (FSETP, 2 FMUL); the row sum
     * (FADD); the O accumulators and the row sum rescaled (FMUL); the row
     * max joins the row's 4 threads with 2 shuffles per row (quad_allreduce_) */
    kb_alu(b, X, "fmnmx", e + 2 * rows, 0);
    kb_alu(b, X, "fsetp", e + 2 * rows, 0);
    kb_alu(b, X, "fmul", 3 * e + mw * D / 32 + rows, 0);
    kb_alu(b, X, "fadd", 2 * e, 0);
    kb_alu(b, X, "mufu.ex2", e + rows, 0);
    kb_alu(b, X, "f2fp", e / 2, 0); /* F2FP.F16.F32.PACK_AB: the ALU pipe */
    kb_op(b, X, GC_OP_SHFL, 2 * rows);
    gc_kop_t *m2 = kb_op(b, O, GC_OP_MMA, (mw / 16) * (D / 8) * (BN / 16));
    m2->inst = "mma";
    m2->shape = "m16n8k16";
    m2->a = dt;
    m2->c = "f32";
    m2->chains = (mw / 16) * (D / 8); /* independent accumulators of O */
    gc_kop_t *lv = kb_op(b, O, GC_OP_LDMATRIX, BN * D * 2 / 512);
    lv->num = 4;
    gc_kop_t *cv = kb_op(b, O, GC_OP_CP_ASYNC, BN * D * 2 / 512 / c->warps);
    cv->width = 16;
    cv->l1 = 0;
    kb_op(b, O, GC_OP_BAR, 1);
    kb_alu(b, O, "imad", 6, 0);
}

/* The causal mask (flash_fwd_kernel.h: n_masking_steps = ceil(bM / bN)
 * iterations of a row block, the ones that reach the diagonal, run
 * Mask::apply_mask with causal limits; mask.h): per score a column-index
 * compare and a select of -inf (ISETP, FSEL), and per column of the
 * thread's fragment its index and limit (two integer ops). Averaged over
 * the row block's trips, as the trips are. */
static void fa_mask(kb_t *b, gc_kphase_t *X, const fa_cfg_t *c, double trips, int causal)
{
    if (!causal || !(trips > 0))
        return;
    double mw = (double)c->bm / c->warps, BN = c->bn;
    double e = mw * BN / 32; /* S elements per thread */
    double steps = fmin(trips, ceil((double)c->bm / c->bn));
    kb_alu(b, X, "isetp", (e + BN / 8 * 2) * steps / trips, 0);
    kb_alu(b, X, "sel", e * steps / trips, 0);
}

int ops_attention(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    fa_cfg_t c;
    /* FlashAttention-2 is built for sm_80 and newer only (flash_attn
     * README: "Ampere, Ada, or Hopper GPUs"; PyTorch's sdp_utils.cpp
     * check_sm_version for the flash backend: sm80 to sm12x); older GPUs run
     * the memory-efficient kernel, which this template does not model */
    if (gc_arch_cc(a) < 80)
        return gc_err_set(err, GC_EUSAGE, "attention: the arch %s (cc %d.%d) cannot run "
                          "FlashAttention-2 (sm_80 or newer); use an Ampere, Ada or Hopper arch",
                          a->name, gc_arch_cc(a) / 10, gc_arch_cc(a) % 10);
    if (g->head_dim % 8 || fa_config(a, g->head_dim, g->causal, &c))
        return gc_err_set(err, GC_EUSAGE, "attention: --head-dim %ld is not supported (the "
                          "template models FlashAttention-2 head dims up to 128, multiples of "
                          "8)", g->head_dim);
    double B = (double)g->batch, H = (double)g->heads, S = (double)g->seq;
    char name[96];
    snprintf(name, sizeof(name), "flash_fwd_kernel<hdim%d,%d,%d,%d>%s", c.d, c.bm, c.bn,
             c.warps, g->causal ? " causal" : "");
    kb_t b;
    gc_kernel_t *k = kb_start(&b, name,
                              "pytorch aten/src/ATen/native/transformers/cuda/flash_attn/"
                              "flash_fwd_launch_template.h, flash_fwd_kernel.h, kernel_traits.h",
                              err);
    if (!k)
        return GC_ENOMEM;
    /* run_flash_fwd: grid (ceil(S / bm), B, H), kNThreads = 32 * warps,
     * shared Q + K + V blocks (kernel_traits.h, Share_Q_K_smem false) */
    k->grid[0] = (long)ceil(S / c.bm);
    k->grid[1] = g->batch;
    k->grid[2] = g->heads;
    k->block[0] = 32 * c.warps;
    k->regs = 255;
    /* parameters and code (sass/o001: 7 lines; causal o002 o005: 8; no far jump) */
    k->param_lines = g->causal ? 8 : 7;
    double D = c.d;
    k->shared_bytes = (c.bm + 2.0 * c.bn) * D * 2;
    double mean = fa_trips(S, &c, g->causal);
    k->prologue.trips = k->loop.trips = k->epilogue.trips = mean;
    k->prologue.stages = k->loop.stages = 2; /* V, the next K: in flight over a step */
    fa_steps(&b, k, &c, g->dtype);
    fa_mask(&b, &k->epilogue, &c, mean, g->causal);
    /* once per block, spread over its trips: the Q block in (cp.async), the
     * O block out (scaled by 1 / row sum, through shared memory: its STS and
     * LDS are a few per thread and left out) */
    gc_kop_t *q = kb_op(&b, &k->prologue, GC_OP_CP_ASYNC, c.bm * D * 2 / 512 / c.warps / mean);
    q->width = 16;
    q->l1 = 0;
    double ow = c.bm * D * 2 / 512 / c.warps / mean;
    kb_alu(&b, &k->epilogue, "fmul", c.bm * D / 32 / c.warps / mean, 0);
    kb_stg(&b, &k->epilogue, 16, ow);
    double qkv = B * H * S * g->head_dim * 2;
    k->read_bytes = 3 * qkv;
    k->write_bytes = qkv + B * H * S * 4;
    /* K and V are re-read by every row block of a head, from the L2 while the
     * heads in flight (two blocks per SM) keep theirs there */
    double heads_live = ceil(2 * ops_sms(a) / ceil(S / c.bm));
    k->reuse_bytes = fmin(3 * qkv, heads_live * 2 * S * g->head_dim * 2);
    /* the trips a slot spends per wave: the row blocks' trips plus each
     * block's work outside them, as the blocks are dispatched
     * (fa_slot_trips, fa_fixed_trips) */
    double round = 0, clk = 0, slots = 0;
    if (b.ok && fa_round(a, k, &round, &clk, &slots))
        k->prologue.trips = k->loop.trips = k->epilogue.trips =
            fa_slot_trips(&c, g, slots, fa_fixed_trips(a, &c, k, clk, round));
    return ops_push(p, &b, "attention", err);
}
