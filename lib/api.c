/* api.c - the public C API (include/gpucal/gpucal.h) over model/predict
 * and arch, the process-wide arch cache and the installed arch folder. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <libgen.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../include/gpucal/gpucal.h"
#include "../util/fsio.h"
#include "../model/predict/gemm.h"
#include "api.h"

/* ---- the installed arch folder ---- */

void gc_api_find_arch_dir(const char *anchor)
{
    char dir[4096], path[4200];
    snprintf(dir, sizeof(dir), "%s", anchor);
    const char *d = dirname(dir);
    static const char *const rel[] = {"/../share/gpucal/arch", "/../../share/gpucal/arch"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof(path), "%s%s", d, rel[i]);
        char *real = realpath(path, NULL);
        if (real) {
            gc_arch_set_dir(real);
            free(real);
            return;
        }
    }
}

/* Once per process: where libgpucal.so lies decides the arch folder. */
static void lib_dirs(void)
{
    Dl_info info;
    if (dladdr((void *)gpucal_version, &info) && info.dli_fname && strchr(info.dli_fname, '/'))
        gc_api_find_arch_dir(info.dli_fname);
}

static pthread_once_t dirs_once = PTHREAD_ONCE_INIT;

/* ---- the arch cache ---- */

typedef struct cached {
    struct cached *next;
    gc_arch_t *arch;     /* the arch cache's entries */
    gc_kernel_t *kernel; /* the kernel cache's entries */
    char *name;
} cached_t;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cached_t *cache;

int gc_api_arch(const char *name, const gc_arch_t **out, gc_err_t *err)
{
    pthread_once(&dirs_once, lib_dirs);
    pthread_mutex_lock(&cache_lock);
    cached_t *c = cache;
    while (c && strcmp(c->name, name))
        c = c->next;
    int rc = 0;
    if (!c) {
        gc_arch_t *a = NULL;
        rc = gc_arch_open(&a, name, err);
        if (!rc)
            rc = gc_machine_attach(a, err);
        if (!rc && (!(c = malloc(sizeof(*c))) || !(c->name = strdup(name)))) {
            free(c);
            c = NULL;
            rc = gc_err_set(err, GC_ENOMEM, "out of memory");
        }
        if (rc) {
            gc_arch_destroy(a);
        } else {
            c->arch = a;
            c->next = cache;
            cache = c;
        }
    }
    pthread_mutex_unlock(&cache_lock);
    *out = rc ? NULL : c->arch;
    return rc;
}

/* Kernel descriptions named by requests, loaded once per process. */
static cached_t *kcache;

int gc_api_kernel(const char *path, const gc_kernel_t **out, gc_err_t *err)
{
    pthread_mutex_lock(&cache_lock);
    cached_t *c = kcache;
    while (c && strcmp(c->name, path))
        c = c->next;
    int rc = 0;
    if (!c) {
        gc_kernel_t *k = NULL;
        rc = gc_kernel_load(&k, path, err);
        if (!rc && (!(c = malloc(sizeof(*c))) || !(c->name = strdup(path)))) {
            free(c);
            c = NULL;
            rc = gc_err_set(err, GC_ENOMEM, "out of memory");
        }
        if (rc) {
            gc_kernel_destroy(k);
        } else {
            c->kernel = k;
            c->next = kcache;
            kcache = c;
        }
    }
    pthread_mutex_unlock(&cache_lock);
    *out = rc ? NULL : c->kernel;
    return rc;
}

/* ---- options ---- */

