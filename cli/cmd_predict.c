/* cmd_predict.c - `gpucal predict`: a kernel description, or the gemm and
 * stream templates, on an architecture (model/predict.h). */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "../arch/arch.h"
#include "../model/predict/gemm.h"
#include "../model/predict/kernel.h"
#include "../model/predict/machine.h"
#include "../model/predict/ops.h"
#include "../model/predict/predict.h"
#include "../model/predict/stream.h"
#include "cli.h"

void gc_usage_predict(FILE *fp)
{
    fprintf(fp,
            "usage: gpucal predict KERNEL.yaml|- --arch NAME [--format text|json] [--clock MHZ]\n"
            "                           [--set NAME=VALUE]... [--verbose]\n"
            "       gpucal predict gemm --m M --n N --k K --dtype f16|bf16|tf32|f32|f8e4m3|i8\n"
            "                           [--batch B] [--layout nn|nt|tn|tt]\n"
            "                           --arch NAME [--format text|json] [--clock MHZ]\n"
            "       gpucal predict stream --op copy|triad|reduce --bytes N --arch NAME\n"
            "                           [--format text|json] [--clock MHZ]\n"
            "       gpucal predict OP ARGS --arch NAME [--format text|json] [--clock MHZ]\n"
            "                           (OP ARGS: see `gpucal describe --help`)\n\n"
            "Predict a kernel's time on an architecture before the kernel runs: cycles,\n"
            "time at the sustained clock of its load class, the resource that bounds it and\n"
            "a stall stack (cycles per resource). The model and the description format are\n"
            "in model/kernels/README.md.\n\n"
            "  KERNEL.yaml   a kernel description (schema gpucal-kernel/1); - reads it from\n"
            "                standard input\n"
            "  gemm          C = A*B as a vendor library would run it: gpucal picks the\n"
            "                instruction, tile and pipeline for the arch and says which;\n"
            "                --batch B strided-batched (torch.bmm), --layout: A, B as\n"
            "                transposed views (t) or not (n); time_us is GPU time, the\n"
            "                launch is launch_us\n"
            "  stream        copy (b = a), triad (a = b + s*c) or reduce (sum of a) over\n"
            "                arrays of N bytes each\n\n"
            "  --arch NAME   a shipped arch (gpucal arch list) or a path to an arch file\n"
            "  --format      text (default) or json (keys documented in model/kernels/README.md)\n"
            "  --clock MHZ   run at this SM clock (e.g. a locked clock) instead of the\n"
            "                arch's sustained clock for the kernel's load class\n"
            "  --set N=V     give the description's parameter N (under params:) the value V,\n"
            "                a number or an expression over the parameters (repeatable)\n"
            "  --verbose     text output also lists the values derived because the arch\n"
            "                file lacks them (JSON always has them, under \"derived\")\n\n"
            "gpucal predict --vocabulary prints every op class, the keys each takes, the\n"
            "alu names and the types a description may use (Markdown).\n");
}

typedef struct args {
    const char *arch, *format, *dtype, *op, *layout;
    double clock;
    long m, n, k, batch;
    double bytes;
    int first; /* index of the first positional argument */
    int verbose;
    const char *set[GC_KERNEL_PARAMS_MAX];
    int n_set;
} args_t;

