/* derive.c - model parameters from an arch file, derived where it lacks
 * them (see derive.h; the rules are listed in model/kernels/README.md,
 * "Parameters the model derives"). Runs once per machine (machine.c). */
#include "derive.h"
#include "../../util/sbuf.h"
#include "../../util/suggest.h"

#include <math.h>
#include <string.h>

void gc_derived_add(gc_derived_list_t *dl, const gc_tensor_t *form, const char *alu,
                    const char *field, double value, const char *how)
{
    if (!dl || dl->n >= GC_DERIVED_MAX)
        return;
    for (int i = 0; i < dl->n; i++) {
        const gc_derived_t *d = &dl->d[i];
        if (d->form == form && d->field == field &&
            (d->alu == alu || (d->alu && alu && !strcmp(d->alu, alu))))
            return;
    }
    gc_derived_t *d = &dl->d[dl->n++];
    d->form = form;
    d->alu = alu;
    d->field = field;
    d->value = value;
    d->how = how;
}

const char *gc_derived_key(const gc_derived_t *d, char *buf, size_t n)
{
    char label[96];
    gc_sbuf_t b;
    if (!n)
        return buf;
    gc_sbuf_init(&b, buf, n);
    if (d->form)
        gc_sbuf_str(gc_sbuf_str(gc_sbuf_str(&b, "tensor["),
                                gc_tensor_label(d->form, label, sizeof(label))),
                    d->field[0] ? "]." : "]");
    else if (d->alu)
        gc_sbuf_str(gc_sbuf_str(gc_sbuf_str(&b, "alu["), d->alu), "].");
    gc_sbuf_str(&b, d->field);
    return buf;
}

/* ---- tensor forms ---- */

/* Record derived value `field` of form f (in rule order). */
static void form_derived(gc_mform_t *f, const char *field, double value, const char *how)
{
    if (f->nd < GC_MFORM_DERIVED)
        f->d[f->nd++] = (gc_derived_t){f->t, NULL, field, value, how};
}

/* Peak FMA/clk/SM of a form: the file's figure, or its TFLOP/s converted at
 * its clock. 0 when neither is there. */
static double form_peak(const gc_arch_t *a, gc_mform_t *f)
{
    const gc_tensor_t *t = f->t;
    if (t->peak_fma_clk_sm.set)
        return t->peak_fma_clk_sm.v;
    double clk = t->clock_mhz.set ? t->clock_mhz.v : a->sm.clock_max_mhz.v;
    if (t->peak_tflops.set && a->sm.count.set && clk > 0) {
        double v = t->peak_tflops.v * 1e6 / (2.0 * a->sm.count.v * clk);
        form_derived(f, "peak_fma_clk_sm", v, "peak_tflops * 1e6 / (2 * sm.count * clock_mhz)");
        return v;
    }
    return 0;
}

void gc_derive_form(const gc_arch_t *a, const gc_machine_t *m, const gc_tensor_t *t,
                    gc_mform_t *f)
{
    memset(f, 0, sizeof(*f));
    f->t = t;
    f->next = -1;
    f->warpgroup = !strncmp(t->inst, "wgmma", 5);
    f->is_rand = t->data && !strcmp(t->data, "rand");
    f->clock_mhz = t->clock_mhz.set && t->clock_mhz.v > 0 ? t->clock_mhz.v : 0;
    int tm = 0, tn = 0, tk = 0;
    gc_tensor_shape(t->shape, &tm, &tn, &tk);
    f->fma = (double)tm * tn * tk;
    /* slots: the form's fitted sub-cores; a wgmma occupies the whole SM */
    double slots = t->sub_cores.set ? t->sub_cores.v : f->warpgroup ? 1 : m->sub_cores;
    if (!t->sub_cores.set)
        form_derived(f, "sub_cores", slots,
                     f->warpgroup ? "1: a warpgroup's wgmma uses the tensor cores of all sub-cores"
                                  : "sm.sub_cores: one tensor core per sub-core");
    double issue = t->issue_cyc.v;
    if (!t->issue_cyc.set) {
        double peak = form_peak(a, f);
        if (!(peak > 0))
            return; /* f->ok stays 0: an op using it fails (machine.c) */
        issue = f->fma * slots / peak;
        form_derived(f, "issue_cyc", issue, "m*n*k * sub_cores / peak_fma_clk_sm");
    }
    double lat = t->latency_cyc.set ? t->latency_cyc.v : issue;
    if (!t->latency_cyc.set)
        form_derived(f, "latency_cyc", lat, "no latency in the file: taken equal to issue_cyc");
    if (!t->overhead_cyc.set)
        form_derived(f, "overhead_cyc", 0,
                     "not fitted: 0 (latency does not grow with warps in flight)");
    f->pipe.lat_cyc = lat;
    f->pipe.issue_cyc = issue;
    f->pipe.overhead_cyc = t->overhead_cyc.set ? t->overhead_cyc.v : 0;
    f->pipe.slots = (int)(slots + 0.5) > 0 ? (int)(slots + 0.5) : 1;
    f->ok = 1;
}

