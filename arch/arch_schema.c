/* arch_schema.c - the tables of gpucal-arch/1. Adding a key means adding one
 * line here (and the member in arch.h); loader, writer, compare and docs
 * follow. Keep `doc` to one sentence and name the unit in the key. */
#include "arch_schema.h"
#include "../util/suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"

#define NF(a) (sizeof(a) / sizeof((a)[0]))
#define Q(T, m, fl, lo, hi, unit, doc)                                                         \
    {                                                                                          \
        #m, GC_F_QTY, offsetof(T, m), fl, lo, hi, unit, NULL, 0, NULL, NULL, NULL, doc        \
    }
#define QK(k, T, m, fl, lo, hi, unit, doc)                                                     \
    {                                                                                          \
        k, GC_F_QTY, offsetof(T, m), fl, lo, hi, unit, NULL, 0, NULL, NULL, NULL, doc         \
    }
#define S(T, m, fl, choices, check, hint, doc)                                                 \
    {                                                                                          \
        #m, GC_F_STR, offsetof(T, m), fl, 0, 0, NULL, NULL, 0, choices, check, hint, doc      \
    }
#define FL(T, m, fl, doc)                                                                      \
    {                                                                                          \
        #m, GC_F_FLAG, offsetof(T, m), fl, 0, 0, NULL, NULL, 0, NULL, NULL, NULL, doc         \
    }
#define M(T, m, fl, sub, doc)                                                                  \
    {                                                                                          \
        #m, GC_F_MAP, offsetof(T, m), fl, 0, 0, NULL, &sub, 0, NULL, NULL, NULL, doc          \
    }
#define L(T, m, fl, sub, doc)                                                                  \
    {                                                                                          \
        #m, GC_F_LIST, offsetof(T, m), fl, 0, 0, NULL, &sub, offsetof(T, n_##m), NULL, NULL,  \
            NULL, doc                                                                          \
    }

#define BIG 1e7
#define LAT 1e5 /* cycles: no latency on any GPU is near this */

/* ---- physical floors of the GC_F_POS values, by unit (arch/README.md,
 * "Bounds", gives each reason) ---- */

static const struct {
    const char *unit;
    double floor;
} unit_floors[] = {
    {"MHz", 1},                  /* no GPU clock runs below 1 MHz (idle: ~100 MHz) */
    {"GB/s", 0.01},              /* 10 MB/s: below any GPU link, even PCIe 1.0 x1 */
    {"TFLOP/s", 1e-6},           /* 1 MFLOP/s: below one SM at its lowest clock */
    {"KiB", 1},                  /* capacities: no cache or shared memory below 1 KiB */
    {"KiB/SM", 1},
    {"KiB/block", 1},
    {"MiB", 1.0 / 1024},         /* 1 KiB */
    {"GiB", 1.0 / 1048576},      /* 1 KiB */
    {"cycles", 1e-3},            /* one event per 1000 issue slots: finer than any clock */
    {"cycles/way", 1e-3},
    {"sub-cores", 1e-3},
    {"FMA/clk/SM", 1e-3},        /* rates: one operation per 1000 cycles per SM */
    {"thread-ops/clk/SM", 1e-3},
    {"bytes/clk/SM", 1e-3},
    {"bytes/clk", 1e-3},
};

double gc_field_floor(const gc_field_t *f)
{
    if (!(f->flags & GC_F_POS))
        return 0;
    for (size_t i = 0; i < NF(unit_floors); i++)
        if (f->unit && !strcmp(f->unit, unit_floors[i].unit))
            return unit_floors[i].floor;
    return 1e-3; /* a unit not listed: the rate floor */
}

/* ---- string checks ---- */

static int check_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '-'))
            return -1;
    return 0;
}

static int check_cc(const char *s)
{
    int maj, min, k = 0;
    if (sscanf(s, "%d.%d%n", &maj, &min, &k) != 2 || s[k] || maj < 1 || maj > 20 || min < 0 ||
        min > 9 || strchr(s, '.')[2] != '\0')
        return -1;
    return 0;
}

static int check_shape(const char *s)
{
    return gc_tensor_shape(s, NULL, NULL, NULL);
}

static int check_hex(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 8)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
            return -1;
    return 0;
}

static int check_op(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 48)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '.' ||
              s[i] == '_'))
            return -1;
    return 0;
}

static const char *const families[] = {"turing", "ampere", "ada", "hopper", "blackwell", NULL};
static const char *const insts[] = {"mma", "mma.sp", "wgmma", "wgmma.sp", "wmma", NULL};
static const char *const atypes[] = {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8",
                                     "s4",  "u4",   "b1",   "f64",  NULL};
static const char *const ctypes[] = {"f16", "f32", "s32", "f64", NULL};
static const char *const operands[] = {"ss", "rs", NULL};
static const char *const patterns[] = {"zero", "rand", NULL};
const char *const gc_rounding_names[5] = {"rz", "rn", "rd", "ru", NULL};
static const char *const subnormals[] = {"keep", "flush", NULL};
static const char *const num_insts[] = {"mma", "wgmma", NULL};
static const char *const align_exps[] = {"sum", "lead", NULL};
static const char *const overflows[] = {"inf", "ieee", NULL};
static const char *const zero_signs[] = {"pos", "ieee", NULL};
static const char *const tf32_ops[] = {"truncate", "round", NULL};
static const char *const c_orders[] = {"first", "last", NULL};
static const char *const truncs[] = {"zero", "floor", NULL};

