/* bench_launch.c - calib's handler of the launch trace: sm.launch_overhead_us
 * is the median event-timed cost of launching an empty kernel of one block
 * (the row kernel=empty, blocks=1), the way a user's timing of one launch
 * sees it. See bench.h. */
#include <string.h>

#include "bench.h"

int gc_bench_launch(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    int ck = gc_table_col(t, "kernel"), cb = gc_table_col(t, "blocks"), cu = gc_table_col(t, "us"),
        clo = gc_table_col(t, "us_lo"), chi = gc_table_col(t, "us_hi");
    for (size_t r = 0; r < t->nrows; r++) {
        if (strcmp(gc_table_txt(t, ck, r), "empty") || gc_table_num(t, cb, r) != 1)
            continue;
        double v = gc_table_num(t, cu, r), lo = gc_table_num(t, clo, r),
               hi = gc_table_num(t, chi, r);
        if (!(lo <= v && v <= hi))
            return gc_err_at(err, GC_EINPUT, file, (long)t->line[r], 0,
                             "us %g is outside its interval [%g, %g] (a corrupt row: re-measure)",
                             v, lo, hi);
        gc_calib_put(c, &c->a->sm.launch_overhead_us, v, lo, hi,
                     gc_calib_str(c, "%s:%ld: median event-timed launch of an empty kernel, "
                                     "one block",
                                  file, (long)t->line[r]),
                     NULL);
        gc_calib_info(c, "%s: launch overhead %.2f us", file, v);
        return 0;
    }
    gc_calib_leave_out(c, file, 0, "sm.launch_overhead_us left out: no 'empty' row with 1 block");
    return 0;
}
