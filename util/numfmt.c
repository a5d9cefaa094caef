/* numfmt.c - shortest exact number text (see numfmt.h). */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *gc_num_format(char *buf, size_t n, double v, int is_int)
{
    double a = fabs(v);
    if (a == 0 || (a >= 1e-4 && a < 1e15)) {
        for (int d = 0; d <= 17; d++) {
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
