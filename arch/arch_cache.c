/* arch_cache.c - compiled images of loaded arch files (arch_cache.h).
 *
 * An image is a header (magic, the loader's build, the YAML's size and
 * hash, the payload's size and hash) and a payload: every field of the
 * gc_arch_t in the order of the schema tables (arch_schema.c), numbers as
 * their 8 bytes, texts with their length. Reading walks the same tables,
 * bounds-checked, into a fresh arch. Reads $GPUCAL_CACHE_DIR (or the XDG
 * cache folder), writes there through a temporary file and rename(2). */
#define _GNU_SOURCE
#include "arch_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../util/arena.h"
#include "../util/fsio.h"
#include "arch_schema.h"
#include "ytree.h"

#define MAGIC "GCARCH02"

typedef struct header {
    char magic[8];
    uint64_t build[2];            /* hash of the loader's ELF build ID */
    uint64_t ysize, yhash[2];     /* the YAML file */
    uint64_t ystat[4];            /* its device, inode, mtime and ctime (ns); 0: unknown */
    uint64_t psize, phash[2];     /* the payload after the header */
} header_t;

/* ---- hashing ---- */

static uint64_t rotl(uint64_t x, int r)
{
    return x << r | x >> (64 - r);
}

/* MurmurHash3's 64-bit finaliser (public domain, Austin Appleby,
 * https://github.com/aappleby/smhasher/blob/master/src/MurmurHash3.cpp). */
static uint64_t fmix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

void gc_arch_cache_hash(const void *p, size_t n, unsigned long long h[2])
{
    /* two lanes of xxHash64's round (multiply, rotate, multiply; primes of
     * https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md) */
    const uint64_t P1 = 0x9E3779B185EBCA87ULL, P2 = 0xC2B2AE3D27D4EB4FULL;
    const unsigned char *b = p;
    uint64_t a = P1 ^ n, c = P2 + n, w[2];
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        memcpy(w, b + i, 16);
        a = rotl(a + w[0] * P2, 31) * P1;
        c = rotl(c + w[1] * P2, 31) * P1;
    }
    unsigned char tail[16] = {0};
    memcpy(tail, b + i, n - i);
    memcpy(w, tail, 16);
    a = rotl(a + w[0] * P2, 31) * P1;
    c = rotl(c + w[1] * P2, 31) * P1;
    h[0] = fmix(a ^ rotl(c, 27));
    h[1] = fmix(c + a * P2 + n);
}

/* ---- the loader's build ---- */

typedef struct find_build {
    uintptr_t addr;
    uint64_t h[2];
    int found;
} find_build_t;

/* The GNU build-ID note among the notes at p (n bytes), into fb. */
static void scan_notes(const unsigned char *p, size_t n, find_build_t *fb)
{
    size_t at = 0;
    while (at + sizeof(ElfW(Nhdr)) <= n) {
        ElfW(Nhdr) nh;
        memcpy(&nh, p + at, sizeof(nh));
        size_t name = at + sizeof(nh), desc = name + ((nh.n_namesz + 3) & ~3u);
        size_t next = desc + ((nh.n_descsz + 3) & ~3u);
        if (next > n || next <= at)
            return;
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && !memcmp(p + name, "GNU", 4) &&
            nh.n_descsz > 0) {
            unsigned long long h[2];
            gc_arch_cache_hash(p + desc, nh.n_descsz, h);
            fb->h[0] = h[0], fb->h[1] = h[1];
            fb->found = 1;
            return;
        }
        at = next;
    }
}

/* dl_iterate_phdr callback: the object whose loaded segments hold fb->addr. */
static int on_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    find_build_t *fb = arg;
    int mine = 0;
    for (int i = 0; i < info->dlpi_phnum && !mine; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        mine = ph->p_type == PT_LOAD && fb->addr >= lo && fb->addr < lo + ph->p_memsz;
    }
    if (!mine)
        return 0;
    for (int i = 0; i < info->dlpi_phnum && !fb->found; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE)
            scan_notes((const unsigned char *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz, fb);
    }
    return 1;
}

/* The hash of the build ID of the object this code is linked into; 0
 * when it has none (then nothing is cached). */
static int loader_build(uint64_t h[2])
{
    find_build_t fb = {(uintptr_t)&gc_arch_cache_get, {0, 0}, 0};
    dl_iterate_phdr(on_object, &fb);
    h[0] = fb.h[0], h[1] = fb.h[1];
    return fb.found;
}

