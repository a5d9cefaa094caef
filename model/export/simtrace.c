/* simtrace.c - gpucal's microbenchmarks as Accel-Sim traces (see simtrace.h).
 *
 * The line formats follow the simulator's reader, accel-sim-framework
 * gpu-simulator/trace-parser/trace_parser.cc: trace_parser::parse_kernel_info
 * (the "-key = value" header, ended by the first line starting with '#'),
 * trace_parser::get_next_threadblock_traces (#BEGIN_TB, "thread block =",
 * "warp =", "insts =", #END_TB) and inst_trace_t::parse_from_string (for
 * tracer version >= 3: PC, mask, destinations, opcode, sources, memory width,
 * then address mode 0 = one address per active thread, 1 = base and stride).
 */
#define _POSIX_C_SOURCE 200809L
#include "simtrace.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/fsio.h"

/* Global addresses below 4 GiB: the simulator's host-copy model keeps the
 * address in 32 bits (gpgpu-sim gpu-sim.cc, gpgpu_sim::perf_memcpy_to_gpu:
 * `const unsigned wr_addr`), so the lines a MemcpyHtoD puts in the L2 are
 * the ones a load finds only there. Each kernel of a pair gets its own GiB
 * so that the long kernel never finds the short one's lines in the L2. */
#define GLOBAL_BASE 0x40000000ull
#define KERNEL_SPAN (1ull << 30)

/* Steps per warp of the short and the long kernel of a pipe chain. */
#define CHAIN_STEPS_A 16
#define CHAIN_STEPS_B 80

static void bench_init(gc_simbench_t *b, const char *name, int kind, const char *opcode,
                       double figure, const char *unit, int s0, int s1)
{
    memset(b, 0, sizeof(*b));
    snprintf(b->name, sizeof(b->name), "%s", name);
    b->kind = kind;
    b->opcode = opcode;
    b->figure = figure;
    b->unit = unit;
    b->steps[0] = s0;
    b->steps[1] = s1;
    b->blocks = b->warps = b->ilp = 1;
    b->work_step = 1;
}

/* The floor of a pipe chain: what the simulator runs (sim) where that is
 * more than rounding above the figure, else 0. */
static double pipe_floor(double figure, double sim)
{
    return sim - figure > 0.5 ? sim : 0;
}

/* Dependent chains of one warp: ALU, tensor, and the four memory levels. */
static int plan_latency(const gc_arch_t *a, const gc_accelsim_info_t *in, gc_simbench_t *b)
{
    int n = 0;
    const struct {
        const char *op, *name, *sass;
        double sim;
    } alus[] = {{"ffma", "ffma_chain", "FFMA", in->sim_sp_cyc},
                {"imad", "imad_chain", "IMAD", in->sim_int_cyc}};
    for (size_t i = 0; i < sizeof(alus) / sizeof(alus[0]); i++) {
        const gc_alu_t *e = gc_arch_alu(a, alus[i].op);
        if (!e || !e->latency_cyc.set)
            continue;
        bench_init(&b[n], alus[i].name, GC_SB_ALU, alus[i].sass, e->latency_cyc.v, "cyc",
                   CHAIN_STEPS_A, CHAIN_STEPS_B);
        b[n].floor = pipe_floor(e->latency_cyc.v, alus[i].sim);
        snprintf(b[n++].source, sizeof(b->source), "alu[%s].latency_cyc", alus[i].op);
    }
    if (in->tc_lat_cyc > 0) {
        bench_init(&b[n], "hmma_chain", GC_SB_HMMA, "HMMA.16816.F32", in->tc_lat_cyc, "cyc",
                   CHAIN_STEPS_A, CHAIN_STEPS_B);
        if (in->tc_k == 8)
            b[n].opcode = "HMMA.1688.F32";
        b[n].floor = pipe_floor(in->tc_lat_cyc, in->sim_tc_cyc);
        snprintf(b[n++].source, sizeof(b->source), "tensor[%s].latency_cyc", in->form);
    }
    const gc_shared_t *sh = &a->memory.shared;
    double smem = sh->latency_cyc.set ? sh->latency_cyc.v : 0;
    for (size_t i = 0; !smem && i < sh->n_conflicts; i++)
        if (sh->conflicts[i].width_bytes.v == 4 && sh->conflicts[i].ways.v == 1 &&
            sh->conflicts[i].latency_cyc.set)
            smem = sh->conflicts[i].latency_cyc.v;
    static const struct {
        const char *name, *op, *src;
        int where, s0, s1;
        long stride;
    } chases[] = {
        {"smem_chase", "LDS", "memory.shared.latency_cyc", GC_SB_SHARED, 16, 80, 0},
        {"l1_chase", "LDG.E", "memory.l1.latency_cyc", GC_SB_L1, 16, 80, 0},
        {"l2_chase", "LDG.E", "L2 hit (export: -gpgpu_l2_rop_latency)", GC_SB_L2, 8, 40, 128},
        {"dram_chase", "LDG.E", "DRAM miss (export: -dram_latency)", GC_SB_DRAM, 16, 80, 1 << 20},
    };
    double fig[] = {smem, a->memory.l1.latency_cyc.set ? a->memory.l1.latency_cyc.v : 0,
                    in->l2_hit_cyc, in->l2_miss_cyc};
    for (size_t i = 0; i < sizeof(chases) / sizeof(chases[0]); i++) {
        if (!(fig[i] > 0))
            continue;
        bench_init(&b[n], chases[i].name, GC_SB_CHASE, chases[i].op, fig[i], "cyc", chases[i].s0,
                   chases[i].s1);
        b[n].where = chases[i].where;
        b[n].stride_b = chases[i].stride;
        snprintf(b[n++].source, sizeof(b->source), "%s", chases[i].src);
    }
    return n;
}

