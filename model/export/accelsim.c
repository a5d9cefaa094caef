/* accelsim.c - arch -> gpgpusim.config + trace.config (see accelsim.h).
 *
 * Two parts: derive() turns the arch into one value per derived quantity
 * (D_*), with a note naming the arch fields and numbers used; the const
 * table keys[] lists every option of both files, in the order of the
 * simulator's SM86_RTX3070 reference configs, with its derived quantity or
 * its fixed constant and the reason. The writer, the comment above each
 * option and the Markdown table of model/export/export.md all come from keys[].
 */
#define _POSIX_C_SOURCE 200809L
#include "accelsim.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../util/fsio.h"
#include "../../util/numfmt.h"
#include "simcheck.h"
#include "simcorr.h"

#ifndef GPUCAL_VERSION
#define GPUCAL_VERSION "0.0.0"
#endif

#define N_SUB 2 /* L2 slices (sub-partitions) per memory channel, as the reference configs */

/* ---- derived quantities ---- */

enum {
    D_CAP, /* compute capability as 10*major+minor */
    D_CC_MAJ,
    D_CC_MIN,
    D_LAUNCH, /* kernel launch latency, core cycles */
    D_NCLUST,
    D_NMEM,
    D_CLOCKS,
    D_REGS,
    D_REGS_BLOCK,
    D_PIPE,
    D_CTA,
    D_WIDTHS,
    D_UNITS, /* one unit of each kind per sub-core */
    D_TC_AVAIL,
    D_TC_UNITS,
    D_LAT_INT,
    D_INI_INT,
    D_LAT_FP,
    D_INI_FP,
    D_LAT_DP,
    D_INI_DP,
    D_LAT_SFU,
    D_INI_SFU,
    D_LAT_TC,
    D_INI_TC,
    D_SUBCORE,
    D_OC_UNITS, /* operand collectors / register banks: 2 per sub-core */
    D_NSCHED,
    D_SHMEM_OPT,
    D_UNIFIED,
    D_DL1,
    D_L1_LAT,
    D_SHMEM_SIZE,
    D_SHMEM_BLOCK,
    D_SMEM_LAT,
    D_BANKS,
    D_DL2,
    D_INDEXING,
    D_ROP,
    D_DRAM_LAT,
    D_BUSWIDTH,
    D_BURST,
    D_FREQ_RATIO,
    D_MAPPING,
    D_TIMING,
    D_DUAL_BUS,
    D_TR_INT,
    D_TR_SP,
    D_TR_DP,
    D_TR_SFU,
    D_TR_TENSOR,
    D_SPEC_BRA,
    D_SPEC_TEX,
    D_SPEC_TC,
    D_SPEC_UDP,
    D_N
};

enum { F_GPGPUSIM, F_TRACE };

/* One option of the exported files. */
typedef struct ekey {
    unsigned char file;  /* F_GPGPUSIM or F_TRACE */
    const char *section; /* heading written before it, or NULL */
    const char *name;
    int id; /* D_*, or -1 for the constant cst */
    const char *cst;
    const char *how; /* Markdown: the arch field(s) or formula (derived keys) */
    const char *why; /* the reason: for constants one line, also the file comment */
} ekey_t;

#define C(f, sec, n, v, why)                                                                       \
    {                                                                                              \
        f, sec, n, -1, v, NULL, why                                                                \
    }
#define V(f, sec, n, d, how, why)                                                                  \
    {                                                                                              \
        f, sec, n, d, NULL, how, why                                                               \
    }
#define G F_GPGPUSIM
#define T F_TRACE

