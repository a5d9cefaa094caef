/* predict_json.c - predictions as JSON into a memory buffer
 * (predict_json.h). The text is byte for byte what the stdio printers
 * wrote before (numbers: numfmt's exact formatters in place of printf). */
#include "predict_json.h"

#include <math.h>
#include <string.h>

#include "../../arch/arch.h"
#include "gemm_int.h"

static double fin(double v)
{
    return isfinite(v) ? v : 0;
}

/* {"a": v, "b": v, ...} over the first n resources of vals. */
static void res_map(gc_jbuf_t *jb, const double *vals, int n)
{
    gc_jbuf_lit(jb, "{");
    for (int r = 0; r < n; r++) {
        if (r)
            gc_jbuf_lit(jb, ", ");
        gc_jbuf_qraw(jb, gc_predict_resource(r));
        gc_jbuf_lit(jb, ": ");
        gc_jbuf_num(jb, vals[r]);
    }
    gc_jbuf_lit(jb, "}");
}

/* A derived value's key: gc_derived_key's text (no snprintf but for the
 * tensor forms' labels). */
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
    gc_jbuf_lit(jb, "[");
    for (int i = 0; i < dl->n; i++) {
        gc_jbuf_lit(jb, i ? ",\n    {\"key\": " : "\n    {\"key\": ");
        derived_key(jb, &dl->d[i]);
        gc_jbuf_lit(jb, ", \"value\": ");
        gc_jbuf_num(jb, dl->d[i].value);
        gc_jbuf_lit(jb, ", \"how\": ");
        gc_jbuf_str(jb, dl->d[i].how);
        gc_jbuf_lit(jb, "}");
    }
    gc_jbuf_lit(jb, dl->n ? "\n  ]" : "]");
}

/* occupancy, waves, traffic: the launch's members */
static void launch_members(gc_jbuf_t *jb, const gc_prediction_t *p)
{
    gc_jbuf_lit(jb, ",\n  \"occupancy\": {\"blocks_per_sm\": ");
    gc_jbuf_long(jb, p->blocks_per_sm);
    gc_jbuf_lit(jb, ", \"warps_per_sm\": ");
    gc_jbuf_long(jb, p->warps_per_sm);
    gc_jbuf_lit(jb, ", \"limited_by\": ");
    gc_jbuf_str(jb, p->occupancy_limit);
    gc_jbuf_lit(jb, ", \"registers_per_thread\": ");
    gc_jbuf_num(jb, p->regs);
    gc_jbuf_lit(jb, p->regs_estimated ? ", \"registers_estimated\": true"
                                      : ", \"registers_estimated\": false");
    gc_jbuf_lit(jb, "},\n  \"waves\": {\"blocks\": ");
    gc_jbuf_num(jb, p->blocks);
    gc_jbuf_lit(jb, ", \"waves\": ");
    gc_jbuf_num(jb, p->waves);
    gc_jbuf_lit(jb, ", \"full_waves\": ");
    gc_jbuf_num(jb, p->full_waves);
    gc_jbuf_lit(jb, ", \"tail_blocks\": ");
    gc_jbuf_num(jb, p->tail_blocks);
    gc_jbuf_lit(jb, "},\n  \"traffic\": {\"l2_bytes\": ");
    gc_jbuf_num(jb, p->l2_bytes);
    gc_jbuf_lit(jb, ", \"dram_bytes\": ");
    gc_jbuf_num(jb, p->dram_bytes);
    gc_jbuf_lit(jb, ", \"tensor_fma\": ");
    gc_jbuf_num(jb, p->tensor_fma);
    gc_jbuf_lit(jb, "}");
}

