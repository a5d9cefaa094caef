/* gpucal.c - the top-level command table and its dispatcher gc_cli_main
 * (main() in main.c calls it; the CLI fuzz target drives it in-process).
 * Each command is a thin call into one stage's library; see cli.h for the
 * conventions. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "../util/iotrack.h"

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);
static void usage_help(FILE *fp);
static void usage_version(FILE *fp);

static const gc_cmd_t commands[] = {
    {"measure", gc_cmd_measure, gc_usage_measure,
     "run microbenchmarks on this machine's GPU and write traces"},
    {"trace", gc_cmd_trace, gc_usage_trace, "check and show trace files"},
    {"calib", gc_cmd_calib, gc_usage_calib, "fit a folder of traces into an arch file"},
    {"arch", gc_cmd_arch, gc_usage_arch, "list, show, validate architecture files"},
    {"predict", gc_cmd_predict, gc_usage_predict, "predict a kernel's time on an architecture"},
    {"describe", gc_cmd_describe, gc_usage_describe,
     "write the kernel descriptions of an operator call (attention, softmax, ...)"},
    {"export", gc_cmd_export, gc_usage_export, "write Accel-Sim / GPGPU-Sim configs"},
    {"compare", gc_cmd_compare, gc_usage_compare, "architectures side by side in one table"},
    {"plot", gc_cmd_plot, gc_usage_plot, "SVG charts of traces and architectures"},
    {"emulate", gc_cmd_emulate, gc_usage_emulate, "a tensor-core instruction's arithmetic on the CPU"},
    {"help", cmd_help, usage_help, "help on a command"},
    {"version", cmd_version, usage_version, "print the version"},
};
#define NCMD ((int)(sizeof(commands) / sizeof(commands[0])))

static void usage_main(FILE *fp)
{
    fprintf(fp, "usage: gpucal COMMAND [ARGS...]\n"
                "       gpucal help COMMAND | gpucal COMMAND --help\n"
                "       gpucal --version\n\n"
                "gpucal turns microbenchmark measurements of an NVIDIA GPU into a calibrated\n"
                "per-architecture model (measure -> traces -> calib -> arch -> model).\n\n"
                "commands:\n");
    for (int i = 0; i < NCMD; i++)
        fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(fp, "\nexit status: 0 ok, 1 the run failed, 2 bad usage or bad input.\n");
}

static void usage_help(FILE *fp)
{
    fprintf(fp, "usage: gpucal help [COMMAND]\n\nPrint the help of COMMAND (the same text as "
                "`gpucal COMMAND --help`).\n");
}

static void usage_version(FILE *fp)
{
    fprintf(fp, "usage: gpucal version\n\nPrint gpucal's version.\n");
}

static int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        usage_main(stdout);
        return 0;
    }
    if (gc_cli_is_help(argv[1])) {
        usage_help(stdout);
        return 0;
    }
    if (argc > 2)
        return gc_cli_usage_error("gpucal help", "one COMMAND at a time, got '%s' after '%s'",
                                  argv[2], argv[1]);
    for (int i = 0; i < NCMD; i++)
        if (!strcmp(commands[i].name, argv[1])) {
            commands[i].usage(stdout);
            return 0;
        }
    return gc_cli_usage_error("gpucal", "no command '%s' to help with", argv[1]);
}

static int cmd_version(int argc, char **argv)
{
    if (argc > 1 && gc_cli_is_help(argv[1])) {
        usage_version(stdout);
        return 0;
    }
    if (argc > 1)
        return gc_cli_usage_error("gpucal version", "unexpected argument '%s'", argv[1]);
    printf("gpucal %s\n", gc_version);
    return 0;
}

int gc_cli_main(int argc, char **argv)
{
    if (argc < 2) {
        usage_main(stderr);
        return 2;
    }
    if (gc_cli_is_help(argv[1])) {
        usage_main(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
        return cmd_version(argc - 1, argv + 1);
    if (argv[1][0] == '-')
        return gc_cli_usage_error("gpucal", "unknown option '%s'", argv[1]);
    gc_cli_find_arch_dir(); /* installed: share/gpucal/arch beside the binary (batch.c) */
    /* inputs and outputs kept apart; the outputs go into place together, at
     * the end, and only if the command succeeded (util/iotrack.h) */
    gc_io_track();
    return gc_io_finish(gc_cmd_select(commands, NCMD, "gpucal", argc - 1, argv + 1));
}