/* ---- CUDA-core pipes ---- */

/* Default pipes by SASS name: fraction of sm.fp32_lanes per clock, latency.
 * From the CUDA C++ Programming Guide's arithmetic-instruction throughput
 * table (cc 7.5-9.0): fp32 and half2 at the full FP32 rate, 32-bit integer
 * multiply-add and logic at half of it (64 INT32 lanes per SM), special
 * functions at 16 per SM; latencies 4 (fp32/int) to ~20 cycles (MUFU).
 * The float compare, select and min/max (FSETP, FSEL, FMNMX) and the
 * packing conversion F2FP run on the ALU pipe (16 lanes a sub-core from
 * sm_80 on): ncu's pipe counters on the H200 count them there
 * (model/validation/data/h200/diag_summary.csv rows o041, o087: the alu
 * pipe's share matches those ops at half the FP32 rate); FCHK (the
 * division's range check) on the XU beside MUFU (o041: xu busy 50 % =
 * MUFU + FCHK at 16 a clock). The branch and convergence unit (BRA, BSSY,
 * BSYNC, EXIT, WARPSYNC: `bra`), the uniform datapath (ULDC, UMOV, S2UR,
 * ULEA, ...: `uniform`), constant loads (LDC: `ldc`) and special-register
 * reads (S2R, CS2R: `s2r`) take an issue slot and no CUDA-core pipe: pipe
 * 4, at one a clock per sub-core (never binding before issue). */
static const struct alu_default {
    const char *prefix;
    double lanes_frac; /* of fp32_lanes */
    double fixed;      /* ops/clk/SM when not a fraction (0 = use lanes_frac) */
    double lat;
} alu_defaults[GC_ALU_DEFAULTS] = {
    {"ffma", 1, 0, 4},    {"fadd", 1, 0, 4},      {"fmul", 1, 0, 4},    {"fmnmx", 0.5, 0, 4},
    {"fsetp", 0.5, 0, 4}, {"fsel", 0.5, 0, 4},    {"hfma2", 1, 0, 5},   {"hadd2", 1, 0, 5},
    {"hmul2", 1, 0, 5},   {"imad", 0.5, 0, 4},    {"iadd3", 0.5, 0, 4}, {"lop3", 0.5, 0, 4},
    {"shf", 0.5, 0, 4},   {"lea", 0.5, 0, 4},     {"isetp", 0.5, 0, 4}, {"iabs", 0.5, 0, 4},
    {"prmt", 0.5, 0, 4},  {"sel", 0.5, 0, 4},     {"mov", 0.5, 0, 4},   {"imnmx", 0.5, 0, 4},
    {"f2fp", 0.5, 0, 4},  {"popc", 0, 16, 6},     {"mufu", 0, 16, 20},  {"fchk", 0, 16, 6},
    {"i2f", 0, 16, 6},    {"f2i", 0, 16, 6},      {"f2f", 0, 16, 6},    {"bra", 1, 0, 4},
    {"uniform", 1, 0, 4}, {"ldc", 1, 0, 4},       {"s2r", 1, 0, 4},
};

size_t gc_derive_alu_names(const char **out, size_t max)
{
    static const char *const fp64[] = {"dfma", "dadd", "dmul"};
    size_t n = 0;
    for (size_t i = 0; i < sizeof(alu_defaults) / sizeof(alu_defaults[0]) && n < max; i++)
        out[n++] = alu_defaults[i].prefix;
    for (size_t i = 0; i < 3 && n < max; i++)
        out[n++] = fp64[i];
    return n;
}