static int parse(const char *cmd, int argc, char **argv, int templ, args_t *a)
{
    static const struct option opts[] = {
        {"arch", required_argument, NULL, 'a'},  {"format", required_argument, NULL, 'f'},
        {"clock", required_argument, NULL, 'c'}, {"m", required_argument, NULL, 'M'},
        {"n", required_argument, NULL, 'N'},     {"k", required_argument, NULL, 'K'},
        {"dtype", required_argument, NULL, 'd'}, {"op", required_argument, NULL, 'o'},
        {"bytes", required_argument, NULL, 'b'}, {"help", no_argument, NULL, 'h'},
        {"verbose", no_argument, NULL, 'v'},     {"set", required_argument, NULL, 's'},
        {"batch", required_argument, NULL, 'B'}, {"layout", required_argument, NULL, 'L'},
        {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof(*a));
    a->format = "text";
    opterr = 0;
    optind = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "hv", opts, NULL)) != -1) {
        switch (ch) {
        case 'v':
            a->verbose = 1;
            break;
        case 's':
            if (templ != 0) {
                gc_cli_usage_error(cmd, "--set belongs to `gpucal predict KERNEL.yaml`");
                return -1;
            }
            if (!strchr(optarg, '=') || optarg[0] == '=') {
                gc_cli_usage_error(cmd, "--set takes NAME=VALUE, got '%s'", optarg);
                return -1;
            }
            if (a->n_set == GC_KERNEL_PARAMS_MAX) {
                gc_cli_usage_error(cmd, "at most %d --set", GC_KERNEL_PARAMS_MAX);
                return -1;
            }
            a->set[a->n_set++] = optarg;
            break;
        case 'h':
            gc_usage_predict(stdout);
            return 1;
        case 'a':
            a->arch = optarg;
            break;
        case 'f':
            if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
                gc_cli_usage_error(cmd, "unknown --format '%s' (text or json)", optarg);
                return -1;
            }
            a->format = optarg;
            break;
        case 'c': {
            char *e;
            a->clock = strtod(optarg, &e);
            if (e == optarg || *e || !(a->clock >= 1 && a->clock <= 10000)) {
                gc_cli_usage_error(cmd, "--clock takes a clock in MHz from 1 to 10000, got '%s'",
                                   optarg);
                return -1;
            }
            break;
        }
        case 'M':
        case 'N':
        case 'K': {
            long *dst = ch == 'M' ? &a->m : ch == 'N' ? &a->n : &a->k;
            const char *name = ch == 'M' ? "--m" : ch == 'N' ? "--n" : "--k";
            if (templ != 1) {
                gc_cli_usage_error(cmd, "%s belongs to `gpucal predict gemm`", name);
                return -1;
            }
            if (gc_cli_long(cmd, name, optarg, 1, 1L << 24, dst))
                return -1;
            break;
        }
        case 'B':
            if (templ != 1) {
                gc_cli_usage_error(cmd, "--batch belongs to `gpucal predict gemm`");
                return -1;
            }
            if (gc_cli_long(cmd, "--batch", optarg, 1, 1L << 24, &a->batch))
                return -1;
            break;
        case 'L':
            if (templ != 1) {
                gc_cli_usage_error(cmd, "--layout belongs to `gpucal predict gemm`");
                return -1;
            }
            if (gc_gemm_layout(optarg)) {
                gc_cli_usage_error(cmd, "unknown --layout '%s' (nn, nt, tn or tt)", optarg);
                return -1;
            }
            a->layout = optarg;
            break;
        case 'd':
            if (templ != 1) {
                gc_cli_usage_error(cmd, "--dtype belongs to `gpucal predict gemm`");
                return -1;
            }
            a->dtype = optarg;
            break;
        case 'o':
            if (templ != 2) {
                gc_cli_usage_error(cmd, "--op belongs to `gpucal predict stream`");
                return -1;
            }
            a->op = optarg;
            break;
        case 'b': {
            if (templ != 2) {
                gc_cli_usage_error(cmd, "--bytes belongs to `gpucal predict stream`");
                return -1;
            }
            long v;
            if (gc_cli_long(cmd, "--bytes", optarg, 16, 1L << 46, &v))
                return -1;
            a->bytes = (double)v;
            break;
        }
        default:
            gc_cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
            return -1;
        }
    }
    a->first = optind;
    if (!a->arch) {
        gc_cli_usage_error(cmd, "--arch NAME is required (see `gpucal arch list`)");
        return -1;
    }
    return 0;
}

/* 0 if every number of p is finite, the time positive and the rest not
 * negative; else one line naming the value and exit status 2. The arch
 * loader bounds every value (arch/README.md, Bounds), so this is the last
 * guard: gpucal never prints inf, NaN or a zero time as a prediction. */
static int check_finite(const gc_prediction_t *p)
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
    gc_err_t e;
    gc_err_clear(&e);
    gc_err_set(&e, GC_EINPUT,
               "%s on %s: the prediction's %s is %g, not a finite positive number (a value of "
               "the arch or the kernel is outside its physical range: check it)",
               p->kernel, p->arch, bad, v);
    return gc_cli_fail(&e);
}

static int emit(const gc_prediction_t *p, const char *extra_json, const char *extra_text,
                const args_t *a)
{
    const char *format = a->format;
    int st = check_finite(p);
    if (st)
        return st;
    if (!strcmp(format, "json")) {
        gc_predict_print_json(p, extra_json, stdout);
    } else {
        gc_predict_print_text(p, stdout);
        if (extra_text && extra_text[0])
            fputs(extra_text, stdout);
        if (a->verbose)
            gc_predict_print_derived(p, stdout);
    }
    return fflush(stdout) == 0 ? 0 : 1;
}

static int predict_file(int argc, char **argv)
{
    const char *cmd = "gpucal predict";
    args_t a;
    int rc = parse(cmd, argc, argv, 0, &a);
    if (rc)
        return rc > 0 ? 0 : 2;
    if (a.first >= argc)
        return gc_cli_usage_error(cmd, "missing KERNEL.yaml (or gemm, stream)");
    if (a.first + 1 < argc)
        return gc_cli_usage_error(cmd, "unexpected argument '%s'", argv[a.first + 1]);
    gc_err_t err;
    gc_err_clear(&err);
    gc_kernel_t *k = NULL;
    gc_arch_t *arch = NULL;
    gc_kernel_opts_t ko = {a.set, a.n_set};
    if (gc_kernel_load_opts(&k, argv[a.first], &ko, &err) || gc_arch_open(&arch, a.arch, &err) ||
        gc_machine_attach(arch, &err)) {
        gc_kernel_destroy(k);
        gc_arch_destroy(arch);
        return gc_cli_fail(&err);
    }
    gc_predict_opts_t o = {a.clock};
    gc_prediction_t p;
    int st;
    if (gc_predict(arch, k, &o, &p, &err))
        st = gc_cli_fail(&err);
    else
        st = emit(&p, NULL, NULL, &a);
    gc_kernel_destroy(k);
    gc_arch_destroy(arch);
    return st;
}

