/* simcheck.h - the validator of GPGPU-Sim / Accel-Sim configuration files.
 *
 * The simulator reads every `-config FILE` into one option set and aborts
 * (or asserts much later, mid-run) on what its parser and models cannot
 * take. simcheck reads the same files the way the simulator's option
 * parser does ('#' starts a comment, words separated by blanks, a double
 * quote groups words) and refuses, with one line "FILE:LINE:COL: what is
 * wrong (how to fix)", every known cause of such a failure:
 *
 *   - an option the simulator does not register (the list is the one in
 *     shared/reference/accel-sim/option-names.txt, compiled in), an option
 *     without a value, an option given twice;
 *   - a placeholder ('X', 'TODO', '<...>') where a value belongs, a
 *     non-number in a numeric field;
 *   - a sector cache whose line is not 128 bytes, a malformed cache string,
 *     an IPOLY set hash with other than 16/32/64 sets;
 *   - IPOLY partition indexing with other than 16, 32 or 64 channels, XOR
 *     indexing with a channel count that is not a power of two;
 *   - -gpgpu_pipeline_widths without exactly 13 fields; in the sub-core
 *     model, issue widths, register banks and collector units that do not
 *     match the scheduler count;
 *   - latency/initiation pairs that are not positive, or whose initiation
 *     exceeds the latency, or that do not fit the unit's pipeline depth;
 *   - a specialized unit string without its six fields;
 *   - a DRAM address map that is not 64 bits or names more banks than the
 *     timing string has, a malformed timing string;
 *   - shared-memory carve-outs that exceed the unified L1 size.
 *
 * Options checked together (cross checks) may come from different files:
 * add every file of one simulation, then call gc_simcheck_done.
 *
 * Reads: the config files given. Writes: nothing.
 */
#ifndef GC_SIMCHECK_H
#define GC_SIMCHECK_H

#include <stddef.h>

#include "../../util/err.h"

typedef struct gc_simcheck gc_simcheck_t;

/* Largest config file read (bytes); options per check set. */
#define GC_SIMCHECK_FILE_MAX (1u << 20)
#define GC_SIMCHECK_OPTS_MAX 4096

/* An empty check set / free it (NULL is a no-op). */
gc_simcheck_t *gc_simcheck_create(void);
void gc_simcheck_destroy(gc_simcheck_t *sc);

/* Parse the config text buf (len bytes; name is the file name used in
 * messages) into sc and check each option on its own. 0 or GC_EINPUT /
 * GC_ELIMIT / GC_ENOMEM with a one-line message. */
int gc_simcheck_add(gc_simcheck_t *sc, const char *name, const char *buf, size_t len,
                    gc_err_t *err);

/* gc_simcheck_add on the contents of path (at most GC_SIMCHECK_FILE_MAX
 * bytes). */
int gc_simcheck_file(gc_simcheck_t *sc, const char *path, gc_err_t *err);

/* The checks between options of everything added so far. 0 or GC_EINPUT
 * with the place of the option at fault. */
int gc_simcheck_done(gc_simcheck_t *sc, gc_err_t *err);

/* Number of options added so far. */
size_t gc_simcheck_count(const gc_simcheck_t *sc);

/* The value of option name ("-gpgpu_n_mem") as added, or NULL. */
const char *gc_simcheck_value(const gc_simcheck_t *sc, const char *name);

/* 1 if name ("-gpgpu_n_mem") is an option the simulator registers. */
int gc_simcheck_known(const char *name);

/* The compiled-in option list, sorted (strcmp): names of the simulator's
 * options with their '-', then the DRAM-timing sub-option names. */
size_t gc_simcheck_names(const char *const **names);

#endif