/* 1 if name is prefix followed by its end or a '.' */
static int has_prefix(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    return !strncmp(name, prefix, n) && (name[n] == 0 || name[n] == '.');
}

const char *gc_derive_alu_default(int i)
{
    return i >= 0 && i < GC_ALU_DEFAULTS ? alu_defaults[i].prefix : NULL;
}

int gc_derive_alu_default_of(const char *name)
{
    for (int i = 0; i < GC_ALU_DEFAULTS; i++)
        if (has_prefix(name, alu_defaults[i].prefix))
            return i;
    return -1;
}

int gc_derive_alu_fp64(const char *name)
{
    return !strncmp(name, "dfma", 4) || !strncmp(name, "dadd", 4) || !strncmp(name, "dmul", 4);
}

void gc_derive_alu(const gc_arch_t *a, const gc_machine_t *m, const char *name,
                   const gc_alu_t *e, gc_malu_t *out)
{
    memset(out, 0, sizeof(*out));
    out->name = name;
    out->cls = gc_derive_alu_pipe(name);
    double lanes = a->sm.fp32_lanes.set ? a->sm.fp32_lanes.v : 128;
    double rate = e && e->ops_clk_sm.set ? e->ops_clk_sm.v : 0;
    double lat = e && e->latency_cyc.set ? e->latency_cyc.v : 0;
    if (!(rate > 0) || !(lat > 0)) {
        int di = gc_derive_alu_default_of(name), fp64 = gc_derive_alu_fp64(name);
        if (di < 0 && !fp64)
            return; /* out->ok stays 0: an op using it fails (machine.c) */
        const struct alu_default *d = di >= 0 ? &alu_defaults[di] : NULL;
        if (!(rate > 0)) {
            /* full-rate FP64 on the data-centre parts (cc 8.0: 32/clk/SM, 9.0: 64),
             * 1/64 of FP32 elsewhere */
            rate = fp64 ? (m->cc == 80 ? 32 : m->cc == 90 ? 64 : lanes / 64)
                        : (d->fixed > 0 ? d->fixed : d->lanes_frac * lanes);
            out->d[out->nd++] = (gc_derived_t){
                NULL, NULL, "ops_clk_sm", rate,
                fp64 ? "FP64 rate by compute capability"
                     : "share of sm.fp32_lanes for its pipe (programming guide)"};
        }
        if (!(lat > 0)) {
            lat = fp64 ? 8 : d->lat;
            out->d[out->nd++] = (gc_derived_t){NULL, NULL, "latency_cyc", lat,
                                               "typical dependent-issue latency of its pipe"};
        }
    }
    out->pipe.lat_cyc = lat;
    out->pipe.issue_cyc = 32.0 * m->sub_cores / rate; /* one warp instruction on one sub-core */
    out->pipe.overhead_cyc = 0;
    out->pipe.slots = (int)(m->sub_cores + 0.5);
    out->ok = 1;
}

int gc_derive_alu_pipe(const char *name)
{
    /* Nsight Compute's pipe names for sm_80 .. sm_90 (fma, alu, xu, fp64;
     * 4: the units that only take an issue slot: cbu, uniform, constant
     * and special-register reads) */
    static const struct {
        const char *prefix;
        int pipe;
    } pipes[] = {
        {"ffma", 0}, {"fadd", 0}, {"fmul", 0}, {"hfma2", 0},   {"hadd2", 0}, {"hmul2", 0},
        {"imad", 0}, {"mufu", 2}, {"i2f", 2},  {"f2i", 2},     {"f2f", 2},   {"popc", 2},
        {"fchk", 2}, {"dfma", 3}, {"dadd", 3}, {"dmul", 3},    {"bra", 4},   {"uniform", 4},
        {"ldc", 4},  {"s2r", 4},
    };
    for (size_t i = 0; i < sizeof(pipes) / sizeof(pipes[0]); i++)
        if (has_prefix(name, pipes[i].prefix))
            return pipes[i].pipe;
    return 1; /* integer and logic ops, compares, min/max, moves */
}

/* ---- the machine ---- */

static double pick(const gc_qty_t *q, double dflt, gc_derived_list_t *dl, const char *key,
                   const char *how)
{
    if (q->set)
        return q->v;
    gc_derived_add(dl, NULL, NULL, key, dflt, how);
    return dflt;
}

