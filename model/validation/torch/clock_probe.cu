// clock_probe.cu - reads the SM clock while other work runs: one warp on a
// stream of its own samples (%globaltimer, %clock64) every ~4000 cycles
// into device memory until the host raises a flag (host-mapped memory).
// clock_rows.py loads it with ctypes next to PyTorch, so the operator rows
// run as bench.py runs them while the probe records the clock they run at.
// Build: nvcc -O2 -shared -Xcompiler -fPIC -o libclock_probe.so clock_probe.cu
// CUDA runtime only. Never changes clocks.
#include <cuda_runtime.h>

static unsigned long long *d_t, *d_c;
static int *d_n;
static volatile int *h_stop;
static int *d_stop;
static cudaStream_t st;
static int cap;

__device__ static unsigned long long gtimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void probe(const volatile int *stop, unsigned long long *t, unsigned long long *c,
                      int *n, int max)
{
    if (threadIdx.x)
        return;
    int i = 0;
    for (; i < max; i++) {
        t[i] = gtimer();
        unsigned long long c0 = clock64();
        c[i] = c0;
        while (clock64() - c0 < 4000)
            ;
        if (*stop)
            break;
    }
    *n = i < max ? i + 1 : max;
}

extern "C" int probe_start(int max_samples)
{
    cap = max_samples;
    if (cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) ||
        cudaMalloc(&d_t, sizeof(*d_t) * cap) || cudaMalloc(&d_c, sizeof(*d_c) * cap) ||
        cudaMalloc(&d_n, sizeof(*d_n)) ||
        cudaHostAlloc((void **)&h_stop, sizeof(int), cudaHostAllocMapped) ||
        cudaHostGetDevicePointer((void **)&d_stop, (void *)h_stop, 0))
        return -1;
    *h_stop = 0;
    probe<<<1, 32, 0, st>>>(d_stop, d_t, d_c, d_n, cap);
    return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

// Raise the flag, wait for the probe, copy its samples (at most max) to t
// and c; returns how many, or -1.
extern "C" int probe_stop(unsigned long long *t, unsigned long long *c, int max)
{
    int n = 0;
    *h_stop = 1;
    if (cudaStreamSynchronize(st) || cudaMemcpy(&n, d_n, sizeof(n), cudaMemcpyDeviceToHost))
        return -1;
    if (n > max)
        n = max;
    if (cudaMemcpy(t, d_t, sizeof(*t) * n, cudaMemcpyDeviceToHost) ||
        cudaMemcpy(c, d_c, sizeof(*c) * n, cudaMemcpyDeviceToHost))
        return -1;
    cudaFree(d_t);
    cudaFree(d_c);
    cudaFree(d_n);
    cudaFreeHost((void *)h_stop);
    cudaStreamDestroy(st);
    return n;
}