/* ---- labels of list entries ---- */

static const char *label_conv(const void *e, char *buf, size_t n)
{
    const gc_conv_t *c = e;
    snprintf(buf, n, "%gx%g", c->warps.v, c->ilp.v);
    return buf;
}

static const char *label_tensor(const void *e, char *buf, size_t n)
{
    return gc_tensor_label(e, buf, n);
}

static const char *label_alu(const void *e, char *buf, size_t n)
{
    snprintf(buf, n, "%s", ((const gc_alu_t *)e)->op ? ((const gc_alu_t *)e)->op : "?");
    return buf;
}

static const char *label_dpx(const void *e, char *buf, size_t n)
{
    snprintf(buf, n, "%s", ((const gc_dpx_t *)e)->op ? ((const gc_dpx_t *)e)->op : "?");
    return buf;
}

static const char *label_ldm(const void *e, char *buf, size_t n)
{
    const gc_ldmatrix_t *l = e;
    snprintf(buf, n, "x%g%s", l->num.v, l->trans.set && l->trans.val ? ".trans" : "");
    return buf;
}

static const char *label_conflict(const void *e, char *buf, size_t n)
{
    const gc_conflict_t *c = e;
    snprintf(buf, n, "%gB %g-way", c->width_bytes.v, c->ways.v);
    return buf;
}

static const char *label_dsm(const void *e, char *buf, size_t n)
{
    snprintf(buf, n, "cluster %g", ((const gc_dsm_point_t *)e)->cluster.v);
    return buf;
}

static const char *label_coissue(const void *e, char *buf, size_t n)
{
    snprintf(buf, n, "%g warps", ((const gc_coissue_t *)e)->warps.v);
    return buf;
}

static const char *label_tclock(const void *e, char *buf, size_t n)
{
    const gc_tclock_t *t = e;
    snprintf(buf, n, "%s %g", t->inst ? t->inst : "?", t->activity.v);
    return buf;
}

static const char *label_num(const void *e, char *buf, size_t n)
{
    const gc_numerics_t *x = e;
    if (x->inst && strcmp(x->inst, "mma"))
        snprintf(buf, n, "%s:%s.%s", x->inst, x->a ? x->a : "?", x->c ? x->c : "?");
    else
        snprintf(buf, n, "%s.%s", x->a ? x->a : "?", x->c ? x->c : "?");
    return buf;
}

/* ---- tables ---- */

static const gc_field_t conv_mma_f[] = {
    Q(gc_conv_t, warps, GC_F_REQ | GC_F_INT, 1, 64, "warps/SM", "Warps per SM at this point."),
    Q(gc_conv_t, ilp, GC_F_REQ | GC_F_INT, 1, 64, "instructions",
      "Independent instructions in flight per warp (ILP)."),
    Q(gc_conv_t, latency_cyc, GC_F_POS, 0, LAT, "cycles",
      "Cycles per instruction seen by one warp at this point."),
    QK("fma_clk_sm", gc_conv_t, rate, GC_F_POS, 0, BIG, "FMA/clk/SM",
       "Throughput at this point, in multiply-adds per clock per SM."),
};
static const gc_schema_t conv_mma_s = {"convergence point", sizeof(gc_conv_t), conv_mma_f,
                                       NF(conv_mma_f), label_conv};

static const gc_field_t conv_ldm_f[] = {
    Q(gc_conv_t, warps, GC_F_REQ | GC_F_INT, 1, 64, "warps/SM", "Warps per SM at this point."),
    Q(gc_conv_t, ilp, GC_F_REQ | GC_F_INT, 1, 64, "instructions",
      "Independent instructions in flight per warp (ILP)."),
    Q(gc_conv_t, latency_cyc, GC_F_POS, 0, LAT, "cycles",
      "Cycles per instruction seen by one warp at this point."),
    QK("bytes_clk_sm", gc_conv_t, rate, GC_F_POS, 0, BIG, "bytes/clk/SM",
       "Throughput at this point, in bytes per clock per SM."),
};
static const gc_schema_t conv_ldm_s = {"convergence point", sizeof(gc_conv_t), conv_ldm_f,
                                       NF(conv_ldm_f), label_conv};