/* SM limits: the file, else the programming guide's table for the compute
 * capability. */
static void derive_sm(const gc_sm_t *s, int cc, gc_machine_t *m, gc_derived_list_t *dl)
{
    int big = cc == 80 || cc >= 90;
    m->max_threads =
        pick(&s->max_threads,
             big        ? 2048
             : cc >= 86 ? 1536
                        : 1024,
             dl, "sm.max_threads", "programming guide value for the compute capability");
    m->max_warps =
        pick(&s->max_warps, m->max_threads / 32, dl, "sm.max_warps", "sm.max_threads / 32");
    m->max_blocks = pick(&s->max_blocks,
                         cc >= 90   ? 32
                         : cc == 89 ? 24
                                    : 16,
                         dl, "sm.max_blocks", "programming guide value for the compute capability");
    m->max_block_threads =
        pick(&s->max_block_threads, 1024, dl, "sm.max_block_threads", "1024 on every current GPU");
    m->registers = pick(&s->registers, 65536, dl, "sm.registers", "64K registers per SM");
    m->reg_unit = pick(&s->reg_alloc_unit, 256, dl, "sm.reg_alloc_unit",
                       "256 registers per warp (occupancy calculator)");
    m->max_regs_thread = pick(&s->max_regs_thread, 255, dl, "sm.max_regs_thread", "255");
    double sh = s->shared_max_kib.set ? s->shared_max_kib.v
                : cc >= 90            ? 228
                : cc == 80            ? 164
                : cc >= 86            ? 100
                                      : 64;
    if (!s->shared_max_kib.set)
        gc_derived_add(dl, NULL, NULL, "sm.shared_max_kib", sh,
                       "programming guide value for the compute capability");
    m->shared_sm_bytes = sh * 1024;
    m->shared_block_bytes =
        (s->shared_block_max_kib.set ? s->shared_block_max_kib.v : sh - 1) * 1024;
    /* the CUDA runtime reserves 1 KiB of shared memory per block from cc 8.0 on */
    m->shared_reserved_bytes = cc >= 80 ? 1024 : 0;
}

/* The shared / L1 data path: one 128-byte wavefront per cycle at the v4
 * bandwidth; shared, ldmatrix and L1 latencies. */
static void derive_shared(const gc_arch_t *a, gc_machine_t *m, gc_derived_list_t *dl)
{
    const gc_memory_t *mem = &a->memory;
    double banks = mem->shared.banks.set ? mem->shared.banks.v : 32;
    double bank_bytes = mem->shared.bank_bytes.set ? mem->shared.bank_bytes.v : 4;
    double bw = mem->shared.bw_v4_bytes_clk_sm.set ? mem->shared.bw_v4_bytes_clk_sm.v
                : mem->shared.bw_bytes_clk_sm.set  ? mem->shared.bw_bytes_clk_sm.v
                                                   : banks * bank_bytes;
    if (!mem->shared.bw_v4_bytes_clk_sm.set && !mem->shared.bw_bytes_clk_sm.set)
        gc_derived_add(dl, NULL, NULL, "memory.shared.bw_v4_bytes_clk_sm", bw,
                       "banks * bank_bytes per clock");
    m->wave_cyc = banks * bank_bytes / bw;
    if (m->wave_cyc < 1)
        m->wave_cyc = 1; /* the banks deliver one wavefront per clock at most */
    m->shared_lat_cyc = pick(&mem->shared.latency_cyc, 30, dl, "memory.shared.latency_cyc",
                             "~30 cycles on every GPU of seed 004 Table III");
    m->ldm_lat_cyc = m->shared_lat_cyc;
    for (size_t i = 0; i < a->n_ldmatrix; i++)
        if (a->ldmatrix[i].num.v == 4 && a->ldmatrix[i].latency_cyc.set)
            m->ldm_lat_cyc = a->ldmatrix[i].latency_cyc.v;
    m->l1_lat_cyc = pick(&mem->l1.latency_cyc, 33, dl, "memory.l1.latency_cyc",
                         "~33 cycles (seed 004 Table III)");
}