/* ---- the YAML file's identity ---- */

/* The stat key of an open file: device, inode, mtime and ctime in ns. A
 * YAML whose key equals the one recorded in an image has not been written
 * since (a write moves mtime, a replace the inode, a touch or chmod ctime),
 * so its content hash need not be recomputed: that saves reading and
 * hashing 424 KB on every CLI call. */
static void stat_key(const struct stat *st, uint64_t k[4])
{
    k[0] = (uint64_t)st->st_dev;
    k[1] = (uint64_t)st->st_ino;
    k[2] = (uint64_t)st->st_mtim.tv_sec * 1000000000ULL + (uint64_t)st->st_mtim.tv_nsec;
    k[3] = (uint64_t)st->st_ctim.tv_sec * 1000000000ULL + (uint64_t)st->st_ctim.tv_nsec;
}

/* 1 when st's times are at least 2 s in the past: a later write then
 * shows as a newer time even on a file system with coarse timestamps
 * (git's "racily clean" rule). Younger files are always hashed. */
static int settled(const struct stat *st)
{
    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME, &now) != 0)
        return 0;
    return st->st_mtim.tv_sec + 2 < now.tv_sec && st->st_ctim.tv_sec + 2 < now.tv_sec;
}

/* ---- where ---- */

/* The image's path for the YAML file path into out; 0 when the cache is
 * off or the build unknown. */
static int image_path(const char *path, const uint64_t build[2], char *dir, size_t ndir,
                      char *out, size_t n)
{
    const char *env = getenv("GPUCAL_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"),
               *home = getenv("HOME");
    int k;
    if (env)
        k = env[0] && strcmp(env, "off") ? snprintf(dir, ndir, "%s", env) : -1;
    else if (xdg && xdg[0] == '/')
        k = snprintf(dir, ndir, "%s/gpucal", xdg);
    else if (home && home[0] == '/')
        k = snprintf(dir, ndir, "%s/.cache/gpucal", home);
    else
        k = -1;
    if (k < 0 || (size_t)k >= ndir)
        return 0;
    char *real = realpath(path, NULL);
    const char *key = real ? real : path;
    size_t kl = strlen(key);
    unsigned char *m = malloc(kl + 16);
    if (!m) {
        free(real);
        return 0;
    }
    memcpy(m, build, 16);
    memcpy(m + 16, key, kl);
    unsigned long long h[2];
    gc_arch_cache_hash(m, kl + 16, h);
    free(m);
    free(real);
    k = snprintf(out, n, "%s/arch-%016llx%016llx.bin", dir, h[0], h[1]);
    return k > 0 && (size_t)k < n;
}

/* ---- writing ---- */

typedef struct wbuf {
    unsigned char *p;
    size_t len, cap;
    int bad;
} wbuf_t;

static void put(wbuf_t *w, const void *src, size_t n)
{
    if (w->bad)
        return;
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 65536;
        while (cap < w->len + n)
            cap *= 2;
        unsigned char *p = realloc(w->p, cap);
        if (!p) {
            w->bad = 1;
            return;
        }
        w->p = p, w->cap = cap;
    }
    memcpy(w->p + w->len, src, n);
    w->len += n;
}

static void put_u32(wbuf_t *w, uint32_t v)
{
    put(w, &v, sizeof(v));
}

/* A text: its length + 1 (0: NULL), then its bytes and the NUL (the
 * loaded arch points into the image). */
static void put_str(wbuf_t *w, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n >= UINT32_MAX - 1) {
        w->bad = 1;
        return;
    }
    put_u32(w, s ? (uint32_t)n + 1 : 0);
    if (s)
        put(w, s, n + 1);
}