static const gc_field_t tensor_f[] = {
    S(gc_tensor_t, inst, GC_F_REQ, insts, NULL, NULL, "PTX instruction family."),
    S(gc_tensor_t, shape, GC_F_REQ, NULL, check_shape, "mMnNkK, e.g. m16n8k16",
      "PTX shape; for sparse forms the k of the PTX instruction (the uncompressed k)."),
    S(gc_tensor_t, a, GC_F_REQ, atypes, NULL, NULL, "Type of A and B."),
    S(gc_tensor_t, c, GC_F_REQ, ctypes, NULL, NULL, "Type of C and D (the accumulator)."),
    S(gc_tensor_t, operands, 0, operands, NULL, NULL,
      "wgmma only: ss = A and B in shared memory, rs = A in registers."),
    S(gc_tensor_t, data, 0, patterns, NULL, NULL,
      "Data pattern the figures were measured with (zero or random)."),
    S(gc_tensor_t, sass, 0, NULL, NULL, NULL, "SASS opcode the instruction compiles to."),
    Q(gc_tensor_t, latency_cyc, GC_F_POS, 0, LAT, "cycles",
      "Completion latency: one warp (one warpgroup for wgmma), ILP 1."),
    Q(gc_tensor_t, issue_cyc, GC_F_POS, 0, 1e4, "cycles",
      "Issue interval of the pipe per sub-core: cycles between two instructions at full rate "
      "(fitted)."),
    Q(gc_tensor_t, overhead_cyc, 0, 0, 1e4, "cycles",
      "Per-warp overhead added to each dependent instruction when several warps share a "
      "sub-core (fitted)."),
    Q(gc_tensor_t, sub_cores, GC_F_POS, 0, 16, "sub-cores",
      "Sub-cores that execute this form in parallel (fitted; 4 on all current SMs)."),
    Q(gc_tensor_t, peak_fma_clk_sm, GC_F_POS, 0, BIG, "FMA/clk/SM",
      "Best throughput over the ILP x warps sweep (sparse: dense-equivalent FMA)."),
    Q(gc_tensor_t, peak_tflops, GC_F_POS, 0, 1e5, "TFLOP/s",
      "Best whole-GPU throughput as reported (2 flops per FMA), at clock_mhz."),
    Q(gc_tensor_t, clock_mhz, GC_F_POS, 0, 1e4, "MHz",
      "SM clock the throughput figures were taken at."),
    Q(gc_tensor_t, peak_warps, GC_F_INT, 1, 64, "warps/SM", "Warps per SM at the peak: the fewest warps x ILP within 1 % of the best rate."),
    Q(gc_tensor_t, peak_ilp, GC_F_INT, 1, 64, "instructions", "ILP at the peak (the same point as peak_warps)."),
    L(gc_tensor_t, conv, GC_F_FLOW, conv_mma_s,
      "Convergence points of the sweep: where throughput stops growing with ILP or warps."),
};
static const gc_schema_t tensor_s = {"tensor entry", sizeof(gc_tensor_t), tensor_f,
                                     NF(tensor_f), label_tensor};

static const gc_field_t alu_f[] = {
    S(gc_alu_t, op, GC_F_REQ, NULL, check_op, "lower case, e.g. ffma or mufu.ex2",
      "SASS-level operation: ffma, fadd, fmul, hfma2, imad, iadd3, dfma, mufu.ex2, ..."),
    Q(gc_alu_t, latency_cyc, GC_F_POS, 0, LAT, "cycles",
      "Dependent-issue latency (one warp, ILP 1)."),
    Q(gc_alu_t, ops_clk_sm, GC_F_POS, 0, 1e5, "thread-ops/clk/SM",
      "Throughput: per-thread instructions completed per clock per SM."),
};
static const gc_schema_t alu_s = {"alu entry", sizeof(gc_alu_t), alu_f, NF(alu_f), label_alu};

static const gc_field_t ldm_f[] = {
    Q(gc_ldmatrix_t, num, GC_F_REQ | GC_F_INT, 1, 4, "matrices",
      "Number of 8x8 b16 matrices per instruction (x1, x2, x4)."),
    FL(gc_ldmatrix_t, trans, 0, "The .trans variant."),
    Q(gc_ldmatrix_t, latency_cyc, GC_F_POS, 0, LAT, "cycles", "Completion latency (ILP 1)."),
    Q(gc_ldmatrix_t, peak_bytes_clk_sm, GC_F_POS, 0, 1e4, "bytes/clk/SM",
      "Best throughput over the ILP x warps sweep."),
    Q(gc_ldmatrix_t, peak_warps, GC_F_INT, 1, 64, "warps/SM", "Warps per SM at the peak: the fewest warps x ILP within 1 % of the best rate."),
    Q(gc_ldmatrix_t, peak_ilp, GC_F_INT, 1, 64, "instructions", "ILP at the peak (the same point as peak_warps)."),
    L(gc_ldmatrix_t, conv, GC_F_FLOW, conv_ldm_s, "Convergence points of the sweep."),
};
static const gc_schema_t ldm_s = {"ldmatrix entry", sizeof(gc_ldmatrix_t), ldm_f, NF(ldm_f),
                                  label_ldm};

static const gc_field_t conflict_f[] = {
    Q(gc_conflict_t, width_bytes, GC_F_REQ | GC_F_INT, 1, 16, "bytes",
      "Access width per thread (4, 8 or 16)."),
    Q(gc_conflict_t, ways, GC_F_REQ | GC_F_INT, 1, 32, "ways",
      "Bank-conflict degree: threads of a warp hitting one bank."),
    Q(gc_conflict_t, latency_cyc, GC_F_POS, 0, LAT, "cycles", "ld.shared latency at this degree."),
};
static const gc_schema_t conflict_s = {"bank-conflict entry", sizeof(gc_conflict_t), conflict_f,
                                       NF(conflict_f), label_conflict};

static const gc_field_t dsm_pt_f[] = {
    Q(gc_dsm_point_t, cluster, GC_F_REQ | GC_F_INT, 1, 16, "blocks", "Cluster size."),
    Q(gc_dsm_point_t, latency_cyc, GC_F_POS, 0, LAT, "cycles",
      "Remote shared-memory load latency at this cluster size."),
    Q(gc_dsm_point_t, bw_gbs, GC_F_POS, 0, 1e5, "GB/s",
      "Whole-GPU SM-to-SM throughput (ring pattern) at this cluster size."),
};
static const gc_schema_t dsm_pt_s = {"dsm entry", sizeof(gc_dsm_point_t), dsm_pt_f,
                                     NF(dsm_pt_f), label_dsm};

