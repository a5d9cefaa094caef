/* cmd_predict.c - `gpucal predict`: a kernel description, or the gemm and
 * stream templates, on an architecture (model/predict.h). */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../arch/arch.h"
#include "../model/predict/kernel.h"
#include "../model/predict/machine.h"
#include "../model/predict/predict.h"
#include "../model/predict/template.h"
#include "cli.h"

void gc_usage_predict(FILE *fp)
{
    fprintf(fp,
            "usage: gpucal predict KERNEL.yaml|- --arch NAME [--format text|json] [--clock MHZ]\n"
            "                           [--period-us US] [--set NAME=VALUE]... [--verbose]\n"
            "       gpucal predict gemm --m M --n N --k K --dtype f16|bf16|tf32|f32|f8e4m3|i8\n"
            "                           [--batch B] [--layout nn|nt|tn|tt]\n"
            "                           --arch NAME [--format text|json] [--clock MHZ] [--period-us US]\n"
            "       gpucal predict stream --op copy|triad|reduce --bytes N --arch NAME\n"
            "                           [--format text|json] [--clock MHZ] [--period-us US]\n"
            "       gpucal predict OP ARGS --arch NAME [--format text|json] [--clock MHZ] [--period-us US]\n"
            "                           (OP ARGS: see `gpucal describe --help`)\n"
            "       gpucal predict --batch FILE|- [--arch NAME] [--clock MHZ] [--period-us US]\n\n"
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
            "  --batch FILE  JSON lines in, one request each ({\"template\": \"gemm\", \"m\": ...,\n"
            "                \"arch\": NAME} or {\"kernel\": PATH, \"arch\": NAME}; - reads standard\n"
            "                input); one JSON line out per request and arch, with \"line\": N\n"
            "                (README.md, Library); --arch: the arch of requests without one\n\n"
            "  --arch NAME   a shipped arch (gpucal arch list) or a path to an arch file;\n"
            "                a,b,c predicts on each (given once)\n"
            "  --format      text (default) or json (keys documented in model/kernels/README.md)\n"
            "  --clock MHZ   run at this SM clock (e.g. a locked clock) instead of the\n"
            "                arch's sustained clock for the kernel's load class\n"
            "  --period-us US the kernel starts once every US microseconds (how often the\n"
            "                caller launches it); a shorter kernel leaves the GPU idle between,\n"
            "                which lowers the power it draws (default: back to back). Only\n"
            "                an arch with a power model (sm.power_limit_w) uses it\n"
            "  --set N=V     give the description's parameter N (under params:) the value V,\n"
            "                a number or an expression over the parameters (repeatable)\n"
            "  --verbose     text output also lists the values derived because the arch\n"
            "                file lacks them (JSON always has them, under \"derived\")\n\n"
            "gpucal predict --vocabulary prints every op class, the keys each takes, the\n"
            "alu names and the types a description may use (Markdown).\n");
}

typedef struct args {
    const char *arch, *format, *batch;
    double clock, period; /* --clock MHz, --period-us us (0: not given) */
    int first; /* index of the first positional argument */
    int verbose;
    const char *set[GC_KERNEL_PARAMS_MAX];
    int n_set;
    gc_tvals_t tv; /* the template's options (template.h) */
} args_t;

enum { P_ARCH = 256, P_FORMAT, P_CLOCK, P_PERIOD, P_HELP, P_VERBOSE, P_SET, P_BATCH, P_TOPT };
#define P_UNION_MAX 32

/* The options of `gpucal predict`: its own, then the union of the options
 * of the templates it parses itself (gemm, stream: the registry's order,
 * first owner kept); the operators parse in cmd_ops.c. */