/* Throughput kernels: tensor and FP32 issue over warps x ILP on one SM, and
 * a read stream over every SM. */
static int plan_throughput(const gc_arch_t *a, const gc_accelsim_info_t *in, gc_simbench_t *b)
{
    int n = 0, sub = a->sm.sub_cores.set ? (int)a->sm.sub_cores.v : 4;
    if (in->tc_issue_cyc > 0) {
        double fma = (double)in->tc_m * in->tc_n * in->tc_k;
        bench_init(&b[n], "mma_tput", GC_SB_MMA_TPUT, in->tc_k == 8 ? "HMMA.1688.F32"
                                                                  : "HMMA.16816.F32",
                   fma * sub / in->tc_issue_cyc, "per_clk", 16, 80);
        b[n].warps = 2 * sub;
        b[n].ilp = 4;
        b[n].work_step = fma * b[n].warps;
        snprintf(b[n++].source, sizeof(b->source), "tensor[%s]: m x n x k x %d / issue_cyc", in->form,
                 sub);
    }
    const gc_alu_t *f = gc_arch_alu(a, "ffma");
    if (f && f->ops_clk_sm.set) {
        bench_init(&b[n], "ffma_tput", GC_SB_ALU_TPUT, "FFMA", f->ops_clk_sm.v, "per_clk", 16, 80);
        b[n].warps = 2 * sub;
        b[n].ilp = 8;
        b[n].work_step = 32.0 * b[n].warps;
        snprintf(b[n++].source, sizeof(b->source), "alu[ffma].ops_clk_sm");
    }
    const gc_dram_t *d = &a->memory.dram;
    const gc_qty_t *bw = d->bw_read_gbs.set ? &d->bw_read_gbs : &d->bw_gbs;
    if (bw->set && a->sm.count.set && in->core_mhz > 0) {
        bench_init(&b[n], "dram_read", GC_SB_STREAM, "LDG.E", bw->v, "gbs", 32, 96);
        b[n].blocks = 2 * (int)a->sm.count.v;
        b[n].warps = 8;
        b[n].ilp = 8;
        b[n].stride_b = 128;
        b[n].work_step = 128.0 * b[n].blocks * b[n].warps;
        b[n].clock_mhz = in->core_mhz;
        snprintf(b[n++].source, sizeof(b->source), "memory.dram.%s",
                 bw == &d->bw_read_gbs ? "bw_read_gbs" : "bw_gbs");
    }
    return n;
}

int gc_simtrace_plan(const gc_arch_t *a, const gc_accelsim_info_t *info, gc_simbench_t *b)
{
    int n = plan_latency(a, info, b);
    return n + plan_throughput(a, info, b + n);
}

