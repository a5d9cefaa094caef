/* ops_conv.c - the conv2d template: the kernels cuDNN 9 (as PyTorch 2.11
 * calls it for an NHWC forward convolution) launches, as the gemm
 * template's kernel descriptions (gemm_int.h: gc_gemm_build) with the
 * convolution's launch, loop and footprint. Which kernel runs for which
 * shape is what the profiler shows on the lent H100 and H200
 * (model/validation/data/{h100,h200}/ops.csv, kernels column, train rows):
 *
 *   C % 8 == 0, wgmma (sm_90): the persistent implicit GEMM
 *     sm90_xmma_fprop_implicit_gemm_*_tilesizeBMxBNxBK (384 threads, 168
 *     registers, the block's whole shared memory, at most one block per SM
 *     looping over the output tiles), in clusters that multicast a tile
 *     (sm90_kernel). 1x1 filters with stride 1 and no padding run
 *     cuBLASLt's nvjet_sm90 kernels instead (every such row): the gemm
 *     template's own kernels for that GEMM (conv_gemm);
 *   batch 1, at most 96 filters, a filter above 1x1: cutlass's sm80
 *     64x64_64x5 fprop kernel (conv_opt);
 *   C % 8 != 0 in bf16: the direct convolution for 3x3 on 3 channels, else
 *     padding copies to 8 channels and an sm80 kernel (conv_bf16_padded);
 *   C % 8 != 0 in f16: cuDNN's Tensor Core kernels load 16 bytes of channels at a
 *     time only when C is a multiple of 8; the rows with C = 3 run
 *     sm80_xmma_fprop_implicit_gemm_indexed_wo_smem_*_aligna2 (mma.sync,
 *     2-byte loads of the input, 4 warps) on the unpadded channels, or for
 *     the 7x7 stride-2 stem the padding copies and the first-layer kernel;
 *   no wgmma (sm_8x): the mma.sync + cp.async implicit GEMM of the older
 *     tile list (gemm.c), after a channel-padding copy when C % 8 != 0.
 *
 * Reads the arch only; writes nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "gemm_int.h"
#include "machine.h"
#include "ops_build.h"
#include "predict.h"

/* The convolution as a GEMM: M = N * P * Q output pixels, N = K filters,
 * K = C * R * S (C as the kernel reads it). */
typedef struct conv {
    long P, Q, M, N, K, C;
    gc_gemm_dtype_t dt;
    double in_bytes, filt_bytes, out_bytes;
} conv_t;

static void conv_init(const gc_ops_args_t *g, long P, long Q, long C, conv_t *v)
{
    v->P = P;
    v->Q = Q;
    v->C = C;
    v->M = g->n * P * Q;
    v->N = g->k;
    v->K = C * g->r * g->s;
    v->dt = !strcmp(g->dtype, "bf16") ? GC_GEMM_BF16 : GC_GEMM_F16;
    v->in_bytes = (double)g->n * g->h * g->w * C * 2;
    v->filt_bytes = (double)g->k * v->K * 2;
    v->out_bytes = (double)v->M * g->k * 2;
}

/* The implicit GEMM's footprint: only the input, the filter and the output
 * cross DRAM; each input pixel is gathered by up to R * S / stride^2 A
 * tiles, from the L2 while the input and filter fit it. */
static void conv_footprint(const conv_t *v, gc_kernel_t *k)
{
    k->read_bytes = v->in_bytes + v->filt_bytes;
    k->write_bytes = v->out_bytes;
    k->reuse_bytes = k->read_bytes;
    k->footprint_given = GC_FP_READ | GC_FP_WRITE | GC_FP_REUSE;
}

/* GPU time of kernel k on a, as the ops layer counts it (kernel_us: the
 * prediction without the host's launch share, plus its two ends); < 0
 * when the arch cannot run it. */
static double conv_us(const gc_arch_t *a, const gc_kernel_t *k)
{
    gc_prediction_t p;
    gc_predict_opts_t o = {0};
    gc_err_t e;
    gc_err_clear(&e);
    if (gc_predict(a, k, &o, &p, &e))
        return -1;
    return p.time_us - gc_predict_host_launch_us(&p) + gc_ops_ends_cyc(a, k, &p) / p.clock_mhz;
}

/* Push k under role, named name and citing source (takes k). */
static int conv_push(gc_ops_plan_t *p, gc_kernel_t *k, const char *name, const char *source,
                     const char *role, gc_err_t *err)
{
    k->name = gc_kernel_str(k, name);
    k->source = gc_kernel_str(k, source);
    kb_t b = {k, k->name != NULL && k->source != NULL};
    return ops_push(p, &b, role, err);
}

/* cuDNN's sm90 implicit-GEMM fprop tiles (BM x BN x BK), as its kernel
 * names spell them (sm90_xmma_fprop_implicit_gemm_..._tilesize64x64x64,
 * 128x64x64, 128x128x64, 128x128x32, 256x64x32 on the train rows), and the
 * instructions each runs once on its critical path where its listing was
 * read (0: the gemm template's count). The 64x64x64 kernel's (ncu's executed
 * counts, model/validation/data/h200/sass_cudnn_groups.csv, the same on o142
 * o144 p014 p015): 71-75 instructions every warp runs at entry, 508-527 its
 * producer warp runs before its first TMA load (61 constant-bank reads),
 * 486-493 each consumer warp of the tile's warpgroup after its last wgmma:
 * 71 + 524 + 493 at o144, against the 440 of cuBLAS's nvjet kernels.
 * 256x64x32 (o150 o161) spreads its consumer code over its many tiles a
 * block; the rest were not listed. */
static const int sm90_tiles[][4] = {
    {64, 64, 64, 71 + 524 + 493}, {128, 64, 64, 0}, {128, 128, 64, 0}, {128, 128, 32, 0},
    {256, 64, 32, 0},
};
#define N_SM90 ((int)(sizeof(sm90_tiles) / sizeof(sm90_tiles[0])))

