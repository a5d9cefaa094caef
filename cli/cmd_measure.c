/* cmd_measure.c - `gpucal measure`: runs the measurement binary
 * gpucal-measure that sits beside gpucal. It is a separate program because
 * it must build and run on a GPU host that has only the CUDA toolkit (no
 * GSL, no libyaml); this command only finds it and hands over argv. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int find_measure(char *out, size_t n)
{
    char self[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (k <= 0)
        return -1;
    self[k] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    if ((size_t)snprintf(out, n, "%s/gpucal-measure", self) >= n)
        return -1;
    return access(out, X_OK) == 0 ? 0 : -1;
}

void gc_usage_measure(FILE *fp)
{
    char path[PATH_MAX];
    if (find_measure(path, sizeof(path)) == 0) {
        fflush(fp);
        char *argv[] = {path, "--help", NULL};
        /* the measurement binary owns its usage text */
        if (fp == stdout) {
            execv(path, argv);
        }
    }
    fprintf(fp, "usage: gpucal measure [--bench LIST] [--out DIR] [--quick] [--resume]\n\n"
                "Runs microbenchmarks on this machine's GPU and writes traces (CSV).\n"
                "This gpucal was built without CUDA (no nvcc at configure time), so the\n"
                "measurement binary gpucal-measure is not here: build on a machine with the\n"
                "CUDA toolkit (cmake finds nvcc) to get it.\n");
}

int gc_cmd_measure(int argc, char **argv)
{
    char path[PATH_MAX];
    if (find_measure(path, sizeof(path)) != 0) {
        if (argc > 1 && gc_cli_is_help(argv[1])) {
            gc_usage_measure(stdout);
            return 0;
        }
        fprintf(stderr, "gpucal measure: this gpucal was built without CUDA, so "
                        "gpucal-measure is missing (rebuild where cmake finds nvcc)\n");
        return 1;
    }
    argv[0] = path;
    execv(path, argv);
    fprintf(stderr, "gpucal measure: cannot run %s: %s\n", path, strerror(errno));
    return 1;
}
