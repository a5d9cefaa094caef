/* columns.c - a bench writes its column header through the bench table
 * (traces/benches.h), so what the measurement writes, what calib reads and
 * what traces/README.md documents are one list. */
#include "measure.h"

#include "../traces/benches.h"

int gc_measure_columns(gc_trace_writer_t *w, const char *bench)
{
    const gc_bench_spec_t *b = gc_bench_spec(bench);
    const char *names[GC_TRACE_COLS_MAX];
    int n = b ? gc_bench_columns(b, names, GC_TRACE_COLS_MAX) : -1;
    /* no row for the bench: an empty header, which the writer refuses */
    return gc_trace_columns(w, names, n > 0 ? n : 0);
}
