/* cmd_ops.c - the operator templates on the command line (model/ops.h):
 * `gpucal describe OP ARGS --arch NAME` writes the kernel descriptions an
 * operator call launches as YAML; `gpucal predict OP ARGS --arch NAME`
 * (called from cmd_predict.c) predicts them: each kernel and the total. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../arch/arch.h"
#include "../model/predict/kernel_emit.h"
#include "../model/predict/ops.h"
#include "../model/predict/predict.h"
#include "cli.h"

void gc_usage_describe(FILE *fp)
{
    fprintf(fp,
            "usage: gpucal describe OP ARGS --arch NAME\n\n"
            "Write the kernel descriptions (schema gpucal-kernel/1, model/kernels/README.md)\n"
            "that a library launches for an operator call on an arch, one YAML document per\n"
            "kernel separated by '---', so that what the template assumed can be read and\n"
            "edited; `gpucal predict FILE --arch NAME` predicts a saved one. OP ARGS:\n\n%s\n"
            "  --arch NAME   a shipped arch (gpucal arch list) or a path to an arch file\n",
            gc_ops_usage());
}

typedef struct opargs {
    gc_ops_args_t g;
    const char *arch, *format;
    double clock;
} opargs_t;

enum { O_BATCH = 256, O_HEADS, O_SEQ, O_HDIM, O_CAUSAL, O_ROWS, O_COLS, O_N, O_C, O_H, O_W,
       O_K, O_R, O_S, O_STRIDE, O_PAD, O_DTYPE, O_OP, O_ARCH, O_FORMAT, O_CLOCK, O_HELP };

static const struct option longopts[] = {
    {"batch", required_argument, NULL, O_BATCH}, {"heads", required_argument, NULL, O_HEADS},
    {"seq", required_argument, NULL, O_SEQ},     {"head-dim", required_argument, NULL, O_HDIM},
    {"causal", no_argument, NULL, O_CAUSAL},     {"rows", required_argument, NULL, O_ROWS},
    {"cols", required_argument, NULL, O_COLS},   {"n", required_argument, NULL, O_N},
    {"c", required_argument, NULL, O_C},         {"h", required_argument, NULL, O_H},
    {"w", required_argument, NULL, O_W},         {"k", required_argument, NULL, O_K},
    {"r", required_argument, NULL, O_R},         {"s", required_argument, NULL, O_S},
    {"stride", required_argument, NULL, O_STRIDE}, {"pad", required_argument, NULL, O_PAD},
    {"dtype", required_argument, NULL, O_DTYPE}, {"op", required_argument, NULL, O_OP},
    {"arch", required_argument, NULL, O_ARCH},   {"format", required_argument, NULL, O_FORMAT},
    {"clock", required_argument, NULL, O_CLOCK}, {"help", no_argument, NULL, O_HELP},
    {NULL, 0, NULL, 0}};

/* Where a size option is stored. */
static long *size_slot(gc_ops_args_t *g, int ch)
{
    switch (ch) {
    case O_BATCH: return &g->batch;
    case O_HEADS: return &g->heads;
    case O_SEQ: return &g->seq;
    case O_HDIM: return &g->head_dim;
    case O_ROWS: return &g->rows;
    case O_COLS: return &g->cols;
    case O_N: return &g->n;
    case O_C: return &g->c;
    case O_H: return &g->h;
    case O_W: return &g->w;
    case O_K: return &g->k;
    case O_R: return &g->r;
    case O_S: return &g->s;
    case O_STRIDE: return &g->stride;
    case O_PAD: return &g->pad;
    default: return NULL;
    }
}

