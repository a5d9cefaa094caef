/* ops_softmax.c - the softmax template: the kernel PyTorch's host_softmax
 * launches (pytorch aten/src/ATen/native/cuda/SoftMax.cu and
 * PersistentSoftmax.cuh, the v2.10/v2.11 tree), with that source's launch
 * arithmetic and, per warp, the instructions its compiled code executes:
 * counts per element, per row, per loop trip and per block reduction, by the
 * unit that runs them (ops_mix_t), read off the SASS listings of PyTorch
 * 2.11's sm_90 build with every instruction's executed count
 * (model/validation/data/h200/sass/: o036 and o041 softmax_warp_forward,
 * o038 and o044 cunn_SoftMaxForwardReg, o042 cunn_SoftMaxForward). Each
 * kernel runs its steps one after another (the loads and the max, the sum,
 * the output), one phase of the description each, so that the predictor
 * adds their latencies. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops_build.h"

/* ---- softmax_warp_forward ---- */

/* Per element a lane holds (o041: bf16, one row of 16 a lane; o036: f16,
 * two rows of 4): the load's bound check, index and -inf default (ISETP,
 * IADD3, MOV; then LDG); exp(x - max) as expf compiles without fast math
 * (FADD, FFMA.SAT, FFMA.RM, FADD, 2 FFMA, MUFU.EX2, the exponent's shift,
 * FMUL) and the sum's FADD; the store of x / sum: the IEEE division
 * (MUFU.RCP, 5 FFMA, FCHK), the pack, the bound check that leaves the loop
 * and its convergence (BSSY, BRA, BSYNC, EXIT: 8), the thread index read
 * again (S2R, ULDC), STG. Per row: the sum != 0 test and the row's store
 * address. Per warp: parameters, indices, the row offset, constants. */
static const ops_mix_t W_LOAD = {.ialu = 3};
static const ops_mix_t W_EXP = {.ffma = 7, .imad = 0.5, .ialu = 0.5, .mufu = 1};
static const ops_mix_t W_STORE = {.ffma = 5, .ialu = 2, .mufu = 1, .fchk = 1,
                                  .bra = 8, .uni = 1, .ldc = 1};
static const ops_mix_t W_ROW = {.fcmp = 1, .ialu = 4};
static const ops_mix_t W_FIXED = {.ldc = 6, .uni = 3, .imad = 5, .ialu = 4, .bra = 1};

/* The warp kernel's launch (dispatch_softmax_forward): next_pow2 = the
 * power of two >= cols, WARP_SIZE = min(next_pow2, 32), WARP_ITERATIONS =
 * next_pow2 / WARP_SIZE, WARP_BATCH = 2 rows when next_pow2 <= 128 else 1;
 * 128 threads per block as (WARP_SIZE, 128 / WARP_SIZE). */
typedef struct wcfg {
    double ws, wi, wb; /* WARP_SIZE, WARP_ITERATIONS, WARP_BATCH */
    double e;          /* elements a lane holds: wb x wi */
    double st;         /* stores a lane runs per row: ceil(cols / ws) (it leaves the loop) */
    double lv;         /* butterfly levels: log2(ws) */
} wcfg_t;

static void warp_config(double C, wcfg_t *w)
{
    double pow2 = 1;
    while (pow2 < C)
        pow2 *= 2;
    w->ws = fmin(pow2, 32);
    w->wi = pow2 / w->ws;
    w->wb = pow2 <= 128 ? 2 : 1;
    w->e = w->wb * w->wi;
    w->st = ceil(C / w->ws);
    w->lv = log2(w->ws);
}

