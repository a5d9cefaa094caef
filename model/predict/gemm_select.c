/* gemm_select.c - which kernels cuBLAS runs for a GEMM call, and their
 * prediction (gemm.h: gc_gemm_predict_call).
 *
 * The family follows rules the library documents or shows (every rule cites
 * its source; "observed" = the kernel names, grids and blocks the profiler
 * shows for cuBLAS 12 through PyTorch 2.11 on the lent H100,
 * model/validation/data/h100/gemm.csv, train rows):
 *  - TMA needs global strides that are multiples of 16 bytes (CUDA driver
 *    API, cuTensorMapEncodeTiled: globalStrides "must be a multiple of 16");
 *    so wgmma + TMA kernels only run when every leading dimension is; else
 *    mma.sync kernels with cp.async of 4 bytes (cp.async copies 4, 8 or 16
 *    bytes: PTX ISA), and 2-byte ld.global staged in registers when not even
 *    4 bytes are aligned (observed: cutlass_75_tensorop_*_align1 for 4095^3
 *    f16, cutlass_80_tensorop_*_align2 for K = 4100);
 *  - FP8 needs 16-byte aligned leading dimensions (cuBLAS docs, cublasLtMatmul
 *    FP8 requirements);
 *  - f32 without TF32 runs on CUDA cores (PyTorch leaves TF32 off for matmul
 *    by default: torch.backends.cuda.matmul.allow_tf32); a vector operand in
 *    f32 / tf32 goes to cuBLAS's GEMV (observed: gemvx for M = 1);
 *  - when the output tiles leave SMs idle, K is split over more blocks and a
 *    reduction kernel sums the f32 partials (observed: *_splitK + splitKreduce,
 *    cutlass split-K grids in z); Hopper tf32 kernels reduce in the kernel
 *    after a workspace memset (observed: segment_k_on);
 *  - persistent wgmma kernels with more than two tiles a CTA first clear a
 *    workspace (observed: [gpu_memset] before them, none otherwise).
 * Among the tiles and splits of the family, the one the model predicts
 * fastest is kept, as the library's heuristic picks for speed. No constant
 * here is fitted to a timing. */
#include "gemm_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gc_gemm_layout(const char *s)
{
    return s && strlen(s) == 2 && (s[0] == 'n' || s[0] == 't') && (s[1] == 'n' || s[1] == 't') ? 0
                                                                                               : -1;
}

/* largest power of two <= 16 dividing v */
static int pow2_div(double v)
{
    int a = 16;
    while (a > 1 && fmod(v, a) != 0)
        a /= 2;
    return a;
}

int gc_gemm_align_bytes(const gc_gemm_args_t *g)
{
    double eb = gc_gemm_in_bytes(g->dtype), ob = gc_gemm_out_bytes(g->dtype);
    double lda = g->layout[0] == 't' ? g->m : g->k; /* row-major A (M x K) or its transpose */
    double ldb = g->layout[1] == 't' ? g->k : g->n;
    /* a matrix with a dimension of 1 is a contiguous vector: its leading
     * dimension is free and only the base (PyTorch's allocator: 512-byte
     * blocks) counts */
    int al = g->m == 1 || g->k == 1 ? 16 : pow2_div(lda * eb);
    int bl = g->k == 1 || g->n == 1 ? 16 : pow2_div(ldb * eb);
    int cl = g->m == 1 || g->n == 1 ? 16 : pow2_div(g->n * ob);
    int r = al < bl ? al : bl;
    return r < cl ? r : cl;
}

int gc_gemm_split_fill(double tiles, double sms, long k, int bk, int min_steps)
{
    if (tiles >= sms || bk <= 0 || min_steps <= 0)
        return 1;
    double s = floor(sms / tiles);
    double most = floor((double)k / ((double)bk * min_steps));
    if (s > most)
        s = most;
    return s < 2 ? 1 : (int)s;
}

/* ---- candidate tiles of each family ---- */

typedef struct tile {
    int bm, bn, warps, stages;
    int regs; /* per thread, as the profiler shows the library's kernel; 0: estimated */
} tile_t;

/* wgmma (f16, bf16, f8, i8): the tiles of cuBLAS's nvjet kernels the
 * profiler shows on the train rows of both GPUs, as (64-row slabs of the
 * wgmma's M, its N) with the stages their names give (nvjet_sm90_*_AxB_KxS:
 * 24x64 and 32x128 are N x M; the stage counts are for 128-byte k steps):
 * 64x8 .. 64x128, 64x512, 128x8 .. 128x256, 192x192, 256x16, 256x128,
 * 320x128; the most accumulators, 40960 (320x128), is what 2 consumer
 * warpgroups hold with the 232 registers CUTLASS gives a consumer thread
 * (setmaxnreg; sm90 warp-specialised kernels). */
