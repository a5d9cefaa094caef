/* bench_calib.c - time of a whole calibration (gc_calib_run: reading every
 * trace, all fits, the arch filled and checked; the YAML is emitted to
 * memory, not saved) of the trace folder given on the command line.
 * Target: under 5 s for the H100 traces. Prints the figures; not a test.
 *
 *   bench_calib DIR [REPEATS]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "calib/calib.h"
#include "arch/arch.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench_calib DIR [REPEATS]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (reps < 1)
        reps = 1;
    gc_calib_opts_t o = {
        .dir = argv[1], .name = "bench", .out = "bench.yaml", .quiet = 1, .silent = 1};
    double best = 1e30, best_cpu = 1e30, total = 0;
    size_t bytes = 0;
    for (int i = 0; i < reps; i++) {
        gc_arch_t *a;
        gc_err_t e;
        gc_err_clear(&e);
        double t0 = now(), c0 = cpu();
        int rc = gc_calib_run(&o, &a, &e);
        if (rc) {
            fprintf(stderr, "bench_calib: %s\n", e.msg);
            return 1;
        }
        char *buf = NULL;
        FILE *fp = open_memstream(&buf, &bytes);
        gc_arch_emit(a, fp, &e);
        fclose(fp);
        free(buf);
        double t = now() - t0, tc = cpu() - c0;
        gc_arch_destroy(a);
        total += t;
        best = t < best ? t : best;
        best_cpu = tc < best_cpu ? tc : best_cpu;
    }
    printf("calibration of %s: best %.3f s wall (%.3f s CPU, one thread), mean %.3f s over %d "
           "runs; %zu bytes of YAML (target < 5 s)\n",
           argv[1], best, best_cpu, total / reps, reps, bytes);
    return 0;
}
