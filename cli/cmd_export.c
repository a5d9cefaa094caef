/* cmd_export.c - `gpucal export`: simulator configs from an arch file, the
 * validator of such configs, and the key-by-key table of the export. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../arch/arch.h"
#include "../model/export/export.h"
#include "../model/export/simtrace.h"
#include "cli.h"

#define CMD "gpucal export"

void gc_usage_export(FILE *fp)
{
    fprintf(fp, "usage: gpucal export accel-sim --arch NAME|FILE -o DIR [--force]\n"
                "                               [--clock max|base|tensor|memory] [--form FORM]\n"
                "                               [--traces]\n"
                "       gpucal export --check FILE...\n"
                "       gpucal export keys\n\n"
                "accel-sim  Write DIR/gpgpusim.config and DIR/trace.config for Accel-Sim /\n"
                "           GPGPU-Sim: every option of the simulator's tested configs, each value\n"
                "           an arch field, a formula of arch fields or a documented constant,\n"
                "           named in a comment above the option (model/export/export.md has the table).\n"
                "           An arch that lacks a value the simulator needs is refused with the\n"
                "           missing key named. The files are checked with the validator before\n"
                "           they are written; existing files are kept unless --force.\n"
                "  --arch NAME|FILE  shipped arch name or path to an arch YAML file\n"
                "  -o DIR            output folder (created if missing)\n"
                "  --force           replace existing config files\n"
                "  --clock KIND      SM clock of the core, interconnect and L2 domains:\n"
                "                    max (sm.clock_max_mhz, default), base, tensor or memory\n"
                "                    (the sustained clocks sm.clock_tensor_mhz, clock_memory_mhz)\n"
                "  --form FORM       tensor form for the tensor unit, as `gpucal arch show`\n"
                "                    labels it (default: mma m16n8k16 f16.f32, else m16n8k8)\n"
                "  --traces          also write DIR/traces: gpucal's microbenchmarks as Accel-Sim\n"
                "                    traces (dependent chains, throughput kernels) with the figure\n"
                "                    the arch says each produces (traces/manifest.tsv;\n"
                "                    scripts/sim-check.sh runs them)\n\n"
                "--check    Validate config files as the simulator would read them together,\n"
                "           one config set at a time (the files of one folder, and of one\n"
                "           prefix there: refs/X.gpgpusim.config with refs/X.trace.config):\n"
                "           known option names, values present and well formed, no placeholders,\n"
                "           sector caches with 128-byte lines, IPOLY indexing only with 16/32/64\n"
                "           channels, 13 pipeline widths, positive latency/initiation pairs that\n"
                "           fit their pipelines, sub-core widths. One line per failure.\n\n"
                "keys       Print the key-by-key table of the export (Markdown).\n\n"
                "example: gpucal export accel-sim --arch ampere-a100 -o sim/a100\n"
                "         gpucal export --check sim/a100/gpgpusim.config sim/a100/trace.config\n");
}

/* The config set a file belongs to: its folder and the name before
 * "gpgpusim.config" / "trace.config" (sim/a100/, refs/SM86_RTX3070.); any
 * other file name: its folder. The simulator reads one set per run. */
static void set_key(const char *path, char *key, size_t n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base), keep = bl;
    static const char *const tails[] = {"gpgpusim.config", "trace.config"};
    int named = 0;
    for (int t = 0; t < 2 && !named; t++) {
        size_t tl = strlen(tails[t]);
        if (bl >= tl && !strcmp(base + bl - tl, tails[t]))
            keep = bl - tl, named = 1;
    }
    if (!named)
        keep = 0;
    snprintf(key, n, "%.*s%.*s", (int)(base - path), path, (int)keep, base);
}

/* Check the files of one set together with exporter x's validator; print
 * its ok line (label: the set when there are several). */
static int check_set(const gc_exporter_t *x, char **files, int nf, const char *label,
                     gc_err_t *e)
{
    size_t n_opts = 0;
    int rc = x->check_files(files, (size_t)nf, &n_opts, e);
    if (!rc)
        printf("ok: %s%s%d file%s, %zu options\n", label ? label : "", label ? ": " : "", nf,
               nf > 1 ? "s" : "", n_opts);
    return rc;
}

/* --check FILE...: the validator of the first exporter that has one; the
 * files grouped into config sets (set_key), each set checked on its own,
 * in the order of first appearance. */
