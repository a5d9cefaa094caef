/* cmd_emulate.c - `gpucal emulate`: not built yet (issue 8). This file is
 * replaced by the command's implementation; until then the command says so
 * and fails, rather than pretending. */
#include "cli.h"

void gc_usage_emulate(FILE *fp)
{
    fprintf(fp, "usage: gpucal emulate ...\n\nreproduce a tensor-core instruction's arithmetic on the CPU.\nNot available in this build yet.\n");
}

int gc_cmd_emulate(int argc, char **argv)
{
    if (argc > 1 && gc_cli_is_help(argv[1])) {
        gc_usage_emulate(stdout);
        return 0;
    }
    fprintf(stderr, "gpucal emulate: not available in this build yet\n");
    return 1;
}
