/* ring.c - P-chase rings and the sizes of a latency sweep (see ring.h).
 * Pure libc; the generator is splitmix64 with rejection sampling, so a seed
 * gives the same ring on every machine and compiler. */
#include <stdlib.h>
#include <string.h>

#include "ring.h"

#include "../util/rng.h"

int gc_ring_check(const gc_ring_spec_t *spec, size_t *slots, gc_err_t *err)
{
    if (spec->pattern != GC_RING_SEQ && spec->pattern != GC_RING_RAND)
        return gc_err_set(err, GC_EINPUT, "ring: unknown pattern %d (use seq or rand)",
                          (int)spec->pattern);
    if (spec->stride_bytes == 0)
        return gc_err_set(err, GC_EINPUT, "ring: stride of 0 bytes (give a stride of at least 1)");
    if (spec->array_bytes % spec->stride_bytes != 0)
        return gc_err_set(err, GC_EINPUT,
                          "ring: array of %zu bytes is not a whole number of %zu-byte strides "
                          "(round the array to a multiple of the stride)",
                          spec->array_bytes, spec->stride_bytes);
    size_t n = spec->array_bytes / spec->stride_bytes;
    if (n < 2)
        return gc_err_set(err, GC_EINPUT,
                          "ring: %zu slot(s) of %zu bytes in %zu bytes; a ring needs at least 2 "
                          "(use a larger array or a smaller stride)",
                          n, spec->stride_bytes, spec->array_bytes);
    if (n > GC_RING_SLOTS_MAX)
        return gc_err_set(err, GC_ELIMIT,
                          "ring: %zu slots is more than the %zu a 32-bit index holds "
                          "(use a larger stride)",
                          n, GC_RING_SLOTS_MAX);
    if (spec->pattern == GC_RING_RAND && spec->page_bytes &&
        spec->page_bytes % spec->stride_bytes != 0)
        return gc_err_set(err, GC_EINPUT,
                          "ring: page of %zu bytes is not a multiple of the %zu-byte stride "
                          "(use a page size that the stride divides, or 0 for no pages)",
                          spec->page_bytes, spec->stride_bytes);
    *slots = n;
    return 0;
}

/* uniform in [0, n), n >= 1, without modulo bias */
static uint64_t below(uint64_t *s, uint64_t n)
{
    uint64_t lim = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = gc_rng_next(s);
    while (x >= lim);
    return x % n;
}

/* Fisher-Yates shuffle of a[0..n) */
static void shuffle(uint32_t *a, size_t n, uint64_t *s)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)below(s, i);
        uint32_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

int gc_ring_build(const gc_ring_spec_t *spec, uint32_t *order, uint32_t *next, size_t slots,
                  gc_err_t *err)
{
    size_t n;
    int rc = gc_ring_check(spec, &n, err);
    if (rc)
        return rc;
    if (slots != n)
        return gc_err_set(err, GC_EINPUT, "ring: %zu entries given for a ring of %zu slots",
                          slots, n);
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    if (spec->pattern == GC_RING_RAND) {
        uint64_t s = spec->seed;
        size_t per = spec->page_bytes ? spec->page_bytes / spec->stride_bytes : n;
        for (size_t p = 0; p < n; p += per) {
            size_t len = n - p < per ? n - p : per;
            shuffle(order + p, len, &s);
        }
    }
    if (next)
        for (size_t k = 0; k < n; k++)
            next[order[k]] = order[k + 1 < n ? k + 1 : 0];
    return 0;
}

int gc_ring_is_cycle(const uint32_t *next, size_t slots)
{
    if (slots < 2 || slots > GC_RING_SLOTS_MAX)
        return 0;
    size_t s = 0;
    for (size_t k = 1; k <= slots; k++) {
        s = next[s];
        if (s >= slots)
            return 0;
        if (s == 0)
            return k == slots; /* back at the start: a full cycle only after `slots` steps */
    }
    return 0;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

int gc_ring_sizes(size_t l1_bytes, size_t l2_bytes, size_t align_bytes, int quick, size_t *out,
                  int max, gc_err_t *err)
{
    if (l1_bytes < 4096)
        return gc_err_set(err, GC_EINPUT, "ring sizes: L1 of %zu bytes (at least 4096)", l1_bytes);
    if (l2_bytes < 4 * l1_bytes)
        return gc_err_set(err, GC_EINPUT,
                          "ring sizes: L2 of %zu bytes is less than 4x the L1 (%zu bytes)",
                          l2_bytes, l1_bytes);
    if (align_bytes == 0 || align_bytes > 1024 || (align_bytes & (align_bytes - 1)))
        return gc_err_set(err, GC_EINPUT,
                          "ring sizes: alignment of %zu bytes (a power of two up to 1024)",
                          align_bytes);
    /* L2 fractions in thousandths: dense around 1/2 and 1 */
    static const int frac[] = {250, 300, 350, 400, 440, 470, 490, 500, 510, 530, 560, 600, 700,
                               800, 850, 900, 950, 980, 1000, 1020, 1050, 1100, 1200, 1350,
                               1500, 2000, 3000, 4000};
    enum { CAP = 128 };
    size_t v[CAP];
    int n = 0;
    for (size_t s = 1024; s <= 32768; s *= 2)
        v[n++] = s;
    for (size_t s = l1_bytes / 4; s < l1_bytes / 2; s += l1_bytes / 16)
        v[n++] = s;
    for (size_t s = l1_bytes / 2; s <= l1_bytes + l1_bytes / 4 && n < CAP; s += l1_bytes / 32)
        v[n++] = s;
    for (size_t s = 2 * l1_bytes; s <= l2_bytes / 4 && n < CAP; s *= 2)
        v[n++] = s;
    for (size_t i = 0; i < sizeof(frac) / sizeof(frac[0]) && n < CAP; i++)
        v[n++] = (size_t)((double)l2_bytes * frac[i] / 1000.0);
    for (int i = 0; i < n; i++)
        v[i] = v[i] / align_bytes * align_bytes;
    qsort(v, (size_t)n, sizeof(v[0]), cmp_size);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (v[i] > 0 && (m == 0 || v[i] != v[m - 1]))
            v[m++] = v[i];
    int k = 0;
    for (int i = 0; i < m; i++) {
        if (quick && i % 3 != 0 && i != m - 1)
            continue;
        if (k >= max)
            return gc_err_set(err, GC_ELIMIT, "ring sizes: more than %d sizes", max);
        out[k++] = v[i];
    }
    return k;
}