/* blocks in a cluster, at most: the portable limit (CUDA programming
 * guide, thread block clusters: 8; larger needs an opt-in) */
#define CLUSTER_MAX 8

/* One sm90 candidate: the warp-specialised wgmma kernel of the gemm
 * template (gc_gemm_build: 1 producer + 2 consumer warpgroups, TMA loads of
 * A and B per k step, 168 registers) made persistent as cuDNN launches it:
 * min(tiles, SMs) blocks of the block's whole shared memory (227 KB on the
 * H100 and H200: smem 231424 bytes in ncu, diag_summary.csv), each running
 * its ceil(tiles / blocks) tiles' k steps through one pipeline (the ring
 * fills once per block; one epilogue per tile); t: a row of sm90_tiles. */
static int sm90_kernel(const gc_arch_t *a, const conv_t *v, const int t[4], gc_kernel_t **out,
                       gc_err_t *err)
{
    const gc_machine_t *m = gc_machine_of(a);
    double sms = ops_sms(a), smem = m ? m->shared_block_bytes : 0;
    double tiles = ceil((double)v->M / t[0]) * ceil((double)v->N / t[1]);
    double G = fmin(tiles, sms), per = ceil(tiles / G), steps = ceil((double)v->K / t[2]);
    double stage = (double)(t[0] + t[1]) * t[2] * 2;
    int stages = (int)fmin(floor((smem - 1024) / stage), 16);
    if (stages < 2)
        return gc_err_set(err, GC_EINPUT, "conv2d: a %dx%dx%d stage does not fit twice",
                          t[0], t[1], t[2]);
    /* the cluster (ncu's launch__cluster_dim on the H200's train rows,
     * data/h200/diag_l2.csv): over the filters' N tiles, up to 8 blocks (the
     * portable cluster size), each A tile multicast to them (o130 8, o142
     * 4, o156 2, o162 5: 5 N tiles of 64); with a single N tile, 8 blocks
     * along M sharing the filter tile B (o122 o126 o150 o161) */
    double nN = ceil((double)v->N / t[1]);
    int cn = (int)fmin(nN, CLUSTER_MAX), cm = nN > 1 ? 1 : (int)fmin(tiles, CLUSTER_MAX);
    gc_gemm_spec_t s = {GC_GEMM_FAM_WGMMA, v->M, v->N, (long)(per * steps * t[2]), 1, v->dt,
                        t[0], t[1], t[2], stages, 12, 1, 16, 168, cm, cn, 0, 0};
    /* 168 registers: every sm90_xmma_fprop_implicit_gemm launch the profiler shows
     * (model/validation/data/h200/ops.csv, o125 o150 o158) */
    int rc = gc_gemm_build(a, &s, out, NULL, err);
    if (rc)
        return rc;
    gc_kernel_t *k = *out;
    k->grid[0] = (long)G;
    k->grid[1] = k->grid[2] = 1;
    k->epilogue.trips = per;
    k->serial_inst = t[3]; /* its once-run code, where listed (sm90_tiles) */
    conv_footprint(v, k);
    return 0;
}

/* cuDNN's cutlass sm80 implicit GEMMs on sm_90 (cutlass_tensorop_{f16,bf16}_
 * s16816fprop_optimized_*_BMxBN_BKxSTAGES_nhwc_align8), each as the gemm
 * template's mma.sync + cp.async kernel of its tile (4 warps, 16-byte
 * copies) with what its SASS adds (the listings are cuDNN's and not shipped;
 * model/validation/data/h200/sass_cudnn_groups.csv holds their counts by
 * group of instructions run equally often, and the chains):
 * the k steps run per filter tap, ceil(C / BK) of them a tap, a tap's
 * channels beyond C zero-filled; each step issues `loop_extra` more
 * instructions than the gemm kernel counts (the iterator's addresses and
 * predicates, the tap's offsets from the constant bank); each filter row
 * `row_inst` more (the tap iterator's advance); and once a warp `once_inst`
 * (set-up, epilogue) whose dependent chain a lone warp waits through: one
 * chain, as sass_path.py finds it (4.1 cycles an instruction, the alu
 * bench's IMAD latency, within 4 %).
 *   64x64_64x5, 118 registers: batch-1 3x3 (o136 p009 p016: 154
 *     instructions a step, 32 HMMA + 16 LDSM + 8 LDGSTS + 98, 66 beyond the
 *     gemm kernel's 32 IMAD; 58 a row; 1024-1043 once, a 4252-4279-cycle
 *     chain);
 *   256x64_32x4, 246 registers: the bf16 stem on 8 padded channels (p002:
 *     207 a step, 64 HMMA + 16 LDSM + 10 LDGSTS + 117, 80 beyond the gemm
 *     kernel's 36 IMAD, one step a tap of 8 channels in 32; 110 a row; 1784
 *     once, a 7598-cycle chain);
 *   sm80_xmma indexed 256x64x32 stage 3 (below). */
typedef struct opt_tile {
    int bm, bn, bk, stages, regs;
    double loop_extra, row_inst, once_inst, lds;
    const char *name;
} opt_tile_t;

static const opt_tile_t OPT_64 = {64, 64, 64, 5, 118, 66, 58, 1030, 0, "64x64_64x5"};
static const opt_tile_t OPT_256 = {256, 64, 32, 4, 246, 80, 110, 1784, 0, "256x64_32x4 nhwc_align8"};
/* sm80_xmma_fprop_implicit_gemm_indexed_bf16..._tilesize256x64x32_stage3
 * (p006, bf16 on 4 channels padded to 8): the same structure, 245 a step
 * (64 HMMA + 16 LDSM + 10 LDGSTS + 8 LDS.128 of its index table + 147),
 * 1788 once (a 7483-cycle chain) */
static const opt_tile_t OPT_IDX = {256, 64, 32, 3, 246, 110, 0, 1788, 8, "indexed 256x64x32 stage3"};

