/* simcorr.c - configured latencies that make Accel-Sim produce measured ones
 * (see simcorr.h for where each addition comes from). */
#include "simcorr.h"

#include <math.h>

long gc_simcorr_pipe(double target_cyc, int add_cyc, long ini, double *sim_cyc)
{
    long v = lround(target_cyc - add_cyc);
    if (v < ini)
        v = ini;
    if (v < 1)
        v = 1;
    if (sim_cyc)
        *sim_cyc = (double)(v + add_cyc);
    return v;
}

long gc_simcorr_rop(double hit_cyc, long l1_cfg)
{
    long v = lround(hit_cyc - (double)l1_cfg - GC_SIM_ADD_L2_CYC);
    return v < 1 ? 1 : v;
}

long gc_simcorr_dram(double miss_cyc, double hit_cyc, double dram_svc_cyc, double core_mhz,
                     double dram_mhz)
{
    double svc = dram_mhz > 0 ? dram_svc_cyc * core_mhz / dram_mhz : 0;
    long v = lround(miss_cyc - hit_cyc - svc);
    return v < 1 ? 1 : v;
}