void gc_predict_json(gc_jbuf_t *jb, const gc_prediction_t *p, const char *extra)
{
    gc_jbuf_lit(jb, "{\n  \"schema\": \"gpucal-predict/1\",\n  \"kernel\": ");
    gc_jbuf_str(jb, p->kernel);
    gc_jbuf_lit(jb, ",\n  \"arch\": ");
    gc_jbuf_str(jb, p->arch);
    gc_jbuf_lit(jb, ",\n  \"cycles\": ");
    gc_jbuf_num(jb, p->cycles);
    gc_jbuf_lit(jb, ",\n  \"time_us\": ");
    gc_jbuf_num(jb, p->time_us);
    gc_jbuf_lit(jb, ",\n  \"clock_mhz\": ");
    gc_jbuf_num(jb, p->clock_mhz);
    gc_jbuf_lit(jb, ",\n  \"clock_source\": ");
    gc_jbuf_str(jb, p->clock_source);
    gc_jbuf_lit(jb, ",\n  \"load_class\": ");
    gc_jbuf_str(jb, p->load_class);
    gc_jbuf_lit(jb, ",\n  \"bound\": ");
    gc_jbuf_str(jb, gc_predict_resource(p->bound));
    gc_jbuf_lit(jb, ",\n  \"breakdown\": ");
    res_map(jb, p->breakdown, GC_R_N);
    gc_jbuf_lit(jb, ",\n  \"busy\": ");
    res_map(jb, p->busy, GC_R_N);
    gc_jbuf_lit(jb, ",\n  \"utilisation\": ");
    res_map(jb, p->util, GC_R_LATENCY);
    launch_members(jb, p);
    gc_jbuf_lit(jb, ",\n  \"derived\": ");
    derived_list(jb, &p->derived);
    if (extra && extra[0]) {
        gc_jbuf_lit(jb, ",\n  ");
        gc_jbuf_json(jb, extra);
    }
    gc_jbuf_lit(jb, "\n}\n");
}

/* "name": number, for the ints and longs of the gemm object */
static void kv_long(gc_jbuf_t *jb, const char *lit, long v)
{
    gc_jbuf_lit(jb, lit);
    gc_jbuf_long(jb, v);
}

static void kv_qraw(gc_jbuf_t *jb, const char *lit, const char *s)
{
    gc_jbuf_lit(jb, lit);
    gc_jbuf_qraw(jb, s);
}

static void gemm_template(gc_jbuf_t *jb, const gc_gemm_result_t *r)
{
    kv_long(jb, "  \"template\": {\"name\": \"gemm\", \"m\": ", r->m);
    kv_long(jb, ", \"n\": ", r->n);
    kv_long(jb, ", \"k\": ", r->k);
    kv_qraw(jb, ", \"dtype\": ", gc_gemm_dtype_name(r->dtype));
    kv_qraw(jb, ", \"path\": ", r->path);
    kv_qraw(jb, ", \"instruction\": ", r->inst);
    kv_long(jb, ", \"tile\": [", r->tile_m);
    kv_long(jb, ", ", r->tile_n);
    kv_long(jb, ", ", r->tile_k);
    kv_long(jb, "], \"stages\": ", r->stages);
    kv_long(jb, ", \"warps\": ", r->warps);
    kv_long(jb, ", \"candidates\": ", r->candidates);
    kv_long(jb, ", \"predicted_in_full\": ", r->predicted);
    gc_jbuf_lit(jb, ", \"tflops\": ");
    gc_jbuf_fixed(jb, fin(r->tflops), 1);
    kv_long(jb, ", \"batch\": ", r->batch);
    kv_qraw(jb, ", \"layout\": ", r->layout);
    kv_long(jb, ", \"split_k\": ", r->split);
    kv_long(jb, ", \"align_bytes\": ", r->align);
    kv_qraw(jb, ", \"rule\": ", r->why);
    gc_jbuf_lit(jb, "},\n");
}

/* [a, b, c] of three longs */
static void triple(gc_jbuf_t *jb, const char *lit, const long v[3])
{
    kv_long(jb, lit, v[0]);
    kv_long(jb, ", ", v[1]);
    kv_long(jb, ", ", v[2]);
    gc_jbuf_lit(jb, "]");
}

