/* cmd_compare.c - `gpucal compare NAME... [--format md|csv|json]`. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../model/compare/compare.h"
#include "cli.h"

#define MAX_ARCH 16

void gc_usage_compare(FILE *fp)
{
    fprintf(fp, "usage: gpucal compare NAME|FILE... [--format md|csv|json] [--match TEXT]...\n\n"
                "Print architectures side by side: one row per quantity, one column per\n"
                "architecture, the unit, and the ratio of each value to the first column.\n"
                "Values a file lacks are shown as '-' (md), an empty cell (csv) or null (json),\n"
                "never 0.\n\n"
                "  --format md    Markdown table (default)\n"
                "  --format csv   CSV with separate ratio columns\n"
                "  --format json  {\"schema\": \"gpucal-compare/1\", \"archs\": [...], \"rows\":\n"
                "                 [{\"quantity\", \"unit\", \"values\", \"ratios\"}]}\n"
                "  --match TEXT   only rows whose quantity contains TEXT (repeatable:\n"
                "                 a row is kept when it contains any of them)\n\n"
                "example: gpucal compare ampere-a100 ada-rtx4090 hopper-h800\n"
                "         gpucal compare ampere-a100 hopper-h100 --match memory.l2 --match sm.clock\n");
}

int gc_cmd_compare(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"match", required_argument, NULL, 'm'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *match[65];
    int nmatch = 0;
    gc_compare_fmt_t fmt = GC_COMPARE_MD;
    opterr = 0;
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "hf:m:", opts, NULL)) != -1) {
        if (c == 'm') {
            if (nmatch == 64)
                return gc_cli_usage_error("gpucal compare", "at most 64 --match options");
            match[nmatch++] = optarg;
        } else if (c == 'h') {
            gc_usage_compare(stdout);
            return 0;
        } else if (c == 'f') {
            if (!strcmp(optarg, "md"))
                fmt = GC_COMPARE_MD;
            else if (!strcmp(optarg, "csv"))
                fmt = GC_COMPARE_CSV;
            else if (!strcmp(optarg, "json"))
                fmt = GC_COMPARE_JSON;
            else
                return gc_cli_usage_error("gpucal compare",
                                          "unknown --format '%s' (md, csv or json)", optarg);
        } else {
            return gc_cli_usage_error("gpucal compare", "unknown option '%s'",
                                      argv[optind - 1]);
        }
    }
    int n = argc - optind;
    if (n < 1)
        return gc_cli_usage_error("gpucal compare", "give at least one architecture");
    if (n > MAX_ARCH)
        return gc_cli_usage_error("gpucal compare", "at most %d architectures", MAX_ARCH);
    gc_arch_t *archs[MAX_ARCH] = {0};
    gc_err_t e;
    gc_err_clear(&e);
    int status = 0;
    for (int i = 0; i < n && !status; i++)
        if (gc_arch_open(&archs[i], argv[optind + i], &e) != 0)
            status = gc_cli_fail(&e);
    match[nmatch] = NULL;
    if (!status && gc_compare_write(stdout, (const gc_arch_t *const *)archs, n, fmt,
                                    nmatch ? match : NULL, &e) != 0)
        status = gc_cli_fail(&e);
    for (int i = 0; i < n; i++)
        gc_arch_destroy(archs[i]);
    return status;
}