/* L2 and DRAM latencies, the L2's near/far partitions, its capacity. */
static void derive_l2(const gc_memory_t *mem, gc_machine_t *m, gc_derived_list_t *dl)
{
    double l2lat = mem->l2.latency_cyc.set ? mem->l2.latency_cyc.v
                   : mem->l2.near_hit_cyc.set && mem->l2.far_hit_cyc.set
                       ? 0.5 * (mem->l2.near_hit_cyc.v + mem->l2.far_hit_cyc.v)
                       : 0;
    if (!mem->l2.latency_cyc.set) {
        if (!(l2lat > 0))
            l2lat = 250;
        gc_derived_add(dl, NULL, NULL, "memory.l2.latency_cyc", l2lat,
                       "mean of near and far hit, else 250 cycles");
    }
    m->l2_lat_cyc = l2lat;
    double dlat = mem->dram.latency_cyc.set ? mem->dram.latency_cyc.v
                  : mem->l2.near_miss_cyc.set && mem->l2.far_miss_cyc.set
                      ? 0.5 * (mem->l2.near_miss_cyc.v + mem->l2.far_miss_cyc.v)
                      : 2 * l2lat;
    if (!mem->dram.latency_cyc.set)
        gc_derived_add(dl, NULL, NULL, "memory.dram.latency_cyc", dlat,
                       "mean of near and far miss, else 2 x L2");
    m->dram_lat_cyc = dlat;
    /* near/far partitions: hits are near as often as pchase_fine saw; misses
     * go to the partition that homes the line, one of `partitions` alike */
    if (mem->l2.near_hit_cyc.set && mem->l2.far_hit_cyc.set && mem->l2.near_miss_cyc.set &&
        mem->l2.far_miss_cyc.set && mem->l2.near_share.set) {
        double parts =
            mem->l2.partitions.set && mem->l2.partitions.v >= 1 ? mem->l2.partitions.v : 2;
        m->hit_near_cyc = mem->l2.near_hit_cyc.v;
        m->hit_far_cyc = mem->l2.far_hit_cyc.v;
        m->miss_near_cyc = mem->l2.near_miss_cyc.v;
        m->miss_far_cyc = mem->l2.far_miss_cyc.v;
        m->hit_near_share = mem->l2.near_share.v;
        m->miss_near_share = 1 / parts;
    }
    m->miss_sd_cyc = mem->l2.miss_sd_cyc.set ? mem->l2.miss_sd_cyc.v : 0;
    m->tma_extra_cyc = mem->tma.latency_extra_cyc.set ? mem->tma.latency_extra_cyc.v : 0;
    m->l2_bytes = (mem->l2.size_mib.set ? mem->l2.size_mib.v : 0) * 1048576.0;
    if (!mem->l2.size_mib.set)
        gc_derived_add(dl, NULL, NULL, "memory.l2.size_mib", 0, "unknown: no reuse through the L2");
}

/* DRAM bandwidths per access mix. GC_EINPUT when the file has none. */
static int derive_dram(const gc_dram_t *dr, const char *f, gc_machine_t *m, gc_derived_list_t *dl,
                       gc_err_t *err)
{
    if (dr->bw_gbs.set) {
        m->dram_bw_gbs = dr->bw_gbs.v;
    } else if (dr->bw_peak_gbs.set) {
        m->dram_bw_gbs = 0.9 * dr->bw_peak_gbs.v;
        gc_derived_add(dl, NULL, NULL, "memory.dram.bw_gbs", m->dram_bw_gbs,
                       "90% of bw_peak_gbs (seed 004 measured 91-92%)");
    } else {
        return gc_err_at(err, GC_EINPUT, f, 0, 0,
                         "memory.dram has neither bw_gbs nor bw_peak_gbs: the model needs one");
    }
    /* per access mix: reads, writes, and a copy (the bus turning between them) */
    m->dram_rd_gbs = pick(&dr->bw_read_gbs, m->dram_bw_gbs, dl, "memory.dram.bw_read_gbs",
                          "memory.dram.bw_gbs (no per-direction figure)");
    m->dram_wr_gbs = pick(&dr->bw_write_gbs, m->dram_bw_gbs, dl, "memory.dram.bw_write_gbs",
                          "memory.dram.bw_gbs (no per-direction figure)");
    m->dram_cp_gbs = pick(&dr->bw_copy_gbs, m->dram_bw_gbs, dl, "memory.dram.bw_copy_gbs",
                          "memory.dram.bw_gbs (no read/write turnaround)");
    return 0;
}