static void gemm_kernel(gc_jbuf_t *jb, const gc_gemm_kpred_t *k)
{
    kv_qraw(jb, "  {\"role\": ", k->role);
    kv_qraw(jb, ", \"name\": ", k->name);
    gc_jbuf_lit(jb, ", \"library\": \"");
    gc_jbuf_raw(jb, k->name, strlen(k->name));
    kv_long(jb, "@", k->grid[0]);
    kv_long(jb, ",", k->grid[1]);
    kv_long(jb, ",", k->grid[2]);
    kv_long(jb, "@", k->block[0]);
    kv_long(jb, ",", k->block[1]);
    kv_long(jb, ",", k->block[2]);
    kv_long(jb, "@", k->regs);
    gc_jbuf_lit(jb, "\"");
    triple(jb, ", \"grid\": [", k->grid);
    triple(jb, ", \"block\": [", k->block);
    kv_long(jb, ", \"registers\": ", k->regs);
    gc_jbuf_lit(jb, k->persistent ? ", \"persistent\": true" : ", \"persistent\": false");
    gc_jbuf_lit(jb, ", \"time_us\": ");
    gc_jbuf_g6(jb, fin(k->kernel_us));
    gc_jbuf_lit(jb, ", \"clock_mhz\": ");
    gc_jbuf_g6(jb, fin(k->pred.clock_mhz));
    gc_jbuf_lit(jb, ", \"prediction\":\n");
    gc_predict_json(jb, &k->pred, NULL);
}

void gc_gemm_json(gc_jbuf_t *jb, const gc_gemm_result_t *r)
{
    kv_qraw(jb, "{\n  \"schema\": \"gpucal-gemm/1\",\n  \"kernel\": ", r->pred.kernel);
    kv_qraw(jb, ",\n  \"arch\": ", r->pred.arch);
    gc_jbuf_lit(jb, ",\n  \"time_us\": ");
    gc_jbuf_g6(jb, fin(r->time_us));
    gc_jbuf_lit(jb, ",\n  \"launch_us\": ");
    gc_jbuf_g6(jb, fin(r->launch_us));
    gc_jbuf_lit(jb, ",\n  \"clock_mhz\": ");
    gc_jbuf_g6(jb, fin(r->clock_mhz));
    kv_qraw(jb, ",\n  \"clock_source\": ", r->clock_source);
    gc_jbuf_lit(jb, ",\n");
    gemm_template(jb, r);
    gc_jbuf_lit(jb, "  \"kernels\": [\n");
    for (int i = 0; i < r->n_kernels; i++) {
        gemm_kernel(jb, &r->kern[i]);
        gc_jbuf_lit(jb, i + 1 < r->n_kernels ? "  },\n" : "  }\n");
    }
    gc_jbuf_lit(jb, "  ]\n}\n");
}

/* One kernel of an operator (gpucal-ops/1). */
static void ops_kernel(gc_jbuf_t *jb, const gc_tkernel_t *k, const gc_prediction_t *p)
{
    double launch = gc_predict_host_launch_us(p);
    kv_qraw(jb, "{\"role\": ", k->role);
    kv_qraw(jb, ", \"name\": ", k->name);
    triple(jb, ", \"grid\": [", k->grid);
    triple(jb, ", \"block\": [", k->block);
    gc_jbuf_lit(jb, ", \"registers\": ");
    gc_jbuf_fixed(jb, k->regs, 0);
    gc_jbuf_lit(jb, ", \"time_us\": ");
    gc_jbuf_fixed(jb, p->time_us + k->ends_us, 4);
    gc_jbuf_lit(jb, ", \"kernel_us\": ");
    gc_jbuf_fixed(jb, p->time_us + k->ends_us - launch, 4);
    gc_jbuf_lit(jb, ", \"launch_us\": ");
    gc_jbuf_fixed(jb, launch, 4);
    gc_jbuf_lit(jb, ", \"ends_us\": ");
    gc_jbuf_fixed(jb, k->ends_us, 4);
    gc_jbuf_lit(jb, ", \"prediction\": ");
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
    kv_qraw(jb, "{\"schema\": \"gpucal-ops/1\", \"op\": ", r->template_name);
    kv_qraw(jb, ", \"arch\": ", r->pred[0].arch);
    gc_jbuf_lit(jb, ", \"kernels\": [\n");
    for (int i = 0; i < r->n; i++) {
        ops_kernel(jb, &r->k[i], &r->pred[i]);
        gc_jbuf_lit(jb, i + 1 < r->n ? "},\n" : "}\n");
    }
    gc_jbuf_lit(jb, "], \"time_us\": ");
    gc_jbuf_fixed(jb, r->time_us, 4);
    gc_jbuf_lit(jb, ", \"kernel_us\": ");
    gc_jbuf_fixed(jb, r->kernel_us, 4);
    gc_jbuf_lit(jb, "}\n");
}
