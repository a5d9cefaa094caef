/* bench_alu.cu - the `alu` bench: latency and throughput of the CUDA-core
 * pipes (FFMA, FADD, FMUL, HFMA2, IMAD, IADD3, DFMA and the MUFU special
 * functions; measure/forms.h GC_ALU_OPS) swept over warps per SM x
 * independent chains per warp, on one SM. Each step applies the op to its
 * chain's own value (x = op(x, constants)); the constants keep every chain
 * finite and moving (x*0.999+0.001, x*(1+2^-23), 2^-x, 1/sqrt(x), ...).
 * No MUFU.RCP: the compiler folds a chain of reciprocals (1/(1/x) = x).
 * Chains start from random values loaded at run time; their final values
 * go to the sink, which the host checks. Writes alu.csv. */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <string.h>

#include "forms.h"
#include "sweep_plan.h"
#include "tensor_sweep.cuh"

/* constants in the auxiliary words (aux[0..32) of the sweep's inputs) */
enum { K_FA, K_FB, K_FMUL, K_FADD, K_HA, K_HB, K_IA, K_IB, K_DA_LO, K_DA_HI, K_DB_LO, K_DB_HI,
       K_COUNT };

/* one step of each op on 32-bit (or, for dfma, 64-bit) chain state */
template <int OP> struct gc_alu;
#define GC_ALU_F(ID, PTX)                                                                      \
    template <> struct gc_alu<ID> {                                                            \
        typedef float t;                                                                       \
        static __device__ __forceinline__ void step(t &x, const uint32_t *k)                   \
        {                                                                                      \
            (void)k;                                                                           \
            PTX;                                                                               \
        }                                                                                      \
    };
enum { A_FFMA, A_FADD, A_FMUL, A_HFMA2, A_IMAD, A_IADD3, A_DFMA, A_EX2, A_RSQ, A_LG2, A_SQRT,
       A_TANH };
GC_ALU_F(A_FFMA, asm volatile("fma.rn.f32 %0, %0, %1, %2;"
                              : "+f"(x)
                              : "f"(__uint_as_float(k[K_FA])), "f"(__uint_as_float(k[K_FB]))))
GC_ALU_F(A_FADD, asm volatile("add.f32 %0, %0, %1;" : "+f"(x) : "f"(__uint_as_float(k[K_FADD]))))
GC_ALU_F(A_FMUL, asm volatile("mul.f32 %0, %0, %1;" : "+f"(x) : "f"(__uint_as_float(k[K_FMUL]))))
GC_ALU_F(A_EX2, asm volatile("{\n.reg .f32 n;\nneg.f32 n, %0;\nex2.approx.ftz.f32 %0, n;\n}"
                             : "+f"(x)))
GC_ALU_F(A_RSQ, asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x)))
GC_ALU_F(A_LG2, asm volatile("{\n.reg .f32 n;\nabs.f32 n, %0;\nlg2.approx.ftz.f32 %0, n;\n}"
                             : "+f"(x)))
GC_ALU_F(A_SQRT, asm volatile("sqrt.approx.ftz.f32 %0, %0;" : "+f"(x)))
GC_ALU_F(A_TANH, asm volatile("tanh.approx.f32 %0, %0;" : "+f"(x)))
#define GC_ALU_U(ID, PTX)                                                                      \
    template <> struct gc_alu<ID> {                                                            \
        typedef uint32_t t;                                                                    \
        static __device__ __forceinline__ void step(t &x, const uint32_t *k)                   \
        {                                                                                      \
            PTX;                                                                               \
        }                                                                                      \
    };
GC_ALU_U(A_HFMA2, asm volatile("fma.rn.f16x2 %0, %0, %1, %2;" : "+r"(x) : "r"(k[K_HA]), "r"(k[K_HB])))
GC_ALU_U(A_IMAD, asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(k[K_IA]), "r"(k[K_IB])))
/* iadd3: one three-input add per step (two PTX adds the compiler fuses into
 * one IADD3; with a single addend it fuses two steps instead) */
GC_ALU_U(A_IADD3, asm volatile("add.u32 %0, %0, %1;\n\tadd.u32 %0, %0, %2;"
                               : "+r"(x)
                               : "r"(k[K_IB]), "r"(k[K_IA])))
template <> struct gc_alu<A_DFMA> {
    typedef double t;
    static __device__ __forceinline__ void step(t &x, const uint32_t *k)
    {
        double a = __hiloint2double((int)k[K_DA_HI], (int)k[K_DA_LO]);
        double b = __hiloint2double((int)k[K_DB_HI], (int)k[K_DB_LO]);
        asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x) : "d"(a), "d"(b));
    }
};

