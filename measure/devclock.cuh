/* devclock.cuh - device-side clocks for the benches.
 * gc_globaltimer(): nanoseconds (%globaltimer); gc_clock(): SM cycles
 * (clock64). A timed region reads both at its start and end, so the host
 * learns the SM clock the region actually ran at. */
#ifndef GC_DEVCLOCK_CUH
#define GC_DEVCLOCK_CUH

__device__ __forceinline__ unsigned long long gc_globaltimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ long long gc_clock(void)
{
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
    return c;
}

/* SM id of the calling thread. */
__device__ __forceinline__ unsigned gc_smid(void)
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

#endif