static const ekey_t keys[] = {
    /* ---- gpgpusim.config ---- */
    C(G, "functional simulator", "-gpgpu_ptx_instruction_classification", "0",
      "instruction classification statistics off (simulator default)"),
    C(G, NULL, "-gpgpu_ptx_sim_mode", "0", "performance (timing) simulation, not functional only"),
    V(G, NULL, "-gpgpu_ptx_force_max_capability", D_CAP, "`cc` as 10 x major + minor",
      "the PTX/SASS version the simulator accepts for the device"),
    C(G, "device limits", "-gpgpu_stack_size_limit", "1024",
      "CUDA runtime default cudaLimitStackSize (bytes per thread)"),
    C(G, NULL, "-gpgpu_heap_size_limit", "8388608",
      "CUDA runtime default cudaLimitMallocHeapSize (8 MiB)"),
    C(G, NULL, "-gpgpu_runtime_sync_depth_limit", "2",
      "CUDA runtime default cudaLimitDevRuntimeSyncDepth"),
    C(G, NULL, "-gpgpu_runtime_pending_launch_count_limit", "2048",
      "CUDA runtime default cudaLimitDevRuntimePendingLaunchCount"),
    V(G, NULL, "-gpgpu_kernel_launch_latency", D_LAUNCH,
      "`sm.kernel_floor_us` x core clock (MHz), rounded; else `sm.launch_overhead_us` x core "
      "clock; else the constant 5000",
      "GPU cycles between two kernels of a stream, before the first block (the simulator "
      "counts them within the kernel): the per-kernel time of a CUDA graph of empty kernels; "
      "the host-timed launch overhead is an upper bound, 5000 the reference configs' value "
      "(the export names the stand-in)"),
    C(G, NULL, "-gpgpu_TB_launch_latency", "0",
      "block launch cost is part of the measured kernel launch latency (reference configs)"),
    C(G, NULL, "-gpgpu_max_concurrent_kernel", "128",
      "CUDA: at most 128 resident grids per device for cc 7.0 to 9.0"),
    V(G, "compute capability", "-gpgpu_compute_capability_major", D_CC_MAJ, "`cc` major",
      "the device's compute capability"),
    V(G, NULL, "-gpgpu_compute_capability_minor", D_CC_MIN, "`cc` minor",
      "the device's compute capability"),
    C(G, "PTX execution-driven", "-gpgpu_ptx_convert_to_ptxplus", "0",
      "run PTX as is (PTXPlus conversion is for pre-Fermi SASS)"),
    C(G, NULL, "-gpgpu_ptx_save_converted_ptxplus", "0", "no PTXPlus files written"),
    V(G, "high-level architecture", "-gpgpu_n_clusters", D_NCLUST, "`sm.count`",
      "one SIMT cluster per SM"),
    C(G, NULL, "-gpgpu_n_cores_per_cluster", "1",
      "one SM per cluster: GPC/TPC grouping is not modelled (reference configs)"),
    V(G, NULL, "-gpgpu_n_mem", D_NMEM,
      "`memory.dram.channels`; else `memory.dram.bus_bits` / channel width of "
      "`memory.dram.type` (HBM 64 bits, GDDR6/6X 16 bits; without a type, a bus of 1024 bits "
      "or more is HBM)",
      "memory channels (controllers) the simulator models"),
    C(G, NULL, "-gpgpu_n_sub_partition_per_mchannel", "2",
      "two L2 slices per channel, as both reference configs; the L2 string is sized for it"),
    V(G, "clock domains <core>:<interconnect>:<L2>:<DRAM> (MHz)", "-gpgpu_clock_domains", D_CLOCKS,
      "core = interconnect = L2 = the SM clock chosen by --clock (default `sm.clock_max_mhz`; "
      "`sm.clock_base_mhz`, `sm.clock_tensor_mhz`, `sm.clock_memory_mhz`); DRAM = "
      "`memory.dram.bw_read_gbs` (else `bw_gbs`) x 1000 / (`-gpgpu_n_mem` x "
      "`-gpgpu_dram_buswidth` x `-dram_data_command_freq_ratio`), rounded to 0.01 MHz, where "
      "that is below the datasheet clock 2 x `memory.dram.clock_mhz` / "
      "`-dram_data_command_freq_ratio`; else the datasheet clock",
      "the latencies of the arch are SM cycles, so the L2 and crossbar run at the SM clock. The "
      "driver's memory clock is half the per-pin data rate and the simulator moves "
      "buswidth x ratio bytes per channel per DRAM clock, so the datasheet clock gives the "
      "datasheet bandwidth; but the simulator's DRAM model issues no refresh (gpgpu-sim "
      "dram.cc prints n_ref and never counts one) and a long stream runs at 97-100 % of that "
      "peak, while a GPU streams at 90-97 % of its datasheet bandwidth. So the DRAM clock is "
      "the one at which the simulator's peak is the measured stream. Without "
      "`memory.dram.clock_mhz`: `memory.dram.bw_peak_gbs` x 1000 / (2 x `memory.dram.bus_bits` "
      "/ 8)"),
    V(G, "shader core pipeline", "-gpgpu_shader_registers", D_REGS,
      "`sm.registers` (else 65536, the CUDA guide's figure for every supported cc)",
      "32-bit registers per SM"),
    V(G, NULL, "-gpgpu_registers_per_block", D_REGS_BLOCK, "min(`sm.registers`, 65536)",
      "CUDA: at most 64 K registers per block (cc 5.0 to 9.0)"),
    V(G, NULL, "-gpgpu_occupancy_sm_number", D_CAP, "`cc` as 10 x major + minor",
      "selects the occupancy rules of the device's compute capability"),
    V(G, NULL, "-gpgpu_shader_core_pipeline", D_PIPE,
      "`sm.max_threads`:32 (else `sm.max_warps` x 32, else the CUDA guide's figure for `cc`)",
      "resident threads per SM, warp size"),
    V(G, NULL, "-gpgpu_shader_cta", D_CTA,
      "`sm.max_blocks` (else the CUDA guide's figure for `cc`)", "resident blocks per SM"),
    C(G, NULL, "-gpgpu_simd_model", "1", "post-dominator reconvergence, the only model"),
    V(G, "pipeline widths and functional units", "-gpgpu_pipeline_widths", D_WIDTHS,
      "`sm.sub_cores` in every field but EX_WB = 2 x `sm.sub_cores`",
      "13 fields ID_OC_SP,DP,INT,SFU,MEM, OC_EX_SP,DP,INT,SFU,MEM, EX_WB, ID_OC_TENSOR, "
      "OC_EX_TENSOR: the sub-core model needs one issue slot per scheduler; write-back twice "
      "as wide, the reference configs' ratio"),
    V(G, NULL, "-gpgpu_num_sp_units", D_UNITS, "`sm.sub_cores`", "one FP32 unit per sub-core"),
    V(G, NULL, "-gpgpu_num_sfu_units", D_UNITS, "`sm.sub_cores`", "one SFU per sub-core"),
    V(G, NULL, "-gpgpu_num_dp_units", D_UNITS, "`sm.sub_cores`", "one FP64 unit per sub-core"),
    V(G, NULL, "-gpgpu_num_int_units", D_UNITS, "`sm.sub_cores`", "one INT unit per sub-core"),
    V(G, NULL, "-gpgpu_tensor_core_avail", D_TC_AVAIL,
      "1 if the arch has `tensor` forms or `sm.tensor_cores`", "tensor cores present"),
    V(G, NULL, "-gpgpu_num_tensor_core_units", D_TC_UNITS,
      "`sm.sub_cores` (0 without tensor cores)",
      "one tensor unit per sub-core; more tensor cores per sub-core (Turing) show in the "
      "measured initiation interval"),
    V(G, "instruction latencies and initiation intervals: ADD,MAX,MUL,MAD,DIV",
      "-ptx_opcode_latency_int", D_LAT_INT,
      "`alu[imad]` (else `alu[iadd3]`) latency - " GC_SIM_STR(GC_SIM_ADD_ALU_CYC)
      " (what the simulator adds, never below the "
      "initiation interval) in the first four fields; DIV 21",
      "PTX-mode integer latencies; DIV is a multi-instruction SASS sequence gpucal does not "
      "measure: the reference configs' 21. Without an `alu` entry: 4, the reference value (the "
      "export names the missing entry)"),
    V(G, NULL, "-ptx_opcode_initiation_int", D_INI_INT,
      "32 x `sm.sub_cores` / `alu[imad].ops_clk_sm` in the first four fields; DIV 2",
      "cycles between two warp instructions on one sub-core's unit; without a throughput: 2, "
      "the reference value"),
    V(G, NULL, "-ptx_opcode_latency_fp", D_LAT_FP,
      "`alu[ffma]` (else `alu[fadd]`, `alu[fmul]`) latency - " GC_SIM_STR(GC_SIM_ADD_ALU_CYC)
      " (never below the initiation interval) in the first four fields; DIV 39",
      "PTX-mode FP32 latencies; DIV: the reference configs' 39. Without an `alu` entry: 4, the "
      "reference value"),
    V(G, NULL, "-ptx_opcode_initiation_fp", D_INI_FP,
      "32 x `sm.sub_cores` / `alu[ffma].ops_clk_sm`, else 32 x `sm.sub_cores` / "
      "`sm.fp32_lanes`; DIV 2",
      "a warp of 32 threads over the FP32 lanes of one sub-core"),
    V(G, NULL, "-ptx_opcode_latency_dp", D_LAT_DP,
      "`alu[dfma]` (else `alu[dadd]`, `alu[dmul]`) latency - " GC_SIM_STR(GC_SIM_ADD_ALU_CYC)
      " (never below the initiation interval) in the first four fields; DIV 330",
      "PTX-mode FP64 latencies; DIV: the reference configs' 330. Without an `alu` entry: 8, the "
      "reference trace.config value"),
    V(G, NULL, "-ptx_opcode_initiation_dp", D_INI_DP,
      "32 x `sm.sub_cores` / `alu[dfma].ops_clk_sm` in the first four fields; DIV 130",
      "without a throughput: 4, the reference trace.config value"),
    V(G, NULL, "-ptx_opcode_latency_sfu", D_LAT_SFU,
      "`alu[mufu.*]` latency (the first mufu entry) - " GC_SIM_STR(GC_SIM_ADD_ALU_CYC)
      ", never below the initiation interval",
      "without one: 20, the reference trace.config value"),
    V(G, NULL, "-ptx_opcode_initiation_sfu", D_INI_SFU,
      "32 x `sm.sub_cores` / `alu[mufu.*].ops_clk_sm`",
      "without a throughput: 8, the reference value (16 SFU lanes per SM)"),
    V(G, NULL, "-ptx_opcode_latency_tesnor", D_LAT_TC,
      "`tensor[FORM].latency_cyc` - " GC_SIM_STR(GC_SIM_ADD_ALU_CYC)
      " (what the simulator adds), rounded, at least the "
      "initiation interval; FORM = --form, else mma m16n8k16 f16.f32, else mma "
      "m16n8k8 f16.f32 (random data preferred)",
      "completion latency of one HMMA (the simulator spells the option so)"),
    V(G, NULL, "-ptx_opcode_initiation_tensor", D_INI_TC,
      "`tensor[FORM].issue_cyc`, else m x n x k x sub-cores / `tensor[FORM].peak_fma_clk_sm`",
      "cycles between two HMMA on one sub-core's tensor unit at full rate"),
    V(G, "sub-core model", "-gpgpu_sub_core_model", D_SUBCORE, "1 if `sm.sub_cores` > 1",
      "each scheduler has its own register file and units (Volta and newer)"),
    C(G, NULL, "-gpgpu_enable_specialized_operand_collector", "0",
      "generic collector units, as the reference configs"),
    V(G, NULL, "-gpgpu_operand_collector_num_units_gen", D_OC_UNITS, "2 x `sm.sub_cores`",
      "two collector units per scheduler (the reference ratio); the sub-core model needs a "
      "multiple of the scheduler count"),
    V(G, NULL, "-gpgpu_operand_collector_num_in_ports_gen", D_OC_UNITS, "2 x `sm.sub_cores`",
      "one port per collector unit"),
    V(G, NULL, "-gpgpu_operand_collector_num_out_ports_gen", D_OC_UNITS, "2 x `sm.sub_cores`",
      "one port per collector unit"),
    V(G, NULL, "-gpgpu_num_reg_banks", D_OC_UNITS, "2 x `sm.sub_cores`",
      "two register banks per scheduler (the reference ratio)"),
    C(G, NULL, "-gpgpu_reg_file_port_throughput", GC_SIM_STR(GC_SIM_OC_STEPS),
      "operand collector steps per cycle: 1 to allocate a collector unit + 4 reads (the trace "
      "parser's MAX_SRC sources, one read per bank per step, all possibly in one bank) + 1 to "
      "dispatch, so every instruction leaves the collector the cycle after its issue and a "
      "dependent chain adds the same cycles whatever its registers (the reference configs' 2 "
      "add 5 to 7 depending on the registers)"),
    V(G, "warp scheduling", "-gpgpu_num_sched_per_core", D_NSCHED, "`sm.sub_cores`",
      "one warp scheduler per sub-core"),
    C(G, NULL, "-gpgpu_scheduler", "lrr", "loose round robin, as the reference configs"),
    C(G, NULL, "-gpgpu_max_insn_issue_per_warp", "1",
      "one instruction per warp per cycle since Volta"),
    C(G, NULL, "-gpgpu_dual_issue_diff_exec_units", "1",
      "a scheduler may issue to different units in one cycle (reference configs)"),
    C(G, "L1 data cache and shared memory", "-gpgpu_adaptive_cache_config", "1",
      "the L1 gets what shared memory leaves of the unified array, as on the hardware"),
    V(G, NULL, "-gpgpu_shmem_option", D_SHMEM_OPT,
      "CUDA's carve-outs for `cc` (7.0: 0,8,16,32,64,96; 7.5: 32,64; 8.0+: "
      "0,8,16,32,64,100,132,164,196,228) up to `sm.shared_max_kib`",
      "the shared-memory sizes (KiB) the driver can configure (CUDA C++ Programming Guide)"),
    V(G, NULL, "-gpgpu_unified_l1d_size", D_UNIFIED,
      "`sm.l1_shared_kib` (else the CUDA guide's figure for `cc`)",
      "combined L1 + shared memory per SM, KiB"),
    C(G, NULL, "-gpgpu_l1_banks", "4", "L1 banks, as the SM86 reference config"),
    V(G, NULL, "-gpgpu_cache:dl1", D_DL1,
      "S:4:128:A with A = `sm.l1_shared_kib` x 1024 / (4 x 128); policies, MSHRs as the "
      "reference",
      "sector cache of the whole unified size (the adaptive carve-out scales it down); 128-byte "
      "lines of four 32-byte sectors (`memory.l1.line_bytes`, `sector_bytes` must agree); "
      "`memory.l1.size_kib` must fit in it"),
    V(G, NULL, "-gpgpu_l1_latency", D_L1_LAT,
      "`memory.l1.latency_cyc` - " GC_SIM_STR(GC_SIM_ADD_L1_CYC) ", rounded",
      "load latency on an L1 hit; the simulator adds " GC_SIM_STR(GC_SIM_ADD_L1_CYC)
      " cycles of its own pipeline"),
    C(G, NULL, "-gpgpu_gmem_skip_L1D", "0", "global loads are cached in L1 (default ld)"),
    C(G, NULL, "-gpgpu_flush_l1_cache", "1", "L1 flushed between kernels, as the hardware"),
    C(G, NULL, "-gpgpu_n_cluster_ejection_buffer_size", "32",
      "interconnect ejection buffer (reference configs)"),
    C(G, NULL, "-gpgpu_l1_cache_write_ratio", "25", "write share of the L1 (reference configs)"),
    V(G, "shared memory", "-gpgpu_shmem_size", D_SHMEM_SIZE,
      "`sm.shared_max_kib` (else the CUDA guide's figure for `cc`) x 1024",
      "most shared memory per SM, bytes"),
    V(G, NULL, "-gpgpu_shmem_sizeDefault", D_SHMEM_SIZE,
      "`sm.shared_max_kib` (else the CUDA guide's figure for `cc`) x 1024",
      "as -gpgpu_shmem_size (reference configs)"),
    V(G, NULL, "-gpgpu_shmem_per_block", D_SHMEM_BLOCK,
      "`sm.shared_block_max_kib` x 1024 (else 49152)",
      "most shared memory one block can have with opt-in; without it CUDA's 48 KiB static "
      "limit"),
    V(G, NULL, "-gpgpu_smem_latency", D_SMEM_LAT,
      "`memory.shared.latency_cyc` (else `memory.shared.conflicts[4 B, 1 way]`) - "
      GC_SIM_STR(GC_SIM_ADD_SMEM_CYC) ", rounded",
      "ld.shared latency without bank conflict; the simulator adds "
      GC_SIM_STR(GC_SIM_ADD_SMEM_CYC) " cycles of its own pipeline"),
    V(G, NULL, "-gpgpu_shmem_num_banks", D_BANKS, "`memory.shared.banks` (else 32)",
      "shared-memory banks; 32 for every cc in the CUDA guide"),
    C(G, NULL, "-gpgpu_shmem_limited_broadcast", "0", "broadcast to any number of threads"),
    C(G, NULL, "-gpgpu_shmem_warp_parts", "1", "bank conflicts checked over the whole warp"),
    V(G, NULL, "-gpgpu_coalesce_arch", D_CAP, "`cc` as 10 x major + minor",
      "memory coalescing rules of the device's compute capability"),
    V(G, "L2 cache", "-gpgpu_cache:dl2", D_DL2,
      "S:S:128:A per L2 slice, slice = `memory.l2.size_mib` x 2^20 / (n_mem x 2); S = 64 sets "
      "(else 32, 16), A = slice / (S x 128); when no S makes A whole, A rounded at 64 sets "
      "(else 32, 16) if within 1 % of the size (said in the file and on stderr), else refused",
      "sector cache; the IPOLY set hash (P) takes 16, 32 or 64 sets, the associativity follows "
      "from the measured size (the simulator's slices are equal, so an L2 such as the H200's "
      "60 MiB over 188 slices gets the nearest whole number of ways); policies and MSHRs as "
      "the reference"),
    C(G, NULL, "-gpgpu_cache:dl2_texture_only", "0", "the L2 caches all data"),
    C(G, NULL, "-gpgpu_dram_partition_queues", "64:64:64:64",
      "L2-to-DRAM queues (reference configs)"),
    C(G, NULL, "-gpgpu_perf_sim_memcpy", "1", "host copies fill the L2, as the hardware"),
    V(G, NULL, "-gpgpu_memory_partition_indexing", D_INDEXING,
      "2 (IPOLY) for 16, 32 or 64 channels, 1 (XOR) for another power of two, else 0",
      "IPOLY asserts with other channel counts; the export falls back and says so"),
    C(G, "instruction, texture and constant caches", "-gpgpu_cache:il1",
      "N:64:128:16,L:R:f:N:L,S:2:48,4",
      "128 KiB instruction cache, not measured by gpucal (reference configs)"),
    C(G, NULL, "-gpgpu_inst_fetch_throughput", "4", "instructions fetched per cycle (reference)"),
    C(G, NULL, "-gpgpu_tex_cache:l1", "N:4:128:256,L:R:m:N:L,T:512:8,128:2",
      "texture cache for legacy code, not measured by gpucal (reference configs)"),
    C(G, NULL, "-gpgpu_const_cache:l1", "N:128:64:8,L:R:f:N:L,S:2:64,4",
      "64 KiB constant cache, not measured by gpucal (reference configs)"),
    C(G, NULL, "-gpgpu_perfect_inst_const_cache", "1",
      "instruction and constant misses not modelled (reference configs)"),
    C(G, "interconnect", "-network_mode", "2", "the simulator's built-in local crossbar"),
    C(G, NULL, "-icnt_in_buffer_limit", "512", "crossbar buffers (reference configs)"),
    C(G, NULL, "-icnt_out_buffer_limit", "512", "crossbar buffers (reference configs)"),
    C(G, NULL, "-icnt_subnets", "2", "request and reply networks"),
    C(G, NULL, "-icnt_flit_size", "40", "crossbar flit, bytes (reference configs)"),
    C(G, NULL, "-icnt_arbiter_algo", "1", "crossbar arbiter (reference configs)"),
    V(G, "memory partition latencies (SM cycles)", "-gpgpu_l2_rop_latency", D_ROP,
      "L2 hit - `-gpgpu_l1_latency` - " GC_SIM_STR(GC_SIM_ADD_L2_CYC)
      " (crossbar and tag access the simulator adds); L2 hit = "
      "`memory.l2.near_hit_cyc`, averaged with "
      "`far_hit_cyc` by `near_share` (else 1/`partitions`, else 1/2) when the L2 is "
      "partitioned; without the fine-grained values `memory.l2.latency_cyc` (and "
      "`latency_far_cyc`)",
      "a load that hits the L2 pays the L1 pipeline and then this queue"),
    V(G, NULL, "-dram_latency", D_DRAM_LAT,
      "DRAM miss - L2 hit - S x core clock / DRAM clock, S = tRP + tRCD + tCL + 8 of the "
      "timing written (HBM 44, GDDR6 80 DRAM clocks); miss = `memory.l2.near_miss_cyc` (with "
      "`far_miss_cyc`, same weights), else `memory.dram.latency_cyc` with the classic L2 plateau",
      "the extra latency of a miss over a hit, from the same P-chase, less the row miss the "
      "simulator's DRAM model serves on its own"),
    C(G, "DRAM scheduling", "-gpgpu_dram_scheduler", "1", "FR-FCFS scheduling"),
    C(G, NULL, "-gpgpu_frfcfs_dram_sched_queue_size", "64", "scheduler queue (reference configs)"),
    C(G, NULL, "-gpgpu_dram_return_queue_size", "192", "return queue (reference configs)"),
    C(G, "DRAM model", "-gpgpu_n_mem_per_ctrlr", "1", "one channel per controller"),
    V(G, NULL, "-gpgpu_dram_buswidth", D_BUSWIDTH,
      "`memory.dram.bus_bits` / 8 / n_mem (else the channel width of the type)",
      "bytes per channel per transfer"),
    V(G, NULL, "-gpgpu_dram_burst_length", D_BURST, "by `memory.dram.type`: HBM 2, GDDR6/6X 16",
      "constant per memory type, as the reference HBM (SM90) and GDDR6 (SM86) configs"),
    V(G, NULL, "-dram_data_command_freq_ratio", D_FREQ_RATIO,
      "by `memory.dram.type`: HBM 2, GDDR6/6X 4",
      "data transfers per command clock: HBM is DDR, GDDR6 quad data rate (reference configs)"),
    C(G, NULL, "-gpgpu_mem_address_mask", "1", "the simulator's newer address masks"),
    V(G, NULL, "-gpgpu_mem_addr_mapping", D_MAPPING,
      "by `memory.dram.type`: the reference HBM (SM90) or GDDR6 (SM86) map",
      "channel bits at bit 8 (256-byte interleave); 16 banks, matching nbk of the timing"),
    V(G, NULL, "-gpgpu_dram_timing_opt", D_TIMING,
      "by `memory.dram.type`: the reference HBM (SM90, JESD235 at 850 MHz) or GDDR6 (SM86) "
      "timing",
      "no DRAM timing is measured by gpucal: constants per memory type, in the reference's DRAM "
      "cycles"),
    V(G, NULL, "-dram_dual_bus_interface", D_DUAL_BUS, "by `memory.dram.type`: HBM 1, GDDR 0",
      "HBM issues row and column commands at once (reference configs)"),
    C(G, NULL, "-dram_bnk_indexing_policy", "0", "bank indexing (reference configs)"),
    C(G, NULL, "-dram_bnkgrp_indexing_policy", "1",
      "low bits select the bank group, for bank-group parallelism (reference configs)"),
    C(G, "statistics", "-gpgpu_memlatency_stat", "14", "memory latency statistics (reference)"),
    C(G, NULL, "-gpgpu_runtime_stat", "500", "progress report every 500 cycles (reference)"),
    C(G, NULL, "-enable_ptx_file_line_stats", "1", "per-line statistics (reference)"),
    C(G, NULL, "-visualizer_enabled", "0", "no visualizer log"),
    C(G, NULL, "-power_simulation_enabled", "0", "no power model: gpucal calibrates none"),
    /* ---- trace.config ---- */
    V(T, "trace-driven latencies <latency>,<initiation interval>",
      "-trace_opcode_latency_initiation_int", D_TR_INT,
      "as -ptx_opcode_latency_int / initiation_int", "integer SASS (IMAD, IADD3, ...)"),
    V(T, NULL, "-trace_opcode_latency_initiation_sp", D_TR_SP,
      "as -ptx_opcode_latency_fp / initiation_fp", "FP32 SASS (FFMA, FADD, ...)"),
    V(T, NULL, "-trace_opcode_latency_initiation_dp", D_TR_DP,
      "as -ptx_opcode_latency_dp / initiation_dp", "FP64 SASS (DFMA, ...)"),
    V(T, NULL, "-trace_opcode_latency_initiation_sfu", D_TR_SFU,
      "as -ptx_opcode_latency_sfu / initiation_sfu", "MUFU"),
    V(T, NULL, "-trace_opcode_latency_initiation_tensor", D_TR_TENSOR,
      "`tensor[FORM]` latency, initiation (as the PTX tensor options)",
      "HMMA where the front end maps it to the tensor unit"),
    V(T, "specialized units <enabled>,<num_units>,<max_latency>,<ID_OC>,<OC_EX>,<NAME>",
      "-specialized_unit_1", D_SPEC_BRA, "1,`sm.sub_cores`,4,`sm.sub_cores`,`sm.sub_cores`,BRA",
      "branch unit, one per sub-core"),
    C(T, NULL, "-trace_opcode_latency_initiation_spec_op_1", "4,4",
      "branch latency, not measured by gpucal (reference configs)"),
    V(T, NULL, "-specialized_unit_2", D_SPEC_TEX,
      "1,`sm.sub_cores`,200,`sm.sub_cores`,`sm.sub_cores`,TEX",
      "texture unit for legacy code, one per sub-core"),
    C(T, NULL, "-trace_opcode_latency_initiation_spec_op_2", "200,4",
      "fixed texture latency, not measured by gpucal (reference configs)"),
    V(T, NULL, "-specialized_unit_3", D_SPEC_TC,
      "1,`sm.sub_cores`,L,`sm.sub_cores`,`sm.sub_cores`,TENSOR with L the tensor latency written",
      "the tensor unit HMMA runs on (Volta-to-Ampere front ends); its pipeline is as deep as "
      "the latency"),
    V(T, NULL, "-trace_opcode_latency_initiation_spec_op_3", D_TR_TENSOR,
      "`tensor[FORM]` latency, initiation", "the measured tensor form"),
    V(T, NULL, "-specialized_unit_4", D_SPEC_UDP,
      "1,`sm.sub_cores`,4,`sm.sub_cores`,`sm.sub_cores`,UDP",
      "uniform datapath, one per sub-core (Turing and newer)"),
    C(T, NULL, "-trace_opcode_latency_initiation_spec_op_4", "4,2",
      "uniform-datapath latency, not measured by gpucal (reference configs)"),
};
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

