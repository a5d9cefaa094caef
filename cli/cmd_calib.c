/* cmd_calib.c - `gpucal calib`: not built yet (issue 5). This file is
 * replaced by the command's implementation; until then the command says so
 * and fails, rather than pretending. */
#include "cli.h"

void gc_usage_calib(FILE *fp)
{
    fprintf(fp, "usage: gpucal calib ...\n\nfit traces into an arch file.\nNot available in this build yet.\n");
}

int gc_cmd_calib(int argc, char **argv)
{
    if (argc > 1 && gc_cli_is_help(argv[1])) {
        gc_usage_calib(stdout);
        return 0;
    }
    fprintf(stderr, "gpucal calib: not available in this build yet\n");
    return 1;
}
