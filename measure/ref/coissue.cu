/* coissue.cu - do a sub-core's tensor (mma.sync), MUFU (ex2) and FFMA
 * instructions overlap? One block per SM of W warps (warp w on sub-core
 * w % 4); each warp loops ITERS times over a body of NT independent
 * mma.sync.m16n8k16 f16->f32, NM independent ex2.approx.f32 and NF
 * independent FFMA (each its own dependency chain, ILP enough to be
 * throughput-bound). Modes: tensor only, MUFU only, FFMA only, all in the
 * same warp, and split (half the warps tensor only, half MUFU only, each
 * with twice its share, so the work per sub-core is the same). Prints the
 * block's cycles per iteration (median of 7 launches, SM 0's block):
 * if the mixed modes take the sum of the single ones, the pipes do not
 * overlap; if they take the max, they do. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define ITERS 2048

template <int NT, int NM, int NF, int SPLIT>
__global__ void k_mix(float *sink, long long *cyc, float seed)
{
    unsigned a[4] = {0x3c003c00u ^ threadIdx.x, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u},
             b[2] = {0x3c003c00u, 0x3c003c00u};
    float c[NT > 0 ? NT : 1][4];
    float m[NM > 0 ? NM : 1], f[NF > 0 ? NF : 1];
    for (int i = 0; i < (NT > 0 ? NT : 1); i++)
        c[i][0] = c[i][1] = c[i][2] = c[i][3] = seed * i;
    for (int i = 0; i < (NM > 0 ? NM : 1); i++)
        m[i] = seed + i * 1e-3f;
    for (int i = 0; i < (NF > 0 ? NF : 1); i++)
        f[i] = seed + i;
    int w = threadIdx.x / 32;
    int doT = !SPLIT || (w / 4) % 2 == 0, doM = !SPLIT || (w / 4) % 2 == 1;
    __syncthreads();
    long long t0 = clock64();
    for (int it = 0; it < ITERS; it++) {
        if (doT)
#pragma unroll
            for (int i = 0; i < NT * (SPLIT ? 2 : 1); i++) {
                float *cc = c[i % (NT > 0 ? NT : 1)];
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                             "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                             : "+f"(cc[0]), "+f"(cc[1]), "+f"(cc[2]), "+f"(cc[3])
                             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
            }
        if (doM)
#pragma unroll
            for (int i = 0; i < NM * (SPLIT ? 2 : 1); i++) {
                float *mm = &m[i % (NM > 0 ? NM : 1)];
                asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(*mm));
            }
#pragma unroll
        for (int i = 0; i < NF; i++)
            asm volatile("fma.rn.f32 %0, %0, 0f3F7FBE77, 0f3A83126F;" : "+f"(f[i]));
    }
    __syncthreads();
    long long t1 = clock64();
    float s = 0;
    for (int i = 0; i < (NT > 0 ? NT : 1); i++)
        s += c[i][0] + c[i][3];
    for (int i = 0; i < (NM > 0 ? NM : 1); i++)
        s += m[i];
    for (int i = 0; i < (NF > 0 ? NF : 1); i++)
        s += f[i];
    if (s == 1234.5f)
        sink[threadIdx.x] = s;
    if (threadIdx.x == 0)
        cyc[blockIdx.x] = t1 - t0;
}

static int cmpd(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

typedef void (*kfn)(float *, long long *, float);

static double run(kfn k, int warps, int sms, float *sink, long long *cyc)
{
    double t[7];
    long long h;
    for (int r = 0; r < 7; r++) {
        k<<<sms, warps * 32>>>(sink, cyc, 0.5f);
        cudaMemcpy(&h, cyc, sizeof(h), cudaMemcpyDeviceToHost);
        t[r] = (double)h / ITERS;
    }
    qsort(t, 7, sizeof(double), cmpd);
    return t[3];
}

int main(void)
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    int sms = p.multiProcessorCount;
    float *sink;
    long long *cyc;
    cudaMalloc(&sink, 4096 * sizeof(float));
    cudaMalloc(&cyc, sms * sizeof(long long));
    printf("device %s; cycles per iteration of SM 0's block (median of 7)\n", p.name);
    const int W[] = {4, 8, 16};
    for (int wi = 0; wi < 3; wi++) {
        int w = W[wi];
        double T = run(k_mix<4, 0, 0, 0>, w, sms, sink, cyc);
        double M = run(k_mix<0, 8, 0, 0>, w, sms, sink, cyc);
        double F = run(k_mix<0, 0, 16, 0>, w, sms, sink, cyc);
        double TM = run(k_mix<4, 8, 0, 0>, w, sms, sink, cyc);
        double TF = run(k_mix<4, 0, 16, 0>, w, sms, sink, cyc);
        double MF = run(k_mix<0, 8, 16, 0>, w, sms, sink, cyc);
        double TMF = run(k_mix<4, 8, 16, 0>, w, sms, sink, cyc);
        printf("COISSUE warps %2d: T(4 mma) %.1f  M(8 ex2) %.1f  F(16 ffma) %.1f | TM %.1f (sum %.1f max %.1f)  "
               "TF %.1f (sum %.1f)  MF %.1f (sum %.1f)  TMF %.1f (sum %.1f)\n",
               w, T, M, F, TM, T + M, T > M ? T : M, TF, T + F, MF, M + F, TMF, T + M + F);
        if (w >= 8) {
            double S = run(k_mix<4, 8, 0, 1>, w, sms, sink, cyc);
            printf("COISSUE warps %2d: split (half the warps 8 mma, half 16 ex2) %.1f  vs same-warp TM %.1f\n", w, S, TM);
        }
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("error %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
