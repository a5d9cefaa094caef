/* ops.c - operator templates: argument checks, dispatch and the builder
 * helpers (see ops.h, ops_build.h). */
#include "ops.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "gemm_int.h"
#include "machine.h"
#include "ops_build.h"

/* where helpers write after running out of memory; per thread: builders
 * run concurrently (the library promises concurrent predictions) */
static _Thread_local gc_kop_t sink;

gc_kernel_t *kb_start(kb_t *b, const char *name, const char *source, gc_err_t *err)
{
    b->k = gc_kernel_create(name);
    b->ok = b->k != NULL;
    if (!b->ok) {
        gc_err_set(err, GC_ENOMEM, "out of memory");
        return NULL;
    }
    b->k->source = gc_kernel_str(b->k, source);
    return b->k;
}

gc_kop_t *kb_op(kb_t *b, gc_kphase_t *ph, gc_opclass_t cls, double count)
{
    if (!b->ok || !(count > 0))
        return &sink;
    gc_kop_t *op = gc_kernel_op(b->k, ph, cls);
    if (!op) {
        b->ok = 0;
        return &sink;
    }
    op->count = count;
    return op;
}

gc_kop_t *kb_alu(kb_t *b, gc_kphase_t *ph, const char *name, double count, double chains)
{
    gc_kop_t *op = kb_op(b, ph, GC_OP_ALU, count);
    if (op != &sink) {
        op->name = name;
        op->chains = chains > 0 && chains < count ? chains : 0;
    }
    return op;
}

gc_kop_t *kb_ldg(kb_t *b, gc_kphase_t *ph, double width, double count, double chains)
{
    gc_kop_t *op = kb_op(b, ph, GC_OP_LDG, count);
    if (op != &sink) {
        op->width = width;
        op->chains = chains > 0 && chains < count ? chains : 0;
    }
    return op;
}

gc_kop_t *kb_stg(kb_t *b, gc_kphase_t *ph, double width, double count)
{
    gc_kop_t *op = kb_op(b, ph, GC_OP_STG, count);
    if (op != &sink)
        op->width = width;
    return op;
}

void kb_mix(kb_t *b, gc_kphase_t *ph, const ops_mix_t *m, double scale)
{
    /* the arch's measured entries where it has them (ffma, imad, iadd3,
     * mufu.ex2), else derive.c's defaults for the pipe */
    kb_alu(b, ph, "ffma", m->ffma * scale, 0);
    kb_alu(b, ph, "imad", m->imad * scale, 0);
    kb_alu(b, ph, "fsetp", m->fcmp * scale, 0);
    kb_alu(b, ph, "iadd3", m->ialu * scale, 0);
    kb_alu(b, ph, "f2fp", m->f2fp * scale, 0);
    kb_alu(b, ph, "mufu.ex2", m->mufu * scale, 0);
    kb_alu(b, ph, "fchk", m->fchk * scale, 0);
    kb_alu(b, ph, "bra", m->bra * scale, 0);
    kb_alu(b, ph, "uniform", m->uni * scale, 0);
    kb_alu(b, ph, "ldc", m->ldc * scale, 0);
}

void ops_mix_add(ops_mix_t *acc, const ops_mix_t *m, double scale)
{
    acc->ffma += m->ffma * scale;
    acc->imad += m->imad * scale;
    acc->fcmp += m->fcmp * scale;
    acc->ialu += m->ialu * scale;
    acc->f2fp += m->f2fp * scale;
    acc->mufu += m->mufu * scale;
    acc->fchk += m->fchk * scale;
    acc->bra += m->bra * scale;
    acc->uni += m->uni * scale;
    acc->ldc += m->ldc * scale;
}

ops_mix_t ops_widen(const char *dtype)
{
    ops_mix_t m = {0};
    if (dtype && !strcmp(dtype, "f16"))
        m.ffma = 1;
    else if (dtype && !strcmp(dtype, "bf16"))
        m.imad = m.ialu = 0.5;
    return m;
}

int ops_dsize(const char *dtype)
{
    if (!dtype)
        return 0;
    if (!strcmp(dtype, "f16") || !strcmp(dtype, "bf16"))
        return 2;
    if (!strcmp(dtype, "f32"))
        return 4;
    return 0;
}

