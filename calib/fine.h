/* fine.h - the fine P-chase's trace, aggregated as it streams.
 *
 * A fine P-chase trace holds one row per access (sm, array_bytes,
 * stride_bytes, step, offset_bytes, latency_cyc): millions of rows. What
 * calib's handler (bench_memory.c) uses of them is
 *   - per array size, the latencies' histogram: distinct latency -> count
 *     (the k-means of each regime runs on it, calib/kmeans.h);
 *   - per address, a key (sm, array_bytes, stride_bytes, offset_bytes): its
 *     lowest latency, its first row and its accesses (the near/far map).
 * So memory is bounded by the distinct (array, latency) pairs and the
 * distinct addresses, not by the rows (issue 18: a 526 MB trace took
 * 1.6 GB). A measured trace visits each address once per SM and array:
 * there the map is exactly the per-access one. An address measured again
 * is placed by its lowest latency: the partition serving an address does
 * not change, and repeats only add queueing delay.
 */
#ifndef GC_CALIB_FINE_H
#define GC_CALIB_FINE_H

#include <stddef.h>

#include "table.h"

typedef struct gc_fine_addr {
    double sm, array_bytes, stride_bytes, offset_bytes;
    double min_cyc; /* lowest latency of its accesses, cycles */
    size_t first;   /* row of its first access (0-based) */
    size_t n;       /* its accesses */
} gc_fine_addr_t;

typedef struct gc_fine gc_fine_t;

/* The sink gc_table_stream reads a pchase_fine trace with (its columns:
 * traces/benches.c); the gc_fine_t is then the table's agg. */
extern const gc_table_sink_t gc_fine_sink;

/* The latencies of the accesses to arrays of lo < array_bytes <= hi:
 * *nv distinct values ascending into *v and their counts into *w (both
 * malloc'd, also when *nv is 0). -1 when out of memory. */
int gc_fine_hist(const gc_fine_t *f, double lo, double hi, double **v, size_t **w, size_t *nv);

/* The distinct array sizes, in the order the trace first shows them. */
size_t gc_fine_narrays(const gc_fine_t *f);
double gc_fine_array(const gc_fine_t *f, size_t i);

/* The addresses, in the order the trace first shows them. */
size_t gc_fine_naddrs(const gc_fine_t *f);
const gc_fine_addr_t *gc_fine_addr(const gc_fine_t *f, size_t i);

#endif
