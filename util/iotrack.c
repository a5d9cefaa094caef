/* iotrack.c - a command's inputs and outputs kept apart, its outputs
 * written all together or not at all (iotrack.h). */
#define _POSIX_C_SOURCE 200809L
#include "iotrack.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsio.h"

typedef struct input {
    dev_t dev;
    ino_t ino;
    char *path; /* as the command named it, for the message */
} input_t;

typedef struct output {
    char *path;     /* as the command named it */
    char *resolved; /* realpath of its folder + its name (NULL: not resolvable) */
    char *tmp;      /* the finished temporary file; NULL while still open */
    int force;
} output_t;

/* One command per process: plain statics, touched only while tracking. */
static struct {
    int on;
    input_t *in;
    size_t nin, capin;
    output_t *out;
    size_t nout, capout;
    char **dirs;
    size_t ndirs, capdirs;
} T;

void gc_io_track(void)
{
    T.on = 1;
}

int gc_io_tracking(void)
{
    return T.on;
}


/* Grow array *a of *cap elements of size sz to hold n + 1; -1 when out of memory. */
static int grow(void **a, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap)
        return 0;
    size_t nc = *cap ? 2 * *cap : 16;
    void *p = realloc(*a, nc * sz);
    if (!p)
        return -1;
    *a = p;
    *cap = nc;
    return 0;
}

void gc_io_note_input(const char *path)
{
    struct stat st;
    if (!T.on || stat(path, &st) != 0 || S_ISDIR(st.st_mode))
        return;
    for (size_t i = 0; i < T.nin; i++)
        if (T.in[i].dev == st.st_dev && T.in[i].ino == st.st_ino)
            return;
    char *p = gc_strdup(path);
    if (!p || grow((void **)&T.in, &T.capin, T.nin, sizeof(*T.in)) != 0) {
        free(p); /* out of memory: this input goes unchecked */
        return;
    }
    T.in[T.nin++] = (input_t){st.st_dev, st.st_ino, p};
}

void gc_io_note_inputs_in(const char *dir, const char *suffix)
{
    DIR *d = T.on ? opendir(dir) : NULL;
    if (!d)
        return;
    size_t sn = strlen(suffix), dn = strlen(dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n <= sn || strcmp(e->d_name + n - sn, suffix) != 0)
            continue;
        char *p = malloc(dn + n + 2);
        if (!p)
            break;
        snprintf(p, dn + n + 2, "%s/%s", dir, e->d_name);
        gc_io_note_input(p);
        free(p);
    }
    closedir(d);
}

int gc_io_check_output(const char *path, gc_err_t *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return gc_err_set(err, GC_EINPUT,
                          "%s: is a folder; the output is a file (give a file name)", path);
    if (!T.on)
        return 0;
    for (size_t i = 0; i < T.nin && stat(path, &st) == 0; i++)
        if (T.in[i].dev == st.st_dev && T.in[i].ino == st.st_ino)
            return gc_err_set(err, GC_EINPUT,
                              "%s: is the input %s of this command (the same file): writing it "
                              "would destroy it; choose another output",
                              path, T.in[i].path);
    char *r = gc_path_resolve(path);
    for (size_t i = 0; i < T.nout; i++)
        if (r && T.out[i].resolved ? !strcmp(r, T.out[i].resolved)
                                   : gc_path_same(path, T.out[i].path)) {
            free(r);
            return gc_err_set(err, GC_EINPUT,
                              "%s and %s name the same file, and both are outputs of this "
                              "command; give them different names",
                              path, T.out[i].path);
        }
    free(r);
    return 0;
}

/* The output entry of path, or NULL. */
static output_t *find_output(const char *path)
{
    for (size_t i = 0; i < T.nout; i++)
        if (!strcmp(T.out[i].path, path))
            return &T.out[i];
    return NULL;
}

/* Record path as an output being written (gc_afile_open). */
int gc_io_open_output(const char *path, gc_err_t *err)
{
    if (!T.on)
        return 0;
    char *p = gc_strdup(path);
    if (!p || grow((void **)&T.out, &T.capout, T.nout, sizeof(*T.out)) != 0) {
        free(p);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    T.out[T.nout++] = (output_t){p, gc_path_resolve(path), NULL, 0};
    return 0;
}

int gc_io_defer(char *path, char *tmp, int force, gc_err_t *err)
{
    output_t *o = find_output(path);
    if (!o) { /* not opened through gc_afile_open while tracking */
        if (gc_io_open_output(path, err) != 0) {
            unlink(tmp);
            free(tmp);
            free(path);
            return err ? err->code : GC_ENOMEM;
        }
        o = &T.out[T.nout - 1];
    }
    free(path);
    free(o->tmp);
    o->tmp = tmp;
    o->force = force;
    return 0;
}

void gc_io_forget_output(const char *path)
{
    output_t *o = T.on ? find_output(path) : NULL;
    if (!o || o->tmp)
        return;
    free(o->path);
    free(o->resolved);
    *o = T.out[--T.nout];
}

void gc_io_note_dir(const char *path)
{
    char *p = T.on ? gc_strdup(path) : NULL;
    if (!p)
        return;
    if (grow((void **)&T.dirs, &T.capdirs, T.ndirs, sizeof(*T.dirs)) != 0) {
        free(p);
        return;
    }
    T.dirs[T.ndirs++] = p;
}

/* Move the finished output o into place: 0, or a message in err. */
static int place(const output_t *o, gc_err_t *err)
{
    if (o->force) {
        if (rename(o->tmp, o->path) != 0)
            return gc_err_set(err, GC_EIO, "%s: cannot move the new file into place: %s",
                              o->path, strerror(errno));
        return 0;
    }
    if (link(o->tmp, o->path) != 0) {
        if (errno == EEXIST)
            return gc_err_set(err, GC_EEXIST,
                              "%s: appeared while gpucal was writing it; refusing to overwrite "
                              "it (pass --force to replace it)",
                              o->path);
        return gc_err_set(err, GC_EIO, "%s: cannot move the new file into place: %s", o->path,
                          strerror(errno));
    }
    unlink(o->tmp);
    return 0;
}

/* Print err as the command's one line; its exit status. */
static int fail_line(const gc_err_t *e)
{
    fprintf(stderr, "gpucal: %s\n", e->msg);
    int st = gc_err_exit_status(e->code);
    return st ? st : 1;
}

int gc_io_finish(int st)
{
    if (!T.on)
        return st;
    gc_err_t e;
    gc_err_clear(&e);
    size_t placed = 0; /* T.out[0 .. placed-1] are in place */
    while (st == 0 && placed < T.nout) {
        if (T.out[placed].tmp && place(&T.out[placed], &e) != 0) {
            st = fail_line(&e);
            break;
        }
        placed++;
    }
    for (size_t i = 0; i < T.nout; i++) {
        output_t *o = &T.out[i];
        if (st && o->tmp && i < placed && !o->force)
            unlink(o->path); /* new, from a run that failed at the end: taken back */
        if (o->tmp && i >= placed)
            unlink(o->tmp);
        free(o->path);
        free(o->resolved);
        free(o->tmp);
    }
    for (size_t i = T.ndirs; i-- > 0;) {
        if (st)
            rmdir(T.dirs[i]); /* only if empty: nothing else was there */
        free(T.dirs[i]);
    }
    for (size_t i = 0; i < T.nin; i++)
        free(T.in[i].path);
    free(T.in);
    free(T.out);
    free(T.dirs);
    memset(&T, 0, sizeof(T));
    return st;
}
