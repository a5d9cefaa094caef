// tensor_burst.cu - how fast, and where, does the SM clock follow tensor work?
//
// The clock bench holds a tensor load for seconds and reads the clock it settles at
// (sm.tensor_clock: ~1800 MHz at 18-48 % tensor activity on the H200, 1500 at full
// load). The harness's rows are shorter (tens to hundreds of ms) and call a kernel
// every 16-40 us from Python with the GPU idle between calls; a probe on an SM without
// tensor work read 1980 MHz while cuBLAS GEMMs ran back to back on the others
// (torch/clock_burst.py). This probe reads the clock on the SMs doing the work: one
// block on every SM, 4 warps issuing mma.sync m16n8k16 f32 += f16 x f16 (8
// independent accumulators, random operands) in bursts of B cycles separated by I
// cycles without tensor work, and a fifth warp whose lane 0 records %globaltimer,
// %clock64 and whether a burst is on, every ~256 cycles, in blocks 0 and SMs/2.
// Schedules (each after 300 ms idle): continuous for 60 ms and for 1000 ms; bursts of
// ~5 us every ~18 us (the harness's small GEMMs) and of ~20 us every ~25 us, 60 ms each;
// then bf16 (m16n8k16) and tf32 (m16n8k8) continuous for 60 ms and tf32 in 5-us bursts.
// Prints, per schedule and recording block, the clock (MHz = cycles * 1e3 / ns over
// stretches of 1 us or more) in bursts and between them, over the first ms, 1-10 ms,
// 10-50 ms and the rest, as CSV:
//   schedule,block,part,window_ms_lo,window_ms_hi,stretches,mhz_median,mhz_p10,mhz_p90
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o tensor_burst tensor_burst.cu
// Never changes clocks.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <vector>
#include <cuda_runtime.h>
#include "probe.cuh"

enum { MAXS = 1 << 22 };

// dt 0: f16 (m16n8k16), 1: bf16 (m16n8k16), 2: tf32 (m16n8k8): the same registers
template <int DT>
__device__ __forceinline__ void mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
    if (DT == 0)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    else if (DT == 1)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    else
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
                     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

struct sample { unsigned long long t, c; unsigned on; unsigned pad; };

template <int DT>
__global__ void __launch_bounds__(160) burst(long long burst_cyc, long long idle_cyc,
                                             unsigned long long run_ns, int rec0, int rec1,
                                             sample *s0, sample *s1, int *n0, int *n1,
                                             float *sink)
{
    extern __shared__ unsigned char smem[]; // only to hold the SM alone
    __shared__ volatile unsigned on, done;
    int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (threadIdx.x == 0) { on = 0; done = 0; smem[0] = 0; }
    __syncthreads();
    if (w < 4) {
        uint32_t h = (blockIdx.x * 160u + threadIdx.x) * 2654435761u;
        uint32_t a[4], b0, b1;
        // random small finite operands: 16-bit pairs (f16: 0x30xx-0x3bxx; bf16 the same bits
        // read as two bf16 of magnitude 2^-31..2^-8), tf32 one f32 in [2^-31, 2^-8]
        const uint32_t msk = DT == 2 ? 0x3bffffffu : 0x3bff3bffu, set = DT == 2 ? 0x30000000u : 0x30003000u;
        for (int i = 0; i < 4; i++) { h = h * 1664525u + 1013904223u; a[i] = (h & msk) | set; }
        h = h * 1664525u + 1013904223u; b0 = (h & msk) | set;
        h = h * 1664525u + 1013904223u; b1 = (h & msk) | set;
        float c[8][4] = {};
        unsigned long long t0 = gtimer();
        while (gtimer() - t0 < run_ns) {
            if (w == 0 && lane == 0) on = 1;
            long long c0 = clock64();
            do {
#pragma unroll
                for (int j = 0; j < 8; j++) mma<DT>(c[j], a, b0, b1);
            } while (clock64() - c0 < burst_cyc);
            if (w == 0 && lane == 0 && idle_cyc > 0) on = 0;
            c0 = clock64();
            while (clock64() - c0 < idle_cyc)
                __nanosleep(200);
        }
        float acc = 0;
        for (int j = 0; j < 8; j++) acc += c[j][0] + c[j][1] + c[j][2] + c[j][3];
        if (acc == 12345.678f) sink[0] = acc;
        asm volatile("bar.sync 1, 128;"); // warps 0-3 only: the recorder keeps sampling
        if (threadIdx.x == 0) done = 1;
    } else if (lane == 0 && (blockIdx.x == rec0 || blockIdx.x == rec1)) {
        sample *s = blockIdx.x == rec0 ? s0 : s1;
        int n = 0;
        while (!done && n < MAXS) {
            s[n].t = gtimer();
            s[n].c = clock64();
            s[n].on = on;
            n++;
            long long c0 = clock64();
            while (clock64() - c0 < 256)
                ;
        }
        *(blockIdx.x == rec0 ? n0 : n1) = n;
    }
}

