/* forms.h - the tensor-core instruction forms gpucal measures, per compute
 * capability: the single source of truth the mma, mma_sp and wgmma benches
 * dispatch on (bench_mma.cu, bench_mma_sp.cu, bench_wgmma.cu instantiate one
 * kernel family per row, named gc_k_<ID>_...), that the SASS check derives
 * its rules from, and that the CPU tests (tests/test_forms.c) read.
 * Pure C (libc only): it lives in gc_measure and is tested without a GPU.
 *
 * A form is one PTX instruction shape and type pair, valid on compute
 * capabilities min_cc..max_cc (10*major + minor; max_cc 0 = no upper bound).
 * Where one PTX form compiles to different SASS on different capabilities,
 * the form has one row per capability range, each with its own expected
 * opcodes. On sm_90 (read off the H100 dump, tests/fixtures/sass/) three
 * kinds of mma are emulated rather than single tensor-core instructions:
 * s4 (one subroutine call per mma that unpacks to s8 and runs IMMA .S8.S8;
 * seed 004 Table VII saw only its IMAD.MOV moves), f16 m8n8k4 (a subroutine
 * of FFMA/HADD2 on the CUDA cores) and e4m3/e5m2 (F2FP unpack to f16, then
 * HMMA(.SP) .F32 and FADD). The sm_80..sm_89 opcodes are the documented
 * names, not read off a dump of those GPUs.
 */
#ifndef GC_FORMS_H
#define GC_FORMS_H

#include "measure.h"

