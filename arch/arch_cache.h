/* arch_cache.h - a compiled image of a loaded arch file beside the YAML
 * (internal to the arch library; gc_arch_load uses it).
 *
 * The YAML stays the source of truth: an image is used only when it was
 * written by this very build of the loader (the ELF build ID of the object
 * the loader is linked into) from a file of the same size and content hash,
 * and only when its own checksum holds; anything else (absent, stale,
 * corrupt, unreadable, another build) reads the YAML as before. A YAML
 * whose times were 2 s old or more when its image was written is
 * recognised by its stat instead (device, inode, mtime and ctime in ns: a
 * write, a replace, a touch all change one), so a warm call does not read
 * it at all; younger files are hashed every time. Only files that loaded
 * without an error are written, so bad input behaves as without the cache.
 * Images live in $GPUCAL_CACHE_DIR, else $XDG_CACHE_HOME/gpucal, else
 * $HOME/.cache/gpucal, one per YAML path and build ("arch-<hash>.bin"),
 * replaced atomically (never rewritten in place: readers map them); each
 * write keeps the GC_ARCH_CACHE_KEEP images used last and removes the
 * others. GPUCAL_CACHE_DIR=off (or empty) turns the cache off. Files under
 * GC_ARCH_CACHE_MIN bytes load fast enough from YAML and are never cached.
 * Thread-safe: no shared state.
 */
#ifndef GC_ARCH_CACHE_H
#define GC_ARCH_CACHE_H

#include <stddef.h>

#include "arch.h"

#define GC_ARCH_CACHE_MIN (8 * 1024)
#define GC_ARCH_CACHE_KEEP 32

/* The arch the valid image for the YAML file path holds, with a->path =
 * path, its texts inside the image (a->image); NULL when there is none or
 * path is not a readable file of at least GC_ARCH_CACHE_MIN bytes. Never
 * prints. */
gc_arch_t *gc_arch_cache_get(const char *path);

/* Release a's image (a->image), if any. */
void gc_arch_cache_release(gc_arch_t *a);

/* Write the image of a, just loaded from path (bytes buf, len). Failures
 * are silent: the cache is only a shortcut. */
void gc_arch_cache_put(const gc_arch_t *a, const char *path, const char *buf, size_t len);

/* 128-bit hash of n bytes (h[0], h[1]); not cryptographic. */
void gc_arch_cache_hash(const void *p, size_t n, unsigned long long h[2]);

#endif
