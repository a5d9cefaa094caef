/* api.h - the library box's internals shared by the public API (api.c),
 * the request runner (request.c) and the CLI's batch mode (cli/batch.c).
 *
 * The lib/ box sits on model/predict and arch: it owns the process-wide
 * cache of archs named by requests and the JSON-lines request format of
 * `gpucal predict --batch` (cli/batch.c reads the lines; request.c answers
 * each).
 */
#ifndef GC_API_H
#define GC_API_H

#include <stdio.h>

#include "../util/err.h"
#include "../arch/arch.h"
#include "../model/predict/template.h"
#include "jsonl.h"

/* Fill tv with n key = value options of template t (flags: "true" / "1"
 * set, "false" / "0" not). Errors (GC_EUSAGE): an option t lacks, a bad
 * value. */
int gc_api_tvals(const gc_template_t *t, int n, const char *const *keys,
                 const char *const *values, gc_tvals_t *tv, gc_err_t *err);

/* The loaded and resolved arch called name (a shipped name or a path),
 * loaded once per process and kept until exit; safe from many threads. */
int gc_api_arch(const char *name, const gc_arch_t **a, gc_err_t *err);

/* The kernel description at path, loaded once per process and kept (a
 * batch names the same files again and again); safe from many threads. */
int gc_api_kernel(const char *path, const gc_kernel_t **k, gc_err_t *err);

/* Point the shipped-arch folder at share/gpucal/arch beside an installed
 * file (the gpucal binary, libgpucal.so) when that folder exists: anchor's
 * folder/../share/gpucal/arch, then /../../ (lib/<triplet>/). */
void gc_api_find_arch_dir(const char *anchor);

/* Answer one parsed request: for each arch of its "arch" member (a,b,c;
 * default_arch when it has none) write one JSON line to out, the
 * prediction's object with "line": line first (line <= 0: no such member),
 * or {"line": N, "error": "..."}. dflt: the options of requests that give
 * none of their own ("clock_mhz", "period_us"; NULL: none). Returns the
 * number of answers that are errors; *first gets the first error (may be
 * NULL). */
int gc_request_run(const gc_jobj_t *req, long line, const char *default_arch,
                   const gc_predict_opts_t *dflt, FILE *out, gc_err_t *first);

/* Write the error answer {"line": N, "error": "..."} (line <= 0: no line). */
void gc_request_error(long line, const char *msg, FILE *out);

#endif
