/* predict_json.c - predictions as JSON into a memory buffer
 * (predict_json.h). The text is byte for byte what the stdio printers
 * wrote before (numbers: numfmt's exact formatters in place of printf). */
#include "predict_json.h"

#include <math.h>
#include <string.h>

#include "../../arch/arch.h"
#include "gemm_int.h"

/* literal text of a string literal without a newline (its length known at
 * compile time) */
#define LIT(jb, s) gc_jbuf_lit1(jb, s, sizeof(s) - 1)
/* ",", a newline and two blanks, then the literal (a top-level member) */
#define MEMBER(jb, s) (LIT(jb, ","), NL(jb, 2), LIT(jb, s))
/* a newline and k blanks (pretty), or none (compact) */
#define NL(jb, k) gc_jbuf_nl(jb, k)

static double fin(double v)
{
    return isfinite(v) ? v : 0;
}

/* {"a": v, "b": v, ...} over the first n resources of vals. */
static void res_map(gc_jbuf_t *jb, const double *vals, int n)
{
    LIT(jb, "{");
    for (int r = 0; r < n; r++) {
        if (r)
            LIT(jb, ", ");
        gc_jbuf_qraw(jb, gc_predict_resource(r));
        LIT(jb, ": ");
        gc_jbuf_num(jb, vals[r]);
    }
    LIT(jb, "}");
}

/* A derived value's key: gc_derived_key's text (plain keys and alu keys
 * built here, without a copy through a buffer for the first). */
static void derived_key(gc_jbuf_t *jb, const gc_derived_t *d)
{
    char key[160];
    if (d->form || (d->alu && strlen(d->alu) + strlen(d->field) + 6 >= sizeof(key)) ||
        strlen(d->field) >= sizeof(key)) {
        gc_jbuf_str(jb, gc_derived_key(d, key, sizeof(key)));
        return;
    }
    if (!d->alu) {
        gc_jbuf_str(jb, d->field);
        return;
    }
    size_t a = strlen(d->alu), f = strlen(d->field);
    memcpy(key, "alu[", 4);
    memcpy(key + 4, d->alu, a);
    memcpy(key + 4 + a, "].", 2);
    memcpy(key + 6 + a, d->field, f + 1);
    gc_jbuf_str(jb, key);
}

static void derived_list(gc_jbuf_t *jb, const gc_derived_list_t *dl)
{
    LIT(jb, "[");
    for (int i = 0; i < dl->n; i++) {
        if (i)
            LIT(jb, ",");
        NL(jb, 4);
        LIT(jb, "{\"key\": ");
        derived_key(jb, &dl->d[i]);
        LIT(jb, ", \"value\": ");
        gc_jbuf_num(jb, dl->d[i].value);
        LIT(jb, ", \"how\": ");
        gc_jbuf_str(jb, dl->d[i].how);
        LIT(jb, "}");
    }
    if (dl->n)
        NL(jb, 2);
    LIT(jb, "]");
}

/* occupancy, waves, traffic: the launch's members */
static void launch_members(gc_jbuf_t *jb, const gc_prediction_t *p)
{
    MEMBER(jb, "\"occupancy\": {\"blocks_per_sm\": ");
    gc_jbuf_long(jb, p->blocks_per_sm);
    LIT(jb, ", \"warps_per_sm\": ");
    gc_jbuf_long(jb, p->warps_per_sm);
    LIT(jb, ", \"limited_by\": ");
    gc_jbuf_str(jb, p->occupancy_limit);
    LIT(jb, ", \"registers_per_thread\": ");
    gc_jbuf_num(jb, p->regs);
    gc_jbuf_lit(jb, p->regs_estimated ? ", \"registers_estimated\": true"
                                      : ", \"registers_estimated\": false");
    LIT(jb, "},");
    NL(jb, 2);
    LIT(jb, "\"waves\": {\"blocks\": ");
    gc_jbuf_num(jb, p->blocks);
    LIT(jb, ", \"waves\": ");
    gc_jbuf_num(jb, p->waves);
    LIT(jb, ", \"full_waves\": ");
    gc_jbuf_num(jb, p->full_waves);
    LIT(jb, ", \"tail_blocks\": ");
    gc_jbuf_num(jb, p->tail_blocks);
    LIT(jb, "},");
    NL(jb, 2);
    LIT(jb, "\"traffic\": {\"l2_bytes\": ");
    gc_jbuf_num(jb, p->l2_bytes);
    LIT(jb, ", \"dram_bytes\": ");
    gc_jbuf_num(jb, p->dram_bytes);
    LIT(jb, ", \"tensor_fma\": ");
    gc_jbuf_num(jb, p->tensor_fma);
    LIT(jb, "}");
}

