/* gemm_build.c - the kernel descriptions of the gemm template's families
 * (gemm_int.h): each kernel cuBLAS launches for a call, described per warp
 * and loop iteration like any kernel file (model/kernels/README.md), so that
 * gc_predict times it. Launch shapes follow the library's kernels as the
 * profiler shows them (model/validation/data/h100/gemm.csv: kernel names,
 * grids, blocks, registers) and CUTLASS's public kernels
 * (github.com/NVIDIA/cutlass: include/cutlass/gemm/kernel/
 * sm90_gemm_tma_warpspecialized*.hpp, gemm/threadblock/mma_multistage.h,
 * mma_pipelined.h, gemm/kernel/gemm_splitk_parallel.h). */
#include "gemm_int.h"
#include "machine.h"
#include "../../util/sbuf.h"

#include <math.h>
#include <string.h>

static const char *const fam_names[] = {"wgmma+tma", "mma+cp.async",  "mma+ldg", "ffma",
                                        "gemv",      "splitk-reduce", "memset"};

const char *gc_gemm_family_name(gc_gemm_family_t f)
{
    return f >= 0 && f < GC_GEMM_FAM_N ? fam_names[f] : "?";
}

static const char *ab_type(gc_gemm_dtype_t dt)
{
    static const char *const a[] = {"f16", "bf16", "tf32", "f32", "e4m3", "s8"};
    return a[dt];
}

gc_sbuf_t *gc_gemm_shape_text(gc_sbuf_t *b, long m, long n, long k, gc_gemm_dtype_t dt)
{
    gc_sbuf_long(gc_sbuf_str(b, " "), m);
    gc_sbuf_long(gc_sbuf_str(b, "x"), n);
    gc_sbuf_long(gc_sbuf_str(b, "x"), k);
    return gc_sbuf_str(gc_sbuf_str(b, " "), gc_gemm_dtype_name(dt));
}

/* info->inst = "<inst><shape> <A type>.<C type><tail>", e.g. "wgmma
 * m64n256k16 f16.f32 ss" */
static void inst_text(gc_gemm_result_t *info, const char *inst, const char *shape,
                      gc_gemm_dtype_t dt, const char *tail)
{
    gc_sbuf_t b;
    gc_sbuf_init(&b, info->inst, sizeof(info->inst));
    gc_sbuf_str(gc_sbuf_str(gc_sbuf_str(&b, inst), shape), " ");
    gc_sbuf_str(gc_sbuf_str(gc_sbuf_str(&b, ab_type(dt)), "."), dt == GC_GEMM_I8 ? "s32" : "f32");
    gc_sbuf_str(&b, tail);
}

/* A builder's state: the kernel, and ok dropping to 0 when memory runs out. */
typedef struct bld {
    gc_kernel_t *k;
    int ok;
} bld_t;

/* per thread: builders run concurrently (the library promises concurrent predictions) */
static _Thread_local gc_kop_t scratch_op;

static gc_kop_t *add(bld_t *b, gc_kphase_t *ph, gc_opclass_t c, double count)
{
    if (!b->ok || !(count > 0))
        return &scratch_op;
    gc_kop_t *o = gc_kernel_op(b->k, ph, c);
    if (!o) {
        b->ok = 0;
        return &scratch_op;
    }
    o->count = count;
    return o;
}

static gc_kop_t *add_mem(bld_t *b, gc_kphase_t *ph, gc_opclass_t c, double count, double width)
{
    gc_kop_t *o = add(b, ph, c, count);
    o->width = width;
    if (c == GC_OP_CP_ASYNC)
        o->l1 = 0;
    return o;
}

static gc_kop_t *add_alu(bld_t *b, gc_kphase_t *ph, const char *name, double count, double chains)
{
    gc_kop_t *o = add(b, ph, GC_OP_ALU, count);
    o->name = name;
    o->chains = chains;
    return o;
}

