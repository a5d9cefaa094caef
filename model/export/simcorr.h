/* simcorr.h - what Accel-Sim adds to the latencies it is configured with,
 * and the configured value that makes the simulator produce a measured one.
 *
 * The simulator (gpgpu-sim_distribution, src/gpgpu-sim/shader.cc) runs each
 * SM cycle as writeback, execute, read_operands, issue (shader_core_ctx::
 * cycle), so a dependent instruction pays, on top of the configured pipe
 * latency, the issue stage, the operand collector (opndcoll_rfu_t), the
 * dispatch into the unit (pipelined_simd_unit::cycle) and the writeback that
 * releases the scoreboard (shader_core_ctx::writeback). Loads pay their own
 * path: the L1 latency queue (ldst_unit::L1_latency_queue_cycle), then for a
 * miss the crossbar both ways, the ROP queue (-gpgpu_l2_rop_latency) and the
 * L2, and for a DRAM miss the DRAM timing in DRAM clocks.
 *
 * The operand collector takes GC_SIM_OC_STEPS steps a cycle (the export's
 * -gpgpu_reg_file_port_throughput): one step allocates a collector unit, one
 * step per source register reads it (one read per register bank per step;
 * the trace parser keeps at most MAX_SRC = 4 sources, accel-sim-framework
 * trace-parser/trace_parser.h, and they may all fall in one bank), one step
 * dispatches. With 6 steps every instruction leaves the collector in the
 * cycle after its issue whatever banks its registers fall in, so the cycles
 * added below are the same for every register allocation; with the
 * reference configs' 2 they are 5 to 7 depending on the registers a trace
 * names (an HMMA R4 = R8 x R12 + R4 has its three sources in one bank).
 *
 * The additions below were measured with gpucal's own microbenchmark traces
 * (model/export/simtrace.c; scripts/sim-check.sh reruns them) on the
 * simulator snapshot in shared/reference/accel-sim/src: each is the same on
 * every exported arch and for FFMA, IMAD, DFMA, MUFU and HMMA alike, so none
 * is a per-arch or per-opcode constant. model/export/export.md documents them
 * option by option.
 */
#ifndef GC_SIMCORR_H
#define GC_SIMCORR_H

/* Operand collector steps per cycle (-gpgpu_reg_file_port_throughput):
 * allocate + MAX_SRC reads in one bank + dispatch. */
#define GC_SIM_OC_STEPS 6
#define GC_SIM_STR_(x) #x
#define GC_SIM_STR(x) GC_SIM_STR_(x) /* GC_SIM_STR(GC_SIM_OC_STEPS) is "6" */

/* Cycles the simulator adds to a configured latency on a dependent chain of
 * one warp (measured: configured L simulates as L + add for every L >= the
 * initiation interval), with GC_SIM_OC_STEPS collector steps a cycle. */
#define GC_SIM_ADD_ALU_CYC 4  /* any ALU, SFU or tensor op: issue, collector, dispatch,
                               * writeback (FFMA, IMAD, DFMA, MUFU, HMMA measured) */
#define GC_SIM_ADD_SMEM_CYC 4 /* LDS chase, -gpgpu_smem_latency */
#define GC_SIM_ADD_L1_CYC 3   /* LDG chase hitting the L1, -gpgpu_l1_latency */
#define GC_SIM_ADD_L2_CYC 12  /* LDG chase hitting the L2: on top of the configured
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