/* The address of step i of warp w (of nw in the grid) in kernel id. */
static unsigned long long addr_of(const gc_simbench_t *b, int id, int i, int w, int nw)
{
    unsigned long long base = GLOBAL_BASE + (unsigned long long)(id - 1) * KERNEL_SPAN;
    switch (b->kind == GC_SB_STREAM ? -1 : b->where) {
    case GC_SB_SHARED:
        return 0x100;
    case GC_SB_L1:
        return base;
    case GC_SB_L2:
        return GLOBAL_BASE + (unsigned long long)i * (unsigned long long)b->stride_b;
    case GC_SB_DRAM:
        return base + (unsigned long long)i * (unsigned long long)b->stride_b;
    default: /* a stream: consecutive lines across the grid, step by step */
        return base + ((unsigned long long)i * (unsigned long long)nw + (unsigned long long)w) *
                          (unsigned long long)b->stride_b;
    }
}

/* Instruction i of warp w (global index gw of nw) as one trace line. */
static int inst_line(FILE *fp, const gc_simbench_t *b, int id, int i, int gw, int nw)
{
    unsigned pc = (unsigned)i * 16u;
    int j = b->ilp > 1 ? i % b->ilp : 0;
    switch (b->kind) {
    case GC_SB_ALU:
        return fprintf(fp, "%04x ffffffff 1 R2 %s 3 R2 R3 R4 0\n", pc, b->opcode);
    case GC_SB_HMMA:
        return fprintf(fp, "%04x ffffffff 1 R4 %s 3 R8 R12 R4 0\n", pc, b->opcode);
    case GC_SB_CHASE:
        return fprintf(fp, "%04x 00000001 1 R2 %s 1 R2 4 0 0x%016llx\n", pc, b->opcode,
                       addr_of(b, id, i, gw, nw));
    case GC_SB_MMA_TPUT:
        return fprintf(fp, "%04x ffffffff 1 R%d %s 3 R64 R68 R%d 0\n", pc, 4 + 4 * j, b->opcode,
                       4 + 4 * j);
    case GC_SB_ALU_TPUT:
        return fprintf(fp, "%04x ffffffff 1 R%d %s 3 R%d R40 R41 0\n", pc, 4 + j, b->opcode, 4 + j);
    default: /* GC_SB_STREAM: 32 threads x 4 bytes, one line per warp and step */
        return fprintf(fp, "%04x ffffffff 1 R%d %s 1 R2 4 1 0x%016llx 4\n", pc, 10 + j, b->opcode,
                       addr_of(b, id, i, gw, nw));
    }
}

static void kernel_header(FILE *fp, const gc_simbench_t *b, int id)
{
    fprintf(fp,
            "-kernel name = gpucal_%s\n-kernel id = %d\n-grid dim = (%d,1,1)\n"
            "-block dim = (%d,1,1)\n-shmem = %d\n-nregs = 80\n-binary version = 80\n"
            "-cuda stream id = 0\n-accelsim tracer version = 5\n-enable lineinfo = 0\n\n"
            "#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
            "[adrrescompress?] [mem_addresses]\n\n",
            b->name, id, b->blocks, 32 * b->warps,
            b->kind == GC_SB_CHASE && b->where == GC_SB_SHARED ? 4096 : 0);
}

int gc_simtrace_kernel(FILE *fp, const gc_simbench_t *b, int steps, int id, gc_err_t *err)
{
    kernel_header(fp, b, id);
    int nw = b->blocks * b->warps;
    for (int tb = 0; tb < b->blocks; tb++) {
        fprintf(fp, "#BEGIN_TB\n\nthread block = %d,0,0\n", tb);
        for (int w = 0; w < b->warps; w++) {
            fprintf(fp, "\nwarp = %d\ninsts = %d\n", w, steps + 1);
            for (int i = 0; i < steps; i++)
                inst_line(fp, b, id, i, tb * b->warps + w, nw);
            fprintf(fp, "%04x ffffffff 0 EXIT 0 0\n", (unsigned)steps * 16u);
        }
        fprintf(fp, "\n#END_TB\n\n");
    }
    if (ferror(fp))
        return gc_err_set(err, GC_EIO, "kernel-%d.traceg of %s: write failed: %s", id, b->name,
                          strerror(errno));
    return 0;
}

