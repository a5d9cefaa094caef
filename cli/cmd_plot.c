/* cmd_plot.c - `gpucal plot latency|heatmap|hist|mma|all`: SVG charts of
 * traces and architectures, drawn by gnuplot (plot/plot.h). */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../arch/arch.h"
#include "../plot/plot.h"
#include "../util/fsio.h"
#include "cli.h"

#define CMD "gpucal plot"
#define MAX_IN 16

void gc_usage_plot(FILE *fp)
{
    fprintf(fp,
            "usage: gpucal plot latency [--trace pchase.csv]... [--arch NAME]... -o OUT.svg\n"
            "       gpucal plot heatmap --trace mma.csv -o DIR\n"
            "       gpucal plot hist --trace pchase_fine.csv [--arch NAME] -o OUT.svg\n"
            "       gpucal plot mma --arch NAME... [--inst mma|mma.sp|wgmma|...] -o OUT.svg\n"
            "       gpucal plot all [--traces DIR] [--arch NAME]... -o DIR\n"
            "(each takes --force to replace existing SVGs)\n\n"
            "SVG charts drawn by gnuplot (Debian, Ubuntu: apt-get install gnuplot-nox):\n"
            "  latency  load latency vs array size: P-chase traces, and the arch files'\n"
            "           L1 / L2 / DRAM latencies as steps at their capacities\n"
            "  heatmap  ILP x warps throughput, one SVG per tensor form of an mma, mma_sp or\n"
            "           wgmma trace (DIR/heatmap-FORM.svg)\n"
            "  hist     fine-grained P-chase latency histogram with the arch's k-means\n"
            "           centres (L2 near/far hit/miss)\n"
            "  mma      completion latency and peak throughput per tensor form across\n"
            "           architectures\n"
            "  all      every chart its inputs allow: from DIR/pchase.csv, pchase_fine.csv,\n"
            "           mma.csv, mma_sp.csv, wgmma.csv and the archs\n"
            "Every chart has a title, axis labels with units and a footnote naming its\n"
            "inputs. Charts are written atomically and never replace a file without --force.\n\n"
            "example: gpucal plot mma --arch ampere-a100 --arch hopper-h800 -o mma.svg\n");
}

typedef struct popts {
    const char *trace[MAX_IN], *arch[MAX_IN], *out, *inst, *traces;
    int n_trace, n_arch, force;
} popts_t;