/* ---- memory types: what the simulator's DRAM model needs per technology ---- */

typedef struct memtype {
    const char *prefix; /* case-insensitive prefix of memory.dram.type */
    int chan_bits;      /* width of one simulated channel */
    int burst, ratio, dual;
    const char *mapping, *timing;
    int svc; /* DRAM clocks the simulator adds to a row-miss read: tRP + tRCD + tCL of
              * the timing + 8 (burst and controller queues; measured by the dram_chase
              * trace, scripts/sim-check.sh) */
} memtype_t;

static const memtype_t memtypes[] = {
    {"HBM", 64, 2, 2, 1,
     "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS",
     "nbk=16:CCD=1:RRD=3:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=2:CDLR=3:WR=10:nbkgrp=4:CCDL=2:"
     "RTPL=3",
     12 + 12 + 12 + 8},
    {"GDDR6", 16, 16, 4, 0,
     "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS",
     "nbk=16:CCD=4:RRD=12:RCD=24:RAS=55:RP=24:RC=78:CL=24:WL=8:CDLR=10:WR=24:nbkgrp=4:CCDL=6:"
     "RTPL=4",
     24 + 24 + 24 + 8},
};

/* CUDA's shared-memory carve-outs (KiB) by compute capability. */
static const int carve_volta[] = {0, 8, 16, 32, 64, 96, -1};
static const int carve_turing[] = {32, 64, -1};
static const int carve_ampere[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228, -1};

/* Per-SM limits by compute capability, from the CUDA C++ Programming Guide
 * table "Technical Specifications per Compute Capability": used only when
 * the arch lacks the key (every supported cc has 64 K registers per SM and
 * 32 shared-memory banks). */
typedef struct cclimits {
    int cc, max_threads, max_blocks, shared_max_kib, l1_shared_kib;
} cclimits_t;

static const cclimits_t cc_limits[] = {
    {70, 2048, 32, 96, 128},  {75, 1024, 16, 64, 96},   {80, 2048, 32, 164, 192},
    {86, 1536, 16, 100, 128}, {89, 1536, 24, 100, 128}, {90, 2048, 32, 228, 256},
};
#define CUDA_GUIDE "CUDA C++ Programming Guide, Technical Specifications per Compute Capability"

static const cclimits_t *limits_of(int cc)
{
    for (size_t i = 0; i < sizeof(cc_limits) / sizeof(cc_limits[0]); i++)
        if (cc_limits[i].cc == cc)
            return &cc_limits[i];
    return NULL;
}

/* ALU constants used only when the arch has no alu entry: the values of the
 * SM86_RTX3070 reference trace.config. */