static const struct option *predict_options(const gc_topt_t **uopt,
                                            const gc_template_t **owner)
{
    static struct option opts[9 + P_UNION_MAX];
    static const struct option own[] = {
        {"arch", required_argument, NULL, P_ARCH},   {"format", required_argument, NULL, P_FORMAT},
        {"clock", required_argument, NULL, P_CLOCK}, {"help", no_argument, NULL, P_HELP},
        {"verbose", no_argument, NULL, P_VERBOSE},   {"set", required_argument, NULL, P_SET},
        {"batch", required_argument, NULL, P_BATCH}, {"period-us", required_argument, NULL, P_PERIOD}};
    int n = 0, nt;
    for (; n < 8; n++)
        opts[n] = own[n];
    const gc_template_t *all = gc_template_all(&nt);
    int nu = 0;
    for (int t = 0; t < nt; t++) {
        for (const gc_topt_t *o = all[t].opts; !all[t].cli_ops && o->name; o++) {
            int seen = 0;
            for (int j = 0; j < nu; j++)
                seen |= !strcmp(uopt[j]->name, o->name);
            if (seen || nu == P_UNION_MAX - 1)
                continue;
            uopt[nu] = o;
            owner[nu] = &all[t];
            opts[n++] = (struct option){o->name, o->type == GC_TOPT_FLAG ? no_argument
                                                                           : required_argument,
                                        NULL, P_TOPT + nu};
            nu++;
        }
    }
    opts[n] = (struct option){NULL, 0, NULL, 0};
    return opts;
}

/* A template option of the union: stored when it is t's, else an error
 * naming the template it belongs to. 0 ok, -1 error printed. */
static int parse_topt(const char *cmd, const gc_template_t *t, const gc_topt_t *u,
                      const gc_template_t *owner, const char *val, args_t *a)
{
    const gc_topt_t *o = t ? gc_template_opt(t, u->name) : NULL;
    if (!o) {
        gc_cli_usage_error(cmd, "--%s belongs to `gpucal predict %s`", u->name, owner->name);
        return -1;
    }
    gc_err_t e;
    gc_err_clear(&e);
    if (gc_tvals_set(&a->tv, o, val, &e)) {
        gc_cli_usage_error(cmd, "%s", e.msg);
        return -1;
    }
    return 0;
}

/* Template option `name` of the union (an option spelled like one of
 * predict's own). 0 ok, -1 error printed. */
static int parse_union(const char *cmd, const gc_template_t *t, const char *name,
                       const gc_topt_t **uopt, const gc_template_t **owner, const char *val,
                       args_t *a)
{
    for (int i = 0; i < P_UNION_MAX && uopt[i]; i++)
        if (!strcmp(uopt[i]->name, name))
            return parse_topt(cmd, t, uopt[i], owner[i], val, a);
    gc_cli_usage_error(cmd, "unknown option '--%s'", name);
    return -1;
}

/* --set NAME=VALUE (kernel descriptions only). 0 ok, -1 error printed. */
static int parse_set(const char *cmd, const gc_template_t *t, const char *val, args_t *a)
{
    if (t) {
        gc_cli_usage_error(cmd, "--set belongs to `gpucal predict KERNEL.yaml`");
        return -1;
    }
    if (!strchr(val, '=') || val[0] == '=') {
        gc_cli_usage_error(cmd, "--set takes NAME=VALUE, got '%s'", val);
        return -1;
    }
    if (a->n_set == GC_KERNEL_PARAMS_MAX) {
        gc_cli_usage_error(cmd, "at most %d --set", GC_KERNEL_PARAMS_MAX);
        return -1;
    }
    a->set[a->n_set++] = val;
    return 0;
}

/* One of predict's own options with a value. 0 ok, -1 error printed. */
static int parse_own(const char *cmd, int ch, const char *val, args_t *a)
{
    switch (ch) {
    case P_ARCH:
        if (a->arch) {
            gc_cli_usage_error(cmd, "--arch given twice (for several archs give --arch a,b,c)");
            return -1;
        }
        a->arch = val;
        return 0;
    case P_FORMAT:
        if (strcmp(val, "text") && strcmp(val, "json")) {
            gc_cli_usage_error(cmd, "unknown --format '%s' (text or json)", val);
            return -1;
        }
        a->format = val;
        return 0;
    case P_BATCH:
        a->batch = val;
        return 0;
    case P_PERIOD:
        return gc_cli_rate(cmd, "--period-us", val, &a->period);
    default: /* P_CLOCK */
        return gc_cli_rate(cmd, "--clock", val, &a->clock);
    }
}