static const gc_field_t dpx_f[] = {
    S(gc_dpx_t, op, GC_F_REQ, NULL, check_op, "lower case, e.g. viaddmax_s32",
      "DPX function, named as in CUDA without the leading __."),
    Q(gc_dpx_t, latency_cyc, GC_F_POS, 0, LAT, "cycles", "Dependent-issue latency."),
    Q(gc_dpx_t, ops_clk_sm, GC_F_POS, 0, 1e5, "thread-ops/clk/SM", "Throughput per SM."),
};
static const gc_schema_t dpx_s = {"dpx entry", sizeof(gc_dpx_t), dpx_f, NF(dpx_f), label_dpx};

static const gc_field_t num_f[] = {
    S(gc_numerics_t, a, GC_F_REQ, atypes, NULL, NULL, "Type of A and B."),
    S(gc_numerics_t, c, GC_F_REQ, ctypes, NULL, NULL, "Type of C and D."),
    FL(gc_numerics_t, products_exact, 0,
       "Products a*b are formed exactly (no rounding before the sum)."),
    Q(gc_numerics_t, align_bits, GC_F_INT, 0, 64, "bits",
      "Extra bits kept below the largest addend's last bit when addends are aligned."),
    Q(gc_numerics_t, group, GC_F_INT, 1, 1024, "products",
      "Products summed in one fused step before the accumulator is rounded."),
    S(gc_numerics_t, rounding, 0, gc_rounding_names, NULL, NULL,
      "Rounding of the fused sum into the accumulator."),
    S(gc_numerics_t, subnormals, 0, subnormals, NULL, NULL,
      "Subnormal inputs and results: kept or flushed to zero."),
    S(gc_numerics_t, note, 0, NULL, NULL, NULL, "What else was found."),
    S(gc_numerics_t, inst, 0, num_insts, NULL, NULL,
      "Instruction the entry describes (absent: mma); wgmma may differ (FP8 on Hopper)."),
    S(gc_numerics_t, align_exp, 0, align_exps, NULL, NULL,
      "Exponent addends are aligned to: sum = ea+eb of each product before it is normalised, "
      "lead = its leading bit."),
    Q(gc_numerics_t, acc_bits, GC_F_INT, 2, 64, "bits",
      "Significand bits of the accumulator (24: f32); the cut lies align_bits below its last bit."),
    S(gc_numerics_t, out_rounding, 0, gc_rounding_names, NULL, NULL, "Rounding into an f16 C/D."),
    FL(gc_numerics_t, out_direct, 0,
       "f16 C/D: each fused sum is rounded straight to f16, not via the f32 accumulator."),
    S(gc_numerics_t, overflow, 0, overflows, NULL, NULL,
      "Results beyond the largest finite value: inf whatever the rounding, or as IEEE."),
    S(gc_numerics_t, zero_sign, 0, zero_signs, NULL, NULL,
      "Sign of a zero result: always + (pos), or as IEEE."),
    S(gc_numerics_t, nan, 0, NULL, check_hex, "lower-case hex bits, e.g. 7fffffff",
      "The NaN every NaN-producing case returns, as C/D bits in hex."),
    S(gc_numerics_t, tf32_operands, 0, tf32_ops, NULL, NULL,
      "tf32 operands given as f32: low 13 bits ignored (truncate) or rounded."),
    S(gc_numerics_t, c_order, 0, c_orders, NULL, NULL,
      "c joins the first fused step, or is added last by a separate IEEE addition."),
    S(gc_numerics_t, c_rounding, 0, gc_rounding_names, NULL, NULL,
      "Rounding of that separate addition (c_order last)."),
    S(gc_numerics_t, trunc, 0, truncs, NULL, NULL,
      "The alignment cuts negative addends toward zero, or toward -inf (two's complement)."),
    Q(gc_numerics_t, interleave, GC_F_INT, 0, 1024, "products",
      "0: step s sums products s*group.. in k order; w: product i goes to step (i/w) mod steps."),
};
static const gc_schema_t num_s = {"numerics entry", sizeof(gc_numerics_t), num_f, NF(num_f),
                                  label_num};

#define OV(m, what)                                                                            \
    Q(gc_coissue_t, m, 0, 0, 1, "fraction", "Share hidden beside " what " at these warps.")
static const gc_field_t coissue_f[] = {
    Q(gc_coissue_t, warps, GC_F_REQ | GC_F_INT, 1, 256, "warps/SM",
      "Warps on the SM (one block) at this point."),
    OV(fma, "FMA-pipe work (ffma)"),
    OV(alu, "ALU-pipe work (iadd3)"),
    OV(xu, "MUFU work (ex2)"),
    OV(ldsm, "shared-memory loads (ldmatrix.x4, addresses independent of earlier loads)"),
    OV(shfl, "warp shuffles (shfl.sync.bfly)"),
};
#undef OV
static const gc_schema_t coissue_s = {"coissue entry", sizeof(gc_coissue_t), coissue_f,
                                      NF(coissue_f), label_coissue};

