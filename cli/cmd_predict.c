/* cmd_predict.c - `gpucal predict`: not built yet (issue 6). This file is
 * replaced by the command's implementation; until then the command says so
 * and fails, rather than pretending. */
#include "cli.h"

void gc_usage_predict(FILE *fp)
{
    fprintf(fp, "usage: gpucal predict ...\n\npredict a kernel's time on an architecture.\nNot available in this build yet.\n");
}

int gc_cmd_predict(int argc, char **argv)
{
    if (argc > 1 && gc_cli_is_help(argv[1])) {
        gc_usage_predict(stdout);
        return 0;
    }
    fprintf(stderr, "gpucal predict: not available in this build yet\n");
    return 1;
}