/* Parse argv (argv[0] = the operator). 0 ok, 1 help printed, -1 error printed. */
static int parse(const char *cmd, int argc, char **argv, opargs_t *o)
{
    memset(o, 0, sizeof(*o));
    o->g.op = argv[0];
    o->g.pad = -1;
    o->format = "text";
    opterr = 0;
    optind = 1;
    int ch;
    while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        long *slot = size_slot(&o->g, ch);
        if (slot) {
            const char *nm = longopts[ch - O_BATCH].name;
            char opt[32];
            snprintf(opt, sizeof(opt), "--%s", nm);
            if (gc_cli_long(cmd, opt, optarg, ch == O_PAD ? 0 : 1, 1L << 40, slot))
                return -1;
            continue;
        }
        switch (ch) {
        case O_CAUSAL: o->g.causal = 1; break;
        case O_DTYPE: o->g.dtype = optarg; break;
        case O_OP: o->g.eop = optarg; break;
        case O_ARCH: o->arch = optarg; break;
        case 'h':
        case O_HELP: return 1;
        case O_FORMAT:
            if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
                gc_cli_usage_error(cmd, "unknown --format '%s' (text or json)", optarg);
                return -1;
            }
            o->format = optarg;
            break;
        case O_CLOCK: {
            char *e;
            o->clock = strtod(optarg, &e);
            if (e == optarg || *e || !(o->clock >= 1 && o->clock <= 10000)) {
                gc_cli_usage_error(cmd, "--clock takes a clock in MHz from 1 to 10000, got '%s'",
                                   optarg);
                return -1;
            }
            break;
        }
        default:
            gc_cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
            return -1;
        }
    }
    if (optind < argc) {
        gc_cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    if (!o->arch) {
        gc_cli_usage_error(cmd, "--arch NAME is required (see `gpucal arch list`)");
        return -1;
    }
    return 0;
}

/* Parse, open the arch, build the plan. 0 ok; else the exit status. */
static int setup(const char *cmd, int argc, char **argv, opargs_t *o, gc_arch_t **arch,
                 gc_ops_plan_t *plan)
{
    memset(plan, 0, sizeof(*plan));
    *arch = NULL;
    int rc = parse(cmd, argc, argv, o);
    if (rc > 0) {
        gc_usage_describe(stdout);
        return -1;
    }
    if (rc)
        return 2;
    gc_err_t err;
    gc_err_clear(&err);
    if (gc_arch_open(arch, o->arch, &err))
        return gc_cli_fail(&err);
    if (gc_ops_plan(*arch, &o->g, plan, &err)) {
        gc_ops_plan_free(plan);
        gc_arch_destroy(*arch);
        *arch = NULL;
        if (err.code == GC_EUSAGE)
            return gc_cli_usage_error(cmd, "%s", err.msg);
        return gc_cli_fail(&err);
    }
    return 0;
}

