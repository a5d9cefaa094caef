/* template.h - the template registry: every template (gemm, stream and the
 * operator templates of ops.h) behind one interface {name, options,
 * describe, predict}, so that the command line, the batch mode, the C
 * library and Python iterate one table instead of knowing each template.
 *
 * A template's options are data (long name, type, bounds, unit, default,
 * help); option values travel as a gc_tvals_t keyed by the long name
 * (without dashes), parsed from the command line or from a JSON request by
 * gc_tvals_set, which checks type and bounds. The template's own rules (what
 * is required, which dtypes exist) live in its describe/predict and fail
 * with GC_EUSAGE, one line naming the option.
 *
 * Output: a template prediction is one kernel (gemm, stream: the
 * gpucal-predict/1 object plus a "template" member) or several (operators:
 * the gpucal-ops/1 object); gc_template_print_json/_text write either, the
 * same bytes `gpucal predict` has always written. All functions are
 * reentrant (the table is const; nothing is cached).
 */
#ifndef GC_TEMPLATE_H
#define GC_TEMPLATE_H

#include <stdio.h>

#include "../../util/err.h"
#include "../../arch/arch.h"
#include "kernel.h"
#include "predict.h"

#define GC_TEMPLATE_KERNELS_MAX 6
#define GC_TVALS_MAX 32

typedef enum {
    GC_TOPT_LONG, /* an integer in [lo, hi] */
    GC_TOPT_STR,  /* a word (dtype, op); the template checks it */
    GC_TOPT_FLAG  /* present or not (--causal) */
} gc_topt_type_t;

/* One option of a template. */
typedef struct gc_topt {
    const char *name;  /* long option name without dashes, also the JSON key */
    gc_topt_type_t type;
    long lo, hi;       /* GC_TOPT_LONG: accepted range */
    const char *unit;  /* "elements", "bytes", ... ("" for none) */
    const char *def;   /* default as text, NULL: required or template rule */
    const char *help;
} gc_topt_t;

/* Option values by name (strings point into argv or the request). */
typedef struct gc_tvals {
    int n;
    struct {
        const char *name, *str;
        long l;
    } v[GC_TVALS_MAX];
} gc_tvals_t;

/* Describe's output: the kernels one call launches, in order, with roles. */
typedef struct gc_tplan {
    int n;
    gc_kernel_t *k[GC_TEMPLATE_KERNELS_MAX];
    char role[GC_TEMPLATE_KERNELS_MAX][64];
} gc_tplan_t;

/* One kernel of a multi-kernel prediction, as the output names it. */
typedef struct gc_tkernel {
    char role[64], name[64];
    long grid[3], block[3];
    double regs;
    double ends_us; /* operators: the kernel's two ends (gc_ops_ends_cyc), us; else 0 */
} gc_tkernel_t;

struct gc_gemm_result;

/* A template's prediction. gemm: its own result (gemm.h, owned; free with
 * gc_tresult_fini). Else multi = 0: pred[0] plus the template's own JSON
 * members (json) and text lines (text); multi = 1: n kernels, their sum. */
typedef struct gc_tresult {
    const char *template_name;
    struct gc_gemm_result *gemm;
    int multi, n;
    gc_prediction_t pred[GC_TEMPLATE_KERNELS_MAX];
    gc_tkernel_t k[GC_TEMPLATE_KERNELS_MAX];
    char json[1024], text[1024];
    double time_us;   /* sum over kernels, launches included */
    double kernel_us; /* sum over kernels without their launches */
} gc_tresult_t;

typedef struct gc_template {
    const char *name;
    const char *usage;       /* one line: "gemm --m M ..." */
    const char *summary;     /* what it models, one sentence */
    const gc_topt_t *opts;   /* terminated by a NULL name */
    int cli_ops;             /* 1: parsed by `gpucal predict|describe OP` (cmd_ops.c) */
    /* NULL, or the option rules that need no arch (checked before it loads) */
    int (*check)(const gc_tvals_t *v, gc_err_t *err);
    int (*describe)(const gc_arch_t *a, const gc_tvals_t *v, gc_tplan_t *plan, gc_err_t *err);
    int (*predict)(const gc_arch_t *a, const gc_tvals_t *v, const gc_predict_opts_t *o,
                   gc_tresult_t *r, gc_err_t *err);
} gc_template_t;

/* The registry: n templates (gemm, stream, then the operators). */
const gc_template_t *gc_template_all(int *n);

/* The template named name, or NULL. */
const gc_template_t *gc_template_find(const char *name);

/* t's option named name, or NULL. */
const gc_topt_t *gc_template_opt(const gc_template_t *t, const char *name);

/* Record option o = s in v: checks the type and bounds of o. Errors
 * (GC_EUSAGE): "--NAME takes ..." as the CLI says it. */
int gc_tvals_set(gc_tvals_t *v, const gc_topt_t *o, const char *s, gc_err_t *err);
/* As gc_tvals_set; an integer may also be written as JSON writes whole
 * numbers (1e6, 4096.0). */
int gc_tvals_set_json(gc_tvals_t *v, const gc_topt_t *o, const char *s, gc_err_t *err);

/* The value of option name in v: the string (NULL when not given), the
 * integer (dflt when not given). */
const char *gc_tvals_str(const gc_tvals_t *v, const char *name);
long gc_tvals_long(const gc_tvals_t *v, const char *name, long dflt);

/* Run t's predict / describe with r (plan) cleared first; r->template_name
 * is t's name. Errors: t's (GC_EUSAGE for options, GC_EINPUT from the
 * arch or the kernels), the prediction check (gc_tresult_check). */
int gc_template_predict(const gc_template_t *t, const gc_arch_t *a, const gc_tvals_t *v,
                        const gc_predict_opts_t *o, gc_tresult_t *r, gc_err_t *err);
int gc_template_describe(const gc_template_t *t, const gc_arch_t *a, const gc_tvals_t *v,
                         gc_tplan_t *plan, gc_err_t *err);

/* Free what r owns (r may be half filled). */
void gc_tresult_fini(gc_tresult_t *r);

/* Free the kernels of a plan (also after an error; plan may be half built). */
void gc_tplan_free(gc_tplan_t *plan);

/* 0 when every figure of p / of every prediction of r is finite and in range; else
 * GC_EINPUT naming the value (gpucal never prints inf or NaN). */
int gc_prediction_check(const gc_prediction_t *p, gc_err_t *err);
int gc_tresult_check(const gc_tresult_t *r, gc_err_t *err);

/* The JSON object / the human text `gpucal predict TEMPLATE` prints. */
void gc_tresult_print_json(const gc_tresult_t *r, FILE *fp);
void gc_tresult_print_text(const gc_tresult_t *r, FILE *fp);

#endif
