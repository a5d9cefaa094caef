// cold_seq.cu - is the cold bench's code cost (traces/h200/cold.csv: 154 cycles a cold
// 2 KiB block, sm.code_miss_cyc) a cost per jump to new code, or per 2 KiB of code run for
// the first time? The model charges it per far jump counted in a kernel's listing; if it is
// per byte, a kernel's whole first pass through its code costs it (a PyTorch row kernel runs
// 300-600 instructions, 5-10 KiB, once a warp).
//
// Per-kernel GPU time in CUDA graphs of 200 launches of one warp on every SM (the cold
// bench's method), for
//   seq K:   one straight block of K x 128 dependent IMADs (K x 2 KiB of SASS, no jump);
//   calls K: K __noinline__ blocks of 128 IMADs called in address order (as the bench);
//   warm K:  one such block called K times;
//   seqi K:  one straight block of K x 128 IMADs in 8 independent chains (a lone warp issues
//            them about one a clock: does the fetch of cold code keep up?).
// Prints CSV: kind,k,us_per_kernel (median of 15 graph timings), and the slopes against K
// (cycles at the SM clock the device reports).
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o cold_seq cold_seq.cu
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "probe.cuh"

#define OP asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(a), "r"(b));
#define OP16 OP OP OP OP OP OP OP OP OP OP OP OP OP OP OP OP
#define OP128 OP16 OP16 OP16 OP16 OP16 OP16 OP16 OP16

/* 8 independent chains, 16 IMADs each, interleaved: 128 instructions a lone warp
 * issues about one a clock (2 KiB), so its fetch must keep up with issue */
#define IOP(v) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(v) : "r"(a), "r"(b));
#define IOP8 IOP(x0) IOP(x1) IOP(x2) IOP(x3) IOP(x4) IOP(x5) IOP(x6) IOP(x7)
#define IOP128 IOP8 IOP8 IOP8 IOP8 IOP8 IOP8 IOP8 IOP8 IOP8 IOP8 IOP8 IOP8 IOP8 IOP8 IOP8 IOP8

template <int K>
__global__ void k_seqi(unsigned a, unsigned b, unsigned *sink)
{
    unsigned x0 = threadIdx.x, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5,
             x6 = x0 + 6, x7 = x0 + 7;
#pragma unroll
    for (int i = 0; i < K; i++) {
        IOP128
    }
    unsigned x = x0 ^ x1 ^ x2 ^ x3 ^ x4 ^ x5 ^ x6 ^ x7;
    if (x == 0x9e3779b9u)
        sink[0] = x;
}

template <int K>
__global__ void k_seq(unsigned a, unsigned b, unsigned *sink)
{
    unsigned x = threadIdx.x;
#pragma unroll
    for (int i = 0; i < K; i++) {
        OP128
    }
    if (x == 0x9e3779b9u)
        sink[0] = x;
}

#define BLOCK(n) \
    __device__ __noinline__ unsigned f##n(unsigned x, unsigned a, unsigned b) { OP128 return x + n; }
BLOCK(0) BLOCK(1) BLOCK(2) BLOCK(3) BLOCK(4) BLOCK(5) BLOCK(6) BLOCK(7)
BLOCK(8) BLOCK(9) BLOCK(10) BLOCK(11) BLOCK(12) BLOCK(13) BLOCK(14) BLOCK(15)

__global__ void k_calls(int k, int warm, unsigned a, unsigned b, unsigned *sink)
{
    unsigned x = threadIdx.x;
    for (int i = 0; i < k; i++) {
        switch (warm ? 0 : i) {
        case 0: x = f0(x, a, b); break;
        case 1: x = f1(x, a, b); break;
        case 2: x = f2(x, a, b); break;
        case 3: x = f3(x, a, b); break;
        case 4: x = f4(x, a, b); break;
        case 5: x = f5(x, a, b); break;
        case 6: x = f6(x, a, b); break;
        case 7: x = f7(x, a, b); break;
        case 8: x = f8(x, a, b); break;
        case 9: x = f9(x, a, b); break;
        case 10: x = f10(x, a, b); break;
        case 11: x = f11(x, a, b); break;
        case 12: x = f12(x, a, b); break;
        case 13: x = f13(x, a, b); break;
        case 14: x = f14(x, a, b); break;
        default: x = f15(x, a, b); break;
        }
    }
    if (x == 0x9e3779b9u)
        sink[0] = x;
}

