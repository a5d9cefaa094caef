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
#include "../model/predict/machine.h"
#include "../model/predict/ops.h"
#include "../model/predict/predict.h"
#include "../model/predict/template.h"
#include "cli.h"

void gc_usage_describe(FILE *fp)
{
    fprintf(fp,
            "usage: gpucal describe OP ARGS --arch NAME\n\n"
            "Write the kernel descriptions (schema gpucal-kernel/1, model/kernels/README.md)\n"
            "that a library launches for an operator call on an arch, one YAML document per\n"
            "kernel separated by '---', so that what the template assumed can be read and\n"
            "edited; `gpucal predict FILE --arch NAME` predicts a saved one (without the\n"
            "kernel's two ends, which `predict OP` adds: ends_us). OP ARGS:\n\n%s"
            "  gemm --m M --n N --k K --dtype D [--batch B] [--layout nn|nt|tn|tt]\n"
            "  stream --op copy|triad|reduce --bytes N\n\n"
            "  --l2 cold|warm  every operator: the call's data comes from DRAM (default), or\n"
            "                sits in the L2 at launch (a loop over the same small tensors, an\n"
            "                activation the previous kernel just wrote; only where it fits)\n"
            "  --arch NAME   a shipped arch (gpucal arch list) or a path to an arch file\n",
            gc_ops_usage());
}

typedef struct opargs {
    const gc_template_t *t;
    gc_tvals_t tv;
    const char *arch, *format;
    double clock, period; /* --clock MHz, --period-us us (0: not given) */
} opargs_t;

enum { O_ARCH = 256, O_FORMAT, O_CLOCK, O_PERIOD, O_HELP, O_TOPT };

/* The templates' options (the registry's, template.h: the operators', gemm's
 * and stream's, each name once), then arch, format, clock and help; opt[i]
 * is the option of entry i. parse() refuses one the call's template lacks. */
static const struct option *ops_options(const gc_topt_t **opt, int max)
{
    static struct option opts[64];
    static const struct option own[] = {
        {"arch", required_argument, NULL, O_ARCH}, {"format", required_argument, NULL, O_FORMAT},
        {"clock", required_argument, NULL, O_CLOCK}, {"help", no_argument, NULL, O_HELP},
        {"period-us", required_argument, NULL, O_PERIOD}};
    int nt, n = 0;
    const gc_template_t *all = gc_template_all(&nt);
    for (int t = 0; t < nt; t++) {
        for (const gc_topt_t *o = all[t].opts; all[t].describe && o->name && n < max; o++) {
            int seen = 0;
            for (int j = 0; j < n; j++)
                seen |= !strcmp(opt[j]->name, o->name);
            if (seen)
                continue;
            opt[n] = o;
            opts[n] = (struct option){o->name,
                                      o->type == GC_TOPT_FLAG ? no_argument : required_argument,
                                      NULL, O_TOPT + n};
            n++;
        }
    }
    for (int i = 0; i < 5; i++)
        opts[n++] = own[i];
    opts[n] = (struct option){NULL, 0, NULL, 0};
    return opts;
}

/* One of the command's own options with a value. 0 ok, -1 error printed. */
static int parse_own(const char *cmd, int ch, const char *val, opargs_t *o)
{
    if (ch == O_ARCH) {
        if (o->arch) {
            gc_cli_usage_error(cmd, "--arch given twice (for several archs give --arch a,b,c)");
            return -1;
        }
        o->arch = val;
    } else if (ch == O_FORMAT) {
        if (strcmp(val, "text") && strcmp(val, "json")) {
            gc_cli_usage_error(cmd, "unknown --format '%s' (text or json)", val);
            return -1;
        }
        o->format = val;
    } else if (ch == O_PERIOD) {
        return gc_cli_rate(cmd, "--period-us", val, &o->period);
    } else {
        return gc_cli_rate(cmd, "--clock", val, &o->clock);
    }
    return 0;
}

/* Parse argv (argv[0] = the operator). 0 ok, 1 help printed, -1 error printed. */
static int parse(const char *cmd, int argc, char **argv, opargs_t *o)
{
    const gc_topt_t *topt[48];
    const struct option *longopts = ops_options(topt, 48);
    memset(o, 0, sizeof(*o));
    o->t = gc_template_find(argv[0]);
    o->format = "text";
    opterr = 0;
    optind = 1;
    int ch;
    while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if (ch >= O_TOPT) {
            /* the call's template's own spec of the option (templates share names,
             * not ranges: gemm's --n is a matrix size, elementwise's a count) */
            const gc_topt_t *spec = o->t ? gc_template_opt(o->t, topt[ch - O_TOPT]->name) : NULL;
            gc_err_t e;
            gc_err_clear(&e);
            if (!spec) {
                gc_cli_usage_error(cmd, "--%s is not an option of %s (usage: %s)",
                                   topt[ch - O_TOPT]->name, o->t ? o->t->name : argv[0],
                                   o->t ? o->t->usage : "see --help");
                return -1;
            }
            if (gc_tvals_set(&o->tv, spec, optarg, &e)) {
                gc_cli_usage_error(cmd, "%s", e.msg);
                return -1;
            }
        } else if (ch == 'h' || ch == O_HELP) {
            return 1;
        } else if (ch >= O_ARCH && ch < O_TOPT) {
            if (parse_own(cmd, ch, optarg, o))
                return -1;
        } else {
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

/* The next name of a comma-separated arch list at *at; 0 when done. */
static int next_arch(const char **at, char *buf, size_t n)
{
    const char *s = *at;
    if (!*s)
        return 0;
    const char *c = strchr(s, ',');
    size_t len = c ? (size_t)(c - s) : strlen(s);
    snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), s);
    *at = c ? c + 1 : s + len;
    return 1;
}