static const tile_t t_wgmma[] = {
    {64, 8, 12, 16, 0},   {64, 16, 12, 16, 0},  {64, 24, 12, 16, 0},  {64, 32, 12, 16, 0},
    {64, 48, 12, 15, 0},  {64, 64, 12, 13, 0},  {64, 128, 12, 8, 0},  {64, 512, 12, 2, 0},
    {128, 8, 12, 12, 0},  {128, 16, 12, 11, 0}, {128, 32, 12, 10, 0}, {128, 64, 12, 8, 0},
    {128, 128, 12, 6, 0}, {128, 160, 12, 5, 0}, {128, 200, 12, 5, 0}, {128, 256, 12, 4, 0},
    {192, 192, 12, 3, 0}, {256, 16, 12, 6, 0},  {256, 128, 12, 4, 0}, {320, 128, 12, 3, 0},
};
/* mma.sync: CUTLASS's sm80 / sm75 tensorop tiles (observed names) */
static const tile_t t_mma[] = {
    {64, 64, 4, 6, 0},  {128, 128, 4, 4, 0}, {256, 64, 4, 3, 0},
    {64, 256, 4, 3, 0}, {128, 256, 8, 3, 0}, {256, 128, 8, 3, 0},
};
/* mma.sync with register-staged 2-byte loads: the two tiles of cuBLAS's
 * sm75 kernels, the only ones the profiler shows on either GPU
 * (cutlass_75_tensorop_*s1688gemm_*_128x128_nn_align1 and _256x128_: every
 * f16 / bf16 row with an odd dimension, data/h100 and data/h200 gemm.csv) */
static const tile_t t_mma_ldg[] = {
    {128, 128, 4, 2, 0},
    {256, 128, 8, 2, 0},
};
/* SIMT: cuBLAS's sm80_xmma ffma tiles (tilesize32x32x8 .. 256x128x8,
 * stage3) and CUTLASS's simt_sgemm 128x64_8x5, 256x128_8x4, with the
 * registers the profiler shows for each (data/h200/gemm.csv, train rows) */
static const tile_t t_ffma[] = {
    {32, 32, 2, 3, 80},    {32, 64, 2, 3, 102},   {64, 32, 2, 3, 102},   {64, 64, 4, 3, 121},
    {128, 64, 4, 3, 224},  {64, 128, 4, 3, 224},  {128, 64, 4, 5, 120},  {128, 128, 4, 3, 254},
    {256, 128, 8, 3, 254}, {128, 256, 8, 3, 254}, {256, 128, 8, 4, 202},
};

/* tf32 on Hopper runs cuBLAS's sm90_xmma kernels, not nvjet: tile sizes
 * 64x128 and 64x256 (warpgroupsize1x1x1) and 128x256 (2x1x1), the only ones
 * the profiler shows for tf32 (data/h200/gemm.csv, data/h100/gemm.csv) */
static const tile_t t_wgmma_tf32[] = {
    {64, 128, 12, 8, 0},
    {64, 256, 12, 4, 0},
    {128, 256, 12, 4, 0},
};

/* cuBLAS's sm90_xmma tf32 kernels split K (segment_k_on, after a
 * workspace memset) only for deep K: every train row with K >= 8192 and
 * few tiles ran segment_k_on (g064, g088, g090), every one with K <= 4096
 * segment_k_off, even with half the SMs idle (g060: 64 tiles; g027, g097) */
#define TF32_SEGMENT_K_MIN 8192

/* Those tiles are at least 64 rows by 128 columns (either orientation of
 * C): with M or N below 64, every wgmma of them would leave three quarters
 * of its 64-row slab (or of its columns) empty, where mma.sync's m16 fits;
 * cuBLAS then runs the s1688 kernels with split-K (observed on both GPUs:
 * g052 16x4096x4096, g056 16x8192x8192; M = 128 runs sm90_xmma: g060,
 * g064) */
#define TF32_WGMMA_MIN_DIM 64

static const tile_t *tiles_of(gc_gemm_family_t f, gc_gemm_dtype_t dt, int *n)
{
#define TN(t) (*n = (int)(sizeof(t) / sizeof(t[0])), t)
    switch (f) {
    case GC_GEMM_FAM_WGMMA:
        return dt == GC_GEMM_TF32 ? TN(t_wgmma_tf32) : TN(t_wgmma);
    case GC_GEMM_FAM_MMA:
        return TN(t_mma);
    case GC_GEMM_FAM_MMA_LDG:
        return TN(t_mma_ldg);
    default:
        return TN(t_ffma);
    }
#undef TN
}

/* k step of a family: 128 bytes of a row (wgmma, cp.async), 64 (sm75), 8 (SIMT) */
static int kstep(gc_gemm_family_t f, gc_gemm_dtype_t dt)
{
    double eb = gc_gemm_in_bytes(dt);
    return f == GC_GEMM_FAM_FFMA ? 8 : f == GC_GEMM_FAM_MMA_LDG ? (int)(64 / eb) : (int)(128 / eb);
}

/* A tile is worth comparing when it does not overhang the problem by more
 * than one step of its kind (a tile twice the matrix only wastes work). */
static int tile_fits(const tile_t *t, long m, long n)
{
    long mm = m < 64 ? 64 : m, nn = n < 8 ? 8 : n;
    return t->bm <= 2 * mm && t->bn <= 2 * nn;
}

/* ---- the family rules ---- */

typedef struct choice {
    gc_gemm_family_t fam[2];
    int n_fam, align;
    char why[200];
} choice_t;

