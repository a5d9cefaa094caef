/* err.c - error records and warnings (see err.h). */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int warn_quiet;

void gc_err_clear(gc_err_t *err)
{
    if (!err)
        return;
    err->code = GC_OK;
    err->located = 0;
    err->msg[0] = '\0';
}

static void vformat(gc_err_t *err, size_t at, const char *fmt, va_list ap)
{
    if (at >= sizeof(err->msg))
        return;
    vsnprintf(err->msg + at, sizeof(err->msg) - at, fmt, ap);
    /* one line only: a message never carries a newline */
    for (char *p = err->msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}

int gc_err_set(gc_err_t *err, int code, const char *fmt, ...)
{
    if (!err)
        return code;
    va_list ap;
    err->code = code;
    err->located = 0;
    va_start(ap, fmt);
    vformat(err, 0, fmt, ap);
    va_end(ap);
    return code;
}

static size_t place(char *buf, size_t n, const char *file, long line, long col)
{
    int k;
    if (line <= 0)
        k = snprintf(buf, n, "%s: ", file);
    else if (col <= 0)
        k = snprintf(buf, n, "%s:%ld: ", file, line);
    else
        k = snprintf(buf, n, "%s:%ld:%ld: ", file, line, col);
    return k < 0 ? 0 : ((size_t)k >= n ? n - 1 : (size_t)k);
}

int gc_err_at(gc_err_t *err, int code, const char *file, long line, long col, const char *fmt,
              ...)
{
    if (!err)
        return code;
    va_list ap;
    err->code = code;
    err->located = 1;
    size_t at = place(err->msg, sizeof(err->msg), file ? file : "<input>", line, col);
    va_start(ap, fmt);
    vformat(err, at, fmt, ap);
    va_end(ap);
    return code;
}

void gc_err_prefix(gc_err_t *err, const char *fmt, ...)
{
    if (!err)
        return;
    char old[GC_ERR_MSG_MAX];
    memcpy(old, err->msg, sizeof(old));
    va_list ap;
    va_start(ap, fmt);
    vformat(err, 0, fmt, ap);
    va_end(ap);
    err->located = 0;
    size_t at = strlen(err->msg);
    snprintf(err->msg + at, sizeof(err->msg) - at, ": %s", old);
}

int gc_err_exit_status(int code)
{
    switch (code) {
    case GC_OK:
        return 0;
    case GC_EUSAGE:
    case GC_EINPUT:
    case GC_EEXIST:
    case GC_ELIMIT:
        return 2;
    default:
        return 1;
    }
}

void gc_warn_set_quiet(int quiet)
{
    warn_quiet = quiet;
}

void gc_warn_at(const char *file, long line, long col, const char *fmt, ...)
{
    if (warn_quiet)
        return;
    char buf[GC_ERR_MSG_MAX];
    size_t at = 0;
    if (file)
        at = place(buf, sizeof(buf), file, line, col);
    else
        at = (size_t)snprintf(buf, sizeof(buf), "gpucal: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + at, sizeof(buf) - at, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%.*swarning: %s\n", (int)at, buf, buf + at);
}
