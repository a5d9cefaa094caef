/* cmd_export.c - `gpucal export`: simulator configs from an arch file, the
 * validator of such configs, and the key-by-key table of the export. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../model/export/accelsim.h"
#include "../arch/arch.h"
#include "../model/export/simcheck.h"
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
                "--check    Validate config files as the simulator would read them together:\n"
                "           known option names, values present and well formed, no placeholders,\n"
                "           sector caches with 128-byte lines, IPOLY indexing only with 16/32/64\n"
                "           channels, 13 pipeline widths, positive latency/initiation pairs that\n"
                "           fit their pipelines, sub-core widths. One line per failure.\n\n"
                "keys       Print the key-by-key table of the export (Markdown).\n\n"
                "example: gpucal export accel-sim --arch ampere-a100 -o sim/a100\n"
                "         gpucal export --check sim/a100/gpgpusim.config sim/a100/trace.config\n");
}

static int cmd_check(int argc, char **argv)
{
    if (argc < 2)
        return gc_cli_usage_error(CMD, "--check needs at least one config file");
    gc_simcheck_t *sc = gc_simcheck_create();
    gc_err_t e;
    gc_err_clear(&e);
    if (!sc) {
        gc_err_set(&e, GC_ENOMEM, "out of memory");
        return gc_cli_fail(&e);
    }
    int rc = 0;
    for (int i = 1; i < argc && !rc; i++)
        rc = gc_simcheck_file(sc, argv[i], &e);
    if (!rc)
        rc = gc_simcheck_done(sc, &e);
    int st = 0;
    if (rc)
        st = gc_cli_fail(&e);
    else
        printf("ok: %d file%s, %zu options\n", argc - 1, argc > 2 ? "s" : "",
               gc_simcheck_count(sc));
    gc_simcheck_destroy(sc);
    return st;
}

static int cmd_accelsim(int argc, char **argv)
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
    gc_accelsim_opts_t o = {0};
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
    if (!arch)
        return gc_cli_usage_error(CMD, "accel-sim needs --arch NAME|FILE");
    if (!out)
        return gc_cli_usage_error(CMD, "accel-sim needs -o DIR");
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *a = NULL;
    if (gc_arch_open(&a, arch, &e) != 0)
        return gc_cli_fail(&e);
    gc_accelsim_info_t info;
    int st = 0;
    int nb = 0;
    if (gc_accelsim_export(a, &o, out, force, &info, &e) != 0 ||
        (traces && gc_simtrace_write(a, &info, out, force, &nb, &e) != 0)) {
        st = gc_cli_fail(&e);
    } else {
        printf("wrote %s/gpgpusim.config and %s/trace.config for %s: %d options, %d from the "
               "arch, %d fixed constants; tensor unit from %s\n",
               out, out, a->name, info.n_options, info.n_arch, info.n_const, info.form);
        if (info.fallbacks[0])
            printf("values the arch lacks, filled by the documented rules of model/export/export.md: %s "
                   "(each is "
                   "marked in the files)\n",
                   info.fallbacks);
        if (traces)
            printf("wrote %d microbenchmark traces with the arch's figures: %s/traces/manifest.tsv\n",
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
    if (!strcmp(argv[1], "accel-sim"))
        return cmd_accelsim(argc - 1, argv + 1);
    if (!strcmp(argv[1], "keys")) {
        if (argc > 2 && gc_cli_is_help(argv[2])) {
            gc_usage_export(stdout);
            return 0;
        }
        if (argc > 2)
            return gc_cli_usage_error(CMD, "keys takes no arguments");
        gc_accelsim_doc(stdout);
        return 0;
    }
    return gc_cli_usage_error(CMD, "unknown mode '%s' (accel-sim, --check or keys)", argv[1]);
}
