/* numerics.h - calib's reader of the `numeric` bench: the probe findings of
 * a numeric trace become the arch file's numerics entries, which the
 * emulator (model/emulate/emulate.h) reads. Needs traces/ and arch/ only. */
#ifndef GC_CALIB_NUMERICS_H
#define GC_CALIB_NUMERICS_H

#include "../arch/arch.h"
#include "../util/err.h"

/* Append to arch one numerics entry per (inst, A type, C type) found in the
 * probe rows of a `numeric` trace (traces/README.md, section numeric): the
 * findings of the form's largest k, every value sourced to the trace.
 * This is how calib turns the bench's findings into the arch file; it is
 * also what `gpucal emulate --trace` runs on. Entries already in arch for
 * the same (inst, a, c) are replaced. Fails (GC_EINPUT, FILE:LINE:COL) on
 * a malformed trace or a probe value out of its range; GC_ENODATA when the
 * trace holds no probe rows. */
int gc_calib_numerics(const char *path, gc_arch_t *arch, gc_err_t *err);

#endif
