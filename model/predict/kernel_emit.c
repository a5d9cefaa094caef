/* kernel_emit.c - write a gc_kernel_t back as a gpucal-kernel/1 description
 * (see kernel_emit.h). Every number is written with 17 significant digits so
 * that gc_kernel_load reads back the same doubles and gc_predict gives the
 * same prediction (tests/ops.sh checks the round trip). */
#include "kernel_emit.h"

#include <string.h>

/* A YAML double-quoted scalar: quotes, backslashes and control characters
 * escaped. */
static void put_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(fp, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(fp, "\\x%02x", *c);
        else
            fputc(*c, fp);
    }
    fputc('"', fp);
}

/* ", key: value" with the shortest text that reads back as the same double. */
static void put_num(FILE *fp, const char *key, double v)
{
    fprintf(fp, ", %s: %.17g", key, v);
}

/* The keys of one op that differ from the loader's defaults (count always). */
static void put_op(FILE *fp, const gc_kop_t *op)
{
    int tensor = op->cls == GC_OP_MMA || op->cls == GC_OP_WGMMA || op->cls == GC_OP_WMMA;
    fprintf(fp, "    - {op: %s", tensor && op->inst ? op->inst : gc_opclass_name(op->cls));
    if (tensor)
        fprintf(fp, ", shape: %s, a: %s, c: %s", op->shape, op->a, op->c);
    if (op->cls == GC_OP_WGMMA && op->operands)
        fprintf(fp, ", operands: %s", op->operands);
    if (op->cls == GC_OP_ALU)
        fprintf(fp, ", name: %s", op->name);
    if (op->cls == GC_OP_ALU && op->after_tensor)
        fputs(", after_tensor: true", fp);
    if (op->cls == GC_OP_LDMATRIX)
        put_num(fp, "num", op->num);
    if (op->cls == GC_OP_TMA)
        put_num(fp, "bytes", op->bytes);
    if (op->cls == GC_OP_TMA && op->multicast > 1)
        put_num(fp, "multicast", op->multicast);
    int sh = op->cls == GC_OP_LDS || op->cls == GC_OP_STS;
    int gl = op->cls == GC_OP_LDG || op->cls == GC_OP_STG || op->cls == GC_OP_CP_ASYNC;
    if (sh || gl) {
        put_num(fp, "width", op->width);
        if (op->active != 32)
            put_num(fp, "active", op->active);
    }
    if ((sh || op->cls == GC_OP_LDMATRIX || op->cls == GC_OP_CP_ASYNC) && op->ways != 1)
        put_num(fp, "ways", op->ways);
    if (op->cls == GC_OP_LDS && op->broadcast)
        fputs(", broadcast: true", fp);
    if (op->cls == GC_OP_CP_ASYNC && op->staged)
        fputs(", staged: true", fp);
    if (gl && op->sectors > 0)
        put_num(fp, "sectors", op->sectors);
    if (gl && op->lines > 0)
        put_num(fp, "lines", op->lines);
    if ((op->cls == GC_OP_LDG || op->cls == GC_OP_CP_ASYNC) && !op->l1)
        fputs(", cache: l2", fp);
    if (op->cls == GC_OP_LDG && op->l1_hit > 0)
        put_num(fp, "l1_hit", op->l1_hit);
    put_num(fp, "count", op->count);
    if ((tensor || op->cls == GC_OP_ALU || op->cls == GC_OP_LDG || op->cls == GC_OP_SHFL) &&
        op->chains > 0)
        put_num(fp, "chains", op->chains);
    if ((op->cls == GC_OP_ALU || op->cls == GC_OP_SHFL) && op->depth > 0)
        put_num(fp, "depth", op->depth);
    fputs("}\n", fp);
}

/* One phase: its key, trips (and stages), ops. */
static void put_phase(FILE *fp, const char *key, const gc_kphase_t *ph, int main_loop)
{
    if (!main_loop && (!ph->present || ph->n_ops == 0))
        return;
    fprintf(fp, "%s:\n  trips: %.17g\n", key, ph->trips);
    if (ph->stages != 1)
        fprintf(fp, "  stages: %.17g\n", ph->stages);
    fprintf(fp, "  ops:%s\n", ph->n_ops ? "" : " []");
    for (size_t i = 0; i < ph->n_ops; i++)
        put_op(fp, &ph->ops[i]);
}

int gc_kernel_write(const gc_kernel_t *k, FILE *fp)
{
    fprintf(fp, "schema: %s\nname: ", GC_KERNEL_SCHEMA);
    put_str(fp, k->name);
    fputc('\n', fp);
    if (k->source) {
        fputs("source: ", fp);
        put_str(fp, k->source);
        fputc('\n', fp);
    }
    if (k->note) {
        fputs("note: ", fp);
        put_str(fp, k->note);
        fputc('\n', fp);
    }
    fprintf(fp, "launch:\n  grid: [%ld, %ld, %ld]\n  block: [%ld, %ld, %ld]\n",
            k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2]);
    fprintf(fp, "  registers: %.17g\n", k->regs);
    if (k->shared_bytes > 0)
        fprintf(fp, "  shared_bytes: %.17g\n", k->shared_bytes);
    if (k->blocks_per_sm > 0)
        fprintf(fp, "  blocks_per_sm: %.17g\n", k->blocks_per_sm);
    if (k->param_lines > 0)
        fprintf(fp, "  param_lines: %.17g\n", k->param_lines);
    if (k->far_jumps > 0)
        fprintf(fp, "  far_jumps: %.17g\n", k->far_jumps);
    if (k->serial_inst > 0)
        fprintf(fp, "  serial_inst: %.17g\n", k->serial_inst);
    put_phase(fp, "prologue", &k->prologue, 0);
    put_phase(fp, "loop", &k->loop, 1);
    put_phase(fp, "epilogue", &k->epilogue, 0);
    /* a value given explicitly is written even when it is 0, so that the
     * file loads back as the same kernel (0 is not 'derive it') */
    unsigned g = k->footprint_given;
    int rd = (g & GC_FP_READ) || k->read_bytes > 0, wr = (g & GC_FP_WRITE) || k->write_bytes > 0,
        ru = (g & GC_FP_REUSE) || k->reuse_bytes > 0;
    if (rd || wr || ru || k->l2_warm) {
        fputs("footprint:\n", fp);
        if (rd)
            fprintf(fp, "  read_bytes: %.17g\n", k->read_bytes);
        if (wr)
            fprintf(fp, "  write_bytes: %.17g\n", k->write_bytes);
        if (ru)
            fprintf(fp, "  reuse_bytes: %.17g\n", k->reuse_bytes);
        if (k->l2_warm)
            fputs("  l2_warm: true\n", fp);
    }
    return ferror(fp) ? -1 : 0;
}
