/* bench_predict.c - predictions per second on one core.
 *
 *   bench_predict [SECONDS]   (default 1 s per case; GC_SRC and GPUCAL_ARCH_DIR
 *                              point at the source tree and arch/ as in ctest)
 *
 * Loads an arch and a kernel description once, then times gc_predict in a
 * loop (the descriptions are parsed once: a design-space sweep re-predicts
 * the same description on many archs or clocks). Also times the gemm
 * template, which builds and predicts every candidate tile per call, and a
 * full file load + predict, and resolving an arch into its machine (done
 * once at load, machine.h). Prints one line per case. Target: >= 1e5
 * predictions per second (goal 1e6).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "arch/arch.h"
#include "model/predict/gemm.h"
#include "model/predict/kernel.h"
#include "model/predict/machine.h"
#include "model/predict/predict.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile double sink;

/* Predictions per second of description `name` on a (secs seconds). */
static int bench_file(const char *src, const char *name, const gc_arch_t *a, double secs)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/model/kernels/%s.yaml", src, name);
    gc_err_t e;
    gc_err_clear(&e);
    gc_kernel_t *k = NULL;
    if (gc_kernel_load(&k, path, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    gc_predict_opts_t o = {0};
    gc_prediction_t p;
    long n = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < 1000; i++) {
            if (gc_predict(a, k, &o, &p, &e))
                return 1;
            sink += p.cycles;
        }
        n += 1000;
    } while ((t = now() - t0) < secs);
    printf("predict %-22s on %-12s %10.0f predictions/s (%.2f us each)\n", name, a->name, n / t,
           1e6 * t / n);
    gc_kernel_destroy(k);
    return 0;
}

/* The gemm template: every candidate tile built and predicted per call. */
static int bench_gemm(const gc_arch_t *hop, double secs)
{
    gc_err_t e;
    gc_predict_opts_t o = {0};
    gc_gemm_result_t g;
    long n = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < 100; i++) {
            if (gc_gemm_predict(hop, 4096, 4096, 4096, GC_GEMM_F16, &o, &g, &e))
                return 1;
            sink += g.pred.cycles;
        }
        n += 100;
    } while ((t = now() - t0) < secs);
    printf("gemm template 4096^3 f16     on %-12s %10.0f calls/s (%d candidates each)\n",
           hop->name, n / t, g.candidates);
    return 0;
}

/* Reading the YAML every time: what a shell loop calling gpucal pays. */
static int bench_load(const char *src, const gc_arch_t *ada, double secs)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/model/kernels/mma_matmul_3_1.yaml", src);
    gc_err_t e;
    gc_predict_opts_t o = {0};
    gc_prediction_t p;
    long n = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < 100; i++) {
            gc_kernel_t *k;
            if (gc_kernel_load(&k, path, &e) || gc_predict(ada, k, &o, &p, &e))
                return 1;
            sink += p.cycles;
            gc_kernel_destroy(k);
        }
        n += 100;
    } while ((t = now() - t0) < secs);
    printf("load + predict mma_matmul_3_1 on %-12s %10.0f per second\n", ada->name, n / t);
    return 0;
}

/* Resolving an arch into its machine: paid once per arch at load. */
static int bench_resolve(const gc_arch_t *hop, double secs)
{
    gc_err_t e;
    long n = 0;
    double t0 = now(), t;
    do {
        for (int i = 0; i < 100; i++) {
            gc_machine_t *m = NULL;
            if (gc_machine_create(&m, hop, &e))
                return 1;
            sink += m->sms;
            gc_machine_destroy(m);
        }
        n += 100;
    } while ((t = now() - t0) < secs);
    printf("resolve machine               of %-12s %10.0f per second (%zu tensor forms)\n",
           hop->name, n / t, hop->n_tensor);
    return 0;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 1.0;
    const char *src = getenv("GC_SRC") ? getenv("GC_SRC") : ".";
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *ada = NULL, *hop = NULL;
    /* each arch resolved once into its machine, as `gpucal predict` does */
    if (gc_arch_open(&ada, "ada-rtx4090", &e) || gc_arch_open(&hop, "hopper-h800", &e) ||
        gc_machine_attach(ada, &e) || gc_machine_attach(hop, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    int rc = bench_file(src, "mma_matmul_3_1", ada, secs) ||
             bench_file(src, "h100_s003_wmma_n4096", hop, secs) ||
             bench_file(src, "h100_stream_copy", hop, secs) || bench_gemm(hop, secs) ||
             bench_load(src, ada, secs) || bench_resolve(hop, secs);
    gc_arch_destroy(ada);
    gc_arch_destroy(hop);
    return rc;
}
