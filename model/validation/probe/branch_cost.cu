// branch_cost.cu - what a taken branch costs a lone warp on its sub-core, beside the
// instructions around it: the PyTorch row kernels' warps run alone (one per sub-core) and
// take a branch every 5-15 instructions (layernorm's listing: 80 BRA a warp), and ncu
// counts 1.6 cycles an instruction of "branch resolving" and "no instruction" stalls in
// o049 (data/h200/diag_summary.csv), which the model does not charge (a BRA is one issue).
//
// One block of W warps (1, 4: one a sub-core; 8) on one SM, timed with clock64 inside:
//   loopN: a loop whose body is N independent IMADs (8 chains) and its own counter, compare
//          and backward branch (unroll 1), 4096 trips;
//   flat:  the same IMADs unrolled 16 x N a trip (a branch every 16 bodies).
// (Taken forward branches are not timed: ptxas predicates a short skip and unswitches a loop
// around a long one whose condition does not change.)
// cycles per body of N IMADs; a taken loop branch's cost = loop - flat. On the H200 a lone
// warp's trip takes at least ~29-31 cycles (the counter's add, the compare and the branch in
// a row, then the fetch at the target), whatever its body: 4 IMADs take 8.7 cycles flat,
// 31 in the loop; 16 take 32.6 and 42.
// Prints CSV: warps,n,kind,cycles_per_body
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o branch_cost branch_cost.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "probe.cuh"

#define IOP(v) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(v) : "r"(a), "r"(b));

template <int N, int U>
__global__ void k_body(unsigned a, unsigned b, int trips, unsigned *sink, long long *cyc)
{
    unsigned x[8];
#pragma unroll
    for (int i = 0; i < 8; i++)
        x[i] = threadIdx.x + i;
    __syncthreads();
    long long t0 = clock64();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int i = 0; i < N; i++)
                IOP(x[i % 8])
    }
    long long t1 = clock64();
    unsigned v = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
        v ^= x[i];
    sink[threadIdx.x] = v;
    if (threadIdx.x == 0)
        cyc[0] = t1 - t0;
}

typedef void (*kfn)(unsigned, unsigned, int, unsigned *, long long *);

static double run(kfn f, int warps, int trips, int bodies, unsigned *sink, long long *dcyc)
{
    return best_of_5([&] { f<<<1, warps * 32>>>(3u, 7u, trips, sink, dcyc); }, dcyc,
                     trips * (double)bodies);
}

int main()
{
    unsigned *sink;
    long long *dcyc;
    CK(cudaMalloc(&sink, 1024 * 4));
    CK(cudaMalloc(&dcyc, 8));
    struct { int n; kfn loop, flat; } ks[] = {
        {4, k_body<4, 1>, k_body<4, 16>},
        {8, k_body<8, 1>, k_body<8, 16>},
        {16, k_body<16, 1>, k_body<16, 16>},
    };
    printf("warps,n,kind,cycles_per_body\n");
    for (int w : {1, 4, 8})
        for (auto &k : ks) {
            double l = run(k.loop, w, 4096, 1, sink, dcyc);
            double f = run(k.flat, w, 256, 16, sink, dcyc);
            printf("%d,%d,loop,%.3f\n%d,%d,flat,%.3f\n", w, k.n, l, w, k.n, f);
        }
    return 0;
}
