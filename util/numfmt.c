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
 * search (a binary one). */
#include "numfmt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128_t;

/* 5^0 .. 5^27: m * 5^d < 2^128 for d <= 27 and m < 2^53 */
static const uint64_t p5[28] = {
    1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL, 390625ULL, 1953125ULL,
    9765625ULL, 48828125ULL, 244140625ULL, 1220703125ULL, 6103515625ULL, 30517578125ULL,
    152587890625ULL, 762939453125ULL, 3814697265625ULL, 19073486328125ULL,
    95367431640625ULL, 476837158203125ULL, 2384185791015625ULL, 11920928955078125ULL,
    59604644775390625ULL, 298023223876953125ULL, 1490116119384765625ULL,
    7450580596923828125ULL};

/* R = v * 10^d rounded half to even, for v = m * 2^e (m < 2^53); *ok =
 * 1 when R / 10^d reads back to v (below_quarter: the gap below v is half
 * the one above, m being a power of two). */
static u128_t scaled(uint64_t m, int e, int d, int below_quarter, int *ok)
{
    u128_t n = (u128_t)m * p5[d];
    int k = e + d;
    if (k >= 0) { /* an integer: exact */
        *ok = 1;
        return n << k;
    }
    int s = -k; /* 1 <= s <= 66 in the plain range, <= 112 down to 1e-10 */
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
 * truncation); returns the length written. The text is built from its
 * end, two digits at a time: no reversal. */
static size_t put_fixed(char *buf, size_t n, u128_t r, int d, int neg)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";
    char out[64];
    char *e = out + sizeof(out), *p = e;
    int nd = 0; /* digits written; the point goes in front of the d-th */
#define PUT(ch)                                                                               \
    do {                                                                                       \
        if (nd == d && d > 0)                                                                  \
            *--p = '.';                                                                        \
        *--p = (ch);                                                                           \
        nd++;                                                                                  \
    } while (0)
    const u128_t ten19 = 10000000000000000000ULL;
    uint64_t hi = 0, lo = (uint64_t)r;
    if (r >= ten19) /* the 128-bit division only where it is needed */
        hi = (uint64_t)(r / ten19), lo = (uint64_t)(r % ten19);
    while (lo >= 100) {
        uint64_t q = lo / 100;
        const char *two = pairs + 2 * (lo - q * 100);
        PUT(two[1]);
        PUT(two[0]);
        lo = q;
    }
    if (lo >= 10) {
        PUT(pairs[2 * lo + 1]);
        PUT(pairs[2 * lo]);
    } else if (lo > 0 || nd == 0) {
        PUT((char)('0' + lo));
    }
    while (hi && nd < 19) /* lo's leading zeros below hi */
        PUT('0');
    for (; hi > 0; hi /= 10)
        PUT((char)('0' + hi % 10));
    while (nd < d + 1)
        PUT('0');
#undef PUT
    if (neg)
        *--p = '-';
    size_t o = (size_t)(e - p), c = o < n ? o : n - 1;
    memcpy(buf, p, c);
    buf[c] = '\0';
    return c;
}

/* 1 when v * 10^j >= 1 (v = m * 2^e), exactly. */
static int ge_pow10(uint64_t m, int e, int j)
{
    int k = e + j;
    if (k >= 0)
        return 1;
    if (-k >= 128)
        return 0;
    return ((u128_t)m * p5[j]) >> -k != 0;
}

/* X = floor(log10 |v|) for 1e-10 <= |v| < 1e15, exactly (v = m * 2^e). */
static int exp10_of(uint64_t m, int e, double v)
{
    double a = fabs(v);
    if (a >= 1) {
        int x = 0;
        for (uint64_t i = (uint64_t)a; i >= 10; i /= 10)
            x++;
        return x;
    }
    int j = 1;
    while (j < 27 && !ge_pow10(m, e, j))
        j++;
    return -j;
}

/* The fewest decimals d in [lo, hi] whose rounding of m x 2^e reads back
 * (scaled's ok), by bisection: reading back is monotonic in d. hi must read
 * back (or be the bound the caller accepts). */