__device__ __forceinline__ void gc_alu_pin(float &x) { asm volatile("" : "+f"(x)); }
__device__ __forceinline__ void gc_alu_pin(uint32_t &x) { asm volatile("" : "+r"(x)); }
__device__ __forceinline__ void gc_alu_pin(double &x) { asm volatile("" : "+d"(x)); }

__device__ __forceinline__ uint32_t gc_alu_bits(float x) { return __float_as_uint(x); }
__device__ __forceinline__ uint32_t gc_alu_bits(uint32_t x) { return x; }
__device__ __forceinline__ uint32_t gc_alu_bits(double x)
{
    return (uint32_t)__double2hiint(x) ^ (uint32_t)__double2loint(x);
}

template <int OP, int ILP> __device__ __forceinline__ void gc_alu_body(GC_T_ARGS)
{
    typedef gc_alu<OP> op;
    typedef typename op::t T;
    const unsigned tid = gc_t_tid();
    uint32_t k[K_COUNT];
#pragma unroll
    for (int i = 0; i < K_COUNT; i++)
        k[i] = in[GC_T_WORDS + GC_T_META + i];
    /* chains start at random values in [1/2, 1): positive, so sqrt and rsqrt
     * stay finite */
    T x[ILP];
#pragma unroll
    for (int c = 0; c < ILP; c++) {
        /* exponent of 0.5, random mantissa: no floating-point op in the setup */
        float f = __uint_as_float((in[(tid * 8 + c) & (GC_T_WORDS - 1)] & 0x007FFFFFu) | 0x3F000000u);
        if constexpr (OP == A_HFMA2) {
            __half2 h = __floats2half2_rn(f, f * 0.75f);
            x[c] = *reinterpret_cast<uint32_t *>(&h);
        } else if constexpr (OP == A_IMAD || OP == A_IADD3) {
            x[c] = in[(tid * 8 + c) & (GC_T_WORDS - 1)];
        } else {
            x[c] = (T)f;
        }
    }
#pragma unroll
    for (int i = 0; i < K_COUNT; i++)
        asm volatile("" : "+r"(k[i]));
#pragma unroll
    for (int c = 0; c < ILP; c++)
        gc_alu_pin(x[c]);
    gc_ttimer_t t;
    gc_t_begin(&t);
#pragma unroll 1
    for (int trip = 0; trip < trips; trip++) {
#pragma unroll
        for (int u = 0; u < gc_sweep_unroll_alu_c(ILP); u++)
#pragma unroll
            for (int c = 0; c < ILP; c++)
                op::step(x[c], k);
    }
    gc_t_end(&t, rec);
    uint32_t v = 0;
#pragma unroll
    for (int c = 0; c < ILP; c++)
        v = v * 31u + gc_alu_bits(x[c]);
    sink[tid] = v;
}

#define GC_ALU_K1(name, ID, ilp)                                                               \
    extern "C" __global__ void gc_k_alu_##name##_i##ilp(GC_T_ARGS)                             \
    {                                                                                          \
        gc_alu_body<ID, ilp>(in, sink, rec, trips);                                            \
    }
#define GC_ALU_KERNELS(name, ID)                                                               \
    GC_ALU_K1(name, ID, 1) GC_ALU_K1(name, ID, 2) GC_ALU_K1(name, ID, 3) GC_ALU_K1(name, ID, 4) \
        GC_ALU_K1(name, ID, 5) GC_ALU_K1(name, ID, 6) GC_ALU_K1(name, ID, 7)                   \
            GC_ALU_K1(name, ID, 8)
GC_ALU_KERNELS(ffma, A_FFMA)
GC_ALU_KERNELS(fadd, A_FADD)
GC_ALU_KERNELS(fmul, A_FMUL)
GC_ALU_KERNELS(hfma2, A_HFMA2)
GC_ALU_KERNELS(imad, A_IMAD)
GC_ALU_KERNELS(iadd3, A_IADD3)
GC_ALU_KERNELS(dfma, A_DFMA)
GC_ALU_KERNELS(ex2, A_EX2)
GC_ALU_KERNELS(rsq, A_RSQ)
GC_ALU_KERNELS(lg2, A_LG2)
GC_ALU_KERNELS(sqrt, A_SQRT)
GC_ALU_KERNELS(tanh, A_TANH)

