/* cmd_export.c - `gpucal export`: not built yet (issue 7). This file is
 * replaced by the command's implementation; until then the command says so
 * and fails, rather than pretending. */
#include "cli.h"

void gc_usage_export(FILE *fp)
{
    fprintf(fp, "usage: gpucal export ...\n\nwrite simulator configs (Accel-Sim) from an arch file.\nNot available in this build yet.\n");
}

int gc_cmd_export(int argc, char **argv)
{
    if (argc > 1 && gc_cli_is_help(argv[1])) {
        gc_usage_export(stdout);
        return 0;
    }
    fprintf(stderr, "gpucal export: not available in this build yet\n");
    return 1;
}