static int fewest_decimals(uint64_t m, int e, int quarter, int lo, int hi)
{
    int ok;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        scaled(m, e, mid, quarter, &ok);
        if (ok)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The plain text of v (0 < |v| < 1e15, normal); returns its length, *d
 * its decimals. */
static size_t plain(char *buf, size_t n, double v, int *d)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof(bits));
    int be = (int)(bits >> 52 & 0x7FF);
    uint64_t frac = bits & ((1ULL << 52) - 1);
    uint64_t m = frac | 1ULL << 52;
    int e = be - 1075, quarter = frac == 0 && be > 1, ok = 0;
    /* the fewest decimals that read back; "%.17f" when none does. Reading
     * back is monotonic in d (R_d * 10 is a candidate for d + 1, and R_d+1
     * is the nearest), so a search finds the same d as a scan. 17
     * significant digits always read back (their error, at most 5e-17 v,
     * is below the quarter ulp under a power of two, 5.55e-17 v): d =
     * 16 - X bounds it, and most values need 16 or 17 digits, so those two
     * are tried first */
    int lo = 0, hi = 16 - exp10_of(m, e, v);
    hi = hi > 17 ? 17 : hi;
    for (int t = 0; t < 2 && lo < hi; t++) {
        scaled(m, e, hi - 1, quarter, &ok);
        if (!ok)
            lo = hi;
        else
            hi--;
    }
    lo = fewest_decimals(m, e, quarter, lo, hi);
    *d = lo;
    return put_fixed(buf, n, scaled(m, e, lo, quarter, &ok), lo, (int)(bits >> 63));
}

/* The shortest "%.*g" text of 1e-10 <= |v| < 1e-4 (the exponent form: X
 * = floor(log10 |v|) is -5 .. -10) in exact integer arithmetic, as the
 * printf search writes it; 0 where rounding carries into the next power
 * of ten (the caller then searches with printf). */
static size_t small_g(char *buf, size_t n, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof(bits));
    uint64_t frac = bits & ((1ULL << 52) - 1), m = frac | 1ULL << 52;
    int e = (int)(bits >> 52 & 0x7FF) - 1075, quarter = frac == 0, ok;
    int x = exp10_of(m, e, v);
    /* p = d + 1 + x significant digits, 1 .. 17 */
    int lo = fewest_decimals(m, e, quarter, -x, 16 - x);
    u128_t r = scaled(m, e, lo, quarter, &ok);
    int p = lo + 1 + x;
    char dig[24];
    int nd = 0;
    for (uint64_t q = (uint64_t)r; q > 0 && nd < 20; q /= 10)
        dig[nd++] = (char)('0' + q % 10);
    if (nd != p || n < 32) /* carried to 10^p, or a short buffer */
        return 0;
    while (nd > 1 && dig[0] == '0') { /* %g drops trailing zeros */
        memmove(dig, dig + 1, (size_t)--nd);
    }
    size_t o = 0;
    if (signbit(v))
        buf[o++] = '-';
    buf[o++] = dig[nd - 1];
    if (nd > 1)
        buf[o++] = '.';
    for (int i = nd - 2; i >= 0; i--)
        buf[o++] = dig[i];
    buf[o++] = 'e', buf[o++] = '-';
    buf[o++] = (char)('0' + -x / 10), buf[o++] = (char)('0' + -x % 10);
    buf[o] = '\0';
    return o;
}

size_t gc_num_format_len(char *buf, size_t n, double v, int is_int)
{
    double a = fabs(v);
    size_t k;
    int d = 0;
    if (a == 0) { /* "%.0f": "0" or "-0" */
        const char *z = signbit(v) ? "-0" : "0";
        k = strlen(z) < n ? strlen(z) : n - 1;
        memcpy(buf, z, k);
        buf[k] = '\0';
    } else if (a >= 1 && a < 1e15 && a == (double)(uint64_t)a) { /* an integer: its digits */
        k = put_fixed(buf, n, (uint64_t)a, 0, signbit(v) != 0);
    } else if (a >= 1e-4 && a < 1e15) {
        k = plain(buf, n, v, &d);
    } else if (a >= 1e-10 && a < 1e-4 && (k = small_g(buf, n, v)) > 0) {
        d = 1; /* an exponent */
    } else {
        /* the fewest digits that read back; monotonic in prec as in plain(),
         * so a binary search (5 steps, not up to 17) */
        int lo = 1, hi = 17;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            snprintf(buf, n, "%.*g", mid, v);
            if (strtod(buf, NULL) == v)
                hi = mid;
            else
                lo = mid + 1;
        }
        snprintf(buf, n, "%.*g", lo, v);
        k = strlen(buf);
        d = strpbrk(buf, ".eEn") != NULL;
    }
    if (!is_int && d == 0 && k + 2 < n) { /* no point, exponent, inf or nan */
        memcpy(buf + k, ".0", 3);
        k += 2;
    }
    return k;
}

