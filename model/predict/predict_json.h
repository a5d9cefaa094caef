/* predict_json.h - the JSON documents of predictions into a gc_jbuf_t
 * (util/jbuf.h): gpucal-predict/1 (one kernel), gpucal-gemm/1 (a gemm
 * call), gpucal-ops/1 (an operator's kernels). The FILE printers
 * (gc_predict_print_json, gc_gemm_print_json, gc_tresult_print_json) are
 * these in the pretty layout; the batch answers use the compact one. The
 * keys are documented in model/kernels/README.md. */
#ifndef GC_PREDICT_JSON_H
#define GC_PREDICT_JSON_H

#include "../../util/jbuf.h"
#include "gemm.h"
#include "predict.h"
#include "template.h"

/* p's object; extra (NULL or "") is more members, written after the
 * others as they are. Ends with a newline. */
void gc_predict_json(gc_jbuf_t *jb, const gc_prediction_t *p, const char *extra);

/* A gemm call's object (schema gpucal-gemm/1). Ends with a newline. */
void gc_gemm_json(gc_jbuf_t *jb, const gc_gemm_result_t *r);

/* A template's result: its gemm object, its one prediction with the
 * template's members, or the operator's kernels (gpucal-ops/1). */
void gc_tresult_json(gc_jbuf_t *jb, const gc_tresult_t *r);

#endif
