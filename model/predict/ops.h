/* ops.h - operator templates: `gpucal describe OP ARGS` and `gpucal predict
 * OP ARGS --arch NAME` for the operators people write (attention, softmax,
 * layernorm, rowsum, elementwise, transpose, conv2d).
 *
 * Each template is a generator of ordinary kernel descriptions (model/kernel.h):
 * the kernels the library (PyTorch's own CUDA kernels, FlashAttention-2 as
 * vendored in PyTorch, cuDNN's implicit GEMM) launches for the call on the
 * arch, with the launch configuration the library's source computes and the
 * per-warp work of its loops. model/kernels/README.md documents what each
 * template assumes, with the source file of every rule. The descriptions
 * are predicted like any other (model/predict.h), or written out as YAML.
 *
 * Errors: GC_EUSAGE, one line naming the argument (missing option, size
 * <= 0, unknown dtype or op, head dim the library has no kernel for).
 */
#ifndef GC_OPS_H
#define GC_OPS_H

#include "../../util/err.h"
#include "../../arch/arch.h"
#include "kernel.h"
#include "predict.h"

#define GC_OPS_KERNELS_MAX 6

/* The arguments of one operator call as given on the command line; sizes
 * not given are 0. */
typedef struct gc_ops_args {
    const char *op;              /* attention | softmax | layernorm | rowsum | elementwise |
                                  * transpose | conv2d */
    const char *dtype;           /* f16 | bf16 | f32 */
    const char *eop;             /* elementwise --op: gelu | relu | add | mul | exp */
    long batch, heads, seq, head_dim; /* attention */
    int causal;                  /* attention --causal */
    long rows, cols;             /* softmax, layernorm, rowsum, transpose */
    long n;                      /* elementwise: elements; conv2d: images */
    long c, h, w, k, r, s, stride, pad; /* conv2d (NHWC input, KRSC filter) */
    const char *l2;              /* cold (NULL: the default) | warm: the data in the L2 at
                                  * launch, where it fits (every kernel's footprint.l2_warm) */
} gc_ops_args_t;

/* The kernels one call launches, in launch order, each with its role. */
typedef struct gc_ops_plan {
    int n;
    gc_kernel_t *k[GC_OPS_KERNELS_MAX];
    char role[GC_OPS_KERNELS_MAX][64];
} gc_ops_plan_t;

/* 1 when name is an operator template. */
int gc_ops_known(const char *name);

/* Check the arguments and build the kernels for a. Caller frees with
 * gc_ops_plan_free (also after an error). */
int gc_ops_plan(const gc_arch_t *a, const gc_ops_args_t *args, gc_ops_plan_t *plan,
                gc_err_t *err);
void gc_ops_plan_free(gc_ops_plan_t *plan);

/* Cycles at kernel k's two ends that the predictor's rounds do not hold:
 * its last stores must reach the L2 before it ends (memory.l2.latency_cyc,
 * when it writes) and, when k has pipeline stages, its first loads come
 * from DRAM (memory.dram.latency_cyc, when it reads; without stages the
 * predictor starts the first round cold and holds it). The gemm template
 * adds the same (model/predict/gemm_select.c, ends_cyc). 0 for what the
 * arch lacks. With
 * p, k's prediction on a (NULL: none), also what lockstep adds when the
 * whole grid is resident at once and k has no pipeline stages: its DRAM
 * reads, its busiest compute resource and its DRAM writes in sequence,
 * beyond the predicted time (ops.c, lockstep_cyc). A warp-specialised
 * kernel's set-up and epilogue chain is its launch.serial_inst instructions
 * (else the gemm template's count); any other kernel adds its serial_inst
 * (0 when not described) at the arch's integer latency. */
double gc_ops_ends_cyc(const gc_arch_t *a, const gc_kernel_t *k, const gc_prediction_t *p);

/* The usage lines of the operators (for --help). */
const char *gc_ops_usage(void);

#endif
