/* fuzz_calib.c - libFuzzer target: calib over a folder of traces. The
 * input is split at NUL bytes into up to 12 files t00.csv, t01.csv, ...
 * (a NUL inside a trace is refused by the reader anyway; fuzz_trace covers
 * that), written to a temporary folder, and calibrated in-process
 * (gc_calib_run, nothing written but the folder's files). Properties beyond
 * "no crash, no leak, no UB": a refusal is an input or data error with a
 * one-line message (never "a calib bug", GC_ERUN); a success is an arch
 * whose every value and interval is finite and which emits and loads back
 * (the loader validates it). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch/arch.h"
#include "calib/calib.h"

#define FILES_MAX 12

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int finite_item(const gc_arch_item_t *it, void *ctx)
{
    (void)ctx;
    const gc_qty_t *q = it->q;
    if (q->set && (!isfinite(q->v) || (q->has_ci && (!isfinite(q->lo) || !isfinite(q->hi))))) {
        fprintf(stderr, "calib made a non-finite %s\n", it->key);
        abort();
    }
    return 0;
}

/* the calibrated arch: finite everywhere, and it loads back */
static void check_arch(const gc_arch_t *a)
{
    gc_arch_walk(a, 0, finite_item, NULL);
    char *txt = NULL;
    size_t n = 0;
    gc_err_t e;
    FILE *m = open_memstream(&txt, &n);
    if (!m || gc_arch_emit(a, m, &e) != 0)
        abort();
    fclose(m);
    gc_arch_t *b = NULL;
    if (gc_arch_parse(&b, "calibrated.yaml", txt, n, &e) != 0) {
        fprintf(stderr, "the calibrated arch does not load: %s\n", e.msg);
        abort();
    }
    gc_arch_destroy(b);
    free(txt);
}

/* write the input's parts into dir; returns how many files */
static int write_parts(const char *dir, const unsigned char *data, size_t size)
{
    int nf = 0;
    size_t at = 0;
    while (nf < FILES_MAX && at <= size) {
        const unsigned char *end = memchr(data + at, 0, size - at);
        size_t len = end ? (size_t)(end - (data + at)) : size - at;
        char path[512];
        snprintf(path, sizeof(path), "%s/t%02d.csv", dir, nf++);
        FILE *fp = fopen(path, "wb");
        if (!fp || (len && fwrite(data + at, 1, len, fp) != len) || fclose(fp) != 0)
            abort();
        at += len + 1;
        if (!end)
            break;
    }
    return nf;
}

static char dir[64];

/* at exit: the temporary folder goes (empty between inputs) */
static void remove_dir(void)
{
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof(dir), "/tmp/gc_fuzz_calib_XXXXXX");
        if (!mkdtemp(dir))
            abort();
        atexit(remove_dir);
        gc_warn_set_quiet(1);
    }
    mkdir(dir, 0700); /* again, should a clean-up of /tmp have removed it */
    int nf = write_parts(dir, data, size);
    gc_calib_opts_t o = {.dir = dir, .name = "fuzz", .quiet = 1, .silent = 1};
    gc_arch_t *a = NULL;
    gc_err_t e;
    gc_err_clear(&e);
    int rc = gc_calib_run(&o, &a, &e);
    if (rc == 0) {
        check_arch(a);
    } else if (!e.msg[0] || strchr(e.msg, '\n') || rc == GC_ERUN) {
        fprintf(stderr, "calib refused with code %d and message '%s'\n", rc, e.msg);
        abort();
    }
    gc_arch_destroy(a);
    for (int i = 0; i < nf; i++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/t%02d.csv", dir, i);
        unlink(path);
    }
    return 0;
}
