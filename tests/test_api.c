/* test_api.c - the public C API (include/gpucal/gpucal.h): loading,
 * kernel and template predictions equal to the predictor's, errors through
 * the error record, JSON requests, and concurrent predictions from 8
 * threads on one loaded arch and kernel giving bit-identical results.
 * Uses the shipped files ($GPUCAL_ARCH_DIR and $GC_SRC, as ctest sets). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "include/gpucal/gpucal.h"
#include "check.h"

static gpucal_arch *arch;
static gpucal_kernel *kern;
static gpucal_result ref_k, ref_g;
static const char *const gkeys[] = {"m", "n", "k", "dtype"};
static const char *const gvals[] = {"2048", "1024", "4096", "bf16"};

static void *worker(void *arg)
{
    int *bad = arg;
    for (int i = 0; i < 300; i++) {
        gpucal_result r;
        gpucal_error e;
        if (gpucal_predict_kernel(arch, kern, NULL, &r, &e) ||
            memcmp(&r.time_us, &ref_k.time_us, sizeof(double)) ||
            memcmp(r.breakdown_cyc, ref_k.breakdown_cyc, sizeof(r.breakdown_cyc)))
            (*bad)++;
        if (i % 10 == 0 &&
            (gpucal_predict_template(arch, "gemm", 4, gkeys, gvals, NULL, &r, &e) ||
             memcmp(&r.time_us, &ref_g.time_us, sizeof(double))))
            (*bad)++;
    }
    return NULL;
}

static void threads(void)
{
    pthread_t th[8];
    int bad[8] = {0};
    for (int i = 0; i < 8; i++)
        CHECK(pthread_create(&th[i], NULL, worker, &bad[i]) == 0);
    for (int i = 0; i < 8; i++) {
        pthread_join(th[i], NULL);
        CHECK(bad[i] == 0);
    }
}

static void predictions(void)
{
    gpucal_error e;
    gpucal_options clk = {.clock_mhz = 1000};
    gpucal_result r;
    CHECK(gpucal_predict_kernel(arch, kern, NULL, &ref_k, &e) == 0);
    CHECK(ref_k.time_us > 0 && ref_k.cycles > 0 && ref_k.n_kernels == 1 && ref_k.bound);
    double sum = 0;
    for (int i = 0; i < GPUCAL_R_N; i++)
        sum += ref_k.breakdown_cyc[i];
    CHECK_NEAR(sum, ref_k.cycles, 1e-6 * ref_k.cycles);
    CHECK(gpucal_predict_kernel(arch, kern, &clk, &r, &e) == 0);
    CHECK_NEAR(r.clock_mhz, 1000, 0);
    CHECK_STR(r.clock_source, "--clock");
    CHECK(gpucal_predict_template(arch, "gemm", 4, gkeys, gvals, NULL, &ref_g, &e) == 0);
    CHECK(ref_g.time_us > 0 && ref_g.n_kernels >= 1);
    static const char *const ak[] = {"batch", "heads", "seq", "head-dim", "causal", "dtype"};
    static const char *const av[] = {"2", "8", "1024", "64", "true", "f16"};
    CHECK(gpucal_predict_template(arch, "attention", 6, ak, av, NULL, &r, &e) == 0);
    CHECK(r.time_us > r.kernel_us && r.n_kernels >= 1);
    CHECK(gpucal_predict_template(arch, "gemm", 3, gkeys, gvals, NULL, &r, &e) == GPUCAL_EUSAGE);
    CHECK_STR(e.message, "--m, --n, --k and --dtype are required");
    CHECK(gpucal_predict_template(arch, "nope", 0, NULL, NULL, NULL, &r, &e) == GPUCAL_EUSAGE);
    static const char *const bk[] = {"mm"}, *const bv[] = {"1"};
    CHECK(gpucal_predict_template(arch, "gemm", 1, bk, bv, NULL, &r, &e) == GPUCAL_EUSAGE);
    CHECK(strstr(e.message, "gemm has no option 'mm'") != NULL);
}

static void loading_and_json(void)
{
    gpucal_error e;
    gpucal_arch *a;
    CHECK(gpucal_arch_load(&a, "hopper-h999", &e) == GPUCAL_EUSAGE && a == NULL);
    CHECK(strstr(e.message, "no shipped arch named 'hopper-h999'") != NULL);
    CHECK(gpucal_arch_load(&a, "/nonexistent/x.yaml", &e) != 0);
    char *js = NULL;
    CHECK(gpucal_arch_json(arch, &js, &e) == 0 && js && strstr(js, "\"name\": \"ampere-a100\""));
    gpucal_free(js);
    CHECK(gpucal_predict_json("{\"template\": \"stream\", \"op\": \"copy\", \"bytes\": 4096, "
                              "\"arch\": \"ampere-a100,ada-rtx4090\"}", &js, &e) == 0);
    CHECK(js && strstr(js, "\"arch\": \"ampere-a100\"") && strstr(js, "\n{") &&
          strstr(js, "\"arch\": \"ada-rtx4090\"") && js[strlen(js) - 1] == '}');
    gpucal_free(js);
    CHECK(gpucal_predict_json("{\"template\": 1}", &js, &e) == GPUCAL_EUSAGE);
    CHECK(js && !strncmp(js, "{\"error\": ", 10));
    gpucal_free(js);
    CHECK(gpucal_predict_json("{", &js, &e) == GPUCAL_EINPUT);
    gpucal_free(js);
    CHECK(strcmp(gpucal_template_name(0), "gemm") == 0 && gpucal_template_name(99) == NULL);
    CHECK(strcmp(gpucal_resource_name(GPUCAL_R_DRAM), "dram") == 0);
}

int main(void)
{
    gpucal_error e;
    char path[4096];
    const char *src = getenv("GC_SRC");
    snprintf(path, sizeof(path), "%s/model/kernels/mma_matmul_3_1.yaml", src ? src : "..");
    if (gpucal_arch_load(&arch, "ampere-a100", &e) || gpucal_kernel_load(&kern, path, &e)) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    predictions();
    threads();
    loading_and_json();
    gpucal_kernel_free(kern);
    gpucal_arch_free(arch);
    CHECK_DONE();
}
