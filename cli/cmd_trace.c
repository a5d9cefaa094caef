/* cmd_trace.c - `gpucal trace check FILE...`, `gpucal trace show FILE` and
 * `gpucal trace columns` (the bench table, traces/benches.h). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "../traces/benches.h"
#include "../traces/trace.h"
#include "cli.h"

void gc_usage_trace(FILE *fp)
{
    fprintf(fp, "usage: gpucal trace check FILE...\n"
                "       gpucal trace show FILE\n"
                "       gpucal trace columns\n\n"
                "Read gpucal traces (format gpucal-trace/1, traces/README.md).\n\n"
                "  check   read every row; print rows, columns and whether the bench finished;\n"
                "          a malformed trace gives one line FILE:LINE:COL and exit 2\n"
                "  show    print the metadata and the column names\n"
                "  columns print every bench's columns (name, type, unit, meaning) as Markdown:\n"
                "          the column reference of traces/README.md\n");
}

/* Read all of path; fills rows and complete. */
static int read_all(const char *path, gc_trace_reader_t **out, gc_err_t *e)
{
    gc_trace_reader_t *r;
    int rc = gc_trace_open(&r, path, e);
    if (rc)
        return rc;
    while ((rc = gc_trace_next(r, e)) > 0)
        ;
    if (rc < 0) {
        gc_trace_close(r);
        return rc;
    }
    *out = r;
    return 0;
}

static int trace_check(int argc, char **argv)
{
    if (argc < 2)
        return gc_cli_usage_error("gpucal trace check", "give at least one FILE");
    for (int i = 1; i < argc; i++) {
        if (gc_cli_is_help(argv[i])) {
            gc_usage_trace(stdout);
            return 0;
        }
        if (argv[i][0] == '-') /* before any file is read: one line, no output */
            return gc_cli_usage_error("gpucal trace check",
                                      "unknown option '%s' (a FILE starting with '-': ./%s)",
                                      argv[i], argv[i]);
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        gc_trace_reader_t *r;
        gc_err_t e;
        gc_err_clear(&e);
        if (read_all(argv[i], &r, &e) != 0) {
            int st = gc_cli_fail(&e);
            status = status > st ? status : st;
            continue;
        }
        const char *bench = gc_trace_meta(r, "bench");
        printf("%s: ok (bench %s, %ld rows, %d columns, %s)\n", argv[i], bench ? bench : "?",
               gc_trace_rows(r), gc_trace_ncols(r),
               gc_trace_complete(r) ? "complete" : "INCOMPLETE: no matching 'end' trailer");
        gc_trace_close(r);
    }
    return status;
}

static int trace_show(int argc, char **argv)
{
    if (argc == 2 && gc_cli_is_help(argv[1])) {
        gc_usage_trace(stdout);
        return 0;
    }
    if (argc != 2)
        return gc_cli_usage_error("gpucal trace show", "give exactly one FILE");
    if (argv[1][0] == '-')
        return gc_cli_usage_error("gpucal trace show",
                                  "unknown option '%s' (a FILE starting with '-': ./%s)", argv[1],
                                  argv[1]);
    gc_trace_reader_t *r;
    gc_err_t e;
    gc_err_clear(&e);
    if (read_all(argv[1], &r, &e) != 0)
        return gc_cli_fail(&e);
    for (size_t i = 0; i < gc_trace_meta_count(r); i++) {
        const char *k, *v;
        gc_trace_meta_at(r, i, &k, &v);
        printf("%-16s %s\n", k, v);
    }
    printf("%-16s", "columns");
    for (int i = 0; i < gc_trace_ncols(r); i++)
        printf("%s%s", i ? "," : " ", gc_trace_colname(r, i));
    printf("\n%-16s %ld\n", "rows", gc_trace_rows(r));
    gc_trace_close(r);
    return 0;
}

static int trace_columns(int argc, char **argv)
{
    if (argc == 2 && gc_cli_is_help(argv[1])) {
        gc_usage_trace(stdout);
        return 0;
    }
    if (argc != 1)
        return gc_cli_usage_error("gpucal trace columns", "takes no arguments");
    gc_bench_doc(stdout);
    return 0;
}

int gc_cmd_trace(int argc, char **argv)
{
    static const gc_cmd_t sub[] = {
        {"check", trace_check, gc_usage_trace, ""},
        {"show", trace_show, gc_usage_trace, ""},
        {"columns", trace_columns, gc_usage_trace, ""},
    };
    if (argc < 2) {
        gc_usage_trace(stderr);
        return 2;
    }
    if (gc_cli_is_help(argv[1])) {
        gc_usage_trace(stdout);
        return 0;
    }
    return gc_cmd_select(sub, 3, "gpucal trace", argc - 1, argv + 1);
}
