/* request.c - one batch request (a flat JSON object) to its JSON-line
 * answers (api.h): {"template": NAME, option: value, ..., "arch": "a,b"}
 * or {"kernel": PATH, "arch": ...}; optional "clock_mhz" and "period_us". The answer is
 * the object `gpucal predict --format json` prints, on one line, with
 * "line": N in front. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "../util/sbuf.h"
#include "../model/predict/predict_json.h"

/* The members a request has besides template options. */
static int is_meta(const char *key)
{
    return !strcmp(key, "template") || !strcmp(key, "kernel") || !strcmp(key, "arch") ||
           !strcmp(key, "clock_mhz") || !strcmp(key, "period_us");
}

void gc_request_error(long line, const char *msg, FILE *out)
{
    if (line > 0)
        fprintf(out, "{\"line\": %ld, \"error\": ", line);
    else
        fputs("{\"error\": ", out);
    gc_jsonl_string(msg, out);
    fputs("}\n", out);
}

/* The answer in jb (one compact JSON object, "{..."), "line": N first. */
static void write_answer(const gc_jbuf_t *jb, long line, FILE *out)
{
    if (jb->bad || jb->len < 2 || jb->p[0] != '{')
        return;
    char head[40];
    gc_sbuf_t h;
    gc_sbuf_init(&h, head, sizeof(head));
    if (line > 0)
        gc_sbuf_str(gc_sbuf_long(gc_sbuf_str(&h, "{\"line\": "), line), ", ");
    else
        gc_sbuf_str(&h, "{");
    fwrite(head, 1, h.len, out);
    fwrite(jb->p + 1, 1, jb->len - 1, out);
    fputc('\n', out);
}

/* Predict the request on one arch, its answer into jb (compact), then out. */
static int run_one(const char *arch_name, const gc_template_t *t, const gc_tvals_t *tv,
                   const gc_kernel_t *k, const gc_predict_opts_t *o, long line, gc_jbuf_t *jb,
                   FILE *out, gc_err_t *err)
{
    const gc_arch_t *a;
    int rc = gc_api_arch(arch_name, &a, err);
    if (rc)
        return rc;
    gc_jbuf_reset(jb);
    if (t) {
        gc_tresult_t *r = malloc(sizeof(*r));
        rc = !r ? gc_err_set(err, GC_ENOMEM, "out of memory")
                : gc_template_predict(t, a, tv, o, r, err);
        if (!rc) {
            gc_tresult_json(jb, r);
            gc_tresult_fini(r);
        }
        free(r);
    } else {
        gc_prediction_t p;
        rc = gc_predict(a, k, o, &p, err);
        if (!rc)
            gc_predict_json(jb, &p, NULL);
    }
    if (!rc && jb->bad)
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    if (!rc)
        write_answer(jb, line, out);
    return rc;
}

/* A number member of q (index i) in [lo, hi] (lo excluded when open) into
 * *v; else GC_EUSAGE naming it. */
static int read_num(const gc_jobj_t *q, int i, double lo, double hi, int open, double *v,
                    gc_err_t *err)
{
    char *e;
    *v = strtod(q->m[i].text, &e);
    if (q->m[i].type != GC_JV_NUM || *e || !(open ? *v > lo : *v >= lo) || !(*v <= hi))
        return gc_err_set(err, GC_EUSAGE, "\"%s\" takes a number %s %g to %g", q->m[i].key,
                          open ? "above" : "from", lo, hi);
    return 0;
}

