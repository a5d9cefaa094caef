/* iotrack.h - one command's inputs and outputs, kept apart (the CLI turns
 * this on; the library leaves it off, so threads share nothing).
 *
 * While tracking is on:
 *  - every file read through gc_file_read or gc_trace_open is noted as an
 *    input (its st_dev/st_ino), and gc_afile_open refuses an output that is
 *    the same file as an input (any spelling, symlink or hard link), the
 *    same path as another output of the run (compared after resolution:
 *    the realpath of its folder plus its name), or an existing folder;
 *  - gc_afile_commit only finishes the temporary file: the files go into
 *    place together in gc_io_finish, and only when the command succeeded,
 *    so a run that fails leaves no output behind (nor the folders
 *    gc_mkdir_p created for it).
 */
#ifndef GC_IOTRACK_H
#define GC_IOTRACK_H

#include "err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Start tracking (once, before the command runs). */
void gc_io_track(void);

/* 1 while tracking is on. */
int gc_io_tracking(void);

/* Note path as an input of the run (no-op when tracking is off or the
 * path does not exist). */
void gc_io_note_input(const char *path);

/* Note every entry of folder dir whose name ends with suffix as an input
 * (calib reads them after its outputs are opened). */
void gc_io_note_inputs_in(const char *dir, const char *suffix);

/* The checks of an output path before it is opened: 0, or GC_EINPUT with
 * one line (the path is a folder, an input of the run, or another output). */
int gc_io_check_output(const char *path, gc_err_t *err);

/* Record path as an output being written (gc_afile_open, after
 * gc_io_check_output). 0, or GC_ENOMEM. */
int gc_io_open_output(const char *path, gc_err_t *err);

/* Record output path as one of the run (its temporary file tmp goes into
 * place at gc_io_finish; force: replace an existing file). Takes ownership
 * of path and tmp (heap). Returns 0, or GC_ENOMEM. */
int gc_io_defer(char *path, char *tmp, int force, gc_err_t *err);

/* Forget output path (its file was thrown away before it was finished). */
void gc_io_forget_output(const char *path);

/* Note folder path as created by this run (removed again if it fails). */
void gc_io_note_dir(const char *path);

/* End of the command with exit status st: on 0 every deferred output is
 * moved into place (a failure is printed as one line and gives 1 or 2);
 * otherwise the temporary files and the created folders are removed.
 * Returns the final exit status. */
int gc_io_finish(int st);

#ifdef __cplusplus
}
#endif

#endif
