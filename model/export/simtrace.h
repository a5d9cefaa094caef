/* simtrace.h - gpucal's microbenchmarks as Accel-Sim traces.
 *
 * The trace-driven simulator (accel-sim-framework, gpu-simulator/trace-parser/
 * trace_parser.cc) reads a kernelslist.g naming kernel-N.traceg files; each
 * holds a header ("-kernel name = ...", "-grid dim = (x,y,z)", ...,
 * "-binary version = 80", "-accelsim tracer version = 5"), one '#' comment
 * line that ends the header, then per thread block "#BEGIN_TB", "thread block
 * = x,y,z", per warp "warp = W", "insts = N" and N instruction lines
 * "PC MASK NDST [Rd..] OPCODE NSRC [Rs..] MEMWIDTH [MODE ADDRS]", "#END_TB".
 * Binary version 80 selects the Ampere opcode map (this simulator snapshot has
 * no SM90 map; trace-driven/trace_driven.cc, trace_kernel_info_t ctor).
 *
 * Every microbenchmark is two kernels of the same code, a short one and a long
 * one; the simulated figure is the difference of their cycle counts
 * (gpu_sim_cycle) over the difference of their step counts, so launch,
 * first-miss and drain costs cancel, as in gpucal's own measurements. The
 * manifest (DIR/traces/manifest.tsv) gives, per benchmark, the figure the arch
 * file says it should produce and how to turn the two cycle counts into it.
 *
 * Reads: an arch (loaded) and the export's derivation (gc_accelsim_info_t).
 * Writes: DIR/traces/<bench>/kernelslist.g, kernel-1.traceg, kernel-2.traceg,
 * DIR/traces/manifest.tsv.
 */
#ifndef GC_SIMTRACE_H
#define GC_SIMTRACE_H

#include <stdio.h>

#include "../../util/err.h"
#include "../../arch/arch.h"
#include "accelsim.h"

/* What a benchmark is. */
enum { GC_SB_ALU, GC_SB_HMMA, GC_SB_CHASE, GC_SB_MMA_TPUT, GC_SB_ALU_TPUT, GC_SB_STREAM };

/* Where a chase's loads go. */
enum { GC_SB_SHARED, GC_SB_L1, GC_SB_L2, GC_SB_DRAM };

/* One microbenchmark with the figure the arch says it produces. */
typedef struct gc_simbench {
    char name[32];       /* directory and manifest name: "ffma_chain" */
    int kind;            /* GC_SB_* */
    int where;           /* GC_SB_SHARED.. for chases */
    const char *opcode;  /* SASS opcode written ("FFMA", "HMMA.16816.F32", "LDG.E") */
    double figure;       /* the arch file's figure, in unit */
    double floor;        /* latency chains: the shortest chain the simulator runs with the
                          * exported initiation interval, where that is above the figure
                          * (no configured latency reaches it: export.md); 0 otherwise */
    const char *unit;    /* "cyc" (latency per step), "per_clk" (work per SM clock), "gbs" */
    char source[128];    /* the arch key(s) of the figure */
    int steps[2];        /* steps per warp of the short and the long kernel */
    int blocks, warps;   /* grid (blocks of warps) */
    int ilp;             /* independent chains per warp (throughput kernels) */
    double work_step;    /* work per step of the whole grid (FMA, thread ops or bytes) */
    long stride_b;       /* bytes between two chase or stream addresses */
    double clock_mhz;    /* SM clock of the export, for unit gbs */
} gc_simbench_t;

#define GC_SIMBENCH_MAX 16

/* The benchmarks the arch has figures for, into b[GC_SIMBENCH_MAX]; info is
 * the export's derivation of the same arch (figures that depend on rules,
 * such as the weighted L2 hit, are taken from it). Returns the count. */
int gc_simtrace_plan(const gc_arch_t *a, const gc_accelsim_info_t *info, gc_simbench_t *b);

/* Write the kernel of benchmark b with `steps` steps as kernel number id
 * (a kernel-id.traceg file) to fp. 0 or GC_EIO. */
int gc_simtrace_kernel(FILE *fp, const gc_simbench_t *b, int steps, int id, gc_err_t *err);

/* Write every planned benchmark under dir/traces (created) and the manifest;
 * without force an existing manifest is kept (GC_EEXIST) and nothing is
 * written. n_out: benchmarks written. */
int gc_simtrace_write(const gc_arch_t *a, const gc_accelsim_info_t *info, const char *dir,
                      int force, int *n_out, gc_err_t *err);

#endif
