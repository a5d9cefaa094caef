/* bench_kmeans.c - time of gc_kmeans_fit on N samples (default 1e6) of a
 * 4-cluster L2-latency mixture with a 0.4 % tail, labels on (as calib
 * runs it). Target: under 1 s on one core. Prints the figures; not a test.
 *
 *   bench_kmeans [N] [REPEATS]
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "calib/kmeans.h"
#include "util/rng.h"

static uint64_t rs = 42;


static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtod(argv[1], NULL) : 1000000;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 2 || reps < 1) {
        fprintf(stderr, "usage: bench_kmeans [N >= 2] [REPEATS >= 1]\n");
        return 2;
    }
    const double mu[] = {258.0, 414.1, 555.5, 743.7}, sd[] = {6, 9, 14, 18};
    const double share[] = {0.4, 0.3, 0.2, 0.1};
    double *x = malloc(n * sizeof(*x));
    int *lab = malloc(n * sizeof(*lab));
    if (!x || !lab)
        return 1;
    for (size_t i = 0; i < n; i++) {
        double u = gc_rng_open(&rs);
        if (u < 0.004) {
            x[i] = 1500 + 4500 * gc_rng_open(&rs);
            continue;
        }
        int j = 0;
        double acc = share[0];
        u = gc_rng_open(&rs);
        while (j < 3 && u >= acc)
            acc += share[++j];
        /* whole cycles, as the traces have them */
        x[i] = round(mu[j] + sd[j] * gc_rng_gauss(&rs));
    }
    gc_kmeans_opts_t o;
    gc_kmeans_defaults(&o);
    o.min_spread = 1;
    gc_kmeans_t r;
    gc_err_t e;
    double best = 1e30, total = 0;
    for (int i = 0; i < reps; i++) {
        double t0 = now();
        if (gc_kmeans_fit(x, n, &o, &r, lab, &e) != 0) {
            fprintf(stderr, "bench_kmeans: %s\n", e.msg);
            return 1;
        }
        double t = now() - t0;
        total += t;
        best = t < best ? t : best;
    }
    printf("k-means of %zu samples (labels on): best %.3f s, mean %.3f s over %d runs "
           "(target < 1 s on one core)\n",
           n, best, total / reps, reps);
    printf("k = %d, rounds %d, outliers %zu low + %zu high\n", r.k, r.rounds, r.n_low, r.n_high);
    for (int j = 0; j < r.k; j++)
        printf("  cluster %d: centre %.2f [%.2f, %.2f] sd %.2f share %.4f\n", j + 1, r.c[j].centre,
               r.c[j].lo, r.c[j].hi, r.c[j].spread, r.c[j].share);
    free(x);
    free(lab);
    return 0;
}