static void add_tensor(bld_t *b, gc_opclass_t c, double count, double chains, const char *shape,
                       gc_gemm_dtype_t dt)
{
    gc_kop_t *o = add(b, &b->k->loop, c, count);
    o->inst = c == GC_OP_WGMMA ? "wgmma" : "mma";
    o->shape = gc_kernel_str(b->k, shape);
    o->a = ab_type(dt);
    o->c = dt == GC_GEMM_I8 ? "s32" : "f32";
    o->operands = c == GC_OP_WGMMA ? "ss" : NULL;
    o->chains = fmax(1, chains);
}

/* k of one tensor instruction: 256 bits of A per row */
static int inst_k(gc_gemm_dtype_t dt)
{
    return (int)(32 / gc_gemm_in_bytes(dt));
}

/* DRAM traffic of the main kernel. The blocks running at once cover a
 * near-square patch of C and share their A and B panels through the L2:
 * A and B are read once when one GEMM's operands fit the L2, else once per
 * wave of the patch (rows and columns, K deep). Split-K writes f32 partials. */
static void footprint(const gc_arch_t *a, const gc_gemm_spec_t *s, gc_kernel_t *k)
{
    double eb = gc_gemm_in_bytes(s->dt);
    double L2 = a->memory.l2.size_mib.set ? a->memory.l2.size_mib.v * 1048576.0 : 0;
    double ab = ((double)s->m * s->k + (double)s->k * s->n) * eb;
    double sms = a->sm.count.set ? a->sm.count.v : 1;
    double tm = ceil((double)s->m / s->bm), tn = ceil((double)s->n / s->bn);
    double tiles = tm * tn, conc = fmin(tiles, sms);
    double rows = fmin(tm, fmax(1, sqrt(conc * s->bn / s->bm))), cols = fmin(tn, ceil(conc / rows));
    double per_wave = (rows * s->bm + cols * s->bn) * (double)s->k * eb;
    double waves = ceil(tiles / conc);
    double steps = ceil((double)s->k / s->bk), tile_in = (double)(s->bm + s->bn) * s->bk * eb;
    double one = ab <= L2 ? ab : fmax(ab, fmin(waves * per_wave, tiles * tile_in * steps));
    k->read_bytes = one * s->batch;
    k->reuse_bytes = 1; /* every re-read is counted in read_bytes */
    k->write_bytes =
        (double)s->m * s->n * s->batch * (s->split > 1 ? 4.0 * s->split : gc_gemm_out_bytes(s->dt));
}

/* grid of tiles: x along N, y along M, z = split x batch */
static void tile_grid(const gc_gemm_spec_t *s, gc_kernel_t *k)
{
    k->grid[0] = (long)ceil((double)s->n / s->bn);
    k->grid[1] = (long)ceil((double)s->m / s->bm);
    k->grid[2] = (long)s->split * s->batch;
    if (k->grid[1] > 65535) {
        k->grid[0] *= k->grid[1];
        k->grid[1] = 1;
    }
}

/* epilogue: accumulators through shared memory to global, 16 bytes a lane */
static void epilogue(bld_t *b, const gc_gemm_spec_t *s, double W)
{
    double ob = s->split > 1 ? 4 : gc_gemm_out_bytes(s->dt);
    double cb = (double)s->bm * s->bn * ob;
    add_mem(b, &b->k->epilogue, GC_OP_STS, cb / (W * 512), 16);
    add_mem(b, &b->k->epilogue, GC_OP_STG, cb / (W * 512), 16);
    add(b, &b->k->epilogue, GC_OP_BAR, 1);
}

/* The wgmma N the arch file has a form for: want itself, else the largest N
 * below it, else the smallest above it (the description then counts
 * fractional instructions of that form: a tile of N = 8 as half an N = 16
 * instruction). want when the arch has no wgmma form of the types at all
 * (gc_predict then names the missing form). */
