/* cmd_plot.c - `gpucal plot latency|heatmap|hist|mma|all`: SVG charts of
 * traces and architectures, drawn by gnuplot (plot/plot.h). */
#define _GNU_SOURCE
#include <getopt.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../arch/arch.h"
#include "../util/iotrack.h"
#include "../model/predict/kernel.h"
#include "../model/predict/machine.h"
#include "../plot/plot.h"
#include "../util/fsio.h"
#include "cli.h"

#define CMD "gpucal plot"
#define MAX_IN 16

void gc_usage_plot(FILE *fp)
{
    fprintf(fp,
            "usage: gpucal plot roofline --arch NAME [KERNEL.yaml]... [--set N=V]... -o OUT.svg\n"
            "       gpucal plot stall --arch NAME[,NAME...] KERNEL.yaml... [--set N=V]... -o OUT.svg\n"
            "       gpucal plot validation [TABLE.csv]... -o OUT.svg\n"
            "       gpucal plot latency [--trace pchase.csv]... [--arch NAME]... -o OUT.svg\n"
            "       gpucal plot heatmap --trace mma.csv -o DIR\n"
            "       gpucal plot hist --trace pchase_fine.csv [--arch NAME] -o OUT.svg\n"
            "       gpucal plot mma --arch NAME... [--inst mma|mma.sp|wgmma|...] -o OUT.svg\n"
            "       gpucal plot all [--traces DIR] [--arch NAME]... -o DIR\n"
            "(each takes --force to replace existing files; OUT.png draws a PNG instead;\n"
            " heatmap and all take --png to write PNGs into DIR)\n\n"
            "Charts drawn by gnuplot (Debian, Ubuntu: apt-get install gnuplot-nox):\n"
            "  roofline    the arch's measured ceilings: the best dense tensor form per type,\n"
            "              CUDA-core fp64/fp32/half2 FMA, L1/shared/L2/DRAM bandwidth; each\n"
            "              KERNEL.yaml predicted on it and placed at its FLOP per DRAM byte\n"
            "  stall       stall-stack bars: one kernel on several archs, or several kernels\n"
            "              on one (or both)\n"
            "  validation  predicted vs measured time, log-log, y = x and a +-10 %% band, from\n"
            "              CSV tables with the columns name,predicted_us,measured_us[,gpu];\n"
            "              no TABLE: the project's own (model/validation/tables/*.csv)\n"
            "  latency  load latency vs array size: P-chase traces, and the arch files'\n"
            "           L1 / L2 / DRAM latencies as steps at their capacities\n"
            "  heatmap  ILP x warps throughput, one SVG per tensor form of an mma, mma_sp or\n"
            "           wgmma trace (DIR/heatmap-FORM.svg)\n"
            "  hist     fine-grained P-chase latency histogram with the arch's k-means\n"
            "           centres (L2 near/far hit/miss)\n"
            "  mma      completion latency and peak throughput per tensor form across\n"
            "           architectures (log axes; hatched and *: emulated on that GPU)\n"
            "  all      every chart its inputs allow: from DIR/pchase.csv, pchase_fine.csv,\n"
            "           mma.csv, mma_sp.csv, wgmma.csv and the archs\n"
            "Every chart has a title, axis labels with units and a footnote naming its\n"
            "inputs. Charts are written atomically and never replace a file without --force.\n\n"
            "  --set N=V  a parameter of the kernel descriptions (their params:)\n\n"
            "example: gpucal plot mma --arch ampere-a100 --arch hopper-h800 -o mma.svg\n"
            "         gpucal plot roofline --arch hopper-h100 model/kernels/h100_stream_copy.yaml -o r.png\n");
}

typedef struct popts {
    const char *trace[MAX_IN], *arch[MAX_IN], *out, *inst, *traces;
    int n_trace, n_arch, force, png;
    const char *pos[MAX_IN], *set[MAX_IN];
    int n_pos, n_set;
    char archbuf[1024]; /* --arch A,B,... split in place */
} popts_t;

