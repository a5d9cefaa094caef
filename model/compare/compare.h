/* compare.h - architectures side by side: one row per quantity, one column
 * per architecture, the unit, and each value's ratio to the first column.
 * Rows are the union of what the files hold, in schema order; a value one
 * file lacks is shown as missing (never as 0). */
#ifndef GC_COMPARE_H
#define GC_COMPARE_H

#include <stdio.h>

#include "../../util/err.h"
#include "../../arch/arch.h"

typedef enum { GC_COMPARE_MD, GC_COMPARE_CSV, GC_COMPARE_JSON } gc_compare_fmt_t;

/* Write the table of n archs to fp (Markdown, CSV, or JSON: schema
 * gpucal-compare/1, a missing value is null). match: NULL, or a NULL-terminated list
 * of texts; then only rows whose key contains one of them are written.
 * Returns 0, or GC_ENOMEM. */
int gc_compare_write(FILE *fp, const gc_arch_t *const *archs, int n, gc_compare_fmt_t fmt,
                     const char *const *match, gc_err_t *err);

#endif
