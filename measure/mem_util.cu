/* mem_util.cu - host helpers of the memory benches (see mem_util.cuh):
 * multi-block spans, launch checks, the clock-read overhead. */
#include <stdlib.h>

#include "mem_util.cuh"

extern "C" int gc_mem_span_reset(gc_span_dev_t *d, gc_err_t *err)
{
    gc_span_dev_t h = {~0ull, 0, 0, 0};
    return gc_cuda_check(cudaMemcpy(d, &h, sizeof(h), cudaMemcpyHostToDevice),
                         "resetting a timing span", err);
}

extern "C" int gc_mem_sync(const char *what, gc_err_t *err)
{
    int rc = gc_cuda_check(cudaGetLastError(), what, err);
    if (!rc)
        rc = gc_cuda_check(cudaDeviceSynchronize(), what, err);
    return rc;
}

extern "C" int gc_mem_span_read(const gc_span_dev_t *d, gc_launch_t *out, gc_err_t *err)
{
    gc_span_dev_t h;
    int rc = gc_mem_sync("running a timed kernel", err);
    if (!rc)
        rc = gc_cuda_check(cudaMemcpy(&h, d, sizeof(h), cudaMemcpyDeviceToHost),
                           "reading a timing span", err);
    if (rc)
        return rc;
    if (h.t1 <= h.t0 || h.ns == 0 || h.cyc == 0)
        return gc_err_set(err, GC_ERUN, "a timed kernel recorded no time (span %llu..%llu ns)",
                          h.t0, h.t1);
    double ns = (double)(h.t1 - h.t0);
    out->ns = ns;
    out->cycles = ns * (double)h.cyc / (double)h.ns;
    return 0;
}

extern "C" int gc_mem_row_err(gc_trace_writer_t *w, gc_err_t *err)
{
    return gc_err_set(err, GC_EIO, "%s", gc_trace_writer_err(w)->msg);
}

enum { OVH_N = 256 };

/* One thread: c0; store a register to shared memory; c1 -- OVH_N times. */
__global__ void k_mem_clock_overhead(long long *out)
{
    __shared__ uint64_t s;
    uint32_t a = gc_smem_addr(&s);
    uint64_t v = (uint64_t)out;
    for (int i = 0; i < OVH_N; i++) {
        long long c0 = gc_clock();
        gc_sts64(a, v);
        long long c1 = gc_clock();
        out[i] = c1 - c0;
        v += (uint64_t)c1;
    }
}

extern "C" int gc_mem_clock_overhead(double *cyc, gc_err_t *err)
{
    long long *d, h[OVH_N];
    int rc = gc_cuda_check(cudaMalloc(&d, sizeof(h)), "allocating the overhead buffer", err);
    if (rc)
        return rc;
    k_mem_clock_overhead<<<1, 1>>>(d);
    rc = gc_mem_sync("measuring the clock-read overhead", err);
    if (!rc)
        rc = gc_cuda_check(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost),
                           "reading the clock-read overhead", err);
    cudaFree(d);
    if (rc)
        return rc;
    double x[OVH_N];
    for (int i = 0; i < OVH_N; i++)
        x[i] = (double)h[i];
    double med, lo, hi;
    gc_stats_median(x + 16, OVH_N - 16, &med, &lo, &hi); /* the first ones warm the i-cache */
    if (med <= 0 || med > 1000)
        return gc_err_set(err, GC_ERUN, "implausible clock-read overhead of %.0f cycles", med);
    *cyc = med;
    return 0;
}