/* --arch NAME or NAME,NAME,...: each name into o->arch. */
static int add_archs(popts_t *o, const char *v)
{
    size_t at = strlen(o->archbuf) + 1;
    if (o->n_arch == 0)
        at = 0;
    if (at + strlen(v) + 1 > sizeof(o->archbuf))
        return gc_cli_usage_error(CMD, "--arch: too long"), -1;
    char *s = o->archbuf + at;
    memcpy(s, v, strlen(v) + 1);
    for (char *tok = s, *c = s;; c++) {
        if (*c != ',' && *c)
            continue;
        int end = !*c;
        *c = '\0';
        if (!*tok)
            return gc_cli_usage_error(CMD, "--arch '%s': an empty name", v), -1;
        if (o->n_arch == MAX_IN)
            return gc_cli_usage_error(CMD, "at most %d architectures", MAX_IN), -1;
        o->arch[o->n_arch++] = tok;
        if (end)
            return 0;
        tok = c + 1;
    }
}

/* Before any work: every file named on the command line is an input, and
 * -o must be writable as what the mode writes (a file: not a folder, not an
 * input, not through a file; a folder: not a file). -1 (printed) or 0. */
static int outputs_first(const popts_t *o, int file_out)
{
    const char *const *lists[] = {o->trace, o->arch, o->pos};
    const int ns[] = {o->n_trace, o->n_arch, o->n_pos};
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < ns[l]; i++)
            gc_io_note_input(lists[l][i]);
    if (o->traces)
        gc_io_note_inputs_in(o->traces, ".csv");
    gc_err_t e;
    gc_err_clear(&e);
    struct stat st;
    if (file_out ? gc_io_check_output(o->out, &e) != 0
                 : stat(o->out, &st) == 0 && !S_ISDIR(st.st_mode) &&
                       gc_err_set(&e, GC_EINPUT,
                                  "%s: exists and is not a folder (give the name of a folder)",
                                  o->out)) {
        gc_cli_fail(&e);
        return -1;
    }
    return 0;
}

static int parse(int argc, char **argv, popts_t *o)
{
    static const struct option opts[] = {
        {"trace", required_argument, NULL, 't'}, {"traces", required_argument, NULL, 'T'},
        {"arch", required_argument, NULL, 'a'},  {"out", required_argument, NULL, 'o'},
        {"inst", required_argument, NULL, 'i'},  {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},        {"set", required_argument, NULL, 's'},
        {"png", no_argument, NULL, 'p'},
        {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof(*o));
    o->inst = "mma";
    opterr = 0;
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            gc_usage_plot(stdout);
            return 1;
        case 't':
            if (o->n_trace == MAX_IN)
                return gc_cli_usage_error(CMD, "at most %d --trace", MAX_IN), -1;
            o->trace[o->n_trace++] = optarg;
            break;
        case 'a':
            if (add_archs(o, optarg))
                return -1;
            break;
        case 's':
            if (o->n_set == MAX_IN)
                return gc_cli_usage_error(CMD, "at most %d --set", MAX_IN), -1;
            if (!strchr(optarg, '=') || optarg[0] == '=')
                return gc_cli_usage_error(CMD, "--set takes NAME=VALUE, got '%s'", optarg), -1;
            o->set[o->n_set++] = optarg;
            break;
        case 'T':
            o->traces = optarg;
            break;
        case 'o':
            o->out = optarg;
            break;
        case 'i':
            o->inst = optarg;
            break;
        case 'f':
            o->force = 1;
            break;
        case 'p':
            o->png = 1;
            break;
        case ':':
            gc_cli_usage_error(CMD, "option '%s' needs a value", argv[optind - 1]);
            return -1;
        default:
            gc_cli_usage_error(CMD, "unknown option '%s'", argv[optind - 1]);
            return -1;
        }
    }
    for (; optind < argc; optind++) {
        if (o->n_pos == MAX_IN)
            return gc_cli_usage_error(CMD, "at most %d files", MAX_IN), -1;
        o->pos[o->n_pos++] = argv[optind];
    }
    if (!o->out) {
        gc_cli_usage_error(CMD, "%s needs -o %s", argv[0],
                           strcmp(argv[0], "heatmap") && strcmp(argv[0], "all") ? "OUT.svg"
                                                                                : "DIR");
        return -1;
    }
    return outputs_first(o, strcmp(argv[0], "heatmap") && strcmp(argv[0], "all"));
}