/* A warp issues in order, and the compiled code leaves it waiting through
 * chains (sass_path.py on the listings in data/h200/sass/: o036 o037 o041
 * p025, d001-d008 of torch/diag_args_softmax.txt), counted here in steps of
 * the ALU's latency (4.1 cycles on the H200):
 * - exp and the sum: the compiler interleaves two elements, 21-22 cycles an
 *   element (5 steps) in each row's chain;
 * - each store waits through its own bound check (the thread index read
 *   again, S2R), the division (MUFU.RCP, 5 FFMA, FCHK and the branch past
 *   the slow path) and the pack: 77-79 cycles (19 steps) a store.
 * Not counted: 16-bit elements load about 6 at a time in the listings (each
 * conversion to f32 waits for its load before the next load issues; 32
 * loads: 5.3 DRAM round trips, 64: 10.4), f32 ones all at once. Counted as
 * such, the predictor's later waves (each starting in lockstep) wait
 * through all of it where the train rows o037 and o041 (8-16 warps a
 * sub-core) show it hidden: +11 and +17 % against -5 and +7 % without. */
#define W_EXP_STEPS 5
#define W_STORE_STEPS 19

/* The three steps of softmax_warp_forward: the loads and the row's max
 * (FSETP + FSEL per element after the first, then the butterfly: a
 * shuffle and FSETP + FSEL per level, each level waiting for the one
 * before); exp and the sum (one accumulator: the FADDs are a chain), then
 * the sum's butterfly; the stores. */
static void warp_phases(kb_t *b, gc_kernel_t *k, const wcfg_t *w, double C, int sz,
                        const char *dtype)
{
    gc_kphase_t *P = &k->prologue, *L = &k->loop, *E = &k->epilogue;
    P->trips = L->trips = E->trips = 1;
    double lanes = 32 / w->ws; /* logical warps in a hardware warp */
    ops_mix_t wid = ops_widen(dtype), m = W_FIXED;
    gc_kop_t *ld = kb_ldg(b, P, sz, w->e, 0);
    ld->active = fmin(32, lanes * C / w->wi);
    ops_mix_add(&m, &W_LOAD, w->e);
    ops_mix_add(&m, &wid, w->e);
    m.fcmp += 2 * (w->e - w->wb);
    kb_mix(b, P, &m, 1);
    gc_kop_t *s = kb_op(b, P, GC_OP_SHFL, w->lv * w->wb);
    s->chains = w->wb;
    kb_alu(b, P, "fsetp", 2 * w->lv * w->wb, w->wb);
    m = (ops_mix_t){0};
    ops_mix_add(&m, &W_EXP, w->e);
    m.ffma -= W_EXP.ffma * w->e; /* exp's FFMAs, the chain counted next */
    kb_mix(b, L, &m, 1);
    kb_alu(b, L, "ffma", W_EXP.ffma * w->e, 0)->depth = W_EXP_STEPS * w->wi;
    kb_alu(b, L, "fadd", w->e, w->wb);
    s = kb_op(b, L, GC_OP_SHFL, w->lv * w->wb);
    s->chains = w->wb;
    kb_alu(b, L, "fadd", w->lv * w->wb, w->wb);
    m = (ops_mix_t){0};
    ops_mix_add(&m, &W_STORE, w->wb * w->st);
    ops_mix_add(&m, &W_ROW, w->wb);
    m.f2fp = sz == 2 ? w->wb * w->st : 0;
    m.ffma -= W_STORE.ffma * w->wb * w->st; /* the division's FFMAs, the chain counted next */
    kb_mix(b, E, &m, 1);
    kb_alu(b, E, "ffma", W_STORE.ffma * w->wb * w->st, 0)->depth = W_STORE_STEPS * w->wb * w->st;
    gc_kop_t *st = kb_stg(b, E, sz, w->wb * w->st);
    st->active = fmin(32, lanes * C / w->st);
}

/* softmax_warp_forward<WARP_BATCH, WARP_ITERATIONS, WARP_SIZE> (pytorch
 * aten/src/ATen/native/cuda/PersistentSoftmax.cuh), taken by host_softmax
 * (SoftMax.cu) when cols <= 2048 and cols * sizeof <= 8192; grid =
 * ceil(rows / (WARP_BATCH * 128 / WARP_SIZE)). */