static void launch(int kind, int k, int grid, cudaStream_t s, unsigned *sink)
{
    if (kind == 3) {
        switch (k) {
        case 1: k_seqi<1><<<grid, 32, 0, s>>>(3u, 7u, sink); break;
        case 2: k_seqi<2><<<grid, 32, 0, s>>>(3u, 7u, sink); break;
        case 4: k_seqi<4><<<grid, 32, 0, s>>>(3u, 7u, sink); break;
        case 8: k_seqi<8><<<grid, 32, 0, s>>>(3u, 7u, sink); break;
        default: k_seqi<16><<<grid, 32, 0, s>>>(3u, 7u, sink); break;
        }
        return;
    }
    if (kind > 0) {
        k_calls<<<grid, 32, 0, s>>>(k, kind == 2, 3u, 7u, sink);
        return;
    }
    switch (k) {
    case 1: k_seq<1><<<grid, 32, 0, s>>>(3u, 7u, sink); break;
    case 2: k_seq<2><<<grid, 32, 0, s>>>(3u, 7u, sink); break;
    case 4: k_seq<4><<<grid, 32, 0, s>>>(3u, 7u, sink); break;
    case 8: k_seq<8><<<grid, 32, 0, s>>>(3u, 7u, sink); break;
    default: k_seq<16><<<grid, 32, 0, s>>>(3u, 7u, sink); break;
    }
}

int main()
{
    int sms = 0, khz = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    unsigned *sink;
    CK(cudaMalloc(&sink, 64));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const char *names[4] = {"seq", "calls", "warm", "seqi"};
    const int ks[5] = {1, 2, 4, 8, 16}, batch = 200;
    printf("kind,k,us_per_kernel\n");
    double us[4][5];
    for (int kind = 0; kind < 4; kind++)
        for (int j = 0; j < 5; j++) {
            cudaGraph_t g;
            cudaGraphExec_t ge;
            CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
            for (int i = 0; i < batch; i++)
                launch(kind, ks[j], sms, s, sink);
            CK(cudaStreamEndCapture(s, &g));
            CK(cudaGraphInstantiate(&ge, g, 0));
            CK(cudaGraphLaunch(ge, s));
            CK(cudaStreamSynchronize(s));
            std::vector<double> t;
            for (int r = 0; r < 15; r++) {
                CK(cudaEventRecord(e0, s));
                CK(cudaGraphLaunch(ge, s));
                CK(cudaEventRecord(e1, s));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                t.push_back(ms * 1e3 / batch);
            }
            std::sort(t.begin(), t.end());
            us[kind][j] = t[t.size() / 2];
            printf("%s,%d,%.4f\n", names[kind], ks[j], us[kind][j]);
            CK(cudaGraphExecDestroy(ge));
            CK(cudaGraphDestroy(g));
        }
    /* slopes over K = 1..16 per 2 KiB block, in cycles at the reported clock */
    for (int kind = 0; kind < 4; kind++) {
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (int j = 0; j < 5; j++) {
            sx += ks[j];
            sy += us[kind][j];
            sxx += ks[j] * ks[j];
            sxy += ks[j] * us[kind][j];
        }
        double slope = (5 * sxy - sx * sy) / (5 * sxx - sx * sx);
        printf("# %s: %.2f cycles per 2 KiB block (at %d MHz)\n", names[kind],
               slope * khz / 1e3, khz / 1000);
    }
    return 0;
}