static const char *const tclock_insts[] = {"wgmma", "mma", NULL};
static const gc_field_t tclock_f[] = {
    S(gc_tclock_t, inst, GC_F_REQ, tclock_insts, NULL, NULL,
      "Tensor instructions of the load: wgmma, or mma (mma.sync)."),
    Q(gc_tclock_t, activity, GC_F_REQ, 0, 1, "fraction",
      "Share of the time the tensor pipes are busy: the load's tensor rate per SM clock over "
      "the full load's (0: no tensor work, 1: the full load)."),
    Q(gc_tclock_t, clock_mhz, GC_F_REQ | GC_F_POS, 0, 1e4, "MHz",
      "SM clock sustained at this activity."),
};
static const gc_schema_t tclock_s = {"tensor clock point", sizeof(gc_tclock_t), tclock_f,
                                     NF(tclock_f), label_tclock};

static const gc_field_t sm_f[] = {
    Q(gc_sm_t, count, GC_F_REQ | GC_F_INT, 1, 1024, "SMs", "Streaming multiprocessors."),
    Q(gc_sm_t, sub_cores, GC_F_REQ | GC_F_INT, 1, 8, "sub-cores/SM",
      "Processing blocks per SM, each with its own warp scheduler and tensor core."),
    Q(gc_sm_t, fp32_lanes, GC_F_INT, 1, 1024, "lanes/SM", "FP32 lanes (CUDA cores) per SM."),
    Q(gc_sm_t, tensor_cores, GC_F_INT, 1, 64, "tensor cores/SM", "Tensor cores per SM."),
    Q(gc_sm_t, clock_base_mhz, GC_F_POS, 0, 1e4, "MHz", "Base SM clock."),
    Q(gc_sm_t, clock_max_mhz, GC_F_REQ | GC_F_POS, 0, 1e4, "MHz", "Maximum (boost) SM clock."),
    Q(gc_sm_t, clock_tensor_mhz, GC_F_POS, 0, 1e4, "MHz",
      "SM clock sustained under a heavy tensor-core load (measured)."),
    Q(gc_sm_t, clock_mma_mhz, GC_F_POS, 0, 1e4, "MHz",
      "SM clock sustained under a heavy mma.sync load (measured; on Hopper below "
      "clock_tensor_mhz's wgmma load in power, so higher)."),
    Q(gc_sm_t, clock_fma_mhz, GC_F_POS, 0, 1e4, "MHz",
      "SM clock sustained under a heavy CUDA-core FP32 load (every SM full of warps issuing "
      "FFMA; measured)."),
    Q(gc_sm_t, clock_memory_mhz, GC_F_POS, 0, 1e4, "MHz",
      "SM clock sustained under a memory-bound load (measured)."),
    Q(gc_sm_t, max_threads, GC_F_INT, 32, 8192, "threads/SM", "Resident threads per SM."),
    Q(gc_sm_t, max_warps, GC_F_INT, 1, 256, "warps/SM", "Resident warps per SM."),
    Q(gc_sm_t, max_blocks, GC_F_INT, 1, 256, "blocks/SM", "Resident blocks per SM."),
    Q(gc_sm_t, max_block_threads, GC_F_INT, 32, 4096, "threads", "Threads per block."),
    Q(gc_sm_t, registers, GC_F_INT, 1024, 1048576, "32-bit registers/SM", "Register file."),
    Q(gc_sm_t, max_regs_thread, GC_F_INT, 16, 1024, "registers", "Registers per thread."),
    Q(gc_sm_t, reg_alloc_unit, GC_F_INT, 1, 4096, "registers/warp",
      "Register allocation granularity per warp."),
    Q(gc_sm_t, shared_max_kib, GC_F_POS, 0, 4096, "KiB/SM",
      "Most shared memory one SM can give its blocks."),
    Q(gc_sm_t, shared_block_max_kib, GC_F_POS, 0, 4096, "KiB/block",
      "Most shared memory one block can have (opt-in)."),
    Q(gc_sm_t, l1_shared_kib, GC_F_POS, 0, 4096, "KiB/SM",
      "Combined L1 data cache and shared memory per SM."),
    Q(gc_sm_t, launch_overhead_us, 0, 0, 1e4, "us", "Time to launch an empty kernel."),
    Q(gc_sm_t, kernel_floor_us, GC_F_POS, 0, 1e3, "us",
      "GPU time per kernel of a CUDA graph of empty one-block kernels: the least a kernel "
      "costs the GPU with no host launch between kernels."),
    Q(gc_sm_t, block_dispatch_ns, GC_F_POS, 0, 1e5, "ns/block/SM",
      "GPU time per further block on each SM, from graphs of empty kernels of 64 and 256 "
      "blocks per SM: the rate at which the GPU starts blocks that do nothing."),
    Q(gc_sm_t, const_miss_cyc, GC_F_POS, 0, 1e5, "cycles/line",
      "What each further 64-byte line of parameters a kernel's code reads costs it once a "
      "launch (the cold bench: a constant-cache miss stalls the warp's issue until the line "
      "arrives; each launch brings its own parameters)."),
    Q(gc_sm_t, code_miss_cyc, GC_F_POS, 0, 1e5, "cycles/jump",
      "What a jump into code 2 KiB or more away costs a kernel once a launch (the cold bench: "
      "the instruction cache does not keep a kernel's code from one launch to the next)."),
    Q(gc_sm_t, issue_1warp_ratio, 0, 1, 4, "ratio",
      "Cycles per instruction of a warp alone on its sub-core, over those of a sub-core at "
      "its peak (the alu bench's FFMA rows at full ILP): one warp cannot issue every cycle."),
    Q(gc_sm_t, overlap_tensor_fma, 0, 0, 1, "fraction",
      "How much of the shorter of mma.sync and FMA-pipe work (ffma) a sub-core hides when "
      "both run in the same warps: 1 the pair takes the longer alone, 0 both in turn."),
    Q(gc_sm_t, overlap_tensor_alu, 0, 0, 1, "fraction",
      "The same for mma.sync beside ALU-pipe work (iadd3)."),
    Q(gc_sm_t, overlap_tensor_xu, 0, 0, 1, "fraction",
      "The same for mma.sync beside MUFU work (ex2)."),
    Q(gc_sm_t, overlap_tensor_ldsm, 0, 0, 1, "fraction",
      "The same for mma.sync beside shared-memory loads (ldmatrix.x4 at addresses independent "
      "of earlier loads, as main loops load fragments)."),
    Q(gc_sm_t, overlap_tensor_shfl, 0, 0, 1, "fraction",
      "The same for mma.sync beside warp shuffles (shfl.sync.bfly)."),
    Q(gc_sm_t, power_limit_w, GC_F_POS, 0, 1e4, "W",
      "Board power limit the GPU enforces (NVML's enforced power limit): a kernel whose draw "
      "would pass it runs at the clock that keeps it there."),
    Q(gc_sm_t, power_idle_w, GC_F_POS, 0, 1e4, "W",
      "Board power with no load but one spinning thread (the clock bench's idle load)."),
    Q(gc_sm_t, power_exponent, 0, 0, 10, "exponent",
      "How tensor work's energy per busy pipe cycle scales with the SM clock, (clock / "
      "clock_max_mhz)^power_exponent (the voltage the clock needs, squared), fitted to the "
      "clock bench's full and partial tensor loads."),
    Q(gc_sm_t, energy_wgmma_pj, GC_F_POS, 0, 1e7, "pJ/SM cycle",
      "Board energy per SM cycle the tensor pipes are busy with wgmma (f16 into f32, random "
      "data; operands changing every instruction where the clock trace has the tensor_vary "
      "load) at clock_max_mhz, above power_idle_w."),
    Q(gc_sm_t, energy_mma_pj, GC_F_POS, 0, 1e7, "pJ/SM cycle",
      "The same for mma.sync."),
    L(gc_sm_t, coissue, GC_F_FLOW, coissue_s,
      "The overlaps above measured at several warps per SM (the coissue bench): a sub-core "
      "with fewer warps to choose from hides less."),
    L(gc_sm_t, tensor_clock, GC_F_FLOW, tclock_s,
      "SM clock against tensor-pipe activity, per instruction kind (the clock bench's full "
      "and partial tensor loads and its idle load): a kernel whose tensor pipes are busy part "
      "of the time holds a clock between the idle one and clock_tensor_mhz / clock_mma_mhz."),
};
static const gc_schema_t sm_s = {"sm", 0, sm_f, NF(sm_f), NULL};

