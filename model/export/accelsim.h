/* accelsim.h - an arch file as Accel-Sim / GPGPU-Sim configuration files.
 *
 * Writes gpgpusim.config and trace.config with every option the simulator's
 * tested SM86_RTX3070 configs carry (shared/reference/accel-sim). Each value
 * is one of: an arch field, a documented formula of arch fields, or a fixed
 * constant with its reason; the table of all of them is one const array in
 * accelsim.c, printed as Markdown by gc_accelsim_doc (model/export/export.md) and
 * as a comment above each option in the files themselves. When the arch
 * lacks a value the simulator needs and no documented rule derives it, the
 * export fails with one line naming the missing key; it never invents one.
 *
 * Every export is checked with simcheck (the validator) before anything is
 * written; the two files are written atomically and never overwrite an
 * existing file unless forced.
 *
 * Reads: an arch (already loaded). Writes: DIR/gpgpusim.config,
 * DIR/trace.config.
 */
#ifndef GC_ACCELSIM_H
#define GC_ACCELSIM_H

#include <stdio.h>

#include "../../util/err.h"
#include "../../arch/arch.h"
#include "export.h"

/* The export's choices and summary are the common ones (export.h). */
typedef gc_export_opts_t gc_accelsim_opts_t;
typedef gc_export_info_t gc_accelsim_info_t;

/* The Accel-Sim exporter behind the common interface (export.h):
 * "accel-sim", files gpgpusim.config and trace.config, validator simcheck. */
extern const gc_exporter_t gc_exporter_accelsim;

/* Render both files into malloc'd NUL-terminated buffers (*gpgpusim,
 * *trace; the caller frees them). Fails with GC_EINPUT and one line
 * "ARCHFILE: KEY is missing: ... needs it for OPTION (...)" when the arch
 * lacks a value, or a bad option value. Does not validate. */
int gc_accelsim_render(const gc_arch_t *a, const gc_accelsim_opts_t *o, char **gpgpusim,
                       char **trace, gc_accelsim_info_t *info, gc_err_t *err);

/* gc_export_write with this exporter: render, validate with simcheck (a
 * failure here is a gpucal bug: GC_ERUN), create dir if needed, and write
 * DIR/gpgpusim.config and DIR/trace.config atomically. Without force an
 * existing file is not replaced (GC_EEXIST) and nothing is written. */
int gc_accelsim_export(const gc_arch_t *a, const gc_accelsim_opts_t *o, const char *dir, int force,
                       gc_accelsim_info_t *info, gc_err_t *err);

/* The key-by-key table as Markdown: which arch field, formula or constant
 * each option comes from and why (the generated part of model/export/export.md). */
void gc_accelsim_doc(FILE *fp);

#endif
