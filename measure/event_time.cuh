/* event_time.cuh - timing launches the way a user times them: CUDA events
 * around one call that launches `batch` kernels (back to back, or as one
 * CUDA graph, captured here too), per kernel. What the launch and cold benches share; the
 * function lives in harness.cu. CUDA runtime and libc only. */
#ifndef GC_EVENT_TIME_CUH
#define GC_EVENT_TIME_CUH

#include <cuda_runtime.h>

#include "measure.h"

/* Launches what one timing covers on stream s. */
typedef void (*gc_launch_fn)(void *cookie, cudaStream_t s);

/* A CUDA graph of `batch` calls of launch(cookie, s), captured on a stream
 * of its own, instantiated into *ge. Returns 0, or the CUDA error (with err
 * set; *ge then untouched). */
int gc_capture_graph(gc_launch_fn launch, void *cookie, int batch, cudaGraphExec_t *ge,
                     gc_err_t *err);

/* Median and 95 % interval (us per kernel) of n timings: an event on s,
 * launch(cookie, s), an event on s, the time between them over batch.
 * Returns 0, or the CUDA error (with err set). */
int gc_event_time(cudaStream_t s, gc_launch_fn launch, void *cookie, int batch, int n, double *med,
                  double *lo, double *hi, gc_err_t *err);

#endif
