/* fsio.c - bounded reads, atomic writes (see fsio.h). */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */
#include "fsio.h"
#include "iotrack.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gc_file_read(const char *path, size_t max_bytes, char **buf, size_t *len, gc_err_t *err)
{
    *buf = NULL;
    *len = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return gc_err_set(err, GC_EINPUT, "%s: cannot open: %s (check the path)", path,
                          strerror(errno));
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(fp);
        return gc_err_set(err, GC_EINPUT, "%s: is a directory, expected a file", path);
    }
    gc_io_note_input(path);
    size_t cap = 4096, n = 0;
    char *p = malloc(cap + 1);
    if (!p) {
        fclose(fp);
        return gc_err_set(err, GC_ENOMEM, "%s: out of memory", path);
    }
    for (;;) {
        if (n == cap) {
            if (cap > max_bytes) {
                free(p);
                fclose(fp);
                return gc_err_set(err, GC_ELIMIT,
                                  "%s: larger than %zu bytes, the most gpucal reads from such a "
                                  "file (is it the right file?)",
                                  path, max_bytes);
            }
            size_t ncap = cap * 2;
            char *q = realloc(p, ncap + 1);
            if (!q) {
                free(p);
                fclose(fp);
                return gc_err_set(err, GC_ENOMEM, "%s: out of memory", path);
            }
            p = q;
            cap = ncap;
        }
        size_t k = fread(p + n, 1, cap - n, fp);
        n += k;
        if (k == 0)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(p);
        return gc_err_set(err, GC_EIO, "%s: read error", path);
    }
    if (n > max_bytes) {
        free(p);
        return gc_err_set(err, GC_ELIMIT,
                          "%s: larger than %zu bytes, the most gpucal reads from such a file "
                          "(is it the right file?)",
                          path, max_bytes);
    }
    p[n] = '\0';
    *buf = p;
    *len = n;
    return 0;
}

int gc_path_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

int gc_mkdir_p(const char *path, gc_err_t *err)
{
    size_t n = strlen(path);
    char *p = malloc(n + 1);
    if (!p)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    memcpy(p, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (p[i] != '/' && p[i] != '\0')
            continue;
        char c = p[i];
        p[i] = '\0';
        if (mkdir(p, 0777) == 0) {
            gc_io_note_dir(p);
        } else if (errno != EEXIST) {
            int e = errno;
            free(p);
            int bad = e == ENOENT || e == ENOTDIR || e == EACCES || e == EROFS || e == ELOOP ||
                      e == ENAMETOOLONG;
            return gc_err_set(err, bad ? GC_EINPUT : GC_EIO,
                              "%s: cannot create the folder: %s%s", path, strerror(e),
                              bad ? " (choose another output folder)" : "");
        }
        p[i] = c;
    }
    free(p);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return gc_err_set(err, GC_EINPUT,
                          "%s: exists and is not a folder (give the name of a folder)", path);
    return 0;
}

char *gc_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

/* (fsio.h) A last component "." or ".." resolves whole. */
char *gc_path_resolve(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
        return realpath(path, NULL);
    size_t dn = slash ? (size_t)(slash - path) : 0;
    char *dir = malloc(dn + 2);
    if (!dir)
        return NULL;
    if (!slash)
        strcpy(dir, ".");
    else if (dn == 0)
        strcpy(dir, "/");
    else {
        memcpy(dir, path, dn);
        dir[dn] = '\0';
    }
    char *rd = realpath(dir, NULL);
    free(dir);
    if (!rd)
        return NULL;
    size_t n = strlen(rd) + strlen(base) + 2;
    char *out = malloc(n);
    if (out)
        snprintf(out, n, "%s%s%s", rd, rd[strlen(rd) - 1] == '/' ? "" : "/", base);
    free(rd);
    return out;
}

int gc_path_same(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ra = gc_path_resolve(a), *rb = gc_path_resolve(b);
    int same = ra && rb ? !strcmp(ra, rb) : !strcmp(a, b);
    free(ra);
    free(rb);
    return same;
}

