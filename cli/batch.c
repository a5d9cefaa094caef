/* batch.c - `gpucal predict --batch FILE|-`: one JSON request per line in
 * (lib/request.c says what a request holds), one JSON line out per request
 * and arch, in order, each with "line": N; a bad request answers
 * {"line": N, "error": "..."} and the batch goes on. Exit status 0 when
 * every request was answered with a prediction, else that of the first
 * failure (2 for bad input). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/api.h"
#include "../util/iotrack.h"
#include "cli.h"

void gc_cli_find_arch_dir(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
        exe[n] = '\0';
        gc_api_find_arch_dir(exe);
    }
}

/* Answer every line of in. Returns the first failure (code 0: none). */
static gc_err_t run_lines(FILE *in, const char *arch, const gc_predict_opts_t *o, gc_jobj_t *q)
{
    gc_err_t first, e;
    gc_err_clear(&first);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    for (long no = 1; (len = getline(&line, &cap, in)) >= 0; no++) {
        gc_err_clear(&e);
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--; /* the line's end is not part of the request */
        int rc = gc_jsonl_parse(line, (size_t)len, q, &e);
        if (rc == 1)
            continue; /* blank line */
        if (rc) {
            gc_request_error(no, e.msg, stdout);
            if (!first.code)
                first = e;
            continue;
        }
        gc_request_run(q, no, arch, o, stdout, &first);
    }
    free(line);
    return first;
}

int gc_cli_batch(const char *cmd, const char *path, const char *arch, double clock,
                 double period_us, int nargs, char **args)
{
    gc_predict_opts_t o = {clock, period_us};
    if (nargs > 0)
        return gc_cli_usage_error(cmd, "unexpected argument '%s' (--batch reads requests from "
                                  "its file)", args[0]);
    FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
    gc_io_note_input(path); /* no output may be written over it (util/iotrack.h) */
    if (!in) {
        gc_err_t e;
        gc_err_clear(&e);
        gc_err_set(&e, GC_EIO, "cannot read the batch file %.200s; check the path", path);
        e.code = GC_EINPUT;
        return gc_cli_fail(&e);
    }
    gc_jobj_t *q = malloc(sizeof(*q));
    gc_err_t first;
    gc_err_clear(&first);
    if (q)
        first = run_lines(in, arch, &o, q);
    else
        gc_err_set(&first, GC_ENOMEM, "out of memory");
    if (in != stdin)
        fclose(in);
    free(q);
    if (fflush(stdout) || ferror(stdout))
        return 1;
    if (!q)
        return gc_cli_fail(&first);
    int st = gc_err_exit_status(first.code);
    return first.code && !st ? 1 : st;
}
