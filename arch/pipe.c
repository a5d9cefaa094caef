/* pipe.c - the instruction-pipe model (see pipe.h). */
#include "pipe.h"

#include <math.h>

double gc_pipe_cycles(const gc_pipe_t *p, double warps, double ilp)
{
    double n = gc_pipe_per_slot(p, warps, ilp);
    double lat = p->lat_cyc + p->overhead_cyc * (n - 1);
    double thr = n * p->issue_cyc;
    return lat > thr ? lat : thr;
}

double gc_pipe_rate(const gc_pipe_t *p, double warps, double ilp)
{
    return warps * ilp / gc_pipe_cycles(p, warps, ilp);
}

int gc_pipe_latency_bound(const gc_pipe_t *p, double warps, double ilp)
{
    double n = gc_pipe_per_slot(p, warps, ilp);
    return p->lat_cyc + p->overhead_cyc * (n - 1) >= n * p->issue_cyc;
}