static int softmax_warp(const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    int sz = ops_dsize(g->dtype);
    double R = (double)g->rows, C = (double)g->cols;
    wcfg_t w;
    warp_config(C, &w);
    char name[80];
    snprintf(name, sizeof(name), "softmax_warp_forward<%d,%d,%d>", (int)w.wb, (int)w.wi,
             (int)w.ws);
    kb_t b;
    gc_kernel_t *k = kb_start(&b, name,
                              "pytorch aten/src/ATen/native/cuda/PersistentSoftmax.cuh "
                              "(dispatch_softmax_forward), aten/src/ATen/native/cuda/SoftMax.cu; "
                              "counts: model/validation/data/h200/sass/o036, o041; chains: o037, d001-d008",
                              err);
    if (!k)
        return GC_ENOMEM;
    k->block[0] = (long)w.ws;
    k->block[1] = (long)(128 / w.ws);
    k->grid[0] = (long)ceil(R / (w.wb * 128 / w.ws));
    /* as compiled in PyTorch 2.11 for sm_90 (ops.csv, diag d001-d008: 24 to
     * 32 registers up to 16 elements per lane, 48 at 32, 80 at 64) */
    k->regs = w.e > 32 ? 80 : w.e > 16 ? 48 : 32;
    k->param_lines = 2; /* parameters and code (sass/o036 o037 o041: 2 lines, no far jump) */
    warp_phases(&b, k, &w, C, sz, g->dtype);
    k->read_bytes = R * C * sz;
    k->write_bytes = R * C * sz;
    return ops_push(p, &b, "softmax", err);
}

/* ---- the block kernels ---- */

/* blockReduceWarp (SoftMax.cu, as compiled in o038 and o042): a warp
 * butterfly (5 shuffles, each followed by its combine: FSETP + FSEL for the
 * max, FADD for the sum, a chain), lane 0's partial to shared memory, a
 * barrier, the first warp's butterfly over the partials (1 / 32 of the
 * warps), thread 0's result, barriers, the broadcast load; the lane and
 * warp indices, predicates and the branches around the first warp's part.
 * cmb: the combine's instructions (2 max, 1 sum). The independent
 * instructions go to acc (the phase emits them with its own). */
static void block_reduce(kb_t *b, gc_kphase_t *ph, int sum, double scale, ops_mix_t *acc)
{
    double lv = 5 * (1 + 1.0 / 32), cmb = sum ? 1 : 2;
    ops_mix_t m = {.ialu = 7, .imad = 1.5, .bra = 5.5, .ffma = sum ? 1.5 : 0};
    ops_mix_add(acc, &m, scale);
    /* every warp waits through 10 levels: its own 5, then, at the barrier,
     * the first warp's 5 over the partials (o044: the samples after the
     * second and fourth BAR.SYNC); once a block, a share of it a trip */
    gc_kop_t *s = kb_op(b, ph, GC_OP_SHFL, lv * scale);
    s->depth = 10 * scale;
    gc_kop_t *c = kb_alu(b, ph, sum ? "fadd" : "fsetp", cmb * lv * scale, 0);
    c->depth = cmb * 10 * scale;
    gc_kop_t *st = kb_op(b, ph, GC_OP_STS, 2 * scale);
    st->width = 4;
    st->active = 1;
    gc_kop_t *l = kb_op(b, ph, GC_OP_LDS, 2 * scale);
    l->width = 4;
    l->broadcast = 1;
    kb_op(b, ph, GC_OP_BAR, (sum ? 3 : 2) * scale);
}

/* cunn_SoftMaxForwardReg, per element a thread holds (ILP = regcnt of
 * them; o038: bf16, 4; o044: f32, 8), in its three steps: the load (bound
 * check on the 64-bit index, address: ISETP x 2, SHF, IADD3, LEA x 2,
 * IMAD.WIDE, IMAD, the pointer's LDC) and the max (FMNMX); exp(x - max)
 * and the sum (FADD, FFMA.SAT, FFMA.RM, FADD, the shift, 2 FFMA,
 * MUFU.EX2, the FFMA that accumulates, the constants, and the branch
 * around each element: BSSY, BRA, BSYNC); the output: exp again, the IEEE
 * division, the pack, the address, STG, two branch levels. The output's
 * counts are the listings' totals less the fixed part and the other two
 * steps: the f32 build recomputes the index per element (S2R, LDC, LEA,
 * SHF), the 16-bit one does not. Per block: the parameters, indices and a
 * barrier before the first reduction. */
