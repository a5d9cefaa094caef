// wide_chase.cu - how long one warp waits for a load that spans several cache lines,
// timed inside the kernel (clock64), so no launch or event noise: the per-step latency
// of a dependent chain whose every step is one warp-wide load, as PyTorch's
// reduce_kernel runs its vector loop (each lane 16 bytes, one load in flight, the next
// trip after the sums: data/h200/sass/o063, o066).
//
// A step: lanes 0..L-1 each load 16 bytes at block + 16 x lane (U such loads, 512 B
// apart, all in flight: U x L x 16 bytes, U x ceil(L x 16 / 128) lines); every 16-byte
// slot of a block holds the next block's index, and the warp takes the max of its
// lanes' values (redux.sync), so the next step waits for every line of this one.
// Blocks are 1 KiB; the chain visits them in a random cycle over the region (rand) or
// walks the warp's own stretch of consecutive blocks (seq, as a warp walks its row).
// Each configuration starts 80 blocks past the last one's start, so that it does not
// find the lines the configurations before it read in the L2 (the first version of
// this probe did: its 16-byte one-lane rows read the sector the 4-byte rows had
// brought in and timed L2 hits).
// A 1-lane step of 4 bytes (L = 0 in the output) is the classic P-chase.
//
// Prints CSV: region_bytes,pattern,lanes,loads,lines,blocks,warps_block,steps,cyc_step_med,
// cyc_step_p10,cyc_step_p90 (over the warps, each warp's mean of its timed steps, warm
// steps excluded), and the warp's redux/loop cost is in every row alike (lanes = 0 has
// no redux: compare lanes 1 with 8 and 32 for the line effect).
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o wide_chase wide_chase.cu
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#include "probe.cuh"

static const size_t BLK = 1024; /* bytes a chain block: 64 slots of 16 B */

template <int U>
__global__ void k_wide(const uint4 *a, const uint32_t *starts, int lanes, int warm, int steps,
                       double *out)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    uint32_t b = starts[warp];
    long long t0 = 0;
    for (int s = 0; s < warm + steps; s++) {
        if (s == warm)
            t0 = clock64();
        uint32_t v = 0;
        if (lanes == 0) {
            if (lane == 0)
                v = __ldcg((const uint32_t *)(a + b * (BLK / 16)));
            v = __shfl_sync(0xffffffffu, v, 0);
        } else {
            uint4 x[U];
#pragma unroll
            for (int u = 0; u < U; u++)
                x[u] = lane < lanes ? __ldcg(a + b * (BLK / 16) + u * 32 + lane)
                                    : make_uint4(0, 0, 0, 0);
#pragma unroll
            for (int u = 0; u < U; u++)
                v = max(v, x[u].x);
            v = __reduce_max_sync(0xffffffffu, v);
        }
        b = v;
    }
    long long t1 = clock64();
    if (lane == 0)
        out[warp] = (double)(t1 - t0) / steps + (b == 0xffffffffu ? 1 : 0);
}

int main(int argc, char **argv)
{
    size_t region = argc > 1 ? strtoull(argv[1], 0, 10) : (size_t)2 << 30;
    size_t nblk = region / BLK;
    uint4 *a;
    uint32_t *dstart;
    double *dout;
    CK(cudaMalloc(&a, region));
    const int maxw = 132 * 64;
    CK(cudaMalloc(&dstart, maxw * sizeof(uint32_t)));
    CK(cudaMalloc(&dout, maxw * sizeof(double)));
    std::vector<uint32_t> next(nblk), order(nblk);
    std::vector<uint4> host(region / 16);
    printf("region_bytes,pattern,lanes,loads,lines,blocks,warps_block,steps,cyc_step_med,"
           "cyc_step_p10,cyc_step_p90\n");
    for (int pat = 0; pat < 2; pat++) {
        /* the cycle: random order (pat 1) or consecutive blocks (pat 0) */
        for (size_t i = 0; i < nblk; i++)
            order[i] = (uint32_t)i;
        if (pat == 1) {
            srand(12345);
            for (size_t i = nblk - 1; i > 0; i--) {
                size_t j = ((size_t)rand() * (RAND_MAX + 1ull) + rand()) % (i + 1);
                std::swap(order[i], order[j]);
            }
        }
        for (size_t i = 0; i < nblk; i++)
            next[order[i]] = order[(i + 1) % nblk];
        for (size_t i = 0; i < nblk; i++)
            for (size_t s = 0; s < BLK / 16; s++)
                host[i * (BLK / 16) + s] = make_uint4(next[i], 0, 0, 0);
        CK(cudaMemcpy(a, host.data(), region, cudaMemcpyHostToDevice));
        struct { int blocks, wpb; } loads[] = {{1, 1}, {32, 16}, {125, 16}, {132, 32}, {264, 32}};
        struct { int lanes, u; } shapes[] = {{0, 1}, {1, 1}, {8, 1}, {32, 1}, {32, 2}};
        int run = 0;
        for (auto &ld : loads)
            for (auto &sh : shapes) {
                int nw = ld.blocks * ld.wpb, warm = 8, steps = 64;
                std::vector<uint32_t> st(nw);
                /* warps spread over the cycle; each run starts 80 blocks further on,
                 * past what the runs before it read (else their lines are L2 hits) */
                for (int w = 0; w < nw; w++)
                    st[w] = order[((size_t)w * (nblk / nw) + (size_t)run * 80) % nblk];
                run++;
                CK(cudaMemcpy(dstart, st.data(), nw * sizeof(uint32_t), cudaMemcpyHostToDevice));
                /* a region the L2 holds is walked once first, so the timed walk hits */
                for (int pass = region < ((size_t)64 << 20) ? 0 : 1; pass < 2; pass++)
                    if (sh.u == 1)
                        k_wide<1><<<ld.blocks, ld.wpb * 32>>>(a, dstart, sh.lanes, warm, steps,
                                                              dout);
                    else
                        k_wide<2><<<ld.blocks, ld.wpb * 32>>>(a, dstart, sh.lanes, warm, steps,
                                                              dout);
                CK(cudaGetLastError());
                CK(cudaDeviceSynchronize());
                std::vector<double> o(nw);
                CK(cudaMemcpy(o.data(), dout, nw * sizeof(double), cudaMemcpyDeviceToHost));
                std::sort(o.begin(), o.end());
                int lines = sh.lanes == 0 ? 1 : sh.u * ((sh.lanes * 16 + 127) / 128);
                printf("%zu,%s,%d,%d,%d,%d,%d,%d,%.1f,%.1f,%.1f\n", region, pat ? "rand" : "seq",
                       sh.lanes, sh.u, lines, ld.blocks, ld.wpb, steps, o[nw / 2], o[nw / 10],
                       o[nw * 9 / 10]);
                fflush(stdout);
            }
    }
    return 0;
}