static void put_map(wbuf_t *w, const gc_schema_t *s, const void *base)
{
    for (size_t i = 0; i < s->n; i++) {
        const gc_field_t *f = &s->f[i];
        const void *m = GC_CAT(base, f->off, void);
        switch (f->type) {
        case GC_F_QTY: {
            const gc_qty_t *q = m;
            unsigned char fl[2] = {q->set, q->has_ci};
            put(w, fl, 2);
            put(w, &q->v, 8);
            put(w, &q->lo, 8);
            put(w, &q->hi, 8);
            put_str(w, q->src);
            put_str(w, q->note);
            break;
        }
        case GC_F_STR:
            put_str(w, *(const char *const *)m);
            break;
        case GC_F_FLAG:
            put(w, &((const gc_flag_t *)m)->set, 1);
            put(w, &((const gc_flag_t *)m)->val, 1);
            break;
        case GC_F_MAP:
            put_map(w, f->sub, m);
            break;
        case GC_F_LIST: {
            const char *arr = *(const char *const *)m;
            size_t cnt = *GC_CAT(base, f->cnt_off, size_t);
            unsigned char present = arr != NULL;
            put(w, &present, 1);
            put_u32(w, (uint32_t)cnt);
            for (size_t k = 0; k < cnt && arr; k++)
                put_map(w, f->sub, arr + k * f->sub->size);
            break;
        }
        }
    }
}

/* Write n bytes at p to path through a temporary file in dir. */
static void write_file(const char *dir, const char *path, const void *p, size_t n)
{
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.arch-XXXXXX", dir) >= sizeof(tmp))
        return;
    int fd = mkstemp(tmp);
    if (fd < 0)
        return;
    const unsigned char *b = p;
    size_t at = 0;
    while (at < n) {
        ssize_t k = write(fd, b + at, n - at);
        if (k <= 0)
            break;
        at += (size_t)k;
    }
    if (close(fd) != 0 || at != n || rename(tmp, path) != 0)
        unlink(tmp);
}

/* The YAML's content hash as read from the file now (size, h); 0 when it is
 * not a large regular file. st gets its stat. */
static int yaml_hash(const char *path, struct stat *st, uint64_t *size, unsigned long long h[2]);

/* The stat key of the YAML at path into k when the file still holds the
 * len bytes of hash yh that were loaded and is settled; else k = 0 (the
 * image is then checked by content hash each time). */
static void yaml_stat(const char *path, size_t len, const unsigned long long yh[2],
                      uint64_t k[4])
{
    struct stat st;
    uint64_t size;
    unsigned long long now[2];
    memset(k, 0, 4 * sizeof(*k));
    if (yaml_hash(path, &st, &size, now) && size == len && now[0] == yh[0] && now[1] == yh[1] &&
        settled(&st))
        stat_key(&st, k);
}

/* ---- pruning ---- */

typedef struct entry {
    char name[64];
    double used_s; /* last use: the later of atime (mapping an image reads it) and mtime */
} entry_t;

static int by_use(const void *x, const void *y)
{
    double a = ((const entry_t *)x)->used_s, b = ((const entry_t *)y)->used_s;
    return a < b ? -1 : a > b;
}

/* 1 for the names this file writes: "arch-" 32 hex digits ".bin", and
 * mkstemp's ".arch-XXXXXX" (nothing else in the folder is touched) */
static int is_image_name(const char *n)
{
    if (strncmp(n, "arch-", 5) || strlen(n) != 5 + 32 + 4 || strcmp(n + 37, ".bin"))
        return 0;
    for (int i = 5; i < 37; i++)
        if (!strchr("0123456789abcdef", n[i]))
            return 0;
    return 1;
}

static int is_temp_name(const char *n)
{
    return !strncmp(n, ".arch-", 6) && strlen(n) == 12;
}

/* The images of dir (at most max) into e; temporary files of writers that
 * died more than an hour ago are removed on the way. Returns the count. */