#ifdef __cplusplus
extern "C" {
#endif

/* X(ID, inst, shape, a_type, c_type, min_cc, max_cc, m, n, k, sass, per, path, also)
 *   inst   mma | mma.sp | wmma | wgmma | wgmma.sp
 *   k      the PTX k (for sparse forms the uncompressed, dense-equivalent k)
 *   sass   the SASS opcode (prefix at a '.' boundary) counted exactly
 *   per    SASS instructions of that opcode per PTX instruction
 *   path   "tc" (one tensor-core instruction) or "emu" (emulated: a call or
 *          an instruction sequence per PTX instruction)
 *   also   an opcode an emulated form's kernels must also contain ("" none)
 * The first argument X receives is the row's ID: GC_FORM_<ID> is its index
 * and its kernels are named gc_k_<ID>_... */
#define GC_MMA_FORMS(X)                                                                        \
    X(MMA_F16_F16_M16N8K8, "mma", "m16n8k8", "f16", "f16", 80, 0, 16, 8, 8, "HMMA.1688.F16", 1, "tc", "") \
    X(MMA_F16_F32_M16N8K8, "mma", "m16n8k8", "f16", "f32", 80, 0, 16, 8, 8, "HMMA.1688.F32", 1, "tc", "") \
    X(MMA_F16_F16_M16N8K16, "mma", "m16n8k16", "f16", "f16", 80, 0, 16, 8, 16, "HMMA.16816.F16", 1, "tc", "") \
    X(MMA_F16_F32_M16N8K16, "mma", "m16n8k16", "f16", "f32", 80, 0, 16, 8, 16, "HMMA.16816.F32", 1, "tc", "") \
    X(MMA_F16_F16_M8N8K4, "mma", "m8n8k4", "f16", "f16", 90, 90, 8, 8, 4, "CALL.REL.NOINC", 1, "emu", "HADD2.F32") \
    X(MMA_F16_F32_M8N8K4, "mma", "m8n8k4", "f16", "f32", 90, 90, 8, 8, 4, "CALL.REL.NOINC", 1, "emu", "FFMA") \
    X(MMA_BF16_F32_M16N8K8, "mma", "m16n8k8", "bf16", "f32", 80, 0, 16, 8, 8, "HMMA.1688.F32.BF16", 1, "tc", "") \
    X(MMA_BF16_F32_M16N8K16, "mma", "m16n8k16", "bf16", "f32", 80, 0, 16, 8, 16, "HMMA.16816.F32.BF16", 1, "tc", "") \
    X(MMA_TF32_F32_M16N8K4, "mma", "m16n8k4", "tf32", "f32", 80, 0, 16, 8, 4, "HMMA.1684.F32.TF32", 1, "tc", "") \
    X(MMA_TF32_F32_M16N8K8, "mma", "m16n8k8", "tf32", "f32", 80, 0, 16, 8, 8, "HMMA.1688.F32.TF32", 1, "tc", "") \
    X(MMA_S8_S32_M8N8K16, "mma", "m8n8k16", "s8", "s32", 80, 0, 8, 8, 16, "IMMA.8816.S8.S8", 1, "tc", "") \
    X(MMA_S8_S32_M16N8K16, "mma", "m16n8k16", "s8", "s32", 80, 0, 16, 8, 16, "IMMA.16816.S8.S8", 1, "tc", "") \
    X(MMA_S8_S32_M16N8K32, "mma", "m16n8k32", "s8", "s32", 80, 0, 16, 8, 32, "IMMA.16832.S8.S8", 1, "tc", "") \
    X(MMA_S4_S32_M8N8K32, "mma", "m8n8k32", "s4", "s32", 80, 89, 8, 8, 32, "IMMA.8832.S4.S4", 1, "tc", "") \
    X(MMA_S4_S32_M16N8K32, "mma", "m16n8k32", "s4", "s32", 80, 89, 16, 8, 32, "IMMA.16832.S4.S4", 1, "tc", "") \
    X(MMA_S4_S32_M16N8K64, "mma", "m16n8k64", "s4", "s32", 80, 89, 16, 8, 64, "IMMA.16864.S4.S4", 1, "tc", "") \
    X(MMA_S4CC_S32_M8N8K32, "mma", "m8n8k32", "s4", "s32", 90, 90, 8, 8, 32, "CALL.REL.NOINC", 1, "emu", "IMMA.8816.S8.S8") \
    X(MMA_S4CC_S32_M16N8K32, "mma", "m16n8k32", "s4", "s32", 90, 90, 16, 8, 32, "CALL.REL.NOINC", 1, "emu", "IMMA.16816.S8.S8") \
    X(MMA_S4CC_S32_M16N8K64, "mma", "m16n8k64", "s4", "s32", 90, 90, 16, 8, 64, "CALL.REL.NOINC", 1, "emu", "IMMA.16832.S8.S8") \
    X(MMA_B1_S32_M8N8K128, "mma", "m8n8k128", "b1", "s32", 80, 0, 8, 8, 128, "BMMA.88128.AND.POPC", 1, "tc", "") \
    X(MMA_B1_S32_M16N8K128, "mma", "m16n8k128", "b1", "s32", 80, 0, 16, 8, 128, "BMMA.168128.AND.POPC", 1, "tc", "") \
    X(MMA_B1_S32_M16N8K256, "mma", "m16n8k256", "b1", "s32", 80, 0, 16, 8, 256, "BMMA.168256.AND.POPC", 1, "tc", "") \
    X(MMA_F64_F64_M8N8K4, "mma", "m8n8k4", "f64", "f64", 80, 0, 8, 8, 4, "DMMA.8x8x4", 1, "tc", "") \
    X(MMA_E4M3_F32_M16N8K32, "mma", "m16n8k32", "e4m3", "f32", 89, 89, 16, 8, 32, "QMMA.16832.F32.E4M3.E4M3", 1, "tc", "") \
    X(MMA_E4M3EM_F32_M16N8K32, "mma", "m16n8k32", "e4m3", "f32", 90, 90, 16, 8, 32, "HMMA.16816.F32", 2, "emu", "F2FP.F16.E4M3.UNPACK_B") \
    X(MMA_E5M2_F32_M16N8K32, "mma", "m16n8k32", "e5m2", "f32", 89, 89, 16, 8, 32, "QMMA.16832.F32.E5M2.E5M2", 1, "tc", "") \
    X(MMA_E5M2EM_F32_M16N8K32, "mma", "m16n8k32", "e5m2", "f32", 90, 90, 16, 8, 32, "HMMA.16816.F32", 2, "emu", "F2FP.F16.E5M2.UNPACK_B") \
    X(WMMA_F16_F16_M16N16K16, "wmma", "m16n16k16", "f16", "f16", 80, 0, 16, 16, 16, "HMMA.16816.F16", 2, "tc", "") \
    X(WMMA_F16_F32_M16N16K16, "wmma", "m16n16k16", "f16", "f32", 80, 0, 16, 16, 16, "HMMA.16816.F32", 2, "tc", "")

#define GC_MMA_SP_FORMS(X)                                                                     \
    X(SP_F16_F16_M16N8K16, "mma.sp", "m16n8k16", "f16", "f16", 80, 0, 16, 8, 16, "HMMA.SP.16816.F16", 1, "tc", "") \
    X(SP_F16_F32_M16N8K16, "mma.sp", "m16n8k16", "f16", "f32", 80, 0, 16, 8, 16, "HMMA.SP.16816.F32", 1, "tc", "") \
    X(SP_F16_F16_M16N8K32, "mma.sp", "m16n8k32", "f16", "f16", 80, 0, 16, 8, 32, "HMMA.SP.16832.F16", 1, "tc", "") \
    X(SP_F16_F32_M16N8K32, "mma.sp", "m16n8k32", "f16", "f32", 80, 0, 16, 8, 32, "HMMA.SP.16832.F32", 1, "tc", "") \
    X(SP_BF16_F32_M16N8K16, "mma.sp", "m16n8k16", "bf16", "f32", 80, 0, 16, 8, 16, "HMMA.SP.16816.F32.BF16", 1, "tc", "") \
    X(SP_BF16_F32_M16N8K32, "mma.sp", "m16n8k32", "bf16", "f32", 80, 0, 16, 8, 32, "HMMA.SP.16832.F32.BF16", 1, "tc", "") \
    X(SP_TF32_F32_M16N8K8, "mma.sp", "m16n8k8", "tf32", "f32", 80, 0, 16, 8, 8, "HMMA.SP.1688.F32.TF32", 1, "tc", "") \
    X(SP_TF32_F32_M16N8K16, "mma.sp", "m16n8k16", "tf32", "f32", 80, 0, 16, 8, 16, "HMMA.SP.16816.F32.TF32", 1, "tc", "") \
    X(SP_S8_S32_M16N8K32, "mma.sp", "m16n8k32", "s8", "s32", 80, 0, 16, 8, 32, "IMMA.SP.16832.S8.S8", 1, "tc", "") \
    X(SP_S8_S32_M16N8K64, "mma.sp", "m16n8k64", "s8", "s32", 80, 0, 16, 8, 64, "IMMA.SP.16864.S8.S8", 1, "tc", "") \
    X(SP_S4_S32_M16N8K64, "mma.sp", "m16n8k64", "s4", "s32", 80, 89, 16, 8, 64, "IMMA.SP.16864.S4.S4", 1, "tc", "") \
    X(SP_S4_S32_M16N8K128, "mma.sp", "m16n8k128", "s4", "s32", 80, 89, 16, 8, 128, "IMMA.SP.168128.S4.S4", 1, "tc", "") \
    X(SP_S4CC_S32_M16N8K64, "mma.sp", "m16n8k64", "s4", "s32", 90, 90, 16, 8, 64, "CALL.REL.NOINC", 1, "emu", "IMMA.SP.16832.S8.S8") \
    X(SP_S4CC_S32_M16N8K128, "mma.sp", "m16n8k128", "s4", "s32", 90, 90, 16, 8, 128, "CALL.REL.NOINC", 1, "emu", "IMMA.SP.16864.S8.S8") \
    X(SP_E4M3_F32_M16N8K64, "mma.sp", "m16n8k64", "e4m3", "f32", 89, 89, 16, 8, 64, "QMMA.SP.16864.F32.E4M3.E4M3", 1, "tc", "") \
    X(SP_E4M3EM_F32_M16N8K64, "mma.sp", "m16n8k64", "e4m3", "f32", 90, 90, 16, 8, 64, "HMMA.SP.16832.F32", 2, "emu", "F2FP.F16.E4M3.UNPACK_B") \
    X(SP_E5M2_F32_M16N8K64, "mma.sp", "m16n8k64", "e5m2", "f32", 89, 89, 16, 8, 64, "QMMA.SP.16864.F32.E5M2.E5M2", 1, "tc", "") \
    X(SP_E5M2EM_F32_M16N8K64, "mma.sp", "m16n8k64", "e5m2", "f32", 90, 90, 16, 8, 64, "HMMA.SP.16832.F32", 2, "emu", "F2FP.F16.E5M2.UNPACK_B")

/* wgmma (sm_90a only): every type at N = 256, and the N sweep 8..128 of
 * f16 -> f32 (seed 004 Tables IX-XI); dense and sparse. */
#define GC_WGMMA_FORMS(X)                                                                      \
    X(WG_F16_F16_N256, "wgmma", "m64n256k16", "f16", "f16", 90, 90, 64, 256, 16, "HGMMA.64x256x16.F16", 1, "tc", "") \
    X(WG_F16_F32_N256, "wgmma", "m64n256k16", "f16", "f32", 90, 90, 64, 256, 16, "HGMMA.64x256x16.F32", 1, "tc", "") \
    X(WG_BF16_F32_N256, "wgmma", "m64n256k16", "bf16", "f32", 90, 90, 64, 256, 16, "HGMMA.64x256x16.F32.BF16", 1, "tc", "") \
    X(WG_TF32_F32_N256, "wgmma", "m64n256k8", "tf32", "f32", 90, 90, 64, 256, 8, "HGMMA.64x256x8.F32.TF32", 1, "tc", "") \
    X(WG_E4M3_F16_N256, "wgmma", "m64n256k32", "e4m3", "f16", 90, 90, 64, 256, 32, "QGMMA.64x256x32.F16.E4M3.E4M3", 1, "tc", "") \
    X(WG_E4M3_F32_N256, "wgmma", "m64n256k32", "e4m3", "f32", 90, 90, 64, 256, 32, "QGMMA.64x256x32.F32.E4M3.E4M3", 1, "tc", "") \
    X(WG_E5M2_F16_N256, "wgmma", "m64n256k32", "e5m2", "f16", 90, 90, 64, 256, 32, "QGMMA.64x256x32.F16.E5M2.E5M2", 1, "tc", "") \
    X(WG_E5M2_F32_N256, "wgmma", "m64n256k32", "e5m2", "f32", 90, 90, 64, 256, 32, "QGMMA.64x256x32.F32.E5M2.E5M2", 1, "tc", "") \
    X(WG_S8_S32_N256, "wgmma", "m64n256k32", "s8", "s32", 90, 90, 64, 256, 32, "IGMMA.64x256x32.S8.S8", 1, "tc", "") \
    X(WG_B1_S32_N256, "wgmma", "m64n256k256", "b1", "s32", 90, 90, 64, 256, 256, "BGMMA.64x256x256.AND.POPC", 1, "tc", "") \
    X(WG_F16_F32_N128, "wgmma", "m64n128k16", "f16", "f32", 90, 90, 64, 128, 16, "HGMMA.64x128x16.F32", 1, "tc", "") \
    X(WG_F16_F32_N64, "wgmma", "m64n64k16", "f16", "f32", 90, 90, 64, 64, 16, "HGMMA.64x64x16.F32", 1, "tc", "") \
    X(WG_F16_F32_N32, "wgmma", "m64n32k16", "f16", "f32", 90, 90, 64, 32, 16, "HGMMA.64x32x16.F32", 1, "tc", "") \
    X(WG_F16_F32_N16, "wgmma", "m64n16k16", "f16", "f32", 90, 90, 64, 16, 16, "HGMMA.64x16x16.F32", 1, "tc", "") \
    X(WG_F16_F32_N8, "wgmma", "m64n8k16", "f16", "f32", 90, 90, 64, 8, 16, "HGMMA.64x8x16.F32", 1, "tc", "") \
    X(WGS_F16_F16_N256, "wgmma.sp", "m64n256k32", "f16", "f16", 90, 90, 64, 256, 32, "HGMMA.SP.64x256x32.F16", 1, "tc", "") \
    X(WGS_F16_F32_N256, "wgmma.sp", "m64n256k32", "f16", "f32", 90, 90, 64, 256, 32, "HGMMA.SP.64x256x32.F32", 1, "tc", "") \
    X(WGS_BF16_F32_N256, "wgmma.sp", "m64n256k32", "bf16", "f32", 90, 90, 64, 256, 32, "HGMMA.SP.64x256x32.F32.BF16", 1, "tc", "") \
    X(WGS_TF32_F32_N256, "wgmma.sp", "m64n256k16", "tf32", "f32", 90, 90, 64, 256, 16, "HGMMA.SP.64x256x16.F32.TF32", 1, "tc", "") \
    X(WGS_E4M3_F16_N256, "wgmma.sp", "m64n256k64", "e4m3", "f16", 90, 90, 64, 256, 64, "QGMMA.SP.64x256x64.F16.E4M3.E4M3", 1, "tc", "") \
    X(WGS_E4M3_F32_N256, "wgmma.sp", "m64n256k64", "e4m3", "f32", 90, 90, 64, 256, 64, "QGMMA.SP.64x256x64.F32.E4M3.E4M3", 1, "tc", "") \
    X(WGS_E5M2_F16_N256, "wgmma.sp", "m64n256k64", "e5m2", "f16", 90, 90, 64, 256, 64, "QGMMA.SP.64x256x64.F16.E5M2.E5M2", 1, "tc", "") \
    X(WGS_E5M2_F32_N256, "wgmma.sp", "m64n256k64", "e5m2", "f32", 90, 90, 64, 256, 64, "QGMMA.SP.64x256x64.F32.E5M2.E5M2", 1, "tc", "") \
    X(WGS_S8_S32_N256, "wgmma.sp", "m64n256k64", "s8", "s32", 90, 90, 64, 256, 64, "IGMMA.SP.64x256x64.S8.S8", 1, "tc", "") \
    X(WGS_F16_F32_N128, "wgmma.sp", "m64n128k32", "f16", "f32", 90, 90, 64, 128, 32, "HGMMA.SP.64x128x32.F32", 1, "tc", "") \
    X(WGS_F16_F32_N64, "wgmma.sp", "m64n64k32", "f16", "f32", 90, 90, 64, 64, 32, "HGMMA.SP.64x64x32.F32", 1, "tc", "") \
    X(WGS_F16_F32_N32, "wgmma.sp", "m64n32k32", "f16", "f32", 90, 90, 64, 32, 32, "HGMMA.SP.64x32x32.F32", 1, "tc", "") \
    X(WGS_F16_F32_N16, "wgmma.sp", "m64n16k32", "f16", "f32", 90, 90, 64, 16, 32, "HGMMA.SP.64x16x32.F32", 1, "tc", "") \
    X(WGS_F16_F32_N8, "wgmma.sp", "m64n8k32", "f16", "f32", 90, 90, 64, 8, 32, "HGMMA.SP.64x8x32.F32", 1, "tc", "")

#define GC_FORM_ENUM(id, ...) GC_FORM_##id,
enum gc_form_id {
    GC_MMA_FORMS(GC_FORM_ENUM) GC_MMA_SP_FORMS(GC_FORM_ENUM) GC_WGMMA_FORMS(GC_FORM_ENUM)
    GC_FORM_COUNT
};
#undef GC_FORM_ENUM

typedef struct gc_form {
    int id;              /* GC_FORM_<ID>: index in gc_forms[] */
    const char *name;    /* "<ID>": kernels are gc_k_<ID>_... */
    const char *bench;   /* the bench that measures it: mma, mma_sp, wgmma */
    const char *inst;    /* mma, mma.sp, wmma, wgmma, wgmma.sp */
    const char *shape;   /* PTX shape, e.g. m16n8k16 */
    const char *a, *c;   /* operand and accumulator types (arch schema names) */
    int min_cc, max_cc;  /* 10*major+minor; max_cc 0: no upper bound */
    int m, n, k;         /* elements; k dense-equivalent for sparse forms */
    const char *sass;    /* SASS opcode counted (prefix at a '.' boundary) */
    int sass_per;        /* opcodes per PTX instruction */
    const char *path;    /* "tc" one tensor-core instruction, "emu" emulated */
    const char *also;    /* another opcode an emulated form must contain, or "" */
} gc_form_t;

/* All forms, indexed by GC_FORM_<ID>. */
extern const gc_form_t gc_forms[GC_FORM_COUNT];

/* 1 if form f is planned on compute capability cc (10*major+minor). */
int gc_form_planned(const gc_form_t *f, int cc);

/* Fill out[0..max) with the forms of bench ("mma", "mma_sp", "wgmma")
 * planned on cc, in table order; returns how many (at most max). */
int gc_forms_plan(const char *bench, int cc, const gc_form_t **out, int max);

/* Multiply-adds one warp (wgmma: warpgroup) instruction of form f performs:
 * m*n*k (sparse forms count the dense equivalent), times 4 for mma.m8n8k4
 * with f16 operands, which computes one 8x8x4 product per quad pair. */
double gc_form_fma(const gc_form_t *f);

/* ---- sweep grids (shared by the tensor, alu, ldmatrix and smem benches) ---- */

/* Warps per SM swept: {1,2,3,4,6,8,12,16,24,32} (quick: {1,4,8,16}). */
int gc_sweep_warps(int quick, const int **list);
/* Independent chains per warp swept: 1..8 (quick: {1,2,4,8}). */
int gc_sweep_ilps(int quick, const int **list);
/* Loop-body unroll of a kernel with `ilp` chains: the body holds
 * unroll*ilp instructions under test (mma: about 16, alu: about 64). */
int gc_sweep_unroll_mma(int ilp);
int gc_sweep_unroll_alu(int ilp);
/* wgmma: warpgroups per SM {1,2,3,4} (quick {1,2}), chains per warpgroup
 * compiled {1,2,4}; a chain of accumulators of acc_regs 32-bit registers
 * per thread is compiled only while ilp*acc_regs <= 128. */
int gc_sweep_warpgroups(int quick, const int **list);
#define GC_WGMMA_ILP_MAX 4
#define GC_WGMMA_UNROLL 4
int gc_wgmma_acc_regs(const gc_form_t *f); /* accumulator registers per thread */
int gc_wgmma_ilp_compiled(const gc_form_t *f, int ilp);

/* ---- the CUDA-core pipes of the `alu` bench ----
 * X(name, trace op, SASS opcode): kernels gc_k_alu_<name>_i<ilp>; each
 * iteration applies the op once to each of `ilp` independent chains. */
#define GC_ALU_OPS(X)                                                                          \
    X(ffma, "ffma", "FFMA") X(fadd, "fadd", "FADD") X(fmul, "fmul", "FMUL")                    \
    X(hfma2, "hfma2", "HFMA2") X(imad, "imad", "IMAD") X(iadd3, "iadd3", "IADD3")              \
    X(dfma, "dfma", "DFMA") X(ex2, "mufu.ex2", "MUFU.EX2") X(rsq, "mufu.rsq", "MUFU.RSQ")      \
    X(lg2, "mufu.lg2", "MUFU.LG2") X(sqrt, "mufu.sqrt", "MUFU.SQRT")                           \
    X(tanh, "mufu.tanh", "MUFU.TANH")

typedef struct gc_alu_op {
    const char *name;  /* kernel stem */
    const char *op;    /* the trace's op column */
    const char *sass;  /* SASS opcode each step compiles to */
} gc_alu_op_t;

#define GC_ALU_COUNT 12
extern const gc_alu_op_t gc_alu_ops[GC_ALU_COUNT];

/* ---- SASS rules derived from the tables ---- */

#define GC_FORMS_RULES_MAX 512
typedef struct gc_forms_rules {
    int n;
    gc_sass_rule_t rule[GC_FORMS_RULES_MAX];
    char func[GC_FORMS_RULES_MAX][64]; /* storage for rule[i].func */
} gc_forms_rules_t;

/* The SASS expectations of bench ("mma", "mma_sp", "wgmma", "alu",
 * "ldmatrix", "smem") on cc. For the tensor benches, one set
 * per planned form, over the kernels gc_k_<ID>_* (every compiled ILP):
 *   - exactly sass_per * unroll * ilp of the opcode summed over the form's
 *     kernels (an emulated form: its call or its HMMA, once per PTX
 *     instruction, so nothing was hoisted out of the loop), and `also`
 *     present;
 *   - no local-memory traffic (LDL/STL: a spill would add memory
 *     instructions to the timed loop), except for the emulated sparse FP8
 *     forms, whose emulation spills at high ILP on sm_90;
 *   - wgmma: per kernel, unroll*ilp opcodes, unroll WARPGROUP.ARRIVE (one
 *     wgmma.fence per iteration, nothing injected) and unroll
 *     WARPGROUP.DEPBAR (one wait_group per iteration).
 * alu: per op, exactly unroll*ilp of its opcode over gc_k_alu_<name>_*;
 * ldmatrix: its LDSM variant per (num, trans) over gc_k_ldsm_x<num>_t<trans>_*;
 * smem: LDS / LDS.64 / LDS.128 per width over gc_k_lds_w<width>_*, the loop's
 * plus the timer's fixed few after its end clock; every family: no LDL/STL.
 * Returns the number of rules, or -1 when r is too small. */
int gc_forms_rules(gc_forms_rules_t *r, const char *bench, int cc);

#ifdef __cplusplus
}
#endif

#endif