typedef struct alu_kind {
    const char *what;
    const char *const ops[8];
    int lat, ini;
    int add; /* cycles the simulator adds on a dependent chain (simcorr.h) */
} alu_kind_t;

static const alu_kind_t alu_int = {"int", {"imad", "iadd3", "iadd", NULL}, 4, 2, GC_SIM_ADD_ALU_CYC};
static const alu_kind_t alu_sp = {"sp", {"ffma", "fadd", "fmul", NULL}, 4, 2, GC_SIM_ADD_ALU_CYC};
static const alu_kind_t alu_dp = {"dp", {"dfma", "dadd", "dmul", NULL}, 8, 4, GC_SIM_ADD_ALU_CYC};
static const alu_kind_t alu_sfu = {
    "sfu",
    {"mufu.ex2", "mufu.rsq", "mufu.rcp", "mufu.lg2", "mufu.sin", "mufu.cos", "mufu.sqrt", NULL},
    20,
    8,
    GC_SIM_ADD_ALU_CYC};

/* ---- derivation ---- */

typedef struct ctx {
    const gc_arch_t *a;
    const char *file; /* the arch file, for messages */
    char val[D_N][192];
    char note[D_N][320];
    gc_accelsim_info_t *info;
    gc_err_t *err;
} ctx_t;

static void setv(ctx_t *c, int id, const char *fmt, ...) GC_PRINTF(3, 4);
static void setv(ctx_t *c, int id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->val[id], sizeof(c->val[id]), fmt, ap);
    va_end(ap);
}

static void setn(ctx_t *c, int id, const char *fmt, ...) GC_PRINTF(3, 4);
static void setn(ctx_t *c, int id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->note[id], sizeof(c->note[id]), fmt, ap);
    va_end(ap);
}

/* A number as text: whole numbers without a decimal point. */
static const char *num(char *buf, double v)
{
    return gc_num_format(buf, 32, v, v == floor(v) && fabs(v) < 1e15);
}

static void fallback(ctx_t *c, const char *key)
{
    gc_accelsim_info_t *in = c->info;
    in->n_fallback++;
    if (strstr(in->fallbacks, key))
        return;
    size_t n = strlen(in->fallbacks);
    snprintf(in->fallbacks + n, sizeof(in->fallbacks) - n, "%s%s", n ? ", " : "", key);
}

static int missing(ctx_t *c, const char *key, const char *option, const char *alt)
{
    return gc_err_at(c->err, GC_EINPUT, c->file, 0, 0,
                     "%s is missing: the Accel-Sim export needs it for %s (add it to the arch "
                     "file with its source%s%s)",
                     key, option, alt ? ", or " : "", alt ? alt : "");
}

