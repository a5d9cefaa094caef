/* ops_build.h - helpers the operator templates (ops_*.c) share to build
 * kernel descriptions in code. Internal to model/ops*.c. */
#ifndef GC_OPS_BUILD_H
#define GC_OPS_BUILD_H

#include "../../arch/arch.h"
#include "kernel.h"
#include "ops.h"

/* A description under construction: ok drops to 0 when memory runs out,
 * and every helper then does nothing (one check at the end). */
typedef struct kb {
    gc_kernel_t *k;
    int ok;
} kb_t;

/* Start a description named name with its source citation: its kernel,
 * or NULL when memory runs out (err set to GC_ENOMEM). */
gc_kernel_t *kb_start(kb_t *b, const char *name, const char *source, gc_err_t *err);

/* Append ops to phase ph (count instructions per warp and iteration; a
 * count <= 0 appends nothing). chains 0: all independent. */
gc_kop_t *kb_alu(kb_t *b, gc_kphase_t *ph, const char *name, double count, double chains);
gc_kop_t *kb_ldg(kb_t *b, gc_kphase_t *ph, double width, double count, double chains);
gc_kop_t *kb_stg(kb_t *b, gc_kphase_t *ph, double width, double count);
gc_kop_t *kb_op(kb_t *b, gc_kphase_t *ph, gc_opclass_t cls, double count);

/* Bytes per element of a dtype name (f16, bf16: 2; f32: 4). */
int ops_dsize(const char *dtype);

/* SMs and threads per SM of a (the library's occupancy arithmetic). */
double ops_sms(const gc_arch_t *a);
double ops_sm_threads(const gc_arch_t *a);

/* Append k to plan under role (takes ownership; destroys k when full). */
int ops_push(gc_ops_plan_t *plan, kb_t *b, const char *role, gc_err_t *err);

/* The templates (ops_mem.c, ops_norm.c, ops_attn.c, ops_conv.c). Arguments are checked. */
int ops_elementwise(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err);
int ops_transpose(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err);
int ops_softmax(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err);
int ops_layernorm(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err);
int ops_rowsum(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err);
int ops_attention(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err);
int ops_conv2d(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err);

#endif