int gc_afile_open(gc_afile_t *af, const char *path, int flags, gc_err_t *err)
{
    memset(af, 0, sizeof(*af));
    int rc = gc_io_check_output(path, err);
    if (rc)
        return rc;
    if (!(flags & GC_AFILE_FORCE) && gc_path_exists(path))
        return gc_err_set(err, GC_EEXIST,
                          "%s: already exists; refusing to overwrite it (pass --force to "
                          "replace it, or choose another output)",
                          path);
    size_t n = strlen(path);
    af->path = gc_strdup(path);
    af->tmp = malloc(n + 16);
    if (!af->path || !af->tmp) {
        gc_afile_abort(af);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    snprintf(af->tmp, n + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(af->tmp);
    if (fd < 0) {
        int e = errno;
        free(af->tmp);
        af->tmp = NULL;
        gc_afile_abort(af);
        int bad_path = e == ENOENT || e == ENOTDIR || e == EACCES || e == EROFS || e == ELOOP ||
                       e == ENAMETOOLONG || e == EISDIR;
        return gc_err_set(err, bad_path ? GC_EINPUT : GC_EIO,
                          "%s: cannot create a temporary file beside it: %s%s", path,
                          strerror(e), bad_path ? " (check the folder of the output)" : "");
    }
    fchmod(fd, 0644);
    af->fp = fdopen(fd, "wb");
    if (!af->fp) {
        close(fd);
        gc_afile_abort(af);
        return gc_err_set(err, GC_EIO, "%s: cannot open the temporary file", path);
    }
    af->flags = flags;
    if ((rc = gc_io_open_output(path, err)) != 0)
        gc_afile_abort(af);
    return rc;
}

void gc_afile_abort(gc_afile_t *af)
{
    if (af->fp)
        fclose(af->fp);
    if (af->tmp)
        unlink(af->tmp);
    if (af->path)
        gc_io_forget_output(af->path);
    free(af->tmp);
    free(af->path);
    memset(af, 0, sizeof(*af));
}

int gc_afile_commit(gc_afile_t *af, gc_err_t *err)
{
    if (!af->fp)
        return gc_err_set(err, GC_EIO, "internal: commit of a file that is not open");
    int bad = fflush(af->fp) != 0 || ferror(af->fp) || fsync(fileno(af->fp)) != 0;
    int e = errno;
    if (fclose(af->fp) != 0)
        bad = 1;
    af->fp = NULL;
    if (bad) {
        int rc = gc_err_set(err, GC_EIO, "%s: write failed: %s", af->path, strerror(e));
        gc_afile_abort(af);
        return rc;
    }
    if (gc_io_tracking()) { /* into place at gc_io_finish, with the others */
        int rc = gc_io_defer(af->path, af->tmp, af->flags & GC_AFILE_FORCE, err);
        af->path = af->tmp = NULL;
        gc_afile_abort(af);
        return rc;
    }
    int rc = 0;
    if (af->flags & GC_AFILE_FORCE) {
        if (rename(af->tmp, af->path) != 0)
            rc = gc_err_set(err, GC_EIO, "%s: cannot move the new file into place: %s",
                            af->path, strerror(errno));
    } else if (link(af->tmp, af->path) != 0) {
        if (errno == EEXIST)
            rc = gc_err_set(err, GC_EEXIST,
                            "%s: appeared while gpucal was writing it; refusing to overwrite "
                            "it (pass --force to replace it)",
                            af->path);
        else
            rc = gc_err_set(err, GC_EIO, "%s: cannot move the new file into place: %s",
                            af->path, strerror(errno));
    }
    gc_afile_abort(af); /* removes the temporary name; the link keeps the data */
    return rc;
}

int gc_file_write_atomic(const char *path, const void *data, size_t len, int flags,
                         gc_err_t *err)
{
    gc_afile_t af;
    int rc = gc_afile_open(&af, path, flags, err);
    if (rc)
        return rc;
    if (len && fwrite(data, 1, len, af.fp) != len) {
        gc_afile_abort(&af);
        return gc_err_set(err, GC_EIO, "%s: write failed", path);
    }
    return gc_afile_commit(&af, err);
}
