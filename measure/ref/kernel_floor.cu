/* kernel_floor.cu - the GPU-side cost of a kernel that does nothing, three
 * ways, as a reference for the launch bench:
 *   graph:  a CUDA graph of N empty kernels (no host launch cost between
 *           them), timed with events: per-kernel GPU time, for a grid of
 *           B blocks of T threads (block dispatch shows as B grows);
 *   stream: N empty kernels launched back to back on a stream, events
 *           around all (host launch rate bound where it is slower);
 *   single: events around one launch (what the launch bench reports).
 * Usage: kernel_floor [N]. Prints one line per configuration. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void k_empty(int *sink, int never)
{
    if (never == 12345 && sink)
        sink[threadIdx.x] = blockIdx.x;
}

#define CK(x)                                                                          \
    do {                                                                               \
        cudaError_t e_ = (x);                                                          \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

static int cmpf(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* median over R repeats of (events around fn) in microseconds / per */
static float med_us(void (*fn)(void *), void *arg, int R, int per)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    float *t = (float *)malloc(sizeof(float) * R);
    for (int w = 0; w < 3; w++)
        fn(arg);
    CK(cudaDeviceSynchronize());
    for (int r = 0; r < R; r++) {
        CK(cudaEventRecord(a, 0));
        fn(arg);
        CK(cudaEventRecord(b, 0));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t[r] = ms * 1000.0f / per;
    }
    qsort(t, R, sizeof(float), cmpf);
    float m = t[R / 2];
    free(t);
    return m;
}

typedef struct cfg {
    int blocks, threads, n;
    cudaGraphExec_t ge;
} cfg_t;

static void run_graph(void *p)
{
    cfg_t *c = (cfg_t *)p;
    CK(cudaGraphLaunch(c->ge, 0));
}
static void run_stream(void *p)
{
    cfg_t *c = (cfg_t *)p;
    for (int i = 0; i < c->n; i++)
        k_empty<<<c->blocks, c->threads>>>(NULL, 0);
}
static void run_single(void *p)
{
    cfg_t *c = (cfg_t *)p;
    k_empty<<<c->blocks, c->threads>>>(NULL, 0);
}

int main(int argc, char **argv)
{
    int N = argc > 1 ? atoi(argv[1]) : 1000;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device %s, %d SMs; N = %d kernels per graph/stream batch; median of 21\n", p.name,
           p.multiProcessorCount, N);
    int sms = p.multiProcessorCount;
    int shapes[][2] = {{1, 32}, {1, 1024}, {sms, 128}, {sms, 1024}, {2 * sms, 1024}, {4 * sms, 256},
                       {8 * sms, 128}, {16 * sms, 128}, {64 * sms, 128}, {256 * sms, 128}};
    int ns = (int)(sizeof(shapes) / sizeof(shapes[0]));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (int i = 0; i < ns; i++) {
        cfg_t c = {shapes[i][0], shapes[i][1], N, NULL};
        cudaGraph_t g;
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        for (int k = 0; k < N; k++)
            k_empty<<<c.blocks, c.threads, 0, s>>>(NULL, 0);
        CK(cudaStreamEndCapture(s, &g));
        CK(cudaGraphInstantiate(&c.ge, g, 0));
        float ug = med_us(run_graph, &c, 21, N);
        float us = med_us(run_stream, &c, 21, N);
        float u1 = med_us(run_single, &c, 201, 1);
        printf("FLOOR blocks %6d threads %5d: graph %.3f us/kernel, stream %.3f us/kernel, single %.3f us\n",
               c.blocks, c.threads, ug, us, u1);
        CK(cudaGraphExecDestroy(c.ge));
        CK(cudaGraphDestroy(g));
    }
    return 0;
}