static int choose(const gc_arch_t *a, const gc_gemm_args_t *g, choice_t *c, gc_err_t *err)
{
    int cc = gc_arch_cc(a), al = gc_gemm_align_bytes(g);
    gc_gemm_dtype_t dt = g->dtype;
    memset(c, 0, sizeof(*c));
    c->align = al;
    int vec = g->m == 1 || g->n == 1;
    if ((dt == GC_GEMM_F32 || dt == GC_GEMM_TF32) && vec) {
        c->fam[c->n_fam++] = GC_GEMM_FAM_GEMV;
        snprintf(c->why, sizeof(c->why), "a vector operand in %s: cuBLAS's GEMV",
                 gc_gemm_dtype_name(dt));
        return 0;
    }
    if (dt == GC_GEMM_F32) {
        c->fam[c->n_fam++] = GC_GEMM_FAM_FFMA;
        snprintf(c->why, sizeof(c->why), "f32 without TF32: CUDA-core FFMA");
        return 0;
    }
    if (dt == GC_GEMM_F8E4M3 && al < 16)
        return gc_err_set(err, GC_EINPUT,
                          "gemm f8e4m3: the leading dimensions must be "
                          "multiples of 16 bytes (cuBLAS FP8 requirement); got %d-byte alignment",
                          al);
    if (cc >= 90 && al == 16) {
        int tf32 = dt == GC_GEMM_TF32;
        if (tf32 && (g->m < TF32_WGMMA_MIN_DIM || g->n < TF32_WGMMA_MIN_DIM)) {
            c->fam[c->n_fam++] = GC_GEMM_FAM_MMA;
            snprintf(c->why, sizeof(c->why),
                     "tf32 with M or N below %d: mma.sync + cp.async (cuBLAS's tf32 wgmma "
                     "tiles are 64x128 and larger)",
                     TF32_WGMMA_MIN_DIM);
            return 0;
        }
        c->fam[c->n_fam++] = GC_GEMM_FAM_WGMMA;
        if (tf32)
            c->fam[c->n_fam++] = GC_GEMM_FAM_MMA;
        snprintf(c->why, sizeof(c->why), "leading dimensions multiples of 16 bytes: TMA + wgmma%s",
                 tf32 ? " or mma.sync + cp.async" : "");
        return 0;
    }
    if (cc >= 80 && (al >= 4 || dt == GC_GEMM_TF32)) {
        c->fam[c->n_fam++] = GC_GEMM_FAM_MMA;
        snprintf(c->why, sizeof(c->why), "%s%d-byte alignment: mma.sync + cp.async of %d bytes",
                 cc >= 90 ? "no TMA at " : "", al, al >= 16 ? 16 : 4);
        c->align = al >= 16 ? 16 : 4;
        return 0;
    }
    c->fam[c->n_fam++] = GC_GEMM_FAM_MMA_LDG;
    snprintf(c->why, sizeof(c->why),
             "%d-byte alignment%s: mma.sync, %d-byte loads staged in "
             "registers",
             al, cc >= 80 ? " (cp.async needs 4)" : "", al);
    return 0;
}

/* ---- predicting specs ---- */

/* The clock a kernel holds when the call repeats for seconds: a tensor-core
 * kernel (its main loop issues mma / wgmma: gc_predict's tensor load class)
 * at the clock gpucal's clock bench measured under that sustained load
 * (traces/<gpu>/clock.csv): wgmma kernels at sm.clock_tensor_mhz, the
 * mma.sync families at sm.clock_mma_mhz (on Hopper mma.sync draws less
 * power than wgmma and the GPU holds a higher clock: ncu saw cuBLAS's
 * cutlass_75 align1 kernel at 1.80 GHz and its nvjet wgmma kernels at
 * 1.54-1.58 GHz on the lent H100, model/validation/data/h100/ncu.csv), else
 * sm.clock_tensor_mhz; not the clock of a short bench of its instruction
 * form (a variant scaled by the tensor utilisation did worse on the train
 * rows); other kernels as gc_predict times them. An arch that measured the
 * clock against tensor-pipe activity for the family's instructions
 * (sm.tensor_clock: wgmma, or mma for the mma.sync families) leaves the
 * clock to gc_predict, which times the kernel at its own activity. An
 * explicit --clock wins. */
static gc_predict_opts_t clock_for(const gc_arch_t *a, gc_gemm_family_t f,
                                   const gc_predict_opts_t *o, const char **src)
{
    gc_predict_opts_t q = {o ? o->clock_mhz : 0, o ? o->period_us : 0};
    *src = NULL;
    if (q.clock_mhz > 0 || f > GC_GEMM_FAM_MMA_LDG)
        return q;
    const char *inst = f == GC_GEMM_FAM_WGMMA ? "wgmma" : "mma";
    for (size_t i = 0; i < a->sm.n_tensor_clock; i++)
        if (a->sm.tensor_clock[i].inst && !strcmp(a->sm.tensor_clock[i].inst, inst))
            return q;
    if (f != GC_GEMM_FAM_WGMMA && a->sm.clock_mma_mhz.set) {
        q.clock_mhz = a->sm.clock_mma_mhz.v;
        *src = "sm.clock_mma_mhz (sustained mma.sync load)";
    } else if (a->sm.clock_tensor_mhz.set) {
        q.clock_mhz = a->sm.clock_tensor_mhz.v;
        *src = "sm.clock_tensor_mhz (sustained dense tensor load)";
    }
    return q;
}

static double qv(const gc_qty_t *q)
{
    return q->set && q->v > 0 ? q->v : 0;
}

/* latency of a dependent integer instruction (the arch's imad, else 4) */
static double int_lat(const gc_arch_t *a)
{
    for (size_t i = 0; i < a->n_alu; i++)
        if (a->alu[i].op && !strcmp(a->alu[i].op, "imad") && qv(&a->alu[i].latency_cyc) > 0)
            return a->alu[i].latency_cyc.v;
    return 4;
}

