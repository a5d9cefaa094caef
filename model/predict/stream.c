/* stream.c - the stream template (see stream.h). */
#include "stream.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const op_names[] = {"copy", "triad", "reduce"};

int gc_stream_op(const char *s, gc_stream_op_t *op)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, op_names[i])) {
            *op = (gc_stream_op_t)i;
            return 0;
        }
    return -1;
}

static gc_kop_t *add(gc_kernel_t *k, gc_kphase_t *ph, gc_opclass_t c, double count)
{
    gc_kop_t *op = gc_kernel_op(k, ph, c);
    if (op)
        op->count = count;
    return op;
}

int gc_stream_kernel(const gc_arch_t *a, gc_stream_op_t op, double bytes, gc_kernel_t **out,
                     gc_err_t *err)
{
    *out = NULL;
    if (!(bytes >= 16))
        return gc_err_set(err, GC_EUSAGE, "--bytes must be at least 16");
    char name[64];
    snprintf(name, sizeof(name), "stream_%s", op_names[op]);
    gc_kernel_t *k = gc_kernel_create(name);
    if (!k)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    k->source = "gpucal stream template (model/predict/stream.c)";
    /* one full wave of 256-thread blocks, fewer when the arrays are small */
    const double threads = 256, unroll = 4;
    double per_sm = a->sm.max_threads.set ? floor(a->sm.max_threads.v / threads) : 8;
    double sms = a->sm.count.set ? a->sm.count.v : 1;
    double n4 = floor(bytes / 16);
    double blocks = fmax(1, fmin(sms * per_sm, floor(n4 / (unroll * threads))));
    k->grid[0] = (long)blocks;
    k->block[0] = (long)threads;
    k->regs = 32;
    double trips = fmax(1, ceil(n4 / (unroll * threads * blocks)));
    k->loop.trips = trips;
    int nread = op == GC_STREAM_TRIAD ? 2 : 1;
    gc_kop_t *o;
    int ok = 1;
    ok &= (o = add(k, &k->loop, GC_OP_LDG, unroll * nread)) != NULL;
    if (o)
        o->width = 16;
    if (op != GC_STREAM_REDUCE) {
        ok &= (o = add(k, &k->loop, GC_OP_STG, unroll)) != NULL;
        if (o)
            o->width = 16;
    }
    if (op == GC_STREAM_TRIAD) {
        ok &= (o = add(k, &k->loop, GC_OP_ALU, unroll * 4)) != NULL;
        if (o)
            o->name = "ffma";
    } else if (op == GC_STREAM_REDUCE) {
        ok &= (o = add(k, &k->loop, GC_OP_ALU, unroll * 4)) != NULL;
        if (o) {
            o->name = "fadd";
            o->chains = 1; /* one running sum per thread */
        }
    }
    /* index arithmetic and the loop test */
    ok &= (o = add(k, &k->loop, GC_OP_ALU, 2 + 2 * unroll)) != NULL;
    if (o)
        o->name = "imad";
    if (op == GC_STREAM_REDUCE) { /* block sum: shuffles, shared, one atomic per block */
        ok &= add(k, &k->epilogue, GC_OP_SHFL, 5) != NULL;
        ok &= (o = add(k, &k->epilogue, GC_OP_STS, 1)) != NULL;
        if (o) {
            o->width = 4;
            o->active = 1;
        }
        ok &= add(k, &k->epilogue, GC_OP_BAR, 1) != NULL;
        ok &= (o = add(k, &k->epilogue, GC_OP_STG, 1.0 / 8)) != NULL;
        if (o) {
            o->width = 4;
            o->active = 1;
        }
        k->shared_bytes = 32;
    }
    if (!ok) {
        gc_kernel_destroy(k);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    k->read_bytes = nread * n4 * 16;
    k->write_bytes = op == GC_STREAM_REDUCE ? 4 : n4 * 16;
    *out = k;
    return 0;
}

int gc_stream_predict(const gc_arch_t *a, gc_stream_op_t op, double bytes,
                      const gc_predict_opts_t *o, gc_stream_result_t *r, gc_err_t *err)
{
    memset(r, 0, sizeof(*r));
    gc_kernel_t *k;
    int rc = gc_stream_kernel(a, op, bytes, &k, err);
    if (rc)
        return rc;
    rc = gc_predict(a, k, o, &r->pred, err);
    if (!rc) {
        r->op = op;
        r->bytes = bytes;
        double n = floor(bytes / 16) * 16;
        r->moved = n * (op == GC_STREAM_COPY ? 2 : op == GC_STREAM_TRIAD ? 3 : 1);
        r->gbs = r->moved / (r->pred.time_us * 1e3);
        r->blocks = k->grid[0];
        r->threads = k->block[0];
    }
    gc_kernel_destroy(k);
    return rc;
}

void gc_stream_describe(const gc_stream_result_t *r, char *json, size_t nj, char *text, size_t nt)
{
    snprintf(json, nj,
             "\"template\": {\"name\": \"stream\", \"op\": \"%s\", \"bytes\": %.0f, "
             "\"moved_bytes\": %.0f, \"gbs\": %.1f, \"blocks\": %ld, \"threads\": %ld, "
             "\"access\": \"16-byte loads and stores, 4 in flight per thread, grid-stride\"}",
             op_names[r->op], r->bytes, r->moved, r->gbs, r->blocks, r->threads);
    snprintf(text, nt,
             "  stream %s: %.0f bytes per array, %.0f bytes moved, %.1f GB/s; %ld blocks x %ld "
             "threads, 16-byte accesses, 4 in flight per thread\n",
             op_names[r->op], r->bytes, r->moved, r->gbs, r->blocks, r->threads);
}
