/* mem_sass.c - the SASS expectations of the memory benches (see
 * mem_sass.h). The counts follow the benches' unrolling: 16 dependent loads
 * per chase loop body (pchase, dsm), 8 timed accesses per body (pchase_fine),
 * 4 x 16-byte loads per body (bw, clock), 4 chains x 16 calls (dpx). The
 * opcode names were recorded on an H100 (sm_90a, CUDA 13.0):
 * ld.global.ca -> LDG.E.64.STRONG.SM, ld.global.cg -> LDG.E.64.STRONG.GPU,
 * ld.global -> LDG.E.64, ld.shared::cluster -> LD.E, cp.async.bulk ->
 * UBLKCP, cp.async.bulk.tensor -> UTMALDG, mbarrier try_wait ->
 * SYNCS.PHASECHK, __vimax3_s32 -> VIMNMX3, __viaddmax_s32 -> VIADDMNMX. */
#include "mem_sass.h"

#define N(a) ((int)(sizeof(a) / sizeof(a[0])))

const gc_sass_rule_t gc_mem_sass_pchase[] = {
    {"k_pchase_l1", "LDG.E.64.STRONG.SM", 16, -1},
    {"k_pchase_l1", "LDG.E.64.STRONG.GPU", 0, 0},
    {"k_pchase_l2", "LDG.E.64.STRONG.GPU", 16, -1},
    {"k_pchase_l2", "LDG.E.64.STRONG.SM", 0, 0},
    {"k_pchase_global", "LDG.E.64", 16, -1},
    {"k_pchase_global", "LDG.E.64.STRONG", 0, 0},
    {"k_pchase_shared", "LDS", 16, -1},
    {"k_pchase_sidx", "LDS", 16, -1},
    {"k_pchase_tma", "UBLKCP", 1, -1},
    {"k_pchase_tma", "SYNCS.PHASECHK", 1, -1},
};
const int gc_mem_sass_pchase_n = N(gc_mem_sass_pchase);

const gc_sass_rule_t gc_mem_sass_fine[] = {
    {"k_pfine", "LDG.E.64.STRONG.GPU", 8, -1},
    {"k_pfine", "CS2R", 16, -1},
    {"k_pfine", "STS", 16, -1},
};
const int gc_mem_sass_fine_n = N(gc_mem_sass_fine);

const gc_sass_rule_t gc_mem_sass_bw[] = {
    {"k_bw_l1_w16", "LDG.E.128.STRONG.SM", 4, -1},
    {"k_bw_smem_w16", "LDS.128", 4, -1},
    {"k_bw_l2_w16", "LDG.E.128.STRONG.GPU", 4, -1},
    {"k_bw_read_w16", "LDG.E.128", 4, -1},
    {"k_bw_copy_w16", "STG.E.128", 4, -1},
};
const int gc_mem_sass_bw_n = N(gc_mem_sass_bw);

/* the tensor load's opcodes depend on the GPU (HGMMA on sm_90a, HMMA
 * elsewhere): bench_clock.cu counts them into the trace instead. The FMA
 * load's loop body is 64 FFMAs (unrolled 4 times: 256); the recorded H100
 * dump predates that kernel and holds the first gc_mem_sass_clock_dump_n
 * rules' kernels only. */
const gc_sass_rule_t gc_mem_sass_clock[] = {
    {"k_clk_mem", "LDG.E.128", 4, -1},
    {"k_clk_mem", "STG.E.128", 4, -1},
    {"k_clk_fma", "FFMA", 64, -1},
};
const int gc_mem_sass_clock_n = N(gc_mem_sass_clock);
const int gc_mem_sass_clock_dump_n = 2;

const gc_sass_rule_t gc_mem_sass_tma[] = {
    {"k_tma_lat", "UBLKCP", 1, -1},
    {"k_tma_lat", "UTMALDG", 3, -1},
    {"k_tma_tp", "UTMALDG", 3, -1},
    {"k_tma_tp", "UBLKCP", 1, -1},
    {"k_tma_link", "UTMALDG", 1, -1},
    {"k_tma_link", "UBLKCP", 1, -1},
};
const int gc_mem_sass_tma_n = N(gc_mem_sass_tma);

const gc_sass_rule_t gc_mem_sass_dsm[] = {
    {"k_dsm_lat", "LD.E", 16, -1},
    {"k_dsm_tp", "LD.E.128", 4, -1},
};
const int gc_mem_sass_dsm_n = N(gc_mem_sass_dsm);

/* "jjj" (the mangled parameters) ends each name: vimax3_s32 is not
 * vimax3_s32_relu */
const gc_sass_rule_t gc_mem_sass_dpx[] = {
    {"k_dpx_tp_vimax3_s32jjj", "VIMNMX3", 64, -1},
    {"k_dpx_tp_viaddmax_s32jjj", "VIADDMNMX", 64, -1},
    {"k_dpx_tp_iadd3_s32jjj", "IADD3", 64, -1},
};
const int gc_mem_sass_dpx_n = N(gc_mem_sass_dpx);