static int wgmma_n(const gc_arch_t *a, gc_gemm_dtype_t dt, int ik, int want)
{
    const char *at = ab_type(dt), *ct = dt == GC_GEMM_I8 ? "s32" : "f32";
    const gc_machine_t *mc = gc_machine_of(a);
    if (mc) { /* the arch's forms grouped once, at load (machine.h) */
        int n = gc_machine_wgmma_n(mc, at, ct, dt == GC_GEMM_BF16, ik, want);
        return n ? n : want;
    }
    int below = 0, above = 0;
    for (size_t i = 0; i < a->n_tensor; i++) {
        const gc_tensor_t *t = &a->tensor[i];
        int m, n, k;
        if (!t->inst || strcmp(t->inst, "wgmma") || !t->a || !t->c || strcmp(t->c, ct) ||
            !(strcmp(t->a, at) == 0 || (dt == GC_GEMM_BF16 && !strcmp(t->a, "f16"))) ||
            gc_tensor_shape(t->shape, &m, &n, &k) || k != ik)
            continue;
        if (gc_nearest_n(n, want, &below, &above))
            return want;
    }
    return below ? below : above ? above : want;
}

/* FP8 wgmma accumulates in a format narrower than f32, so with fast
 * accumulation off (cuBLASLt's CUBLASLT_MATMUL_DESC_FAST_ACCUM, off unless
 * asked: torch._scaled_mm's use_fast_accum defaults to False) the kernel
 * adds the tensor core's partial sums into f32 registers: after each k step
 * (128 k, four k32 wgmma) a consumer waits for its wgmma to finish and
 * issues one FADD per accumulator it holds (CUTLASS's GmmaFP8Accumulation:
 * warpgroup_wait<0>, then accum += accum_temp; its default interval is four
 * MMAs); the next k step's wgmma writes the same registers, so the tensor
 * pipe idles meanwhile. ncu on the H200: the FMA pipe 22-24 % busy in the
 * f8 kernels of g030 and g034, <= 0.5 % in every f16 / bf16 one
 * (/work/diag/ops_raw.csv), as one FADD per accumulator a 128-k step gives
 * (2 consumer warps a sub-core x 64 FADD against 512 tensor cycles for a
 * 128x128x128 step). The description: an alu fadd with after_tensor. */

/* A tf32 wgmma reads K-major shared memory only (PTX ISA, wgmma.mma_async:
 * imm-trans-a / imm-trans-b exist for .f16 and .bf16 alone), and A may come
 * from registers. So the consumer warps load an M- or N-major operand's k
 * step from shared memory into registers (LDS.32) as A, rounding each
 * element to tf32 (LOP3); with both operands so stored, they also write B
 * back K-major (LDS.32 and STS.32, two integer address ops a store) and
 * meet at two named barriers before the wgmma reads it. Counted per consumer
 * warp and k step off the executed counts of cuBLAS's sm90_xmma tf32 kernels
 * on diagnostic shapes in no validation set (3072^3, ncu SourceCounters:
 * data/h200/sass_opcodes.csv t101, t102; listings not shipped): layout nn,
 * 128x128 tile, 4 consumer warps: 32 LDS (B's 128 x 32 x 4 bytes); layout
 * tn, 128x256, 8 consumer warps: 48 LDS (A's and B's 48 KiB), 32 STS (B's
 * 32 KiB), 62 IMAD, 2 barriers. The same calls take 200.5 (nn), 177.2 (nt),
 * 194.3 (tt) and 256.8 us (tn) (data/h200/gemm_tf32_layout.csv). */
static void kmajor_staging(bld_t *b, const gc_gemm_spec_t *s, double W)
{
    gc_kernel_t *k = b->k;
    int both = s->mn_a && s->mn_b;
    double reg_rows = s->mn_a ? s->bm : s->bn, back_rows = both ? s->bn : 0;
    double per_warp = s->bk * 4.0 / (W * 128); /* LDS.32 a warp, per row of a k step */
    double lds = (reg_rows + back_rows) * per_warp, sts = back_rows * per_warp;
    add_mem(b, &k->loop, GC_OP_LDS, lds, 4);
    add_alu(b, &k->loop, "lop3", lds, 0);
    if (both) {
        add_mem(b, &k->loop, GC_OP_STS, sts, 4);
        add_alu(b, &k->loop, "imad", 2 * sts, 0);
        add(b, &k->loop, GC_OP_BAR, 2);
    }
}

