/* kernel_emit.h - write a kernel description (gc_kernel_t, model/kernel.h)
 * as gpucal-kernel/1 YAML that gc_kernel_load reads back to the same values:
 * what `gpucal describe` prints for a template's kernels, so a user can see
 * and edit what the template assumed. Keys at their loader defaults are left
 * out; numbers keep 17 significant digits. */
#ifndef GC_KERNEL_EMIT_H
#define GC_KERNEL_EMIT_H

#include <stdio.h>

#include "kernel.h"

/* Write k to fp as one YAML document. 0, or -1 when fp reports an error. */
int gc_kernel_write(const gc_kernel_t *k, FILE *fp);

#endif