double ops_sms(const gc_arch_t *a)
{
    return a->sm.count.set && a->sm.count.v > 0 ? a->sm.count.v : 1;
}

double ops_sm_threads(const gc_arch_t *a)
{
    return a->sm.max_threads.set && a->sm.max_threads.v > 0 ? a->sm.max_threads.v : 2048;
}

int ops_push(gc_ops_plan_t *plan, kb_t *b, const char *role, gc_err_t *err)
{
    if (!b->ok || plan->n >= GC_OPS_KERNELS_MAX) {
        gc_kernel_destroy(b->k);
        b->k = NULL;
        return gc_err_set(err, GC_ENOMEM, "out of memory building the operator's kernels");
    }
    plan->k[plan->n] = b->k;
    snprintf(plan->role[plan->n], sizeof(plan->role[0]), "%s", role);
    plan->n++;
    b->k = NULL;
    return 0;
}

static double qpos(const gc_qty_t *q)
{
    return q->set && q->v > 0 ? q->v : 0;
}

/* The steps of a kernel whose whole grid is resident at once (one wave or
 * less) run in lockstep: every warp starts together and runs the same
 * code, so the grid reads its input, then computes, then writes, and none
 * of these overlaps another (no other block is resident to fill the gaps).
 * The predictor's round is a steady state that overlaps them across warps;
 * this is what lockstep adds: the DRAM reads at the read bandwidth, the
 * busiest compute resource (tensor, alu, issue, shared) and the DRAM writes
 * at the write bandwidth, in sequence, less the predicted time (launch
 * excluded), when positive. Only for kernels without pipeline stages (a
 * cp.async / TMA pipeline overlaps loads with math by design, lockstep or
 * not). Bandwidths from the arch's machine (memory.dram.bw_read_gbs,
 * bw_write_gbs, or what derive.c supplies); 0 without them. */
static double lockstep_cyc(const gc_arch_t *a, const gc_kernel_t *k, const gc_prediction_t *p)
{
    const gc_machine_t *m = gc_machine_of(a);
    if (!p || !m || !(p->waves > 0) || p->waves > 1 || k->prologue.stages > 1 ||
        k->loop.stages > 1 || k->epilogue.stages > 1 || !(p->clock_mhz > 0) ||
        !(m->dram_rd_gbs > 0) || !(m->dram_wr_gbs > 0))
        return 0;
    double rd = fmin(k->read_bytes > 0 ? k->read_bytes : p->dram_bytes, p->dram_bytes);
    double wr = fmax(0, p->dram_bytes - rd);
    double per_gbs = p->clock_mhz / 1e3; /* cycles per byte at 1 GB/s */
    double comp = 0;
    const int res[] = {GC_R_TENSOR, GC_R_ALU, GC_R_ISSUE, GC_R_SHARED};
    for (int i = 0; i < 4; i++)
        comp = fmax(comp, p->busy[res[i]]);
    double lock = rd * per_gbs / m->dram_rd_gbs + comp + wr * per_gbs / m->dram_wr_gbs;
    return fmax(0, lock - (p->cycles - p->breakdown[GC_R_LAUNCH]));
}

/* 1 when k is a Hopper warp-specialised kernel: wgmma fed by TMA (the gemm
 * template's wgmma kernels, cuDNN's sm90 implicit GEMMs; a single k step
 * loads in the prologue only). */
static int warp_specialised(const gc_kernel_t *k)
{
    int wg = 0, tma = 0;
    const gc_kphase_t *ph[3] = {&k->prologue, &k->loop, &k->epilogue};
    for (int j = 0; j < 3; j++)
        for (size_t i = 0; i < ph[j]->n_ops; i++) {
            wg |= ph[j]->ops[i].cls == GC_OP_WGMMA;
            tma |= ph[j]->ops[i].cls == GC_OP_TMA;
        }
    return wg && tma;
}

