/* benches.c - the bench table (benches.h): declarative rows, then the two
 * small functions that read them. The units and meanings are those of
 * traces/README.md; the ranges are what calib accepts. */
#include "benches.h"

#include <string.h>

/* choices of the text columns */
static const char *const insts[] = {"mma", "mma.sp", "wgmma", "wgmma.sp", "wmma", NULL};
static const char *const atypes[] = {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8",
                                     "u8",  "s4",   "u4",   "b1",   "f64",  NULL};
static const char *const ctypes[] = {"f16", "f32", "s32", "f64", NULL};
static const char *const operands[] = {"ss", "rs", "-", NULL};
static const char *const datas[] = {"zero", "rand", NULL};
static const char *const scopes[] = {"sm", "gpu", NULL};
static const char *const paths[] = {"l1", "l2", "global", "shared", "shared_idx", "tma", NULL};
static const char *const patterns[] = {"seq", "rand", NULL};
static const char *const levels[] = {"l1", "shared", "l2", "global", NULL};
static const char *const loads[] = {"idle",          "memory",        "tensor",
                                    "tensor_mma",    "fma",           "tensor_d25",
                                    "tensor_d50",    "tensor_d75",    "tensor_mma_d25",
                                    "tensor_mma_d50", "tensor_mma_d75", "l2", "tensor_vary", "tensor_tma", NULL};
static const char *const clock_parts[] = {"settled", "unsettled", "sample", NULL};
static const char *const metrics[] = {"latency", "throughput", NULL};
static const char *const tma_metrics[] = {"latency", "throughput", "link", NULL};
static const char *const launch_kernels[] = {"empty", "empty_stream", "empty_graph", NULL};
static const char *const cold_kinds[] = {"const_line", "code_cold", "code_warm", NULL};

/* clang-format off */
/* TXT: a name from ch (NULL: any); NUM: a number >= lo; POS: a number > 0;
 * WHOLE: a whole number >= lo; UN*: written, not read by calib; OPT*: read
 * when present; LATE*: appended after the committed traces were taken */
#define TXT(n, ch, w) {n, GC_BCOL_TEXT, "-", w, 0, 0, ch, GC_BCOL_REQUIRED, 0}
#define NUM(n, lo, u, w) {n, GC_BCOL_NUM, u, w, lo, 0, NULL, GC_BCOL_REQUIRED, 0}
#define POS(n, u, w) {n, GC_BCOL_NUM, u, w, 0, 1, NULL, GC_BCOL_REQUIRED, 0}
#define WHOLE(n, lo, u, w) {n, GC_BCOL_WHOLE, u, w, lo, 0, NULL, GC_BCOL_REQUIRED, 0}
#define UNTXT(n, w) {n, GC_BCOL_TEXT, "-", w, 0, 0, NULL, GC_BCOL_UNREAD, 0}
#define LATETXT(n, w) {n, GC_BCOL_TEXT, "-", w, 0, 0, NULL, GC_BCOL_UNREAD, 1}
#define UNNUM(n, u, w) {n, GC_BCOL_NUM, u, w, 0, 0, NULL, GC_BCOL_UNREAD, 0}
#define UNWHOLE(n, u, w) {n, GC_BCOL_WHOLE, u, w, 0, 0, NULL, GC_BCOL_UNREAD, 0}
#define OPTTXT(n, w) {n, GC_BCOL_TEXT, "-", w, 0, 0, NULL, GC_BCOL_OPTIONAL, 0}
#define OPTNUM(n, lo, u, w) {n, GC_BCOL_NUM, u, w, lo, 0, NULL, GC_BCOL_OPTIONAL, 0}
#define LATEOPTTXT(n, ch, w) {n, GC_BCOL_TEXT, "-", w, 0, 0, ch, GC_BCOL_OPTIONAL, 1}
#define LATEOPTNUM(n, lo, u, w) {n, GC_BCOL_NUM, u, w, lo, 0, NULL, GC_BCOL_OPTIONAL, 1}

