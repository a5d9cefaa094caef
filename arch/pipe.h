/* pipe.h - the model of one SM's instruction pipe that calib fits and
 * predict evaluates (one definition, so the two always agree).
 *
 * W warps (or warpgroups for wgmma) are spread round-robin over S slots
 * (sub-cores: 4 on every current SM; 1 for a pipe shared by the whole SM).
 * Each warp runs `ilp` independent dependency chains and issues one
 * instruction per chain per loop iteration, so the busiest slot issues
 * n = ceil(W / S) * ilp instructions per iteration. A slot starts one
 * instruction every `issue_cyc` cycles; a chain waits `lat_cyc` cycles for
 * its previous result, plus `overhead_cyc` for every other instruction in
 * flight on its slot (register-port and scoreboard costs):
 *
 *   cycles per iteration = max(lat + overhead * (n - 1), n * issue)
 *
 * Checked against seed 000 Table III (A100 mma m16n8k16 f16.f32: lat 24.7,
 * issue 8.15, overhead 1.35 give 27.4 cycles at 4 warps x ILP 3 and 32.6 at
 * 8 x 2, the paper's two convergence points).
 */
#ifndef GC_PIPE_H
#define GC_PIPE_H

#include <math.h>

typedef struct gc_pipe {
    double lat_cyc;       /* dependent-issue latency of one instruction, cycles */
    double issue_cyc;     /* cycles between two instructions of one slot at full rate */
    double overhead_cyc;  /* extra latency per other instruction in flight on the slot */
    int slots;            /* S: sub-cores sharing the load (>= 1) */
} gc_pipe_t;

/* Warps on the busiest slot: ceil(W/S). */
static inline double gc_pipe_slot_warps(const gc_pipe_t *p, double warps)
{
    int s = p->slots > 0 ? p->slots : 1;
    return ceil(warps / s);
}

/* Instructions the busiest slot issues per iteration: ceil(W/S) * ilp.
 * Inline: the predictor calls it for every pipe of every round. */
static inline double gc_pipe_per_slot(const gc_pipe_t *p, double warps, double ilp)
{
    return gc_pipe_slot_warps(p, warps) * ilp;
}

/* Cycles per loop iteration for `warps` warps of `ilp` chains on one SM. */
double gc_pipe_cycles(const gc_pipe_t *p, double warps, double ilp);

/* Instructions completed per cycle per SM at (warps, ilp): warps*ilp /
 * cycles. Multiply by the work of one instruction (m*n*k FMA, bytes) for a
 * throughput. */
double gc_pipe_rate(const gc_pipe_t *p, double warps, double ilp);

/* 1 if the point is latency-bound (the first term of the max wins). */
int gc_pipe_latency_bound(const gc_pipe_t *p, double warps, double ilp);

#endif
