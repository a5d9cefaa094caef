/* bw_variants.h - the bandwidth variant sweep of the `bw` bench
 * (bw_variants.cu): the best of a small set of kernel variants per target. */
#ifndef GC_BW_VARIANTS_H
#define GC_BW_VARIANTS_H

#include "mem_util.cuh"

/* what is measured: L2 read (16-byte loads, .cg), DRAM read, write, copy */
enum { GC_BWT_L2, GC_BWT_READ, GC_BWT_WRITE, GC_BWT_COPY, GC_BWT_N };

/* the winning variant of one target, as a bw row needs it */
typedef struct gc_bw_best {
    double bytes;     /* bytes per launch (copy: read + written) */
    gc_point_t pt;    /* per byte: cycles (median, lo, hi), clock */
    int width;        /* bytes per thread step: 16 or 32 */
    int blocks, threads;
    int candidates;   /* variants screened */
    char variant[96]; /* e.g. "ld.nc+st.cs v32 u2 512x4" (no commas) */
} gc_bw_best_t;

/* Sweep every variant of `target` over buffers a (gbytes) and b (gbytes /
 * 2), timing with span and keeping loads alive through sink; fill *best.
 * Returns 0, or a gc error code with err filled (a CUDA failure). */
int gc_bw_sweep(gc_mctx_t *ctx, int target, char *a, char *b, size_t gbytes,
                gc_span_dev_t *span, unsigned *sink, gc_bw_best_t *best, gc_err_t *err);

#endif
