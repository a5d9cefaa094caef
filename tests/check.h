/* check.h - the few assertions the C unit tests use. A failed check prints
 * FILE:LINE and the expression, and the test exits 1 at the end. */
#ifndef GC_CHECK_H
#define GC_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int gc_check_failures;

#define CHECK(c)                                                                               \
    do {                                                                                       \
        if (!(c)) {                                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c);              \
            gc_check_failures++;                                                               \
        }                                                                                      \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                  \
    do {                                                                                       \
        double a_ = (a), b_ = (b);                                                             \
        if (!(fabs(a_ - b_) <= (tol))) {                                                       \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.10g, %s = %.10g, tol %g\n",      \
                    __FILE__, __LINE__, #a, a_, #b, b_, (double)(tol));                        \
            gc_check_failures++;                                                               \
        }                                                                                      \
    } while (0)

#define CHECK_STR(a, b)                                                                        \
    do {                                                                                       \
        const char *a_ = (a), *b_ = (b);                                                       \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                               \
            fprintf(stderr, "%s:%d: CHECK_STR failed: %s = \"%s\", expected \"%s\"\n",         \
                    __FILE__, __LINE__, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)");           \
            gc_check_failures++;                                                               \
        }                                                                                      \
    } while (0)

/* Check that haystack contains needle (error messages). */
#define CHECK_HAS(hay, needle)                                                                 \
    do {                                                                                       \
        const char *h_ = (hay), *n_ = (needle);                                                \
        if (!h_ || !strstr(h_, n_)) {                                                          \
            fprintf(stderr, "%s:%d: CHECK_HAS failed: \"%s\" lacks \"%s\"\n", __FILE__,        \
                    __LINE__, h_ ? h_ : "(null)", n_);                                         \
            gc_check_failures++;                                                               \
        }                                                                                      \
    } while (0)

#define CHECK_DONE()                                                                           \
    do {                                                                                       \
        if (gc_check_failures)                                                                 \
            fprintf(stderr, "%d check(s) failed\n", gc_check_failures);                        \
        return gc_check_failures ? 1 : 0;                                                      \
    } while (0)

#endif
