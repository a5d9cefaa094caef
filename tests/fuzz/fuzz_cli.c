/* fuzz_cli.c - libFuzzer target: the command line of `gpucal`. The input
 * is split at NUL bytes into the arguments (at most 24) after "gpucal" and
 * handed to the dispatcher in-process (gc_cli_main, cli/gpucal.c), run
 * inside a temporary folder that is emptied after each input. So that
 * nothing is read or written outside it (and the arch folder, read only),
 * inputs with an argument holding '/' or "..", and `measure` (it execs
 * gpucal-measure), are skipped; stdin is /dev/null, stdout is discarded.
 * Properties beyond "no crash, no leak, no UB": the exit status is 0, 1 or
 * 2. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#define ARGS_MAX 24

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* libFuzzer: discard the commands' stdout and stderr (its own lines and the
 * sanitizer reports go to a copy of stderr it keeps) */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static char *args[256];
    static char mask[] = "-close_fd_mask=3";
    int n = *argc < 254 ? *argc : 254;
    memcpy(args, *argv, (size_t)n * sizeof(*args));
    args[n++] = mask;
    args[n] = NULL;
    *argc = n;
    *argv = args;
    return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    if (ftw->level > 0)
        remove(path);
    return 0;
}

/* the repository's arch folder, from this file's path (.../tests/fuzz/fuzz_cli.c) */
static void set_arch_dir(void)
{
    if (getenv("GPUCAL_ARCH_DIR"))
        return;
    char src[4096];
    snprintf(src, sizeof(src), "%s", __FILE__);
    char *t = strstr(src, "tests/fuzz/fuzz_cli.c");
    if (!t)
        return;
    snprintf(t, sizeof(src) - (size_t)(t - src), "arch");
    setenv("GPUCAL_ARCH_DIR", src, 1);
}

/* split data at NULs into argv[1..]; 0 when an argument could reach
 * outside the folder (or is `measure`), else argc */
static int split_args(const unsigned char *data, size_t size, char *buf, char **argv)
{
    memcpy(buf, data, size);
    buf[size] = '\0';
    int argc = 0;
    argv[argc++] = "gpucal";
    for (char *p = buf; argc < ARGS_MAX + 1 && p <= buf + size; p += strlen(p) + 1) {
        if (strchr(p, '/') || strstr(p, "..") || !strcmp(p, "measure"))
            return 0;
        argv[argc++] = p;
    }
    argv[argc] = NULL;
    return argc;
}

static char dir[64];

/* at exit: the temporary folder goes */
static void remove_dir(void)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static int home = -1;
    if (home < 0) {
        snprintf(dir, sizeof(dir), "/tmp/gc_fuzz_cli_XXXXXX");
        home = open(".", O_RDONLY | O_DIRECTORY);
        if (home < 0 || !mkdtemp(dir) || !freopen("/dev/null", "r", stdin) ||
            !freopen("/dev/null", "w", stdout))
            abort();
        atexit(remove_dir);
        set_arch_dir();
    }
    if (size > 4096)
        return 0;
    char *buf = malloc(size + 1), *argv[ARGS_MAX + 2];
    int argc = buf ? split_args(data, size, buf, argv) : 0;
    if (argc > 0) {
        if (chdir(dir) != 0 && (mkdir(dir, 0700) != 0 || chdir(dir) != 0))
            abort(); /* the folder went away (a clean-up of /tmp): made again */
        int rc = gc_cli_main(argc, argv);
        fflush(stdout);
        fflush(stderr);
        if (fchdir(home) != 0)
            abort();
        nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        if (rc < 0 || rc > 2) {
            fprintf(stderr, "gpucal exited %d\n", rc);
            abort();
        }
    }
    free(buf);
    return 0;
}