/* Write one file of a benchmark atomically: the kernel of steps (id >= 1)
 * or, for id 0, the kernel list. */
static int write_one(const gc_simbench_t *b, const char *bdir, int id, int flags, gc_err_t *err)
{
    char path[4200];
    if (id)
        snprintf(path, sizeof(path), "%s/kernel-%d.traceg", bdir, id);
    else
        snprintf(path, sizeof(path), "%s/kernelslist.g", bdir);
    gc_afile_t af = {0};
    int rc = gc_afile_open(&af, path, flags, err);
    if (rc)
        return rc;
    if (id) {
        rc = gc_simtrace_kernel(af.fp, b, b->steps[id - 1], id, err);
    } else {
        /* the L2 chase reads lines a host copy left in the L2
         * (-gpgpu_perf_sim_memcpy 1: gpgpu_sim::perf_memcpy_to_gpu fills the L2) */
        if (b->kind == GC_SB_CHASE && b->where == GC_SB_L2)
            fprintf(af.fp, "MemcpyHtoD,0x%016llx,%ld\n", GLOBAL_BASE,
                    (long)b->steps[1] * b->stride_b);
        fprintf(af.fp, "kernel-1.traceg\nkernel-2.traceg\n");
    }
    if (rc) {
        gc_afile_abort(&af);
        return rc;
    }
    return gc_afile_commit(&af, err);
}

static int write_manifest(const gc_arch_t *a, const gc_simbench_t *b, int n, const char *path,
                          int flags, gc_err_t *err)
{
    gc_afile_t af = {0};
    int rc = gc_afile_open(&af, path, flags, err);
    if (rc)
        return rc;
    fprintf(af.fp,
            "# gpucal microbenchmarks for Accel-Sim, arch %s: each runs as "
            "<bench>/kernelslist.g (two kernels, steps_a and steps_b steps per warp).\n"
            "# simulated = (cycles_b - cycles_a) / (steps_b - steps_a) for unit cyc; "
            "work_step x (steps_b - steps_a) / (cycles_b - cycles_a) for per_clk, and that "
            "x clock_mhz / 1000 for gbs.\n"
            "# floor: for a latency chain, the shortest the simulator runs it with the exported "
            "initiation interval where that is above the figure (model/export/export.md), else "
            "0.\n"
            "bench\tunit\tfigure\tsteps_a\tsteps_b\twork_step\tclock_mhz\tfloor\tsource\n",
            a->name ? a->name : "?");
    for (int i = 0; i < n; i++)
        fprintf(af.fp, "%s\t%s\t%.6g\t%d\t%d\t%.9g\t%.6g\t%.6g\t%s\n", b[i].name,
                b[i].unit, b[i].figure, b[i].steps[0], b[i].steps[1], b[i].work_step,
                b[i].clock_mhz, b[i].floor, b[i].source);
    if (ferror(af.fp)) {
        gc_afile_abort(&af);
        return gc_err_set(err, GC_EIO, "%s: write failed", path);
    }
    return gc_afile_commit(&af, err);
}

int gc_simtrace_write(const gc_arch_t *a, const gc_accelsim_info_t *info, const char *dir,
                      int force, int *n_out, gc_err_t *err)
{
    gc_simbench_t b[GC_SIMBENCH_MAX];
    int n = gc_simtrace_plan(a, info, b), flags = force ? GC_AFILE_FORCE : 0;
    char tdir[4096], man[4200], bdir[4200];
    if ((size_t)snprintf(tdir, sizeof(tdir), "%s/traces", dir) >= sizeof(tdir))
        return gc_err_set(err, GC_EUSAGE, "output folder name too long");
    snprintf(man, sizeof(man), "%s/manifest.tsv", tdir);
    if (!force && gc_path_exists(man))
        return gc_err_set(err, GC_EEXIST, "%s already exists; refusing to overwrite (use --force)",
                          man);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        snprintf(bdir, sizeof(bdir), "%s/%s", tdir, b[i].name);
        rc = gc_mkdir_p(bdir, err);
        for (int id = 0; id <= 2 && !rc; id++)
            rc = write_one(&b[i], bdir, id, flags, err);
    }
    if (!rc)
        rc = write_manifest(a, b, n, man, flags, err);
    if (n_out)
        *n_out = rc ? 0 : n;
    return rc;
}
