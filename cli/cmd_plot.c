/* cmd_plot.c - `gpucal plot`: not built yet (issue 7). This file is
 * replaced by the command's implementation; until then the command says so
 * and fails, rather than pretending. */
#include "cli.h"

void gc_usage_plot(FILE *fp)
{
    fprintf(fp, "usage: gpucal plot ...\n\nSVG charts of traces and architectures.\nNot available in this build yet.\n");
}

int gc_cmd_plot(int argc, char **argv)
{
    if (argc > 1 && gc_cli_is_help(argv[1])) {
        gc_usage_plot(stdout);
        return 0;
    }
    fprintf(stderr, "gpucal plot: not available in this build yet\n");
    return 1;
}
