/* bench_coissue.cu - the `coissue` bench: does a sub-core overlap its
 * tensor instructions (mma.sync.m16n8k16 f16 -> f32, one HMMA) with the
 * CUDA-core pipes? One block of 16 warps on one SM (four per sub-core), then 32, 8 and 4;
 * every warp runs, per loop iteration, NT = 4 independent mma chains and/or
 * NO independent chains of one partner op: ffma (the FMA pipe), iadd3 (the
 * ALU pipe), ex2 (MUFU, the XU pipe), ldsm (ldmatrix.x4 from shared memory:
 * the MIO path FlashAttention and Ampere-style GEMMs feed their mma from)
 * or shfl (shfl.sync.bfly, the reductions' shuffle), 16 / 16 / 8 / 2 / 4
 * streams (ldsm and shfl sized so that alone they take about as long as the
 * tensor chains). Each ldmatrix of a trip reads its own 512-byte slot (8
 * of them), its address independent of earlier loads, as a main loop loads its fragments (CUTLASS,
 * FlashAttention); its result is added into the stream's register a step
 * later, when the next load of the stream issues (the main loops use a
 * fragment the step after its load). An
 * earlier version chained each load's address to the one before, and then a
 * sub-core with 1 or 2 warps hid nothing beside mma: the chain's latency,
 * not the pipes, set that (model/validation/probe/mma_ldsm.cu: 0.83 of the
 * shorter hidden at 8 warps with independent addresses, 0 with the chain);
 * calib reads the new rows only (partner ldsm_ind). Three points per
 * partner: tensor alone, partner alone, both in the same warp. If `both`
 * takes the sum of the two alone, the pipes do not overlap; if it takes the
 * larger, they overlap fully (calib: sm.overlap_tensor_fma / _alu / _xu).
 * Chains start from values loaded at run time; the results go to the sink,
 * which the host checks. Writes coissue.csv. */
#include <cuda_runtime.h>
#include <string.h>

#include "tensor_sweep.cuh"

enum { P_FFMA, P_IADD3, P_EX2, P_LDSM, P_SHFL, P_COUNT };
enum { NT = 4, UNROLL = 4, NW = 4 };
/* warps in the block: 4, 8, 2 and 1 per sub-core (the first is the point
 * calib reads for sm.overlap_tensor_*; all of them go into sm.coissue: how
 * the overlap depends on the warps a sub-core has to choose from) */
static const int warps_of[NW] = {16, 32, 8, 4};
static const char *const pname[P_COUNT] = {"ffma", "iadd3", "ex2", "ldsm_ind", "shfl"};
static const int pchains[P_COUNT] = {16, 16, 8, 2, 4};

/* One partner step on chain x (ldsm: stream x adds in the fragment r its
 * previous load brought, then loads r anew from shared address `at`, which
 * does not wait for x: a fragment is used a step after its load, as a
 * software-pipelined main loop uses it). */
template <int P>
__device__ __forceinline__ void partner(uint32_t &x, uint32_t at, uint32_t (&r)[4])
{
    if (P == P_LDSM) {
        x += r[0] | r[1] | r[2] | r[3];
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(at));
    } else if (P == P_SHFL)
        x = __shfl_xor_sync(0xffffffffu, x, 1) + 1u;
    else if (P == P_FFMA)
        asm volatile("{\n.reg .f32 n;\nmov.b32 n, %0;\nfma.rn.f32 n, n, 0f3F7FBE77, 0f3A83126F;\n"
                     "mov.b32 %0, n;\n}"
                     : "+r"(x));
    else if (P == P_IADD3)
        asm volatile("add.u32 %0, %0, 0x9e3779b9;\n\tadd.u32 %0, %0, 3;" : "+r"(x));
    else
        asm volatile("{\n.reg .f32 n;\nmov.b32 n, %0;\nneg.f32 n, n;\nex2.approx.ftz.f32 n, n;\n"
                     "mov.b32 %0, n;\n}"
                     : "+r"(x));
}