void gc_predict_json(gc_jbuf_t *jb, const gc_prediction_t *p, const char *extra)
{
    LIT(jb, "{");
    NL(jb, 2);
    LIT(jb, "\"schema\": \"gpucal-predict/1\",");
    NL(jb, 2);
    LIT(jb, "\"kernel\": ");
    gc_jbuf_str(jb, p->kernel);
    MEMBER(jb, "\"arch\": ");
    gc_jbuf_str(jb, p->arch);
    MEMBER(jb, "\"cycles\": ");
    gc_jbuf_num(jb, p->cycles);
    MEMBER(jb, "\"time_us\": ");
    gc_jbuf_num(jb, p->time_us);
    MEMBER(jb, "\"clock_mhz\": ");
    gc_jbuf_num(jb, p->clock_mhz);
    MEMBER(jb, "\"clock_source\": ");
    gc_jbuf_str(jb, p->clock_source);
    MEMBER(jb, "\"power_w\": ");
    if (p->power_w > 0)
        gc_jbuf_num(jb, p->power_w);
    else
        LIT(jb, "null");
    MEMBER(jb, "\"load_class\": ");
    gc_jbuf_str(jb, p->load_class);
    MEMBER(jb, "\"bound\": ");
    gc_jbuf_str(jb, gc_predict_resource(p->bound));
    MEMBER(jb, "\"breakdown\": ");
    res_map(jb, p->breakdown, GC_R_N);
    MEMBER(jb, "\"busy\": ");
    res_map(jb, p->busy, GC_R_N);
    MEMBER(jb, "\"utilisation\": ");
    res_map(jb, p->util, GC_R_LATENCY);
    launch_members(jb, p);
    MEMBER(jb, "\"derived\": ");
    derived_list(jb, &p->derived);
    if (extra && extra[0]) {
        LIT(jb, ",");
        NL(jb, 2);
        gc_jbuf_json(jb, extra);
    }
    NL(jb, 0);
    LIT(jb, "}");
    NL(jb, 0);
}

/* literal text, then a number (printf's %ld) or a text in quotes as it is */
#define KV_LONG(jb, lit, v) (LIT(jb, lit), gc_jbuf_long(jb, v))
#define KV_QRAW(jb, lit, s) (LIT(jb, lit), gc_jbuf_qraw(jb, s))

static void gemm_template(gc_jbuf_t *jb, const gc_gemm_result_t *r)
{
    KV_LONG(jb, "  \"template\": {\"name\": \"gemm\", \"m\": ", r->m);
    KV_LONG(jb, ", \"n\": ", r->n);
    KV_LONG(jb, ", \"k\": ", r->k);
    KV_QRAW(jb, ", \"dtype\": ", gc_gemm_dtype_name(r->dtype));
    KV_QRAW(jb, ", \"path\": ", r->path);
    KV_QRAW(jb, ", \"instruction\": ", r->inst);
    KV_LONG(jb, ", \"tile\": [", r->tile_m);
    KV_LONG(jb, ", ", r->tile_n);
    KV_LONG(jb, ", ", r->tile_k);
    KV_LONG(jb, "], \"stages\": ", r->stages);
    KV_LONG(jb, ", \"warps\": ", r->warps);
    KV_LONG(jb, ", \"candidates\": ", r->candidates);
    KV_LONG(jb, ", \"predicted_in_full\": ", r->predicted);
    LIT(jb, ", \"tflops\": ");
    gc_jbuf_fixed(jb, fin(r->tflops), 1);
    KV_LONG(jb, ", \"batch\": ", r->batch);
    KV_QRAW(jb, ", \"layout\": ", r->layout);
    KV_LONG(jb, ", \"split_k\": ", r->split);
    KV_LONG(jb, ", \"align_bytes\": ", r->align);
    KV_QRAW(jb, ", \"rule\": ", r->why);
    LIT(jb, "},");
    NL(jb, 0);
}

/* [a, b, c] of three longs */
static void triple(gc_jbuf_t *jb, const char *lit, const long v[3])
{
    gc_jbuf_lit(jb, lit);
    gc_jbuf_long(jb, v[0]);
    KV_LONG(jb, ", ", v[1]);
    KV_LONG(jb, ", ", v[2]);
    LIT(jb, "]");
}