/* parse for a chart that takes no file arguments: 0 to go on, 1 after
 * --help (exit 0), -1 after a usage error was printed (exit 2). */
static int parse_nopos(int argc, char **argv, popts_t *o)
{
    int p = parse(argc, argv, o);
    if (!p && o->n_pos)
        return gc_cli_usage_error(CMD, "unexpected argument '%s'", o->pos[0]), -1;
    return p;
}

static int load_archs(const popts_t *o, gc_arch_t **a, gc_err_t *e)
{
    for (int i = 0; i < o->n_arch; i++)
        if (gc_arch_open(&a[i], o->arch[i], e) != 0)
            return -1;
    return 0;
}

static void free_archs(gc_arch_t **a, int n)
{
    for (int i = 0; i < n; i++)
        gc_arch_destroy(a[i]);
}

/* One mode: parse, load, check gnuplot, draw. */
static int run(int argc, char **argv, int mode)
{
    popts_t o;
    int p = parse_nopos(argc, argv, &o);
    if (p)
        return p > 0 ? 0 : 2;
    if ((mode == 1 || mode == 2) && o.n_trace != 1)
        return gc_cli_usage_error(CMD, "%s takes exactly one --trace", argv[0]);
    if (mode == 0 && o.n_trace == 0 && o.n_arch == 0)
        return gc_cli_usage_error(CMD, "latency needs --trace pchase.csv or --arch NAME");
    if (mode == 3 && o.n_arch == 0)
        return gc_cli_usage_error(CMD, "mma needs at least one --arch");
    if (mode == 2 && o.n_arch > 1)
        return gc_cli_usage_error(CMD, "hist takes at most one --arch");
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *a[MAX_IN] = {0};
    int st = 0, rc = load_archs(&o, a, &e);
    if (!rc)
        rc = gc_plot_check(&e);
    int n = 0, flat = 0;
    if (!rc) {
        switch (mode) {
        case 0:
            rc = gc_plot_latency((const gc_arch_t *const *)a, o.n_arch, o.trace, o.n_trace, o.out,
                                 o.force, &e);
            n = 1;
            break;
        case 1:
            rc = gc_plot_heatmaps(o.trace[0], o.out, o.png ? "png" : "svg", o.force, &n, &flat,
                                  &e);
            break;
        case 2:
            rc = gc_plot_hist(o.trace[0], o.n_arch ? a[0] : NULL, o.out, o.force, &e);
            n = 1;
            break;
        default:
            rc = gc_plot_mma((const gc_arch_t *const *)a, o.n_arch, o.inst, o.out, o.force, &e);
            n = 1;
            break;
        }
    }
    if (rc)
        st = gc_cli_fail(&e);
    else if (mode == 1)
        printf("wrote %d heat map%s to %s (%d form%s with a one-dimensional sweep left out)\n", n,
               n == 1 ? "" : "s", o.out, flat, flat == 1 ? "" : "s");
    else
        printf("wrote %s\n", o.out);
    free_archs(a, o.n_arch);
    return st;
}

/* The extension of `all`'s charts: png with --png, else svg. */
static const char *all_ext(const popts_t *o)
{
    return o->png ? "png" : "svg";
}

/* `all`'s latency chart: TRACES/pchase.csv where it exists and the archs;
 * nothing to draw (no rows, no arch latencies) is no error. *made counts
 * the charts written. */
static int all_latency(const popts_t *o, const gc_arch_t *const *ca, int *made, gc_err_t *e)
{
    char in[4096], out[4096];
    const char *tr[1];
    int ntr = 0;
    if (o->traces) {
        snprintf(in, sizeof(in), "%s/pchase.csv", o->traces);
        if (gc_path_exists(in))
            tr[ntr++] = in;
    }
    if (!ntr && !o->n_arch)
        return 0;
    snprintf(out, sizeof(out), "%s/latency.%s", o->out, all_ext(o));
    int rc = gc_plot_latency(ca, o->n_arch, tr, ntr, out, o->force, e);
    if (rc == GC_ENODATA) {
        gc_err_clear(e);
        return 0;
    }
    if (!rc) {
        printf("wrote %s\n", out);
        (*made)++;
    }
    return rc;
}

