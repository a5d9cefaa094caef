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

/* State of the fine-grained chase bench: the plan (array sizes, which
 * are warmed through L2, steps, the SM list), the clock overhead, and
 * the device and host buffers. */
typedef struct fine {
    gc_mctx_t *ctx;
    gc_trace_writer_t *w;
    size_t l2, arrays[3];
    int warmed[3];
    int steps, nsm, *sms;
    double ovh;
    char *arr, *scrub;
    uint32_t *d_next, *order, *next;
    uint64_t *d_p, *h_p;
    unsigned *d_lat, *h_lat, *d_sm, *d_sink;
    int *d_claim;
    long done, total;
} fine_t;

/* Writes the trace header (clock overhead, SM list, steps, method) and
 * the columns unless rc (the clock-overhead result) is already an
 * error. Returns 0 or the error; a failed write goes through
 * gc_mem_row_err. */
static int fine_meta(fine_t *f, int rc, gc_err_t *err)
{
    gc_trace_writer_t *w = f->w;
    char list[1024];
    size_t at = 0;
    for (int k = 0; k < f->nsm && at < sizeof(list) - 8; k++)
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%d", k ? " " : "", f->sms[k]);
    rc = rc ? rc : gc_trace_put_meta(w, "clock_overhead_cyc", "%.1f", f->ovh);
    rc = rc ? rc : gc_trace_put_meta(w, "sm_list", "%s", list);
    rc = rc ? rc : gc_trace_put_meta(w, "steps", "%d", f->steps);
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
    return rc;
}

/* Allocates the device buffers (chase array, 2x L2 scrub buffer filled
 * with 0x5a, ring, results) and the host buffers of f. Returns 0 or the
 * first error; the caller frees f either way. */
static int fine_alloc(fine_t *f, gc_err_t *err)
{
    size_t maxn = f->arrays[2] / FSTRIDE, l2 = f->l2;
    int rc = gc_cuda_check(cudaMalloc(&f->arr, f->arrays[2]), "allocating the chase array", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&f->scrub, 2 * l2), "allocating the scrub buffer", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&f->d_next, maxn * sizeof(uint32_t)), "allocating a ring", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&f->d_p, FSTEPS_MAX * sizeof(uint64_t)), "allocating results", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&f->d_lat, FSTEPS_MAX * sizeof(unsigned)), "allocating results", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&f->d_sm, sizeof(unsigned)), "allocating results", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&f->d_sink, sizeof(unsigned)), "allocating results", err);
    rc = rc ? rc : gc_cuda_check(cudaMalloc(&f->d_claim, sizeof(int)), "allocating results", err);
    rc = rc ? rc : gc_cuda_check(cudaMemset(f->scrub, 0x5a, 2 * l2), "filling the scrub buffer", err);
    f->h_p = (uint64_t *)malloc(FSTEPS_MAX * sizeof(uint64_t));
    f->h_lat = (unsigned *)malloc(FSTEPS_MAX * sizeof(unsigned));
    f->order = (uint32_t *)malloc(maxn * sizeof(uint32_t));
    f->next = (uint32_t *)malloc(maxn * sizeof(uint32_t));
    if (!rc && (!f->h_p || !f->h_lat || !f->order || !f->next))
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    return rc;
}

/* Frees every buffer of f (NULL ones included). */
static void fine_free(fine_t *f)
{
    free(f->sms);
    free(f->h_p);
    free(f->h_lat);
    free(f->order);
    free(f->next);
    cudaFree(f->arr);
    cudaFree(f->scrub);
    cudaFree(f->d_next);
    cudaFree(f->d_p);
    cudaFree(f->d_lat);
    cudaFree(f->d_sm);
    cudaFree(f->d_sink);
    cudaFree(f->d_claim);
}

/* Builds and checks the sequential ring over array ai, copies it to the
 * device and writes it into the chase array; *n gets its slot count.
 * Returns 0 or the first error. */
static int fine_ring(fine_t *f, int ai, size_t *n, gc_err_t *err)
{
    gc_ring_spec_t sp = {f->arrays[ai], FSTRIDE, 0, GC_RING_SEQ, 0};
    int rc = gc_ring_check(&sp, n, err);
    rc = rc ? rc : gc_ring_build(&sp, f->order, f->next, *n, err);
    if (!rc && !gc_ring_is_cycle(f->next, *n))
        rc = gc_err_set(err, GC_ERUN, "ring of %zu slots is not one cycle", *n);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(f->d_next, f->next, *n * sizeof(uint32_t), cudaMemcpyHostToDevice), "copying a ring", err);
    if (rc)
        return rc;
    k_finefill<<<f->ctx->dev.sms * 4, 256>>>(f->arr, f->d_next, *n, FSTRIDE);
    return gc_mem_sync("writing the fine-grained ring", err);
}

/* Runs the chase of array ai from start on SM sms[k]: warms L2 with the
 * array (or scrubs it), launches until a block lands on that SM, at most
 * TRIES times. Returns 0, or an error (none of the launches ran there
 * included). */