/* sm.tensor_clock into m: per kind, the points with an activity and a
 * clock, by activity (the first of equal activities kept), at most
 * GC_TCLK_MAX; a kind without points keeps the old rules. */
static void derive_tclock(const gc_sm_t *s, gc_machine_t *m)
{
    for (int k = 0; k < 2; k++)
        m->n_tclk[k] = 0;
    for (size_t i = 0; i < s->n_tensor_clock; i++) {
        const gc_tclock_t *e = &s->tensor_clock[i];
        if (!e->inst || !e->activity.set || !e->clock_mhz.set || !(e->clock_mhz.v > 0))
            continue;
        int k = !strcmp(e->inst, "wgmma") ? GC_TCLK_WGMMA : GC_TCLK_MMA;
        int n = m->n_tclk[k], at = n;
        double *x = m->tclk_act[k], *y = m->tclk_mhz[k];
        while (at > 0 && x[at - 1] > e->activity.v)
            at--;
        if (n == GC_TCLK_MAX || (at > 0 && x[at - 1] == e->activity.v))
            continue;
        for (int j = n; j > at; j--) {
            x[j] = x[j - 1];
            y[j] = y[j - 1];
        }
        x[at] = e->activity.v;
        y[at] = e->clock_mhz.v;
        m->n_tclk[k] = n + 1;
    }
}

/* The power keys into m: all of them (an energy per kind for each kind
 * sm.tensor_clock times), or none. */
static void derive_power(const gc_arch_t *a, gc_machine_t *m)
{
    const gc_sm_t *s = &a->sm;
    const gc_qty_t *q[6] = {&s->power_limit_w, &s->power_idle_w, &s->power_exponent,
                            &a->memory.l2.energy_pj_byte, &a->memory.dram.energy_pj_byte,
                            &s->clock_max_mhz};
    m->has_power = 1;
    for (int i = 0; i < 6; i++)
        m->has_power = m->has_power && q[i]->set;
    const gc_qty_t *e[2] = {&s->energy_wgmma_pj, &s->energy_mma_pj};
    for (int k = 0; k < 2; k++) {
        m->pw_tensor_pj[k] = e[k]->set ? e[k]->v : 0;
        m->has_power = m->has_power && (m->n_tclk[k] == 0 || e[k]->set);
    }
    if (!m->has_power)
        return;
    m->pw_limit_w = s->power_limit_w.v;
    m->pw_idle_w = s->power_idle_w.v;
    m->pw_exp = s->power_exponent.v;
    m->pw_l2_pj = a->memory.l2.energy_pj_byte.v;
    m->pw_dram_pj = a->memory.dram.energy_pj_byte.v;
}

/* sm.coissue into m: the points whose warps are set, in the arch's
 * (ascending) order, at most 8; none leaves the scalars. A partner a point
 * lacks (calib leaves out the ldmatrix overlap of a trace from the bench's
 * first version) takes its scalar, m->overlap_tensor, at every warp count. */
static void derive_coissue(const gc_sm_t *s, gc_machine_t *m)
{
    m->n_coissue = 0;
    for (size_t i = 0; i < s->n_coissue && m->n_coissue < 8; i++) {
        const gc_coissue_t *e = &s->coissue[i];
        const gc_qty_t *q[5] = {&e->fma, &e->alu, &e->xu, &e->ldsm, &e->shfl};
        if (!(e->warps.set && e->warps.v > 0 &&
              (m->n_coissue == 0 || e->warps.v > m->co_warps[m->n_coissue - 1])))
            continue;
        m->co_warps[m->n_coissue] = e->warps.v;
        for (int k = 0; k < 5; k++)
            m->co_overlap[m->n_coissue][k] = q[k]->set ? q[k]->v : m->overlap_tensor[k];
        m->n_coissue++;
    }
}

