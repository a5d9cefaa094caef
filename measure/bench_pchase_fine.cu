/* bench_pchase_fine.cu - the `pchase_fine` bench: the fine-grained pointer
 * chase, one latency per access, from SMs spread over the chip (16 by
 * default, every SM with --full), so that calib's k-means can separate L2
 * near and far hits and near and far misses (seed 004, section 4.1).
 *
 * Method: one thread on the chosen SM (a launch with two one-warp blocks per
 * SM; the first block that finds itself on that SM claims the work, the
 * others leave) chases 8-byte pointers with ld.global.cg through a uniform
 * 32-byte-stride ring (the paper's stride). Each access is bracketed by
 * clock64 reads; the loaded pointer is stored to shared memory before the
 * second read, so the load has completed, and the latency is kept in
 * shared memory (no global store disturbs the caches while timing). The
 * overhead of the bracket around no load (header clock_overhead_cyc) is
 * subtracted. Arrays: about L2/6 and 0.8 L2 (warmed: the whole array is read
 * through L2 right before each chase) and 2x L2 (flushed: a 2x L2 scrub
 * buffer is read before each chase, so the recorded window is not in L2,
 * as in the steady state of a chase over an array larger than the L2).
 * Each SM starts at its own place in the array. Writes OUT/pchase_fine.csv:
 * sm,array_bytes,stride_bytes,step,offset_bytes,latency_cyc. */
#include <stdlib.h>
#include <string.h>

#include "mem_sass.h"
#include "mem_util.cuh"
#include "ring.h"

enum { FSTRIDE = 32, FSTEPS_MAX = 2048, FUNROLL = 8, DEFAULT_SMS = 16, TRIES = 8 };

__global__ void k_finefill(char *arr, const uint32_t *next, size_t n, size_t stride)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        *(uint64_t *)(arr + i * stride) = (uint64_t)(arr + (size_t)next[i] * stride);
}

/* Read bytes of a through L2 (16-byte ld.global.cg): warms an array or,
 * on a scrub buffer, pushes everything else out of the L2. */
__global__ void k_finetouch(const uint4 *a, size_t n, unsigned *sink)
{
    unsigned x = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint4 v;
        asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                     : "l"(a + i));
        x ^= v.x ^ v.w;
    }
    if (x == 0x12345678u)
        sink[0] = x;
}

__global__ void k_pfine(uint64_t start, unsigned target, int steps, int *claim, uint64_t *out_p,
                        unsigned *out_lat, unsigned *out_sm)
{
    __shared__ uint64_t sp[FSTEPS_MAX];
    __shared__ unsigned sl[FSTEPS_MAX];
    if (threadIdx.x != 0 || gc_smid() != target)
        return;
    if (atomicCAS(claim, 0, 1) != 0)
        return;
    uint32_t ap = gc_smem_addr(sp), al = gc_smem_addr(sl);
    uint64_t p = start;
    for (int i = 0; i < steps; i += FUNROLL) {
#pragma unroll
        for (int u = 0; u < FUNROLL; u++) {
            long long c0 = gc_clock();
            p = gc_ld_cg(p);
            gc_sts64(ap + 8u * (unsigned)(i + u), p);
            long long c1 = gc_clock();
            gc_sts32(al + 4u * (unsigned)(i + u), (unsigned)(c1 - c0));
        }
    }
    __syncwarp(1);
    for (int i = 0; i < steps; i++) {
        out_p[i] = sp[i];
        out_lat[i] = sl[i];
    }
    *out_sm = gc_smid();
}