const char *gc_num_format(char *buf, size_t n, double v, int is_int)
{
    gc_num_format_len(buf, n, v, is_int);
    return buf;
}

/* ---- printf's fixed and general forms ---- */

/* v's mantissa and exponent (v = m * 2^e, normal v); *quarter: v is a
 * power of two (the gap below is half the one above). */
static void split(double v, uint64_t *m, int *e, int *quarter)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof(bits));
    int be = (int)(bits >> 52 & 0x7FF);
    uint64_t frac = bits & ((1ULL << 52) - 1);
    *m = frac | 1ULL << 52;
    *e = be - 1075;
    *quarter = frac == 0 && be > 1;
}

/* 1 when v takes the exact integer paths: 1e-4 <= |v| < 1e15 (the shifts
 * of scaled() stay below 128 bits) */
static int exact_range(double v)
{
    double a = fabs(v);
    return a >= 1e-4 && a < 1e15;
}

const char *gc_num_fixed(char *buf, size_t n, double v, int d)
{
    if (d < 0 || d > 17 || !exact_range(v)) {
        snprintf(buf, n, "%.*f", d < 0 ? 0 : d, v);
        return buf;
    }
    uint64_t m;
    int e, quarter, ok;
    split(v, &m, &e, &quarter);
    put_fixed(buf, n, scaled(m, e, d, quarter, &ok), d, signbit(v) != 0);
    return buf;
}

const char *gc_num_general(char *buf, size_t n, double v, int prec)
{
    static const uint64_t p10[19] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
                                     1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
                                     10000000000ULL, 100000000000ULL, 1000000000000ULL,
                                     10000000000000ULL, 100000000000000ULL,
                                     1000000000000000ULL, 10000000000000000ULL,
                                     100000000000000000ULL, 1000000000000000000ULL};
    if (prec < 1 || prec > 17 || !exact_range(v)) {
        snprintf(buf, n, "%.*g", prec < 1 ? 1 : prec, v);
        return buf;
    }
    uint64_t m;
    int e, quarter, ok;
    split(v, &m, &e, &quarter);
    /* X: the exponent of v rounded to prec digits, where R = round(v *
     * 10^(prec - 1 - X)) has exactly prec digits (C11 7.21.6.1, %g) */
    int x = exp10_of(m, e, v), d = 0; /* before rounding; a carry moves it up */
    u128_t r = 0;
    for (int tries = 0; tries < 4; tries++) {
        d = prec - 1 - x;
        if (x < -4 || x >= prec || d > 17) { /* the exponent form: printf */
            snprintf(buf, n, "%.*g", prec, v);
            return buf;
        }
        r = scaled(m, e, d, quarter, &ok);
        if (r >= p10[prec])
            x++;
        else if (r < p10[prec - 1])
            x--;
        else
            break;
    }
    if (r < p10[prec - 1] || r >= p10[prec]) { /* not settled: printf */
        snprintf(buf, n, "%.*g", prec, v);
        return buf;
    }
    put_fixed(buf, n, r, d, signbit(v) != 0);
    if (d > 0) { /* %g drops the trailing zeros, and the point when none is left */
        size_t k = strlen(buf);
        while (k > 0 && buf[k - 1] == '0')
            buf[--k] = '\0';
        if (k > 0 && buf[k - 1] == '.')
            buf[--k] = '\0';
    }
    return buf;
}