static size_t list_images(const char *dir, entry_t *e, size_t max)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    time_t now = time(NULL);
    for (struct dirent *de; d && (de = readdir(d));) {
        char p[4400];
        struct stat st;
        int image = is_image_name(de->d_name), tmp = is_temp_name(de->d_name);
        if ((!image && !tmp) || strlen(de->d_name) >= sizeof(e->name) ||
            (size_t)snprintf(p, sizeof(p), "%s/%s", dir, de->d_name) >= sizeof(p) ||
            lstat(p, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (tmp && st.st_mtime + 3600 < now)
            unlink(p);
        if (!image || n == max)
            continue;
        snprintf(e[n].name, sizeof(e[n].name), "%s", de->d_name);
        e[n++].used_s = st.st_atime > st.st_mtime ? (double)st.st_atime : (double)st.st_mtime;
    }
    if (d)
        closedir(d);
    return n;
}

/* Keep the GC_ARCH_CACHE_KEEP images of dir used last, remove the others
 * (images of other builds and of moved or deleted files are never used
 * again by this one; each is a few hundred KB). Run when an image is
 * written, never on the fast path. */
static void prune(const char *dir)
{
    entry_t *e = malloc(sizeof(*e) * 1024);
    if (!e)
        return;
    size_t n = list_images(dir, e, 1024);
    if (n > GC_ARCH_CACHE_KEEP) {
        qsort(e, n, sizeof(*e), by_use);
        for (size_t i = 0; i < n - GC_ARCH_CACHE_KEEP; i++) {
            char p[4400];
            if ((size_t)snprintf(p, sizeof(p), "%s/%s", dir, e[i].name) < sizeof(p))
                unlink(p);
        }
    }
    free(e);
}

void gc_arch_cache_put(const gc_arch_t *a, const char *path, const char *buf, size_t len)
{
    uint64_t build[2];
    char dir[4096], file[4200];
    if (len < GC_ARCH_CACHE_MIN || !loader_build(build) ||
        !image_path(path, build, dir, sizeof(dir), file, sizeof(file)))
        return;
    wbuf_t w = {0};
    header_t h;
    memset(&h, 0, sizeof(h));
    put(&w, &h, sizeof(h)); /* filled in below */
    put_map(&w, &gc_arch_root_schema, a);
    gc_err_t err;
    gc_err_clear(&err);
    if (!w.bad && gc_mkdir_p(dir, &err) == 0) {
        unsigned long long ph[2], yh[2];
        gc_arch_cache_hash(w.p + sizeof(h), w.len - sizeof(h), ph);
        gc_arch_cache_hash(buf, len, yh);
        memcpy(h.magic, MAGIC, 8);
        h.build[0] = build[0], h.build[1] = build[1];
        h.ysize = len, h.yhash[0] = yh[0], h.yhash[1] = yh[1];
        yaml_stat(path, len, yh, h.ystat);
        h.psize = w.len - sizeof(h), h.phash[0] = ph[0], h.phash[1] = ph[1];
        memcpy(w.p, &h, sizeof(h));
        write_file(dir, file, w.p, w.len);
        prune(dir);
    }
    free(w.p);
}

/* ---- reading ---- */

typedef struct rbuf {
    const unsigned char *p, *end;
    gc_arch_t *a;
    int bad;
} rbuf_t;

static void get(rbuf_t *r, void *dst, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = 1;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, r->p, n);
    r->p += n;
}

/* A text, in place in the image. */
static const char *get_str(rbuf_t *r)
{
    uint32_t n;
    get(r, &n, sizeof(n));
    if (r->bad || n == 0)
        return NULL;
    if ((size_t)(r->end - r->p) < n || r->p[n - 1] != '\0') {
        r->bad = 1;
        return NULL;
    }
    const char *s = (const char *)r->p;
    r->p += n;
    return s;
}

/* A list field: present, count, the entries. */
static void get_map(rbuf_t *r, const gc_schema_t *s, void *base);

static void get_list(rbuf_t *r, const gc_field_t *f, void *base)
{
    unsigned char present;
    uint32_t cnt;
    get(r, &present, 1);
    get(r, &cnt, sizeof(cnt));
    /* each entry takes at least one byte: a count beyond the rest is corrupt */
    if (r->bad || (!present && cnt) || cnt > (size_t)(r->end - r->p)) {
        r->bad = 1;
        return;
    }
    char *arr = present ? gc_arch_list(r->a, f->sub->size, cnt) : NULL;
    if (present && !arr)
        r->bad = 1;
    for (size_t k = 0; k < cnt && !r->bad; k++)
        get_map(r, f->sub, arr + k * f->sub->size);
    *GC_AT(base, f->off, char *) = arr;
    *GC_AT(base, f->cnt_off, size_t) = cnt;
}

static void get_map(rbuf_t *r, const gc_schema_t *s, void *base)
{
    for (size_t i = 0; i < s->n && !r->bad; i++) {
        const gc_field_t *f = &s->f[i];
        void *m = GC_AT(base, f->off, void);
        switch (f->type) {
        case GC_F_QTY: {
            gc_qty_t *q = m;
            unsigned char fl[2];
            get(r, fl, 2);
            q->set = fl[0], q->has_ci = fl[1];
            get(r, &q->v, 8);
            get(r, &q->lo, 8);
            get(r, &q->hi, 8);
            q->src = get_str(r);
            q->note = get_str(r);
            break;
        }
        case GC_F_STR:
            *(const char **)m = get_str(r);
            break;
        case GC_F_FLAG:
            get(r, &((gc_flag_t *)m)->set, 1);
            get(r, &((gc_flag_t *)m)->val, 1);
            break;
        case GC_F_MAP:
            get_map(r, f->sub, m);
            break;
        case GC_F_LIST:
            get_list(r, f, base);
            break;
        }
    }
}