/* Hopper warp-specialised wgmma (CUTLASS sm90 TMA warpspecialized; cuBLAS's
 * nvjet and sm90_xmma kernels: 384 threads = 1 producer + 2 consumer
 * warpgroups, 168 registers, as the profiler shows every one of them).
 * A tile whose f32 accumulators exceed 128 a thread of one warpgroup is
 * shared by both consumers ("coop" in nvjet's names: 256x128, 192x192,
 * 320x128, 128x256, 128x200, 64x512; sm90_xmma tf32 128x256 is
 * warpgroupsize2x1x1), split along M when its 64-row slabs pair up, else
 * along N; a smaller tile is one consumer's alone (ping-pong: the two
 * alternate tiles, mainloops in turn; sm90_xmma 64x128, 64x256 are
 * warpgroupsize1x1x1; the SASS of H200 rows g001 and g041 shows the
 * wgmma of a 64x8 and a 128x8 tile executed by 4 warps a CTA). A consumer
 * issues a k step's wgmma back to back (those into one accumulator
 * pipeline in the tensor core) and waits once a k step for the group
 * before (WARPGROUP.DEPBAR in the SASS): one dependent step a k step. One
 * TMA load of A and of B per stage; clusters of 2 blocks along M multicast
 * their common B tile (CUTLASS's sm90 cluster shape 2x1x1; ncu shows
 * nvjet's launches in clusters of 2: data/h200/diag_l2.csv), or the
 * spec's cluster (cluster_m blocks along M share B, cluster_n along N
 * share A). */
static void build_wgmma(bld_t *b, const gc_arch_t *a, const gc_gemm_spec_t *s,
                        gc_gemm_result_t *info)
{
    gc_kernel_t *k = b->k;
    double eb = gc_gemm_in_bytes(s->dt);
    int ik = inst_k(s->dt), slabs = s->bm / 64;
    /* f8 holds the tile's sums twice (the tensor core's and the promoted
     * f32 ones: fp8_promotion above), so its tiles share from half the size:
     * nvjet's f8 128x128 and 128x160 are coopA, 128x64 and smaller not */
    double acc = (double)s->bm * s->bn / 128 * (s->dt == GC_GEMM_F8E4M3 ? 2 : 1);
    int coop = acc > 128;
    int wgs = coop ? 2 : 1, wm = slabs, wn = s->bn; /* consumers, each one's slabs and N */
    double W = 4.0 * wgs; /* the warps described: the consumers; the producer's few
                           * instructions (one thread issues the TMA) ride on them */
    if (coop && slabs % 2 == 0)
        wm = slabs / 2;
    else if (coop)
        wn = s->bn / 2;
    int n_inst = wgmma_n(a, s->dt, ik, wn / (int)ceil(wn / 256.0));
    double parts = (double)wn / n_inst; /* instructions across a consumer's N */
    double chains = wgs * wm * parts;   /* independent accumulators of the tile */
    char shape[32];
    gc_sbuf_t sb;
    gc_sbuf_init(&sb, shape, sizeof(shape));
    gc_sbuf_long(gc_sbuf_str(gc_sbuf_long(gc_sbuf_str(&sb, "m64n"), n_inst), "k"), ik);
    double per_wg = chains / wgs * (s->bk / ik); /* wgmma a consumer warp issues a k step */
    add_tensor(b, GC_OP_WGMMA, per_wg, per_wg, shape, s->dt);
    double steps = k->loop.trips, pro = fmin(s->stages - 1.0, steps);
    double lfrac = (steps - pro) / steps;
    double tm = ceil((double)s->m / s->bm);
    int cm = s->cluster_m > 0 ? s->cluster_m : s->cluster_n > 0 ? 1 : tm >= 2 ? 2 : 1;
    int cn = s->cluster_n > 0 ? s->cluster_n : 1;
    double a_b = (double)s->bm * s->bk * eb, b_b = (double)s->bn * s->bk * eb;
    /* the loop's loads, and the prologue's that fill the first stages */
    const double frac[2] = {lfrac / W, pro / W};
    gc_kphase_t *ph[2] = {&k->loop, &k->prologue};
    for (int i = 0; i < 2; i++) {
        gc_kop_t *oa = add(b, ph[i], GC_OP_TMA, frac[i]);
        oa->bytes = a_b;
        oa->multicast = cn;
        gc_kop_t *ob = add(b, ph[i], GC_OP_TMA, frac[i]);
        ob->bytes = b_b;
        ob->multicast = cm;
    }
    add_alu(b, &k->loop, "iadd3", 12, 0); /* mbarrier waits and arrivals, fences */
    if (s->mn_a || s->mn_b)
        kmajor_staging(b, s, W);
    if (s->dt == GC_GEMM_F8E4M3) /* FP8: the k step's sums promoted to f32 (fp8_promotion) */
        add_alu(b, &k->loop, "fadd", wm * wn / 2.0, wm * wn / 2.0)->after_tensor = 1;
    epilogue(b, s, W);
    k->block[0] = (long)(32 * W);
    k->regs = 168;
    k->blocks_per_sm = 1; /* the library's block of 384 threads x 168 registers fills the SM */
    k->shared_bytes = s->stages * (double)(s->bm + s->bn) * s->bk * eb + 1024;
    inst_text(info, "wgmma ", shape, s->dt, " ss");
}