/* Parse argv for template t (NULL: a kernel description). 0 ok, 1 help
 * printed, -1 error printed. */
static int parse(const char *cmd, int argc, char **argv, const gc_template_t *t, args_t *a)
{
    const gc_topt_t *uopt[P_UNION_MAX] = {0};
    const gc_template_t *owner[P_UNION_MAX] = {0};
    const struct option *opts = predict_options(uopt, owner);
    memset(a, 0, sizeof(*a));
    a->format = "text";
    opterr = 0;
    optind = 0;
    int ch, bad = 0;
    while (!bad && (ch = getopt_long(argc, argv, "hv", opts, NULL)) != -1) {
        if (ch == 'v' || ch == P_VERBOSE)
            a->verbose = 1;
        else if (ch == 'h' || ch == P_HELP) {
            gc_usage_predict(stdout);
            return 1;
        } else if (ch == P_SET)
            bad = parse_set(cmd, t, optarg, a);
        else if (ch >= P_TOPT)
            bad = parse_topt(cmd, t, uopt[ch - P_TOPT], owner[ch - P_TOPT], optarg, a);
        else if (ch == P_BATCH && t) /* a template's --batch (gemm: batch count) */
            bad = parse_union(cmd, t, "batch", uopt, owner, optarg, a);
        else if (ch >= P_ARCH && ch < P_TOPT)
            bad = parse_own(cmd, ch, optarg, a);
        else {
            gc_cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
            return -1;
        }
    }
    if (bad)
        return -1;
    a->first = optind;
    if (!a->arch && !a->batch) {
        gc_cli_usage_error(cmd, "--arch NAME is required (see `gpucal arch list`)");
        return -1;
    }
    return 0;
}

/* The next name of the comma-separated arch list at *at into buf; 0 when
 * the list is done. */
static int next_arch(const char **at, char *buf, size_t n)
{
    const char *s = *at;
    if (!s || !*s)
        return 0;
    const char *c = strchr(s, ',');
    size_t len = c ? (size_t)(c - s) : strlen(s);
    snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), s);
    *at = c ? c + 1 : s + len;
    return 1;
}

/* Open an arch for predictions (the machine resolved once). */
static int open_arch(const char *name, gc_arch_t **arch, gc_err_t *err)
{
    if (gc_arch_open(arch, name, err) || gc_machine_attach(*arch, err)) {
        gc_arch_destroy(*arch);
        *arch = NULL;
        return err->code;
    }
    return 0;
}

static int emit(const gc_prediction_t *p, const args_t *a)
{
    gc_err_t e;
    gc_err_clear(&e);
    if (gc_prediction_check(p, &e))
        return gc_cli_fail(&e);
    if (!strcmp(a->format, "json")) {
        gc_predict_print_json(p, NULL, stdout);
    } else {
        gc_predict_print_text(p, stdout);
        if (a->verbose)
            gc_predict_print_derived(p, stdout);
    }
    return fflush(stdout) == 0 ? 0 : 1;
}

/* Predict the loaded description k on one arch and print it. */
static int predict_file_on(const char *name, const gc_kernel_t *k, const args_t *a)
{
    gc_err_t err;
    gc_err_clear(&err);
    gc_arch_t *arch = NULL;
    if (open_arch(name, &arch, &err))
        return gc_cli_fail(&err);
    gc_predict_opts_t o = {a->clock, a->period};
    gc_prediction_t p;
    int st = gc_predict(arch, k, &o, &p, &err) ? gc_cli_fail(&err) : emit(&p, a);
    gc_arch_destroy(arch);
    return st;
}