static int predict_gemm(int argc, char **argv)
{
    const char *cmd = "gpucal predict gemm";
    args_t a;
    int rc = parse(cmd, argc, argv, 1, &a);
    if (rc)
        return rc > 0 ? 0 : 2;
    if (a.first < argc)
        return gc_cli_usage_error(cmd, "unexpected argument '%s'", argv[a.first]);
    if (!a.m || !a.n || !a.k || !a.dtype)
        return gc_cli_usage_error(cmd, "--m, --n, --k and --dtype are required");
    gc_gemm_dtype_t dt;
    if (gc_gemm_dtype(a.dtype, &dt))
        return gc_cli_usage_error(cmd, "unknown --dtype '%s' (f16, bf16, tf32, f32, f8e4m3, i8)",
                                  a.dtype);
    gc_err_t err;
    gc_err_clear(&err);
    gc_arch_t *arch = NULL;
    if (gc_arch_open(&arch, a.arch, &err) || gc_machine_attach(arch, &err)) {
        gc_arch_destroy(arch);
        return gc_cli_fail(&err);
    }
    gc_predict_opts_t o = {a.clock};
    gc_gemm_args_t ga = {a.m, a.n, a.k, a.batch ? a.batch : 1, dt, "nn"};
    if (a.layout)
        snprintf(ga.layout, sizeof(ga.layout), "%s", a.layout);
    gc_gemm_result_t *g = malloc(sizeof(*g)); /* a few KiB: kept off the stack */
    int st = 0;
    if (!g) {
        gc_err_set(&err, GC_ENOMEM, "out of memory");
        st = gc_cli_fail(&err);
    } else if (gc_gemm_predict_call(arch, &ga, &o, g, &err)) {
        st = gc_cli_fail(&err);
    } else {
        for (int i = 0; i < g->n_kernels && !st; i++)
            st = check_finite(&g->kern[i].pred);
        if (!st && !strcmp(a.format, "json")) {
            gc_gemm_print_json(g, stdout);
        } else if (!st) {
            gc_gemm_print_text(g, stdout);
            if (a.verbose)
                gc_predict_print_derived(&g->pred, stdout);
        }
        if (!st)
            st = fflush(stdout) == 0 ? 0 : 1;
    }
    free(g);
    gc_arch_destroy(arch);
    return st;
}

static int predict_stream(int argc, char **argv)
{
    const char *cmd = "gpucal predict stream";
    args_t a;
    int rc = parse(cmd, argc, argv, 2, &a);
    if (rc)
        return rc > 0 ? 0 : 2;
    if (a.first < argc)
        return gc_cli_usage_error(cmd, "unexpected argument '%s'", argv[a.first]);
    if (!a.op || !(a.bytes > 0))
        return gc_cli_usage_error(cmd, "--op and --bytes are required");
    gc_stream_op_t op;
    if (gc_stream_op(a.op, &op))
        return gc_cli_usage_error(cmd, "unknown --op '%s' (copy, triad or reduce)", a.op);
    gc_err_t err;
    gc_err_clear(&err);
    gc_arch_t *arch = NULL;
    if (gc_arch_open(&arch, a.arch, &err) || gc_machine_attach(arch, &err)) {
        gc_arch_destroy(arch);
        return gc_cli_fail(&err);
    }
    gc_predict_opts_t o = {a.clock};
    gc_stream_result_t s;
    int st;
    if (gc_stream_predict(arch, op, a.bytes, &o, &s, &err)) {
        st = gc_cli_fail(&err);
    } else {
        char js[1024], tx[1024];
        gc_stream_describe(&s, js, sizeof(js), tx, sizeof(tx));
        st = emit(&s.pred, js, tx, &a);
    }
    gc_arch_destroy(arch);
    return st;
}

int gc_cmd_predict(int argc, char **argv)
{
    if (argc > 1 && gc_cli_is_help(argv[1])) {
        gc_usage_predict(stdout);
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "--vocabulary")) {
        gc_kernel_vocabulary(stdout);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (argc > 1 && !strcmp(argv[1], "gemm"))
        return predict_gemm(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "stream"))
        return predict_stream(argc - 1, argv + 1);
    if (argc > 1 && gc_ops_known(argv[1])) /* operator templates: cmd_ops.c */
        return gc_ops_cmd_predict(argc - 1, argv + 1);
    return predict_file(argc, argv);
}
