/* predict.h - the analytic kernel-time model: a kernel description and an
 * arch file in, cycles, time, the bound resource and a stall stack out.
 *
 * The model (model/kernels/README.md has it in full):
 *  1. occupancy: resident blocks per SM from threads, warps, registers and
 *     shared memory (and an observed cap, if the description gives one);
 *  2. waves: full waves of SMs x blocks, then a tail wave with fewer blocks
 *     per SM and fewer SMs sharing the L2 and DRAM;
 *  3. per loop iteration of every resident warp (a "round"), the cycles each
 *     resource needs: the tensor pipe (arch/pipe.h with the arch's latency,
 *     issue interval and sub-cores), CUDA-core pipes, instruction issue, the
 *     shared/L1 data path (128-byte wavefronts, bank conflicts multiply
 *     them), the SM's share of L2 and DRAM bandwidth (DRAM bytes from the
 *     footprint: compulsory misses plus re-reads that do not fit the L2),
 *     and the latency one customer (a block when the loop has barriers,
 *     else a warp) must wait through: global latency not covered by the
 *     pipeline stages, shared latency, barriers, and its own dependent work;
 *  4. a round combines them: the resources a customer waits on as an L^p
 *     norm (p = GC_PREDICT_P; issue as a max), the customers queueing for
 *     that by exact mean-value analysis against their own latency, and the
 *     traffic nobody waits for (prefetches, stores) as a floor;
 *  5. cycles = sum over waves of trips x round, plus the launch;
 *     time = cycles / the sustained clock of the kernel's load class.
 *
 * The arch is read through its machine (machine.h), resolved once: attach
 * it at load (gc_machine_attach) and a prediction only reads it. All
 * functions are reentrant; gc_predict_on allocates nothing (gc_predict on
 * an arch with no machine attached resolves one for the call).
 */
#ifndef GC_PREDICT_H
#define GC_PREDICT_H

#include <stdio.h>

#include "../../util/err.h"
#include "../../arch/arch.h"
#include "derive.h"
#include "kernel.h"
#include "machine.h"

/* Sharpness of the soft maximum that combines resources in a round (an
 * integer: predict.c raises to it by multiplication). */
#define GC_PREDICT_P 6.0

/* Resources of a round, then the two costs outside rounds. */
enum {
    GC_R_TENSOR,
    GC_R_ALU,
    GC_R_ISSUE,
    GC_R_SHARED,
    GC_R_L2,
    GC_R_DRAM,
    GC_R_LATENCY,
    GC_R_TAIL,   /* idle SM capacity of the last, partial wave */
    GC_R_LAUNCH, /* launch overhead */
    GC_R_N
};

typedef struct gc_predict_opts {
    double clock_mhz;  /* > 0: run at this clock (e.g. a locked clock); 0: by load class */
    double period_us;  /* > 0: the kernel starts once every period_us (a caller's rate), so a
                        * shorter kernel's energy spreads over it; 0: back to back */
} gc_predict_opts_t;

typedef struct gc_prediction {
    char kernel[64], arch[64];
    double cycles;               /* SM clock cycles, launch included */
    double time_us;              /* cycles / clock_mhz */
    double clock_mhz;            /* the clock used */
    const char *clock_source;    /* arch key it came from, or "--clock" */
    double power_w;              /* board power the run draws repeated back to back, W (0: the
                                  * arch holds no power model, or the kernel has no tensor loop) */
    const char *load_class;      /* tensor | memory | fma | compute */
    int bound;                   /* GC_R_*: largest entry of breakdown (the stack) */
    double breakdown[GC_R_N];    /* stall stack: cycles attributed to each resource; sums
                                  * to cycles */
    double busy[GC_R_N];         /* cycles each resource would need on its own (tail and
                                  * launch: as in breakdown) */
    double util[GC_R_N];         /* busy / cycles, resources only (latency: 0) */
    double tensor_busy_gpu;      /* busy[GC_R_TENSOR] averaged over all SMs: a partial
                                  * wave's idle SMs count as idle (cycles) */
    /* occupancy and waves */
    int blocks_per_sm, warps_per_sm;
    const char *occupancy_limit; /* threads | warps | blocks | registers | shared | cap */
    double regs;                 /* registers per thread the occupancy used */
    int regs_estimated;          /* 1: the description did not give them (kernel.c) */
    double blocks;               /* in the grid */
    double waves;                /* blocks / (SMs x blocks_per_sm) */
    double full_waves, tail_blocks;
    /* traffic, whole kernel */
    double floor_us;             /* the GPU's own share of the launch (sm.kernel_floor_us) */
    double l2_bytes;             /* read + written through the L2 */
    double dram_bytes;           /* read + written from/to DRAM */
    double tensor_fma;           /* tensor-core multiply-adds */
    gc_derived_list_t derived;   /* parameters derived because the arch lacks them */
} gc_prediction_t;

/* The host's share of p's launch overhead, us: the event-timed launch
 * (breakdown[GC_R_LAUNCH]) less the GPU's own per-kernel cost
 * (sm.kernel_floor_us), which belongs to the kernel's GPU time -- what a
 * profiler's kernel duration holds. A prediction's GPU time is
 * time_us - gc_predict_host_launch_us(p). */
double gc_predict_host_launch_us(const gc_prediction_t *p);

/* Key of resource r as in the JSON output ("tensor", "dram", ...). */
const char *gc_predict_resource(int r);

/* Predict k on a. Errors (GC_EINPUT, one line FILE:LINE:COL at the op or
 * the launch): an instruction form the arch lacks, a block that does not
 * fit on one SM, parameters the arch cannot supply. */
int gc_predict(const gc_arch_t *a, const gc_kernel_t *k, const gc_predict_opts_t *o,
               gc_prediction_t *p, gc_err_t *err);

/* The resource with the largest entry of p's stall stack (breakdown): what
 * `bound` reports. */
int gc_predict_dominant(const gc_prediction_t *p);

/* The values derived because the arch file lacks them, as text lines (none
 * when there are none): what `predict --verbose` adds to the text. */
void gc_predict_print_derived(const gc_prediction_t *p, FILE *fp);

/* Predict k on a resolved machine (what gc_predict does with a's). */
int gc_predict_on(const gc_machine_t *m, const gc_kernel_t *k, const gc_predict_opts_t *o,
                  gc_prediction_t *p, gc_err_t *err);

/* Human text (several lines) / one JSON object (stable keys, documented in
 * model/kernels/README.md). extra: NULL, or a JSON member list to add
 * (e.g. "\"template\": {...}") without braces. */
void gc_predict_print_text(const gc_prediction_t *p, FILE *fp);
void gc_predict_print_json(const gc_prediction_t *p, const char *extra, FILE *fp);

#endif