int gc_derive_scalars(const gc_arch_t *a, gc_machine_t *m, gc_err_t *err)
{
    const gc_sm_t *s = &a->sm;
    const gc_memory_t *mem = &a->memory;
    gc_derived_list_t *dl = &m->derived;
    m->name = a->name;
    m->file = a->path ? a->path : a->name;
    if (!s->count.set)
        return gc_err_at(err, GC_EINPUT, m->file, 0, 0, "sm.count is missing: the model needs it");
    m->cc = gc_arch_cc(a);
    m->sms = s->count.v;
    m->sub_cores = s->sub_cores.set ? s->sub_cores.v : 4;
    derive_sm(s, m->cc, m, dl);
    derive_shared(a, m, dl);
    derive_l2(mem, m, dl);
    int rc = derive_dram(&mem->dram, m->file, m, dl, err);
    if (rc)
        return rc;
    m->clock_max_mhz = s->clock_max_mhz.v;
    m->has_clock_tensor = s->clock_tensor_mhz.set;
    m->has_clock_memory = s->clock_memory_mhz.set;
    m->clock_tensor_mhz = s->clock_tensor_mhz.set ? s->clock_tensor_mhz.v : m->clock_max_mhz;
    m->clock_memory_mhz = s->clock_memory_mhz.set ? s->clock_memory_mhz.v : m->clock_max_mhz;
    m->has_clock_fma = s->clock_fma_mhz.set;
    m->clock_fma_mhz = s->clock_fma_mhz.set ? s->clock_fma_mhz.v : m->clock_max_mhz;
    /* L2 bandwidth: the 16-byte figure, else the 4-byte one, else 2.5 x DRAM */
    if (mem->l2.bw_v4_bytes_clk.set)
        m->l2_bw_clk = mem->l2.bw_v4_bytes_clk.v;
    else if (mem->l2.bw_bytes_clk.set)
        m->l2_bw_clk = mem->l2.bw_bytes_clk.v;
    else {
        m->l2_bw_clk = 2.5 * m->dram_bw_gbs * 1e3 / m->clock_max_mhz;
        gc_derived_add(dl, NULL, NULL, "memory.l2.bw_v4_bytes_clk", m->l2_bw_clk,
                       "2.5 x DRAM bandwidth (A100, H800 and RTX 4090 measure 1.7-2.6 x)");
    }
    /* one SM's link to the L2: 64 bytes per clock */
    m->l2_sm_bw_clk = 64;
    /* one request per line: the line requests the L2 serves per clock */
    m->l2_lines_clk = mem->l2.lines_bw_bytes_clk.set ? mem->l2.lines_bw_bytes_clk.v / 16 : 0;
    m->bar_cyc = 20;
    m->launch_us = pick(&s->launch_overhead_us, 3.0, dl, "sm.launch_overhead_us",
                        "3 us: a launch as event timing sees it");
    /* the event-timed launch holds the GPU's own per-kernel cost: never more */
    m->floor_us = fmin(m->launch_us,
                       pick(&s->kernel_floor_us, 0, dl, "sm.kernel_floor_us",
                            "0: not measured (a kernel's GPU time then has no fixed part)"));
    m->dispatch_ns = pick(&s->block_dispatch_ns, 0, dl, "sm.block_dispatch_ns",
                          "0: not measured (no bound on how fast blocks start)");
    m->const_miss_cyc = pick(&s->const_miss_cyc, 0, dl, "sm.const_miss_cyc",
                             "0: not measured (a kernel's parameters cost nothing to read)");
    m->code_miss_cyc = pick(&s->code_miss_cyc, 0, dl, "sm.code_miss_cyc",
                            "0: not measured (a kernel's far code costs nothing to reach)");
    /* a lone warp's issue: 1 (every cycle) where the arch does not say */
    m->issue_1warp = s->issue_1warp_ratio.set && s->issue_1warp_ratio.v >= 1
                         ? s->issue_1warp_ratio.v
                         : 1;
    const gc_qty_t *ov[5] = {&s->overlap_tensor_fma, &s->overlap_tensor_alu,
                             &s->overlap_tensor_xu, &s->overlap_tensor_ldsm,
                             &s->overlap_tensor_shfl};
    const char *const ovk[5] = {"sm.overlap_tensor_fma", "sm.overlap_tensor_alu",
                                "sm.overlap_tensor_xu", "sm.overlap_tensor_ldsm",
                                "sm.overlap_tensor_shfl"};
    for (int k = 0; k < 5; k++)
        m->overlap_tensor[k] = pick(ov[k], 1, dl, ovk[k],
                                    "1: not measured (mma.sync and the other work overlap fully)");
    derive_coissue(s, m);
    derive_tclock(s, m);
    derive_power(a, m);
    return 0;
}