static const gc_field_t l1_f[] = {
    Q(gc_l1_t, size_kib, GC_F_POS, 0, 4096, "KiB",
      "L1 data cache capacity seen by the P-chase (first inflection point)."),
    Q(gc_l1_t, line_bytes, GC_F_INT, 1, 1024, "bytes", "Cache line."),
    Q(gc_l1_t, sector_bytes, GC_F_INT, 1, 1024, "bytes", "Sector (unit of a fill)."),
    Q(gc_l1_t, latency_cyc, GC_F_POS, 0, LAT, "cycles", "Load latency on an L1 hit."),
    Q(gc_l1_t, bw_bytes_clk_sm, GC_F_POS, 0, 1e4, "bytes/clk/SM", "Throughput, 4-byte loads."),
    Q(gc_l1_t, bw_v4_bytes_clk_sm, GC_F_POS, 0, 1e4, "bytes/clk/SM",
      "Throughput, 16-byte loads."),
};
static const gc_schema_t l1_s = {"memory.l1", 0, l1_f, NF(l1_f), NULL};

static const gc_field_t shared_f[] = {
    Q(gc_shared_t, latency_cyc, GC_F_POS, 0, LAT, "cycles", "Load latency, no bank conflict."),
    Q(gc_shared_t, banks, GC_F_INT, 1, 128, "banks", "Banks."),
    Q(gc_shared_t, bank_bytes, GC_F_INT, 1, 64, "bytes", "Width of one bank."),
    Q(gc_shared_t, bw_bytes_clk_sm, GC_F_POS, 0, 1e4, "bytes/clk/SM",
      "Throughput, 4-byte loads."),
    Q(gc_shared_t, bw_v4_bytes_clk_sm, GC_F_POS, 0, 1e4, "bytes/clk/SM",
      "Throughput, 16-byte loads."),
    Q(gc_shared_t, conflict_cyc, GC_F_POS, 0, 1e3, "cycles/way",
      "Extra latency per additional conflict way (fitted)."),
    L(gc_shared_t, conflicts, GC_F_FLOW, conflict_s,
      "ld.shared latency by access width and conflict degree."),
};
static const gc_schema_t shared_s = {"memory.shared", 0, shared_f, NF(shared_f), NULL};

