/* mem_sass.h - the SASS expectations of the memory benches (pchase,
 * pchase_fine, bw, clock, tma, dsm, dpx), in C so the CPU tests check them
 * on a real H100 dump (tests/fixtures/sass/h100_mem.sass) and the benches
 * (bench_*.cu) check them on the running binary. libc only. */
#ifndef GC_MEM_SASS_H
#define GC_MEM_SASS_H

#include "measure.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const gc_sass_rule_t gc_mem_sass_pchase[];
extern const int gc_mem_sass_pchase_n;
extern const gc_sass_rule_t gc_mem_sass_fine[];
extern const int gc_mem_sass_fine_n;
extern const gc_sass_rule_t gc_mem_sass_bw[];
extern const int gc_mem_sass_bw_n;
extern const gc_sass_rule_t gc_mem_sass_clock[];
extern const int gc_mem_sass_clock_n;
extern const int gc_mem_sass_clock_dump_n; /* the rules tests/fixtures/sass/h100_mem.sass can check */
extern const gc_sass_rule_t gc_mem_sass_tma[];
extern const int gc_mem_sass_tma_n;
extern const gc_sass_rule_t gc_mem_sass_dsm[];
extern const int gc_mem_sass_dsm_n;
extern const gc_sass_rule_t gc_mem_sass_dpx[];
extern const int gc_mem_sass_dpx_n;

#ifdef __cplusplus
}
#endif

#endif