/* Instructions of the Hopper wgmma kernels' set-up and epilogue that one
 * consumer warp runs once per tile, each waiting for the one before (tile
 * coordinates by multiply-shift division, mbarrier set-up, the epilogue's
 * addresses: uniform-datapath integer ops, SASS of data/h200 rows g001 and
 * g041: 20 + 139 before the loop, 281 and 330 after it). */
#define WGMMA_SERIAL_INST 440

double gc_gemm_serial_cyc(const gc_arch_t *a, double n)
{
    return n * int_lat(a);
}

/* Instructions a warp of the mma.sync and FFMA kernels runs once, outside
 * its main loop, each waiting for the one before: set-up (parameters, tile
 * coordinates, the first stages' addresses) and the epilogue, per
 * accumulator a thread holds (o: scale, convert, bounds test, address,
 * store). Read off the executed-once code of the listings of the H200's
 * train rows (data/h200/sass_opcodes.csv; the cuBLAS listings are not
 * committed): xmma / CUTLASS FFMA ~200 + 12 o (g035 32x32: 204 + 140, g037
 * 128x64: 199 + 862, g039 256x128: 313 + 1569, g038 simt 256x128: 488 +
 * 1087); s1688 with cp.async ~500 + 6 o (g023 64x64: 478 + 258, g086
 * 256x64: 606 + 601); the sm75 align1 kernels, whose set-up addresses every
 * 2-byte load, ~750 + 9 o (g104 128x128: 747 + 1155). ncu's stall samples
 * put 25-50 % of these short kernels' time there (g023, g035, g086, g104:
 * 8-16 k steps a block). */
static double fixed_inst(const gc_gemm_spec_t *s)
{
    double o = (double)s->bm * s->bn / (32.0 * s->warps);
    switch (s->fam) {
    case GC_GEMM_FAM_FFMA:
        return 200 + 12 * o;
    case GC_GEMM_FAM_MMA:
        return 500 + 6 * o;
    case GC_GEMM_FAM_MMA_LDG:
        return 750 + 9 * o;
    default:
        return 0;
    }
}

/* Cycles at a kernel's two ends that no overlap hides (the model's rounds
 * are the steady state): its first operands come from the L2 when the
 * call's operands fit it (the call repeats: they stay there) else from
 * DRAM, through TMA when the family loads with it (memory.tma.latency_cyc
 * is a TMA load that hits the L2); and its last stores must reach the L2
 * before it ends. A wgmma kernel also runs its serial set-up and epilogue
 * code and, launched in clusters, waits once for the cluster's barrier (a
 * distributed shared-memory round trip); an mma.sync or FFMA kernel runs
 * its fixed code (fixed_inst) once a block, the blocks of each of its
 * `waves` (the prediction's waves of resident blocks) in turn on an SM.
 * Arch values: memory.dram / l2 latency_cyc, memory.tma,
 * memory.dsm.latency_cyc, alu imad latency. */
static double ends_cyc(const gc_arch_t *a, const gc_gemm_spec_t *s, double waves)
{
    double l2 = qv(&a->memory.l2.latency_cyc), dram = qv(&a->memory.dram.latency_cyc);
    double L2 = qv(&a->memory.l2.size_mib) * 1048576;
    double eb = gc_gemm_in_bytes(s->dt);
    int fits = ((double)s->m * s->k + (double)s->k * s->n) * eb * s->batch <= L2;
    gc_gemm_family_t f = s->fam;
    double first = f == GC_GEMM_FAM_REDUCE ? l2 : f == GC_GEMM_FAM_MEMSET ? 0 : fits ? l2 : dram;
    if (f != GC_GEMM_FAM_WGMMA) /* the fixed code of each wave's blocks, in turn on an SM */
        return first + l2 + ceil(waves) * fixed_inst(s) * int_lat(a);
    double cluster = ceil((double)s->m / s->bm) >= 2 ? qv(&a->memory.dsm.latency_cyc) : 0;
    return gc_gemm_ws_ends_cyc(a, fits, 0) + cluster;
}

double gc_gemm_ws_ends_cyc(const gc_arch_t *a, int fits, double serial_inst)
{
    double tma = qv(&a->memory.tma.latency_cyc), l2 = qv(&a->memory.l2.latency_cyc);
    double first = fits && tma > 0 ? tma
                                   : (fits ? l2 : qv(&a->memory.dram.latency_cyc)) +
                                         qv(&a->memory.tma.latency_extra_cyc);
    return first + l2 + (serial_inst > 0 ? serial_inst : WGMMA_SERIAL_INST) * int_lat(a);
}

/* Predict one kernel of spec s: its description, the model's prediction and
 * its GPU time without the launch (into kp when not NULL). */