double gc_ops_ends_cyc(const gc_arch_t *a, const gc_kernel_t *k, const gc_prediction_t *p)
{
    /* the first loads' latency: the predictor's own for a kernel without
     * pipeline stages (its first round starts cold: predict.c,
     * lockstep_first), added here for a pipelined one */
    int piped = k->prologue.stages > 1 || k->loop.stages > 1 || k->epilogue.stages > 1;
    if (warp_specialised(k)) /* as the gemm template counts them (gemm_int.h) */
        return gc_gemm_ws_ends_cyc(a, k->read_bytes <= qpos(&a->memory.l2.size_mib) * 1048576,
                                   k->serial_inst);
    double first = piped && k->read_bytes > 0 ? qpos(&a->memory.dram.latency_cyc) : 0;
    double last = k->write_bytes > 0 ? qpos(&a->memory.l2.latency_cyc) : 0;
    return first + last + lockstep_cyc(a, k, p) + gc_gemm_serial_cyc(a, k->serial_inst);
}

typedef int (*build_fn)(const gc_arch_t *, const gc_ops_args_t *, gc_ops_plan_t *, gc_err_t *);

/* Each operator: its name, the options it needs (in the order a message
 * names them), the dtypes it takes, and its builder. */
typedef struct opdef {
    const char *name;
    const char *need[10];
    int half_only; /* f16 | bf16 only (tensor-core kernels) */
    build_fn build;
    const char *usage;
} opdef_t;

static const opdef_t defs[] = {
    {"attention", {"batch", "heads", "seq", "head-dim", "dtype"}, 1, ops_attention,
     "attention --batch B --heads H --seq S --head-dim D [--causal] --dtype f16|bf16"},
    {"softmax", {"rows", "cols", "dtype"}, 0, ops_softmax,
     "softmax --rows R --cols C --dtype f16|bf16|f32"},
    {"layernorm", {"rows", "cols", "dtype"}, 0, ops_layernorm,
     "layernorm --rows R --cols C --dtype f16|bf16|f32"},
    {"rowsum", {"rows", "cols", "dtype"}, 0, ops_rowsum,
     "rowsum --rows R --cols C --dtype f16|bf16|f32"},
    {"elementwise", {"op", "n", "dtype"}, 0, ops_elementwise,
     "elementwise --op gelu|relu|add|mul|exp --n N --dtype f16|bf16|f32"},
    {"transpose", {"rows", "cols", "dtype"}, 0, ops_transpose,
     "transpose --rows R --cols C --dtype f16|bf16|f32"},
    {"conv2d", {"n", "c", "h", "w", "k", "r", "s", "stride", "pad", "dtype"}, 1, ops_conv2d,
     "conv2d --n N --c C --h H --w W --k K --r R --s S --stride U --pad P --dtype f16|bf16"},
};
#define NDEFS ((int)(sizeof(defs) / sizeof(defs[0])))

static const opdef_t *find(const char *name)
{
    for (int i = 0; name && i < NDEFS; i++)
        if (!strcmp(defs[i].name, name))
            return &defs[i];
    return NULL;
}

int gc_ops_known(const char *name)
{
    return find(name) != NULL;
}

const char *gc_ops_usage(void)
{
    static char buf[1024];
    size_t at = 0;
    for (int i = 0; i < NDEFS && at < sizeof(buf); i++) {
        int w = snprintf(buf + at, sizeof(buf) - at, "  %s\n", defs[i].usage);
        if (w < 0)
            break;
        at += (size_t)w;
    }
    return buf;
}

/* The operators' options and where gc_ops_args_t holds each: a size (given
 * when > 0), --pad (given when >= 0, 0 being a pad), or a text (given when
 * set). --causal, a flag, is apart. */
enum { OPT_SIZE, OPT_PAD, OPT_TEXT };
static const struct {
    const char *n;
    size_t off;
    int kind;
} opt_fields[] = {
    {"batch", offsetof(gc_ops_args_t, batch), OPT_SIZE},
    {"heads", offsetof(gc_ops_args_t, heads), OPT_SIZE},
    {"seq", offsetof(gc_ops_args_t, seq), OPT_SIZE},
    {"head-dim", offsetof(gc_ops_args_t, head_dim), OPT_SIZE},
    {"rows", offsetof(gc_ops_args_t, rows), OPT_SIZE},
    {"cols", offsetof(gc_ops_args_t, cols), OPT_SIZE},
    {"n", offsetof(gc_ops_args_t, n), OPT_SIZE},
    {"c", offsetof(gc_ops_args_t, c), OPT_SIZE},
    {"h", offsetof(gc_ops_args_t, h), OPT_SIZE},
    {"w", offsetof(gc_ops_args_t, w), OPT_SIZE},
    {"k", offsetof(gc_ops_args_t, k), OPT_SIZE},
    {"r", offsetof(gc_ops_args_t, r), OPT_SIZE},
    {"s", offsetof(gc_ops_args_t, s), OPT_SIZE},
    {"stride", offsetof(gc_ops_args_t, stride), OPT_SIZE},
    {"pad", offsetof(gc_ops_args_t, pad), OPT_PAD},
    {"op", offsetof(gc_ops_args_t, eop), OPT_TEXT},
    {"dtype", offsetof(gc_ops_args_t, dtype), OPT_TEXT},
};
#define N_OPT_FIELDS (sizeof(opt_fields) / sizeof(opt_fields[0]))

