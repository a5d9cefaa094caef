/* cli.c - command selection and the one error printer (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifndef GPUCAL_VERSION
#define GPUCAL_VERSION "0.0.0"
#endif
const char gc_version[] = GPUCAL_VERSION;

int gc_cli_is_help(const char *arg)
{
    return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

int gc_cmd_select(const gc_cmd_t *table, int n, const char *prog, int argc, char **argv)
{
    if (argc < 1)
        return gc_cli_usage_error(prog, "missing command");
    for (int i = 0; i < n; i++)
        if (!strcmp(table[i].name, argv[0]))
            return table[i].fn(argc, argv);
    return gc_cli_usage_error(prog, "unknown command '%s'", argv[0]);
}

int gc_cli_fail(const gc_err_t *err)
{
    if (err->located)
        fprintf(stderr, "%s\n", err->msg);
    else
        fprintf(stderr, "gpucal: %s\n", err->msg);
    int st = gc_err_exit_status(err->code);
    return st ? st : 1;
}

int gc_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char msg[GC_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s (see `%s --help`)\n", cmd, msg, cmd);
    return 2;
}

int gc_cli_rate(const char *cmd, const char *opt, const char *val, double *out)
{
    int clock = !strcmp(opt, "--clock");
    char *e;
    double v = strtod(val, &e);
    if (e == val || *e || !(clock ? v >= 1 && v <= 10000 : v > 0 && v <= 1e9)) {
        gc_cli_usage_error(cmd, clock ? "--clock takes a clock in MHz from 1 to 10000, got '%s'"
                                      : "--period-us takes the microseconds between two starts "
                                        "of the kernel, above 0 and at most 1e9, got '%s'",
                           val);
        return -1;
    }
    *out = v;
    return 0;
}

int gc_cli_long(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out)
{
    char *e;
    errno = 0;
    long v = strtol(s, &e, 10);
    if (e == s || *e || errno || v < lo || v > hi) {
        gc_cli_usage_error(cmd, "%s takes a whole number from %ld to %ld, got '%s'", opt, lo, hi,
                           s);
        return -1;
    }
    *out = v;
    return 0;
}