static int predict_spec(const gc_arch_t *a, const gc_gemm_spec_t *s, const gc_predict_opts_t *o,
                        gc_gemm_kpred_t *kp, gc_gemm_result_t *info, double *us, gc_err_t *err)
{
    gc_kernel_t *k = NULL;
    gc_prediction_t p;
    const char *csrc;
    gc_predict_opts_t q = clock_for(a, s->fam, o, &csrc);
    int rc = gc_gemm_build(a, s, &k, info, err);
    if (!rc)
        rc = gc_predict(a, k, &q, &p, err);
    if (!rc && csrc)
        p.clock_source = csrc;
    if (!rc) {
        *us = p.time_us - gc_predict_host_launch_us(&p) + ends_cyc(a, s, p.waves) / p.clock_mhz;
        if (kp) {
            memset(kp, 0, sizeof(*kp));
            kp->fam = s->fam;
            kp->pred = p;
            kp->kernel_us = *us;
            for (int i = 0; i < 3; i++)
                kp->block[i] = k->block[i];
            if (s->fam == GC_GEMM_FAM_WGMMA) /* described: its consumer warps */
                kp->block[0] = 384;
            kp->regs = (int)k->regs;
            if (s->fam <= GC_GEMM_FAM_FFMA)
                gc_gemm_lib_grid(a, s, kp->grid, &kp->persistent);
            else
                for (int i = 0; i < 3; i++)
                    kp->grid[i] = k->grid[i];
        }
    }
    gc_kernel_destroy(k);
    return rc;
}

/* the split-K partials are reduced by a second kernel, except in Hopper's
 * tf32 kernels (segment-K: in the kernel, after a memset) */
static int has_reduce(const gc_gemm_spec_t *s)
{
    return s->split > 1 && !(s->fam == GC_GEMM_FAM_WGMMA && s->dt == GC_GEMM_TF32);
}

static gc_gemm_spec_t reduce_spec(const gc_gemm_args_t *g, int split)
{
    gc_gemm_spec_t r = {
        GC_GEMM_FAM_REDUCE, g->m, g->n, g->k, g->batch, g->dtype, 0, 0, 0, 1, 16, split, 4, 0, 0, 0, 0, 0};
    return r;
}

/* kp's role, and its name "<family>_<dtype>[_<bm>x<bn>x<bk>[_splitK]]" */
static void kname(gc_gemm_kpred_t *kp, const char *role, const gc_gemm_spec_t *s)
{
    gc_sbuf_copy(kp->role, sizeof(kp->role), role);
    gc_sbuf_t b;
    gc_sbuf_init(&b, kp->name, sizeof(kp->name));
    gc_sbuf_str(gc_sbuf_str(gc_sbuf_str(&b, gc_gemm_family_name(s->fam)), "_"),
                gc_gemm_dtype_name(s->dt));
    if (s->fam <= GC_GEMM_FAM_FFMA) {
        gc_sbuf_long(gc_sbuf_str(&b, "_"), s->bm);
        gc_sbuf_long(gc_sbuf_str(&b, "x"), s->bn);
        gc_sbuf_long(gc_sbuf_str(&b, "x"), s->bk);
        gc_sbuf_str(&b, s->split > 1 ? "_splitK" : "");
    }
}

/* Main kernel s and its reduction predicted into kp[0], kp[1]; *us their
 * GPU time. */
static int eval_spec(const gc_arch_t *a, const gc_gemm_args_t *g, const gc_gemm_spec_t *s,
                     const gc_predict_opts_t *o, gc_gemm_kpred_t kp[2], gc_gemm_result_t *info,
                     double *us, gc_err_t *err)
{
    double t = 0;
    int rc = predict_spec(a, s, o, &kp[0], info, &t, err);
    kname(&kp[0], "main", s);
    if (!rc && has_reduce(s)) {
        if (kp[1].grid[2] != s->split) { /* the reduction depends on the split only */
            double u;
            gc_gemm_spec_t r = reduce_spec(g, s->split);
            rc = predict_spec(a, &r, o, &kp[1], NULL, &u, err);
            kname(&kp[1], "reduce", &r);
            kp[1].grid[2] = s->split; /* cache tag; set back to the batch below */
        }
        t += kp[1].kernel_us;
    }
    *us = t;
    return rc;
}

typedef struct search {
    gc_gemm_spec_t best;
    double best_us;
    gc_gemm_kpred_t kp[2]; /* the best's main kernel and reduction */
    char inst[64];
    int n, found;
    int listed; /* candidates screened */
    gc_err_t first;
    gc_gemm_kpred_t cur[2]; /* scratch of the candidate being tried */
} search_t;

/* Predict candidate s; keep it when fastest. 0, or GC_ENOMEM (a candidate
 * the arch cannot run is skipped, its error kept for when none can). */
static int try_spec(const gc_arch_t *a, const gc_gemm_args_t *g, const gc_gemm_spec_t *s,
                    const gc_predict_opts_t *o, search_t *st)
{
    double us;
    gc_err_t e;
    gc_err_clear(&e);
    gc_gemm_result_t info;
    info.inst[0] = 0;
    int rc = eval_spec(a, g, s, o, st->cur, &info, &us, &e);
    if (rc) {
        if (!st->first.code)
            st->first = e;
        return rc == GC_ENOMEM ? rc : 0;
    }
    st->n++;
    if (!st->found || us < st->best_us) {
        st->best = *s;
        st->best_us = us;
        st->kp[0] = st->cur[0];
        st->kp[1] = st->cur[1];
        gc_sbuf_copy(st->inst, sizeof(st->inst), info.inst);
        st->found = 1;
    }
    return 0;
}

/* Pipeline stages of s that fit one block's shared memory: the library
 * ships each tile with as many stages as the arch holds (CUTLASS names the
 * count: _32x6 on sm80, _32x3 on sm86), at least 2; 0 when not even 2 fit. */
