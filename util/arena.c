/* arena.c - bump allocator (see arena.h). */
#include "arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct block {
    struct block *next;
    size_t used, cap;
    alignas(max_align_t) unsigned char data[];
} block_t;

struct gc_arena {
    block_t *head;
};

gc_arena_t *gc_arena_create(void)
{
    return calloc(1, sizeof(gc_arena_t));
}

void gc_arena_destroy(gc_arena_t *a)
{
    if (!a)
        return;
    for (block_t *b = a->head, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(a);
}

void *gc_arena_alloc(gc_arena_t *a, size_t n)
{
    const size_t al = alignof(max_align_t);
    if (n > SIZE_MAX / 2)
        return NULL;
    n = (n + al - 1) / al * al;
    if (n == 0)
        n = al;
    block_t *b = a->head;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 16384 ? n : 16384;
        b = malloc(sizeof(*b) + cap);
        if (!b)
            return NULL;
        b->cap = cap;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *gc_arena_strdup(gc_arena_t *a, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = gc_arena_alloc(a, n);
    if (p)
        memcpy(p, s, n);
    return p;
}