static int predict_file(int argc, char **argv)
{
    const char *cmd = "gpucal predict";
    args_t a;
    int rc = parse(cmd, argc, argv, NULL, &a);
    if (rc)
        return rc > 0 ? 0 : 2;
    if (a.batch)
        return gc_cli_batch(cmd, a.batch, a.arch, a.clock, a.period, argc - a.first,
                            argv + a.first);
    if (a.first >= argc)
        return gc_cli_usage_error(cmd, "missing KERNEL.yaml (or gemm, stream)");
    if (a.first + 1 < argc)
        return gc_cli_usage_error(cmd, "unexpected argument '%s'", argv[a.first + 1]);
    gc_err_t err;
    gc_err_clear(&err);
    gc_kernel_t *k = NULL;
    gc_kernel_opts_t ko = {a.set, a.n_set};
    if (gc_kernel_load_opts(&k, argv[a.first], &ko, &err))
        return gc_cli_fail(&err);
    char name[4096];
    int st = 0;
    for (const char *at = a.arch; !st && next_arch(&at, name, sizeof(name));)
        st = predict_file_on(name, k, &a);
    gc_kernel_destroy(k);
    return st;
}

/* Predict template t on one arch and print it. */
static int predict_template_on(const char *cmd, const gc_template_t *t, const char *name,
                               const args_t *a)
{
    gc_err_t err;
    gc_err_clear(&err);
    gc_arch_t *arch = NULL;
    if (open_arch(name, &arch, &err))
        return gc_cli_fail(&err);
    gc_predict_opts_t o = {a->clock, a->period};
    gc_tresult_t *r = malloc(sizeof(*r));
    int st;
    if (!r)
        st = gc_cli_fail(&(gc_err_t){GC_ENOMEM, 0, "out of memory"});
    else if (gc_template_predict(t, arch, &a->tv, &o, r, &err))
        st = err.code == GC_EUSAGE ? gc_cli_usage_error(cmd, "%s", err.msg) : gc_cli_fail(&err);
    else {
        if (!strcmp(a->format, "json"))
            gc_tresult_print_json(r, stdout);
        else
            gc_tresult_print_text(r, stdout);
        if (!r->multi && a->verbose && strcmp(a->format, "json"))
            gc_predict_print_derived(&r->pred[0], stdout);
        st = fflush(stdout) == 0 ? 0 : 1;
        gc_tresult_fini(r);
    }
    free(r);
    gc_arch_destroy(arch);
    return st;
}

/* `gpucal predict TEMPLATE ...` for the templates parsed here (gemm, stream). */
static int predict_template(const gc_template_t *t, int argc, char **argv)
{
    char cmd[64];
    snprintf(cmd, sizeof(cmd), "gpucal predict %s", t->name);
    args_t a;
    int rc = parse(cmd, argc, argv, t, &a);
    if (rc)
        return rc > 0 ? 0 : 2;
    if (a.first < argc)
        return gc_cli_usage_error(cmd, "unexpected argument '%s'", argv[a.first]);
    if (a.batch)
        return gc_cli_usage_error(cmd, "--batch takes no template (give it in each request)");
    gc_err_t err;
    gc_err_clear(&err);
    if (t->check && t->check(&a.tv, &err))
        return gc_cli_usage_error(cmd, "%s", err.msg);
    char name[4096];
    int st = 0;
    for (const char *at = a.arch; !st && next_arch(&at, name, sizeof(name));)
        st = predict_template_on(cmd, t, name, &a);
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
    const gc_template_t *t = argc > 1 ? gc_template_find(argv[1]) : NULL;
    if (t && t->cli_ops) /* operator templates: cmd_ops.c */
        return gc_ops_cmd_predict(argc - 1, argv + 1);
    if (t)
        return predict_template(t, argc - 1, argv + 1);
    return predict_file(argc, argv);
}