static int fit_stages(const gc_arch_t *a, const gc_gemm_spec_t *s)
{
    if (!a->sm.shared_block_max_kib.set)
        return s->stages;
    double eb = s->fam == GC_GEMM_FAM_FFMA ? 4 : gc_gemm_in_bytes(s->dt);
    double per = (double)(s->bm + s->bn) * s->bk * eb;
    double cap = a->sm.shared_block_max_kib.v * 1024 - 1024;
    int st = s->stages;
    while (st > 2 && st * per > cap)
        st--;
    return st * per <= cap ? st : 0;
}

#define CANDS_MAX 64
#define GEMM_FULL 2 /* unsplit and split candidates each predicted in full after screening */

static int try_all(const gc_arch_t *a, const gc_gemm_args_t *g, const gc_gemm_spec_t *c, int n,
                   const gc_predict_opts_t *o, search_t *st)
{
    for (int i = 0; i < n; i++) {
        int rc = try_spec(a, g, &c[i], o, st);
        if (rc)
            return rc;
    }
    return 0;
}

/* Work of one block of s: multiply-adds and operand bytes it streams, and
 * the waves its grid takes at one block per SM. */
static double cta_mac(const gc_gemm_spec_t *s)
{
    double kk = ceil(ceil((double)s->k / s->split) / s->bk) * s->bk;
    return (double)s->bm * s->bn * kk;
}

static double cta_bytes(const gc_gemm_spec_t *s)
{
    double kk = ceil(ceil((double)s->k / s->split) / s->bk) * s->bk;
    return (double)(s->bm + s->bn) * kk * gc_gemm_in_bytes(s->dt);
}

static double cta_waves(const gc_gemm_spec_t *s, double sms)
{
    return ceil(ceil((double)s->m / s->bm) * ceil((double)s->n / s->bn) * s->batch * s->split /
                sms);
}

/* The busiest sub-core's issue cycles of FFMA candidate s: its loop's
 * instructions a warp and k step (gc_gemm_ffma_step_inst), times the warps
 * a sub-core holds (the blocks the registers and the grid leave resident on
 * an SM), a lone warp at sm.issue_1warp_ratio, over the k steps and the
 * waves: the FFMA kernels are issue-bound, so the screening compares this
 * where it compares tensor work for the tensor families. */
static double ffma_issue_cyc(const gc_arch_t *a, const gc_gemm_spec_t *s, double sms)
{
    double regs = a->sm.registers.set ? a->sm.registers.v : 65536;
    double unit = a->sm.reg_alloc_unit.set ? a->sm.reg_alloc_unit.v : 256;
    double S = a->sm.sub_cores.set ? a->sm.sub_cores.v : 4;
    double per_warp = ceil((s->regs > 0 ? s->regs : 128) * 32.0 / unit) * unit;
    double occ = fmax(1, floor(regs / (per_warp * s->warps)));
    double ctas = ceil((double)s->m / s->bm) * ceil((double)s->n / s->bn) * s->batch * s->split;
    double B = fmin(occ, ceil(ctas / sms)), W = B * s->warps;
    double lone = W <= S && a->sm.issue_1warp_ratio.set ? a->sm.issue_1warp_ratio.v : 1;
    double steps = ceil(ceil((double)s->k / s->split) / s->bk);
    return ceil(ctas / (sms * B)) * ceil(W / S) * lone * steps * gc_gemm_ffma_step_inst(s);
}

/* every tile of family f in both orientations of C (wgmma slabs along M or
 * N, as cuBLAS runs C^T = B^T A^T), unsplit and split to fill the SMs */
static int list_family(const gc_arch_t *a, const gc_gemm_args_t *g, gc_gemm_family_t f, int align,
                       gc_gemm_spec_t *out)
{
    int nt, n = 0;
    const tile_t *t = tiles_of(f, g->dtype, &nt);
    double sms = a->sm.count.set ? a->sm.count.v : 1;
    int orients = f == GC_GEMM_FAM_WGMMA && g->m != g->n ? 2 : 1;
    for (int or = 0; or < orients; or ++) {
        long m = or ? g->n : g->m, n_ = or ? g->m : g->n;
        for (int i = 0; i < nt && n + 2 <= CANDS_MAX; i++) {
            if (i > 0 && !tile_fits(&t[i], m, n_)) /* the smallest tile always runs */
                continue;
            gc_gemm_spec_t s = {f,           m,          n_,
                                g->k,        g->batch,   g->dtype,
                                t[i].bm,     t[i].bn,    kstep(f, g->dtype),
                                t[i].stages, t[i].warps, 1,
                                align,       t[i].regs, 0, 0, 0, 0};
            if (f == GC_GEMM_FAM_MMA_LDG)
                s.stages = 2; /* registers hold the next k step (CUTLASS MmaPipelined) */
            if (f == GC_GEMM_FAM_WGMMA && g->dtype == GC_GEMM_TF32) {
                /* A is M-major as a transposed view, B N-major as a row-major one;
                 * C^T = B^T A^T swaps them, each keeping its order */
                int ma = g->layout[0] == 't', mb = g->layout[1] == 'n';
                s.mn_a = or ? mb : ma;
                s.mn_b = or ? ma : mb;
            }
            if (!(s.stages = fit_stages(a, &s)))
                continue;
            out[n++] = s;
            double tiles = ceil((double)m / s.bm) * ceil((double)n_ / s.bn) * g->batch;
            s.split = gc_gemm_split_fill(tiles, sms, g->k, s.bk, 4);
            if (s.split > 1 &&
                !(f == GC_GEMM_FAM_WGMMA && g->dtype == GC_GEMM_TF32 && g->k < TF32_SEGMENT_K_MIN))
                out[n++] = s;
        }
    }
    return n;
}