/* mma.sync with ldmatrix fragments from a swizzled layout: warp tiles of
 * 64x64 (32x32 in a 64x64 block). MMA: cp.async multistage of s->align
 * bytes (CUTLASS MmaMultistage); MMA_LDG: ld.global of s->align bytes staged
 * in registers and stored to shared, two stages (MmaPipelined, the sm75
 * kernels cuBLAS keeps for 2-byte alignment: cp.async copies 4, 8 or 16
 * bytes only, PTX ISA "cp.async"). */
static void build_mma(bld_t *b, const gc_gemm_spec_t *s, gc_gemm_result_t *info)
{
    gc_kernel_t *k = b->k;
    double eb = gc_gemm_in_bytes(s->dt), W = s->warps;
    int big = s->bm * s->bn / 4096 >= 4;
    double wm = big ? 64 : s->bm / 2.0, wn = big ? 64 : s->bn / 2.0;
    int tk = s->fam == GC_GEMM_FAM_MMA_LDG ? (s->dt == GC_GEMM_I8 ? 16 : 8) : inst_k(s->dt);
    char shape[32];
    gc_sbuf_t sb;
    gc_sbuf_init(&sb, shape, sizeof(shape));
    gc_sbuf_long(gc_sbuf_str(&sb, "m16n8k"), tk);
    add_tensor(b, GC_OP_MMA, (wm / 16) * (wn / 8) * (s->bk / tk), (wm / 16) * (wn / 8), shape,
               s->dt);
    add(b, &k->loop, GC_OP_LDMATRIX, (wm + wn) * s->bk * eb / 512)->num = 4;
    double tile_in = (double)(s->bm + s->bn) * s->bk * eb, w = s->align;
    double copies = tile_in / w / (32 * W);
    double steps = k->loop.trips, pro = fmin(s->stages - 1.0, steps);
    /* the copies in flight over the stages: cp.async (.cg when 16 bytes:
     * L2 only; .ca otherwise); the register-staged loads are issued one k
     * step ahead of their use, so they are described as an asynchronous
     * copy plus the st.shared that lands them, 16 bytes at a time (the
     * kernel packs 8 two-byte loads into one STS.128: ncu on the H200 counts
     * 6.5 shared stores of 4 wavefronts a warp and k step of g091's cutlass_75
     * align1 kernel against 48 loads, data/h200/ncu_lsu9.csv). A narrow copy
     * (under 16 bytes a lane) reaches 4 rows of the tile, as the thread maps
     * of those kernels rake a warp over them (CUTLASS's warp-raked pitch-
     * linear thread maps): the L1's data path passes each row, 4 wavefronts
     * (ncu: 3.95 a 2-byte ld.global of g091), and a cp.async's lookup one more
     * (5.4 a 4-byte cp.async of g106's cutlass_80 align2 kernel), where a
     * copy of 32 lanes x 4 contiguous bytes takes one (probe/lsu_rate.cu):
     * described as 4 ways (the rows; the L2 sees the copy's sectors alone).
     * The register-staged loads are issued at the top of a k step and landed
     * by its own st.shared at the bottom (CUTLASS MmaPipelined), so only that
     * step's other work overlaps their latency, no stage ahead (staged): ncu's
     * stall samples of g091 (256x128) and g104 (128x128) find 30 and 38 % of
     * the warps waiting on the loads, at the PRMT that packs them for the
     * store (data/h200/sass_stalls.csv). */
    int ldg = s->fam == GC_GEMM_FAM_MMA_LDG;
    gc_kphase_t *cph[2] = {&k->loop, &k->prologue};
    const double cpn[2] = {copies * (steps - pro) / steps, copies * pro};
    for (int i = 0; i < 2; i++) {
        gc_kop_t *cp = add_mem(b, cph[i], GC_OP_CP_ASYNC, cpn[i], w);
        cp->l1 = w < 16 && !ldg;
        cp->ways = w < 16 ? 4 : 1;
        cp->staged = ldg;
        if (ldg)
            add_mem(b, cph[i], GC_OP_STS, cpn[i] * w / 16, 16);
    }
    add(b, &k->loop, GC_OP_BAR, 1);
    add_alu(b, &k->loop, "imad", 16 + copies * 2, 0);
    epilogue(b, s, W);
    k->block[0] = 32L * s->warps;
    k->regs = s->regs > 0 ? s->regs : fmin(255, wm * wn / 32 + 64 + (wm + wn) / 4);
    k->shared_bytes = s->stages * tile_in;
    inst_text(info, "mma ", shape, s->dt, "");
}