/* Read the request's own members: template or kernel, arch, clock, period. */
static int read_meta(const gc_jobj_t *q, const char *default_arch, gc_predict_opts_t *o,
                     const gc_template_t **t, const char **kpath, const char **arch,
                     gc_err_t *err)
{
    int it = gc_jsonl_find(q, "template"), ik = gc_jsonl_find(q, "kernel");
    int ia = gc_jsonl_find(q, "arch"), ic = gc_jsonl_find(q, "clock_mhz");
    int ip = gc_jsonl_find(q, "period_us");
    if ((it < 0) == (ik < 0))
        return gc_err_set(err, GC_EUSAGE, "give \"template\": NAME or \"kernel\": PATH (one of them)");
    int iw = it >= 0 ? it : ik;
    if (q->m[iw].type != GC_JV_STR)
        return gc_err_set(err, GC_EUSAGE, "\"%s\" takes a string", q->m[iw].key);
    *t = NULL;
    *kpath = NULL;
    if (it >= 0 && !(*t = gc_template_find(q->m[it].text)))
        return gc_err_set(err, GC_EUSAGE, "unknown template '%.60s' (gemm, stream, attention, "
                          "softmax, layernorm, rowsum, elementwise, transpose, conv2d)",
                          q->m[it].text);
    if (ik >= 0 && !strcmp(q->m[ik].text, "-"))
        return gc_err_set(err, GC_EUSAGE, "\"kernel\": \"-\" is not a file; give a path");
    if (ik >= 0)
        *kpath = q->m[ik].text;
    if (ia >= 0 && q->m[ia].type != GC_JV_STR)
        return gc_err_set(err, GC_EUSAGE, "\"arch\" takes a string: a name, a path or a,b,c");
    *arch = ia >= 0 ? q->m[ia].text : default_arch;
    if (!*arch || !**arch)
        return gc_err_set(err, GC_EUSAGE, "no arch: give \"arch\": NAME (or --arch NAME)");
    if (ic >= 0 && read_num(q, ic, 1, 10000, 0, &o->clock_mhz, err))
        return err->code;
    if (ip >= 0 && read_num(q, ip, 0, 1e9, 1, &o->period_us, err))
        return err->code;
    return 0;
}

/* The template options of q into tv (every member that is not meta). */
static int read_opts(const gc_jobj_t *q, const gc_template_t *t, gc_tvals_t *tv, gc_err_t *err)
{
    const char *keys[GC_JSONL_MEMBERS], *vals[GC_JSONL_MEMBERS];
    int n = 0;
    for (int i = 0; i < q->n; i++) {
        if (is_meta(q->m[i].key))
            continue;
        if (!t)
            return gc_err_set(err, GC_EUSAGE, "unknown member '%.60s' of a kernel request "
                              "(kernel, arch, clock_mhz, period_us)", q->m[i].key);
        if (q->m[i].type == GC_JV_NULL)
            continue;
        keys[n] = q->m[i].key;
        vals[n++] = q->m[i].text;
    }
    memset(tv, 0, sizeof(*tv));
    return t ? gc_api_tvals(t, n, keys, vals, tv, err) : 0;
}

/* Record an error answer. */
static int failed(long line, const gc_err_t *e, FILE *out, gc_err_t *first)
{
    gc_request_error(line, e->msg, out);
    if (first && !first->code)
        *first = *e;
    return 1;
}

int gc_request_run(const gc_jobj_t *q, long line, const char *default_arch,
                   const gc_predict_opts_t *dflt, FILE *out, gc_err_t *first)
{
    gc_predict_opts_t o = dflt ? *dflt : (gc_predict_opts_t){0, 0};
    gc_err_t e;
    gc_err_clear(&e);
    const gc_template_t *t = NULL;
    const char *kpath = NULL, *arch = NULL;
    gc_tvals_t tv;
    if (read_meta(q, default_arch, &o, &t, &kpath, &arch, &e) || read_opts(q, t, &tv, &e))
        return failed(line, &e, out, first);
    if (t && t->check && t->check(&tv, &e))
        return failed(line, &e, out, first);
    const gc_kernel_t *k = NULL;
    if (kpath && gc_api_kernel(kpath, &k, &e))
        return failed(line, &e, out, first);
    int nfail = 0;
    gc_jbuf_t jb;
    gc_jbuf_init(&jb, 1);
    const char *at = arch;
    while (*at) {
        const char *c = strchr(at, ',');
        size_t len = c ? (size_t)(c - at) : strlen(at);
        char name[4096];
        snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) ? len : sizeof(name) - 1), at);
        at = c ? c + 1 : at + len;
        gc_err_clear(&e);
        if (run_one(name, t, &tv, k, &o, line, &jb, out, &e))
            nfail += failed(line, &e, out, first);
    }
    gc_jbuf_fini(&jb);
    return nfail;
}