static int inconsistent(ctx_t *c, const char *fmt, ...) GC_PRINTF(2, 3);
static int inconsistent(ctx_t *c, const char *fmt, ...)
{
    char msg[GC_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return gc_err_at(c->err, GC_EINPUT, c->file, 0, 0, "%s", msg);
}

static long cyc(double v)
{
    long r = lround(v);
    return r < 1 ? 1 : r;
}

/* Latency and initiation interval of one CUDA-core pipe, with a note for
 * each (ln, in: NOTE_MAX bytes). */
#define NOTE_MAX 320
static void alu_pair(ctx_t *c, const alu_kind_t *k, int s, long *lat, long *ini, char *ln, char *in)
{
    const gc_arch_t *a = c->a;
    const gc_alu_t *e = NULL;
    for (int i = 0; k->ops[i] && !e; i++) {
        const gc_alu_t *x = gc_arch_alu(a, k->ops[i]);
        if (x && x->latency_cyc.set)
            e = x;
    }
    if (!e && !strcmp(k->what, "sfu"))
        for (size_t i = 0; i < a->n_alu && !e; i++)
            if (!strncmp(a->alu[i].op, "mufu.", 5) && a->alu[i].latency_cyc.set)
                e = &a->alu[i];
    char b1[32];
    if (e) {
        *lat = cyc(e->latency_cyc.v);
        snprintf(ln, NOTE_MAX, "alu[%s].latency_cyc %s", e->op, num(b1, e->latency_cyc.v));
    } else {
        *lat = k->lat;
        char key[48];
        snprintf(key, sizeof(key), "alu[%s]", k->ops[0]);
        fallback(c, key);
        snprintf(ln, NOTE_MAX, "latency constant %d: the arch has no alu[%s] (reference value)",
                 k->lat, k->ops[0]);
    }
    if (e && e->ops_clk_sm.set) {
        *ini = cyc(32.0 * s / e->ops_clk_sm.v);
        snprintf(in, NOTE_MAX, "initiation 32 x %d sub-cores / alu[%s].ops_clk_sm %s", s, e->op,
                 num(b1, e->ops_clk_sm.v));
    } else if (!strcmp(k->what, "sp") && a->sm.fp32_lanes.set) {
        *ini = cyc(32.0 * s / a->sm.fp32_lanes.v);
        snprintf(in, NOTE_MAX, "initiation 32 x %d sub-cores / sm.fp32_lanes %s", s,
                 num(b1, a->sm.fp32_lanes.v));
    } else {
        *ini = k->ini;
        snprintf(in, NOTE_MAX,
                 "initiation constant %d: no measured throughput (reference "
                 "value)",
                 k->ini);
    }
    if (e) {
        /* the measured latency less what the simulator's pipeline adds */
        double sim = 0;
        *lat = gc_simcorr_pipe(e->latency_cyc.v, k->add, *ini, &sim);
        size_t n = strlen(ln);
        snprintf(ln + n, NOTE_MAX - n, " - %d cycles the simulator adds (issue, operand "
                 "collector, dispatch, writeback) = %ld%s", k->add, *lat,
                 sim > lround(e->latency_cyc.v) ? ", the shortest the simulator can be told "
                                                  "(it will run the chain slower)" : "");
    } else if (*ini > *lat) {
        size_t n = strlen(ln);
        snprintf(ln + n, NOTE_MAX - n,
                 ", raised to the initiation interval %ld (a warp cannot "
                 "finish before the pipe took it)",
                 *ini);
        *lat = *ini;
    }
}

static const gc_tensor_t *pick_form(ctx_t *c, const char *want)
{
    const gc_arch_t *a = c->a;
    char lab[128];
    if (want) {
        for (size_t i = 0; i < a->n_tensor; i++) {
            gc_tensor_label(&a->tensor[i], lab, sizeof(lab));
            if (!strcmp(lab, want))
                return &a->tensor[i];
        }
        /* the label without the data pattern: prefer rand */
        const gc_tensor_t *best = NULL;
        size_t wn = strlen(want);
        for (size_t i = 0; i < a->n_tensor; i++) {
            gc_tensor_label(&a->tensor[i], lab, sizeof(lab));
            if (!strncmp(lab, want, wn) &&
                (!strcmp(lab + wn, " rand") || !strcmp(lab + wn, " zero")) &&
                (!best || !strcmp(lab + wn, " rand")))
                best = &a->tensor[i];
        }
        if (!best)
            gc_err_at(c->err, GC_EINPUT, c->file, 0, 0,
                      "no tensor form '%s' in the arch (give --form as `gpucal arch show` "
                      "labels it, e.g. 'mma m16n8k16 f16.f32')",
                      want);
        return best;
    }
    const gc_tensor_t *t = gc_arch_tensor(a, "mma", "m16n8k16", "f16", "f32", NULL);
    if (!t)
        t = gc_arch_tensor(a, "mma", "m16n8k8", "f16", "f32", NULL);
    if (!t)
        missing(c, "tensor[mma m16n8k16 f16.f32]", "-ptx_opcode_latency_tesnor",
                "tensor[mma m16n8k8 f16.f32], or choose a form with --form");
    return t;
}

static int derive_tensor(ctx_t *c, const char *want, int s)
{
    const gc_arch_t *a = c->a;
    int has_tc = a->n_tensor > 0 || a->sm.tensor_cores.set;
    setv(c, D_TC_AVAIL, "%d", has_tc);
    setn(c, D_TC_AVAIL, "%s",
         a->n_tensor ? "the arch has tensor forms"
         : has_tc    ? "sm.tensor_cores"
                     : "no tensor forms, no sm.tensor_cores");
    setv(c, D_TC_UNITS, "%d", has_tc ? s : 0);
    setn(c, D_TC_UNITS, "sm.sub_cores %d", s);
    const gc_tensor_t *t = pick_form(c, want);
    if (!t)
        return c->err->code;
    char lab[128], key[160], b1[32], b2[32], b3[32];
    gc_tensor_label(t, lab, sizeof(lab));
    snprintf(c->info->form, sizeof(c->info->form), "%s", lab);
    if (!t->latency_cyc.set) {
        snprintf(key, sizeof(key), "tensor[%s].latency_cyc", lab);
        return missing(c, key, "-ptx_opcode_latency_tesnor", NULL);
    }
    long lat = cyc(t->latency_cyc.v), ini;
    char inote[200];
    c->info->tc_lat_cyc = t->latency_cyc.v;
    gc_tensor_shape(t->shape, &c->info->tc_m, &c->info->tc_n, &c->info->tc_k);
    if (t->issue_cyc.set) {
        c->info->tc_issue_cyc = t->issue_cyc.v;
        ini = cyc(t->issue_cyc.v);
        snprintf(inote, sizeof(inote), "issue_cyc %s", num(b2, t->issue_cyc.v));
    } else if (t->peak_fma_clk_sm.set) {
        int m = 0, n = 0, k = 0;
        gc_tensor_shape(t->shape, &m, &n, &k); /* validated when the arch was loaded */
        double sc = t->sub_cores.set ? t->sub_cores.v : s;
        c->info->tc_issue_cyc = (double)m * n * k * sc / t->peak_fma_clk_sm.v;
        ini = cyc(c->info->tc_issue_cyc);
        snprintf(inote, sizeof(inote),
                 "initiation %d x %d x %d x %s sub-cores / "
                 "peak_fma_clk_sm %s",
                 m, n, k, num(b3, sc), num(b2, t->peak_fma_clk_sm.v));
    } else {
        snprintf(key, sizeof(key), "tensor[%s].issue_cyc", lab);
        return missing(c, key, "-ptx_opcode_initiation_tensor",
                       "its peak_fma_clk_sm (the initiation interval follows from it)");
    }
    /* the measured latency less what the simulator's pipeline adds */
    double sim = 0;
    lat = gc_simcorr_pipe(t->latency_cyc.v, GC_SIM_ADD_ALU_CYC, ini, &sim);
    c->info->sim_tc_cyc = sim;
    if (sim > lround(t->latency_cyc.v)) {
        size_t n = strlen(inote);
        snprintf(inote + n, sizeof(inote) - n, "; latency raised to the initiation interval");
    }
    setv(c, D_LAT_TC, "%ld", lat);
    setn(c, D_LAT_TC, "tensor[%s].latency_cyc %s - %d cycles the simulator adds", lab,
         num(b1, t->latency_cyc.v), GC_SIM_ADD_ALU_CYC);
    setv(c, D_INI_TC, "%ld", ini);
    setn(c, D_INI_TC, "tensor[%s] %s", lab, inote);
    setv(c, D_TR_TENSOR, "%ld,%ld", lat, ini);
    setn(c, D_TR_TENSOR, "tensor[%s]: latency_cyc %s - %d cycles the simulator adds, %s", lab,
         num(b1, t->latency_cyc.v), GC_SIM_ADD_ALU_CYC, inote);
    setv(c, D_SPEC_TC, "1,%d,%ld,%d,%d,TENSOR", s, lat, s, s);
    setn(c, D_SPEC_TC, "sm.sub_cores %d units; pipeline depth = tensor latency %ld", s, lat);
    return 0;
}

static int derive_alu(ctx_t *c, int s)
{
    static const struct {
        const alu_kind_t *k;
        int lat, ini, tr;
        const char *div_lat, *div_ini;
    } pipes[] = {
        {&alu_int, D_LAT_INT, D_INI_INT, D_TR_INT, "21", "2"},
        {&alu_sp, D_LAT_FP, D_INI_FP, D_TR_SP, "39", "2"},
        {&alu_dp, D_LAT_DP, D_INI_DP, D_TR_DP, "330", "130"},
        {&alu_sfu, D_LAT_SFU, D_INI_SFU, D_TR_SFU, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof(pipes) / sizeof(pipes[0]); i++) {
        long l, n;
        char ln[NOTE_MAX], in[NOTE_MAX];
        alu_pair(c, pipes[i].k, s, &l, &n, ln, in);
        if (pipes[i].div_lat) {
            /* ADD,MAX,MUL,MAD from the pipe; DIV: PTX-mode division sequences,
             * the reference configs' figures */
            setv(c, pipes[i].lat, "%ld,%ld,%ld,%ld,%s", l, l, l, l, pipes[i].div_lat);
            setv(c, pipes[i].ini, "%ld,%ld,%ld,%ld,%s", n, n, n, n, pipes[i].div_ini);
            setn(c, pipes[i].lat, "%s; DIV: the reference configs' constant", ln);
            setn(c, pipes[i].ini, "%s; DIV: the reference configs' constant", in);
        } else {
            setv(c, pipes[i].lat, "%ld", l);
            setv(c, pipes[i].ini, "%ld", n);
            setn(c, pipes[i].lat, "%s", ln);
            setn(c, pipes[i].ini, "%s", in);
        }
        setv(c, pipes[i].tr, "%ld,%ld", l, n);
        setn(c, pipes[i].tr, "%s; %s", ln, in);
        if (pipes[i].k == &alu_int)
            c->info->sim_int_cyc = (double)(l + GC_SIM_ADD_ALU_CYC);
        else if (pipes[i].k == &alu_sp)
            c->info->sim_sp_cyc = (double)(l + GC_SIM_ADD_ALU_CYC);
    }
    return 0;
}

/* L2 hit and DRAM miss latency (SM cycles) from the fine-grained or the
 * classic P-chase. */
static int l2_latencies(ctx_t *c, double *hit, double *miss, char *note, size_t nn)
{
    const gc_l2_t *l2 = &c->a->memory.l2;
    const gc_dram_t *d = &c->a->memory.dram;
    double w = 1.0;
    char wdesc[96] = "", b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], b7[32];
    int two = (l2->far_hit_cyc.set && l2->near_hit_cyc.set) ||
              (l2->latency_far_cyc.set && l2->latency_cyc.set);
    if (two) {
        if (l2->near_share.set) {
            w = l2->near_share.v;
            snprintf(wdesc, sizeof(wdesc), "near_share %s", num(b1, w));
        } else if (l2->partitions.set) {
            w = 1.0 / l2->partitions.v;
            snprintf(wdesc, sizeof(wdesc), "1/partitions = %s", num(b1, w));
        } else {
            w = 0.5;
            snprintf(wdesc, sizeof(wdesc), "1/2 (no near_share, no partitions)");
        }
    }
    if (l2->near_hit_cyc.set && l2->near_miss_cyc.set) {
        *hit = l2->near_hit_cyc.v;
        *miss = l2->near_miss_cyc.v;
        if (l2->far_hit_cyc.set) {
            *hit = w * l2->near_hit_cyc.v + (1 - w) * l2->far_hit_cyc.v;
            if (l2->far_miss_cyc.set)
                *miss = w * l2->near_miss_cyc.v + (1 - w) * l2->far_miss_cyc.v;
            snprintf(
                note, nn,
                "fine-grained P-chase: hit %s x near_hit %s + far_hit %s = %s, miss near_miss "
                "%s%s%s weighted = %s (weight %s)",
                num(b1, w), num(b2, l2->near_hit_cyc.v), num(b3, l2->far_hit_cyc.v), num(b4, *hit),
                num(b5, l2->near_miss_cyc.v), l2->far_miss_cyc.set ? " / far_miss " : "",
                l2->far_miss_cyc.set ? num(b6, l2->far_miss_cyc.v) : "", num(b7, *miss), wdesc);
        } else {
            snprintf(note, nn, "fine-grained P-chase: memory.l2.near_hit_cyc %s, near_miss_cyc %s",
                     num(b1, *hit), num(b2, *miss));
        }
        return 0;
    }
    if (l2->latency_cyc.set && d->latency_cyc.set) {
        *hit = l2->latency_cyc.v;
        if (l2->latency_far_cyc.set)
            *hit = w * l2->latency_cyc.v + (1 - w) * l2->latency_far_cyc.v;
        *miss = d->latency_cyc.v;
        snprintf(note, nn,
                 "classic P-chase: L2 hit memory.l2.latency_cyc %s%s%s -> %s%s%s, miss "
                 "memory.dram.latency_cyc %s",
                 num(b1, l2->latency_cyc.v), l2->latency_far_cyc.set ? " / latency_far_cyc " : "",
                 l2->latency_far_cyc.set ? num(b2, l2->latency_far_cyc.v) : "", num(b3, *hit),
                 two ? ", weight " : "", two ? wdesc : "", num(b4, *miss));
        return 0;
    }
    return missing(
        c,
        l2->near_hit_cyc.set || l2->latency_cyc.set
            ? (l2->near_hit_cyc.set ? "memory.l2.near_miss_cyc" : "memory.dram.latency_cyc")
            : "memory.l2.near_hit_cyc",
        "-gpgpu_l2_rop_latency and -dram_latency",
        "the classic pair memory.l2.latency_cyc + memory.dram.latency_cyc");
}

/* A KiB quantity that must be whole; without it the CUDA guide's figure for
 * the compute capability (rule >= 0). note: where the value came from. */
static int whole_kib(ctx_t *c, const gc_qty_t *q, const char *key, const char *option, int rule,
                     long *v, char *note, size_t nn)
{
    if (!q->set && rule >= 0) {
        *v = rule;
        snprintf(note, nn, "%d (%s: the arch has no %s)", rule, CUDA_GUIDE, key);
        fallback(c, key);
        return 0;
    }
    if (!q->set)
        return missing(c, key, option, NULL);
    char b[32];
    snprintf(note, nn, "%s %s", key, num(b, q->v));
    if (q->v != floor(q->v))
        return inconsistent(c, "%s = %g is not a whole number of KiB, which %s needs", key, q->v,
                            option);
    *v = (long)q->v;
    return 0;
}

/* What the memory part of the export works out step by step. */
typedef struct mem {
    const memtype_t *mt; /* the DRAM model */
    const char *type;    /* the DRAM type as named */
    long nmem, bw;       /* channels, bytes per channel */
    double core;         /* the SM clock, MHz */
    char cs[32];         /* ... as written */
    double dclk;         /* the DRAM clock of -gpgpu_clock_domains, MHz */
    long l1cfg;          /* -gpgpu_l1_latency written */
    long unified, shmax; /* unified L1/shared and shared maximum, KiB */
} mem_t;

/* The DRAM technology: the arch's memory.dram.type (or HBM from a bus of
 * 1024 bits or more) and its model in memtypes. */
static int mem_type(ctx_t *c, mem_t *m)
{
    const gc_dram_t *d = &c->a->memory.dram;
    const memtype_t *mt = NULL;
    const char *type = d->type;
    if (!type && d->bus_bits.set && d->bus_bits.v >= 1024) {
        /* HBM stacks have 1024-bit interfaces; no GDDR bus is wider than 512 bits */
        type = "HBM (a bus of 1024 bits or more)";
        fallback(c, "memory.dram.type");
    }
    if (!type)
        return missing(c, "memory.dram.type", "the DRAM model (-gpgpu_dram_timing_opt, ...)",
                       "memory.dram.bus_bits of 1024 or more for HBM");
    for (size_t i = 0; i < sizeof(memtypes) / sizeof(memtypes[0]) && !mt; i++)
        if (!strncasecmp(type, memtypes[i].prefix, strlen(memtypes[i].prefix)))
            mt = &memtypes[i];
    if (!mt)
        return inconsistent(c,
                            "memory.dram.type '%s' has no DRAM model in the export (known: "
                            "HBM*, GDDR6*; see model/export/export.md)",
                            type);
    m->mt = mt;
    m->type = type;
    return 0;
}

/* Channels (-gpgpu_n_mem) and their width in bytes. */
static int mem_channels(ctx_t *c, mem_t *m)
{
    const gc_dram_t *d = &c->a->memory.dram;
    const memtype_t *mt = m->mt;
    const char *type = m->type;
    char b1[32];
    long nmem, bw;
    if (d->channels.set) {
        nmem = (long)d->channels.v;
        if (d->bus_bits.set) {
            if ((long)d->bus_bits.v % (8 * nmem))
                return inconsistent(c,
                                    "memory.dram.bus_bits %s over memory.dram.channels %ld "
                                    "is not a whole number of bytes per channel",
                                    num(b1, d->bus_bits.v), nmem);
            bw = (long)d->bus_bits.v / 8 / nmem;
            setn(c, D_BUSWIDTH, "memory.dram.bus_bits %s / 8 / %ld channels",
                 num(b1, d->bus_bits.v), nmem);
        } else {
            bw = mt->chan_bits / 8;
            setn(c, D_BUSWIDTH, "%s channel width %d bits (no memory.dram.bus_bits)", mt->prefix,
                 mt->chan_bits);
        }
        setn(c, D_NMEM, "memory.dram.channels %ld", nmem);
    } else if (d->bus_bits.set) {
        if ((long)d->bus_bits.v % mt->chan_bits)
            return inconsistent(c,
                                "memory.dram.bus_bits %s is not a multiple of the %d-bit %s "
                                "channel (give memory.dram.channels)",
                                num(b1, d->bus_bits.v), mt->chan_bits, mt->prefix);
        nmem = (long)d->bus_bits.v / mt->chan_bits;
        bw = mt->chan_bits / 8;
        setn(c, D_NMEM, "memory.dram.bus_bits %s / %d-bit %s channels", num(b1, d->bus_bits.v),
             mt->chan_bits, type);
        setn(c, D_BUSWIDTH, "%s channel width %d bits", type, mt->chan_bits);
    } else {
        return missing(c, "memory.dram.channels", "-gpgpu_n_mem", "memory.dram.bus_bits");
    }
    setv(c, D_NMEM, "%ld", nmem);
    setv(c, D_BUSWIDTH, "%ld", bw);
    c->info->n_mem = (int)nmem;
    m->nmem = nmem;
    m->bw = bw;
    return 0;
}

/* The DRAM model of the technology, and the partition indexing the
 * channel count allows. */
static void mem_model(ctx_t *c, const mem_t *m)
{
    const memtype_t *mt = m->mt;
    const char *type = m->type;
    long nmem = m->nmem;
    setv(c, D_BURST, "%d", mt->burst);
    setn(c, D_BURST, "memory.dram.type %s", type);
    setv(c, D_FREQ_RATIO, "%d", mt->ratio);
    setn(c, D_FREQ_RATIO, "memory.dram.type %s", type);
    setv(c, D_MAPPING, "%s", mt->mapping);
    setn(c, D_MAPPING, "memory.dram.type %s: the reference %s address map", type,
         mt->dual ? "HBM (SM90)" : "GDDR6 (SM86)");
    setv(c, D_TIMING, "%s", mt->timing);
    setn(c, D_TIMING, "constant for memory.dram.type %s: the reference %s timing (not measured)",
         type, mt->dual ? "HBM (SM90)" : "GDDR6 (SM86)");
    setv(c, D_DUAL_BUS, "%d", mt->dual);
    setn(c, D_DUAL_BUS, "memory.dram.type %s", type);
    /* partition indexing */
    int idx = (nmem == 16 || nmem == 32 || nmem == 64) ? 2 : ((nmem & (nmem - 1)) == 0) ? 1 : 0;
    c->info->indexing = idx;
    setv(c, D_INDEXING, "%d", idx);
    if (idx == 2)
        setn(c, D_INDEXING, "IPOLY: %ld channels", nmem);
    else
        setn(c, D_INDEXING, "%s: IPOLY needs 16, 32 or 64 channels, this GPU has %ld",
             idx == 1 ? "XOR indexing" : "consecutive indexing", nmem);
}

/* -gpgpu_clock_domains: the SM clock --clock picks, the DRAM clock. */
static int mem_clocks(ctx_t *c, const gc_accelsim_opts_t *o, mem_t *m)
{
    const gc_arch_t *a = c->a;
    const gc_dram_t *d = &a->memory.dram;
    const memtype_t *mt = m->mt;
    long nmem = m->nmem, bw = m->bw;
    char b1[32], b2[32], b3[32];
    const gc_qty_t *clk = &a->sm.clock_max_mhz;
    const char *ck = "sm.clock_max_mhz";
    const char *which = o->clock ? o->clock : "max";
    if (!strcmp(which, "base"))
        clk = &a->sm.clock_base_mhz, ck = "sm.clock_base_mhz";
    else if (!strcmp(which, "tensor"))
        clk = &a->sm.clock_tensor_mhz, ck = "sm.clock_tensor_mhz";
    else if (!strcmp(which, "memory"))
        clk = &a->sm.clock_memory_mhz, ck = "sm.clock_memory_mhz";
    else if (strcmp(which, "max"))
        return gc_err_set(c->err, GC_EUSAGE, "unknown --clock '%s' (max, base, tensor, memory)",
                          which);
    if (!clk->set)
        return missing(c, ck, "-gpgpu_clock_domains (--clock)", "choose another --clock");
    double core = clk->v, drv;
    char dnote[160];
    if (d->clock_mhz.set) {
        drv = d->clock_mhz.v;
        snprintf(dnote, sizeof(dnote), "memory.dram.clock_mhz %s", num(b1, drv));
    } else if (d->bw_peak_gbs.set && d->bus_bits.set) {
        drv = d->bw_peak_gbs.v * 1000.0 / (2.0 * d->bus_bits.v / 8.0);
        snprintf(dnote, sizeof(dnote), "memory.dram.bw_peak_gbs %s x 1000 / (2 x %s / 8) = %s",
                 num(b1, d->bw_peak_gbs.v), num(b2, d->bus_bits.v), num(b3, drv));
    } else {
        return missing(c, "memory.dram.clock_mhz", "the DRAM clock of -gpgpu_clock_domains",
                       "memory.dram.bw_peak_gbs with memory.dram.bus_bits");
    }
    double dclk = 2.0 * drv / mt->ratio, dpeak = dclk;
    char *cs = m->cs, ds[32], dps[32];
    num(cs, core);
    num(dps, dpeak);
    /* the measured stream, where the arch has one below the datasheet peak: the
     * simulator's DRAM model streams at its peak (it issues no refresh), the GPU
     * does not */
    const gc_qty_t *st = d->bw_read_gbs.set ? &d->bw_read_gbs : &d->bw_gbs;
    double eff = st->set ? round(st->v * 1e5 / ((double)nmem * bw * mt->ratio)) / 100 : 0;
    if (eff > 0 && eff < dclk) {
        dclk = eff;
        num(ds, dclk);
        setn(c, D_CLOCKS,
             "core/icnt/L2: %s %s MHz; DRAM: memory.dram.%s %s x 1000 / (%ld channels x %ld B x "
             "%d) = %s MHz: the GPU's sustained stream, as the simulator (no refresh) streams at "
             "its peak; datasheet: 2 x %s / %d = %s MHz, %s GB/s",
             ck, cs, st == &d->bw_read_gbs ? "bw_read_gbs" : "bw_gbs", num(b1, st->v), nmem, bw,
             mt->ratio, ds, dnote, mt->ratio, dps,
             num(b3, nmem * bw * mt->ratio * dpeak / 1000.0));
    } else {
        num(ds, dclk);
        setn(c, D_CLOCKS,
             "core/icnt/L2: %s %s MHz; DRAM: 2 x %s / %d = %s MHz (%ld channels x %ld B x %d x "
             "%s MHz = %s GB/s)",
             ck, cs, dnote, mt->ratio, ds, nmem, bw, mt->ratio, ds,
             num(b3, nmem * bw * mt->ratio * dclk / 1000.0));
    }
    setv(c, D_CLOCKS, "%s:%s:%s:%s", cs, cs, cs, ds);
    c->info->core_mhz = core;
    m->core = core;
    m->dclk = dclk;
    return 0;
}

/* The simulator's caches are sector caches of 128-byte lines and 32-byte
 * sectors: a cache level (key, e.g. "memory.l1") whose measured line or
 * sector differs cannot be exported. 0, or the error (GC_EINPUT). */
static int sector_cache(ctx_t *c, const char *key, const gc_qty_t *line, const gc_qty_t *sector)
{
    char b1[32];
    if (line->set && line->v != 128)
        return inconsistent(c,
                            "%s.line_bytes is %s: the simulator's sector cache needs "
                            "128-byte lines",
                            key, num(b1, line->v));
    if (sector->set && sector->v != 32)
        return inconsistent(c, "%s.sector_bytes is %s: the simulator's sectors are 32 bytes", key,
                            num(b1, sector->v));
    return 0;
}

/* A quantity the arch lacks, filled with the constant val: its value, its
 * note (printf format) and the arch key recorded among the fallbacks. */
static void use_const(ctx_t *c, int id, const char *val, const char *key, const char *fmt, ...)
    GC_PRINTF(5, 6);
static void use_const(ctx_t *c, int id, const char *val, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->note[id], sizeof(c->note[id]), fmt, ap);
    va_end(ap);
    setv(c, id, "%s", val);
    fallback(c, key);
}