static const gc_field_t l2_f[] = {
    Q(gc_l2_t, size_mib, GC_F_POS, 0, 1e4, "MiB", "L2 capacity."),
    Q(gc_l2_t, partitions, GC_F_INT, 1, 16, "partitions",
      "L2 partitions with distinct latency (2 on A100/H100, 1 on RTX 4090)."),
    Q(gc_l2_t, partition_mib, GC_F_POS, 0, 1e4, "MiB",
      "Array size where the second (far) L2 plateau begins in the P-chase."),
    Q(gc_l2_t, line_bytes, GC_F_INT, 1, 1024, "bytes", "Cache line."),
    Q(gc_l2_t, sector_bytes, GC_F_INT, 1, 1024, "bytes", "Sector."),
    Q(gc_l2_t, latency_cyc, GC_F_POS, 0, LAT, "cycles",
      "Classic P-chase plateau for arrays below the partition size."),
    Q(gc_l2_t, latency_far_cyc, GC_F_POS, 0, LAT, "cycles",
      "Classic P-chase plateau between the partition size and the full L2."),
    Q(gc_l2_t, near_hit_cyc, GC_F_POS, 0, LAT, "cycles",
      "Fine-grained P-chase: hit in the SM's near partition (k-means centre)."),
    Q(gc_l2_t, far_hit_cyc, GC_F_POS, 0, LAT, "cycles", "Hit in the far partition."),
    Q(gc_l2_t, near_miss_cyc, GC_F_POS, 0, LAT, "cycles", "Miss served through the near partition."),
    Q(gc_l2_t, far_miss_cyc, GC_F_POS, 0, LAT, "cycles", "Miss served through the far partition."),
    Q(gc_l2_t, miss_sd_cyc, GC_F_POS, 0, LAT, "cycles",
      "Standard deviation of one miss's latency: every access of the fine-grained P-chase's "
      "arrays beyond the L2 that its clusters take for a miss (near, far and slower ones; the "
      "long tail left out)."),
    Q(gc_l2_t, near_share, 0, 0, 1, "fraction",
      "Share of L2 hits served by the near partition for an array below half the L2."),
    Q(gc_l2_t, bw_bytes_clk, GC_F_POS, 0, 1e6, "bytes/clk", "Whole-chip throughput, 4-byte loads."),
    Q(gc_l2_t, bw_v4_bytes_clk, GC_F_POS, 0, 1e6, "bytes/clk",
      "Whole-chip throughput, 16-byte loads."),
    Q(gc_l2_t, lines_bw_bytes_clk, GC_F_POS, 0, 1e6, "bytes/clk",
      "Whole-chip throughput when every 16-byte load reads a line of its own (the access "
      "of a transpose); / 16 = the line requests the L2 serves per clock."),
    Q(gc_l2_t, bw_clock_mhz, GC_F_POS, 0, 1e4, "MHz",
      "SM clock while the 16-byte L2 throughput row ran. The L2 has a clock of its own (ncu: "
      "1.71 GHz on the H100 whatever the SM clock), so the bytes/clk above hold at this SM "
      "clock and scale as bw_clock_mhz / clock at another."),
    Q(gc_l2_t, energy_pj_byte, GC_F_POS, 0, 1e4, "pJ/byte",
      "Board energy per byte read from the L2 by the SMs (the clock bench's l2 load, above "
      "sm.power_idle_w)."),
};
static const gc_schema_t l2_s = {"memory.l2", 0, l2_f, NF(l2_f), NULL};

static const gc_field_t dram_f[] = {
    S(gc_dram_t, type, 0, NULL, NULL, NULL, "Memory technology (HBM3, GDDR6X, ...)."),
    Q(gc_dram_t, size_gib, GC_F_POS, 0, 1e5, "GiB", "Capacity."),
    Q(gc_dram_t, bus_bits, GC_F_INT, 1, 65536, "bits", "Bus width."),
    Q(gc_dram_t, clock_mhz, GC_F_POS, 0, 1e5, "MHz", "Memory clock as the driver reports it."),
    Q(gc_dram_t, channels, GC_F_INT, 1, 1024, "channels",
      "Memory channels (controllers) the simulator models."),
    Q(gc_dram_t, bw_peak_gbs, GC_F_POS, 0, 1e5, "GB/s", "Datasheet bandwidth."),
    Q(gc_dram_t, bw_gbs, GC_F_POS, 0, 1e5, "GB/s",
      "Measured bandwidth, read + write counted, of a kernel reading five times per write "
      "(seed 004's method; the best mix when that kernel was not run)."),
    Q(gc_dram_t, latency_cyc, GC_F_POS, 0, LAT, "cycles",
      "Classic P-chase plateau for arrays well beyond the L2."),
    Q(gc_dram_t, bw_read_gbs, GC_F_POS, 0, 1e5, "GB/s", "Measured bandwidth, reads only."),
    Q(gc_dram_t, bw_write_gbs, GC_F_POS, 0, 1e5, "GB/s", "Measured bandwidth, writes only."),
    Q(gc_dram_t, bw_copy_gbs, GC_F_POS, 0, 1e5, "GB/s",
      "Measured bandwidth of a copy (bytes read + bytes written, as many of each)."),
    Q(gc_dram_t, energy_pj_byte, GC_F_POS, 0, 1e4, "pJ/byte",
      "Board energy per byte read from or written to DRAM beyond its passage through the L2 "
      "(the clock bench's memory load, a DRAM copy, less memory.l2.energy_pj_byte)."),
};
static const gc_schema_t dram_s = {"memory.dram", 0, dram_f, NF(dram_f), NULL};