/* `all`'s histogram: TRACES/pchase_fine.csv where it exists, with the
 * centres of the first arch. */
static int all_hist(const popts_t *o, const gc_arch_t *const *ca, int *made, gc_err_t *e)
{
    char in[4096], out[4096];
    if (!o->traces)
        return 0;
    snprintf(in, sizeof(in), "%s/pchase_fine.csv", o->traces);
    snprintf(out, sizeof(out), "%s/pchase-hist.%s", o->out, all_ext(o));
    if (!gc_path_exists(in))
        return 0;
    int rc = gc_plot_hist(in, o->n_arch ? ca[0] : NULL, out, o->force, e);
    if (!rc) {
        printf("wrote %s\n", out);
        (*made)++;
    }
    return rc;
}

/* `all`'s heat maps: one per tensor form of TRACES/mma.csv, mma_sp.csv and
 * wgmma.csv, those that exist; *made counts every map written. */
static int all_heatmaps(const popts_t *o, int *made, gc_err_t *e)
{
    static const char *const sweeps[] = {"mma", "mma_sp", "wgmma"};
    char in[4096];
    int rc = 0;
    for (int i = 0; i < 3 && !rc && o->traces; i++) {
        snprintf(in, sizeof(in), "%s/%s.csv", o->traces, sweeps[i]);
        if (!gc_path_exists(in))
            continue;
        int n = 0, flat = 0;
        rc = gc_plot_heatmaps(in, o->out, all_ext(o), o->force, &n, &flat, e);
        if (!rc) {
            printf("wrote %d heat map%s from %s to %s (%d one-dimensional sweep%s left out)\n", n,
                   n == 1 ? "" : "s", in, o->out, flat, flat == 1 ? "" : "s");
            *made += n;
        }
    }
    return rc;
}

/* `all`'s tensor-form charts of the archs, one per instruction
 * (forms-mma, forms-mma_sp, forms-wgmma); an instruction no arch has is
 * no error. */
static int all_forms(const popts_t *o, const gc_arch_t *const *ca, int *made, gc_err_t *e)
{
    static const char *const insts[] = {"mma", "mma.sp", "wgmma"};
    char out[4096];
    int rc = 0;
    for (int i = 0; i < 3 && !rc && o->n_arch; i++) {
        char f[64];
        snprintf(f, sizeof(f), "forms-%s", insts[i]);
        for (char *c = f; *c; c++)
            if (*c == '.')
                *c = '_';
        snprintf(out, sizeof(out), "%s/%s.%s", o->out, f, all_ext(o));
        rc = gc_plot_mma(ca, o->n_arch, insts[i], out, o->force, e);
        if (rc == GC_ENODATA) {
            gc_err_clear(e);
            rc = 0;
        } else if (!rc) {
            printf("wrote %s\n", out);
            (*made)++;
        }
    }
    return rc;
}

/* `all`: every chart the inputs allow. */
static int run_all(int argc, char **argv)
{
    popts_t o;
    int p = parse_nopos(argc, argv, &o);
    if (p)
        return p > 0 ? 0 : 2;
    if (!o.traces && o.n_arch == 0)
        return gc_cli_usage_error(CMD, "all needs --traces DIR or --arch NAME");
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *a[MAX_IN] = {0};
    const gc_arch_t *const *ca = (const gc_arch_t *const *)a;
    int made = 0, rc = load_archs(&o, a, &e);
    if (!rc)
        rc = gc_plot_check(&e);
    if (!rc)
        rc = gc_mkdir_p(o.out, &e);
    if (!rc)
        rc = all_latency(&o, ca, &made, &e);
    if (!rc)
        rc = all_hist(&o, ca, &made, &e);
    if (!rc)
        rc = all_heatmaps(&o, &made, &e);
    if (!rc)
        rc = all_forms(&o, ca, &made, &e);
    int st = 0;
    if (rc)
        st = gc_cli_fail(&e);
    else if (!made) {
        gc_err_set(&e, GC_ENODATA, "nothing to draw from the given traces and archs");
        st = gc_cli_fail(&e);
    }
    free_archs(a, o.n_arch);
    return st;
}

