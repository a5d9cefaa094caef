/* suggest.c - the closest known word to a misspelt one (see suggest.h). */
#include "suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define SUGGEST_LEN 63

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

/* Optimal string alignment distance over the first SUGGEST_LEN bytes of
 * each word, lower-cased; the bytes past that each cost one edit. */
int gc_suggest_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), extra = 0;
    if (la > SUGGEST_LEN)
        extra += la - SUGGEST_LEN, la = SUGGEST_LEN;
    if (lb > SUGGEST_LEN)
        extra += lb - SUGGEST_LEN, lb = SUGGEST_LEN;
    int d[SUGGEST_LEN + 1][SUGGEST_LEN + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            int cost = ca != cb;
            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;
        }
    return d[la][lb] + (int)extra;
}

/* 1 if the shorter of a and b (at least 3 bytes) starts the other. */
static int prefix_of(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;
    if (n < 3)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return 0;
    return 1;
}

const char *gc_suggest(const char *word, const char *const *words, size_t n)
{
    const char *best = NULL;
    int bd = 1 << 30;
    size_t lw = strlen(word);
    int limit = lw <= 2 ? 1 : lw / 3 > 2 ? (int)(lw / 3) : 2;
    for (size_t i = 0; i < n; i++) {
        if (!words[i])
            continue;
        int dd = gc_suggest_distance(word, words[i]);
        int ok = dd <= limit || prefix_of(word, words[i]);
        if (ok && dd < bd) {
            bd = dd;
            best = words[i];
        }
    }
    return best;
}

const char *gc_suggest_hint(const char *word, const char *const *words, size_t n, char *buf,
                            size_t bufn)
{
    const char *s = gc_suggest(word, words, n);
    if (s)
        snprintf(buf, bufn, " (did you mean '%s'?)", s);
    else if (bufn)
        buf[0] = '\0';
    return buf;
}