/* Screening (so that a call costs a few predictions, not dozens): the
 * largest unsplit tile is predicted in full, and its demands on the tensor
 * (or FFMA) pipes and on the L2 give the cycles per multiply-add and per
 * operand byte of the family; every candidate is scored with them (waves x
 * the larger of its block's two demands, plus the split partials' round
 * trip) and the best few are predicted in full. */
static int search_family(const gc_arch_t *a, const gc_gemm_args_t *g, gc_gemm_family_t f, int align,
                         const gc_predict_opts_t *o, search_t *st)
{
    gc_gemm_spec_t c[CANDS_MAX];
    int n = list_family(a, g, f, align, c), ref = -1;
    st->listed += n;
    double sms = a->sm.count.set ? a->sm.count.v : 1;
    for (int i = 0; i < n; i++)
        if (c[i].split == 1 && (ref < 0 || c[i].bm * c[i].bn > c[ref].bm * c[ref].bn))
            ref = i;
    if (ref < 0 || n <= 2 * GEMM_FULL)
        return try_all(a, g, c, n, o, st);
    int before = st->n, rc = try_spec(a, g, &c[ref], o, st);
    if (rc || st->n == before)
        return rc ? rc : try_all(a, g, c, n, o, st);
    const gc_prediction_t *p = &st->cur[0].pred; /* the reference's, until the next try */
    int pipe = f == GC_GEMM_FAM_FFMA ? GC_R_ALU : GC_R_TENSOR;
    double w = cta_waves(&c[ref], sms);
    double per_mac = p->busy[pipe] / (w * cta_mac(&c[ref]));
    double per_byte = p->busy[GC_R_L2] / (w * cta_bytes(&c[ref]));
    double score[CANDS_MAX];
    for (int i = 0; i < n; i++) {
        if (i == ref) {
            score[i] = -1; /* predicted already */
            continue;
        }
        double cs = f == GC_GEMM_FAM_FFMA
                        ? ffma_issue_cyc(a, &c[i], sms)
                        : cta_waves(&c[i], sms) *
                              fmax(cta_mac(&c[i]) * per_mac, cta_bytes(&c[i]) * per_byte);
        double part = c[i].split > 1 ? 8.0 * c[i].m * c[i].n * c[i].batch * c[i].split : 0;
        score[i] = cs + part * per_byte / sms;
    }
    /* the best scores in full: GEMM_FULL unsplit (the reference one of them)
     * and the best split one that the arch can run (a form it lacks skips
     * the candidate) */
    for (int split = 0; split < 2; split++)
        for (int got = split ? GEMM_FULL - 1 : 1; got < GEMM_FULL;) { /* ref counts */
            int best = -1;
            for (int i = 0; i < n; i++)
                if (score[i] >= 0 && (c[i].split > 1) == split &&
                    (best < 0 || score[i] < score[best]))
                    best = i;
            if (best < 0)
                break;
            score[best] = -1;
            int before = st->n, rc = try_spec(a, g, &c[best], o, st);
            if (rc)
                return rc;
            got += st->n > before;
        }
    return 0;
}

/* ---- the call ---- */

static int check_args(const gc_gemm_args_t *g, gc_err_t *err)
{
    if (g->m < 1 || g->n < 1 || g->k < 1 || g->batch < 1)
        return gc_err_set(err, GC_EUSAGE,
                          "gemm: --m, --n, --k and --batch must be >= 1 "
                          "(got %ld, %ld, %ld, %ld)",
                          g->m, g->n, g->k, g->batch);
    if (gc_gemm_layout(g->layout))
        return gc_err_set(err, GC_EUSAGE, "gemm: unknown --layout '%s' (nn, nt, tn or tt)",
                          g->layout);
    if ((int)g->dtype < 0 || g->dtype > GC_GEMM_I8)
        return gc_err_set(err, GC_EUSAGE, "gemm: unknown dtype");
    return 0;
}

/* a persistent wgmma kernel with more than two tiles a CTA, or Hopper tf32
 * segment-K, clears a workspace first (observed) */
static int has_memset(const gc_arch_t *a, const gc_gemm_spec_t *s)
{
    if (s->fam != GC_GEMM_FAM_WGMMA)
        return 0;
    double sms = a->sm.count.set ? a->sm.count.v : 1;
    double tiles = ceil((double)s->m / s->bm) * ceil((double)s->n / s->bn) * s->split * s->batch;
    return tiles > 2 * sms || (s->split > 1 && s->dt == GC_GEMM_TF32);
}

/* the kernels of the chosen candidate into r: a workspace memset when the
 * library clears one, the main kernel and its reduction as predicted */