/* the common columns of the warps x ILP sweeps */
#define SWEEP_POINT \
    WHOLE("warps", 1, "warps/SM", "warps of the one block on each SM"), \
    WHOLE("ilp", 1, "instructions", "independent dependency chains per warp"), \
    UNWHOLE("iters", "iterations", "loop iterations per timed launch"), \
    UNWHOLE("reps", "launches", "repeats the median is taken over"), \
    POS("cyc_per_iter", "cycles", "median over repeats of the block's cycles / iters"), \
    NUM("cyc_lo", 0, "cycles", "95 % interval of cyc_per_iter, low end"), \
    NUM("cyc_hi", 0, "cycles", "95 % interval of cyc_per_iter, high end")
#define SWEEP_CLOCK \
    POS("clock_mhz", "MHz", "SM clock during the timed launches"), \
    UNWHOLE("clock_moved", "0/1", "1: clock_mhz differs from the header's sm_clock_mhz by > 2 %")

static const gc_bench_col_t tensor_cols[] = {
    TXT("inst", insts, "the PTX instruction"),
    TXT("shape", NULL, "the PTX shape mMnNkK (sparse forms: the uncompressed k)"),
    TXT("a_type", atypes, "A/B type"),
    TXT("c_type", ctypes, "C/D type"),
    TXT("operands", operands, "wgmma operands from shared memory (ss) or A from registers (rs); - for mma"),
    TXT("data", datas, "data pattern of the operands"),
    TXT("scope", scopes, "sm: one block on one SM; gpu: one block on every SM"),
    WHOLE("blocks", 1, "blocks", "blocks launched"),
    SWEEP_POINT,
    NUM("fma_clk_sm", 0, "FMA/clk/SM", "instructions in flight x m*n*k / cyc_per_iter"),
    NUM("fma_lo", 0, "FMA/clk/SM", "95 % interval of fma_clk_sm, low end"),
    NUM("fma_hi", 0, "FMA/clk/SM", "95 % interval of fma_clk_sm, high end"),
    SWEEP_CLOCK,
};
static const gc_bench_col_t alu_cols[] = {
    TXT("op", NULL, "the SASS-level operation (ffma, imad, mufu.ex2, ...)"),
    SWEEP_POINT,
    NUM("ops_clk_sm", 0, "ops/clk/SM", "warps x 32 x ilp / cyc_per_iter"),
    NUM("ops_lo", 0, "ops/clk/SM", "95 % interval of ops_clk_sm, low end"),
    NUM("ops_hi", 0, "ops/clk/SM", "95 % interval of ops_clk_sm, high end"),
    SWEEP_CLOCK,
};
static const gc_bench_col_t ldm_cols[] = {
    WHOLE("num", 1, "matrices", "1, 2 or 4 matrices per ldmatrix"),
    WHOLE("trans", 0, "0/1", "1: .trans"),
    SWEEP_POINT,
    NUM("bytes_clk_sm", 0, "bytes/clk/SM", "warps x ilp x num x 128 / cyc_per_iter"),
    NUM("bytes_lo", 0, "bytes/clk/SM", "95 % interval of bytes_clk_sm, low end"),
    NUM("bytes_hi", 0, "bytes/clk/SM", "95 % interval of bytes_clk_sm, high end"),
    SWEEP_CLOCK,
};
static const gc_bench_col_t smem_cols[] = {
    WHOLE("width_bytes", 1, "bytes", "bytes per thread per load: 4, 8 or 16"),
    WHOLE("ways", 1, "ways", "bank-conflict degree"),
    SWEEP_POINT,
    NUM("bytes_clk_sm", 0, "bytes/clk/SM", "warps x ilp x 32 x width / cyc_per_iter"),
    NUM("bytes_lo", 0, "bytes/clk/SM", "95 % interval of bytes_clk_sm, low end"),
    NUM("bytes_hi", 0, "bytes/clk/SM", "95 % interval of bytes_clk_sm, high end"),
    SWEEP_CLOCK,
};
static const gc_bench_col_t pchase_cols[] = {
    TXT("path", paths, "the load: l1 (ld.ca), l2 (ld.cg), global, shared, shared_idx, tma"),
    TXT("pattern", patterns, "seq: uniform stride; rand: one random cycle"),
    POS("array_bytes", "bytes", "size of the ring"),
    POS("stride_bytes", "bytes", "distance between two slots (seq)"),
    UNWHOLE("steps", "loads", "dependent loads timed"),
    POS("latency_cyc", "cycles", "cycles per load, the clock-read overhead subtracted"),
    NUM("lat_lo", 0, "cycles", "95 % interval of latency_cyc, low end"),
    NUM("lat_hi", 0, "cycles", "95 % interval of latency_cyc, high end"),
    UNNUM("clock_mhz", "MHz", "SM clock during the chase"),
};
static const gc_bench_col_t fine_cols[] = {
    WHOLE("sm", 0, "SM id", "the SM that ran the chase"),
    POS("array_bytes", "bytes", "size of the array"),
    POS("stride_bytes", "bytes", "stride of the chase"),
    UNWHOLE("step", "loads", "index of the access in the chase"),
    WHOLE("offset_bytes", 0, "bytes", "byte offset of the address loaded"),
    POS("latency_cyc", "cycles", "that one load's cycles"),
};
static const gc_bench_col_t bw_cols[] = {
    TXT("level", levels, "l1, shared, l2 or global"),
    WHOLE("width_bytes", 0, "bytes", "bytes per thread per access (0: the driver's copy, variant cudaMemcpyAsync, whose kernel is not gpucal's)"),
    WHOLE("blocks", 0, "blocks", "blocks launched (0: the driver's copy)"),
    WHOLE("threads", 0, "threads", "threads per block (0: the driver's copy)"),
    UNNUM("bytes", "bytes", "bytes moved in the timed region"),
    UNNUM("cycles", "cycles", "SM cycles of the timed region"),
    NUM("bytes_clk_sm", 0, "bytes/clk/SM", "bytes / cycles / SMs used"),
    NUM("bytes_clk", 0, "bytes/clk", "bytes / cycles"),
    NUM("gbs", 0, "GB/s", "bytes / seconds / 1e9"),
    OPTNUM("clock_mhz", 0, "MHz", "SM clock during the timed region (calib: memory.l2.bw_clock_mhz from the L2 row it keeps)"),
    OPTTXT("op", "read, write, copy, read_l2pf, copy_cs, copy_blk, read_blk, r5w1, read_lines"),
    OPTNUM("gbs_lo", 0, "GB/s", "95 % interval of gbs, low end"),
    OPTNUM("gbs_hi", 0, "GB/s", "95 % interval of gbs, high end"),
    UNTXT("variant", "fixed: one kernel shape; else the winning variant of the access sweep "
                     "(width, unroll, threads x blocks, cache hints; header method), or "
                     "cudaMemcpyAsync: the driver's device-to-device copy, timed with events"),
};
static const gc_bench_col_t tma_cols[] = {
    TXT("metric", tma_metrics, "latency (value in cyc), throughput (value in gbs) or link (value in bytes_clk_sm: bytes one SM takes in per SM clock, one block a SM on `blocks` SMs, from an array inside the L2)"),
    TXT("kind", NULL, "bulk, 1d, 2d or 3d"),
    UNTXT("box", "the box in elements, x separated, innermost first (- for bulk)"),
    UNWHOLE("load_bytes", "bytes", "bytes per TMA instruction"),
    UNWHOLE("blocks", "blocks", "CTAs launched"),
    NUM("array_bytes", 0, "bytes", "bytes of the array the loads cover"),
    NUM("value", -1e30, "unit", "the figure, in `unit`"),
    NUM("lo", -1e30, "unit", "95 % interval of value, low end"),
    NUM("hi", -1e30, "unit", "95 % interval of value, high end"),
    TXT("unit", NULL, "cyc, gbs or bytes_clk_sm"),
    UNNUM("clock_mhz", "MHz", "SM clock during the timed region"),
    LATEOPTNUM("in_flight", 1, "loads", "TMA loads in flight per block (latency: 1)"),
    LATEOPTNUM("issuers", 1, "threads", "threads issuing the block's loads, each with in_flight / issuers of them"),
};
static const gc_bench_col_t dsm_cols[] = {
    TXT("metric", metrics, "latency (value in cyc) or throughput (value in gbs)"),
    WHOLE("cluster", 1, "blocks", "cluster size"),
    TXT("pattern", NULL, "throughput: self, ring, pair, broadcast; latency: -"),
    WHOLE("dst_rank", -1, "rank", "latency: the rank whose memory is read (-1: n/a)"),
    UNWHOLE("src_sm", "SM id", "latency: %smid of the reading block (-1: n/a)"),
    UNWHOLE("dst_sm", "SM id", "latency: %smid of the block read (-1: n/a)"),
    UNWHOLE("blocks", "blocks", "throughput: blocks launched (-1: n/a)"),
    UNWHOLE("threads", "threads", "throughput: threads per block (-1: n/a)"),
    NUM("value", -1e30, "unit", "the figure, in `unit`"),
    NUM("lo", -1e30, "unit", "95 % interval of value, low end"),
    NUM("hi", -1e30, "unit", "95 % interval of value, high end"),
    TXT("unit", NULL, "cyc or gbs"),
    UNNUM("bytes_clk_sm", "bytes/clk/SM", "throughput: bytes / cycles / SMs (-1: n/a)"),
    UNNUM("clock_mhz", "MHz", "SM clock during the timed region"),
};
static const gc_bench_col_t dpx_cols[] = {
    TXT("func", NULL, "the CUDA function without its leading __"),
    TXT("metric", metrics, "latency (value in cyc) or throughput (value in ops_clk_sm)"),
    UNWHOLE("blocks", "blocks", "blocks launched"),
    UNWHOLE("threads", "threads", "threads per block"),
    UNWHOLE("ilp", "chains", "independent chains per thread"),
    UNWHOLE("iters", "calls", "calls per chain"),
    NUM("value", -1e30, "unit", "the figure, in `unit`"),
    NUM("lo", -1e30, "unit", "95 % interval of value, low end"),
    NUM("hi", -1e30, "unit", "95 % interval of value, high end"),
    TXT("unit", NULL, "cyc or ops_clk_sm"),
    UNWHOLE("hw", "-1/0/1", "1: DPX-class opcodes in the SASS; 0: emulated; -1: no SASS"),
    UNTXT("sass_ops", "opcode counts of the throughput kernel, OP*count joined by +"),
    UNNUM("clock_mhz", "MHz", "SM clock during the timed region"),
};
static const gc_bench_col_t clock_cols[] = {
    TXT("load", loads, "idle, memory (DRAM-bound), l2 (reads the L2 holds), tensor_vary (the wgmma load with operands changing every instruction), tensor_tma (tensor_vary fed by bulk copies from the L2 into shared memory as a matrix product's producer feeds it; gbs: the bytes copied), tensor (tensor-bound: wgmma where the GPU has it), tensor_mma (mma.sync-bound), fma (CUDA-core FP32: FFMA-bound), or a partial tensor load: tensor_dNN / tensor_mma_dNN, the same instructions on NN % of every 16 us on each SM (SMs staggered over the period), __nanosleep the rest"),
    POS("clock_mhz", "MHz", "the load's row: SM clock sustained under that load (median over its last second); sample: the mean clock over the interval"),
    NUM("clock_lo", 0, "MHz", "95 % interval of clock_mhz, low end (sample: clock_mhz)"),
    NUM("clock_hi", 0, "MHz", "95 % interval of clock_mhz, high end (sample: clock_mhz)"),
    UNNUM("seconds", "s", "the load's row: the seconds its median covers; sample: the interval's length"),
    LATEOPTTXT("part", clock_parts, "settled or unsettled: the load's row (settled: the median of its last second moved < 0.5 % from the second before; unsettled: the run reached its cap first); sample: one interval of the clock against time"),
    LATEOPTNUM("t_s", 0, "s", "seconds from the load's start to the end of the interval (sample) or of the run (the load's row: how long it took to settle)"),
    LATEOPTNUM("power_w", 0, "W", "board power (NVML, median of the readings in the interval; the load's row: its last second); 0: not read"),
    LATEOPTNUM("tensor_fma_clk_sm", 0, "FMA/clk/SM", "the load's row: tensor multiply-adds per SM clock per SM over the whole run (its activity: a partial load's rate over the full load's); 0: no tensor work, or a sample"),
    LATEOPTNUM("gbs", 0, "GB/s", "the memory and l2 loads' rows: bytes moved per second over the whole run (read + write); the tensor_tma load's: bytes its bulk copies brought per second; 0: another load, or a sample"),
    LATEOPTNUM("nvml_mhz", 0, "MHz", "the load's row: the SM clock NVML reports (the clock the driver sets), median over the load's last second; clock_mhz is the SMs' own cycle rate, which can run below it; 0: not read, or a sample"),
    LATEOPTNUM("temp_c", 0, "C", "the load's row: the GPU's temperature (NVML), median over the load's last second; 0: not read, or a sample"),
};
static const gc_bench_col_t launch_cols[] = {
    TXT("kernel", launch_kernels, "empty, empty_stream (back to back), or empty_graph (a CUDA graph of `batch` kernels)"),
    WHOLE("blocks", 1, "blocks", "blocks launched"),
    WHOLE("threads", 1, "threads", "threads per block"),
    UNWHOLE("batch", "launches", "launches between one event pair"),
    UNWHOLE("launches", "launches", "timings (event pairs) the median is taken over"),
    POS("us", "us", "median time per launch (per kernel for a batch or graph)"),
    NUM("us_lo", 0, "us", "95 % interval of us, low end"),
    NUM("us_hi", 0, "us", "95 % interval of us, high end"),
};
static const gc_bench_col_t cold_cols[] = {
    TXT("kind", cold_kinds, "const_line (K parameter words 64 bytes apart, each an instruction's constant operand), code_cold (K far-apart 2 KiB blocks of code called once each) or code_warm (one such block called K times)"),
    WHOLE("k", 0, "count", "K: parameter lines, or code blocks run"),
    WHOLE("blocks", 1, "blocks", "blocks of one warp launched (one per SM)"),
    UNWHOLE("batch", "launches", "launches in the timed CUDA graph"),
    UNWHOLE("reps", "timings", "timings (event pairs) the median is taken over"),
    POS("us", "us", "median time per kernel"),
    NUM("us_lo", 0, "us", "95 % interval of us, low end"),
    NUM("us_hi", 0, "us", "95 % interval of us, high end"),
    POS("clock_mhz", "MHz", "SM clock measured before the rows"),
};
static const char *const coissue_partners[] = {"ffma", "iadd3", "ex2", "ldsm_ind", "ldsm", "shfl", NULL};
static const char *const coissue_parts[] = {"tensor", "partner", "both", NULL};
static const gc_bench_col_t coissue_cols[] = {
    TXT("partner", coissue_partners, "the op beside the tensor: ffma (FMA pipe), iadd3 (ALU), ex2 (MUFU), ldsm_ind (ldmatrix.x4 at addresses independent of earlier loads; ldsm: the first version's chain of dependent loads, which calib leaves out), shfl (shfl.sync.bfly)"),
    TXT("part", coissue_parts, "tensor alone, partner alone, or both in the same warps"),
    WHOLE("warps", 1, "warps/SM", "warps of the one block (4 per sub-core)"),
    WHOLE("tensor_chains", 0, "instructions", "independent mma.sync chains per warp and iteration"),
    WHOLE("partner_chains", 0, "instructions", "independent partner chains per warp and iteration"),
    UNWHOLE("iters", "iterations", "loop iterations per timed launch"),
    UNWHOLE("reps", "launches", "repeats the median is taken over"),
    POS("cyc_per_iter", "cycles", "median over repeats of the block's cycles / iters"),
    NUM("cyc_lo", 0, "cycles", "95 % interval of cyc_per_iter, low end"),
    NUM("cyc_hi", 0, "cycles", "95 % interval of cyc_per_iter, high end"),
    SWEEP_CLOCK,
};
/* numeric: calib/numerics.c reads the probe rows by name (cells of mixed kind) */
static const gc_bench_col_t numeric_cols[] = {
    TXT("experiment", NULL, "layout, fixture, probe, mul, add, dot, acc, chain"),
    TXT("inst", NULL, "mma or wgmma"),
    TXT("shape", NULL, "the PTX shape"),
    TXT("a_type", NULL, "A/B type"),
    TXT("c_type", NULL, "C/D type"),
    UNTXT("init", "profiles and chains: lp or f32; - otherwise"),
    UNTXT("ref", "profiles and chains: f32 or f32cvt16; - otherwise"),
    TXT("key", NULL, "probe: the finding's name; fixture: the generator; - otherwise"),
    UNTXT("x", "fixture: mmas in the set; chain: chain length; - otherwise"),
    UNTXT("n", "cases, measurements or chains (see traces/README.md, numeric)"),
    TXT("value", NULL, "the finding, hash or error (see traces/README.md, numeric)"),
    UNTXT("value2", "fixture: NaN outputs; profiles: mean relative error; - otherwise"),
    TXT("detail", NULL, "the evidence, or - (see traces/README.md, numeric)"),
};
/* clang-format on */