/* -gpgpu_kernel_launch_latency in core cycles: the GPU-side time between two
 * kernels of one stream (the simulator counts it down before a kernel's first
 * block, within the kernel's gpu_sim_cycle: abstract_hardware_model.cc,
 * kernel_info_t; gpu-sim.cc, gpgpu_sim::select_kernel). sm.kernel_floor_us
 * (per-kernel time of a CUDA graph of empty kernels) is that gap; without it
 * the host-timed sm.launch_overhead_us stands in (an upper bound: it includes
 * the host's submission), else the reference configs' 5000. */
static void mem_launch(ctx_t *c, const mem_t *m)
{
    const gc_sm_t *s = &c->a->sm;
    double core = m->core;
    const char *cs = m->cs;
    char b1[32];
    if (s->kernel_floor_us.set) {
        setv(c, D_LAUNCH, "%ld", lround(s->kernel_floor_us.v * core));
        setn(c, D_LAUNCH,
             "sm.kernel_floor_us %s x %s MHz: the GPU time per kernel of a CUDA graph of empty "
             "kernels, the gap between two kernels with no host launch between them; the "
             "simulator waits this many cycles before a kernel's first block",
             num(b1, s->kernel_floor_us.v), cs);
    } else if (s->launch_overhead_us.set) {
        setv(c, D_LAUNCH, "%ld", lround(s->launch_overhead_us.v * core));
        setn(c, D_LAUNCH,
             "sm.launch_overhead_us %s x %s MHz (the arch has no sm.kernel_floor_us): the "
             "simulator waits this many cycles before a kernel's first block; the figure is "
             "event-timed from the host, so it includes the host's submission (an upper bound)",
             num(b1, s->launch_overhead_us.v), cs);
        fallback(c, "sm.kernel_floor_us");
    } else {
        use_const(c, D_LAUNCH, "5000", "sm.launch_overhead_us",
                  "constant 5000: the arch has neither sm.kernel_floor_us nor "
                  "sm.launch_overhead_us (reference value)");
    }
}

/* The unified L1 / shared size, the L1 cache and the shared-memory size. */
static int mem_l1(ctx_t *c, int cc, mem_t *m)
{
    const gc_arch_t *a = c->a;
    char b1[32];
    long unified, shmax;
    const cclimits_t *lim = limits_of(cc);
    char un[256], sn[256];
    if (whole_kib(c, &a->sm.l1_shared_kib, "sm.l1_shared_kib",
                  "-gpgpu_unified_l1d_size and -gpgpu_cache:dl1", lim ? lim->l1_shared_kib : -1,
                  &unified, un, sizeof(un)) ||
        whole_kib(c, &a->sm.shared_max_kib, "sm.shared_max_kib", "-gpgpu_shmem_size",
                  lim ? lim->shared_max_kib : -1, &shmax, sn, sizeof(sn)))
        return c->err->code;
    if (shmax > unified)
        return inconsistent(c, "sm.shared_max_kib %ld exceeds sm.l1_shared_kib %ld", shmax,
                            unified);
    const gc_l1_t *l1 = &a->memory.l1;
    if (sector_cache(c, "memory.l1", &l1->line_bytes, &l1->sector_bytes))
        return c->err->code;
    if (l1->size_kib.set && l1->size_kib.v > unified)
        return inconsistent(c, "memory.l1.size_kib %s exceeds sm.l1_shared_kib %ld",
                            num(b1, l1->size_kib.v), unified);
    setv(c, D_UNIFIED, "%ld", unified);
    setn(c, D_UNIFIED, "%s", un);
    long l1assoc = unified * 1024 / (4 * 128);
    setv(c, D_DL1, "S:4:128:%ld,L:T:m:L:L,A:384:48,16:0,32", l1assoc);
    if (l1->size_kib.set)
        setn(c, D_DL1,
             "%ld KiB = 4 sets x 128 B x %ld ways (measured memory.l1.size_kib %s fits); "
             "unified size: %s",
             unified, l1assoc, num(b1, l1->size_kib.v), un);
    else
        setn(c, D_DL1, "%ld KiB = 4 sets x 128 B x %ld ways; unified size: %s", unified, l1assoc,
             un);
    setv(c, D_SHMEM_SIZE, "%ld", shmax * 1024);
    setn(c, D_SHMEM_SIZE, "%s, x 1024", sn);
    m->unified = unified;
    m->shmax = shmax;
    return 0;
}