static const ops_mix_t R_LOAD = {.ialu = 6, .imad = 2, .ldc = 1, .fcmp = 1};
static const ops_mix_t R_SUM = {.ffma = 7, .imad = 2, .ialu = 1, .mufu = 1, .bra = 3};
static const ops_mix_t R_OUT16 = {.ffma = 12.5, .imad = 3.5, .ialu = 3, .f2fp = 1, .mufu = 2,
                                  .fchk = 1, .bra = 5, .ldc = 1, .uni = 1};
static const ops_mix_t R_OUT32 = {.ffma = 13, .imad = 4, .ialu = 7.75, .mufu = 2, .fchk = 1,
                                  .bra = 5.5, .ldc = 2.625, .uni = 1.25};
static const ops_mix_t R_START = {.ldc = 3, .uni = 7, .imad = 1};

/* cunn_SoftMaxForward and cunn_SoftMaxForwardSmem per element of a 16-byte
 * vector (ILP = 16 / size of them) and per vector (trip of ilpReduce /
 * WriteFpropResultsVectorized), o042 (f16, ILP 8): the max (FMNMX; the
 * loop's index, bound and branch); exp and the sum (7 fp32 ops, the shift,
 * MUFU.EX2; per vector the loop and a constant); the output (exp, the
 * division: 13 fp32 ops, MUFU.EX2 + RCP, FCHK, a branch per element; per
 * vector the packs, the loop and STG). Per warp: the row's setup (the
 * shift, two integer divisions for the loop bounds: I2F, MUFU, F2I), and,
 * when rows are not 16-byte aligned, the first partial vector of each
 * pass (one element a thread) and the tail of each pass (G_HEAD, G_TAIL
 * per visit). */
static const ops_mix_t G_MAX_E = {.fcmp = 1};
static const ops_mix_t G_MAX_T = {.ialu = 2, .imad = 2, .bra = 1};
static const ops_mix_t G_SUM_E = {.ffma = 7, .ialu = 1, .mufu = 1};
static const ops_mix_t G_SUM_T = {.ffma = 1, .ialu = 2, .imad = 3, .bra = 1};
static const ops_mix_t G_OUT_E = {.ffma = 13, .ialu = 2, .imad = 0.5, .mufu = 2, .fchk = 1,
                                  .bra = 3};
static const ops_mix_t G_OUT_T = {.imad = 1, .bra = 1};
static const ops_mix_t G_FIXED = {.ialu = 49, .imad = 9, .mufu = 6, .bra = 17, .uni = 37,
                                  .ldc = 2, .ffma = 0.5};
static const ops_mix_t G_HEAD = {.ffma = 26, .ialu = 21.7, .imad = 2, .fcmp = 1.1, .f2fp = 1.1,
                                 .mufu = 3.3, .fchk = 1.1, .bra = 7.7, .uni = 24.5};
static const ops_mix_t G_TAIL = {.ffma = 23, .ialu = 11, .imad = 5, .fcmp = 1, .f2fp = 1,
                                 .mufu = 3, .fchk = 1, .bra = 5};

/* What a block kernel is, for its three steps. */
typedef struct bcfg {
    int reg, smem;     /* cunn_SoftMaxForwardReg, cunn_SoftMaxForwardSmem, else the plain one */
    double block;      /* threads */
    double regcnt;     /* Reg: elements a thread holds */
    double ilp;        /* 16 / size */
    double trips;      /* vectors a thread takes per pass (Reg: 1) */
    double head, tail; /* per warp: the partial first vector's share, tail visits */
} bcfg_t;