#define NC(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* the order calib runs the handlers (smem before pchase: the shared latency) */
static const gc_bench_spec_t specs[] = {
    {"mma", "mma.sync and wmma latency and throughput over warps x ILP", tensor_cols,
     NC(tensor_cols)},
    {"mma_sp", "sparse mma.sp latency and throughput over warps x ILP", tensor_cols,
     NC(tensor_cols)},
    {"wgmma", "wgmma (dense and sparse) latency and throughput over warpgroups x ILP",
     tensor_cols, NC(tensor_cols)},
    {"alu", "CUDA-core instruction latency and throughput over warps x ILP", alu_cols,
     NC(alu_cols)},
    {"ldmatrix", "ldmatrix latency and throughput over warps x ILP", ldm_cols, NC(ldm_cols)},
    {"smem", "ld.shared latency and throughput by width and bank conflict over warps x ILP",
     smem_cols, NC(smem_cols)},
    {"tma", "TMA load latency and throughput (sm_90)", tma_cols, NC(tma_cols)},
    {"dsm", "distributed shared memory latency and throughput by cluster (sm_90)", dsm_cols,
     NC(dsm_cols)},
    {"dpx", "DPX function latency and throughput", dpx_cols, NC(dpx_cols)},
    {"coissue", "tensor (mma.sync) beside the FMA, ALU, MUFU pipes, ldmatrix and shuffles: overlap on a sub-core", coissue_cols,
     NC(coissue_cols)},
    {"pchase", "classic pointer chase: load latency by path, size and stride", pchase_cols,
     NC(pchase_cols)},
    {"pchase_fine", "fine-grained pointer chase: every access's latency", fine_cols,
     NC(fine_cols)},
    {"bw", "bandwidth of L1, shared memory, L2 and DRAM", bw_cols, NC(bw_cols)},
    {"clock",
     "the SM clock against time, idle and under DRAM, tensor (wgmma, mma.sync; full and "
     "partial) and CUDA-core FP32 load, until it settles",
     clock_cols, NC(clock_cols)},
    {"launch", "what an empty kernel launch costs, timed as a user times it", launch_cols,
     NC(launch_cols)},
    {"numeric", "what single mma/wgmma instructions return on deterministic inputs",
     numeric_cols, NC(numeric_cols)},
    {"cold", "a kernel's first pass through its parameters and its code, once per launch",
     cold_cols, NC(cold_cols)},
};