/* The loop: T tensor chains (0 or NT) and O partner chains (0 or pchains). */
template <int P, int T, int O>
__device__ void body(const uint32_t *in, uint32_t *sink, unsigned long long *rec, int trips)
{
    unsigned tid = gc_t_tid();
    __shared__ __align__(128) uint32_t zeros[P == P_LDSM ? 1024 : 1];
    if (P == P_LDSM) { /* 8 slots x 512 bytes of zeros read at run time */
        for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x)
            zeros[i] = in[GC_T_WORDS + GC_T_ZERO + i];
        __syncthreads();
    }
    uint32_t a[4], b[2], x[O > 0 ? O : 1], r[O > 0 ? O : 1][4] = {};
    const uint32_t at = (uint32_t)__cvta_generic_to_shared(zeros) + 16u * (threadIdx.x & 31);
    float c[T > 0 ? T : 1][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
        a[i] = in[(tid * 4 + i) & (GC_T_WORDS - 1)] & 0x3bff3bffu; /* f16 pairs below 1 */
    b[0] = in[(tid * 2 + 7) & (GC_T_WORDS - 1)] & 0x3bff3bffu;
    b[1] = in[(tid * 2 + 9) & (GC_T_WORDS - 1)] & 0x3bff3bffu;
#pragma unroll
    for (int i = 0; i < (T > 0 ? T : 1); i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
            c[i][j] = 0;
#pragma unroll
    for (int i = 0; i < (O > 0 ? O : 1); i++)
        x[i] = P == P_LDSM ? in[(tid * 8 + i) & (GC_T_WORDS - 1)] | 1u /* plus zeros: kept */
               : P == P_IADD3 || P == P_SHFL
                   ? in[(tid * 8 + i) & (GC_T_WORDS - 1)]
                   : ((in[(tid * 8 + i) & (GC_T_WORDS - 1)] & 0x007FFFFFu) | 0x3F000000u);
    gc_ttimer_t t;
    gc_t_begin(&t);
#pragma unroll 1
    for (int trip = 0; trip < trips; trip++)
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
#pragma unroll
            for (int i = 0; i < T; i++)
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                             "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                             : "+f"(c[i][0]), "+f"(c[i][1]), "+f"(c[i][2]), "+f"(c[i][3])
                             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#pragma unroll
            for (int i = 0; i < O; i++)
                partner<P>(x[i], at + 512u * ((u * O + i) & 7), r[i]); /* distinct slots in
                                                                       * a trip: no two merge */
        }
    gc_t_end(&t, rec);
    uint32_t v = 0;
#pragma unroll
    for (int i = 0; i < (T > 0 ? T : 1); i++)
        v = v * 31u + __float_as_uint(c[i][0] + c[i][3]);
#pragma unroll
    for (int i = 0; i < (O > 0 ? O : 1); i++)
        v = v * 31u + (x[i] + (r[i][0] | r[i][1] | r[i][2] | r[i][3]));
    sink[tid] = v;
}

#define GC_CO_K(name, P, O)                                                                    \
    extern "C" __global__ void gc_k_co_##name##_t(GC_T_ARGS) { body<P, NT, 0>(in, sink, rec, trips); } \
    extern "C" __global__ void gc_k_co_##name##_o(GC_T_ARGS) { body<P, 0, O>(in, sink, rec, trips); }  \
    extern "C" __global__ void gc_k_co_##name##_b(GC_T_ARGS) { body<P, NT, O>(in, sink, rec, trips); }
GC_CO_K(ffma, P_FFMA, 16)
GC_CO_K(iadd3, P_IADD3, 16)
GC_CO_K(ex2, P_EX2, 8)
GC_CO_K(ldsm, P_LDSM, 2)
GC_CO_K(shfl, P_SHFL, 4)