static int run_fine(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    const gc_devinfo_t *dv = &ctx->dev;
    size_t l2 = (size_t)dv->l2_bytes, mib = 1 << 20;
    size_t arrays[3] = {l2 / 6 / mib * mib, l2 * 4 / 5 / mib * mib, 2 * l2 / mib * mib};
    int warmed[3] = {1, 1, 0};
    int steps = ctx->quick ? 512 : FSTEPS_MAX;
    int nsm = ctx->full ? dv->sms : (dv->sms < DEFAULT_SMS ? dv->sms : DEFAULT_SMS);
    if (ctx->quick && nsm > 4)
        nsm = 4;
    int *sms = (int *)malloc(sizeof(int) * (size_t)nsm);
    if (!sms)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    for (int k = 0; k < nsm; k++) /* spread over the SM ids (ids follow the GPC layout) */
        sms[k] = (int)((long)k * dv->sms / nsm);

    double ovh = 0;
    int rc = gc_mem_clock_overhead(&ovh, err);
    char list[1024];
    size_t at = 0;
    for (int k = 0; k < nsm && at < sizeof(list) - 8; k++)
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%d", k ? " " : "", sms[k]);
    rc = rc ? rc : gc_trace_put_meta(w, "clock_overhead_cyc", "%.1f", ovh);
    rc = rc ? rc : gc_trace_put_meta(w, "sm_list", "%s", list);
    rc = rc ? rc : gc_trace_put_meta(w, "steps", "%d", steps);
    rc = rc ? rc : gc_trace_put_meta(
        w, "method",
        "one thread on each listed SM; dependent ld.global.cg of 8-byte pointers, uniform "
        "%d-byte stride; per access: clock64, load, store of the loaded pointer to shared "
        "memory, clock64, minus clock_overhead_cyc; arrays below the L2 are read through L2 "
        "right before each chase, arrays beyond it follow a read of a 2x L2 scrub buffer; "
        "each SM starts at its own offset (array / SMs x its index)",
        (int)FSTRIDE);
    if (rc && err->code == GC_OK)
        rc = gc_mem_row_err(w, err); /* a metadata line failed to write */
    if (!rc && gc_measure_columns(w, "pchase_fine") != 0)
        rc = gc_mem_row_err(w, err);
    if (rc) {
        free(sms);
        return rc;
    }

    char *arr = NULL, *scrub = NULL;
    uint32_t *d_next = NULL, *order = NULL, *next = NULL;
    uint64_t *d_p = NULL, *h_p = NULL;
    unsigned *d_lat = NULL, *h_lat = NULL, *d_sm = NULL, *d_sink = NULL;
    int *d_claim = NULL;
    size_t maxn = arrays[2] / FSTRIDE;
    rc = gc_cuda_check(cudaMalloc(&arr, arrays[2]), "allocating the chase array", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&scrub, 2 * l2), "allocating the scrub buffer", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&d_next, maxn * sizeof(uint32_t)), "allocating a ring", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&d_p, FSTEPS_MAX * sizeof(uint64_t)), "allocating results", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&d_lat, FSTEPS_MAX * sizeof(unsigned)), "allocating results", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&d_sm, sizeof(unsigned)), "allocating results", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&d_sink, sizeof(unsigned)), "allocating results", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&d_claim, sizeof(int)), "allocating results", err);
    rc = rc ? rc : gc_cuda_check(cudaMemset(scrub, 0x5a, 2 * l2), "filling the scrub buffer", err);
    h_p = (uint64_t *)malloc(FSTEPS_MAX * sizeof(uint64_t));
    h_lat = (unsigned *)malloc(FSTEPS_MAX * sizeof(unsigned));
    order = (uint32_t *)malloc(maxn * sizeof(uint32_t));
    next = (uint32_t *)malloc(maxn * sizeof(uint32_t));
    if (!rc && (!h_p || !h_lat || !order || !next))
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    long done = 0, total = 3L * nsm;
    for (int ai = 0; ai < 3 && !rc; ai++) {
        gc_ring_spec_t sp = {arrays[ai], FSTRIDE, 0, GC_RING_SEQ, 0};
        size_t n;
        rc = gc_ring_check(&sp, &n, err);
        rc = rc ? rc : gc_ring_build(&sp, order, next, n, err);
        if (!rc && !gc_ring_is_cycle(next, n))
            rc = gc_err_set(err, GC_ERUN, "ring of %zu slots is not one cycle", n);
        rc = rc ? rc : gc_cuda_check(cudaMemcpy(d_next, next, n * sizeof(uint32_t), cudaMemcpyHostToDevice), "copying a ring", err);
        if (rc)
            break;
        k_finefill<<<dv->sms * 4, 256>>>(arr, d_next, n, FSTRIDE);
        if ((rc = gc_mem_sync("writing the fine-grained ring", err)) != 0)
            break;
        for (int k = 0; k < nsm && !rc; k++) {
            char label[64];
            snprintf(label, sizeof(label), "%zu MiB, SM %d", arrays[ai] >> 20, sms[k]);
            gc_progress(ctx, ++done, total, label);
            if (gc_resume_skip(ctx, steps))
                continue;
            size_t s0 = (size_t)k * n / (size_t)nsm;
            uint64_t start = (uint64_t)(arr + s0 * FSTRIDE);
            int got = 0;
            for (int t = 0; t < TRIES && !got && !rc; t++) {
                if (warmed[ai])
                    k_finetouch<<<dv->sms * 2, 1024>>>((const uint4 *)arr, arrays[ai] / 16, d_sink);
                else
                    k_finetouch<<<dv->sms * 2, 1024>>>((const uint4 *)scrub, 2 * l2 / 16, d_sink);
                cudaMemsetAsync(d_claim, 0, sizeof(int));
                k_pfine<<<dv->sms * 2, 32>>>(start, (unsigned)sms[k], steps, d_claim, d_p, d_lat, d_sm);
                int claimed = 0;
                rc = gc_mem_sync("running the fine-grained chase", err);
                rc = rc ? rc : gc_cuda_check(cudaMemcpy(&claimed, d_claim, sizeof(int), cudaMemcpyDeviceToHost), "reading the chase", err);
                got = claimed;
            }
            if (rc)
                break;
            if (!got) {
                rc = gc_err_set(err, GC_ERUN, "no block of %d launches ran on SM %d", TRIES, sms[k]);
                break;
            }
            rc = gc_cuda_check(cudaMemcpy(h_p, d_p, (size_t)steps * sizeof(uint64_t), cudaMemcpyDeviceToHost), "reading the chase", err);
            rc = rc ? rc : gc_cuda_check(cudaMemcpy(h_lat, d_lat, (size_t)steps * sizeof(unsigned), cudaMemcpyDeviceToHost), "reading the chase", err);
            uint64_t prev = start;
            for (int i = 0; i < steps && !rc; i++) {
                uint64_t want = (uint64_t)(arr + (size_t)order[(s0 + (size_t)i + 1) % n] * FSTRIDE);
                if (h_p[i] != want) {
                    rc = gc_err_set(err, GC_ERUN, "fine-grained chase on SM %d went astray at step %d", sms[k], i);
                    break;
                }
                rc = GC_MEM_ROW(w, err, "%d,%zu,%d,%d,%llu,%.0f", sms[k], arrays[ai], (int)FSTRIDE, i,
                                (unsigned long long)(prev - (uint64_t)arr), (double)h_lat[i] - ovh);
                prev = h_p[i];
            }
        }
    }
    free(sms);
    free(h_p);
    free(h_lat);
    free(order);
    free(next);
    cudaFree(arr);
    cudaFree(scrub);
    cudaFree(d_next);
    cudaFree(d_p);
    cudaFree(d_lat);
    cudaFree(d_sm);
    cudaFree(d_sink);
    cudaFree(d_claim);
    return rc;
}

extern "C" const gc_bench_t gc_bench_pchase_fine = {
    "pchase_fine",
    "fine-grained pointer chase: per-access latency from SMs spread over the chip",
    run_fine,
    gc_mem_sass_fine,
    gc_mem_sass_fine_n,
    0,
    1,
};
