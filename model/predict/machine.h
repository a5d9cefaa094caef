/* machine.h - an arch resolved once into the machine the predictor reads.
 *
 * gc_machine_create runs every rule of derive.h over an arch: the SM and
 * memory figures, every tensor form's pipe and every CUDA-core op's pipe,
 * with each derived or fallback value filled and recorded. A prediction
 * then only reads the machine: a tensor op finds its form, and a CUDA-core
 * op its entry or default, through a hash index, never by scanning the
 * arch's lists.
 *
 * gc_machine_attach resolves an arch at load and hangs the machine on it
 * (gc_arch_t.view, freed with the arch), so every gc_predict on that arch
 * reads the same machine; an arch without one (built in code, e.g. by a
 * test) is resolved afresh for each prediction.
 *
 * Ownership: a machine points into its arch (forms, names); it must not
 * outlive it. gc_machine_destroy(NULL) is a no-op.
 */
#ifndef GC_MACHINE_H
#define GC_MACHINE_H

#include "../../util/err.h"
#include "../../arch/arch.h"
#include "derive.h"
#include "kernel.h"

/* Resolve a into a new machine. Errors (GC_EINPUT, "FILE:0:0: ..."): no
 * sm.count, no DRAM bandwidth of any kind; GC_ENOMEM. */
int gc_machine_create(gc_machine_t **m, const gc_arch_t *a, gc_err_t *err);
void gc_machine_destroy(gc_machine_t *m);

/* Resolve a and attach the machine to it (replacing one attached before). */
int gc_machine_attach(gc_arch_t *a, gc_err_t *err);

/* The machine attached to a, or NULL. */
const gc_machine_t *gc_machine_of(const gc_arch_t *a);

/* A tensor op resolved against a machine: the pipe to evaluate and how one
 * instruction of the description maps onto it. */
typedef struct gc_tensor_plan {
    gc_pipe_t pipe;        /* latency, issue interval, overhead, slots */
    double fma;            /* multiply-adds per description instruction (m*n*k) */
    double insts;          /* arch instructions per description instruction (wmma: 2) */
    int warpgroup;         /* 1: slots count warpgroups (wgmma) */
    const gc_mform_t *form; /* the arch entry used */
} gc_tensor_plan_t;

/* Resolve a tensor op (mma / wgmma / wmma) against m. Lookup order: the
 * exact form (wgmma: operands ss when the op names none); bf16 -> the f16
 * form; wmma mMnNkK -> mma m16n8kK (N/8 instructions). The form's derived
 * figures are added to dl (may be NULL). Unknown form: GC_EINPUT
 * "FILE:LINE:COL: the arch NAME has no tensor form ..." at the op's place
 * in file. */
int gc_machine_tensor(const gc_machine_t *m, const gc_kop_t *op, const char *file,
                      gc_tensor_plan_t *out, gc_derived_list_t *dl, gc_err_t *err);

/* Resolve a CUDA-core op (alu name): the arch's alu entry, or the default
 * for its pipe. Unknown name: GC_EINPUT at the op's place. *cls gets its
 * execution pipe (gc_derive_alu_pipe). */
int gc_machine_alu(const gc_machine_t *m, const gc_kop_t *op, const char *file, gc_pipe_t *out,
                   int *cls, gc_derived_list_t *dl, gc_err_t *err);

/* The N of a wgmma form m has for A/B type at (also "f16" when or_f16),
 * accumulator ct and K = ik closest to want: want itself, else the largest
 * N below it, else the smallest above it; 0 when m has none of those types.
 * The arch's forms are grouped by type pair once, at create: gemm asks
 * this for every candidate tile. */
/* One candidate N of a wgmma form against the N wanted: 1 when it is want;
 * else keeps in *below the largest N under want and in *above the smallest
 * over it (0: none yet). The choice is then *below, else *above. */
static inline int gc_nearest_n(int n, int want, int *below, int *above)
{
    if (n == want)
        return 1;
    if (n < want && n > *below)
        *below = n;
    if (n > want && (!*above || n < *above))
        *above = n;
    return 0;
}

int gc_machine_wgmma_n(const gc_machine_t *m, const char *at, const char *ct, int or_f16,
                       int ik, int want);

#endif