/* The vector loop of ilpReduce / WriteFpropResultsVectorized over a row of
 * C: when the row starts shift elements off a 16-byte boundary, one element
 * a thread first (C - block + shift left), then floor(left / (ILP x block))
 * vectors a thread, then the last (left mod (ILP x block)) elements one a
 * thread, as many visits a warp as the loop takes. Rows start at r x C x
 * size bytes: a share 1 - g / 16 of them misaligned (g = gcd(C x size,
 * 16)); both kinds averaged. */
static void vector_loop(double C, int sz, bcfg_t *c)
{
    long g = 16, x = (long)fmod(C * sz, 16);
    while (x) {
        long t = g % x;
        g = x;
        x = t;
    }
    double mis = 1 - g / 16.0, per = c->ilp * c->block, warps = c->block / 32;
    double left[2] = {C, fmax(0, C - c->block)}, w[2] = {1 - mis, mis};
    c->trips = c->tail = 0;
    for (int i = 0; i < 2; i++) {
        double last = fmod(left[i], per);
        c->trips += w[i] * floor(left[i] / per);
        c->tail += w[i] * ceil(last / 32) / warps;
    }
    c->head = mis;
}

/* Above 2048 columns host_softmax launches one block per row (grid = rows)
 * of SoftMaxForward_getBlockSize(cols) = min(cols, 1024) threads rounded
 * up to a warp and picks cunn_SoftMaxForwardReg when regcnt = ceil(cols /
 * block) < 10 (each thread keeps its elements in registers: one read, one
 * write); else cunn_SoftMaxForwardSmem when the row fits the 48 KiB a
 * block gets without opting in and cols % ILP == 0 (the row staged in
 * shared memory: one read); else cunn_SoftMaxForward (three reads, the
 * second and third from the L2). */
static void block_config(double C, int sz, bcfg_t *c)
{
    memset(c, 0, sizeof(*c));
    c->block = fmin(1024, ceil(fmin(C, 1024) / 32) * 32);
    c->regcnt = ceil(C / c->block);
    c->ilp = 16.0 / sz;
    double red = c->block / 32 * 4;
    c->reg = c->regcnt < 10;
    c->smem = !c->reg && C < (49152 - red) / sz && fmod(C, c->ilp) == 0;
    c->trips = 1;
    if (c->smem) /* aligned rows (the launcher checks), C % ILP == 0: no head, no tail */
        c->trips = C / (c->ilp * c->block);
    else if (!c->reg)
        vector_loop(C, sz, c);
}

/* One pass of a block kernel into acc: ILP elements a trip (Reg: regcnt
 * elements, one trip), with per: the per-element mix, trip: the per-trip
 * mix. */
static void pass_mix(ops_mix_t *acc, const bcfg_t *c, const ops_mix_t *per, const ops_mix_t *trip,
                     const char *dtype)
{
    double el = c->reg ? c->regcnt : c->ilp;
    ops_mix_t wid = ops_widen(dtype);
    ops_mix_add(acc, per, el);
    ops_mix_add(acc, &wid, el);
    if (trip)
        ops_mix_add(acc, trip, 1);
}

/* The row's element loads of a pass: the Reg kernel's regcnt element loads
 * all in flight, else a 16-byte vector a trip; again: the second and third
 * pass (from shared memory in the Smem kernel, else from the L2). */
static void pass_load(kb_t *b, gc_kphase_t *ph, const bcfg_t *c, int sz, int again)
{
    if (c->reg) {
        if (!again)
            kb_ldg(b, ph, sz, c->regcnt, 0);
    } else if (again && c->smem) {
        gc_kop_t *l = kb_op(b, ph, GC_OP_LDS, 1);
        l->width = 16;
    } else {
        gc_kop_t *l = kb_ldg(b, ph, 16, 1, 0);
        if (again)
            l->l1_hit = 0;
    }
}

/* The three steps, each a phase of c->trips trips; the per-block parts
 * (start, reductions, the misaligned rows' head and tail) spread over the
 * trips of their phase. */
