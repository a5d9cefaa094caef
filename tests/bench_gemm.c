/* bench_gemm.c - time of one `predict gemm` call (family rules, every
 * candidate tile and split built and predicted, the chosen kernels
 * re-timed at the sustained clock) for shapes of each class, on one core.
 *
 *   bench_gemm [SECONDS]   (default 0.5 s per case; GPUCAL_ARCH_DIR points
 *                           at arch/ as in ctest)
 *
 * Prints one line per case: microseconds per call and candidates compared.
 * Target: <= 20 us per call. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "arch/arch.h"
#include "model/predict/gemm.h"
#include "model/predict/machine.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile double sink;

typedef struct bcase {
    const char *what;
    gc_gemm_args_t g;
} bcase_t;

static const bcase_t cases[] = {
    {"square 4096^3 f16", {4096, 4096, 4096, 1, GC_GEMM_F16, "nn"}},
    {"square 1024^3 tf32", {1024, 1024, 1024, 1, GC_GEMM_TF32, "nn"}},
    {"square 4096^3 f32 (SIMT)", {4096, 4096, 4096, 1, GC_GEMM_F32, "nn"}},
    {"skinny 16x8192x8192 bf16", {16, 8192, 8192, 1, GC_GEMM_BF16, "nn"}},
    {"gemv 1x8192x8192 f32", {1, 8192, 8192, 1, GC_GEMM_F32, "nn"}},
    {"large K 256x256x16384 f16", {256, 256, 16384, 1, GC_GEMM_F16, "nn"}},
    {"unaligned 4095^3 f16", {4095, 4095, 4095, 1, GC_GEMM_F16, "nn"}},
    {"batched 32 x 512^3 f16", {512, 512, 512, 32, GC_GEMM_F16, "nn"}},
};

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.5;
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *h = NULL;
    if (gc_arch_open(&h, "hopper-h100", &e) || gc_machine_attach(h, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    gc_gemm_result_t *r = malloc(sizeof(*r));
    if (!r)
        return 1;
    gc_predict_opts_t o = {0};
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        long n = 0;
        double t0 = now(), t;
        do {
            for (int i = 0; i < 20; i++) {
                if (gc_gemm_predict_call(h, &cases[c].g, &o, r, &e)) {
                    fprintf(stderr, "%s: %s\n", cases[c].what, e.msg);
                    return 1;
                }
                sink += r->time_us;
            }
            n += 20;
        } while ((t = now() - t0) < secs);
        printf("predict gemm %-28s on %s: %7.2f us per call (%d candidates, %d kernel%s)\n",
               cases[c].what, h->name, 1e6 * t / n, r->candidates, r->n_kernels,
               r->n_kernels > 1 ? "s" : "");
    }
    free(r);
    gc_arch_destroy(h);
    return 0;
}
