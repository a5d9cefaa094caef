/* test_template.c - the template registry (model/predict/template.h):
 * every template registered with options, option values checked for type
 * and bounds as the CLI says them, each template's describe equal in
 * time to its predict where both are one kernel (stream), the operators'
 * sums, and rule errors as GC_EUSAGE naming the option. Uses the shipped
 * ampere-a100 file ($GPUCAL_ARCH_DIR, as ctest sets it). */
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "model/predict/machine.h"
#include "model/predict/template.h"
#include "check.h"

/* Fill v from n "name=value" strings of template t. */
static int set_all(const gc_template_t *t, gc_tvals_t *v, const char *const *kv, int n,
                   gc_err_t *e)
{
    static char buf[16][64];
    memset(v, 0, sizeof(*v));
    for (int i = 0; i < n; i++) {
        snprintf(buf[i], sizeof(buf[i]), "%s", kv[i]);
        char *eq = strchr(buf[i], '=');
        *eq = '\0';
        const gc_topt_t *o = gc_template_opt(t, buf[i]);
        if (!o)
            return gc_err_set(e, GC_EUSAGE, "no option %s", buf[i]);
        int rc = gc_tvals_set(v, o, eq + 1, e);
        if (rc)
            return rc;
    }
    return 0;
}

static void registry(void)
{
    int n;
    const gc_template_t *all = gc_template_all(&n);
    static const char *const names[] = {"gemm", "stream", "attention", "softmax", "layernorm",
                                        "rowsum", "elementwise", "transpose", "conv2d"};
    CHECK(n == 9);
    for (int i = 0; i < n && i < 9; i++) {
        CHECK_STR(all[i].name, names[i]);
        CHECK(gc_template_find(names[i]) == &all[i]);
        CHECK(all[i].opts[0].name != NULL && all[i].describe && all[i].predict && all[i].usage);
        for (const gc_topt_t *o = all[i].opts; o->name; o++)
            CHECK(o->help && o->unit && (o->type != GC_TOPT_LONG || o->lo <= o->hi));
    }
    CHECK(gc_template_find("gemmm") == NULL);
    CHECK(gc_template_opt(gc_template_find("gemm"), "layout") != NULL);
    CHECK(gc_template_opt(gc_template_find("stream"), "m") == NULL);
}

static void values(void)
{
    const gc_template_t *g = gc_template_find("gemm");
    gc_tvals_t v = {0};
    gc_err_t e;
    gc_err_clear(&e);
    CHECK(gc_tvals_set(&v, gc_template_opt(g, "m"), "0", &e) == GC_EUSAGE);
    CHECK_STR(e.msg, "--m takes a whole number from 1 to 16777216, got '0'");
    CHECK(gc_tvals_set(&v, gc_template_opt(g, "m"), "12x", &e) == GC_EUSAGE);
    CHECK(gc_tvals_set(&v, gc_template_opt(g, "m"), "1e3", &e) == GC_EUSAGE);
    CHECK(gc_tvals_set_json(&v, gc_template_opt(g, "m"), "1e3", &e) == 0);
    CHECK(gc_tvals_long(&v, "m", 0) == 1000);
    CHECK(gc_tvals_set_json(&v, gc_template_opt(g, "m"), "1.5", &e) == GC_EUSAGE);
    CHECK(gc_tvals_set(&v, gc_template_opt(g, "m"), "64", &e) == 0);
    CHECK(gc_tvals_long(&v, "m", 0) == 64 && v.n == 1); /* set again: replaced */
    CHECK(gc_tvals_str(&v, "dtype") == NULL && gc_tvals_long(&v, "batch", 7) == 7);
}

/* stream: one kernel; describe's kernel predicts to the template's time. */
static void stream_describe(const gc_arch_t *a)
{
    const gc_template_t *t = gc_template_find("stream");
    static const char *const kv[] = {"op=triad", "bytes=1048576"};
    gc_tvals_t v;
    gc_err_t e;
    gc_err_clear(&e);
    CHECK(set_all(t, &v, kv, 2, &e) == 0);
    gc_tresult_t *r = calloc(1, sizeof(*r));
    gc_tplan_t plan;
    gc_predict_opts_t o = {0};
    CHECK(gc_template_predict(t, a, &v, &o, r, &e) == 0);
    CHECK(gc_template_describe(t, a, &v, &plan, &e) == 0 && plan.n == 1);
    gc_prediction_t p;
    if (plan.n == 1 && gc_predict(a, plan.k[0], &o, &p, &e) == 0)
        CHECK_NEAR(p.time_us, r->pred[0].time_us, 1e-12 * p.time_us);
    CHECK(!r->multi && r->n == 1 && strstr(r->json, "\"template\""));
    gc_tplan_free(&plan);
    gc_tresult_fini(r);
    free(r);
}

/* operators: the sum over kernels; missing and bad options as usage errors. */
static void operators(const gc_arch_t *a)
{
    const gc_template_t *t = gc_template_find("layernorm");
    static const char *const kv[] = {"rows=4096", "cols=1024", "dtype=bf16"};
    gc_tvals_t v;
    gc_err_t e;
    gc_err_clear(&e);
    CHECK(set_all(t, &v, kv, 3, &e) == 0);
    gc_tresult_t *r = calloc(1, sizeof(*r));
    gc_predict_opts_t o = {0};
    CHECK(gc_template_predict(t, a, &v, &o, r, &e) == 0);
    double sum = 0;
    for (int i = 0; i < r->n; i++)
        sum += r->pred[i].time_us + r->k[i].ends_us; /* each kernel and its two ends */
    CHECK(r->multi && r->n >= 1);
    CHECK_NEAR(r->time_us, sum, 1e-9);
    CHECK(r->kernel_us < r->time_us);
    CHECK(set_all(t, &v, kv, 2, &e) == 0);
    CHECK(gc_template_predict(t, a, &v, &o, r, &e) == GC_EUSAGE);
    CHECK(strstr(e.msg, "missing --dtype") != NULL);
    const gc_template_t *g = gc_template_find("gemm");
    static const char *const gkv[] = {"m=64", "n=64", "k=64", "dtype=f17"};
    CHECK(set_all(g, &v, gkv, 4, &e) == 0);
    CHECK(g->check(&v, &e) == GC_EUSAGE);
    CHECK_STR(e.msg, "unknown --dtype 'f17' (f16, bf16, tf32, f32, f8e4m3, i8)");
    free(r);
}

int main(void)
{
    registry();
    values();
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *a = NULL;
    if (gc_arch_open(&a, "ampere-a100", &e) || gc_machine_attach(a, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    stream_describe(a);
    operators(a);
    gc_arch_destroy(a);
    return gc_check_failures ? 1 : 0;
}