/* Shared-memory carve-outs and the per-block limit. */
static int mem_carveouts(ctx_t *c, int cc, const mem_t *m)
{
    const gc_arch_t *a = c->a;
    long shmax = m->shmax;
    char b1[32];
    const int *cv = cc >= 80 ? carve_ampere : cc == 75 ? carve_turing : carve_volta;
    char list[160] = "";
    size_t at = 0;
    int last = -1;
    for (int i = 0; cv[i] >= 0 && cv[i] <= shmax; i++)
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%d", at ? "," : "", last = cv[i]);
    if (last != shmax)
        snprintf(list + at, sizeof(list) - at, "%s%ld", at ? "," : "", shmax);
    setv(c, D_SHMEM_OPT, "%s", list);
    setn(c, D_SHMEM_OPT, "CUDA carve-outs for cc %d.%d up to sm.shared_max_kib %ld", cc / 10,
         cc % 10, shmax);
    if (a->sm.shared_block_max_kib.set && a->sm.shared_block_max_kib.v > shmax)
        return inconsistent(c, "sm.shared_block_max_kib %s exceeds sm.shared_max_kib %ld",
                            num(b1, a->sm.shared_block_max_kib.v), shmax);
    if (a->sm.shared_block_max_kib.set) {
        setv(c, D_SHMEM_BLOCK, "%ld", lround(a->sm.shared_block_max_kib.v * 1024));
        setn(c, D_SHMEM_BLOCK, "sm.shared_block_max_kib %s x 1024",
             num(b1, a->sm.shared_block_max_kib.v));
    } else {
        use_const(c, D_SHMEM_BLOCK, "49152", "sm.shared_block_max_kib",
                  "constant 49152: the arch has no sm.shared_block_max_kib (CUDA's static 48 "
                  "KiB)");
    }
    return 0;
}

/* L1 and shared latencies, shared banks. */
static int mem_latencies(ctx_t *c, mem_t *m)
{
    const gc_arch_t *a = c->a;
    const gc_l1_t *l1 = &a->memory.l1;
    char b1[32];
    if (!l1->latency_cyc.set)
        return missing(c, "memory.l1.latency_cyc", "-gpgpu_l1_latency", NULL);
    long l1cfg = gc_simcorr_pipe(l1->latency_cyc.v, GC_SIM_ADD_L1_CYC, 1, NULL);
    m->l1cfg = l1cfg;
    setv(c, D_L1_LAT, "%ld", l1cfg);
    setn(c, D_L1_LAT, "memory.l1.latency_cyc %s - %d cycles the simulator adds", num(b1, l1->latency_cyc.v),
         GC_SIM_ADD_L1_CYC);
    const gc_shared_t *sh = &a->memory.shared;
    if (sh->latency_cyc.set) {
        setv(c, D_SMEM_LAT, "%ld", gc_simcorr_pipe(sh->latency_cyc.v, GC_SIM_ADD_SMEM_CYC, 1, NULL));
        setn(c, D_SMEM_LAT, "memory.shared.latency_cyc %s - %d cycles the simulator adds",
             num(b1, sh->latency_cyc.v), GC_SIM_ADD_SMEM_CYC);
    } else {
        const gc_conflict_t *cf = NULL;
        for (size_t i = 0; i < sh->n_conflicts && !cf; i++)
            if (sh->conflicts[i].width_bytes.v == 4 && sh->conflicts[i].ways.v == 1 &&
                sh->conflicts[i].latency_cyc.set)
                cf = &sh->conflicts[i];
        if (!cf)
            return missing(c, "memory.shared.latency_cyc", "-gpgpu_smem_latency",
                           "memory.shared.conflicts with width 4, ways 1");
        setv(c, D_SMEM_LAT, "%ld", gc_simcorr_pipe(cf->latency_cyc.v, GC_SIM_ADD_SMEM_CYC, 1, NULL));
        setn(c, D_SMEM_LAT, "memory.shared.conflicts[4x1].latency_cyc %s - %d cycles the simulator adds",
             num(b1, cf->latency_cyc.v), GC_SIM_ADD_SMEM_CYC);
    }
    if (sh->banks.set) {
        setv(c, D_BANKS, "%ld", (long)sh->banks.v);
        setn(c, D_BANKS, "memory.shared.banks %s", num(b1, sh->banks.v));
    } else {
        use_const(c, D_BANKS, "32", "memory.shared.banks",
                  "32 (%s: 32 banks for every cc; the arch has no memory.shared.banks)",
                  CUDA_GUIDE);
    }
    return 0;
}

/* The simulator's L2 is n_mem x N_SUB equal slices, each a sector cache of
 * 16, 32 or 64 sets (the IPOLY set hash, gpu-cache.cc) of 128-byte lines and
 * a whole number of ways. Sets s and ways w of the layout nearest to per bytes
 * per slice: an exact one (64 sets first, else 32, 16), else 64 sets (else 32,
 * 16) with the nearest whole number of ways, kept when within L2_OFF_PCT % of
 * the measured size. Returns the written size less the measured, % of it, or
 * HUGE_VAL when no layout is that near. */
#define L2_OFF_PCT 1.0
static double l2_layout(double per, long *s, long *w)
{
    static const long sets[] = {64, 32, 16};
    for (int i = 0; i < 3; i++) {
        double lines = per / 128.0 / (double)sets[i];
        if (lines == floor(lines) && lines >= 1) {
            *s = sets[i];
            *w = (long)lines;
            return 0;
        }
    }
    for (int i = 0; i < 3; i++) {
        long ways = lround(per / 128.0 / (double)sets[i]);
        double off = 100.0 * ((double)(ways * sets[i] * 128) - per) / per;
        if (ways >= 1 && fabs(off) <= L2_OFF_PCT) {
            *s = sets[i];
            *w = ways;
            return off;
        }
    }
    return HUGE_VAL;
}

/* The L2 cache: slices of the channels, sets and ways. */
static int mem_l2(ctx_t *c, const mem_t *m)
{
    long nmem = m->nmem;
    char b1[32], b2[32], b3[32];
    const gc_l2_t *l2 = &c->a->memory.l2;
    if (!l2->size_mib.set)
        return missing(c, "memory.l2.size_mib", "-gpgpu_cache:dl2", NULL);
    if (sector_cache(c, "memory.l2", &l2->line_bytes, &l2->sector_bytes))
        return c->err->code;
    double bytes = l2->size_mib.v * 1048576.0;
    long slices = nmem * N_SUB, nset = 0, assoc = 0;
    double per = bytes / (double)slices;
    double off = l2_layout(per, &nset, &assoc);
    if (off == HUGE_VAL)
        return inconsistent(c,
                            "memory.l2.size_mib %s does not divide into %ld slices of 16, 32 "
                            "or 64 sets of 128-byte lines, nor within %g %% (%ld channels x %d): "
                            "check the size and memory.dram.channels",
                            num(b1, l2->size_mib.v), slices, L2_OFF_PCT, nmem, N_SUB);
    c->info->l2_off_pct = off;
    setv(c, D_DL2, "S:%ld:128:%ld,L:B:m:L:P,A:192:4,32:0,32", nset, assoc);
    if (off == 0)
        setn(c, D_DL2,
             "memory.l2.size_mib %s / (%ld channels x %d slices) = %s B per slice = %ld "
             "sets x 128 B x %ld ways",
             num(b1, l2->size_mib.v), nmem, N_SUB, num(b2, per), nset, assoc);
    else
        setn(c, D_DL2,
             "memory.l2.size_mib %s / (%ld channels x %d slices) = %.1f B per slice, not a whole "
             "number of ways: the nearest layout the simulator takes, %ld sets x 128 B x %ld "
             "ways = %s MiB in all (%+.2f %%)",
             num(b1, l2->size_mib.v), nmem, N_SUB, per, nset, assoc,
             num(b3, (double)(slices * nset * 128 * assoc) / 1048576.0), off);
    return 0;
}

/* The L2 hit and DRAM miss latencies as the simulator adds them up. */
static int mem_l2_latencies(ctx_t *c, const mem_t *m)
{
    const gc_l1_t *l1 = &c->a->memory.l1;
    long l1cfg = m->l1cfg;
    char b1[32], b2[32], b3[32];
    double hit = 0, miss = 0;
    char lnote[320];
    if (l2_latencies(c, &hit, &miss, lnote, sizeof(lnote)))
        return c->err->code;
    c->info->l2_hit_cyc = hit;
    c->info->l2_miss_cyc = miss;
    long rop = lround(hit - l1cfg - GC_SIM_ADD_L2_CYC), dl = lround(miss - hit);
    if (rop < 1)
        return inconsistent(c,
                            "the L2 hit latency %s is not above memory.l1.latency_cyc %s: "
                            "check the arch's latencies",
                            num(b1, hit), num(b2, l1->latency_cyc.v));
    if (dl < 1)
        return inconsistent(c,
                            "the DRAM miss latency %s is not above the L2 hit latency %s: "
                            "check the arch's latencies",
                            num(b1, miss), num(b2, hit));
    rop = gc_simcorr_rop(hit, l1cfg);
    setv(c, D_ROP, "%ld", rop);
    setn(c, D_ROP, "L2 hit %s - -gpgpu_l1_latency %ld - %d cycles the simulator adds; %s",
         num(b1, hit), l1cfg, GC_SIM_ADD_L2_CYC, lnote);
    dl = gc_simcorr_dram(miss, hit, m->mt->svc, m->core, m->dclk);
    char cs_dram[32];
    num(cs_dram, m->dclk);
    setv(c, D_DRAM_LAT, "%ld", dl);
    setn(c, D_DRAM_LAT,
         "miss %s - hit %s - the simulator's row miss (%d DRAM clocks x %s / %s MHz); %s",
         num(b1, miss), num(b2, hit), m->mt->svc, num(b3, m->core), cs_dram, lnote);
    return 0;
}

static int derive_memory(ctx_t *c, const gc_accelsim_opts_t *o, int cc)
{
    mem_t m;
    memset(&m, 0, sizeof(m));
    int rc;
    if ((rc = mem_type(c, &m)) || (rc = mem_channels(c, &m)))
        return rc;
    mem_model(c, &m);
    if ((rc = mem_clocks(c, o, &m)))
        return rc;
    mem_launch(c, &m);
    if ((rc = mem_l1(c, cc, &m)) || (rc = mem_carveouts(c, cc, &m)) || (rc = mem_latencies(c, &m)) ||
        (rc = mem_l2(c, &m)))
        return rc;
    return mem_l2_latencies(c, &m);
}