static int cmd_check(int argc, char **argv)
{
    if (argc < 2)
        return gc_cli_usage_error(CMD, "--check needs at least one config file");
    const gc_exporter_t *const *xs;
    size_t nx = gc_exporter_list(&xs), x = 0;
    while (x < nx && !xs[x]->check_files)
        x++;
    gc_err_t e;
    gc_err_clear(&e);
    if (x == nx) {
        gc_err_set(&e, GC_EUSAGE, "no exporter has a validator");
        return gc_cli_fail(&e);
    }
    int n = argc - 1;
    char(*key)[4096] = calloc((size_t)n, sizeof(*key));
    char **set = calloc((size_t)n, sizeof(*set));
    unsigned char *done = calloc((size_t)n, 1);
    int rc = !key || !set || !done ? gc_err_set(&e, GC_ENOMEM, "out of memory") : 0;
    for (int i = 0; !rc && i < n; i++)
        set_key(argv[i + 1], key[i], sizeof(key[i]));
    int nsets = 0;
    for (int i = 0; !rc && i < n; i++) {
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = strcmp(key[i], key[j]) != 0;
        nsets += first;
    }
    for (int i = 0; !rc && i < n; i++) {
        if (done[i])
            continue;
        int nf = 0;
        for (int j = i; j < n; j++)
            if (!done[j] && !strcmp(key[i], key[j])) {
                set[nf++] = argv[j + 1];
                done[j] = 1;
            }
        rc = check_set(xs[x], set, nf, nsets > 1 ? (key[i][0] ? key[i] : "./") : NULL, &e);
    }
    free(key);
    free(set);
    free(done);
    return rc ? gc_cli_fail(&e) : 0;
}

/* NAME --arch A -o DIR [--force] [--clock K] [--form F]: one export */
static int cmd_write(const gc_exporter_t *x, int argc, char **argv)
{
    static const struct option opts[] = {{"arch", required_argument, NULL, 'a'},
                                         {"out", required_argument, NULL, 'o'},
                                         {"force", no_argument, NULL, 'f'},
                                         {"clock", required_argument, NULL, 'c'},
                                         {"form", required_argument, NULL, 'm'},
                                         {"traces", no_argument, NULL, 't'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *arch = NULL, *out = NULL;
    gc_export_opts_t o = {0};
    int force = 0, traces = 0, c;
    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, "+:ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            gc_usage_export(stdout);
            return 0;
        case 'a':
            arch = optarg;
            break;
        case 'o':
            out = optarg;
            break;
        case 'f':
            force = 1;
            break;
        case 'c':
            if (strcmp(optarg, "max") && strcmp(optarg, "base") && strcmp(optarg, "tensor") &&
                strcmp(optarg, "memory"))
                return gc_cli_usage_error(CMD,
                                          "unknown --clock '%s' (max, base, tensor or "
                                          "memory)",
                                          optarg);
            o.clock = optarg;
            break;
        case 'm':
            o.form = optarg;
            break;
        case 't':
            traces = 1;
            break;
        case ':':
            return gc_cli_usage_error(CMD, "option '%s' needs a value", argv[optind - 1]);
        default:
            return gc_cli_usage_error(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return gc_cli_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
    if (traces && strcmp(x->name, "accel-sim"))
        return gc_cli_usage_error(CMD, "--traces is for accel-sim only");
    if (!arch)
        return gc_cli_usage_error(CMD, "%s needs --arch NAME|FILE", x->name);
    if (!out)
        return gc_cli_usage_error(CMD, "%s needs -o DIR", x->name);
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *a = NULL;
    if (gc_arch_open(&a, arch, &e) != 0)
        return gc_cli_fail(&e);
    gc_export_info_t info;
    int st = 0;
    int nb = 0;
    if (gc_export_write(x, a, &o, out, force, &info, &e) != 0 ||
        (traces && gc_simtrace_write(a, &info, out, force, &nb, &e) != 0)) {
        st = gc_cli_fail(&e);
    } else {
        x->summary(&info, out, a->name, stdout);
        if (traces)
            printf("wrote %d microbenchmark traces with the arch's figures: "
                   "%s/traces/manifest.tsv\n",
                   nb, out);
    }
    gc_arch_destroy(a);
    return st;
}

int gc_cmd_export(int argc, char **argv)
{
    if (argc < 2)
        return gc_cli_usage_error(CMD, "missing a mode: accel-sim, --check or keys");
    if (gc_cli_is_help(argv[1])) {
        gc_usage_export(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--check"))
        return cmd_check(argc - 1, argv + 1);
    const gc_exporter_t *x = gc_exporter_find(argv[1]);
    if (x)
        return cmd_write(x, argc - 1, argv + 1);
    if (!strcmp(argv[1], "keys")) {
        if (argc > 2 && gc_cli_is_help(argv[2])) {
            gc_usage_export(stdout);
            return 0;
        }
        if (argc > 2)
            return gc_cli_usage_error(CMD, "keys takes no arguments");
        gc_exporter_find("accel-sim")->doc(stdout);
        return 0;
    }
    return gc_cli_usage_error(CMD, "unknown mode '%s' (accel-sim, --check or keys)", argv[1]);
}
