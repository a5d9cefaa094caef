/* fuzz_kernel.c - libFuzzer target: the kernel-description loader on any
 * bytes, and the predictor on whatever loads (on the shipped H100 file).
 * Property checked beyond "no crash, no leak": a description that loads
 * and predicts gives a finite, non-negative time (never a silently wrong
 * number); a refusal always says why. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "arch/arch.h"
#include "model/predict/kernel.h"
#include "model/predict/predict.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static gc_arch_t *arch;
    gc_err_t e;
    gc_warn_set_quiet(1);
    if (!arch && gc_arch_open(&arch, "hopper-h100", &e) != 0) {
        fprintf(stderr, "fuzz_kernel: %s\n", e.msg);
        abort();
    }
    gc_kernel_t *k = NULL;
    if (gc_kernel_parse(&k, "fuzz.yaml", (const char *)data, size, &e) != 0) {
        if (!e.msg[0] || e.code == 0)
            abort();
        return 0;
    }
    gc_predict_opts_t o = {0};
    gc_prediction_t p;
    if (gc_predict(arch, k, &o, &p, &e) == 0) {
        if (!isfinite(p.cycles) || p.cycles < 0 || !isfinite(p.time_us) || p.time_us < 0) {
            fprintf(stderr, "prediction not a finite time: %g cycles, %g us\n", p.cycles,
                    p.time_us);
            abort();
        }
    } else if (!e.msg[0]) {
        abort();
    }
    gc_kernel_destroy(k);
    return 0;
}