/* Whether option i of opt_fields was given. */
static int given_at(const gc_ops_args_t *g, size_t i)
{
    const char *f = (const char *)g + opt_fields[i].off;
    switch (opt_fields[i].kind) {
    case OPT_SIZE:
        return *(const long *)f > 0;
    case OPT_PAD:
        return *(const long *)f >= 0;
    default:
        return *(const char *const *)f != NULL;
    }
}

/* Whether option `name` was given. */
static int given(const gc_ops_args_t *g, const char *name)
{
    for (size_t i = 0; i < N_OPT_FIELDS; i++)
        if (!strcmp(opt_fields[i].n, name))
            return given_at(g, i);
    return 0;
}

/* 0 when every option given is one of d's (its needed ones, and --causal
 * for attention), else GC_EUSAGE naming the first that is not. */
static int only_own(const opdef_t *d, const gc_ops_args_t *g, gc_err_t *err)
{
    for (size_t i = 0; i < N_OPT_FIELDS; i++) {
        int own = 0;
        for (int j = 0; j < 10 && d->need[j]; j++)
            own |= !strcmp(d->need[j], opt_fields[i].n);
        if (!own && given_at(g, i))
            return gc_err_set(err, GC_EUSAGE, "%s: --%s is not an option of %s (usage: %s)",
                              d->name, opt_fields[i].n, d->name, d->usage);
    }
    if (g->causal && strcmp(d->name, "attention"))
        return gc_err_set(err, GC_EUSAGE, "%s: --causal is not an option of %s (usage: %s)",
                          d->name, d->name, d->usage);
    return 0;
}

int gc_ops_plan(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *plan, gc_err_t *err)
{
    memset(plan, 0, sizeof(*plan));
    const opdef_t *d = find(g->op);
    if (!d)
        return gc_err_set(err, GC_EUSAGE, "unknown operator '%s' (attention, softmax, layernorm, "
                          "rowsum, elementwise, transpose, conv2d)", g->op ? g->op : "");
    for (int i = 0; i < 10 && d->need[i]; i++)
        if (!given(g, d->need[i]))
            return gc_err_set(err, GC_EUSAGE, "%s: missing --%s (usage: %s)", d->name,
                              d->need[i], d->usage);
    if (only_own(d, g, err))
        return GC_EUSAGE;
    int sz = ops_dsize(g->dtype);
    if (!sz || (d->half_only && sz != 2))
        return gc_err_set(err, GC_EUSAGE, "%s: unknown --dtype '%s' (%s)", d->name, g->dtype,
                          d->half_only ? "f16 or bf16" : "f16, bf16 or f32");
    int warm = g->l2 && !strcmp(g->l2, "warm");
    if (g->l2 && !warm && strcmp(g->l2, "cold"))
        return gc_err_set(err, GC_EUSAGE, "%s: unknown --l2 '%s' (cold or warm)", d->name, g->l2);
    int rc = d->build(a, g, plan, err);
    /* warm: each kernel finds what it reads in the L2 (the predictor takes it
     * so only where its footprint fits: predict.c, traffic) */
    for (int i = 0; !rc && warm && i < plan->n; i++)
        plan->k[i]->l2_warm = 1;
    return rc;
}

void gc_ops_plan_free(gc_ops_plan_t *plan)
{
    for (int i = 0; i < plan->n; i++)
        gc_kernel_destroy(plan->k[i]);
    plan->n = 0;
}