/* The project's own validation tables: the CSV files of model/validation/tables of the
 * source tree (next to the shipped arch files), as glob(3) fills g. */
static int default_tables(glob_t *g)
{
    char pat[4096];
    const char *dir = GC_SHIPPED_ARCH_DIR;
    snprintf(pat, sizeof(pat), "%s/../model/validation/tables/*.csv", dir);
    return glob(pat, 0, NULL, g);
}

static void free_kernels(gc_kernel_t **k, int n)
{
    for (int i = 0; i < n; i++)
        gc_kernel_destroy(k[i]);
}

/* roofline (mode 0), stall (1), validation (2): charts of predictions. */
static int run_model(int argc, char **argv, int mode)
{
    popts_t o;
    int p = parse(argc, argv, &o);
    if (p)
        return p > 0 ? 0 : 2;
    if (o.n_trace || o.traces)
        return gc_cli_usage_error(CMD, "%s takes no traces", argv[0]);
    if (mode == 0 && o.n_arch != 1)
        return gc_cli_usage_error(CMD, "roofline takes one --arch NAME");
    if (mode == 1 && (o.n_arch < 1 || o.n_pos < 1))
        return gc_cli_usage_error(CMD, "stall takes --arch NAME[,NAME...] and KERNEL.yaml...");
    if (mode == 2 && (o.n_arch || o.n_set))
        return gc_cli_usage_error(CMD, "validation takes tables only (CSV files)");
    if (mode == 1 && o.n_arch * o.n_pos > MAX_IN)
        return gc_cli_usage_error(CMD, "at most %d bars (kernels x archs)", MAX_IN);
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *a[MAX_IN] = {0};
    gc_kernel_t *k[MAX_IN] = {0};
    gc_kernel_opts_t ko = {o.set, o.n_set};
    int rc = load_archs(&o, a, &e);
    for (int i = 0; !rc && mode < 2 && i < o.n_arch; i++)
        rc = gc_machine_attach(a[i], &e);
    for (int i = 0; !rc && mode < 2 && i < o.n_pos; i++)
        rc = gc_kernel_load_opts(&k[i], o.pos[i], &ko, &e);
    if (!rc)
        rc = gc_plot_check(&e);
    glob_t g;
    memset(&g, 0, sizeof(g));
    if (!rc && mode == 0)
        rc = gc_plot_roofline(a[0], k, o.n_pos, o.out, o.force, &e);
    else if (!rc && mode == 1)
        rc = gc_plot_stall((const gc_arch_t *const *)a, o.n_arch, k, o.n_pos, o.out, o.force,
                           &e);
    else if (!rc && o.n_pos)
        rc = gc_plot_validation(o.pos, o.n_pos, o.out, o.force, &e);
    else if (!rc && default_tables(&g) == 0)
        rc = gc_plot_validation((const char *const *)g.gl_pathv, (int)g.gl_pathc, o.out, o.force,
                                &e);
    else if (!rc)
        rc = gc_err_set(&e, GC_ENODATA,
                        "no validation tables in the source tree (model/validation/tables/): "
                        "give TABLE.csv");
    globfree(&g);
    int st = rc ? gc_cli_fail(&e) : 0;
    if (!rc)
        printf("wrote %s\n", o.out);
    free_kernels(k, o.n_pos);
    free_archs(a, o.n_arch);
    return st;
}

int gc_cmd_plot(int argc, char **argv)
{
    if (argc < 2)
        return gc_cli_usage_error(
            CMD, "missing a chart: roofline, stall, validation, latency, heatmap, hist, mma or all");
    if (gc_cli_is_help(argv[1])) {
        gc_usage_plot(stdout);
        return 0;
    }
    static const char *const modes[] = {"latency", "heatmap", "hist", "mma"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(argv[1], modes[i]))
            return run(argc - 1, argv + 1, i);
    if (!strcmp(argv[1], "all"))
        return run_all(argc - 1, argv + 1);
    static const char *const models[] = {"roofline", "stall", "validation"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(argv[1], models[i]))
            return run_model(argc - 1, argv + 1, i);
    return gc_cli_usage_error(CMD,
                              "unknown chart '%s' (roofline, stall, validation, latency, heatmap, "
                              "hist, mma or all)",
                              argv[1]);
}