/* The cutlass kernel of tile t for the convolution on C channels (C: as
 * the kernel reads them, padded or not). */
static int opt_kernel(const gc_arch_t *a, const conv_t *v, const gc_ops_args_t *g,
                      const opt_tile_t *t, gc_kernel_t **out, gc_err_t *err)
{
    double per_tap = ceil((double)v->C / t->bk), steps = per_tap * g->r * g->s;
    gc_gemm_spec_t s = {GC_GEMM_FAM_MMA, v->M, v->N, (long)(steps * t->bk), 1, v->dt,
                        t->bm, t->bn, t->bk, t->stages, 4, 1, 16, t->regs, 0, 0, 0, 0};
    int rc = gc_gemm_build(a, &s, out, NULL, err);
    if (rc)
        return rc;
    gc_kernel_t *k = *out;
    kb_t b = {k, 1};
    kb_alu(&b, &k->loop, "iadd3", t->loop_extra + t->row_inst * g->r / steps, 0);
    if (t->lds > 0)
        kb_op(&b, &k->loop, GC_OP_LDS, t->lds)->width = 16;
    kb_alu(&b, &k->prologue, "imad", t->once_inst, 1);
    conv_footprint(v, k);
    if (!b.ok) {
        gc_kernel_destroy(k);
        *out = NULL;
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    return 0;
}

/* Batch 1, at most 96 filters, C % 8 == 0, a filter larger than 1x1 on
 * sm_90: cuDNN runs the cutlass sm80 kernel above, not its sm90 one, on
 * every such train row of both GPUs (o136, H100 and H200; p009 p011 p016,
 * H200); 128 filters or more, or a batch above 1, ran sm90 kernels (o142
 * o144 o145 p014 p015 o122 o161; p010, 128 filters on a 14x14 input, an
 * sm80_xmma 64x32 tile the template does not describe). */
static int conv_opt(const gc_arch_t *a, const gc_ops_args_t *g, const conv_t *v,
                    gc_ops_plan_t *p, gc_err_t *err)
{
    gc_kernel_t *k = NULL;
    int rc = opt_kernel(a, v, g, &OPT_64, &k, err);
    if (rc)
        return rc;
    char name[128];
    snprintf(name, sizeof(name),
             "cutlass s16816fprop_optimized 64x64_64x5 nhwc_align8 (%ldx%ldx%ld)", v->M, v->N,
             v->K);
    return conv_push(p, k, name,
                     "cuDNN's cutlass_tensorop_*_s16816fprop_optimized_*_64x64_64x5_nhwc_align8 "
                     "(kernel names in model/validation/data/h200/ops.csv, ops3.csv); the gemm "
                     "template's mma.sync + cp.async kernel with the counts of its SASS (o136)",
                     "conv", err);
}

/* The sm90 kernel cuDNN picks: the tile the model predicts fastest, as the
 * library's heuristic picks for speed. */
static int conv_sm90(const gc_arch_t *a, const conv_t *v, gc_ops_plan_t *p, gc_err_t *err)
{
    gc_kernel_t *best = NULL;
    double best_us = 0;
    int bt = 0;
    for (int i = 0; i < N_SM90; i++) {
        gc_kernel_t *k = NULL;
        gc_err_t e;
        gc_err_clear(&e);
        if (sm90_kernel(a, v, sm90_tiles[i], &k, &e))
            continue;
        double us = conv_us(a, k);
        if (us > 0 && (!best || us < best_us)) {
            gc_kernel_destroy(best);
            best = k, best_us = us, bt = i;
        } else {
            gc_kernel_destroy(k);
        }
    }
    if (!best)
        return gc_err_set(err, GC_EINPUT, "conv2d: no sm90 implicit-GEMM tile fits the arch");
    char name[128];
    snprintf(name, sizeof(name), "sm90_xmma_fprop_implicit_gemm tilesize%dx%dx%d (%ldx%ldx%ld)",
             sm90_tiles[bt][0], sm90_tiles[bt][1], sm90_tiles[bt][2], v->M, v->N, v->K);
    return conv_push(p, best, name,
                     "cuDNN sm90_xmma_fprop_implicit_gemm (kernel names in "
                     "model/validation/data/h200/ops.csv); gemm template's wgmma kernel "
                     "(gemm_build.c), persistent",
                     "conv", err);
}

/* C % 8 != 0 on sm_90: cuDNN's sm80_xmma_fprop_implicit_gemm_indexed
 * kernels read the input 2 bytes at a time (aligna2) and skip the padding
 * copy. 4 warps along M (warpsize4x1x1: 32 rows x BN each), one stage
 * (stage1: each k step's loads waited for). Per tile, as its SASS executes
 * it (ncu's per-instruction counts on the H200, the listings are cuDNN's
 * and not shipped: 128x16x32 in o134 and p008, 128x32x16 in o133), per warp
 * and k step: the mma m16n8k16 over the warp's 32 x BN x BK; BK elements of
 * A a thread (its row's im2col gather, LDG.U16) and BN * BK / 32 of B
 * (every warp its own copy: wo_smem); the loaded elements' addresses and
 * bounds (IMAD, ISETP, IADD3 / LEA / UIADD3), the halves packed (PRMT),
 * each A element's (r, s) offset from the constant bank (LDC, counted as
 * a move), B's fragments through shared memory (LDS.128). A warp issues in
 * order: a k step's work other than its loads is a 530-cycle chain (129
 * steps of the ALU's latency, sass_path.py, both tiles). Once a warp: the
 * set-up and the epilogue (the 32 x BN outputs converted, stored 8 bytes a
 * lane), a chain of 1318 cycles (128x16x32: 396 instructions) and 1199
 * (128x32x16: 486), its serial code. Not counted: the listings' warps wait
 * for their loads 8 at a time (4 round trips a k step at 32 loads, 6 at
 * 48); counted as dependent loads (chains), they put the train rows o133
 * and o134 15 to 34 % slow on the H200, 28 to 49 % on the H100 (p008 +3 %),
 * where one wait a k step leaves them within -11..+19 %. A warp's 32 lanes read
 * 32 neighbouring output pixels: stride * C * 2 bytes apart. */
typedef struct idx_tile {
    int bm, bn, bk, regs;
    int imad, isetp, ialu, prmt, ldc, lds; /* a warp's k step */
    int once, once_chain;                  /* a warp's once-run instructions, their chain (steps) */
} idx_tile_t;
static const idx_tile_t idx_tiles[] = {
    {128, 16, 32, 96, 200, 149, 54, 72, 32, 8, 396, 321},
    {128, 32, 16, 108, 96, 80, 39, 48, 16, 4, 486, 292},
};
#define N_IDX ((int)(sizeof(idx_tiles) / sizeof(idx_tiles[0])))
#define IDX_CHAIN_STEPS 129

static gc_kernel_t *idx_kernel(const conv_t *v, const gc_ops_args_t *g, const idx_tile_t *t)
{
    kb_t b;
    gc_err_t e;
    gc_kernel_t *k = kb_start(&b, "indexed", "", &e);
    if (!k)
        return NULL;
    double BN = t->bn, BK = t->bk, ea = BK, eb = BN * BK / 32;
    k->grid[0] = (long)ceil((double)v->N / t->bn);
    k->grid[1] = (long)ceil((double)v->M / t->bm);
    k->block[0] = 128;
    k->regs = t->regs;
    k->shared_bytes = 4096;
    k->serial_inst = t->once_chain;
    k->loop.trips = ceil((double)v->K / t->bk);
    gc_kop_t *m = kb_op(&b, &k->loop, GC_OP_MMA, 2 * (BN / 8) * (BK / 16));
    m->inst = "mma", m->shape = "m16n8k16", m->a = v->dt == GC_GEMM_BF16 ? "bf16" : "f16";
    m->c = "f32", m->chains = 2 * (BN / 8);
    double span = 32.0 * g->stride * v->C * 2; /* bytes a warp's A load spans */
    gc_kop_t *la = kb_ldg(&b, &k->loop, 2, ea, 0);
    la->sectors = ceil(span / 32), la->lines = ceil(span / 128);
    kb_ldg(&b, &k->loop, 2, eb, 0);
    kb_alu(&b, &k->loop, "imad", t->imad, 0)->depth = IDX_CHAIN_STEPS;
    kb_alu(&b, &k->loop, "isetp", t->isetp, 0);
    kb_alu(&b, &k->loop, "iadd3", t->ialu, 0);
    kb_alu(&b, &k->loop, "prmt", t->prmt, 0);
    kb_alu(&b, &k->loop, "mov", t->ldc, 0);
    kb_op(&b, &k->loop, GC_OP_LDS, t->lds)->width = 16;
    kb_alu(&b, &k->prologue, "imad", t->once, 0);
    kb_alu(&b, &k->epilogue, "f2f", BN / 2, 0);
    kb_stg(&b, &k->epilogue, 8, BN / 4);
    conv_footprint(v, k);
    if (!b.ok) {
        gc_kernel_destroy(k);
        return NULL;
    }
    return k;
}

/* cudaMemsetAsync of `bytes` (the profiler's [gpu_memset]): the driver's
 * fill, a stream of 16-byte stores; described as one store per thread of
 * 256-thread blocks. */
static gc_kernel_t *memset_kernel(double bytes)
{
    kb_t b;
    gc_err_t e;
    gc_kernel_t *k = kb_start(&b, "memset", "cudaMemsetAsync ([gpu_memset] in the profiler)", &e);
    if (!k)
        return NULL;
    k->grid[0] = (long)fmax(1, ceil(bytes / 16 / 256));
    k->block[0] = 256;
    k->regs = 16;
    kb_stg(&b, &k->loop, 16, 1);
    k->read_bytes = 0;
    k->write_bytes = bytes;
    k->footprint_given = GC_FP_READ | GC_FP_WRITE;
    if (!b.ok)
        gc_kernel_destroy(k), k = NULL;
    return k;
}

/* nhwcAddPaddingKernel: copies `elems` halves of a C-channel NHWC tensor
 * into its zeroed C'-channel copy (cuDNN, before the first-layer kernel):
 * SMs x 2 blocks of 1024 threads (264 x 1024 on the H100 and H200, 30
 * registers), a grid-stride loop of one element per thread and trip, as
 * its SASS runs it (ncu on the H200, the listing is cuDNN's and not
 * shipped: 45 instructions a trip, one LDG.U16 waited for by the
 * conversion, one STG.U16; the index arithmetic through cuDNN's
 * reduced_divisor: 15 IMAD, 7 ISETP, 4 IADD3, 3 SHF, 2 LOP3, 3 LDC). */
static gc_kernel_t *pad_kernel(const gc_arch_t *a, double elems, double c, double cpad)
{
    kb_t b;
    gc_err_t e;
    gc_kernel_t *k = kb_start(&b, "nhwcAddPaddingKernel", "cuDNN nhwcAddPaddingKernel", &e);
    if (!k)
        return NULL;
    double threads = 2 * ops_sms(a) * 1024;
    k->grid[0] = (long)(2 * ops_sms(a));
    k->block[0] = 1024;
    k->regs = 30;
    k->loop.trips = ceil(elems / threads);
    gc_kop_t *ld = kb_ldg(&b, &k->loop, 2, 1, 0);
    ld->sectors = 2, ld->lines = 1;
    gc_kop_t *st = kb_stg(&b, &k->loop, 2, 1);
    st->sectors = ceil(64 * cpad / c / 32), st->lines = ceil(64 * cpad / c / 128);
    kb_alu(&b, &k->loop, "imad", 15, 0);
    kb_alu(&b, &k->loop, "isetp", 7, 0);
    kb_alu(&b, &k->loop, "iadd3", 4, 0);
    kb_alu(&b, &k->loop, "shf", 3, 0);
    kb_alu(&b, &k->loop, "lop3", 2, 0);
    kb_alu(&b, &k->loop, "mov", 3, 0);
    kb_alu(&b, &k->loop, "hadd2", 1, 0);
    kb_alu(&b, &k->loop, "iadd3", 8, 0); /* branches, convergence, loop counter */
    k->read_bytes = elems * 2;
    k->write_bytes = elems * 2;
    k->footprint_given = GC_FP_READ | GC_FP_WRITE;
    if (!b.ok)
        gc_kernel_destroy(k), k = NULL;
    return k;
}

/* sm90_xmma_fprop_image_first_layer_..._k64c4r7s7_stride2x2_tile16x64x64:
 * cuDNN's kernel for the 7x7 stride-2 stem on 4 (padded) channels and 64
 * filters. Grid (ceil(Q / 56), ceil(P / 16), N) of 128 threads, 180
 * registers (o120's launch); each block 16 x 56 output pixels x 64 filters
 * over K = 256 (r7 s7 c4, padded). Per warp, as its SASS runs it (ncu on
 * the H200, the listing is cuDNN's and not shipped): 28 trips of 128
 * mma m16n8k8 and 32 ldmatrix.x1 + 16 .x2, 16 of them also loading the
 * next input rows (3 LDG, 3 STS.64, 2 barriers, 30 integer ops); before
 * them 421 instructions (42 LDG and STS.64 of the halo, 337 integer); after
 * them the epilogue, 4 x 832 instructions (per warp 256 4-byte STG, 128
 * STS.64 and LDS.64, 512 HMNMX2, 256 HFMA2 and F2FP, 1660 integer). */
static gc_kernel_t *first_layer_kernel(const gc_ops_args_t *g, const conv_t *v)
{
    kb_t b;
    gc_err_t e;
    gc_kernel_t *k = kb_start(&b, "first_layer", "", &e);
    if (!k)
        return NULL;
    k->grid[0] = (long)ceil(v->Q / 56.0);
    k->grid[1] = (long)ceil(v->P / 16.0);
    k->grid[2] = g->n;
    k->block[0] = 128;
    k->regs = 180;
    k->loop.trips = 28;
    gc_kop_t *m = kb_op(&b, &k->loop, GC_OP_MMA, 128);
    m->inst = "mma", m->shape = "m16n8k8", m->a = v->dt == GC_GEMM_BF16 ? "bf16" : "f16";
    m->c = "f32";
    kb_op(&b, &k->loop, GC_OP_LDMATRIX, 32)->num = 1;
    kb_op(&b, &k->loop, GC_OP_LDMATRIX, 16)->num = 2;
    double f = 16.0 / 28;
    kb_ldg(&b, &k->loop, 8, 3 * f, 0);
    kb_op(&b, &k->loop, GC_OP_STS, 3 * f)->width = 8;
    kb_op(&b, &k->loop, GC_OP_BAR, 2 * f);
    kb_alu(&b, &k->loop, "imad", 30 * f, 0);
    kb_ldg(&b, &k->prologue, 8, 42, 0);
    kb_op(&b, &k->prologue, GC_OP_STS, 42)->width = 8;
    kb_alu(&b, &k->prologue, "imad", 337, 0);
    kb_stg(&b, &k->epilogue, 4, 256);
    kb_op(&b, &k->epilogue, GC_OP_STS, 128)->width = 8;
    kb_op(&b, &k->epilogue, GC_OP_LDS, 128)->width = 8;
    kb_alu(&b, &k->epilogue, "imnmx", 512, 0); /* HMNMX2: the ALU pipe */
    kb_alu(&b, &k->epilogue, "hfma2", 256, 0);
    kb_alu(&b, &k->epilogue, "f2f", 256, 0);
    kb_alu(&b, &k->epilogue, "imad", 1660, 0);
    k->read_bytes = (double)g->n * g->h * g->w * 4 * 2 + 64.0 * 49 * 4 * 2;
    k->write_bytes = v->out_bytes;
    k->footprint_given = GC_FP_READ | GC_FP_WRITE;
    if (!b.ok)
        gc_kernel_destroy(k), k = NULL;
    return k;
}

/* The first-layer path's kernels, in launch order, into ks (5 of them;
 * NULL where memory ran out). */
static void first_layer_path(const gc_arch_t *a, const gc_ops_args_t *g, const conv_t *v,
                             gc_kernel_t *ks[5])
{
    double in = (double)g->n * g->h * g->w, filt = (double)g->k * g->r * g->s;
    ks[0] = memset_kernel(in * 4 * 2);
    ks[1] = pad_kernel(a, in * g->c, g->c, 4);
    ks[2] = memset_kernel(filt * 4 * 2);
    ks[3] = pad_kernel(a, filt * g->c, g->c, 4);
    ks[4] = first_layer_kernel(g, v);
}

static const char *const fl_names[5] = {
    "[gpu_memset] of the 4-channel input", "nhwcAddPaddingKernel (input to 4 channels)",
    "[gpu_memset] of the 4-channel filter", "nhwcAddPaddingKernel (filter to 4 channels)",
    "sm90_xmma_fprop_image_first_layer k64c4r7s7_stride2x2_tile16x64x64"};
static const char *const fl_roles[5] = {"memset", "pad", "memset", "pad", "conv"};

/* The fastest indexed tile: its kernel and GPU time (NULL when none fits). */
static gc_kernel_t *best_indexed(const gc_arch_t *a, const gc_ops_args_t *g, const conv_t *v,
                                 double *us_out, int *tile)
{
    gc_kernel_t *best = NULL;
    double best_us = 0;
    for (int i = 0; i < N_IDX; i++) {
        gc_kernel_t *k = idx_kernel(v, g, &idx_tiles[i]);
        double us = k ? conv_us(a, k) : -1;
        if (us > 0 && (!best || us < best_us)) {
            gc_kernel_destroy(best);
            best = k, best_us = us, *tile = i;
        } else {
            gc_kernel_destroy(k);
        }
    }
    *us_out = best_us;
    return best;
}

/* convolve_common_engine_float_NHWC<bf16, bf16, 128, 5, 5, 3, 3, 3, ...>:
 * the direct convolution cuDNN runs for a bf16 3x3 filter on 3 channels
 * (p005 16 filters, stride 1; p007 32 filters, stride 2; ops3.csv): 32
 * output pixels a block of 8 x 8 threads, 91 registers, float FMAs, per
 * warp as its SASS runs it (model/validation/data/h200/
 * sass_cudnn_groups.csv; the same counts for both, whatever the filters
 * and the stride): a trip per input channel of 128 FFMA, 16 LDS.128, 8
 * 2-byte loads of the input staged through 8 STS behind 2 barriers, 24
 * constant-bank reads and 85 integer ops; two trips of 64 FFMA and 8
 * LDS.128; 531-643 instructions once (set-up, 16 2-byte stores of the
 * output), one dependent chain (sass_path.py: 1990 / 3179 cycles). */
static gc_kernel_t *direct_kernel(const conv_t *v, const gc_ops_args_t *g)
{
    kb_t b;
    gc_err_t e;
    gc_kernel_t *k = kb_start(&b, "direct", "", &e);
    if (!k)
        return NULL;
    k->grid[0] = (long)ceil((double)v->M / 32);
    k->block[0] = 8;
    k->block[1] = 8;
    k->regs = 91;
    k->prologue.trips = 1;
    kb_alu(&b, &k->prologue, "imad", 587, 1);
    k->loop.trips = g->c;
    kb_alu(&b, &k->loop, "ffma", 128, 16);
    kb_op(&b, &k->loop, GC_OP_LDS, 16)->width = 16;
    gc_kop_t *ld = kb_ldg(&b, &k->loop, 2, 8, 0);
    ld->sectors = 2, ld->lines = 1;
    kb_op(&b, &k->loop, GC_OP_STS, 8)->width = 2;
    kb_op(&b, &k->loop, GC_OP_BAR, 2);
    kb_alu(&b, &k->loop, "ldc", 24, 0);
    kb_alu(&b, &k->loop, "imad", 85, 0);
    /* the two trips of 64 FFMA after the channels, spread over them */
    kb_alu(&b, &k->loop, "ffma", 128.0 / g->c, 16);
    kb_op(&b, &k->loop, GC_OP_LDS, 16.0 / g->c)->width = 16;
    k->epilogue.trips = 1;
    kb_alu(&b, &k->epilogue, "f2fp", 16, 0);
    gc_kop_t *st = kb_stg(&b, &k->epilogue, 2, 16);
    st->sectors = 2, st->lines = 1;
    conv_footprint(v, k);
    if (!b.ok) {
        gc_kernel_destroy(k);
        return NULL;
    }
    return k;
}

/* Push a padding path's five kernels in launch order (memset, padding copy
 * of the input, memset, padding copy of the filter, the convolution: the
 * roles fl_roles gives), named names[i] and citing src[i]; takes every
 * kernel of ks, pushed or freed, and a NULL one (memory ran out) is an
 * error. */
static int push_path(gc_ops_plan_t *p, gc_kernel_t *ks[5], const char *const names[5],
                     const char *const src[5], gc_err_t *err)
{
    int rc = 0;
    for (int i = 0; i < 5; i++) {
        gc_kernel_t *k = ks[i];
        ks[i] = NULL;
        if (!k && !rc)
            rc = gc_err_set(err, GC_ENOMEM, "out of memory building the operator's kernels");
        if (rc)
            gc_kernel_destroy(k);
        else
            rc = conv_push(p, k, names[i], src[i], fl_roles[i], err);
    }
    return rc;
}

/* bf16 with C % 8 != 0 (but the 3x3 filter on 3 channels above): cuDNN
 * copies the input and the filter into zeroed buffers of the next multiple
 * of 8 channels (8 on the train rows, 3 and 4 channels; a memset
 * and nhwcAddPaddingKernel each; the memsets write 16 bytes a pixel, twice
 * the f16 stem's 4 channels) and runs an sm80 kernel on them, one k step
 * of 32 a filter tap: for the 7x7 stride-2 stem into 64 filters cutlass's
 * 256x64_32x4 (cuDNN's first-layer kernel is f16 only,
 * sm90_xmma_fprop_image_first_layer_f16f16_f32_f16_...: p002 p003 ran
 * cutlass_tensorop_bf16_s16816fprop_optimized_bf16_256x64_32x4_nhwc_align8
 * on M / 256 blocks), else sm80_xmma's indexed 256x64x32 stage 3 (p006:
 * sm80_xmma_fprop_implicit_gemm_indexed_bf16bf16_..._tilesize256x64x32_stage3
 * on (1, M / 256) blocks; ops3.csv). */
static int conv_bf16_padded(const gc_arch_t *a, const gc_ops_args_t *g, const conv_t *v,
                            int stem, gc_ops_plan_t *p, gc_err_t *err)
{
    const opt_tile_t *t = stem ? &OPT_256 : &OPT_IDX;
    double in = (double)g->n * g->h * g->w, filt = (double)g->k * g->r * g->s;
    long cp = (g->c + 7) / 8 * 8; /* the next multiple of 8 (16 bytes of bf16) */
    conv_t v8;
    conv_init(g, v->P, v->Q, cp, &v8);
    gc_kernel_t *ks[5] = {memset_kernel(in * cp * 2), pad_kernel(a, in * g->c, g->c, cp),
                          memset_kernel(filt * cp * 2), pad_kernel(a, filt * g->c, g->c, cp),
                          NULL};
    int rc = opt_kernel(a, &v8, g, t, &ks[4], err);
    char names[5][128];
    snprintf(names[0], sizeof(names[0]), "[gpu_memset] of the %ld-channel input", cp);
    snprintf(names[1], sizeof(names[1]), "nhwcAddPaddingKernel (input to %ld channels)", cp);
    snprintf(names[2], sizeof(names[2]), "[gpu_memset] of the %ld-channel filter", cp);
    snprintf(names[3], sizeof(names[3]), "nhwcAddPaddingKernel (filter to %ld channels)", cp);
    snprintf(names[4], sizeof(names[4]), "%s %s (%ldx%ldx%ld, %ld channels)",
             stem ? "cutlass s16816fprop_optimized" : "sm80_xmma_fprop_implicit_gemm", t->name,
             v8.M, v8.N, v8.K, cp);
    static const char *const pad_src =
        "cuDNN (kernel names in model/validation/data/h200/ops3.csv, p002 p006)";
    const char *const src[5] = {pad_src, pad_src, pad_src, pad_src,
                                "cuDNN's sm80 kernel on the padded channels (ops3.csv, p002 p003 "
                                "p006); the gemm template's mma.sync + cp.async kernel with the "
                                "counts of its SASS (sass_cudnn_groups.csv)"};
    const char *const nm[5] = {names[0], names[1], names[2], names[3], names[4]};
    if (rc) {
        for (int i = 0; i < 5; i++)
            gc_kernel_destroy(ks[i]);
        return rc;
    }
    return push_path(p, ks, nm, src, err);
}

/* C % 8 != 0 on sm_90: the indexed kernel, or for the 7x7 stride-2 stem
 * on at most 4 channels and 64 filters (what the first-layer kernel is
 * built for, k64c4r7s7_stride2x2) the padding copies and the first-layer
 * kernel, whichever the model predicts faster, as cuDNN's heuristic picks
 * (o120, N = 32: first layer; o134, N = 1: indexed). */
static int conv_unaligned(const gc_arch_t *a, const gc_ops_args_t *g, const conv_t *v,
                          gc_ops_plan_t *p, gc_err_t *err)
{
    int bt = 0, stem = g->r == 7 && g->s == 7 && g->stride == 2 && g->c <= 4 && g->k == 64;
    if (v->dt == GC_GEMM_BF16 && g->c == 3 && g->r == 3 && g->s == 3) {
        gc_kernel_t *k = direct_kernel(v, g);
        if (!k)
            return gc_err_set(err, GC_ENOMEM, "out of memory building the operator's kernels");
        return conv_push(p, k, "convolve_common_engine_float_NHWC<bf16, 3x3, 3 channels>",
                         "cuDNN's direct bf16 convolution (ops3.csv, p005 p007); per warp as "
                         "its SASS runs it (sass_cudnn_groups.csv)",
                         "conv", err);
    }
    if (v->dt == GC_GEMM_BF16)
        return conv_bf16_padded(a, g, v, stem, p, err);
    double ius = 0, fus = 0;
    gc_kernel_t *idx = best_indexed(a, g, v, &ius, &bt), *fl[5] = {0};
    if (stem) {
        first_layer_path(a, g, v, fl);
        for (int i = 0; i < 5 && fus >= 0; i++) {
            double us = fl[i] ? conv_us(a, fl[i]) : -1;
            fus = us > 0 ? fus + us : -1;
        }
    }
    if (stem && fus > 0 && (!idx || fus < ius)) {
        gc_kernel_destroy(idx);
        static const char *const fsrc = "cuDNN (kernel names in model/validation/data/h200/"
                                        "ops.csv, o120); per-warp counts from its SASS (ncu)";
        const char *const src[5] = {fsrc, fsrc, fsrc, fsrc, fsrc};
        return push_path(p, fl, fl_names, src, err);
    }
    for (int i = 0; i < 5; i++)
        gc_kernel_destroy(fl[i]);
    if (!idx)
        return gc_err_set(err, GC_EINPUT, "conv2d: no indexed implicit-GEMM tile fits the arch");
    char name[128];
    snprintf(name, sizeof(name),
             "sm80_xmma_fprop_implicit_gemm_indexed tilesize%dx%dx%d aligna2 (%ldx%ldx%ld)",
             idx_tiles[bt].bm, idx_tiles[bt].bn, idx_tiles[bt].bk, v->M, v->N, v->K);
    return conv_push(p, idx, name,
                     "cuDNN sm80_xmma_fprop_implicit_gemm_indexed_wo_smem ..._aligna2 (kernel "
                     "names in model/validation/data/h200/ops.csv); per-warp counts from its "
                     "SASS (ncu, o134)",
                     "conv", err);
}


/* cuDNN's kernels need C a multiple of 8 halves (16 bytes) for their
 * vectorized NHWC loads; on sm_8x, for other C it first copies the input
 * into a channel-padded buffer (a separate kernel). Modelled as a copy
 * kernel: 128-thread blocks, a thread per 8 output halves. */
static int conv_pad(const gc_ops_args_t *g, double cpad, gc_ops_plan_t *p, gc_err_t *err)
{
    double pix = (double)g->n * g->h * g->w;
    kb_t b;
    gc_kernel_t *k = kb_start(&b, "cudnn nhwc channel pad",
                              "cuDNN: NHWC tensor-core kernels need C % 8 == 0 "
                              "(cuDNN developer guide, Tensor Core requirements)",
                              err);
    if (!k)
        return GC_ENOMEM;
    double threads = pix * cpad / 8;
    k->grid[0] = (long)ceil(threads / 128);
    k->block[0] = 128;
    k->regs = 24;
    k->loop.trips = 1;
    gc_kop_t *ld = kb_ldg(&b, &k->loop, 2, g->c, 0); /* the pixel's C halves */
    ld->sectors = fmax(1, ceil(32 * g->c * 2.0 / 32));
    ld->lines = fmax(1, ceil(32 * g->c * 2.0 / 128));
    ld->l1_hit = 1 - 1.0 / g->c;
    kb_stg(&b, &k->loop, 16, 1);
    kb_alu(&b, &k->loop, "imad", 10, 0);
    k->read_bytes = pix * g->c * 2;
    k->write_bytes = pix * cpad * 2;
    return ops_push(p, &b, "pad", err);
}

/* sm_8x (no wgmma): an implicit GEMM with M = N * P * Q output pixels,
 * N = K filters and K = C8 * R * S (C8: C padded to a multiple of 8); the
 * kernel of the older gemm tile list (gemm.c: mma.sync + cp.async, the
 * tile family cuDNN's and CUTLASS's sm80 implicit-GEMM fprop kernels use),
 * the tile the model finds fastest kept, as cuDNN's heuristic would. */
static int conv_sm8x(const gc_arch_t *a, const gc_ops_args_t *g, const conv_t *v,
                     gc_ops_plan_t *p, gc_err_t *err)
{
    long cpad = (g->c + 7) / 8 * 8;
    int rc = 0;
    if (cpad != g->c && (rc = conv_pad(g, (double)cpad, p, err)) != 0)
        return rc;
    long M = v->M, N = v->N, K = cpad * g->r * g->s;
    gc_kernel_t *best = NULL;
    double best_us = 0;
    gc_predict_opts_t o = {0};
    for (int i = 0; i < 64; i++) {
        gc_kernel_t *kd = NULL;
        gc_gemm_result_t info;
        gc_err_t e;
        gc_err_clear(&e);
        if (gc_gemm_kernel(a, M, N, K, v->dt, i, &kd, &info, &e))
            break;
        kd->read_bytes = (double)g->n * g->h * g->w * cpad * 2 + (double)N * K * 2;
        gc_prediction_t pr;
        if (!gc_predict(a, kd, &o, &pr, &e) && (!best || pr.time_us < best_us)) {
            gc_kernel_destroy(best);
            best = kd;
            best_us = pr.time_us;
        } else {
            gc_kernel_destroy(kd);
        }
    }
    if (!best)
        return gc_err_set(err, GC_EINPUT, "conv2d: no implicit-GEMM kernel fits the arch");
    char name[96];
    snprintf(name, sizeof(name), "implicit_gemm fprop %ldx%ldx%ld (%s)", M, N, K, best->name);
    return conv_push(p, best, name,
                     "cuDNN implicit-GEMM fprop, NHWC; the kernel of the gemm template "
                     "(model/gemm.c)",
                     "conv", err);
}

/* A 1x1 filter with stride 1 and no padding on sm_90: the convolution is
 * the plain GEMM [N*H*W x C] times the KRSC filter's transpose [C x K]
 * (NHWC rows are the pixels), and cuDNN hands it to cuBLASLt: every such
 * train row on both GPUs ran an nvjet_sm90 kernel
 * (model/validation/data/{h100,h200}/ops.csv: o123 o127 o129 o135 o137
 * o138 o141 o146 o152 o157). Its kernels are the gemm template's choice
 * for that call (gemm_select.c: tile, split, workspace memset, reduction),
 * described as the gemm template describes them. */
static int conv_gemm(const gc_arch_t *a, const conv_t *v, gc_ops_plan_t *p, gc_err_t *err)
{
    gc_gemm_args_t g = {v->M, v->N, v->K, 1, v->dt, "nt"};
    gc_gemm_result_t *r = malloc(sizeof(*r)); /* a few KiB: kept off the stack */
    gc_kernel_t *k[GC_GEMM_KERNELS_MAX];
    gc_predict_opts_t o = {0};
    int rc = r ? gc_gemm_call_kernels(a, &g, &o, r, k, err)
               : gc_err_set(err, GC_ENOMEM, "out of memory");
    for (int i = 0; r && i < r->n_kernels; i++) {
        char name[160];
        snprintf(name, sizeof(name), "%s (cuBLASLt GEMM %ldx%ldx%ld nt)", r->kern[i].name, v->M,
                 v->N, v->K);
        if (!rc)
            rc = conv_push(p, k[i], name,
                           "cuDNN hands a 1x1 stride-1 unpadded convolution to cuBLASLt "
                           "(nvjet_sm90 kernel names in model/validation/data/h200/ops.csv); "
                           "the gemm template's kernels for that GEMM (gemm_select.c)",
                           !strcmp(r->kern[i].role, "main") ? "conv" : r->kern[i].role, err);
        else
            gc_kernel_destroy(k[i]);
    }
    free(r);
    return rc;
}

/* Whether the arch has a wgmma form for dt (sm_90): the sm90 kernels. */
static int has_wgmma(const gc_arch_t *a, gc_gemm_dtype_t dt)
{
    const char *at = dt == GC_GEMM_BF16 ? "bf16" : "f16";
    for (size_t i = 0; i < a->n_tensor; i++) {
        const gc_tensor_t *t = &a->tensor[i];
        if (t->inst && !strcmp(t->inst, "wgmma") && t->a &&
            (!strcmp(t->a, at) || !strcmp(t->a, "f16")))
            return 1;
    }
    return 0;
}

int ops_conv2d(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    long P = (g->h + 2 * g->pad - g->r) / g->stride + 1;
    long Q = (g->w + 2 * g->pad - g->s) / g->stride + 1;
    if (g->h + 2 * g->pad < g->r || g->w + 2 * g->pad < g->s || P < 1 || Q < 1)
        return gc_err_set(err, GC_EUSAGE, "conv2d: the %ldx%ld filter does not fit the "
                          "padded %ldx%ld input (check --r, --s, --pad)", g->r, g->s,
                          g->h + 2 * g->pad, g->w + 2 * g->pad);
    conv_t v;
    conv_init(g, P, Q, g->c, &v);
    if (!has_wgmma(a, v.dt))
        return conv_sm8x(a, g, &v, p, err);
    if (g->c % 8)
        return conv_unaligned(a, g, &v, p, err);
    if (g->r == 1 && g->s == 1 && g->stride == 1 && g->pad == 0)
        return conv_gemm(a, &v, p, err);
    if (g->n == 1 && v.N <= 96)
        return conv_opt(a, g, &v, p, err);
    return conv_sm90(a, &v, p, err);
}