int gc_api_tvals(const gc_template_t *t, int n, const char *const *keys,
                 const char *const *values, gc_tvals_t *tv, gc_err_t *err)
{
    memset(tv, 0, sizeof(*tv));
    for (int i = 0; i < n; i++) {
        const gc_topt_t *o = gc_template_opt(t, keys[i]);
        if (!o)
            return gc_err_set(err, GC_EUSAGE, "%s has no option '%.60s' (see `gpucal predict "
                              "%s --help`)", t->name, keys[i], t->name);
        if (o->type == GC_TOPT_FLAG) {
            int on = !strcmp(values[i], "true") || !strcmp(values[i], "1");
            if (!on && strcmp(values[i], "false") && strcmp(values[i], "0"))
                return gc_err_set(err, GC_EUSAGE, "%s takes true or false, got '%.60s'",
                                  keys[i], values[i]);
            if (!on)
                continue;
        }
        int rc = gc_tvals_set_json(tv, o, values[i], err);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- the public API ---- */

static void to_public(const gc_err_t *e, gpucal_error *pe)
{
    if (!pe)
        return;
    pe->code = e->code;
    snprintf(pe->message, sizeof(pe->message), "%s", e->msg);
}

static void fill_result(const gc_prediction_t *p, gpucal_result *r)
{
    memset(r, 0, sizeof(*r));
    memcpy(r->kernel, p->kernel, sizeof(r->kernel));
    memcpy(r->arch, p->arch, sizeof(r->arch));
    r->cycles = p->cycles;
    r->time_us = p->time_us;
    r->kernel_us = p->time_us - (p->clock_mhz > 0 ? p->breakdown[GC_R_LAUNCH] / p->clock_mhz : 0);
    r->clock_mhz = p->clock_mhz;
    r->clock_source = p->clock_source;
    r->load_class = p->load_class;
    r->bound = gc_predict_resource(p->bound);
    for (int i = 0; i < GPUCAL_R_N && i < GC_R_N; i++) {
        r->breakdown_cyc[i] = p->breakdown[i];
        r->busy_cyc[i] = p->busy[i];
        r->utilisation[i] = p->util[i];
    }
    r->blocks_per_sm = p->blocks_per_sm;
    r->warps_per_sm = p->warps_per_sm;
    r->limited_by = p->occupancy_limit;
    r->registers_per_thread = p->regs;
    r->registers_estimated = p->regs_estimated;
    r->blocks = p->blocks;
    r->waves = p->waves;
    r->full_waves = p->full_waves;
    r->tail_blocks = p->tail_blocks;
    r->l2_bytes = p->l2_bytes;
    r->dram_bytes = p->dram_bytes;
    r->tensor_fma = p->tensor_fma;
    r->n_kernels = 1;
}

const char *gpucal_version(void)
{
#ifdef GPUCAL_VERSION
    return GPUCAL_VERSION;
#else
    return "0.0.0";
#endif
}

const char *gpucal_resource_name(int r)
{
    return r >= 0 && r < GPUCAL_R_N ? gc_predict_resource(r) : NULL;
}

const char *gpucal_template_name(int i)
{
    int n;
    const gc_template_t *all = gc_template_all(&n);
    return i >= 0 && i < n ? all[i].name : NULL;
}

int gpucal_arch_load(gpucal_arch **out, const char *name, gpucal_error *perr)
{
    pthread_once(&dirs_once, lib_dirs);
    gc_err_t e;
    gc_err_clear(&e);
    gc_arch_t *a = NULL;
    *out = NULL;
    int rc = name ? gc_arch_open(&a, name, &e) : gc_err_set(&e, GC_EUSAGE, "no arch name");
    if (!rc)
        rc = gc_machine_attach(a, &e);
    if (rc) {
        gc_arch_destroy(a);
        to_public(&e, perr);
        return rc;
    }
    *out = (gpucal_arch *)a;
    return 0;
}

void gpucal_arch_free(gpucal_arch *a)
{
    gc_arch_destroy((gc_arch_t *)a);
}

int gpucal_arch_json(const gpucal_arch *a, char **json, gpucal_error *perr)
{
    size_t len = 0;
    *json = NULL;
    FILE *mem = open_memstream(json, &len);
    gc_err_t e;
    gc_err_clear(&e);
    if (!mem || gc_arch_emit_json((const gc_arch_t *)a, mem) || fclose(mem)) {
        if (mem)
            free(*json);
        *json = NULL;
        gc_err_set(&e, GC_ENOMEM, "could not write the arch as JSON");
        to_public(&e, perr);
        return GC_ENOMEM;
    }
    return 0;
}

int gpucal_kernel_load(gpucal_kernel **out, const char *path, gpucal_error *perr)
{
    gc_err_t e;
    gc_err_clear(&e);
    gc_kernel_t *k = NULL;
    int rc = gc_kernel_load(&k, path, &e);
    if (rc)
        to_public(&e, perr);
    *out = (gpucal_kernel *)k;
    return rc;
}

void gpucal_kernel_free(gpucal_kernel *k)
{
    gc_kernel_destroy((gc_kernel_t *)k);
}

int gpucal_predict_kernel(const gpucal_arch *a, const gpucal_kernel *k, const gpucal_options *o,
                          gpucal_result *r, gpucal_error *perr)
{
    gc_err_t e;
    gc_err_clear(&e);
    gc_predict_opts_t po = {o ? o->clock_mhz : 0, o ? o->period_us : 0};
    gc_prediction_t p;
    /* gc_predict checks the prediction itself (finite and positive) */
    int rc = gc_predict((const gc_arch_t *)a, (const gc_kernel_t *)k, &po, &p, &e);
    if (rc) {
        to_public(&e, perr);
        return rc;
    }
    fill_result(&p, r);
    return 0;
}

/* The multi-kernel result as one: the longest kernel's figures, the sums. */
static void fill_multi(const gc_tresult_t *tr, gpucal_result *r)
{
    int big = 0;
    for (int i = 1; i < tr->n; i++)
        if (tr->pred[i].time_us > tr->pred[big].time_us)
            big = i;
    fill_result(&tr->pred[big], r);
    if (tr->gemm) {
        r->time_us = tr->gemm->time_us;
        r->kernel_us = tr->gemm->time_us;
        r->n_kernels = tr->gemm->n_kernels;
    }
    if (tr->multi) {
        snprintf(r->kernel, sizeof(r->kernel), "%s", tr->template_name);
        r->time_us = tr->time_us;
        r->kernel_us = tr->kernel_us;
        r->n_kernels = tr->n;
    }
}

int gpucal_predict_template(const gpucal_arch *a, const char *name, int n,
                            const char *const *keys, const char *const *values,
                            const gpucal_options *o, gpucal_result *r, gpucal_error *perr)
{
    gc_err_t e;
    gc_err_clear(&e);
    const gc_template_t *t = name ? gc_template_find(name) : NULL;
    gc_tvals_t tv;
    gc_tresult_t *tr = NULL;
    int rc = 0;
    if (!t)
        rc = gc_err_set(&e, GC_EUSAGE, "unknown template '%.60s'", name ? name : "");
    if (!rc)
        rc = gc_api_tvals(t, n, keys, values, &tv, &e);
    if (!rc && !(tr = malloc(sizeof(*tr))))
        rc = gc_err_set(&e, GC_ENOMEM, "out of memory");
    gc_predict_opts_t po = {o ? o->clock_mhz : 0, o ? o->period_us : 0};
    if (!rc)
        rc = gc_template_predict(t, (const gc_arch_t *)a, &tv, &po, tr, &e);
    if (!rc) {
        fill_multi(tr, r);
        gc_tresult_fini(tr);
    } else {
        to_public(&e, perr);
    }
    free(tr);
    return rc;
}

int gpucal_predict_json(const char *request, char **out, gpucal_error *perr)
{
    gc_err_t e, first;
    gc_err_clear(&e);
    gc_err_clear(&first);
    gc_jobj_t *q = malloc(sizeof(*q));
    size_t len = 0;
    *out = NULL;
    FILE *mem = q ? open_memstream(out, &len) : NULL;
    if (!mem) {
        free(q);
        gc_err_set(&e, GC_ENOMEM, "out of memory");
        to_public(&e, perr);
        return GC_ENOMEM;
    }
    int rc = gc_jsonl_parse(request ? request : "", request ? strlen(request) : 0, q, &e);
    if (rc == 1)
        rc = gc_err_set(&e, GC_EUSAGE, "an empty request; give {\"template\": ...}");
    if (rc) {
        gc_request_error(0, e.msg, mem);
        first = e;
    } else {
        gc_request_run(q, 0, NULL, NULL, mem, &first);
    }
    fclose(mem);
    free(q);
    if (len && (*out)[len - 1] == '\n')
        (*out)[len - 1] = '\0';
    if (first.code)
        to_public(&first, perr);
    return first.code;
}

void gpucal_free(void *p)
{
    free(p);
}
