/* test_fine.c - the fine P-chase aggregated as it streams (calib/fine.h)
 * and the k-means on a histogram (gc_kmeans_fit_hist): known answers on a
 * small trace with repeated addresses, and a histogram whose counts are all
 * tripled clustering exactly like the original. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib/fine.h"
#include "calib/kmeans.h"
#include "check.h"

static const gc_col_t cols[] = {
    {"sm", GC_COL_WHOLE, 0, 0, NULL, 0},          {"array_bytes", GC_COL_NUM, 0, 1, NULL, 0},
    {"stride_bytes", GC_COL_NUM, 0, 1, NULL, 0},  {"offset_bytes", GC_COL_WHOLE, 0, 0, NULL, 0},
    {"latency_cyc", GC_COL_NUM, 0, 1, NULL, 0},
};

static void test_aggregate(const char *dir)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/fine.csv", dir);
    FILE *fp = fopen(path, "w");
    fputs("# gpucal-trace: 1\n# bench: pchase_fine\n"
          "sm,array_bytes,stride_bytes,step,offset_bytes,latency_cyc\n"
          "0,4096,32,0,0,280\n"
          "0,4096,32,1,32,460\n"
          "1,8192,32,0,0,281\n"
          "0,4096,32,0,0,275\n"  /* address 1 again, lower */
          "0,4096,32,1,32,470\n" /* address 2 again, higher */
          "1,8192,32,0,-0,281\n" /* -0 is address 3 */
          "# end: 6\n",
          fp);
    fclose(fp);
    gc_table_t *t;
    gc_err_t e;
    CHECK(gc_table_stream(&t, path, cols, 5, &gc_fine_sink, &e) == 0);
    if (!t)
        return;
    const gc_fine_t *f = t->agg;
    CHECK(t->nrows == 6);
    CHECK(gc_fine_naddrs(f) == 3);
    const gc_fine_addr_t *a = gc_fine_addr(f, 0), *b = gc_fine_addr(f, 1), *c = gc_fine_addr(f, 2);
    CHECK(a->sm == 0 && a->array_bytes == 4096 && a->offset_bytes == 0 && a->stride_bytes == 32);
    CHECK(a->min_cyc == 275 && a->first == 0 && a->n == 2);
    CHECK(b->offset_bytes == 32 && b->min_cyc == 460 && b->first == 1 && b->n == 2);
    CHECK(c->sm == 1 && c->array_bytes == 8192 && c->min_cyc == 281 && c->first == 2 && c->n == 2);
    CHECK(gc_fine_narrays(f) == 2 && gc_fine_array(f, 0) == 4096 && gc_fine_array(f, 1) == 8192);
    double *v;
    size_t *w, nv;
    CHECK(gc_fine_hist(f, 0, 4096, &v, &w, &nv) == 0); /* the 4 KiB array only */
    CHECK(nv == 4);
    if (nv == 4)
        CHECK(v[0] == 275 && v[1] == 280 && v[2] == 460 && v[3] == 470 && w[0] == 1 &&
              w[3] == 1);
    free(v);
    free(w);
    CHECK(gc_fine_hist(f, 0, INFINITY, &v, &w, &nv) == 0); /* both: 281 twice */
    CHECK(nv == 5);
    if (nv == 5)
        CHECK(v[2] == 281 && w[2] == 2);
    free(v);
    free(w);
    gc_table_free(t);
    unlink(path);
}

/* two clusters of whole numbers and a far outlier; the same histogram with
 * every count tripled gives the same k, centres, medians, spreads */
static void test_hist_scaled(void)
{
    double v[40];
    size_t w[40], w3[40], nv = 0;
    for (int i = 0; i < 15; i++, nv++) {
        v[nv] = 270 + i;
        w[nv] = (size_t)(10 + (i * 7) % 5);
    }
    for (int i = 0; i < 15; i++, nv++) {
        v[nv] = 450 + 2 * i;
        w[nv] = (size_t)(10 + (i * 3) % 4);
    }
    v[nv] = 5000;
    w[nv++] = 1;
    for (size_t i = 0; i < nv; i++)
        w3[i] = 3 * w[i];
    gc_kmeans_opts_t o;
    gc_kmeans_defaults(&o);
    o.min_spread = 1;
    gc_kmeans_t r1, r3;
    int lab1[40], lab3[40];
    gc_err_t e;
    CHECK(gc_kmeans_fit_hist(v, w, nv, &o, &r1, lab1, &e) == 0);
    CHECK(gc_kmeans_fit_hist(v, w3, nv, &o, &r3, lab3, &e) == 0);
    CHECK(r1.k == 2 && r3.k == 2);
    CHECK(r1.n_high == 1 && r3.n_high == 3);
    CHECK(lab1[nv - 1] == -1 && lab1[0] == 0 && lab1[nv - 2] == 1);
    CHECK(!memcmp(lab1, lab3, nv * sizeof(int)));
    for (int j = 0; j < 2; j++) {
        CHECK(r1.c[j].centre == r3.c[j].centre);
        CHECK(r1.c[j].median == r3.c[j].median);
        CHECK(r1.c[j].rspread == r3.c[j].rspread);
        CHECK(r1.c[j].min == r3.c[j].min && r1.c[j].max == r3.c[j].max);
        CHECK(r3.c[j].n == 3 * r1.c[j].n);
    }
    /* and the same as the expanded samples */
    double x[1000];
    size_t n = 0;
    for (size_t i = 0; i < nv; i++)
        for (size_t k = 0; k < w[i]; k++)
            x[n++] = v[i];
    gc_kmeans_t rx;
    CHECK(gc_kmeans_fit(x, n, &o, &rx, NULL, &e) == 0);
    CHECK(!memcmp(&rx, &r1, sizeof(rx)));
    /* refusals */
    double bad[2] = {2, 1};
    size_t one[2] = {1, 1}, zero[2] = {1, 0};
    CHECK(gc_kmeans_fit_hist(bad, one, 2, &o, &r1, NULL, &e) == GC_EINPUT);
    CHECK(gc_kmeans_fit_hist(v, zero, 2, &o, &r1, NULL, &e) == GC_EINPUT);
    CHECK(gc_kmeans_fit_hist(v, one, 1, &o, &r1, NULL, &e) == GC_ENODATA);
}

int main(void)
{
    char dir[256];
    snprintf(dir, sizeof(dir), "/tmp/gc_fine_test_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_aggregate(dir);
    test_hist_scaled();
    rmdir(dir);
    CHECK_DONE();
}
