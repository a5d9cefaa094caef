/* derive.h - every model parameter predict.c needs, taken from an arch file
 * or, where the file lacks it, derived from what it has, in one place.
 *
 * Arch files made by hand from papers carry latencies and peak throughputs
 * but no fitted issue intervals; older ones lack ALU tables, ldmatrix
 * entries or a launch overhead. The rules below fill those gaps; each one
 * is documented in model/kernels/README.md ("Parameters the model derives")
 * and every value a prediction derived is listed in its output, so a
 * number is never silently made up.
 */
#ifndef GC_DERIVE_H
#define GC_DERIVE_H

#include "../../util/err.h"
#include "../../arch/arch.h"
#include "kernel.h"
#include "../../arch/pipe.h"

/* One derived value, for the output's "derived" list. Its key is made of
 * static parts and formatted only when printed (gc_derived_key). */
typedef struct gc_derived {
    const gc_tensor_t *form; /* tensor[<label>]. ... when set */
    const char *alu;         /* else alu[<alu>]. ... when set */
    const char *field;       /* the key below that, or the whole dotted key */
    double value;
    const char *how; /* the rule, one short phrase (static text) */
} gc_derived_t;

/* The dotted key of d ("tensor[mma m16n8k16 f16.f32].issue_cyc",
 * "sm.launch_overhead_us") into buf of n bytes; returns buf. */
const char *gc_derived_key(const gc_derived_t *d, char *buf, size_t n);

#define GC_DERIVED_MAX 32

typedef struct gc_derived_list {
    gc_derived_t d[GC_DERIVED_MAX];
    int n;
} gc_derived_list_t;

/* A tensor op resolved against an arch: the pipe to evaluate and how one
 * instruction of the description maps onto it. */
typedef struct gc_tensor_plan {
    gc_pipe_t pipe;          /* latency, issue interval, overhead, slots */
    double fma;              /* multiply-adds per description instruction (m*n*k) */
    double insts;            /* arch instructions per description instruction (wmma: 2) */
    int warpgroup;           /* 1: slots count warpgroups (wgmma) */
    const gc_tensor_t *form; /* the arch entry used */
} gc_tensor_plan_t;

/* Resolve a tensor op (mma / wgmma / wmma) against a. Lookup order: the
 * exact form (wgmma: operands ss when the op names none); bf16 -> the f16
 * form; wmma mMnNkK -> mma m16n8kK (N/8 instructions). Missing pipe
 * figures are derived (issue from the peak, latency = issue, overhead 0,
 * slots = sm.sub_cores or 1 for wgmma) and recorded in dl (may be NULL).
 * Unknown form: GC_EINPUT "FILE:LINE:COL: the arch NAME has no tensor form
 * ..." at the op's place in file. */
int gc_derive_tensor(const gc_arch_t *a, const gc_kop_t *op, const char *file,
                     gc_tensor_plan_t *out, gc_derived_list_t *dl, gc_err_t *err);

/* Resolve a CUDA-core op (alu name): the arch's alu entry, or the default
 * for its pipe (fp32, half2, int, sfu, fp64) scaled by sm.fp32_lanes.
 * Unknown name: GC_EINPUT at the op's place. out->slots = sub-cores,
 * issue = cycles per warp instruction per sub-core. */
int gc_derive_alu(const gc_arch_t *a, const gc_kop_t *op, const char *file, gc_pipe_t *out,
                  gc_derived_list_t *dl, gc_err_t *err);

/* The execution pipe of a sub-core that runs CUDA-core op `name` (SASS
 * name): 0 fma (FFMA, FADD, FMUL, HFMA2, IMAD: the FMA datapaths), 1 alu
 * (IADD3, LOP3, SHF, ISETP, LEA, SEL, MOV, FMNMX, FSETP, ...), 2 xu (MUFU,
 * conversions, POPC), 3 fp64. Different pipes work side by side; one
 * instruction per clock issues to any of them. */
int gc_derive_alu_pipe(const char *name);

/* Memory and SM figures the model uses, each from the arch or derived. */
typedef struct gc_machine {
    double sms;       /* SMs */
    double sub_cores; /* sub-cores per SM */
    double max_threads, max_warps, max_blocks, max_block_threads;
    double registers, reg_unit, max_regs_thread;
    double shared_sm_bytes, shared_block_bytes, shared_reserved_bytes;
    double wave_cyc; /* cycles one shared/L1 wavefront (128 B) occupies the data path */
    double shared_lat_cyc, ldm_lat_cyc, l1_lat_cyc;
    double l2_lat_cyc, dram_lat_cyc, tma_extra_cyc;
    /* the L2's two partitions (all 0 when the arch lacks a figure): a hit or
     * a miss served by the near or the far one, and how often it is near */
    double hit_near_cyc, hit_far_cyc, miss_near_cyc, miss_far_cyc;
    double hit_near_share, miss_near_share;
    double l2_bytes;                 /* L2 capacity, bytes */
    double l2_bw_clk;                /* whole-chip L2 bytes per SM clock */
    double l2_sm_bw_clk;             /* most one SM draws from the L2, bytes per clock */
    double dram_bw_gbs;              /* sustained DRAM bandwidth, GB/s */
    double dram_rd_gbs, dram_wr_gbs; /* reads only / writes only, GB/s */
    double dram_cp_gbs; /* a copy: as many bytes read as written, GB/s (both counted) */
    double bar_cyc;     /* one __syncthreads when the warps arrive together */
    double launch_us;   /* launch overhead as event timing sees it */
    double clock_max_mhz, clock_tensor_mhz, clock_memory_mhz;
} gc_machine_t;

/* Fill m from a (derived values recorded in dl, may be NULL). Fails with
 * GC_EINPUT when a has no SM count or no DRAM bandwidth of any kind. */
int gc_derive_machine(const gc_arch_t *a, gc_machine_t *m, gc_derived_list_t *dl, gc_err_t *err);

/* Append a derived value (ignored when dl is NULL, the list is full or the
 * key is there already). field and how are static text. */
void gc_derived_add(gc_derived_list_t *dl, const gc_tensor_t *form, const char *alu,
                    const char *field, double value, const char *how);

#endif
