/* ring.h - P-chase rings: which slot of an array a pointer chase visits
 * after which (pure C, libc only, so it is tested on the CPU).
 *
 * An array of array_bytes is cut into slots of stride_bytes; slot k starts
 * at byte k * stride_bytes. A ring is one cycle that visits every slot
 * exactly once and comes back to where it started:
 *   - seq:  uniform stride, slot k -> slot k + 1 (the last slot -> slot 0);
 *   - rand: a random single cycle drawn from a fixed seed (the same seed
 *           gives the same ring on every machine). With page_bytes > 0 the
 *           ring is page-aware: it visits the pages of page_bytes in address
 *           order and the slots inside each page in random order, so a chase
 *           changes page once every page_bytes / stride_bytes loads and the
 *           TLB is not what is measured; page_bytes = 0 draws one random
 *           cycle over the whole array (the TLB then is part of it).
 * The benches (bench_pchase*.cu, bench_tma.cu) turn a ring into device
 * pointers; gc_ring_sizes plans the array sizes of a latency-vs-size sweep.
 */
#ifndef GC_RING_H
#define GC_RING_H

#include <stddef.h>
#include <stdint.h>

#include "../util/err.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gc_ring_pattern { GC_RING_SEQ = 0, GC_RING_RAND = 1 } gc_ring_pattern_t;

typedef struct gc_ring_spec {
    size_t array_bytes;          /* bytes of the array the ring lives in */
    size_t stride_bytes;         /* bytes per slot (the step of a seq ring) */
    size_t page_bytes;           /* rand: pages visited in order (0: no pages) */
    gc_ring_pattern_t pattern;
    uint64_t seed;               /* rand: seed of the generator */
} gc_ring_spec_t;

/* Most slots a ring may have (indices are 32-bit). */
#define GC_RING_SLOTS_MAX ((size_t)UINT32_MAX)

/* Check spec and give the number of slots (array_bytes / stride_bytes).
 * Refuses (GC_EINPUT, one line saying which parameter and how to fix it):
 * a stride of 0, an array that is not a whole number of strides, fewer than
 * 2 slots, more than GC_RING_SLOTS_MAX slots, a page size that is not a
 * multiple of the stride, an unknown pattern. */
int gc_ring_check(const gc_ring_spec_t *spec, size_t *slots, gc_err_t *err);

/* Build the ring of spec: order[k] = the slot visited at step k
 * (k = 0 .. slots-1; step `slots` is order[0] again) and, when next is not
 * NULL, next[s] = the slot visited after slot s. Both arrays hold `slots`
 * entries, with slots as gc_ring_check gives it (else GC_EINPUT). A seq
 * ring starts at slot 0 (order[k] = k); a rand ring starts in the first
 * page (order[0] is some slot of page 0). */
int gc_ring_build(const gc_ring_spec_t *spec, uint32_t *order, uint32_t *next, size_t slots,
                  gc_err_t *err);

/* Follow next[] from slot 0: returns 1 if it is one cycle through all
 * `slots` slots (each visited once, back at 0 after `slots` steps), else 0
 * (a slot out of range, a shorter cycle). Benches verify every ring with
 * it before measuring. */
int gc_ring_is_cycle(const uint32_t *next, size_t slots);

/* The array sizes (bytes) of a latency-vs-size sweep from 1 KiB to 4x the
 * L2: powers of two up to 32 KiB, steps of l1_bytes/16 from l1_bytes/4 and
 * of l1_bytes/32 from l1_bytes/2 to 1.25 * l1_bytes (the L1 inflection), powers of two up to l2_bytes/4,
 * then fractions of the L2 that are dense around l2_bytes/2 and l2_bytes
 * (the near/far partition and the capacity inflections) up to 4 * l2_bytes.
 * Every size is a multiple of align_bytes, sorted, without repeats; quick
 * keeps about a third of them (always the smallest and the largest).
 * Writes at most max sizes into out; returns how many, or a negative
 * gc_code (GC_EINPUT for l1_bytes < 4 KiB, l2_bytes < 4 * l1_bytes, or
 * align_bytes not a power of two up to 1 KiB). */
int gc_ring_sizes(size_t l1_bytes, size_t l2_bytes, size_t align_bytes, int quick, size_t *out,
                  int max, gc_err_t *err);

#ifdef __cplusplus
}
#endif

#endif
