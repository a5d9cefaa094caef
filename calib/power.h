/* power.h - the board's power from the clock trace: what tensor work and
 * memory traffic draw, and the limit the GPU enforces (sm.power_*,
 * sm.energy_*_pj, memory.l2/dram.energy_pj_byte). The method is in
 * calib/README.md ("Power"). */
#ifndef GC_CALIB_POWER_H
#define GC_CALIB_POWER_H

#include "bench.h"

/* One load of the clock trace as the power fit sees it: its row's line (0:
 * the trace has no such load), SM clock (MHz), board power (W; 0: not
 * read), tensor multiply-adds per second (tensor loads) or bytes per
 * second (memory, l2 loads), for a tensor load its kind (0 wgmma, 1
 * mma.sync), and for the tensor_tma load the bytes its bulk copies bring
 * per second. */
typedef struct gc_power_load {
    long line;
    double mhz, watts, rate;
    int kind;
    double bytes;
} gc_power_load_t;

/* What the fit reads: the idle, memory (a DRAM copy) and l2 loads, the
 * full and partial tensor loads (n of them), the tensor_vary load (wgmma
 * whose operands change every instruction; optional), and the trailer's
 * power_limit_w (limit_line 0: absent). */
typedef struct gc_power_in {
    gc_power_load_t idle, mem, l2;
    gc_power_load_t vary; /* the wgmma load with changing operands (line 0: none) */
    gc_power_load_t tma;  /* vary's wgmma fed by bulk copies from the L2 (line 0: none) */
    const gc_power_load_t *tensor;
    int n;
    double limit_w;
    long limit_line;
} gc_power_in_t;

/* Fills the power keys of c's arch from in (file: the trace, for sources
 * and messages). A trace without power readings, the l2 load or the limit
 * (one from before them) gives none, said on a progress line; too few
 * tensor loads to fit leaves them out with a warning; a reading that
 * cannot be a power (at or below the idle draw, a rate of 0) is refused at
 * its line. */
int gc_calib_power(gc_calib_ctx_t *c, const char *file, const gc_power_in_t *in, gc_err_t *err);

#endif
