/* template.c - the template registry (template.h): option tables, value
 * store, the adapters from option values to gemm.h, stream.h and ops.h, and
 * the output of a template prediction. */
#include "template.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "gemm_int.h"
#include "ops.h"
#include "predict_json.h"
#include "stream.h"
#include "../../util/sbuf.h"

/* ---- option tables ---- */

static const gc_topt_t gemm_opts[] = {
    {"m", GC_TOPT_LONG, 1, 1L << 24, "elements", NULL, "rows of A and C"},
    {"n", GC_TOPT_LONG, 1, 1L << 24, "elements", NULL, "columns of B and C"},
    {"k", GC_TOPT_LONG, 1, 1L << 24, "elements", NULL, "the reduction dimension"},
    {"dtype", GC_TOPT_STR, 0, 0, "", NULL, "f16|bf16|tf32|f32|f8e4m3|i8"},
    {"batch", GC_TOPT_LONG, 1, 1L << 24, "matrices", "1", "strided-batched count (torch.bmm)"},
    {"layout", GC_TOPT_STR, 0, 0, "", "nn", "nn|nt|tn|tt: A, B as transposed views (t)"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};

static const gc_topt_t stream_opts[] = {
    {"op", GC_TOPT_STR, 0, 0, "", NULL, "copy|triad|reduce"},
    {"bytes", GC_TOPT_LONG, 16, 1L << 46, "bytes", NULL, "size of each array"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};

#define SZ(nm, unit, help) {nm, GC_TOPT_LONG, 1, 1L << 40, unit, NULL, help}
/* The operators share one option set (cmd_ops.c has always accepted every
 * one of them for every operator; each operator's rules say which it needs). */
static const gc_topt_t ops_opts[] = {
    SZ("batch", "sequences", "attention: batch size"),
    SZ("heads", "heads", "attention: heads"),
    SZ("seq", "tokens", "attention: sequence length"),
    SZ("head-dim", "elements", "attention: head dimension"),
    {"causal", GC_TOPT_FLAG, 0, 0, "", "off", "attention: causal mask"},
    SZ("rows", "rows", "softmax, layernorm, rowsum, transpose: rows"),
    SZ("cols", "elements", "softmax, layernorm, rowsum, transpose: columns"),
    SZ("n", "elements", "elementwise: elements; conv2d: images"),
    SZ("c", "channels", "conv2d: input channels"),
    SZ("h", "pixels", "conv2d: input height"),
    SZ("w", "pixels", "conv2d: input width"),
    SZ("k", "channels", "conv2d: output channels"),
    SZ("r", "pixels", "conv2d: filter height"),
    SZ("s", "pixels", "conv2d: filter width"),
    SZ("stride", "pixels", "conv2d: stride"),
    {"pad", GC_TOPT_LONG, 0, 1L << 40, "pixels", NULL, "conv2d: padding"},
    {"dtype", GC_TOPT_STR, 0, 0, "", NULL, "f16|bf16|f32 (attention, conv2d: f16|bf16)"},
    {"op", GC_TOPT_STR, 0, 0, "", NULL, "elementwise: gelu|relu|add|mul|exp"},
    {"l2", GC_TOPT_STR, 0, 0, "", "cold",
     "cold|warm: the call's data comes from DRAM, or sits in the L2 at launch (a loop over "
     "the same small tensors; only where it fits)"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}};
#undef SZ

/* ---- values ---- */

const gc_topt_t *gc_template_opt(const gc_template_t *t, const char *name)
{
    for (const gc_topt_t *o = t->opts; o->name; o++)
        if (!strcmp(o->name, name))
            return o;
    return NULL;
}

/* As gc_tvals_set; json_number: s may also be a whole number in JSON's
 * exponent or fraction form. */
static int tvals_set(gc_tvals_t *v, const gc_topt_t *o, const char *s, int json_number,
                     gc_err_t *err)
{
    long l = 1;
    if (o->type == GC_TOPT_LONG) {
        char *e;
        errno = 0;
        l = s ? strtol(s, &e, 10) : 0;
        if (s && json_number && e != s && *e) { /* a JSON number such as 1e6 or 4096.0 */
            double d = strtod(s, &e);
            l = !*e && d == floor(d) && fabs(d) < 9e15 ? (long)d : l;
            e = !*e && d == floor(d) && fabs(d) < 9e15 ? e : (char *)s;
        }
        if (!s || e == s || *e || errno || l < o->lo || l > o->hi)
            return gc_err_set(err, GC_EUSAGE, "--%s takes a whole number from %ld to %ld, got '%s'",
                              o->name, o->lo, o->hi, s ? s : "");
    }
    int i = 0;
    while (i < v->n && strcmp(v->v[i].name, o->name))
        i++;
    if (i == GC_TVALS_MAX)
        return gc_err_set(err, GC_EUSAGE, "too many options (at most %d)", GC_TVALS_MAX);
    if (i == v->n)
        v->n++;
    v->v[i].name = o->name;
    v->v[i].str = s ? s : "";
    v->v[i].l = l;
    return 0;
}

int gc_tvals_set(gc_tvals_t *v, const gc_topt_t *o, const char *s, gc_err_t *err)
{
    return tvals_set(v, o, s, 0, err);
}

int gc_tvals_set_json(gc_tvals_t *v, const gc_topt_t *o, const char *s, gc_err_t *err)
{
    return tvals_set(v, o, s, 1, err);
}

static int find_val(const gc_tvals_t *v, const char *name)
{
    for (int i = 0; i < v->n; i++)
        if (!strcmp(v->v[i].name, name))
            return i;
    return -1;
}

const char *gc_tvals_str(const gc_tvals_t *v, const char *name)
{
    int i = find_val(v, name);
    return i < 0 ? NULL : v->v[i].str;
}

long gc_tvals_long(const gc_tvals_t *v, const char *name, long dflt)
{
    int i = find_val(v, name);
    return i < 0 ? dflt : v->v[i].l;
}

void gc_tplan_free(gc_tplan_t *plan)
{
    for (int i = 0; i < plan->n; i++)
        gc_kernel_destroy(plan->k[i]);
    plan->n = 0;
}

/* ---- gemm ---- */

/* Read gemm's options; GC_EUSAGE when one is missing or unknown. */
static int gemm_args(const gc_tvals_t *v, gc_gemm_args_t *g, gc_err_t *err)
{
    const char *dtype = gc_tvals_str(v, "dtype"), *layout = gc_tvals_str(v, "layout");
    if (layout && gc_gemm_layout(layout))
        return gc_err_set(err, GC_EUSAGE, "unknown --layout '%s' (nn, nt, tn or tt)", layout);
    memset(g, 0, sizeof(*g));
    g->m = gc_tvals_long(v, "m", 0);
    g->n = gc_tvals_long(v, "n", 0);
    g->k = gc_tvals_long(v, "k", 0);
    g->batch = gc_tvals_long(v, "batch", 1);
    gc_sbuf_copy(g->layout, sizeof(g->layout), layout ? layout : "nn");
    if (!g->m || !g->n || !g->k || !dtype)
        return gc_err_set(err, GC_EUSAGE, "--m, --n, --k and --dtype are required");
    if (gc_gemm_dtype(dtype, &g->dtype))
        return gc_err_set(err, GC_EUSAGE,
                          "unknown --dtype '%s' (f16, bf16, tf32, f32, f8e4m3, i8)", dtype);
    return 0;
}

static int gemm_predict(const gc_arch_t *a, const gc_tvals_t *v, const gc_predict_opts_t *o,
                        gc_tresult_t *r, gc_err_t *err)
{
    gc_gemm_args_t g;
    if (gemm_args(v, &g, err))
        return err ? err->code : GC_EUSAGE;
    if (!(r->gemm = malloc(sizeof(*r->gemm)))) /* a few KiB: kept off the stack */
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int rc = gc_gemm_predict_call(a, &g, o, r->gemm, err);
    if (rc)
        return rc;
    r->n = 1;
    r->pred[0] = r->gemm->pred;
    return 0;
}

/* The kernels gc_gemm_predict_call picks for the call (its batch and
 * layout): the workspace memset, the main kernel and the split-K
 * reduction where the library launches them, each named as the
 * prediction names it. */
static int gemm_describe(const gc_arch_t *a, const gc_tvals_t *v, gc_tplan_t *plan,
                         gc_err_t *err)
{
    gc_gemm_args_t g;
    if (gemm_args(v, &g, err))
        return err ? err->code : GC_EUSAGE;
    gc_gemm_result_t *r = malloc(sizeof(*r)); /* a few KiB: kept off the stack */
    gc_kernel_t *k[GC_GEMM_KERNELS_MAX];
    gc_predict_opts_t o = {0};
    int rc = r ? gc_gemm_call_kernels(a, &g, &o, r, k, err)
               : gc_err_set(err, GC_ENOMEM, "out of memory");
    for (int i = 0; !rc && i < r->n_kernels; i++) {
        k[i]->name = gc_kernel_str(k[i], r->kern[i].name);
        plan->k[plan->n] = k[i];
        snprintf(plan->role[plan->n++], sizeof(plan->role[0]), "%s", r->kern[i].role);
    }
    free(r);
    return rc;
}

static int gemm_check(const gc_tvals_t *v, gc_err_t *err)
{
    gc_gemm_args_t g;
    return gemm_args(v, &g, err);
}

/* ---- stream ---- */

static int stream_args(const gc_tvals_t *v, gc_stream_op_t *op, double *bytes, gc_err_t *err)
{
    const char *s = gc_tvals_str(v, "op");
    *bytes = (double)gc_tvals_long(v, "bytes", 0);
    if (!s || !(*bytes > 0))
        return gc_err_set(err, GC_EUSAGE, "--op and --bytes are required");
    if (gc_stream_op(s, op))
        return gc_err_set(err, GC_EUSAGE, "unknown --op '%s' (copy, triad or reduce)", s);
    return 0;
}

static int stream_predict(const gc_arch_t *a, const gc_tvals_t *v, const gc_predict_opts_t *o,
                          gc_tresult_t *r, gc_err_t *err)
{
    gc_stream_op_t op;
    double bytes;
    if (stream_args(v, &op, &bytes, err))
        return err ? err->code : GC_EUSAGE;
    gc_stream_result_t s;
    int rc = gc_stream_predict(a, op, bytes, o, &s, err);
    if (rc)
        return rc;
    r->n = 1;
    r->pred[0] = s.pred;
    gc_stream_describe(&s, r->json, sizeof(r->json), r->text, sizeof(r->text));
    return 0;
}

static int stream_describe(const gc_arch_t *a, const gc_tvals_t *v, gc_tplan_t *plan,
                           gc_err_t *err)
{
    gc_stream_op_t op;
    double bytes;
    if (stream_args(v, &op, &bytes, err))
        return err ? err->code : GC_EUSAGE;
    int rc = gc_stream_kernel(a, op, bytes, &plan->k[0], err);
    if (!rc) {
        snprintf(plan->role[0], sizeof(plan->role[0]), "stream");
        plan->n = 1;
    }
    return rc;
}

static int stream_check(const gc_tvals_t *v, gc_err_t *err)
{
    gc_stream_op_t op;
    double bytes;
    return stream_args(v, &op, &bytes, err);
}

/* ---- operators (ops.h) ---- */

/* Build the operator named op from v. */
static int ops_describe_named(const char *op, const gc_arch_t *a, const gc_tvals_t *v,
                              gc_tplan_t *plan, gc_err_t *err)
{
    gc_ops_args_t g = {.op = op,
                       .dtype = gc_tvals_str(v, "dtype"),
                       .eop = gc_tvals_str(v, "op"),
                       .batch = gc_tvals_long(v, "batch", 0),
                       .heads = gc_tvals_long(v, "heads", 0),
                       .seq = gc_tvals_long(v, "seq", 0),
                       .head_dim = gc_tvals_long(v, "head-dim", 0),
                       .causal = gc_tvals_str(v, "causal") != NULL,
                       .rows = gc_tvals_long(v, "rows", 0),
                       .cols = gc_tvals_long(v, "cols", 0),
                       .n = gc_tvals_long(v, "n", 0),
                       .c = gc_tvals_long(v, "c", 0),
                       .h = gc_tvals_long(v, "h", 0),
                       .w = gc_tvals_long(v, "w", 0),
                       .k = gc_tvals_long(v, "k", 0),
                       .r = gc_tvals_long(v, "r", 0),
                       .s = gc_tvals_long(v, "s", 0),
                       .stride = gc_tvals_long(v, "stride", 0),
                       .pad = gc_tvals_long(v, "pad", -1),
                       .l2 = gc_tvals_str(v, "l2")};
    gc_ops_plan_t p;
    int rc = gc_ops_plan(a, &g, &p, err);
    plan->n = p.n;
    for (int i = 0; i < p.n; i++) {
        plan->k[i] = p.k[i];
        memcpy(plan->role[i], p.role[i], sizeof(plan->role[i]));
    }
    return rc;
}

/* One kernel's launch share of its prediction, in us: what the host adds
 * (the GPU's own per-kernel cost stays in the kernel's time). */
static double launch_us(const gc_prediction_t *p)
{
    return gc_predict_host_launch_us(p);
}

/* Predict every kernel of the plan; the result is their sum. */
static int ops_predict_named(const char *op, const gc_arch_t *a, const gc_tvals_t *v,
                             const gc_predict_opts_t *o, gc_tresult_t *r, gc_err_t *err)
{
    gc_tplan_t plan = {0};
    int rc = ops_describe_named(op, a, v, &plan, err);
    r->multi = 1;
    for (int i = 0; !rc && i < plan.n; i++) {
        const gc_kernel_t *k = plan.k[i];
        rc = gc_predict(a, k, o, &r->pred[i], err);
        if (rc)
            break;
        gc_tkernel_t *tk = &r->k[i];
        gc_sbuf_copy(tk->role, sizeof(tk->role), plan.role[i]);
        gc_sbuf_copy(tk->name, sizeof(tk->name), k->name);
        memcpy(tk->grid, k->grid, sizeof(tk->grid));
        memcpy(tk->block, k->block, sizeof(tk->block));
        tk->regs = k->regs;
        /* one DRAM latency for the first loads, one L2 latency for the last
         * stores, and a one-wave grid's lockstep (gc_ops_ends_cyc,
         * model/kernels/README.md) */
        tk->ends_us = r->pred[i].clock_mhz > 0
                          ? gc_ops_ends_cyc(a, k, &r->pred[i]) / r->pred[i].clock_mhz
                          : 0;
        r->time_us += r->pred[i].time_us + tk->ends_us;
        r->kernel_us += r->pred[i].time_us + tk->ends_us - launch_us(&r->pred[i]);
        r->n = i + 1;
    }
    gc_tplan_free(&plan);
    return rc;
}

#define OPS_ADAPTER(nm)                                                                          \
    static int nm##_describe(const gc_arch_t *a, const gc_tvals_t *v, gc_tplan_t *plan,          \
                             gc_err_t *err)                                                      \
    {                                                                                            \
        return ops_describe_named(#nm, a, v, plan, err);                                         \
    }                                                                                            \
    static int nm##_predict(const gc_arch_t *a, const gc_tvals_t *v, const gc_predict_opts_t *o, \
                            gc_tresult_t *r, gc_err_t *err)                                      \
    {                                                                                            \
        return ops_predict_named(#nm, a, v, o, r, err);                                          \
    }
OPS_ADAPTER(attention)
OPS_ADAPTER(softmax)
OPS_ADAPTER(layernorm)
OPS_ADAPTER(rowsum)
OPS_ADAPTER(elementwise)
OPS_ADAPTER(transpose)
OPS_ADAPTER(conv2d)

/* ---- the registry ---- */

#define OPS_ENTRY(nm, usage, summary) \
    {#nm, usage, summary, ops_opts, 1, NULL, nm##_describe, nm##_predict}
static const gc_template_t registry[] = {
    {"gemm", "gemm --m M --n N --k K --dtype f16|bf16|tf32|f32|f8e4m3|i8 [--batch B] "
             "[--layout nn|nt|tn|tt]",
     "C = A*B as a vendor library would run it", gemm_opts, 0, gemm_check, gemm_describe, gemm_predict},
    {"stream", "stream --op copy|triad|reduce --bytes N",
     "a bandwidth-tuned copy, triad or reduce over arrays of N bytes", stream_opts, 0,
     stream_check, stream_describe, stream_predict},
    OPS_ENTRY(attention,
              "attention --batch B --heads H --seq S --head-dim D [--causal] --dtype f16|bf16",
              "FlashAttention-2 forward"),
    OPS_ENTRY(softmax, "softmax --rows R --cols C --dtype f16|bf16|f32", "row softmax"),
    OPS_ENTRY(layernorm, "layernorm --rows R --cols C --dtype f16|bf16|f32", "row layernorm"),
    OPS_ENTRY(rowsum, "rowsum --rows R --cols C --dtype f16|bf16|f32", "row sum"),
    OPS_ENTRY(elementwise, "elementwise --op gelu|relu|add|mul|exp --n N --dtype f16|bf16|f32",
              "one elementwise op"),
    OPS_ENTRY(transpose, "transpose --rows R --cols C --dtype f16|bf16|f32", "2-D transpose"),
    OPS_ENTRY(conv2d,
              "conv2d --n N --c C --h H --w W --k K --r R --s S --stride U --pad P "
              "--dtype f16|bf16",
              "NHWC implicit-GEMM convolution"),
};
#undef OPS_ENTRY
#define NREG ((int)(sizeof(registry) / sizeof(registry[0])))

const gc_template_t *gc_template_all(int *n)
{
    *n = NREG;
    return registry;
}

const gc_template_t *gc_template_find(const char *name)
{
    for (int i = 0; name && i < NREG; i++)
        if (!strcmp(registry[i].name, name))
            return &registry[i];
    return NULL;
}

int gc_template_predict(const gc_template_t *t, const gc_arch_t *a, const gc_tvals_t *v,
                        const gc_predict_opts_t *o, gc_tresult_t *r, gc_err_t *err)
{
    memset(r, 0, sizeof(*r));
    r->template_name = t->name;
    int rc = t->predict(a, v, o, r, err);
    if (!rc)
        rc = gc_tresult_check(r, err);
    if (rc)
        gc_tresult_fini(r);
    return rc;
}

int gc_template_describe(const gc_template_t *t, const gc_arch_t *a, const gc_tvals_t *v,
                         gc_tplan_t *plan, gc_err_t *err)
{
    memset(plan, 0, sizeof(*plan));
    return t->describe(a, v, plan, err);
}

/* ---- checks and output ---- */

int gc_prediction_check(const gc_prediction_t *p, gc_err_t *err)
{
    const char *bad = NULL;
    double v = 0;
    const double pos[] = {p->cycles, p->time_us, p->clock_mhz};
    const char *const pos_name[] = {"cycles", "time_us", "clock_mhz"};
    for (int i = 0; i < 3 && !bad; i++)
        if (!(isfinite(pos[i]) && pos[i] > 0))
            bad = pos_name[i], v = pos[i];
    const double nonneg[] = {p->blocks, p->waves, p->l2_bytes, p->dram_bytes, p->tensor_fma};
    const char *const nonneg_name[] = {"blocks", "waves", "l2_bytes", "dram_bytes", "tensor_fma"};
    for (int i = 0; i < 5 && !bad; i++)
        if (!(isfinite(nonneg[i]) && nonneg[i] >= 0))
            bad = nonneg_name[i], v = nonneg[i];
    for (int r = 0; r < GC_R_N && !bad; r++)
        if (!(isfinite(p->breakdown[r]) && isfinite(p->busy[r]) && isfinite(p->util[r])))
            bad = gc_predict_resource(r), v = p->busy[r];
    if (!bad)
        return 0;
    return gc_err_set(err, GC_EINPUT,
                      "%s on %s: the prediction's %s is %g, not a finite positive number (a "
                      "value of the arch or the kernel is outside its physical range: check it)",
                      p->kernel, p->arch, bad, v);
}

void gc_tresult_fini(gc_tresult_t *r)
{
    free(r->gemm);
    r->gemm = NULL;
}

int gc_tresult_check(const gc_tresult_t *r, gc_err_t *err)
{
    if (r->multi) { /* each kernel was checked by gc_predict; the sums too */
        if (isfinite(r->time_us) && r->time_us > 0 && isfinite(r->kernel_us) && r->kernel_us > 0)
            return 0;
        return gc_err_set(err, GC_EINPUT,
                          "%s on %s: the operator's time is %g us, not a finite positive number "
                          "(a value of the arch is outside its physical range: check it)",
                          r->template_name, r->n ? r->pred[0].arch : "?", r->time_us);
    }
    for (int i = 0; r->gemm && i < r->gemm->n_kernels; i++)
        if (gc_prediction_check(&r->gemm->kern[i].pred, err))
            return err ? err->code : GC_EINPUT;
    if (r->gemm)
        return 0;
    for (int i = 0; i < r->n; i++)
        if (gc_prediction_check(&r->pred[i], err))
            return err ? err->code : GC_EINPUT;
    return 0;
}

void gc_tresult_print_text(const gc_tresult_t *r, FILE *fp)
{
    if (r->gemm) {
        gc_gemm_print_text(r->gemm, fp);
        return;
    }
    if (!r->multi) {
        gc_predict_print_text(&r->pred[0], fp);
        if (r->text[0])
            fputs(r->text, fp);
        return;
    }
    fprintf(fp, "%s on %s: %.2f us (%d kernel%s; %.2f us on the GPU without launches)\n",
            r->template_name, r->pred[0].arch, r->time_us, r->n, r->n > 1 ? "s" : "",
            r->kernel_us);
    for (int i = 0; i < r->n; i++) {
        const gc_tkernel_t *k = &r->k[i];
        const gc_prediction_t *p = &r->pred[i];
        fprintf(fp,
                "  %-9s %s: grid [%ld, %ld, %ld] x block [%ld, %ld, %ld], %.2f us (%.2f us "
                "without the launch), %s-bound, %d blocks/SM\n",
                k->role, k->name, k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1],
                k->block[2], p->time_us + k->ends_us, p->time_us + k->ends_us - launch_us(p),
                gc_predict_resource(p->bound), p->blocks_per_sm);
    }
    fprintf(fp, "  total: %.2f us\n", r->time_us);
}

/* the JSON text: predict_json.c */
void gc_tresult_print_json(const gc_tresult_t *r, FILE *fp)
{
    gc_jbuf_t jb;
    gc_jbuf_init(&jb, 0);
    gc_tresult_json(&jb, r);
    gc_jbuf_write(&jb, fp);
    gc_jbuf_fini(&jb);
}
