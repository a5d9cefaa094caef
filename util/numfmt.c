/* numfmt.c - shortest exact number text (see numfmt.h).
 *
 * Plain notation (1e-4 <= |v| < 1e15, and 0) is the text of "%.*f" with
 * the fewest decimals d that reads back (strtod, correctly rounded) to v.
 * Both halves are done in exact integer arithmetic instead of printf and
 * strtod: v = m * 2^e, so v * 10^d = m * 5^d * 2^(e+d), and m * 5^d <
 * 2^93 for d <= 17 fits an unsigned 128-bit integer. Rounding that to an
 * integer R (half to even, as glibc's printf does in the default rounding
 * mode) gives "%.*f"'s digits; R / 10^d reads back to v exactly when it
 * lies inside v's rounding interval (half an ulp either side; a quarter
 * below a power of two, where the ulp below is half as large), which is
 * a comparison of integers. The other magnitudes keep the printf/strtod
 * search. */
#include "numfmt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128_t;

/* R = v * 10^d rounded half to even, for v = m * 2^e (m < 2^53); *ok =
 * 1 when R / 10^d reads back to v (below_quarter: the gap below v is half
 * the one above, m being a power of two). */
static u128_t scaled(uint64_t m, int e, int d, int below_quarter, int *ok)
{
    static const uint64_t p5[18] = {1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL,
                                    78125ULL, 390625ULL, 1953125ULL, 9765625ULL,
                                    48828125ULL, 244140625ULL, 1220703125ULL,
                                    6103515625ULL, 30517578125ULL, 152587890625ULL,
                                    762939453125ULL};
    u128_t n = (u128_t)m * p5[d];
    int k = e + d;
    if (k >= 0) { /* an integer: exact */
        *ok = 1;
        return n << k;
    }
    int s = -k; /* 1 <= s <= 66 in the plain range */
    u128_t q = n >> s, r = n - (q << s), half = (u128_t)1 << (s - 1);
    int up = r > half || (r == half && (q & 1));
    /* |R * 2^s - n| against 5^d / 2 (or 5^d / 4 below a power of two);
     * 5^d is odd, so no tie is possible */
    u128_t diff = up ? ((u128_t)1 << s) - r : r;
    u128_t lim = (u128_t)p5[d];
    *ok = up || !below_quarter ? 2 * diff < lim : 4 * diff < lim;
    return q + (u128_t)up;
}

/* "%.*f" of the value R / 10^d with sign neg, into buf (n bytes, snprintf's
 * truncation). */
static void put_fixed(char *buf, size_t n, u128_t r, int d, int neg)
{
    char dig[48], out[64];
    int nd = 0;
    uint64_t hi = (uint64_t)(r / 10000000000000000000ULL),
             lo = (uint64_t)(r % 10000000000000000000ULL);
    do { /* lo's 19 digits when hi is non-zero, else only its own */
        dig[nd++] = (char)('0' + lo % 10);
        lo /= 10;
    } while (hi ? nd < 19 : lo > 0);
    while (hi > 0) {
        dig[nd++] = (char)('0' + hi % 10);
        hi /= 10;
    }
    while (nd < d + 1)
        dig[nd++] = '0';
    size_t o = 0;
    if (neg)
        out[o++] = '-';
    for (int i = nd - 1; i >= 0; i--) {
        out[o++] = dig[i];
        if (i == d && d > 0)
            out[o++] = '.';
    }
    size_t c = o < n ? o : n - 1;
    memcpy(buf, out, c);
    buf[c] = '\0';
}

/* The plain text of v (0 < |v| < 1e15, normal). */
static void plain(char *buf, size_t n, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof(bits));
    int be = (int)(bits >> 52 & 0x7FF);
    uint64_t frac = bits & ((1ULL << 52) - 1);
    uint64_t m = frac | 1ULL << 52;
    int e = be - 1075, quarter = frac == 0 && be > 1, ok = 0;
    u128_t r = 0;
    int d = 0;
    for (; d <= 17; d++) { /* none reads back: "%.17f" as printf's search */
        r = scaled(m, e, d, quarter, &ok);
        if (ok || d == 17)
            break;
    }
    put_fixed(buf, n, r, d, (int)(bits >> 63));
}

const char *gc_num_format(char *buf, size_t n, double v, int is_int)
{
    double a = fabs(v);
    if (a == 0) {
        snprintf(buf, n, "%.0f", v);
    } else if (a >= 1e-4 && a < 1e15) {
        plain(buf, n, v);
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
