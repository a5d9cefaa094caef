// cold_start.cu - what a kernel's first pass through its parameters and its code costs:
// each launch brings new parameters (constant bank 0) and may find its code out of the
// SM's instruction cache. Per-kernel GPU time from a CUDA graph of BATCH launches (the
// launch bench's method), against:
//   const K:  one thread walks K parameter words 64 bytes apart, each index read from the
//             last (LDC with a register index: K dependent constant-cache misses);
//   uconst K: K parameter words 64 bytes apart, each an independent instruction's
//             constant operand (no dependence between the loads);
//   code K:   one warp runs K far-apart blocks of straight-line code once each (K x 2 KiB
//             of instructions, cold), against the same work from one block run K times
//             (code_warm K: warm after the first).
// Prints CSV: kind,k,grid,us_per_kernel (median of 9 timings).
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o cold_start cold_start.cu
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

struct P { unsigned w[1000]; }; /* 4000 bytes of parameters */

__global__ void k_const(P p, int k, unsigned *sink)
{
    unsigned j = 0;
    for (int i = 0; i < k; i++)
        j = p.w[j];
    if (j == 12345u)
        sink[0] = j;
}

/* 128 dependent IMADs (volatile: not folded into one): 2 KiB of SASS */
#define OP asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(a), "r"(b));
#define OPS16 OP OP OP OP OP OP OP OP OP OP OP OP OP OP OP OP
#define BLOCK(n) __device__ __noinline__ unsigned f##n(unsigned x, unsigned a, unsigned b) { \
    OPS16 OPS16 OPS16 OPS16 OPS16 OPS16 OPS16 OPS16 return x + n; }
BLOCK(0) BLOCK(1) BLOCK(2) BLOCK(3) BLOCK(4) BLOCK(5) BLOCK(6) BLOCK(7)
BLOCK(8) BLOCK(9) BLOCK(10) BLOCK(11) BLOCK(12) BLOCK(13) BLOCK(14) BLOCK(15)

/* K parameter words 64 bytes apart, each read by its own instruction (constant
 * operands, no dependence between them) */
template <int K>
__global__ void k_uconst(P p, unsigned *sink)
{
    unsigned s = 0;
#pragma unroll
    for (int i = 0; i < K; i++)
        s += p.w[16 * i] * (threadIdx.x + i);
    if (s == 12345u)
        sink[0] = s;
}

__global__ void k_code(int k, int warm, unsigned a, unsigned b, unsigned *sink)
{
    unsigned x = threadIdx.x;
    typedef unsigned (*fn)(unsigned);
    for (int i = 0; i < k; i++) {
        switch (warm ? 0 : i) {
        case 0: x = f0(x, a, b); break;   case 1: x = f1(x, a, b); break;
        case 2: x = f2(x, a, b); break;   case 3: x = f3(x, a, b); break;
        case 4: x = f4(x, a, b); break;   case 5: x = f5(x, a, b); break;
        case 6: x = f6(x, a, b); break;   case 7: x = f7(x, a, b); break;
        case 8: x = f8(x, a, b); break;   case 9: x = f9(x, a, b); break;
        case 10: x = f10(x, a, b); break; case 11: x = f11(x, a, b); break;
        case 12: x = f12(x, a, b); break; case 13: x = f13(x, a, b); break;
        case 14: x = f14(x, a, b); break; default: x = f15(x, a, b); break;
        }
    }
    if (x == 12345u)
        sink[0] = x;
}

static void launch_uconst(int k, int grid, cudaStream_t s, const P &p, unsigned *sink)
{
    switch (k) {
    case 0: k_uconst<0><<<grid, 32, 0, s>>>(p, sink); break;
    case 1: k_uconst<1><<<grid, 32, 0, s>>>(p, sink); break;
    case 2: k_uconst<2><<<grid, 32, 0, s>>>(p, sink); break;
    case 4: k_uconst<4><<<grid, 32, 0, s>>>(p, sink); break;
    case 8: k_uconst<8><<<grid, 32, 0, s>>>(p, sink); break;
    case 16: k_uconst<16><<<grid, 32, 0, s>>>(p, sink); break;
    case 32: k_uconst<32><<<grid, 32, 0, s>>>(p, sink); break;
    default: k_uconst<62><<<grid, 32, 0, s>>>(p, sink); break;
    }
}

static double time_graph(int kind, int k, int grid, int warm, const P &p, unsigned *sink)
{
    const int batch = 50;
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < batch; i++) {
        if (kind == 0)
            k_const<<<grid, 32, 0, s>>>(p, k, sink);
        else if (kind == 1)
            k_code<<<grid, 32, 0, s>>>(k, warm, 3u, 7u, sink);
        else
            launch_uconst(k, grid, s, p, sink);
    }
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    std::vector<float> t;
    for (int r = 0; r < 9; r++) {
        CK(cudaEventRecord(e0, s));
        CK(cudaGraphLaunch(ge, s));
        CK(cudaEventRecord(e1, s));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms * 1000.f / batch);
    }
    std::sort(t.begin(), t.end());
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    CK(cudaStreamDestroy(s));
    return t[4];
}

int main()
{
    unsigned *sink;
    CK(cudaMalloc(&sink, 64));
    P p;
    /* word 16 s holds 16 (s + 1): each step one 64-byte line further */
    for (int i = 0; i < 1000; i++)
        p.w[i] = (i % 16 == 0 && i + 16 < 1000) ? i + 16 : 0;
    printf("kind,k,grid,us_per_kernel\n");
    int grids[] = {1, 132};
    for (int gi = 0; gi < 2; gi++) {
        for (int k : {0, 1, 2, 4, 8, 16, 32, 48, 62})
            printf("const,%d,%d,%.4f\n", k, grids[gi], time_graph(0, k, grids[gi], 0, p, sink));
        for (int k : {0, 1, 2, 4, 8, 16, 32, 62})
            printf("uconst,%d,%d,%.4f\n", k, grids[gi], time_graph(2, k, grids[gi], 0, p, sink));
        for (int k : {0, 1, 2, 4, 8, 16}) {
            printf("code,%d,%d,%.4f\n", k, grids[gi], time_graph(1, k, grids[gi], 0, p, sink));
            printf("code_warm,%d,%d,%.4f\n", k, grids[gi], time_graph(1, k, grids[gi], 1, p, sink));
        }
        fflush(stdout);
    }
    return 0;
}
