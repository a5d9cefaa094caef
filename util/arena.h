/* arena.h - a bump allocator: many small allocations freed together.
 * Used by objects that own lots of small strings and arrays (an arch file,
 * a kernel description). gc_arena_destroy(NULL) is a no-op. */
#ifndef GC_ARENA_H
#define GC_ARENA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gc_arena gc_arena_t;

gc_arena_t *gc_arena_create(void);
void gc_arena_destroy(gc_arena_t *a);

/* n zeroed bytes aligned for any type, or NULL when out of memory. */
void *gc_arena_alloc(gc_arena_t *a, size_t n);

/* A copy of s (NULL gives NULL). */
char *gc_arena_strdup(gc_arena_t *a, const char *s);

#ifdef __cplusplus
}
#endif

#endif