static void block_phases(kb_t *b, gc_kernel_t *k, const bcfg_t *c, int sz, const char *dtype)
{
    gc_kphase_t *P = &k->prologue, *L = &k->loop, *E = &k->epilogue;
    double tr = fmax(1, c->trips), f = 1 / tr;
    P->trips = L->trips = E->trips = tr;
    ops_mix_t m = {0};
    pass_load(b, P, c, sz, 0);
    if (c->smem) {
        gc_kop_t *s = kb_op(b, P, GC_OP_STS, 1);
        s->width = 16;
    }
    pass_mix(&m, c, c->reg ? &R_LOAD : &G_MAX_E, c->reg ? NULL : &G_MAX_T, dtype);
    ops_mix_add(&m, c->reg ? &R_START : &G_FIXED, f);
    ops_mix_add(&m, &G_HEAD, c->head * f);
    ops_mix_add(&m, &G_TAIL, c->tail * f);
    kb_op(b, P, GC_OP_BAR, f);
    block_reduce(b, P, 0, f, &m);
    kb_mix(b, P, &m, 1);
    m = (ops_mix_t){0};
    pass_load(b, L, c, sz, 1);
    pass_mix(&m, c, c->reg ? &R_SUM : &G_SUM_E, c->reg ? NULL : &G_SUM_T, dtype);
    block_reduce(b, L, 1, f, &m);
    kb_mix(b, L, &m, 1);
    m = (ops_mix_t){0};
    pass_load(b, E, c, sz, 1);
    const ops_mix_t *out = c->reg ? (sz == 2 ? &R_OUT16 : &R_OUT32) : &G_OUT_E;
    pass_mix(&m, c, out, c->reg ? NULL : &G_OUT_T, dtype);
    m.f2fp += c->reg || sz != 2 ? 0 : c->ilp / 2;
    kb_mix(b, E, &m, 1);
    kb_stg(b, E, c->reg ? sz : 16, c->reg ? c->regcnt : 1);
}

static int softmax_block(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p,
                         gc_err_t *err)
{
    int sz = ops_dsize(g->dtype);
    double R = (double)g->rows, C = (double)g->cols;
    bcfg_t c;
    block_config(C, sz, &c);
    const char *name = c.reg    ? "cunn_SoftMaxForwardReg"
                       : c.smem ? "cunn_SoftMaxForwardSmem"
                                : "cunn_SoftMaxForward";
    kb_t b;
    gc_kernel_t *k = kb_start(&b, name,
                              "pytorch aten/src/ATen/native/cuda/SoftMax.cu (host_softmax, "
                              "SoftMaxForward_getBlockSize, ilpReduce, blockReduceWarp); "
                              "counts: model/validation/data/h200/sass/o038, o044, o042",
                              err);
    if (!k)
        return GC_ENOMEM;
    k->grid[0] = (long)R;
    k->block[0] = (long)c.block;
    /* registers as compiled in PyTorch 2.11's sm_90 build (ptxas, seen by
     * ncu/profiler in model/validation/data/h100/ops.csv): the Reg kernel
     * holds its ILP = regcnt elements plus a base of 22 (ILP 4: 30, ILP 8:
     * 37 -> 38 at the 8-register allocation step); the others 32 */
    k->regs = c.reg ? 22 + 2 * c.regcnt : 32;
    k->param_lines = 2; /* parameters and code (sass/o038 o042 o044: 2 lines, no far jump) */
    double red = c.block / 32 * 4;
    k->shared_bytes = c.smem ? C * sz + red : red;
    block_phases(&b, k, &c, sz, g->dtype);
    k->read_bytes = R * C * sz;
    k->write_bytes = R * C * sz;
    /* between a row's passes every row in flight is read and, by blocks in
     * their last pass, written: blocks of c.block threads fill an SM's
     * threads (their 32 registers never bind first) */
    double resident = fmin(R, floor(ops_sm_threads(a) / c.block) * ops_sms(a));
    k->reuse_bytes = resident * sz * C * 2;
    return ops_push(p, &b, "softmax", err);
}

int ops_softmax(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    int sz = ops_dsize(g->dtype);
    if (g->cols <= 2048 && g->cols * sz <= 8192)
        return softmax_warp(g, p, err);
    return softmax_block(a, g, p, err);
}
