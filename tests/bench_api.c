/* bench_api.c - predictions per second through the public C API
 * (include/gpucal/gpucal.h) on one core: a kernel description (loaded
 * once) and the gemm template (shape sweep), both on hopper-h100, and the
 * arch load itself. Prints figures; not a test.
 * With THREADS > 1 also the aggregate rate of THREADS threads predicting
 * the kernel on the one loaded arch.
 * Each rate is given per second of wall time and per second of the thread's
 * CPU time: on a loaded host the second still tells the code's speed.
 * Usage: bench_api [ARCH] [KERNEL.yaml] [THREADS]  (run from the source
 * tree, or with GPUCAL_ARCH_DIR set) */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../include/gpucal/gpucal.h"

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now_s(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

/* CPU time of the calling thread */
static double cpu_s(void)
{
    return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

/* Kernel-description predictions for about one second. */
static void bench_kernel(const gpucal_arch *a, const char *path)
{
    gpucal_error err;
    gpucal_kernel *k;
    if (gpucal_kernel_load(&k, path, &err)) {
        printf("kernel: %s\n", err.message);
        return;
    }
    gpucal_result r;
    long n = 0;
    double sum = 0, t0 = now_s(), c0 = cpu_s(), t;
    do {
        for (int i = 0; i < 10000; i++, n++) {
            gpucal_predict_kernel(a, k, NULL, &r, &err);
            sum += r.time_us;
        }
        t = now_s() - t0;
    } while (t < 1.0);
    double c = cpu_s() - c0;
    printf("kernel description %s: %.3g predictions/s (%.2f us each; checksum %.6g); "
           "%.3g per CPU second (%.2f us)\n",
           path, n / t, 1e6 * t / n, sum / n, n / c, 1e6 * c / n);
    gpucal_kernel_free(k);
}

typedef struct job {
    const gpucal_arch *a;
    const gpucal_kernel *k;
    long n;
} job_t;

/* One thread: kernel predictions for about one second. */
static void *thread_kernel(void *arg)
{
    job_t *j = arg;
    gpucal_result r;
    gpucal_error err;
    double t0 = now_s();
    do {
        for (int i = 0; i < 10000; i++, j->n++)
            gpucal_predict_kernel(j->a, j->k, NULL, &r, &err);
    } while (now_s() - t0 < 1.0);
    return NULL;
}

/* nt threads on one arch and kernel: the aggregate rate. */
static void bench_threads(const gpucal_arch *a, const char *path, int nt)
{
    gpucal_error err;
    gpucal_kernel *k;
    if (nt < 2 || nt > 256 || gpucal_kernel_load(&k, path, &err))
        return;
    pthread_t th[256];
    job_t jobs[256];
    double t0 = now_s();
    for (int i = 0; i < nt; i++) {
        jobs[i] = (job_t){a, k, 0};
        pthread_create(&th[i], NULL, thread_kernel, &jobs[i]);
    }
    long n = 0;
    for (int i = 0; i < nt; i++) {
        pthread_join(th[i], NULL);
        n += jobs[i].n;
    }
    double t = now_s() - t0;
    printf("kernel description, %d threads on one arch: %.3g predictions/s\n", nt, n / t);
    gpucal_kernel_free(k);
}

/* gemm template over a sweep of shapes for about one second. */
static void bench_gemm(const gpucal_arch *a)
{
    static const char *const sizes[] = {"128", "256", "512", "1024", "2048", "4096", "8192"};
    const char *keys[] = {"m", "n", "k", "dtype"}, *vals[4];
    gpucal_error err;
    gpucal_result r;
    long n = 0;
    double t0 = now_s(), c0 = cpu_s(), t;
    do {
        for (int i = 0; i < 343; i++, n++) {
            vals[0] = sizes[i % 7], vals[1] = sizes[i / 7 % 7], vals[2] = sizes[i / 49];
            vals[3] = "f16";
            if (gpucal_predict_template(a, "gemm", 4, keys, vals, NULL, &r, &err)) {
                printf("gemm: %s\n", err.message);
                return;
            }
        }
        t = now_s() - t0;
    } while (t < 1.0);
    double c = cpu_s() - c0;
    printf("gemm template: %.3g predictions/s (%.2f us each); %.3g per CPU second (%.2f us)\n",
           n / t, 1e6 * t / n, n / c, 1e6 * c / n);
}

int main(int argc, char **argv)
{
    const char *arch = argc > 1 ? argv[1] : "hopper-h100";
    const char *kernel = argc > 2 ? argv[2] : "model/kernels/h100_pipe_gemm.yaml";
    gpucal_error err;
    gpucal_arch *a;
    double t0 = now_s();
    if (gpucal_arch_load(&a, arch, &err)) {
        printf("%s\n", err.message);
        return 1;
    }
    printf("arch %s: loaded and resolved in %.2f ms\n", arch, 1e3 * (now_s() - t0));
    bench_kernel(a, kernel);
    bench_gemm(a);
    bench_threads(a, kernel, argc > 3 ? atoi(argv[3]) : 0);
    gpucal_arch_free(a);
    return 0;
}