static void gemm_kernel(gc_jbuf_t *jb, const gc_gemm_kpred_t *k)
{
    KV_QRAW(jb, "  {\"role\": ", k->role);
    KV_QRAW(jb, ", \"name\": ", k->name);
    LIT(jb, ", \"library\": \"");
    gc_jbuf_raw(jb, k->name, strlen(k->name));
    KV_LONG(jb, "@", k->grid[0]);
    KV_LONG(jb, ",", k->grid[1]);
    KV_LONG(jb, ",", k->grid[2]);
    KV_LONG(jb, "@", k->block[0]);
    KV_LONG(jb, ",", k->block[1]);
    KV_LONG(jb, ",", k->block[2]);
    KV_LONG(jb, "@", k->regs);
    LIT(jb, "\"");
    triple(jb, ", \"grid\": [", k->grid);
    triple(jb, ", \"block\": [", k->block);
    KV_LONG(jb, ", \"registers\": ", k->regs);
    gc_jbuf_lit(jb, k->persistent ? ", \"persistent\": true" : ", \"persistent\": false");
    LIT(jb, ", \"time_us\": ");
    gc_jbuf_g6(jb, fin(k->kernel_us));
    LIT(jb, ", \"clock_mhz\": ");
    gc_jbuf_g6(jb, fin(k->pred.clock_mhz));
    LIT(jb, ", \"prediction\":");
    NL(jb, 0);
    gc_predict_json(jb, &k->pred, NULL);
}

void gc_gemm_json(gc_jbuf_t *jb, const gc_gemm_result_t *r)
{
    LIT(jb, "{");
    NL(jb, 2);
    LIT(jb, "\"schema\": \"gpucal-gemm/1\",");
    NL(jb, 2);
    KV_QRAW(jb, "\"kernel\": ", r->pred.kernel);
    LIT(jb, ",");
    NL(jb, 2);
    KV_QRAW(jb, "\"arch\": ", r->pred.arch);
    MEMBER(jb, "\"time_us\": ");
    gc_jbuf_g6(jb, fin(r->time_us));
    MEMBER(jb, "\"launch_us\": ");
    gc_jbuf_g6(jb, fin(r->launch_us));
    MEMBER(jb, "\"clock_mhz\": ");
    gc_jbuf_g6(jb, fin(r->clock_mhz));
    LIT(jb, ",");
    NL(jb, 2);
    KV_QRAW(jb, "\"clock_source\": ", r->clock_source);
    LIT(jb, ",");
    NL(jb, 0);
    gemm_template(jb, r);
    LIT(jb, "  \"kernels\": [");
    NL(jb, 0);
    for (int i = 0; i < r->n_kernels; i++) {
        gemm_kernel(jb, &r->kern[i]);
        LIT(jb, "  }");
        if (i + 1 < r->n_kernels)
            LIT(jb, ",");
        NL(jb, 0);
    }
    LIT(jb, "  ]");
    NL(jb, 0);
    LIT(jb, "}");
    NL(jb, 0);
}

/* One kernel of an operator (gpucal-ops/1). */
static void ops_kernel(gc_jbuf_t *jb, const gc_tkernel_t *k, const gc_prediction_t *p)
{
    double launch = gc_predict_host_launch_us(p);
    KV_QRAW(jb, "{\"role\": ", k->role);
    KV_QRAW(jb, ", \"name\": ", k->name);
    triple(jb, ", \"grid\": [", k->grid);
    triple(jb, ", \"block\": [", k->block);
    LIT(jb, ", \"registers\": ");
    gc_jbuf_fixed(jb, k->regs, 0);
    LIT(jb, ", \"time_us\": ");
    gc_jbuf_fixed(jb, p->time_us + k->ends_us, 4);
    LIT(jb, ", \"kernel_us\": ");
    gc_jbuf_fixed(jb, p->time_us + k->ends_us - launch, 4);
    LIT(jb, ", \"launch_us\": ");
    gc_jbuf_fixed(jb, launch, 4);
    LIT(jb, ", \"ends_us\": ");
    gc_jbuf_fixed(jb, k->ends_us, 4);
    LIT(jb, ", \"prediction\": ");
    gc_predict_json(jb, p, NULL);
}

void gc_tresult_json(gc_jbuf_t *jb, const gc_tresult_t *r)
{
    if (r->gemm) {
        gc_gemm_json(jb, r->gemm);
        return;
    }
    if (!r->multi) {
        gc_predict_json(jb, &r->pred[0], r->json[0] ? r->json : NULL);
        return;
    }
    KV_QRAW(jb, "{\"schema\": \"gpucal-ops/1\", \"op\": ", r->template_name);
    KV_QRAW(jb, ", \"arch\": ", r->pred[0].arch);
    LIT(jb, ", \"kernels\": [");
    NL(jb, 0);
    for (int i = 0; i < r->n; i++) {
        ops_kernel(jb, &r->k[i], &r->pred[i]);
        LIT(jb, "}");
        if (i + 1 < r->n)
            LIT(jb, ",");
        NL(jb, 0);
    }
    LIT(jb, "], \"time_us\": ");
    gc_jbuf_fixed(jb, r->time_us, 4);
    LIT(jb, ", \"kernel_us\": ");
    gc_jbuf_fixed(jb, r->kernel_us, 4);
    LIT(jb, "}");
    NL(jb, 0);
}
