/* fsio.h - bounded file reads and atomic, no-clobber file writes.
 *
 * Every file gpucal writes goes through gc_afile: the bytes go to a temporary
 * file in the destination's folder, and only a complete file is moved into
 * place. Without GC_AFILE_FORCE an existing destination is never replaced
 * (the check and the move are one link(2), so a race cannot clobber it).
 */
#ifndef GC_FSIO_H
#define GC_FSIO_H

#include <stdio.h>
#include <stddef.h>

#include "err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read the whole of path into a NUL-terminated heap buffer (*buf, *len bytes
 * without the NUL). Files larger than max_bytes are refused with GC_ELIMIT;
 * a missing or unreadable file gives GC_EINPUT. The caller frees *buf. */
int gc_file_read(const char *path, size_t max_bytes, char **buf, size_t *len, gc_err_t *err);

/* 1 if path exists (any type), 0 if not. */
int gc_path_exists(const char *path);

/* A malloc'd copy of s (strdup, which C11 lacks), or NULL when out of memory. */
char *gc_strdup(const char *s);

/* Create directory path and its missing parents (mode 0777 & umask).
 * An existing directory is fine; a path through a file, or one that cannot
 * be created for want of permission, is bad input (GC_EINPUT). Folders it
 * creates while iotrack.h tracks are removed again if the command fails. */
int gc_mkdir_p(const char *path, gc_err_t *err);

/* 1 if paths a and b name the same file: the same inode (st_dev, st_ino)
 * when both exist, so hard links and symlinks count, else the same
 * realpath of the folder plus the same last component ("/x/./s.yaml" and
 * "/x/s.yaml"); 0 otherwise. */
int gc_path_same(const char *a, const char *b);

/* realpath of path's folder + "/" + its last component (heap, the caller
 * frees), or NULL when the folder does not resolve. */
char *gc_path_resolve(const char *path);

enum { GC_AFILE_FORCE = 1 };

typedef struct gc_afile {
    FILE *fp;        /* write here between open and commit/abort */
    char *path;      /* final destination */
    char *tmp;       /* temporary file beside it */
    int flags;
} gc_afile_t;

/* Start writing path atomically. Fails with GC_EEXIST if path exists and
 * flags lacks GC_AFILE_FORCE (checked now, and again at commit), and with
 * GC_EINPUT when the folder is missing or not writable, when path is a
 * folder, and (while iotrack.h tracks) when path is an input or another
 * output of the command; so a command can open its outputs before its work
 * and find a bad path at once. */
int gc_afile_open(gc_afile_t *af, const char *path, int flags, gc_err_t *err);

/* Flush, fsync and move the file into place; the struct is finished either
 * way. On failure the temporary file is removed and path is untouched.
 * While iotrack.h tracks, the move waits for gc_io_finish (all outputs of
 * the command together, and only if it succeeds). */
int gc_afile_commit(gc_afile_t *af, gc_err_t *err);

/* Throw the temporary file away (safe on a finished or zeroed struct). */
void gc_afile_abort(gc_afile_t *af);

/* Write len bytes of data to path atomically (open + fwrite + commit). */
int gc_file_write_atomic(const char *path, const void *data, size_t len, int flags,
                         gc_err_t *err);

#ifdef __cplusplus
}
#endif

#endif