#define GC_ALU_ENTRY(name, ...)                                                                \
    {(const void *)gc_k_alu_##name##_i1, (const void *)gc_k_alu_##name##_i2,                  \
     (const void *)gc_k_alu_##name##_i3, (const void *)gc_k_alu_##name##_i4,                   \
     (const void *)gc_k_alu_##name##_i5, (const void *)gc_k_alu_##name##_i6,                   \
     (const void *)gc_k_alu_##name##_i7, (const void *)gc_k_alu_##name##_i8},
/* in GC_ALU_OPS order (forms.c's gc_alu_ops) */
static const void *const alu_tab[GC_ALU_COUNT][8] = {GC_ALU_OPS(GC_ALU_ENTRY)};

/* The point of the alu sweep for operation *(int *)cookie at wn warps and
 * ILP ilp (gc_tgrid_t plan): one SM, every chain on random data. */
static void alu_plan(void *cookie, int wn, int ilp, gc_tpoint_t *p)
{
    int o = *(const int *)cookie;
    p->fn = alu_tab[o][ilp - 1];
    p->blocks = 1;
    p->warps = wn;
    p->unroll = gc_sweep_unroll_alu(ilp);
    p->work = (double)wn * 32 * ilp;
    p->sink_kind = GC_SINK_INT;
    p->rand = 1;
    snprintf(p->label, sizeof(p->label), "%s w%d ilp%d", gc_alu_ops[o].op, wn, ilp);
    snprintf(p->cols, sizeof(p->cols), "%s", gc_alu_ops[o].op);
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static int run_alu(gc_mctx_t *ctx, gc_trace_writer_t *w, gc_err_t *err)
{
    gc_tsweep_t s;
    int rc = gc_tsweep_init(&s, ctx, err);
    if (rc)
        return rc;
    uint32_t k[32] = {0};
    k[K_FA] = fbits(0.999f);
    k[K_FB] = fbits(0.001f);
    k[K_FMUL] = fbits(1.0f + 1.0f / 8388608.0f);
    k[K_FADD] = fbits(0.001f);
    k[K_HA] = 0x38003800u; /* half2(0.5, 0.5) */
    k[K_HB] = 0x34003400u; /* half2(0.25, 0.25) */
    k[K_IA] = 3;
    k[K_IB] = 0x9E3779B9u;
    double da = 0.999, db = 0.001;
    uint64_t u;
    memcpy(&u, &da, sizeof(u));
    k[K_DA_LO] = (uint32_t)u;
    k[K_DA_HI] = (uint32_t)(u >> 32);
    memcpy(&u, &db, sizeof(u));
    k[K_DB_LO] = (uint32_t)u;
    k[K_DB_HI] = (uint32_t)(u >> 32);
    rc = gc_tsweep_data(&s, "f32", 1, k, 32, err);
    if (!rc && gc_trace_put_meta(w, "pattern",
                                 "rand: each chain starts at a random value in [1/2, 1) (integer "
                                 "ops: random bits); steps: ffma x*0.999+0.001, fadd x+0.001, "
                                 "fmul x*(1+2^-23), hfma2 x*0.5+0.25, imad x*3+0x9e3779b9, "
                                 "iadd3 x+0x9e3779b9+3, dfma x*0.999+0.001, mufu.ex2 2^-x, "
                                 "mufu.lg2 log2|x|, mufu.rsq/sqrt/tanh of x") != 0)
        rc = gc_tsweep_werr(w, err);
    if (!rc && gc_measure_columns(w, "alu") != 0)
        rc = gc_tsweep_werr(w, err);
    const int *warps, *ilps;
    int nw = gc_sweep_warps(ctx->quick, &warps), ni = gc_sweep_ilps(ctx->quick, &ilps);
    long total = (long)GC_ALU_COUNT * nw * ni, done = 0;
    int o = 0;
    gc_tgrid_t g = {warps, ilps, nw, ni, alu_plan, NULL, &o, &done, total};
    for (; o < GC_ALU_COUNT && !rc; o++)
        rc = gc_tsweep_grid(&s, w, &g, err);
    gc_tsweep_fini(&s);
    return rc;
}

static gc_forms_rules_t alu_rules;

static int alu_sass_plan(int cc, const gc_sass_rule_t **rules)
{
    int n = gc_forms_rules(&alu_rules, "alu", cc);
    *rules = alu_rules.rule;
    return n;
}

extern "C" const gc_bench_t gc_bench_alu = {
    "alu", "CUDA-core pipes: FFMA FADD FMUL HFMA2 IMAD IADD3 DFMA MUFU latency/throughput",
    run_alu, NULL, 0, 0, 1, alu_sass_plan,
};