// The clock of each piece of >= 1 us of consecutive samples in one state (burst or
// between), by part of the run (its start's ms from the first sample).
static void summarize(const char *sched, int blk, const std::vector<sample> &v)
{
    size_t n = v.size();
    if (n < 2) return;
    std::vector<double> ms, mhz;
    std::vector<int> st;
    size_t k = 0;
    while (k + 1 < n) {
        size_t m = k;
        while (m + 1 < n && v[m + 1].on == v[k].on && v[m].t - v[k].t < 1000) m++;
        if (m > k && v[m].t - v[k].t >= 1000) {
            ms.push_back((v[k].t - v[0].t) / 1e6);
            mhz.push_back((v[m].c - v[k].c) * 1e3 / (double)(v[m].t - v[k].t));
            st.push_back((int)v[k].on);
        }
        k = m > k ? m : k + 1;
    }
    const double edges[] = {0, 1, 10, 50, 1e9};
    for (int on = 1; on >= 0; on--)
        for (int p = 0; p < 4; p++) {
            std::vector<double> x;
            for (size_t i = 0; i < ms.size(); i++)
                if (st[i] == on && ms[i] >= edges[p] && ms[i] < edges[p + 1]) x.push_back(mhz[i]);
            if (x.empty()) continue;
            std::sort(x.begin(), x.end());
            auto q = [&](double f) { return x[(size_t)(f * (x.size() - 1) + 0.5)]; };
            printf("%s,%d,%s,%g,%g,%zu,%.1f,%.1f,%.1f\n", sched, blk, on ? "burst" : "between",
                   edges[p], edges[p + 1] > 1e8 ? -1.0 : edges[p + 1], x.size(), q(.5), q(.1),
                   q(.9));
        }
}

int main()
{
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    sample *s0, *s1;
    int *n0, *n1;
    float *sink;
    CK(cudaMalloc(&s0, sizeof(sample) * MAXS));
    CK(cudaMalloc(&s1, sizeof(sample) * MAXS));
    CK(cudaMalloc(&n0, sizeof(int)));
    CK(cudaMalloc(&n1, sizeof(int)));
    CK(cudaMalloc(&sink, sizeof(float)));
    size_t shm = 150 * 1024;
    CK(cudaFuncSetAttribute(burst<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm));
    CK(cudaFuncSetAttribute(burst<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm));
    CK(cudaFuncSetAttribute(burst<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm));
    struct { const char *name; long long b, i; double ms; int dt; } sch[] = {
        {"continuous_60ms", 20000, 0, 60, 0},
        {"burst5us_every18us", 10000, 26000, 60, 0},
        {"burst20us_every25us", 40000, 10000, 60, 0},
        {"continuous_1000ms", 20000, 0, 1000, 0},
        {"bf16_continuous_60ms", 20000, 0, 60, 1},
        {"tf32_continuous_60ms", 20000, 0, 60, 2},
        {"tf32_burst5us_every18us", 10000, 26000, 60, 2},
    };
    printf("schedule,block,part,window_ms_lo,window_ms_hi,stretches,mhz_median,mhz_p10,mhz_p90\n");
    std::vector<sample> h0(MAXS), h1(MAXS);
    for (auto &S : sch) {
        usleep(300000);
        CK(cudaMemset(n0, 0, sizeof(int)));
        CK(cudaMemset(n1, 0, sizeof(int)));
        void (*k)(long long, long long, unsigned long long, int, int, sample *, sample *, int *,
                  int *, float *) = S.dt == 0 ? burst<0> : S.dt == 1 ? burst<1> : burst<2>;
        k<<<sms, 160, shm>>>(S.b, S.i, (unsigned long long)(S.ms * 1e6), 0, sms / 2, s0, s1, n0,
                             n1, sink);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        int a = 0, b = 0;
        CK(cudaMemcpy(&a, n0, sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&b, n1, sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h0.data(), s0, sizeof(sample) * a, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h1.data(), s1, sizeof(sample) * b, cudaMemcpyDeviceToHost));
        summarize(S.name, 0, std::vector<sample>(h0.begin(), h0.begin() + a));
        summarize(S.name, sms / 2, std::vector<sample>(h1.begin(), h1.begin() + b));
        fflush(stdout);
    }
    return 0;
}
