// branch_fwd.cu - what a taken forward branch costs a lone warp. PyTorch's row kernels
// (softmax_warp_forward's stores, layernorm's Welford steps) jump forward over a slow path
// every few instructions, and branch_cost.cu timed only backward loop branches (ptxas
// predicates a short forward skip). Here each step is written in PTX as
//     setp; @p bra SKIP; <S dependent IMADs>; SKIP: <one dependent IMAD>
// with p known only at run time and S = 24, too long a skip to predicate:
//   taken:  p true, the warp runs setp, bra and the IMAD at the target;
//   fall:   p false, it runs setp, bra (not taken), the S IMADs and the target's;
//   flat:   setp and the target's IMAD without a branch (what "taken" would cost were a
//           taken branch one more issue).
// 64 steps a trip of an unrolled-once loop, 256 trips; one block of W warps (1, 4: one a
// sub-core, 8, 16) on one SM, timed with clock64 in the block. Cycles per step; a taken
// forward branch's cost = taken - flat. Its SASS is printed by the run script
// (cuobjdump -sass), to check that the branches stayed branches.
// Prints CSV: warps,kind,cycles_per_step
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o branch_fwd branch_fwd.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "probe.cuh"

#define MAD "mad.lo.u32 %0, %0, %2, %3;\n"
#define MAD4 MAD MAD MAD MAD
#define MAD24 MAD4 MAD4 MAD4 MAD4 MAD4 MAD4

/* One step: a forward branch over 24 IMADs, taken when p != 0. */
#define STEP_BR(x, p)                                                                      \
    asm volatile("{\n.reg .pred q;\nsetp.ne.u32 q, %1, 0;\n@q bra.uni SK%=;\n" MAD24         \
                 "SK%=:\n" MAD "}\n"                                                         \
                 : "+r"(x)                                                                   \
                 : "r"(p), "r"(a), "r"(b))
/* The same without a branch: the compare (kept live through its predicate) and the IMAD. */
#define STEP_FLAT(x, p)                                                                    \
    asm volatile("{\n.reg .pred q;\nsetp.ne.u32 q, %1, 0;\n@!q add.u32 %0, %0, 1;\n" MAD "}\n" \
                 : "+r"(x)                                                                   \
                 : "r"(p), "r"(a), "r"(b))

#define S8(M) M; M; M; M; M; M; M; M
#define S64(M) S8(M); S8(M); S8(M); S8(M); S8(M); S8(M); S8(M); S8(M)

template <int FLAT>
__global__ void k_steps(unsigned a, unsigned b, unsigned p, int trips, unsigned *sink,
                        long long *cyc)
{
    unsigned x = threadIdx.x;
    __syncthreads();
    long long t0 = clock64();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
        if (FLAT) {
            S64(STEP_FLAT(x, p));
        } else {
            S64(STEP_BR(x, p));
        }
    }
    long long t1 = clock64();
    sink[threadIdx.x] = x;
    if (threadIdx.x == 0)
        cyc[0] = t1 - t0;
}

typedef void (*kfn)(unsigned, unsigned, unsigned, int, unsigned *, long long *);

static double run(kfn f, int warps, unsigned p, unsigned *sink, long long *dcyc)
{
    const int trips = 256;
    return best_of_5([&] { f<<<1, warps * 32>>>(3u, 7u, p, trips, sink, dcyc); }, dcyc,
                     trips * 64.0);
}

int main()
{
    unsigned *sink;
    long long *dcyc;
    CK(cudaMalloc(&sink, 1024 * 4));
    CK(cudaMalloc(&dcyc, 8));
    printf("warps,kind,cycles_per_step\n");
    for (int w : {1, 4, 8, 16}) {
        printf("%d,taken,%.3f\n", w, run(k_steps<0>, w, 1u, sink, dcyc));
        printf("%d,fall,%.3f\n", w, run(k_steps<0>, w, 0u, sink, dcyc));
        printf("%d,flat,%.3f\n", w, run(k_steps<1>, w, 1u, sink, dcyc));
    }
    return 0;
}
