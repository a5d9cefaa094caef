/* cli.h - the gpucal front end: command tables, option helpers, error output.
 *
 * Every level of commands is a table of gc_cmd_t walked by gc_cmd_select
 * (git/bpftool style). A command function gets argv with argv[0] = its
 * own name and returns the process exit status: 0 ok, 1 the run failed,
 * 2 bad usage or bad input. Each command file owns its usage text;
 * `gpucal help CMD` and `gpucal CMD --help` print the same text.
 */
#ifndef GC_CLI_H
#define GC_CLI_H

#include <stdio.h>

#include "../util/err.h"

typedef struct gc_cmd {
    const char *name;
    int (*fn)(int argc, char **argv);
    void (*usage)(FILE *fp);     /* full help text */
    const char *summary;         /* one line for the command list */
} gc_cmd_t;

/* Run the entry of table (n entries) named argv[0]; an unknown name is a
 * usage error naming `prog --help`. */
int gc_cmd_select(const gc_cmd_t *table, int n, const char *prog, int argc, char **argv);

/* The whole command line of `gpucal` (argv[0] the program): the exit
 * status. Returns, never exits (only `measure` replaces the process with
 * gpucal-measure when that binary sits beside this one). */
int gc_cli_main(int argc, char **argv);

/* Print err on stderr as one line ("FILE:LINE:COL: msg" or "gpucal: msg")
 * and return its exit status. */
int gc_cli_fail(const gc_err_t *err);

/* Print a usage error "gpucal CMD: msg (see `gpucal CMD --help`)" and
 * return 2. */
int gc_cli_usage_error(const char *cmd, const char *fmt, ...) GC_PRINTF(2, 3);

/* The value of --clock (MHz, 1 to 10000) or --period-us (us, above 0, at
 * most 1e9) into *out: 0, or -1 with a usage error of command cmd
 * printed. opt: "--clock" or "--period-us". */
int gc_cli_rate(const char *cmd, const char *opt, const char *val, double *out);

/* 1 if arg is -h or --help. */
int gc_cli_is_help(const char *arg);

/* Parse a positive integer / a non-negative size option value; on error
 * print a usage error for option opt of command cmd and return -1. */
int gc_cli_long(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out);

/* Program version, e.g. "0.1.0". */
extern const char gc_version[];

/* Commands (cmd_*.c). */
int gc_cmd_arch(int argc, char **argv);
void gc_usage_arch(FILE *fp);
int gc_cmd_compare(int argc, char **argv);
void gc_usage_compare(FILE *fp);
int gc_cmd_measure(int argc, char **argv);
void gc_usage_measure(FILE *fp);
int gc_cmd_trace(int argc, char **argv);
void gc_usage_trace(FILE *fp);
int gc_cmd_calib(int argc, char **argv);
void gc_usage_calib(FILE *fp);
int gc_cmd_predict(int argc, char **argv);
void gc_usage_predict(FILE *fp);
/* operator templates (cmd_ops.c): `gpucal describe OP`, `gpucal predict OP` */
int gc_cmd_describe(int argc, char **argv);
void gc_usage_describe(FILE *fp);
int gc_ops_cmd_predict(int argc, char **argv);
/* `gpucal predict --batch FILE|-` (batch.c): JSON lines in, one answer per
 * request and arch out; arch: the default arch list (may be NULL). */
int gc_cli_batch(const char *cmd, const char *path, const char *arch, double clock_mhz,
                 double period_us, int nargs, char **args);
/* An installed gpucal reads the arch files installed beside it (batch.c). */
void gc_cli_find_arch_dir(void);
int gc_cmd_export(int argc, char **argv);
void gc_usage_export(FILE *fp);
int gc_cmd_plot(int argc, char **argv);
void gc_usage_plot(FILE *fp);
int gc_cmd_emulate(int argc, char **argv);
void gc_usage_emulate(FILE *fp);

#endif
