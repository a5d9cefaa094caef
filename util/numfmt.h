/* numfmt.h - numbers as text, the one way gpucal writes them.
 * The shortest decimal text that reads back (strtod) to exactly the same
 * double; no exponent for magnitudes from 1e-4 to 1e15. Values of
 * non-integer quantities always show a decimal point ("258.0"). */
#ifndef GC_NUMFMT_H
#define GC_NUMFMT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Write v into buf (n >= 32 bytes is always enough); returns buf. */
const char *gc_num_format(char *buf, size_t n, double v, int is_int);

/* gc_num_format, returning the text's length. */
size_t gc_num_format_len(char *buf, size_t n, double v, int is_int);

/* printf's "%.*f" of v with d decimals, exact (integer arithmetic for
 * 1e-4 <= |v| < 1e15, printf otherwise); n >= 48 is always enough
 * for |v| < 1e15. Returns buf. */
const char *gc_num_fixed(char *buf, size_t n, double v, int d);

/* printf's "%.*g" of v with prec significant digits (1..17), exact
 * (integer arithmetic where the plain notation applies). Returns buf. */
const char *gc_num_general(char *buf, size_t n, double v, int prec);

#ifdef __cplusplus
}
#endif

#endif