static int derive(ctx_t *c, const gc_accelsim_opts_t *o)
{
    const gc_arch_t *a = c->a;
    char b1[32];
    int cc = gc_arch_cc(a);
    if (cc < 70)
        return inconsistent(c,
                            "cc %s: the export writes the sub-core model of Volta (7.0) and "
                            "newer",
                            a->cc ? a->cc : "?");
    int s = (int)a->sm.sub_cores.v;
    setv(c, D_CAP, "%d", cc);
    setn(c, D_CAP, "cc %s", a->cc);
    setv(c, D_CC_MAJ, "%d", cc / 10);
    setn(c, D_CC_MAJ, "cc %s", a->cc);
    setv(c, D_CC_MIN, "%d", cc % 10);
    setn(c, D_CC_MIN, "cc %s", a->cc);
    setv(c, D_NCLUST, "%ld", (long)a->sm.count.v);
    setn(c, D_NCLUST, "sm.count %s", num(b1, a->sm.count.v));
    const cclimits_t *lim = limits_of(cc);
    long regs = 65536;
    if (a->sm.registers.set) {
        regs = (long)a->sm.registers.v;
        setn(c, D_REGS, "sm.registers %ld", regs);
    } else if (lim) {
        setn(c, D_REGS, "65536 (%s: the arch has no sm.registers)", CUDA_GUIDE);
        fallback(c, "sm.registers");
    } else {
        return missing(c, "sm.registers", "-gpgpu_shader_registers", NULL);
    }
    setv(c, D_REGS, "%ld", regs);
    setv(c, D_REGS_BLOCK, "%ld", regs < 65536 ? regs : 65536);
    setn(c, D_REGS_BLOCK, "min(registers per SM %ld, 65536)", regs);
    if (a->sm.max_threads.set) {
        setv(c, D_PIPE, "%ld:32", (long)a->sm.max_threads.v);
        setn(c, D_PIPE, "sm.max_threads %s, warp size 32", num(b1, a->sm.max_threads.v));
    } else if (a->sm.max_warps.set) {
        setv(c, D_PIPE, "%ld:32", (long)a->sm.max_warps.v * 32);
        setn(c, D_PIPE, "sm.max_warps %s x 32", num(b1, a->sm.max_warps.v));
    } else if (lim) {
        setv(c, D_PIPE, "%d:32", lim->max_threads);
        setn(c, D_PIPE, "%d threads (%s: the arch has no sm.max_threads)", lim->max_threads,
             CUDA_GUIDE);
        fallback(c, "sm.max_threads");
    } else {
        return missing(c, "sm.max_threads", "-gpgpu_shader_core_pipeline", "sm.max_warps");
    }
    if (a->sm.max_blocks.set) {
        setv(c, D_CTA, "%ld", (long)a->sm.max_blocks.v);
        setn(c, D_CTA, "sm.max_blocks %s", num(b1, a->sm.max_blocks.v));
    } else if (lim) {
        setv(c, D_CTA, "%d", lim->max_blocks);
        setn(c, D_CTA, "%d (%s: the arch has no sm.max_blocks)", lim->max_blocks, CUDA_GUIDE);
        fallback(c, "sm.max_blocks");
    } else {
        return missing(c, "sm.max_blocks", "-gpgpu_shader_cta", NULL);
    }
    setv(c, D_WIDTHS, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d", s, s, s, s, s, s, s, s, s, s, 2 * s,
         s, s);
    setn(c, D_WIDTHS, "sm.sub_cores %d; EX_WB 2 x %d", s, s);
    setv(c, D_UNITS, "%d", s);
    setn(c, D_UNITS, "sm.sub_cores %d", s);
    setv(c, D_SUBCORE, "%d", s > 1);
    setn(c, D_SUBCORE, "sm.sub_cores %d", s);
    setv(c, D_OC_UNITS, "%d", 2 * s);
    setn(c, D_OC_UNITS, "2 x sm.sub_cores %d", s);
    setv(c, D_NSCHED, "%d", s);
    setn(c, D_NSCHED, "sm.sub_cores %d", s);
    setv(c, D_SPEC_BRA, "1,%d,4,%d,%d,BRA", s, s, s);
    setn(c, D_SPEC_BRA, "sm.sub_cores %d units", s);
    setv(c, D_SPEC_TEX, "1,%d,200,%d,%d,TEX", s, s, s);
    setn(c, D_SPEC_TEX, "sm.sub_cores %d units", s);
    setv(c, D_SPEC_UDP, "1,%d,4,%d,%d,UDP", s, s, s);
    setn(c, D_SPEC_UDP, "sm.sub_cores %d units", s);
    if (derive_tensor(c, o->form, s) || derive_alu(c, s) || derive_memory(c, o, cc))
        return c->err->code;
    return 0;
}

/* ---- writing ---- */

static void header(FILE *fp, const gc_arch_t *a, const char *what)
{
    fprintf(fp,
            "# %s for %s (%s, cc %s)\n"
            "# written by gpucal %s (gpucal export accel-sim) from the arch file %s.\n"
            "# Each option is preceded by where its value comes from: arch fields and the\n"
            "# formula, or 'constant:' and why. The table of all of them: model/export/export.md.\n",
            what, a->device ? a->device : "?", a->name ? a->name : "?", a->cc ? a->cc : "?",
            GPUCAL_VERSION, a->name ? a->name : "?");
    if (a->provenance.made_by)
        fprintf(fp, "# The arch file was made %s.\n", a->provenance.made_by);
}

static int write_file(ctx_t *c, int file, char **out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    if (!fp)
        return gc_err_set(c->err, GC_ENOMEM, "out of memory");
    header(fp, c->a, file == F_GPGPUSIM ? "gpgpusim.config" : "trace.config");
    for (size_t i = 0; i < N_KEYS; i++) {
        const ekey_t *k = &keys[i];
        if (k->file != file)
            continue;
        if (k->section)
            fprintf(fp, "\n# ---- %s ----\n", k->section);
        const char *v = k->id < 0 ? k->cst : c->val[k->id];
        if (k->id < 0)
            fprintf(fp, "# constant: %s\n", k->why);
        else
            fprintf(fp, "# %s\n", c->note[k->id]);
        fprintf(fp, strchr(v, ' ') ? "%s \"%s\"\n" : "%s %s\n", k->name, v);
        c->info->n_options++;
        if (k->id < 0)
            c->info->n_const++;
        else
            c->info->n_arch++;
    }
    if (fclose(fp) != 0 || !buf) {
        free(buf);
        return gc_err_set(c->err, GC_ENOMEM, "out of memory");
    }
    *out = buf;
    return 0;
}

int gc_accelsim_render(const gc_arch_t *a, const gc_accelsim_opts_t *o, char **gpgpusim,
                       char **trace, gc_accelsim_info_t *info, gc_err_t *err)
{
    static const gc_accelsim_opts_t dflt = {0};
    gc_accelsim_info_t scratch;
    *gpgpusim = *trace = NULL;
    if (!info)
        info = &scratch;
    memset(info, 0, sizeof(*info));
    ctx_t *c = calloc(1, sizeof(*c));
    if (!c)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    c->a = a;
    c->file = a->path ? a->path : a->name ? a->name : "arch";
    c->info = info;
    c->err = err;
    int rc = derive(c, o ? o : &dflt);
    if (!rc)
        rc = write_file(c, F_GPGPUSIM, gpgpusim);
    if (!rc)
        rc = write_file(c, F_TRACE, trace);
    if (rc) {
        free(*gpgpusim);
        free(*trace);
        *gpgpusim = *trace = NULL;
    }
    free(c);
    return rc;
}

int gc_accelsim_export(const gc_arch_t *a, const gc_accelsim_opts_t *o, const char *dir, int force,
                       gc_accelsim_info_t *info, gc_err_t *err)
{
    return gc_export_write(&gc_exporter_accelsim, a, o, dir, force, info, err);
}

/* ---- documentation ---- */

static void md_cell(FILE *fp, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', fp);
        fputc(*s, fp);
    }
}

void gc_accelsim_doc(FILE *fp)
{
    fprintf(fp, "<!-- generated by `gpucal export keys`: do not edit by hand -->\n");
    static const char *const files[] = {"gpgpusim.config", "trace.config"};
    for (int f = 0; f < 2; f++) {
        fprintf(fp, "\n### `%s`\n\n| option | value | from | why |\n| --- | --- | --- | --- |\n",
                files[f]);
        for (size_t i = 0; i < N_KEYS; i++) {
            const ekey_t *k = &keys[i];
            if (k->file != f)
                continue;
            fprintf(fp, "| `%s` | ", k->name);
            if (k->id < 0) {
                fprintf(fp, "`%s` | constant | ", k->cst);
            } else {
                fprintf(fp, "derived | ");
                md_cell(fp, k->how);
                fprintf(fp, " | ");
            }
            md_cell(fp, k->why);
            fprintf(fp, " |\n");
        }
    }
}

/* ---- the exporter interface (export.h) ---- */

static int render_all(const gc_arch_t *a, const gc_export_opts_t *o, char **text,
                      gc_export_info_t *info, gc_err_t *err)
{
    int rc = gc_accelsim_render(a, o, &text[0], &text[1], info, err);
    if (rc || !info)
        return rc;
    size_t n = 0;
    if (info->indexing != 2)
        n = (size_t)snprintf(info->note, sizeof(info->note),
                             "%d memory channels: the IPOLY partition hash needs 16, 32 or 64, so "
                             "the export uses %s indexing (-gpgpu_memory_partition_indexing %d)",
                             info->n_mem, info->indexing == 1 ? "XOR" : "consecutive",
                             info->indexing);
    if (info->l2_off_pct != 0 && n < sizeof(info->note))
        snprintf(info->note + n, sizeof(info->note) - n,
                 "%sthe L2 size does not divide into %d x 2 slices of whole ways: -gpgpu_cache:dl2 "
                 "is the nearest layout, %+.2f %% of memory.l2.size_mib",
                 n ? "; " : "", info->n_mem, info->l2_off_pct);
    return rc;
}

/* simcheck over the files of one simulation, read together */
static int check_all(const char *const *names, char *const *text, size_t n, gc_err_t *err)
{
    gc_simcheck_t *sc = gc_simcheck_create();
    if (!sc)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        rc = gc_simcheck_add(sc, names[i], text[i], strlen(text[i]), err);
    if (!rc)
        rc = gc_simcheck_done(sc, err);
    gc_simcheck_destroy(sc);
    return rc;
}

static int check_files(char *const *paths, size_t n, size_t *n_options, gc_err_t *err)
{
    gc_simcheck_t *sc = gc_simcheck_create();
    if (!sc)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        rc = gc_simcheck_file(sc, paths[i], err);
    if (!rc)
        rc = gc_simcheck_done(sc, err);
    *n_options = gc_simcheck_count(sc);
    gc_simcheck_destroy(sc);
    return rc;
}

static void summary(const gc_export_info_t *info, const char *dir, const char *arch, FILE *fp)
{
    fprintf(fp,
            "wrote %s/gpgpusim.config and %s/trace.config for %s: %d options, %d from the "
            "arch, %d fixed constants; tensor unit from %s\n",
            dir, dir, arch, info->n_options, info->n_arch, info->n_const, info->form);
    if (info->fallbacks[0])
        fprintf(fp,
                "values the arch lacks, filled by the documented rules of model/export/export.md: "
                "%s (each is marked in the files)\n",
                info->fallbacks);
}

const gc_exporter_t gc_exporter_accelsim = {
    "accel-sim", {"gpgpusim.config", "trace.config"}, 2, render_all, check_all, check_files,
    gc_accelsim_doc, summary,
};