/* per partner: tensor alone, partner alone, both */
static const void *const kern[P_COUNT][3] = {
    {(const void *)gc_k_co_ffma_t, (const void *)gc_k_co_ffma_o, (const void *)gc_k_co_ffma_b},
    {(const void *)gc_k_co_iadd3_t, (const void *)gc_k_co_iadd3_o, (const void *)gc_k_co_iadd3_b},
    {(const void *)gc_k_co_ex2_t, (const void *)gc_k_co_ex2_o, (const void *)gc_k_co_ex2_b},
    {(const void *)gc_k_co_ldsm_t, (const void *)gc_k_co_ldsm_o, (const void *)gc_k_co_ldsm_b},
    {(const void *)gc_k_co_shfl_t, (const void *)gc_k_co_shfl_o, (const void *)gc_k_co_shfl_b},
};
static const char *const part[3] = {"tensor", "partner", "both"};

static int fail_w(gc_trace_writer_t *w, gc_err_t *err)
{
    return gc_err_set(err, GC_EIO, "%s", gc_trace_writer_err(w)->msg);
}

/* One point: kernel part q of partner p with `warps` warps; its row. */
static int point(gc_tsweep_t *s, gc_mctx_t *ctx, gc_trace_writer_t *w, int warps, int p, int q,
                 gc_err_t *err)
{
    gc_point_t pt;
    long iters;
    int rc = gc_tsweep_point(s, kern[p][q], 1, warps, 0, UNROLL, &pt, &iters, err);
    if (!rc)
        rc = gc_tsweep_check(s, (size_t)warps * 32, GC_SINK_INT, 1, pname[p], err);
    if (rc)
        return rc;
    int nt = q == 1 ? 0 : NT, no = q == 0 ? 0 : pchains[p];
    if (gc_trace_rowf(w, "%s,%s,%d,%d,%d,%ld,%d,%.3f,%.3f,%.3f,%.1f,%d", pname[p], part[q], warps,
                      nt, no, iters, ctx->reps, pt.med, pt.lo, pt.hi, pt.clock_mhz,
                      pt.clock_moved) != 0)
        return fail_w(w, err);
    return 0;
}

static int run_coissue(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    gc_tsweep_t s;
    int rc = gc_tsweep_init(&s, ctx, err);
    if (rc)
        return rc;
    rc = gc_tsweep_data(&s, "f16", 1, NULL, 0, err);
    if (!rc && gc_trace_put_meta(w, "method",
                                 "one block of 16, 32, 8 or 4 warps on one SM (4, 8, 2, 1 per sub-core); per warp and "
                                 "iteration: 4 independent mma.sync.m16n8k16.f32.f16.f16.f32 "
                                 "and/or 16 ffma / 16 iadd3 / 8 ex2.approx chains, 2 ldmatrix.x4 streams at fixed addresses "
                                 "(ldsm_ind: independent of earlier loads) / 4 shfl.bfly chains; tensor alone, "
                                 "partner alone, both in the same warp; cycles per iteration of "
                                 "the block (first warp start to last warp end)") != 0)
        rc = fail_w(w, err);
    if (!rc && gc_measure_columns(w, "coissue") != 0)
        rc = fail_w(w, err);
    for (int v = 0; v < NW && !rc; v++)
        for (int p = 0; p < P_COUNT && !rc; p++)
            for (int q = 0; q < 3 && !rc; q++) {
                char label[64];
                snprintf(label, sizeof(label), "%s %s, %d warps", pname[p], part[q], warps_of[v]);
                gc_progress(ctx, (v * P_COUNT + p) * 3 + q + 1, NW * P_COUNT * 3, label);
                if (gc_resume_skip(ctx, 1))
                    continue;
                rc = point(&s, ctx, w, warps_of[v], p, q, err);
            }
    gc_tsweep_fini(&s);
    return rc;
}

extern "C" const gc_bench_t gc_bench_coissue = {
    "coissue", "tensor (mma.sync) beside the FMA, ALU, MUFU pipes, ldmatrix and shuffles on one sub-core: "
    "overlap",
    run_coissue, NULL, 0, 80, 1, NULL,
};