static int parse(int argc, char **argv, popts_t *o)
{
    static const struct option opts[] = {
        {"trace", required_argument, NULL, 't'}, {"traces", required_argument, NULL, 'T'},
        {"arch", required_argument, NULL, 'a'},  {"out", required_argument, NULL, 'o'},
        {"inst", required_argument, NULL, 'i'},  {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof(*o));
    o->inst = "mma";
    opterr = 0;
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+:ho:", opts, NULL)) != -1) {
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
            if (o->n_arch == MAX_IN)
                return gc_cli_usage_error(CMD, "at most %d --arch", MAX_IN), -1;
            o->arch[o->n_arch++] = optarg;
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
        case ':':
            gc_cli_usage_error(CMD, "option '%s' needs a value", argv[optind - 1]);
            return -1;
        default:
            gc_cli_usage_error(CMD, "unknown option '%s'", argv[optind - 1]);
            return -1;
        }
    }
    if (optind < argc) {
        gc_cli_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    if (!o->out) {
        gc_cli_usage_error(CMD, "%s needs -o %s", argv[0],
                           strcmp(argv[0], "heatmap") && strcmp(argv[0], "all") ? "OUT.svg"
                                                                                : "DIR");
        return -1;
    }
    return 0;
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
    int p = parse(argc, argv, &o);
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
    int n = 0;
    if (!rc) {
        switch (mode) {
        case 0:
            rc = gc_plot_latency((const gc_arch_t *const *)a, o.n_arch, o.trace, o.n_trace, o.out,
                                 o.force, &e);
            n = 1;
            break;
        case 1:
            rc = gc_plot_heatmaps(o.trace[0], o.out, o.force, &n, &e);
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
        printf("wrote %d heat map%s to %s\n", n, n == 1 ? "" : "s", o.out);
    else
        printf("wrote %s\n", o.out);
    free_archs(a, o.n_arch);
    return st;
}

/* `all`: every chart the inputs allow. */
static int run_all(int argc, char **argv)
{
    popts_t o;
    int p = parse(argc, argv, &o);
    if (p)
        return p > 0 ? 0 : 2;
    if (!o.traces && o.n_arch == 0)
        return gc_cli_usage_error(CMD, "all needs --traces DIR or --arch NAME");
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *a[MAX_IN] = {0};
    int rc = load_archs(&o, a, &e);
    if (!rc)
        rc = gc_plot_check(&e);
    if (!rc)
        rc = gc_mkdir_p(o.out, &e);
    int made = 0;
    char in[4096], out[4096];
    const gc_arch_t *const *ca = (const gc_arch_t *const *)a;
    /* latency vs size */
    const char *tr[1];
    int ntr = 0;
    if (!rc && o.traces) {
        snprintf(in, sizeof(in), "%s/pchase.csv", o.traces);
        if (gc_path_exists(in))
            tr[ntr++] = in;
    }
    if (!rc && (ntr || o.n_arch)) {
        snprintf(out, sizeof(out), "%s/latency.svg", o.out);
        rc = gc_plot_latency(ca, o.n_arch, tr, ntr, out, o.force, &e);
        if (rc == GC_ENODATA) {
            gc_err_clear(&e);
            rc = 0;
        } else if (!rc) {
            printf("wrote %s\n", out);
            made++;
        }
    }
    if (!rc && o.traces) {
        snprintf(in, sizeof(in), "%s/pchase_fine.csv", o.traces);
        snprintf(out, sizeof(out), "%s/pchase-hist.svg", o.out);
        if (gc_path_exists(in)) {
            rc = gc_plot_hist(in, o.n_arch ? a[0] : NULL, out, o.force, &e);
            if (!rc) {
                printf("wrote %s\n", out);
                made++;
            }
        }
    }
    static const char *const sweeps[] = {"mma", "mma_sp", "wgmma"};
    for (int i = 0; i < 3 && !rc && o.traces; i++) {
        snprintf(in, sizeof(in), "%s/%s.csv", o.traces, sweeps[i]);
        if (!gc_path_exists(in))
            continue;
        int n = 0;
        rc = gc_plot_heatmaps(in, o.out, o.force, &n, &e);
        if (!rc) {
            printf("wrote %d heat map%s from %s to %s\n", n, n == 1 ? "" : "s", in, o.out);
            made += n;
        }
    }
    static const char *const insts[] = {"mma", "mma.sp", "wgmma"};
    for (int i = 0; i < 3 && !rc && o.n_arch; i++) {
        char f[64];
        snprintf(f, sizeof(f), "forms-%s.svg", insts[i]);
        for (char *c = f; *c; c++)
            if (*c == '.' && strcmp(c, ".svg"))
                *c = '_';
        snprintf(out, sizeof(out), "%s/%s", o.out, f);
        rc = gc_plot_mma(ca, o.n_arch, insts[i], out, o.force, &e);
        if (rc == GC_ENODATA) {
            gc_err_clear(&e);
            rc = 0;
        } else if (!rc) {
            printf("wrote %s\n", out);
            made++;
        }
    }
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

int gc_cmd_plot(int argc, char **argv)
{
    if (argc < 2)
        return gc_cli_usage_error(CMD, "missing a chart: latency, heatmap, hist, mma or all");
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
    return gc_cli_usage_error(CMD, "unknown chart '%s' (latency, heatmap, hist, mma or all)",
                              argv[1]);
}