/* CUDA-core SGEMM (cuBLAS sm80_xmma ffma, CUTLASS simt_sgemm), counted
 * per warp and k step of 8 off the loops the profiler executed (SASS of
 * data/h200 rows g035 32x32, g037 128x64, g038 simt 256x128, g039 256x128:
 * every loop instruction ran tiles x k steps times). Each thread holds
 * tm x tn outputs: o * 8 FFMA; its fragments by LDS.128, (tm + tn) / 4 a k;
 * A and B land in shared memory by 4-byte cp.async (the kernels are
 * aligna4 / align1 of f32: LDGSTS.E.LTC128B), each with a 64-bit address
 * add (IADD3 + IADD3.X); then loop control the four loops share: 6 more
 * IADD3 and ~40 compares, selects, predicate moves, uniform adds and moves,
 * the branch, the barrier and its cp.async waits (37-49 a k step in the
 * four). */
typedef struct ffma_counts {
    double o, tm, tn;                       /* outputs a thread, as tm x tn */
    double ffma, lds, copies, iadd3, isetp; /* a warp's per k step */
} ffma_counts_t;

static ffma_counts_t ffma_counts(const gc_gemm_spec_t *s)
{
    ffma_counts_t c;
    double W = s->warps, bk = s->bk;
    c.o = (double)s->bm * s->bn / (32 * W);
    c.tm = pow(2, floor(log2(sqrt(c.o))));
    c.tn = c.o / c.tm;
    c.ffma = c.o * bk;
    c.lds = (c.tm + c.tn) / 4 * bk;
    c.copies = (double)(s->bm + s->bn) * bk * 4 / 4 / (32 * W);
    c.iadd3 = 2 * c.copies + 6;
    c.isetp = 40;
    return c;
}

double gc_gemm_ffma_step_inst(const gc_gemm_spec_t *s)
{
    ffma_counts_t c = ffma_counts(s);
    return c.ffma + c.lds + c.copies + 1 + c.iadd3 + c.isetp; /* the 1: the barrier */
}

static void build_ffma(bld_t *b, const gc_gemm_spec_t *s, gc_gemm_result_t *info)
{
    gc_kernel_t *k = b->k;
    ffma_counts_t c = ffma_counts(s);
    double W = s->warps, bk = s->bk, tile_in = (double)(s->bm + s->bn) * bk * 4;
    add_alu(b, &k->loop, "ffma", c.ffma, c.o);
    gc_kop_t *l = add_mem(b, &k->loop, GC_OP_LDS, c.lds, 16);
    l->broadcast = 1; /* lanes in a row of the warp's layout share an address */
    add_mem(b, &k->loop, GC_OP_CP_ASYNC, c.copies, 4);
    add(b, &k->loop, GC_OP_BAR, 1);
    add_alu(b, &k->loop, "iadd3", c.iadd3, 0);
    add_alu(b, &k->loop, "isetp", c.isetp, 0);
    double ob = 4, cb = (double)s->bm * s->bn * ob;
    gc_kop_t *st = add_mem(b, &k->epilogue, GC_OP_STG, cb / (W * 512), 16);
    st->sectors = 16;
    k->block[0] = 32L * s->warps;
    k->regs = s->regs > 0 ? s->regs : fmin(255, c.o + 2 * (c.tm + c.tn) + 48);
    k->shared_bytes = s->stages * tile_in;
    gc_sbuf_copy(info->inst, sizeof(info->inst), "ffma");
}