static const gc_field_t tma_f[] = {
    Q(gc_tma_t, latency_cyc, GC_F_POS, 0, LAT, "cycles",
      "TMA load latency (issue to mbarrier wait done) on an L2 hit."),
    Q(gc_tma_t, latency_extra_cyc, 0, 0, LAT, "cycles",
      "TMA latency above a regular load of the same level."),
    Q(gc_tma_t, bw_gbs, GC_F_POS, 0, 1e5, "GB/s", "Best global-to-shared TMA throughput."),
};
static const gc_schema_t tma_s = {"memory.tma", 0, tma_f, NF(tma_f), NULL};

static const gc_field_t dsm_f[] = {
    Q(gc_dsm_t, latency_local_cyc, GC_F_POS, 0, LAT, "cycles",
      "Load of the block's own shared memory through the distributed interface."),
    Q(gc_dsm_t, latency_cyc, GC_F_POS, 0, LAT, "cycles",
      "Load from another SM's shared memory, cluster of 2."),
    Q(gc_dsm_t, bw_gbs, GC_F_POS, 0, 1e5, "GB/s", "Best whole-GPU SM-to-SM throughput."),
    L(gc_dsm_t, clusters, GC_F_FLOW, dsm_pt_s, "Latency and throughput by cluster size."),
};
static const gc_schema_t dsm_s = {"memory.dsm", 0, dsm_f, NF(dsm_f), NULL};

static const gc_field_t memory_f[] = {
    M(gc_memory_t, l1, 0, l1_s, "L1 data cache."),
    M(gc_memory_t, shared, 0, shared_s, "Shared memory."),
    M(gc_memory_t, l2, 0, l2_s, "L2 cache."),
    M(gc_memory_t, dram, 0, dram_s, "Device memory."),
    M(gc_memory_t, tma, 0, tma_s, "Tensor Memory Accelerator (Hopper)."),
    M(gc_memory_t, dsm, 0, dsm_s, "Distributed shared memory (Hopper)."),
};
static const gc_schema_t memory_s = {"memory", 0, memory_f, NF(memory_f), NULL};

static const gc_field_t prov_f[] = {
    S(gc_prov_t, made_by, 0, NULL, NULL, NULL,
      "How the file was made: by hand from published tables, or by `gpucal calib`."),
    S(gc_prov_t, date, 0, NULL, NULL, NULL, "When (ISO 8601)."),
    S(gc_prov_t, gpucal, 0, NULL, NULL, NULL, "gpucal version that wrote it."),
    S(gc_prov_t, command, 0, NULL, NULL, NULL, "Command that made it."),
    S(gc_prov_t, traces, 0, NULL, NULL, NULL, "Trace folder it was fitted from."),
    S(gc_prov_t, notes, 0, NULL, NULL, NULL, "Anything a reader should know."),
};
static const gc_schema_t prov_s = {"provenance", 0, prov_f, NF(prov_f), NULL};

static const gc_field_t root_f[] = {
    S(gc_arch_t, schema, GC_F_REQ, NULL, NULL, NULL, "Always gpucal-arch/1."),
    S(gc_arch_t, name, GC_F_REQ, NULL, check_name, "lower case letters, digits and '-'",
      "Short name, the file's stem (e.g. hopper-h100)."),
    S(gc_arch_t, family, GC_F_REQ, families, NULL, NULL, "Architecture generation."),
    S(gc_arch_t, device, GC_F_REQ, NULL, NULL, NULL, "Device name."),
    S(gc_arch_t, cc, GC_F_REQ, NULL, check_cc, "\"M.m\", e.g. \"9.0\"", "Compute capability."),
    M(gc_arch_t, provenance, 0, prov_s, "Where the file comes from."),
    M(gc_arch_t, sm, GC_F_REQ, sm_s, "The streaming multiprocessor and device limits."),
    L(gc_arch_t, tensor, 0, tensor_s, "Tensor-core instruction forms."),
    L(gc_arch_t, alu, GC_F_FLOW, alu_s, "CUDA-core pipes: latency and throughput per operation."),
    L(gc_arch_t, ldmatrix, 0, ldm_s, "ldmatrix forms."),
    M(gc_arch_t, memory, 0, memory_s, "The memory hierarchy."),
    L(gc_arch_t, dpx, GC_F_FLOW, dpx_s, "DPX functions (Hopper)."),
    L(gc_arch_t, numerics, 0, num_s, "What the tensor cores compute inside, per form."),
};
const gc_schema_t gc_arch_root_schema = {"arch", sizeof(gc_arch_t), root_f, NF(root_f), NULL};

void gc_schema_path(char *out, size_t n, const char *path, const char *key)
{
    /* snprintf's "%s.%s" / "%s" by hand: the loader builds one per key */
    size_t o = 0;
    if (!n)
        return;
    for (const char *p = path; *p && o + 1 < n; p++)
        out[o++] = *p;
    if (path[0] && o + 1 < n)
        out[o++] = '.';
    for (const char *p = key; *p && o + 1 < n; p++)
        out[o++] = *p;
    out[o] = '\0';
}

const char *gc_schema_suggest(const gc_schema_t *s, const char *key, char *buf, size_t n)
{
    const char *keys[256];
    size_t k = 0;
    for (size_t i = 0; i < s->n && k < 256; i++)
        keys[k++] = s->f[i].key;
    return gc_suggest_hint(key, keys, k, buf, n);
}