/* The file at path (lo to hi bytes) mapped privately: the page cache's
 * pages, no copy (writers replace images by rename, never in place, so
 * the mapped file does not change under the reader). */
static unsigned char *map_file(const char *path, size_t lo, size_t hi, size_t *n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)lo ||
        st.st_size > (off_t)hi) {
        close(fd);
        return NULL;
    }
    size_t want = (size_t)st.st_size;
    void *m = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return NULL;
    *n = want;
    return m;
}

/* The YAML file's stat (st); 0 when it is not a large regular file. */
static int yaml_open(const char *path, struct stat *st)
{
    return stat(path, st) == 0 && S_ISREG(st->st_mode) && st->st_size >= GC_ARCH_CACHE_MIN &&
           st->st_size <= GC_YTREE_FILE_MAX;
}

static int yaml_hash(const char *path, struct stat *st, uint64_t *size, unsigned long long h[2])
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || st->st_size < GC_ARCH_CACHE_MIN ||
        st->st_size > GC_YTREE_FILE_MAX) {
        close(fd);
        return 0;
    }
    /* the page cache's pages, mapped at once: no copy */
    void *m = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return 0;
    *size = (uint64_t)st->st_size;
    gc_arch_cache_hash(m, (size_t)st->st_size, h);
    munmap(m, (size_t)st->st_size);
    return 1;
}

/* 1 when the image header h was made from the YAML at path as it is now:
 * its stat key matches (settled, recorded at write), else its size and
 * content hash do. */
static int yaml_ok(const header_t *h, const char *path, const struct stat *st)
{
    uint64_t k[4], size;
    unsigned long long yh[2];
    struct stat now;
    stat_key(st, k);
    if ((h->ystat[0] | h->ystat[1] | h->ystat[2] | h->ystat[3]) &&
        !memcmp(k, h->ystat, sizeof(k)) && h->ysize == (uint64_t)st->st_size)
        return 1;
    return yaml_hash(path, &now, &size, yh) && h->ysize == size && h->yhash[0] == yh[0] &&
           h->yhash[1] == yh[1];
}

/* 1 if header h fits the loader's build, the YAML at path (stat st) and
 * the n image bytes. */
static int header_ok(const header_t *h, const uint64_t build[2], const char *path,
                     const struct stat *st, const unsigned char *img, size_t n)
{
    if (memcmp(h->magic, MAGIC, 8) || h->build[0] != build[0] || h->build[1] != build[1] ||
        h->psize != n - sizeof(*h) || !yaml_ok(h, path, st))
        return 0;
    unsigned long long ph[2];
    gc_arch_cache_hash(img + sizeof(*h), n - sizeof(*h), ph);
    return ph[0] == h->phash[0] && ph[1] == h->phash[1];
}

gc_arch_t *gc_arch_cache_get(const char *path)
{
    uint64_t build[2];
    struct stat st;
    char dir[4096], file[4200];
    unsigned char *img;
    size_t n;
    if (!yaml_open(path, &st) || !loader_build(build) ||
        !image_path(path, build, dir, sizeof(dir), file, sizeof(file)) ||
        !(img = map_file(file, sizeof(header_t), (size_t)1 << 30, &n)))
        return NULL;
    header_t h;
    memcpy(&h, img, sizeof(h));
    gc_arch_t *a = NULL;
    if (header_ok(&h, build, path, &st, img, n) && (a = gc_arch_create())) {
        rbuf_t r = {img + sizeof(h), img + n, a, 0};
        a->schema = NULL;
        a->image = img, a->image_len = n;
        get_map(&r, &gc_arch_root_schema, a);
        a->path = gc_arch_str(a, path);
        if (r.bad || r.p != r.end || !a->path) {
            gc_arch_destroy(a);
            return NULL;
        }
        return a;
    }
    munmap(img, n);
    return NULL;
}

void gc_arch_cache_release(gc_arch_t *a)
{
    if (a && a->image)
        munmap(a->image, a->image_len);
    if (a)
        a->image = NULL;
}
