/* numfmt.c - shortest exact number text (see numfmt.h). */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when v rounded to d decimals cannot read back to v: the rounding moves
 * it by more than 4 units in the last place (the text is within half a
 * unit when it reads back; the factor covers the error of computing the
 * residual in doubles). A quick, sound filter before the exact test. */
static int cannot_round_trip(double v, int d)
{
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
                                 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17};
    double p = v * p10[d];
    if (!(fabs(p) < 4e15))
        return 0;
    double res = fabs(nearbyint(p) - p);
    double ulp_p = nextafter(fabs(p), INFINITY) - fabs(p);
    double ulp_v = (nextafter(fabs(v), INFINITY) - fabs(v)) * p10[d];
    return res > 4 * (ulp_p > ulp_v ? ulp_p : ulp_v) + 1e-300;
}

const char *gc_num_format(char *buf, size_t n, double v, int is_int)
{
    double a = fabs(v);
    if (a == 0 || (a >= 1e-4 && a < 1e15)) {
        for (int d = 0; d <= 17; d++) {
            if (d < 17 && cannot_round_trip(v, d))
                continue;
            snprintf(buf, n, "%.*f", d, v);
            if (strtod(buf, NULL) == v)
                break;
        }
    } else {
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, n, "%.*g", prec, v);
            if (strtod(buf, NULL) == v)
                break;
        }
    }
    if (!is_int && !strpbrk(buf, ".eEn")) {
        size_t k = strlen(buf);
        if (k + 2 < n)
            memcpy(buf + k, ".0", 3);
    }
    return buf;
}
