/* err.h - the error record every fallible gpucal function fills.
 *
 * Fallible functions return int: 0 on success, a negative gc_code on failure,
 * and describe the failure in a caller-owned gc_err_t. Only the CLI turns a
 * code into an exit status (gc_err_exit_status) and prints the message.
 * Messages are one line: "FILE:LINE:COL: what is wrong (how to fix)" when a
 * place in a file is known, otherwise just "what is wrong (how to fix)".
 */
#ifndef GC_ERR_H
#define GC_ERR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum gc_code {
    GC_OK = 0,
    GC_EUSAGE = -1,  /* bad command line: exit 2 */
    GC_EINPUT = -2,  /* bad input file or value: exit 2 */
    GC_EEXIST = -3,  /* refusing to overwrite an existing output: exit 2 */
    GC_ELIMIT = -4,  /* input larger than gpucal accepts: exit 2 */
    GC_EIO = -5,     /* read/write failed at the OS level: exit 1 */
    GC_ENOMEM = -6,  /* out of memory: exit 1 */
    GC_ERUN = -7,    /* a computation or a device run failed: exit 1 */
    GC_ENODATA = -8, /* the data cannot support a value: exit 1 */
};

#define GC_ERR_MSG_MAX 1024

typedef struct gc_err {
    int code;                  /* a gc_code; GC_OK when nothing failed */
    int located;               /* 1 when msg starts with "FILE:..." */
    char msg[GC_ERR_MSG_MAX];  /* one line, no trailing newline */
} gc_err_t;

#if defined(__GNUC__)
#define GC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GC_PRINTF(a, b)
#endif

/* Clear an error record (err may be NULL). */
void gc_err_clear(gc_err_t *err);

/* Fill err with code and a printf-formatted message; returns code so callers
 * can write `return gc_err_set(err, GC_EINPUT, ...)`. err may be NULL. */
int gc_err_set(gc_err_t *err, int code, const char *fmt, ...) GC_PRINTF(3, 4);

/* Same as gc_err_set, with "FILE:LINE:COL: " in front (LINE/COL 1-based;
 * col <= 0 leaves out the column, line <= 0 leaves out line and column). */
int gc_err_at(gc_err_t *err, int code, const char *file, long line, long col, const char *fmt,
              ...) GC_PRINTF(6, 7);

/* Prefix err's message with "what: " (keeps code). Used when a caller adds
 * context to an error raised below it. */
void gc_err_prefix(gc_err_t *err, const char *fmt, ...) GC_PRINTF(2, 3);

/* Process exit status for a code: 0 ok, 2 usage/input/exist/limit, 1 else. */
int gc_err_exit_status(int code);

/* Print "FILE:LINE:COL: warning: msg" (or "gpucal: warning: msg") to stderr.
 * Warnings never change a result; they tell the user what was ignored. */
void gc_warn_at(const char *file, long line, long col, const char *fmt, ...) GC_PRINTF(4, 5);

/* Silence or re-enable warnings (tests that check one-line output use it). */
void gc_warn_set_quiet(int quiet);

#ifdef __cplusplus
}
#endif

#endif