/* matrix x vector (cuBLAS gemvx, as profiled: blocks of 32 x 16 threads,
 * 32 outputs a block, one a lane, the 16 warps splitting K), counted off
 * the loop the profiler executed (SASS of data/h200 row g043: 4 trips of
 * 382 instructions a warp for K = 4096): a trip takes 64 k of the warp's
 * K / 16, issuing 64 coalesced 4-byte loads of the matrix (LDG.E.EF, one
 * 128-byte line each) and 64 of the vector (every lane the same word), all
 * before the first use, 134 IMAD of addresses, then one dependent chain of
 * 64 FFMA into a single accumulator; the 16 partial sums are added through
 * shared memory, halving 4 times (LDS, LDS, FADD, STS and a barrier each). */
static void build_gemv(bld_t *b, const gc_gemm_spec_t *s, gc_gemm_result_t *info)
{
    gc_kernel_t *k = b->k;
    long outs = s->m == 1 ? s->n : s->m;
    k->grid[0] = (long)ceil(outs / 32.0);
    k->grid[1] = 1;
    k->grid[2] = s->batch;
    k->block[0] = 32;
    k->block[1] = 16;
    k->regs = 128;
    k->loop.trips = ceil(s->k / (16 * 64.0));
    double eb = gc_gemm_in_bytes(s->dt);
    add_mem(b, &k->loop, GC_OP_LDG, 64, eb)->l1 = 0;
    gc_kop_t *x = add_mem(b, &k->loop, GC_OP_LDG, 64, eb);
    x->l1 = 0;
    x->sectors = x->lines = 1; /* one word for the whole warp */
    add_alu(b, &k->loop, "ffma", 64, 1);
    add_alu(b, &k->loop, "imad", 134, 0);
    add(b, &k->epilogue, GC_OP_BAR, 5);
    add_mem(b, &k->epilogue, GC_OP_LDS, 8, 4);
    add_alu(b, &k->epilogue, "fadd", 4, 1);
    add_mem(b, &k->epilogue, GC_OP_STS, 5, 4);
    add_mem(b, &k->epilogue, GC_OP_STG, 1.0 / 16, 4);
    k->read_bytes = ((double)outs * s->k + s->k) * eb * s->batch;
    /* the matrix streams once (its loads evict first); what is read again
     * is the vector, which stays in the L2 */
    k->reuse_bytes = s->k * eb * s->batch;
    k->write_bytes = outs * gc_gemm_out_bytes(s->dt) * s->batch;
    gc_sbuf_copy(info->inst, sizeof(info->inst), "ffma");
}

/* split-K reduction (cublasLt splitKreduce_kernel as profiled: 32 x 16
 * threads, 32 columns a block). The grid's rows: blocks of 16 rows, each
 * thread taking `iters` rows one after another so that the grid stays near
 * 512 blocks (every grid of the train rows: x * y = 512 or fewer blocks of
 * one row each). Counted off its loop (SASS of data/h200 rows g104, g086:
 * 60 instructions an output with split 4; 16 partial loads and 16 FADD a
 * trip with split 32): per output, the split f32 partials, 16 loads issued
 * at once and then added in a chain, ~40 instructions of addresses, the
 * alpha/beta scaling, the conversion and the store; ~50 instructions of
 * setup (parameter loads) before. The partials were just written by the
 * main kernel: they sit in the L2. */