static int fine_launch(fine_t *f, int ai, int k, uint64_t start, gc_err_t *err)
{
    int sms = f->ctx->dev.sms, got = 0, rc = 0;
    for (int t = 0; t < TRIES && !got && !rc; t++) {
        if (f->warmed[ai])
            k_finetouch<<<sms * 2, 1024>>>((const uint4 *)f->arr, f->arrays[ai] / 16, f->d_sink);
        else
            k_finetouch<<<sms * 2, 1024>>>((const uint4 *)f->scrub, 2 * f->l2 / 16, f->d_sink);
        cudaMemsetAsync(f->d_claim, 0, sizeof(int));
        k_pfine<<<sms * 2, 32>>>(start, (unsigned)f->sms[k], f->steps, f->d_claim, f->d_p, f->d_lat, f->d_sm);
        int claimed = 0;
        rc = gc_mem_sync("running the fine-grained chase", err);
        rc = rc ? rc : gc_cuda_check(cudaMemcpy(&claimed, f->d_claim, sizeof(int), cudaMemcpyDeviceToHost), "reading the chase", err);
        got = claimed;
    }
    if (rc)
        return rc;
    if (!got)
        return gc_err_set(err, GC_ERUN, "no block of %d launches ran on SM %d", TRIES, f->sms[k]);
    return 0;
}

/* One SM of array ai (ring of n slots): chases from the SM's own offset,
 * checks every loaded pointer against the ring and writes one row per
 * step. Returns 0 or the first error. */
static int fine_sm(fine_t *f, int ai, int k, size_t n, gc_err_t *err)
{
    size_t s0 = (size_t)k * n / (size_t)f->nsm;
    uint64_t start = (uint64_t)(f->arr + s0 * FSTRIDE);
    int rc = fine_launch(f, ai, k, start, err);
    if (rc)
        return rc;
    rc = gc_cuda_check(cudaMemcpy(f->h_p, f->d_p, (size_t)f->steps * sizeof(uint64_t), cudaMemcpyDeviceToHost), "reading the chase", err);
    rc = rc ? rc : gc_cuda_check(cudaMemcpy(f->h_lat, f->d_lat, (size_t)f->steps * sizeof(unsigned), cudaMemcpyDeviceToHost), "reading the chase", err);
    uint64_t prev = start;
    for (int i = 0; i < f->steps && !rc; i++) {
        uint64_t want = (uint64_t)(f->arr + (size_t)f->order[(s0 + (size_t)i + 1) % n] * FSTRIDE);
        if (f->h_p[i] != want)
            return gc_err_set(err, GC_ERUN, "fine-grained chase on SM %d went astray at step %d", f->sms[k], i);
        rc = GC_MEM_ROW(f->w, err, "%d,%zu,%d,%d,%llu,%.0f", f->sms[k], f->arrays[ai], (int)FSTRIDE, i,
                        (unsigned long long)(prev - (uint64_t)f->arr), (double)f->h_lat[i] - f->ovh);
        prev = f->h_p[i];
    }
    return rc;
}

/* Measures array ai on every listed SM (progress and resume per SM).
 * Returns 0 or the first error. */
static int fine_array(fine_t *f, int ai, gc_err_t *err)
{
    size_t n;
    int rc = fine_ring(f, ai, &n, err);
    for (int k = 0; k < f->nsm && !rc; k++) {
        char label[64];
        snprintf(label, sizeof(label), "%zu MiB, SM %d", f->arrays[ai] >> 20, f->sms[k]);
        gc_progress(f->ctx, ++f->done, f->total, label);
        if (gc_resume_skip(f->ctx, f->steps))
            continue;
        rc = fine_sm(f, ai, k, n, err);
    }
    return rc;
}

/* The fine-grained chase bench: arrays of 1/6 and 4/5 of L2 (warmed) and
 * 2x L2 (scrubbed), on up to DEFAULT_SMS SMs spread over the ids (all
 * with full, 4 with quick). Returns 0 or the first error; frees
 * everything on every path. */
static int run_fine(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    const gc_devinfo_t *dv = &ctx->dev;
    fine_t f;
    memset(&f, 0, sizeof(f));
    f.ctx = ctx;
    f.w = w;
    size_t l2 = (size_t)dv->l2_bytes, mib = 1 << 20;
    f.l2 = l2;
    f.arrays[0] = l2 / 6 / mib * mib;
    f.arrays[1] = l2 * 4 / 5 / mib * mib;
    f.arrays[2] = 2 * l2 / mib * mib;
    f.warmed[0] = f.warmed[1] = 1;
    f.steps = ctx->quick ? 512 : FSTEPS_MAX;
    f.nsm = ctx->full ? dv->sms : (dv->sms < DEFAULT_SMS ? dv->sms : DEFAULT_SMS);
    if (ctx->quick && f.nsm > 4)
        f.nsm = 4;
    f.sms = (int *)malloc(sizeof(int) * (size_t)f.nsm);
    if (!f.sms)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    for (int k = 0; k < f.nsm; k++) /* spread over the SM ids (ids follow the GPC layout) */
        f.sms[k] = (int)((long)k * dv->sms / f.nsm);

    int rc = fine_meta(&f, gc_mem_clock_overhead(&f.ovh, err), err);
    rc = rc ? rc : fine_alloc(&f, err);
    f.total = 3L * f.nsm;
    for (int ai = 0; ai < 3 && !rc; ai++)
        rc = fine_array(&f, ai, err);
    fine_free(&f);
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
