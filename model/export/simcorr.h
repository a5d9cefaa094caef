/* simcorr.h - what Accel-Sim adds to the latencies it is configured with,
 * and the configured value that makes the simulator produce a measured one.
 *
 * The simulator (gpgpu-sim_distribution, src/gpgpu-sim/shader.cc) runs each
 * SM cycle as writeback, execute, read_operands, issue (shader_core_ctx::
 * cycle), so a dependent instruction pays, on top of the configured pipe
 * latency, the issue stage, the operand collector (opndcoll_rfu_t: one cycle
 * more when two source registers share one of the scheduler's two banks),
 * the dispatch into the unit (pipelined_simd_unit::cycle) and the writeback
 * that releases the scoreboard (shader_core_ctx::writeback). Loads pay their
 * own path: the L1 latency queue (ldst_unit::L1_latency_queue_cycle), then
 * for a miss the crossbar both ways, the ROP queue (-gpgpu_l2_rop_latency)
 * and the L2, and for a DRAM miss the DRAM timing in DRAM clocks.
 *
 * The additions below were measured with gpucal's own microbenchmark traces
 * (model/export/simtrace.c; scripts/sim-check.sh reruns them) on the
 * simulator snapshot in shared/reference/accel-sim/src: each is the same on
 * every exported arch (hopper-h100, ampere-a100, ada-rtx4090), so none is a
 * per-arch constant. model/export/export.md documents them option by option.
 */
#ifndef GC_SIMCORR_H
#define GC_SIMCORR_H

/* Cycles the simulator adds to a configured latency on a dependent chain of
 * one warp (measured: configured L simulates as L + add for every L >= the
 * initiation interval). */
#define GC_SIM_ADD_ALU_CYC 5    /* FFMA/IMAD with three sources (R2 = R2 x R3 + R4) */
#define GC_SIM_ADD_ALU1_CYC 4   /* a one-source op (MUFU): no bank conflict */
#define GC_SIM_ADD_TENSOR_CYC 6 /* HMMA: three source vectors */
#define GC_SIM_ADD_SMEM_CYC 5   /* LDS chase, -gpgpu_smem_latency */
#define GC_SIM_ADD_L1_CYC 4     /* LDG chase hitting the L1, -gpgpu_l1_latency */
#define GC_SIM_ADD_L2_CYC 13    /* LDG chase hitting the L2: on top of the configured
                                 * -gpgpu_l1_latency + -gpgpu_l2_rop_latency (crossbar
                                 * both ways and the L2 tag access) */

/* The configured latency of a unit whose dependent chain should take
 * target_cyc: round(target - add), at least ini (the simulator needs
 * latency >= initiation interval). *sim_cyc (may be NULL) gets what the
 * simulator will then produce, above target when the simulator's own
 * pipeline is already longer than the measured latency. */
long gc_simcorr_pipe(double target_cyc, int add_cyc, long ini, double *sim_cyc);

/* -gpgpu_l2_rop_latency for a measured L2 hit hit_cyc with the configured
 * -gpgpu_l1_latency l1_cfg: round(hit - l1_cfg - GC_SIM_ADD_L2_CYC), >= 1. */
long gc_simcorr_rop(double hit_cyc, long l1_cfg);

/* -dram_latency for a measured DRAM miss miss_cyc over the L2 hit hit_cyc:
 * the simulator adds the DRAM's own service of a row miss, dram_svc_cyc DRAM
 * clocks, which the core sees as dram_svc_cyc x core_mhz / dram_mhz cycles:
 * round(miss - hit - that), >= 1. */
long gc_simcorr_dram(double miss_cyc, double hit_cyc, double dram_svc_cyc, double core_mhz,
                     double dram_mhz);

#endif