int gc_cmd_describe(int argc, char **argv)
{
    const char *cmd = "gpucal describe";
    if (argc < 2 || gc_cli_is_help(argv[1])) {
        gc_usage_describe(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!gc_ops_known(argv[1]))
        return gc_cli_usage_error(cmd, "unknown operator '%s' (attention, softmax, layernorm, "
                                  "rowsum, elementwise, transpose, conv2d)", argv[1]);
    opargs_t o;
    gc_arch_t *arch;
    gc_ops_plan_t plan;
    int rc = setup(cmd, argc - 1, argv + 1, &o, &arch, &plan);
    if (rc)
        return rc < 0 ? 0 : rc;
    for (int i = 0; i < plan.n; i++) {
        if (i)
            fputs("---\n", stdout);
        printf("# kernel %d of %d (%s) of `gpucal describe", i + 1, plan.n, plan.role[i]);
        for (int j = 1; j < argc; j++)
            printf(" %s", argv[j]);
        printf("`\n");
        gc_kernel_write(plan.k[i], stdout);
    }
    gc_ops_plan_free(&plan);
    gc_arch_destroy(arch);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* One kernel's prediction: its launch share, the rest (GPU time). */
static double launch_us(const gc_prediction_t *p)
{
    return p->clock_mhz > 0 ? p->breakdown[GC_R_LAUNCH] / p->clock_mhz : 0;
}

static void print_text(const opargs_t *o, const gc_ops_plan_t *plan, const gc_prediction_t *p,
                       const double *ends, double tot, double ktot)
{
    printf("%s on %s: %.2f us (%d kernel%s; %.2f us on the GPU without launches)\n", o->g.op,
           p[0].arch, tot, plan->n, plan->n > 1 ? "s" : "", ktot);
    for (int i = 0; i < plan->n; i++) {
        const gc_kernel_t *k = plan->k[i];
        printf("  %-9s %s: grid [%ld, %ld, %ld] x block [%ld, %ld, %ld], %.2f us (%.2f us "
               "without the launch), %s-bound, %d blocks/SM\n",
               plan->role[i], k->name, k->grid[0], k->grid[1], k->grid[2], k->block[0],
               k->block[1], k->block[2], p[i].time_us + ends[i],
               p[i].time_us + ends[i] - launch_us(&p[i]), gc_predict_resource(p[i].bound),
               p[i].blocks_per_sm);
    }
    printf("  total: %.2f us\n", tot);
}

static void print_json(const opargs_t *o, const gc_ops_plan_t *plan, const gc_prediction_t *p,
                       const double *ends, double tot, double ktot)
{
    printf("{\"schema\": \"gpucal-ops/1\", \"op\": \"%s\", \"arch\": \"%s\", \"kernels\": [\n",
           o->g.op, p[0].arch);
    for (int i = 0; i < plan->n; i++) {
        const gc_kernel_t *k = plan->k[i];
        printf("{\"role\": \"%s\", \"name\": \"%s\", \"grid\": [%ld, %ld, %ld], "
               "\"block\": [%ld, %ld, %ld], \"registers\": %.0f, \"time_us\": %.4f, "
               "\"kernel_us\": %.4f, \"launch_us\": %.4f, \"ends_us\": %.4f, "
               "\"prediction\": ",
               plan->role[i], k->name, k->grid[0], k->grid[1], k->grid[2], k->block[0],
               k->block[1], k->block[2], k->regs, p[i].time_us + ends[i],
               p[i].time_us + ends[i] - launch_us(&p[i]), launch_us(&p[i]), ends[i]);
        gc_predict_print_json(&p[i], NULL, stdout);
        printf("}%s\n", i + 1 < plan->n ? "," : "");
    }
    printf("], \"time_us\": %.4f, \"kernel_us\": %.4f}\n", tot, ktot);
}

int gc_ops_cmd_predict(int argc, char **argv)
{
    const char *cmd = "gpucal predict";
    opargs_t o;
    gc_arch_t *arch;
    gc_ops_plan_t plan;
    int rc = setup(cmd, argc, argv, &o, &arch, &plan);
    if (rc)
        return rc < 0 ? 0 : rc;
    gc_prediction_t p[GC_OPS_KERNELS_MAX];
    double ends[GC_OPS_KERNELS_MAX]; /* the kernel's two ends, us (gc_ops_ends_cyc) */
    gc_predict_opts_t po = {o.clock};
    double tot = 0, ktot = 0;
    gc_err_t err;
    gc_err_clear(&err);
    int st = 0;
    for (int i = 0; i < plan.n && !st; i++) {
        if (gc_predict(arch, plan.k[i], &po, &p[i], &err))
            st = gc_cli_fail(&err);
        else {
            ends[i] = p[i].clock_mhz > 0 ? gc_ops_ends_cyc(arch, plan.k[i]) / p[i].clock_mhz : 0;
            tot += p[i].time_us + ends[i];
            ktot += p[i].time_us + ends[i] - launch_us(&p[i]);
        }
    }
    if (!st) {
        if (!strcmp(o.format, "json"))
            print_json(&o, &plan, p, ends, tot, ktot);
        else
            print_text(&o, &plan, p, ends, tot, ktot);
        st = fflush(stdout) == 0 ? 0 : 1;
    }
    gc_ops_plan_free(&plan);
    gc_arch_destroy(arch);
    return st;
}
