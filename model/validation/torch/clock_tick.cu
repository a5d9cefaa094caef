// clock_tick.cu - the SM clock between two calls of a timed row, read on the
// row's own stream: one warp that records %globaltimer and %clock64, spins
// 4000 cycles (about 2 us) and records them again. Launched between the
// calls (clock_inrow.py, through ctypes), it runs in the gap the calls leave
// and reads the clock the GPU holds there under the row's load; a probe on a
// stream of its own could not (the rows' blocks leave it no room: see
// data/h200/power/README.md). The spin is cycles, so its span in
// %globaltimer nanoseconds gives the clock: MHz = cycles * 1e3 / ns.
// Build: nvcc -O2 -arch=sm_90 -shared -Xcompiler -fPIC -o libclock_tick.so clock_tick.cu
// CUDA runtime only. Never changes clocks.
#include <cuda_runtime.h>

__device__ static unsigned long long gtimer(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// out[0..3] = start ns, start cycles, end ns, end cycles (thread 0 of the warp)
__global__ void tick_kernel(unsigned long long *out)
{
    if (threadIdx.x)
        return;
    unsigned long long t0 = gtimer(), c0 = clock64(), c1;
    do
        c1 = clock64();
    while (c1 - c0 < 4000);
    unsigned long long t1 = gtimer();
    out[0] = t0;
    out[1] = c0;
    out[2] = t1;
    out[3] = c1;
}

// Launch one tick on `stream` (a cudaStream_t as an integer, PyTorch's
// torch.cuda.current_stream().cuda_stream) writing slot `slot` of `buf` (a
// device array of 4 x slots unsigned 64-bit words). Returns 0, or the CUDA
// error code.
extern "C" int tick(unsigned long long stream, unsigned long long *buf, int slot)
{
    tick_kernel<<<1, 32, 0, (cudaStream_t)stream>>>(buf + 4 * (size_t)slot);
    return (int)cudaGetLastError();
}
