/* stream.h - the stream template: `gpucal predict stream --op copy|triad|reduce
 * --bytes N`. Builds the description of a bandwidth-tuned stream kernel (one
 * full wave of 256-thread blocks, a grid-stride loop, 16-byte accesses, four
 * in flight per thread: the kernels of model/validation/h100_kernels.cu) and
 * predicts it. N is the size of each array in bytes: copy reads one array and
 * writes one (b = a), triad reads two and writes one (a = b + s*c), reduce
 * sums one array of floats.
 */
#ifndef GC_STREAM_H
#define GC_STREAM_H

#include <stddef.h>

#include "../../util/err.h"
#include "../../arch/arch.h"
#include "kernel.h"
#include "predict.h"

typedef enum { GC_STREAM_COPY, GC_STREAM_TRIAD, GC_STREAM_REDUCE } gc_stream_op_t;

typedef struct gc_stream_result {
    gc_prediction_t pred;
    gc_stream_op_t op;
    double bytes;          /* per array */
    double moved;          /* bytes the kernel reads and writes */
    double gbs;            /* moved / time */
    long blocks, threads;
} gc_stream_result_t;

/* "copy" | "triad" | "reduce" -> op; -1 when unknown. */
int gc_stream_op(const char *s, gc_stream_op_t *op);

/* The description of the stream kernel for op over arrays of `bytes` bytes
 * on a (the grid fills one wave of a's SMs). Caller destroys it. */
int gc_stream_kernel(const gc_arch_t *a, gc_stream_op_t op, double bytes, gc_kernel_t **out,
                     gc_err_t *err);

/* Build and predict. bytes >= 16. */
int gc_stream_predict(const gc_arch_t *a, gc_stream_op_t op, double bytes,
                      const gc_predict_opts_t *o, gc_stream_result_t *r, gc_err_t *err);

/* The template's own output: a JSON member list ("\"template\": {...}") and
 * human lines. */
void gc_stream_describe(const gc_stream_result_t *r, char *json, size_t nj, char *text,
                        size_t nt);

#endif
