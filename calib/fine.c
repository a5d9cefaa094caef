/* fine.c - the fine P-chase's per-address and per-latency aggregate
 * (see fine.h). Two open-addressing hash tables of double tuples. */
#include "fine.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* a growing array of records of `size` bytes, indexed by a hash of their
 * first `nkey` doubles (slots hold index + 1; 0 empty) */
typedef struct dtab {
    char *rec;
    size_t size, nkey, n, cap;
    size_t *slot;
    size_t nslot; /* a power of two, at least twice n */
} dtab_t;

typedef struct bin {
    double array_bytes, cyc;
    size_t n;
} bin_t;

struct gc_fine {
    dtab_t bins;  /* (array_bytes, latency) -> accesses */
    dtab_t addrs; /* gc_fine_addr_t by (sm, array, stride, offset) */
    dtab_t arrays; /* distinct array sizes */
    int col[5];   /* sm, array_bytes, stride_bytes, offset_bytes, latency_cyc; -1: unknown */
};

/* FNV-1a over the bytes of nkey doubles */
static size_t hash_key(const double *k, size_t nkey)
{
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *b = (const unsigned char *)k;
    for (size_t i = 0; i < nkey * sizeof(double); i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return (size_t)(h ^ (h >> 29));
}

/* double the slot array and re-insert every record */
static int dtab_rehash(dtab_t *d)
{
    size_t ns = d->nslot ? 2 * d->nslot : 256;
    size_t *s = calloc(ns, sizeof(*s));
    if (!s)
        return -1;
    for (size_t i = 0; i < d->n; i++) {
        size_t j = hash_key((const double *)(d->rec + i * d->size), d->nkey) & (ns - 1);
        while (s[j])
            j = (j + 1) & (ns - 1);
        s[j] = i + 1;
    }
    free(d->slot);
    d->slot = s;
    d->nslot = ns;
    return 0;
}

/* The record whose key is key (nkey doubles, no -0), added zero-filled
 * behind its key when new (*added = 1). NULL when out of memory. */
static void *dtab_get(dtab_t *d, const double *key, int *added)
{
    *added = 0;
    if (2 * (d->n + 1) > d->nslot && dtab_rehash(d) != 0)
        return NULL;
    size_t mask = d->nslot - 1, j = hash_key(key, d->nkey) & mask;
    size_t kb = d->nkey * sizeof(double);
    for (; d->slot[j]; j = (j + 1) & mask) {
        char *r = d->rec + (d->slot[j] - 1) * d->size;
        if (!memcmp(r, key, kb))
            return r;
    }
    if (d->n == d->cap) {
        size_t nc = d->cap ? 2 * d->cap : 256;
        char *p = realloc(d->rec, nc * d->size);
        if (!p)
            return NULL;
        d->rec = p;
        d->cap = nc;
    }
    char *r = d->rec + d->n * d->size;
    memset(r, 0, d->size);
    memcpy(r, key, kb);
    d->slot[j] = ++d->n;
    *added = 1;
    return r;
}

static void dtab_free(dtab_t *d)
{
    free(d->rec);
    free(d->slot);
}

static void *fine_create(void)
{
    gc_fine_t *f = calloc(1, sizeof(*f));
    if (!f)
        return NULL;
    f->bins = (dtab_t){.size = sizeof(bin_t), .nkey = 2};
    f->addrs = (dtab_t){.size = sizeof(gc_fine_addr_t), .nkey = 4};
    f->arrays = (dtab_t){.size = sizeof(double), .nkey = 1};
    f->col[0] = -1;
    return f;
}

static void fine_destroy(void *p)
{
    gc_fine_t *f = p;
    if (!f)
        return;
    dtab_free(&f->bins);
    dtab_free(&f->addrs);
    dtab_free(&f->arrays);
    free(f);
}

/* One access: its (array, latency) bin, its address and its array size. */
static int fine_row(void *p, const gc_table_t *t, size_t row, gc_err_t *err)
{
    static const char *const names[5] = {"sm", "array_bytes", "stride_bytes", "offset_bytes",
                                         "latency_cyc"};
    gc_fine_t *f = p;
    if (f->col[0] < 0)
        for (int i = 0; i < 5; i++)
            if ((f->col[i] = gc_table_col(t, names[i])) < 0)
                return gc_err_set(err, GC_EINPUT, "internal: pchase_fine contract lacks %s",
                                  names[i]);
    double x[5];
    for (int i = 0; i < 5; i++)
        x[i] = gc_table_num(t, f->col[i], row) + 0.0; /* -0 -> 0: one key */
    int added;
    bin_t *b = dtab_get(&f->bins, (double[2]){x[1], x[4]}, &added);
    gc_fine_addr_t *a = b ? dtab_get(&f->addrs, x, &added) : NULL;
    if (a && added) {
        a->min_cyc = x[4];
        a->first = row;
    }
    if (!a || !dtab_get(&f->arrays, &x[1], &added))
        return gc_err_set(err, GC_ENOMEM, "out of memory (fine P-chase, %zu accesses)", row);
    b->n++;
    a->n++;
    if (x[4] < a->min_cyc)
        a->min_cyc = x[4];
    return 0;
}

const gc_table_sink_t gc_fine_sink = {fine_create, fine_row, fine_destroy};

static int cmp_bin(const void *a, const void *b)
{
    const bin_t *x = a, *y = b;
    return (x->cyc > y->cyc) - (x->cyc < y->cyc);
}

int gc_fine_hist(const gc_fine_t *f, double lo, double hi, double **v, size_t **w, size_t *nv)
{
    const bin_t *all = (const bin_t *)f->bins.rec;
    size_t n = 0;
    bin_t *sel = malloc((f->bins.n ? f->bins.n : 1) * sizeof(*sel));
    *v = malloc((f->bins.n ? f->bins.n : 1) * sizeof(**v));
    *w = malloc((f->bins.n ? f->bins.n : 1) * sizeof(**w));
    *nv = 0;
    if (!sel || !*v || !*w) {
        free(sel);
        return -1;
    }
    for (size_t i = 0; i < f->bins.n; i++)
        if (all[i].array_bytes > lo && all[i].array_bytes <= hi)
            sel[n++] = all[i];
    qsort(sel, n, sizeof(*sel), cmp_bin);
    for (size_t i = 0; i < n; i++) {
        if (*nv && (*v)[*nv - 1] == sel[i].cyc) {
            (*w)[*nv - 1] += sel[i].n;
        } else {
            (*v)[*nv] = sel[i].cyc;
            (*w)[(*nv)++] = sel[i].n;
        }
    }
    free(sel);
    return 0;
}

size_t gc_fine_narrays(const gc_fine_t *f)
{
    return f->arrays.n;
}

double gc_fine_array(const gc_fine_t *f, size_t i)
{
    return ((const double *)f->arrays.rec)[i];
}

size_t gc_fine_naddrs(const gc_fine_t *f)
{
    return f->addrs.n;
}

const gc_fine_addr_t *gc_fine_addr(const gc_fine_t *f, size_t i)
{
    return (const gc_fine_addr_t *)f->addrs.rec + i;
}