static int assemble(const gc_arch_t *a, const search_t *st, const gc_predict_opts_t *o,
                    gc_gemm_result_t *r, gc_err_t *err)
{
    const gc_gemm_spec_t *s = &st->best;
    double us;
    if (has_memset(a, s)) {
        gc_gemm_spec_t z = *s;
        z.fam = GC_GEMM_FAM_MEMSET;
        gc_gemm_kpred_t *kp = &r->kern[r->n_kernels++];
        int rc = predict_spec(a, &z, o, kp, NULL, &us, err);
        if (rc)
            return rc;
        kname(kp, "memset", &z);
    }
    int im = r->n_kernels;
    r->kern[r->n_kernels++] = st->kp[0];
    if (has_reduce(s)) {
        r->kern[r->n_kernels] = st->kp[1];
        r->kern[r->n_kernels++].grid[2] = s->batch;
    }
    const gc_gemm_kpred_t *km = &r->kern[im];
    gc_sbuf_copy(r->inst, sizeof(r->inst), st->inst);
    r->pred = km->pred;
    r->path = gc_gemm_family_name(s->fam);
    r->fam = s->fam;
    r->tile_m = s->bm;
    r->tile_n = s->bn;
    r->tile_k = s->bk;
    r->stages = s->stages;
    r->warps = s->warps;
    r->split = s->split;
    for (int i = 0; i < r->n_kernels; i++)
        r->time_us += r->kern[i].kernel_us;
    r->launch_us = gc_predict_host_launch_us(&km->pred);
    r->clock_mhz = km->pred.clock_mhz;
    r->clock_source = km->pred.clock_source;
    return 0;
}

/* gc_gemm_predict_call, with the chosen main kernel's spec into *best. */
static int predict_call(const gc_arch_t *a, const gc_gemm_args_t *g, const gc_predict_opts_t *o,
                        gc_gemm_result_t *r, gc_gemm_spec_t *best, gc_err_t *err)
{
    memset(r, 0, sizeof(*r));
    int rc = check_args(g, err);
    choice_t c;
    if (!rc)
        rc = choose(a, g, &c, err);
    if (rc)
        return rc;
    search_t st;
    memset(&st, 0, sizeof(st));
    gc_err_clear(&st.first);
    for (int i = 0; i < c.n_fam && !rc; i++) {
        if (c.fam[i] == GC_GEMM_FAM_GEMV) {
            gc_gemm_spec_t s = {
                GC_GEMM_FAM_GEMV, g->m, g->n, g->k, g->batch, g->dtype, 32, 1, 64, 1, 16, 1, 4, 0, 0, 0, 0, 0};
            rc = try_spec(a, g, &s, o, &st);
        } else {
            rc = search_family(a, g, c.fam[i], c.align, o, &st);
        }
    }
    if (rc)
        return rc;
    if (!st.found) {
        if (err && st.first.code)
            *err = st.first;
        return st.first.code ? st.first.code
                             : gc_err_set(err, GC_EINPUT, "gemm: no kernel of the arch fits");
    }
    r->m = g->m;
    r->n = g->n;
    r->k = g->k;
    r->batch = g->batch;
    r->dtype = g->dtype;
    gc_sbuf_copy(r->layout, sizeof(r->layout), g->layout);
    r->align = c.align;
    gc_sbuf_copy(r->why, sizeof(r->why), c.why);
    if ((rc = assemble(a, &st, o, r, err)))
        return rc;
    *best = st.best;
    r->candidates = st.listed > st.n ? st.listed : st.n;
    r->predicted = st.n;
    r->tflops = 2.0 * g->m * g->n * g->k * g->batch / (r->time_us * 1e6);
    gc_sbuf_t b;
    gc_sbuf_init(&b, r->pred.kernel, sizeof(r->pred.kernel));
    gc_gemm_shape_text(gc_sbuf_str(&b, "gemm"), g->m, g->n, g->k, g->dtype);
    return 0;
}

int gc_gemm_predict_call(const gc_arch_t *a, const gc_gemm_args_t *g, const gc_predict_opts_t *o,
                         gc_gemm_result_t *r, gc_err_t *err)
{
    gc_gemm_spec_t best;
    return predict_call(a, g, o, r, &best, err);
}

int gc_gemm_call_kernels(const gc_arch_t *a, const gc_gemm_args_t *g, const gc_predict_opts_t *o,
                         gc_gemm_result_t *r, gc_kernel_t *out[GC_GEMM_KERNELS_MAX], gc_err_t *err)
{
    gc_gemm_spec_t s;
    for (int i = 0; i < GC_GEMM_KERNELS_MAX; i++)
        out[i] = NULL;
    int rc = predict_call(a, g, o, r, &s, err);
    if (rc) /* s holds no choice */
        return rc;
    gc_gemm_spec_t z = s, red = reduce_spec(g, s.split);
    z.fam = GC_GEMM_FAM_MEMSET;
    /* in assemble's order: the workspace memset, the main kernel, its reduction */
    const gc_gemm_spec_t *want[3] = {has_memset(a, &s) ? &z : NULL, &s, has_reduce(&s) ? &red : NULL};
    for (int i = 0, n = 0; !rc && i < 3; i++)
        if (want[i])
            rc = gc_gemm_build(a, want[i], &out[n++], NULL, err);
    for (int i = 0; rc && i < GC_GEMM_KERNELS_MAX; i++) {
        gc_kernel_destroy(out[i]);
        out[i] = NULL;
    }
    return rc;
}

int gc_gemm_predict(const gc_arch_t *a, long m, long n, long k, gc_gemm_dtype_t dt,
                    const gc_predict_opts_t *o, gc_gemm_result_t *r, gc_err_t *err)
{
    gc_gemm_args_t g = {m, n, k, 1, dt, "nn"};
    return gc_gemm_predict_call(a, &g, o, r, err);
}
