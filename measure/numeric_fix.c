/* numeric_fix.c - read and check the committed numerics fixtures
 * (numeric_fix.h). */
#include "numeric_fix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/fsio.h"

enum { MAX_BYTES = 64 << 20, MAX_SETS = 4096 };

/* Split line (modified in place) at commas into at most max cells; returns
 * the count and fills col[] with each cell's 1-based column. */
static int cells(char *line, char **cell, int *col, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        cell[n] = p;
        col[n] = (int)(p - line) + 1;
        n++;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    return n;
}

/* One manifest row (cells c at columns col, file line `line`) into x. */
static int parse_set(const char *path, long line, char *const *c, const int *col, gc_nfix_t *x,
                     gc_err_t *err)
{
    x->line = line;
    snprintf(x->set, sizeof(x->set), "%s", c[0]);
    x->form = gc_nform_find(c[1], c[2], c[3], c[4]);
    if (x->form < 0) {
        return gc_err_at(err, GC_EINPUT, path, line, col[1],
                         "no mma form %s %s %s.%s in this gpucal (see measure/numeric_gen.c)", c[1],
                         c[2], c[3], c[4]);
    }
    int g = gc_ngen_parse(c[5]);
    if (g < 0) {
        return gc_err_at(err, GC_EINPUT, path, line, col[5],
                         "unknown generator '%s' (normal wide cancel special subnorm probe)", c[5]);
    }
    char *e1, *e2, *e3, *e4;
    errno = 0;
    unsigned long long seed = strtoull(c[6], &e1, 10);
    long mmas = strtol(c[7], &e2, 10);
    long cases = strtol(c[9], &e3, 10);
    unsigned long long fnv = strtoull(c[10], &e4, 16);
    if (errno || *e1 || *e2 || *e3 || *e4 || !*c[6] || !*c[10]) {
        return gc_err_at(err, GC_EINPUT, path, line, col[6],
                         "seed, mmas, cases or fnv1a64 is not a number");
    }
    int sel = !strcmp(c[8], "all") ? GC_NSEL_ALL : !strcmp(c[8], "diag") ? GC_NSEL_DIAG : -1;
    x->s.form = x->form;
    x->s.gen = (gc_ngen_t)g;
    x->s.seed = (uint64_t)seed;
    x->s.mmas = mmas;
    x->s.sel = (gc_nsel_t)(sel < 0 ? 0 : sel);
    if (sel < 0 || mmas < 1 || mmas > 1000000 || cases != mmas * gc_nset_per_mma(&x->s)) {
        return gc_err_at(err, GC_EINPUT, path, line, col[7],
                         "mmas %s, outputs %s and cases %s do not agree (cases = mmas x "
                         "outputs per mma)",
                         c[7], c[8], c[9]);
    }
    x->cases = cases;
    x->fnv = (uint64_t)fnv;
    return 0;
}

int gc_nfix_list(const char *dir, gc_nfix_t **sets, int *n, gc_err_t *err)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/sets.csv", dir);
    char *buf;
    size_t len;
    int rc = gc_file_read(path, MAX_BYTES, &buf, &len, err);
    if (rc)
        return rc;
    gc_nfix_t *v = calloc(MAX_SETS, sizeof(*v));
    if (!v) {
        free(buf);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    int nv = 0;
    long line = 0;
    static const char header[] = "set,inst,shape,a,c,gen,seed,mmas,outputs,cases,fnv1a64";
    char *next = buf;
    while (!rc && next && *next) {
        char *l = next, *nl = strchr(l, '\n');
        next = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        line++;
        size_t ll = strlen(l);
        if (ll && l[ll - 1] == '\r')
            l[--ll] = '\0';
        if (!ll && line > 1)
            continue;
        if (line == 1) {
            if (strcmp(l, header))
                rc = gc_err_at(err, GC_EINPUT, path, 1, 1,
                               "not a fixture manifest (expected the header '%s')", header);
            continue;
        }
        char *c[12];
        int col[12];
        int nc = cells(l, c, col, 12);
        if (nc != 11) {
            rc = gc_err_at(err, GC_EINPUT, path, line, 1, "%d cells, expected 11 (%s)", nc, header);
            break;
        }
        if (nv == MAX_SETS) {
            rc = gc_err_at(err, GC_ELIMIT, path, line, 1, "more than %d sets", MAX_SETS);
            break;
        }
        gc_nfix_t *x = &v[nv];
        if ((rc = parse_set(path, line, c, col, x, err)) != 0)
            break;
        nv++;
    }
    free(buf);
    if (!rc && line < 1)
        rc = gc_err_at(err, GC_EINPUT, path, 1, 1, "empty fixture manifest");
    if (rc) {
        free(v);
        return rc;
    }
    *sets = v;
    *n = nv;
    return 0;
}

int gc_nfix_load(const char *dir, const gc_nfix_t *fx, uint32_t **out, gc_err_t *err)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s.bin", dir, fx->set);
    char *buf;
    size_t len;
    int rc = gc_file_read(path, MAX_BYTES, &buf, &len, err);
    if (rc)
        return rc;
    int cb = gc_nfmt_info(gc_nforms[fx->form].c)->bytes;
    if (len != (size_t)fx->cases * (size_t)cb) {
        free(buf);
        return gc_err_set(err, GC_EINPUT, "%s: %zu bytes, expected %ld outputs of %d bytes",
                          path, len, fx->cases, cb);
    }
    if (gc_nfnv1a(GC_NFNV_INIT, buf, (unsigned long)len) != fx->fnv) {
        free(buf);
        return gc_err_set(err, GC_EINPUT, "%s: checksum differs from sets.csv (a damaged or "
                          "replaced fixture)", path);
    }
    uint32_t *v = malloc(sizeof(*v) * (size_t)(fx->cases ? fx->cases : 1));
    if (!v) {
        free(buf);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    const unsigned char *p = (const unsigned char *)buf;
    for (long i = 0; i < fx->cases; i++)
        v[i] = cb == 4 ? (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
                             (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24
                       : (uint32_t)p[2 * i] | (uint32_t)p[2 * i + 1] << 8;
    free(buf);
    *out = v;
    return 0;
}

long gc_nfix_check(const gc_nfix_t *fx, const uint32_t *out, gc_nfix_eval_fn eval, void *cookie,
                   long *miss, gc_nmiss_t *show, int nshow)
{
    const gc_nform_t *f = &gc_nforms[fx->form];
    int m = f->m, n = f->n, k = f->k, per = gc_nset_per_mma(&fx->s);
    uint32_t A[64 * 32], B[32 * 8], C[64 * 8], D[64 * 8];
    long cases = 0, bad = 0;
    for (long q = 0; q < fx->s.mmas; q++) {
        if (gc_ngen_fill(f, fx->s.gen, fx->s.seed, q, A, B, C))
            break;
        eval(cookie, f, A, B, C, D);
        for (int i = 0; i < per; i++) {
            int r, c;
            gc_nset_pos(&fx->s, i, &r, &c);
            uint32_t want = out[q * per + i], got = D[r * n + c];
            cases++;
            if (want != got) {
                if (bad < nshow) {
                    show[bad].mma = q;
                    show[bad].row = r;
                    show[bad].col = c;
                    show[bad].want = want;
                    show[bad].got = got;
                }
                bad++;
            }
        }
    }
    (void)m;
    (void)k;
    *miss = bad;
    return cases;
}