static void build_reduce(bld_t *b, const gc_gemm_spec_t *s)
{
    gc_kernel_t *k = b->k;
    double gx = ceil(s->n / 32.0), rows16 = ceil(s->m / 16.0);
    double iters = fmax(1, floor(gx * rows16 / 512));
    double chunk = fmin(16, s->split), chunks = ceil(s->split / 16.0);
    k->grid[0] = (long)gx;
    k->grid[1] = (long)ceil(rows16 / iters);
    k->grid[2] = s->batch;
    k->block[0] = 32;
    k->block[1] = 16;
    k->regs = 32;
    k->loop.trips = iters * chunks;
    add_mem(b, &k->loop, GC_OP_LDG, chunk, 4)->l1 = 0;
    add_alu(b, &k->loop, "fadd", chunk, 1);
    add_alu(b, &k->loop, "imad", 1.5 * chunk + 40 / chunks, 0);
    add_mem(b, &k->loop, GC_OP_STG, 1 / chunks, gc_gemm_out_bytes(s->dt));
    add_alu(b, &k->prologue, "imad", 50, 1);
    double mn = (double)s->m * s->n * s->batch;
    k->read_bytes = mn * 4 * s->split;
    k->write_bytes = mn * gc_gemm_out_bytes(s->dt);
    k->l2_warm = 1;
}

/* the workspace memset (cudaMemsetAsync of a few KiB of tile counters; 16
 * registers, as the operator templates give the memsets PyTorch launches:
 * a description holds 1 to 255) */
static void build_memset(bld_t *b)
{
    gc_kernel_t *k = b->k;
    k->block[0] = 32;
    k->regs = 16;
    add_mem(b, &k->loop, GC_OP_STG, 1, 16);
    k->write_bytes = 512;
}

int gc_gemm_build(const gc_arch_t *a, const gc_gemm_spec_t *s, gc_kernel_t **out,
                  gc_gemm_result_t *info, gc_err_t *err)
{
    *out = NULL;
    gc_gemm_result_t scratch;
    if (!info)
        info = &scratch;
    char name[96];
    gc_sbuf_t sb;
    gc_sbuf_init(&sb, name, sizeof(name));
    gc_gemm_shape_text(gc_sbuf_str(&sb, gc_gemm_family_name(s->fam)), s->m, s->n, s->k, s->dt);
    bld_t b = {gc_kernel_create(name), 1};
    if (!b.k)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    b.k->source = "gpucal gemm template (model/predict/gemm_build.c)";
    int main_k = s->fam <= GC_GEMM_FAM_FFMA;
    if (main_k) {
        tile_grid(s, b.k);
        long kk = s->split > 1 ? (s->k + s->split - 1) / s->split : s->k;
        b.k->loop.trips = ceil((double)kk / s->bk);
        b.k->loop.stages = s->stages;
        footprint(a, s, b.k);
    }
    switch (s->fam) {
    case GC_GEMM_FAM_WGMMA:
        build_wgmma(&b, a, s, info);
        break;
    case GC_GEMM_FAM_MMA:
    case GC_GEMM_FAM_MMA_LDG:
        build_mma(&b, s, info);
        break;
    case GC_GEMM_FAM_FFMA:
        build_ffma(&b, s, info);
        break;
    case GC_GEMM_FAM_GEMV:
        build_gemv(&b, s, info);
        break;
    case GC_GEMM_FAM_REDUCE:
        build_reduce(&b, s);
        break;
    default:
        build_memset(&b);
        break;
    }
    if (!b.ok) {
        gc_kernel_destroy(b.k);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    b.k->footprint_given = GC_FP_READ | GC_FP_WRITE;
    *out = b.k;
    return 0;
}

void gc_gemm_lib_grid(const gc_arch_t *a, const gc_gemm_spec_t *s, long grid[3], int *persistent)
{
    double sms = a->sm.count.set ? a->sm.count.v : 1;
    double tiles = ceil((double)s->m / s->bm) * ceil((double)s->n / s->bn) * s->split * s->batch;
    *persistent = s->fam == GC_GEMM_FAM_WGMMA && tiles > sms;
    grid[0] = *persistent ? (long)sms : (long)ceil((double)s->n / s->bn);
    grid[1] = *persistent ? 1 : (long)ceil((double)s->m / s->bm);
    grid[2] = *persistent ? 1 : (long)s->split * s->batch;
}