/* Open the arch called name; print a failure. 0 ok, else the exit status. */
static int open_arch(const char *name, gc_arch_t **arch)
{
    gc_err_t err;
    gc_err_clear(&err);
    *arch = NULL;
    if (gc_arch_open(arch, name, &err) || gc_machine_attach(*arch, &err)) {
        gc_arch_destroy(*arch);
        *arch = NULL;
        return gc_cli_fail(&err);
    }
    return 0;
}

/* Print a template error: usage errors as such. Returns the exit status. */
static int fail(const char *cmd, const gc_err_t *err)
{
    return err->code == GC_EUSAGE ? gc_cli_usage_error(cmd, "%s", err->msg) : gc_cli_fail(err);
}

/* Write the kernels of o's call on one arch (the YAML of `describe`). */
static int describe_on(const char *cmd, const opargs_t *o, const char *name, int argc,
                       char **argv)
{
    gc_arch_t *arch;
    int st = open_arch(name, &arch);
    if (st)
        return st;
    gc_tplan_t plan;
    gc_err_t err;
    gc_err_clear(&err);
    if (gc_template_describe(o->t, arch, &o->tv, &plan, &err)) {
        st = fail(cmd, &err);
    } else {
        for (int i = 0; i < plan.n; i++) {
            if (i)
                fputs("---\n", stdout);
            printf("# kernel %d of %d (%s) of `gpucal describe", i + 1, plan.n, plan.role[i]);
            for (int j = 1; j < argc; j++)
                printf(" %s", argv[j]);
            printf("`\n");
            gc_kernel_write(plan.k[i], stdout);
        }
    }
    gc_tplan_free(&plan);
    gc_arch_destroy(arch);
    return st;
}

int gc_cmd_describe(int argc, char **argv)
{
    const char *cmd = "gpucal describe";
    if (argc < 2 || gc_cli_is_help(argv[1])) {
        gc_usage_describe(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const gc_template_t *t = gc_template_find(argv[1]);
    if (!t || !t->describe)
        return gc_cli_usage_error(cmd, "unknown template '%s' (attention, softmax, layernorm, "
                                  "rowsum, elementwise, transpose, conv2d, gemm, stream)",
                                  argv[1]);
    opargs_t o;
    int rc = parse(cmd, argc - 1, argv + 1, &o);
    if (rc > 0)
        gc_usage_describe(stdout);
    if (rc)
        return rc > 0 ? 0 : 2;
    char name[4096];
    int st = 0, n_arch = 0;
    for (const char *at = o.arch; !st && next_arch(&at, name, sizeof(name)); n_arch++) {
        if (n_arch)
            fputs("---\n", stdout); /* one YAML stream, the next arch's kernels */
        st = describe_on(cmd, &o, name, argc, argv);
    }
    return st ? st : fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}

/* Predict o's call on one arch and print it. */
static int predict_on(const char *cmd, const opargs_t *o, const char *name)
{
    gc_arch_t *arch;
    int st = open_arch(name, &arch);
    if (st)
        return st;
    gc_predict_opts_t po = {o->clock, o->period};
    gc_tresult_t *r = malloc(sizeof(*r));
    gc_err_t err;
    gc_err_clear(&err);
    if (!r)
        st = gc_cli_fail(&(gc_err_t){GC_ENOMEM, 0, "out of memory"});
    else if (gc_template_predict(o->t, arch, &o->tv, &po, r, &err))
        st = fail(cmd, &err);
    else {
        if (!strcmp(o->format, "json"))
            gc_tresult_print_json(r, stdout);
        else
            gc_tresult_print_text(r, stdout);
        st = fflush(stdout) == 0 ? 0 : 1;
        gc_tresult_fini(r);
    }
    free(r);
    gc_arch_destroy(arch);
    return st;
}

int gc_ops_cmd_predict(int argc, char **argv)
{
    const char *cmd = "gpucal predict";
    opargs_t o;
    int rc = parse(cmd, argc, argv, &o);
    if (rc > 0)
        gc_usage_describe(stdout);
    if (rc)
        return rc > 0 ? 0 : 2;
    char name[4096];
    int st = 0;
    for (const char *at = o.arch; !st && next_arch(&at, name, sizeof(name));)
        st = predict_on(cmd, &o, name);
    return st;
}