size_t gc_bench_specs(const gc_bench_spec_t **list)
{
    *list = specs;
    return sizeof(specs) / sizeof(specs[0]);
}

const gc_bench_spec_t *gc_bench_spec(const char *name)
{
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
        if (!strcmp(specs[i].name, name))
            return &specs[i];
    return NULL;
}

int gc_bench_columns(const gc_bench_spec_t *b, const char **names, int max)
{
    if (b->ncols > max)
        return -1;
    for (int i = 0; i < b->ncols; i++)
        names[i] = b->cols[i].name;
    return b->ncols;
}

/* one row of a bench's table: column, type, unit, calib, meaning */
static void doc_col(FILE *fp, const gc_bench_col_t *c)
{
    static const char *const types[] = {"text", "number", "whole"};
    static const char *const uses[] = {"-", "read", "read if present"};
    fprintf(fp, "| `%s` | %s | %s | %s | ", c->name, types[c->type], c->unit, uses[c->use]);
    if (c->late)
        fputs("(newer traces) ", fp);
    if (c->choices) {
        fputs("one of ", fp);
        for (int i = 0; c->choices[i]; i++)
            fprintf(fp, "%s`%s`", i ? ", " : "", c->choices[i]);
        fputs(": ", fp);
    }
    fprintf(fp, "%s |\n", c->what);
}

void gc_bench_doc(FILE *fp)
{
    fprintf(fp, "<!-- generated by `gpucal trace columns` from traces/benches.c: do not edit "
                "by hand -->\n");
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
        const gc_bench_spec_t *b = &specs[i];
        fprintf(fp, "\n### `%s`\n\n%s.\n\n| column | type | unit | calib | meaning |\n"
                    "| --- | --- | --- | --- | --- |\n",
                b->name, b->what);
        for (int c = 0; c < b->ncols; c++)
            doc_col(fp, &b->cols[c]);
    }
}
