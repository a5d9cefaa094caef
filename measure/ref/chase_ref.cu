/* chase_ref.cu - an independent per-access pointer chase for the L2's near
 * and far hits and misses (no gpucal code). One thread of one block, pinned
 * to a chosen SM (the grid has one block per SM; only the block on that SM
 * runs), follows a chain of 8-byte pointers placed at 32-byte granularity
 * (one sector per node) in a random order, loading with ld.global.cg (L1
 * bypassed); each access is timed with clock64 around the load and a shared
 * store of its result (so the clock read waits for the data). Two
 * footprints: `hit` (8 MiB, well inside the L2, walked once untimed first)
 * and `miss` (a random walk over 512 MiB, far larger than the L2, each node
 * touched once). Prints, per (SM, footprint), a histogram in 20-cycle bins
 * (bins holding >= 0.5 % of the accesses) and the 10/50/90th percentiles.
 * Usage: chase_ref [miss MiB, default 512]. Build: nvcc -O3 -arch=sm_90a */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "chase_ref: %s: %s\n", #x, cudaGetErrorString(e_));                \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

enum { NS = 4096, STEP = 32 };

static __device__ __forceinline__ unsigned smid(void)
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

/* The block on SM `sm` walks `warm` accesses untimed, then NS timed ones
 * from p0, writing each access's cycles to lat[] (0 if SM `sm` ran no block). */
__global__ void k_chase(const uint64_t *p0, int warm, unsigned sm, unsigned *lat, unsigned *ran)
{
    __shared__ uint64_t sidx[NS];
    __shared__ unsigned st[NS];
    if (smid() != sm || threadIdx.x != 0)
        return;
    const uint64_t *p = p0;
    for (int i = 0; i < warm; i++)
        asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(p) : "l"(p));
    p = p0;
    for (int i = 0; i < NS; i++) {
        long long t0 = clock64();
        uint64_t nx;
        asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(nx) : "l"(p));
        asm volatile("st.shared.u64 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&sidx[i])),
                     "l"(nx) : "memory");
        long long t1 = clock64();
        st[i] = (unsigned)(t1 - t0);
        p = (const uint64_t *)nx;
    }
    for (int i = 0; i < NS; i++)
        lat[i] = st[i];
    *ran = 1;
}

/* Links `n` nodes (node k at byte k * STEP of `base`) into one random cycle
 * over the node indices idx[0..n) (host image h, device address base). */
static void link_nodes(uint64_t *h, uint64_t base, const size_t *idx, size_t n)
{
    for (size_t k = 0; k < n; k++)
        h[idx[k] * STEP / 8] = base + idx[(k + 1) % n] * STEP;
}

static int cmpu(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* Prints the histogram and percentiles of NS latencies. */
static void report(const char *what, unsigned sm, unsigned *lat)
{
    qsort(lat, NS, sizeof(unsigned), cmpu);
    printf("%s sm %u: p10 %u p50 %u p90 %u p99 %u cycles; bins (20 cyc, >= 0.5 %%):", what, sm,
           lat[NS / 10], lat[NS / 2], lat[NS * 9 / 10], lat[NS * 99 / 100]);
    for (int i = 0; i < NS;) {
        unsigned b = lat[i] / 20 * 20;
        int j = i;
        while (j < NS && lat[j] / 20 * 20 == b)
            j++;
        if ((j - i) * 200 >= NS)
            printf(" %u:%d", b, j - i);
        i = j;
    }
    printf("\n");
}

/* Shuffles the first `n` of `m` node indices into idx (partial Fisher-Yates). */
static void pick(size_t *all, size_t m, size_t n, unsigned *seed)
{
    for (size_t i = 0; i < m; i++)
        all[i] = i;
    for (size_t i = 0; i < n; i++) {
        *seed = *seed * 1664525u + 1013904223u;
        size_t r = ((size_t)*seed << 16 ^ (size_t)(*seed >> 8)) % (m - i);
        size_t t = all[i];
        all[i] = all[i + r];
        all[i + r] = t;
    }
}

int main(int argc, char **argv)
{
    size_t miss_mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 512;
    cudaDeviceProp pr;
    CK(cudaGetDeviceProperties(&pr, 0));
    size_t bytes = miss_mib << 20, nodes = bytes / STEP;
    uint64_t *h = (uint64_t *)calloc(bytes, 1);
    size_t *idx = (size_t *)malloc(nodes * sizeof(size_t));
    char *d;
    unsigned *lat, *ran, hl[NS];
    CK(cudaMalloc(&d, bytes));
    CK(cudaMalloc(&lat, NS * sizeof(unsigned)));
    CK(cudaMalloc(&ran, sizeof(unsigned)));
    printf("device %s, %d SMs, L2 %d MiB; hit footprint 8 MiB, miss footprint %zu MiB, %d-byte "
           "nodes, %d timed accesses each\n",
           pr.name, pr.multiProcessorCount, pr.l2CacheSize >> 20, miss_mib, STEP, NS);
    unsigned seed = 12345;
    int nsm = pr.multiProcessorCount;
    unsigned sms[] = {0, (unsigned)(nsm / 4), (unsigned)(nsm / 2), (unsigned)(3 * nsm / 4)};
    for (int f = 0; f < 2; f++) {
        size_t m = f == 0 ? (8u << 20) / STEP : nodes, n = f == 0 ? m : (size_t)NS + 1;
        memset(h, 0, f == 0 ? (8u << 20) : bytes);
        pick(idx, m, n, &seed);
        link_nodes(h, (uint64_t)d, idx, n);
        CK(cudaMemcpy(d, h, f == 0 ? (8u << 20) : bytes, cudaMemcpyHostToDevice));
        const uint64_t *p0 = (const uint64_t *)(d + idx[0] * STEP);
        for (int s = 0; s < 4; s++) {
            CK(cudaMemset(ran, 0, sizeof(unsigned)));
            /* miss: flush the L2 by the memcpy above on the first SM; later SMs
             * see a different random order of fresh nodes: re-link */
            if (f == 1 && s > 0) {
                pick(idx, m, n, &seed);
                link_nodes(h, (uint64_t)d, idx, n);
                CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
                p0 = (const uint64_t *)(d + idx[0] * STEP);
            }
            k_chase<<<nsm, 32>>>(p0, f == 0 ? (int)m : 0, sms[s], lat, ran);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            unsigned r = 0;
            CK(cudaMemcpy(&r, ran, sizeof(r), cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(hl, lat, sizeof(hl), cudaMemcpyDeviceToHost));
            if (r)
                report(f == 0 ? "hit " : "miss", sms[s], hl);
            else
                printf("sm %u ran no block\n", sms[s]);
        }
    }
    return 0;
}
