/* main.cu - gpucal-measure: the bench table, the command line, one trace per
 * bench with its header, the SASS check, the summary. `gpucal measure ...`
 * runs this program (it sits beside gpucal). */
#include <cuda_runtime.h>
#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../util/fsio.h"
#include "measure.h"

#ifndef GPUCAL_VERSION
#define GPUCAL_VERSION "0.0.0"
#endif

/* Benches live in bench_*.cu. A bench not compiled into this binary is a
 * weak reference that resolves to NULL and is reported as not built. */
#define GC_BENCHES(X)                                                                          \
    X(clock) X(launch) X(mma) X(mma_sp) X(wgmma) X(alu) X(ldmatrix) X(smem) X(pchase) X(pchase_fine)      \
        X(bw) X(tma) X(dsm) X(dpx) X(coissue) X(numeric) X(cold)
#define DECLARE(n) extern "C" const gc_bench_t gc_bench_##n __attribute__((weak));
GC_BENCHES(DECLARE)
#define ENTRY(n) {#n, &gc_bench_##n},
static const struct {
    const char *name;
    const gc_bench_t *bench;
} benches[] = {GC_BENCHES(ENTRY)};
#define NBENCH ((int)(sizeof(benches) / sizeof(benches[0])))

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: gpucal measure [--bench LIST] [--out DIR] [--quick] [--full] [--force]\n"
            "                      [--resume] [--reps N] [--device N] [--list]\n\n"
            "Run microbenchmarks on this machine's GPU and write one trace per bench\n"
            "(CSV, format gpucal-trace/1: traces/README.md) into DIR.\n\n"
            "  --bench LIST   comma-separated benches, or 'all' (default: all built in)\n"
            "  --out DIR      output folder (default: traces/<device>)\n"
            "  --quick        smaller sweeps and fewer repeats (a first look in seconds)\n"
            "  --full         the largest sweeps (e.g. fine-grained P-chase on every SM)\n"
            "  --force        replace traces that exist (default: refuse)\n"
            "  --resume       continue an interrupted run: complete traces are kept, and a\n"
            "                 bench's <bench>.csv.part continues where it stopped\n"
            "  --reps N       repeats per point, median over them (default 9, quick 5)\n"
            "  --device N     CUDA device (default 0)\n"
            "  --list         list the benches and exit\n\n"
            "Hygiene: every point is warmed up and repeated; the SM clock is measured\n"
            "with %%globaltimer against clock64 at each bench's start and during the timed\n"
            "launches (rows whose clock moved by more than 2%% are flagged); the SASS of\n"
            "this binary is checked with cuobjdump for the opcodes each bench claims to\n"
            "time, and the result goes into each trace's header.\n"
            "Exit status: 0 all benches ran, 1 a bench failed, 2 bad usage.\n");
}

static const gc_bench_t *find_bench(const char *name, int *known)
{
    *known = 0;
    for (int i = 0; i < NBENCH; i++)
        if (!strcmp(benches[i].name, name)) {
            *known = 1;
            return benches[i].bench;
        }
    return NULL;
}

static void list_benches(void)
{
    for (int i = 0; i < NBENCH; i++) {
        const gc_bench_t *b = benches[i].bench;
        printf("%-12s %s\n", benches[i].name, b ? b->summary : "(not built in this binary)");
    }
}

/* Is there a CUDA GPU numbered dev? One line that says what is missing
 * when not (no GPU, no driver, a device number past the count), exit 1:
 * an environment without a GPU is not bad input. */
static int have_device(int dev, gc_err_t *err)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    cudaGetLastError();
    if (e == cudaErrorNoDevice || (e == cudaSuccess && n == 0))
        return gc_err_set(err, GC_ERUN, "no CUDA GPU on this host (the CUDA runtime sees none): "
                                         "run gpucal measure where a GPU is");
    if (e == cudaErrorInsufficientDriver && access("/proc/driver/nvidia/version", F_OK) != 0)
        return gc_err_set(err, GC_ERUN, "no CUDA GPU on this host: no NVIDIA driver is loaded "
                                         "(/proc/driver/nvidia/version is missing); run gpucal "
                                         "measure where a GPU is");
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNotSupported ||
        e == cudaErrorSystemDriverMismatch || e == cudaErrorCompatNotSupportedOnDevice)
        return gc_err_set(err, GC_ERUN, "no usable CUDA GPU on this host: %s (%s); a host "
                                         "without a GPU has no NVIDIA driver, else update the "
                                         "driver to one that supports CUDA %d.%d",
                          cudaGetErrorString(e), cudaGetErrorName(e), CUDART_VERSION / 1000,
                          CUDART_VERSION % 1000 / 10);
    if (e != cudaSuccess)
        return gc_cuda_check(e, "looking for a CUDA GPU", err);
    if (dev >= n)
        return gc_err_set(err, GC_ERUN, "--device %d: this host has %d CUDA GPU%s (0..%d)", dev,
                          n, n == 1 ? "" : "s", n - 1);
    return 0;
}

static int devinfo(int dev, gc_devinfo_t *d, gc_err_t *err)
{
    cudaDeviceProp p;
    int rc = have_device(dev, err);
    if (rc)
        return rc;
    rc = gc_cuda_check(cudaSetDevice(dev), "selecting the device", err);
    if (!rc)
        rc = gc_cuda_check(cudaGetDeviceProperties(&p, dev), "reading device properties", err);
    if (rc)
        return rc;
    memset(d, 0, sizeof(*d));
    snprintf(d->name, sizeof(d->name), "%s", p.name);
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->sms = p.multiProcessorCount;
    d->l2_bytes = p.l2CacheSize;
    d->smem_optin_bytes = (long)p.sharedMemPerBlockOptin;
    d->smem_per_sm_bytes = (long)p.sharedMemPerMultiprocessor;
    d->mem_bus_bits = p.memoryBusWidth;
    d->max_threads_sm = p.maxThreadsPerMultiProcessor;
    d->max_blocks_sm = p.maxBlocksPerMultiProcessor;
    d->regs_sm = p.regsPerMultiprocessor;
    int v = 0;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, dev) == cudaSuccess)
        d->clock_max_mhz = v / 1e3;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, dev) == cudaSuccess)
        d->mem_clock_mhz = v / 1e3;
    cudaGetLastError();
    cudaDriverGetVersion(&d->driver);
    cudaRuntimeGetVersion(&d->runtime);
    /* the kernel driver's own version, e.g. 580.159.04 */
    FILE *fp = fopen("/proc/driver/nvidia/version", "r");
    if (fp) {
        char line[512];
        if (fgets(line, sizeof(line), fp)) {
            char *p = strstr(line, "Kernel Module");
            /* "... Kernel Module [for x86_64]  580.159.04  Release ...": the
             * first word that starts with a digit */
            while (p && *p && !(p[0] == ' ' && p[1] >= '0' && p[1] <= '9'))
                p++;
            if (!p || !*p || sscanf(p, " %31s", d->kernel_driver) != 1)
                d->kernel_driver[0] = '\0';
        }
        fclose(fp);
    }
    return 0;
}

/* Run cuobjdump on this binary for the device's cubin and parse it. */
static gc_sass_t *load_sass(const gc_devinfo_t *d, const char **why)
{
    static char reason[256];
    char exe[4096];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (k <= 0) {
        *why = "cannot find this binary (/proc/self/exe)";
        return NULL;
    }
    exe[k] = '\0';
    int cc = d->cc_major * 10 + d->cc_minor;
    char arch[16];
    snprintf(arch, sizeof(arch), "sm_%d%s", cc, cc == 90 ? "a" : "");
    const char *tools[] = {"cuobjdump", "/usr/local/cuda/bin/cuobjdump", NULL};
    for (int t = 0; tools[t]; t++) {
        char cmd[4600];
        snprintf(cmd, sizeof(cmd), "%s -sass -arch %s '%s' 2>/dev/null", tools[t], arch, exe);
        FILE *p = popen(cmd, "r");
        if (!p)
            continue;
        size_t cap = 1 << 20, n = 0;
        char *buf = (char *)malloc(cap);
        size_t got;
        while (buf && (got = fread(buf + n, 1, cap - n, p)) > 0) {
            n += got;
            if (n == cap) {
                char *nb = (char *)realloc(buf, cap * 2);
                if (!nb)
                    break;
                buf = nb;
                cap *= 2;
            }
        }
        int st = pclose(p);
        if (!buf || st != 0 || n == 0) {
            free(buf);
            continue;
        }
        gc_sass_t *s = NULL;
        gc_err_t e;
        if (gc_sass_parse(&s, buf, n, &e) != 0) {
            snprintf(reason, sizeof(reason), "cuobjdump output not understood: %s", e.msg);
            free(buf);
            *why = reason;
            return NULL;
        }
        free(buf);
        return s;
    }
    snprintf(reason, sizeof(reason), "cuobjdump not found or no %s code in this binary", arch);
    *why = reason;
    return NULL;
}

static void slug(const char *name, char *out, size_t n)
{
    size_t j = 0;
    for (const char *p = name; *p && j + 1 < n; p++) {
        char c = *p;
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out[j++] = c;
        else if (j && out[j - 1] != '-')
            out[j++] = '-';
    }
    while (j && out[j - 1] == '-')
        j--;
    out[j] = '\0';
}

typedef struct outcome {
    const char *name;
    const char *status;
    long rows;
    double seconds;
    char msg[GC_ERR_MSG_MAX];
} outcome_t;

/* Drop a line the interrupted run left without its newline. */
static int cut_partial_line(const char *part, gc_err_t *err)
{
    FILE *fp = fopen(part, "r+b");
    if (!fp)
        return gc_err_set(err, GC_EIO, "%s: cannot open: %s", part, strerror(errno));
    long size = fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1, keep = size;
    while (keep > 0) {
        fseek(fp, keep - 1, SEEK_SET);
        if (fgetc(fp) == '\n')
            break;
        keep--;
    }
    int rc = 0;
    if (keep != size && ftruncate(fileno(fp), keep) != 0)
        rc = gc_err_set(err, GC_EIO, "%s: cannot cut the partial last line", part);
    fclose(fp);
    return rc;
}

/* --resume: reopen DIR/<bench>.csv.part after its complete rows and set
 * ctx->res so the bench skips them. *fresh = 1 when the part holds nothing
 * to keep (the bench starts over). */
static int resume_trace(gc_mctx_t *ctx, const gc_bench_t *b, const char *path,
                        gc_trace_writer_t **w, int *fresh, gc_err_t *err)
{
    char part[4200];
    snprintf(part, sizeof(part), "%s.part", path);
    *fresh = 0;
    if (!b->resumable) {
        fprintf(stderr, "[%s] resume: this bench cannot resume; measuring it again\n", b->name);
        unlink(part);
        *fresh = 1;
        return 0;
    }
    int rc = cut_partial_line(part, err);
    if (rc)
        return rc;
    gc_trace_reader_t *r;
    gc_err_t e;
    if (gc_trace_open(&r, part, &e) != 0) {
        fprintf(stderr, "[%s] resume: nothing to keep (%s); measuring it again\n", b->name, e.msg);
        unlink(part);
        *fresh = 1;
        return 0;
    }
    const char *q = gc_trace_meta(r, "quick"), *f = gc_trace_meta(r, "full");
    const char *reps = gc_trace_meta(r, "reps");
    if (!q || !f || !reps || atoi(q) != ctx->quick || atoi(f) != ctx->full ||
        atoi(reps) != ctx->reps) {
        gc_trace_close(r);
        return gc_err_set(err, GC_EUSAGE,
                          "%s: was measured with other options (quick %s, full %s, reps %s): "
                          "resume with the same options, or remove the file",
                          part, q ? q : "?", f ? f : "?", reps ? reps : "?");
    }
    gc_resume_t *res = &ctx->res;
    memset(res, 0, sizeof(*res));
    res->header_end = gc_trace_offset(r);
    long cap = 0;
    while ((rc = gc_trace_next(r, &e)) > 0) {
        if (res->rows == cap) {
            cap = cap ? 2 * cap : 1024;
            long *o = (long *)realloc(res->offsets, (size_t)cap * sizeof(long));
            if (!o) {
                gc_trace_close(r);
                return gc_err_set(err, GC_ENOMEM, "out of memory");
            }
            res->offsets = o;
        }
        res->offsets[res->rows++] = gc_trace_offset(r);
    }
    if (rc < 0)
        fprintf(stderr, "[%s] resume: keeping the %ld rows before an unreadable line (%s)\n",
                b->name, res->rows, e.msg);
    long keep = res->rows ? res->offsets[res->rows - 1] : res->header_end;
    rc = gc_trace_reopen(w, path, r, keep, res->rows, ctx->force ? GC_TRACE_FORCE : 0, err);
    gc_trace_close(r);
    if (rc)
        return rc;
    res->active = 1;
    res->w = *w;
    fprintf(stderr, "[%s] resume: %ld rows kept from the interrupted run\n", b->name, res->rows);
    return 0;
}

/* Open DIR/<bench>.csv (or resume its .part) and write the header every
 * trace carries. */
static int open_trace(gc_mctx_t *ctx, const gc_bench_t *b, gc_trace_writer_t **w, gc_err_t *err)
{
    char path[4096], part[4200];
    snprintf(path, sizeof(path), "%s/%s.csv", ctx->out_dir, b->name);
    snprintf(part, sizeof(part), "%s.part", path);
    int rc, fresh = 1;
    memset(&ctx->res, 0, sizeof(ctx->res));
    if (ctx->resume && access(part, F_OK) == 0) {
        rc = resume_trace(ctx, b, path, w, &fresh, err);
        if (rc)
            return rc;
    }
    if (fresh) {
        if (ctx->force)
            unlink(part);
        rc = gc_trace_create(w, path, ctx->force ? GC_TRACE_FORCE : 0, err);
        if (rc)
            return rc;
    }
    static char sass[16384]; /* one metadata line; the trace line limit is 64 KiB */
    const gc_sass_rule_t *rules = b->sass;
    int n_rules = b->n_sass;
    if (b->sass_plan)
        n_rules = b->sass_plan(ctx->dev.cc_major * 10 + ctx->dev.cc_minor, &rules);
    if (n_rules <= 0)
        snprintf(sass, sizeof(sass), "none: this bench times no specific opcode");
    else if (!ctx->sass)
        snprintf(sass, sizeof(sass), "skipped: %s", ctx->sass_skip);
    else if (gc_sass_check(ctx->sass, rules, n_rules, sass, sizeof(sass)) != 0)
        fprintf(stderr, "gpucal measure: warning: %s: SASS check %s\n", b->name, sass);
    const gc_devinfo_t *d = &ctx->dev;
    gc_trace_writer_t *t = *w;
    rc = gc_trace_put_meta(t, "bench", "%s", b->name);
    rc = rc ? rc : gc_trace_put_meta(t, "device", "%s", d->name);
    rc = rc ? rc : gc_trace_put_meta(t, "cc", "%d.%d", d->cc_major, d->cc_minor);
    rc = rc ? rc : gc_trace_put_meta(t, "sms", "%d", d->sms);
    rc = rc ? rc : gc_trace_put_meta(t, "sm_clock_mhz", "%.1f", ctx->clock_mhz);
    rc = rc ? rc : gc_trace_put_meta(t, "driver", "%s (CUDA driver API %d.%d)",
                                     d->kernel_driver[0] ? d->kernel_driver : "unknown",
                                     d->driver / 1000, d->driver % 1000 / 10);
    rc = rc ? rc : gc_trace_put_meta(t, "cuda", "%d.%d", d->runtime / 1000, d->runtime % 1000 / 10);
    rc = rc ? rc : gc_trace_put_meta(t, "date", "%s", ctx->date);
    rc = rc ? rc : gc_trace_put_meta(t, "gpucal", "%s", GPUCAL_VERSION);
    rc = rc ? rc : gc_trace_put_meta(t, "command", "%s", ctx->command);
    rc = rc ? rc : gc_trace_put_meta(t, "sass_check", "%s", sass);
    rc = rc ? rc : gc_trace_put_meta(t, "reps", "%d", ctx->reps);
    rc = rc ? rc : gc_trace_put_meta(t, "quick", "%d", ctx->quick);
    rc = rc ? rc : gc_trace_put_meta(t, "full", "%d", ctx->full);
    rc = rc ? rc : gc_trace_put_meta(t, "l2_bytes", "%ld", d->l2_bytes);
    rc = rc ? rc : gc_trace_put_meta(t, "smem_optin_bytes", "%ld", d->smem_optin_bytes);
    rc = rc ? rc : gc_trace_put_meta(t, "mem_bus_bits", "%d", d->mem_bus_bits);
    if (!rc && d->mem_clock_mhz > 0)
        rc = gc_trace_put_meta(t, "mem_clock_mhz", "%.0f", d->mem_clock_mhz);
    if (!rc && d->clock_max_mhz > 0)
        rc = gc_trace_put_meta(t, "clock_max_mhz", "%.0f", d->clock_max_mhz);
    if (rc) {
        *err = *gc_trace_writer_err(t);
        gc_trace_abandon(t);
        *w = NULL;
    }
    return rc;
}

static int run_bench(gc_mctx_t *ctx, const gc_bench_t *b, outcome_t *o)
{
    gc_err_t err;
    gc_err_clear(&err);
    double t0 = gc_host_seconds();
    ctx->bench = b->name;
    ctx->progress_last = 0;
    double host_mhz = 0;
    int rc = gc_clock_measure2(50.0, &ctx->clock_mhz, &host_mhz, &err);
    gc_trace_writer_t *w = NULL;
    if (!rc)
        rc = open_trace(ctx, b, &w, &err);
    if (!rc)
        rc = gc_trace_put_meta(w, "sm_clock_host_mhz", "%.1f", host_mhz);
    if (!rc && fabs(host_mhz - ctx->clock_mhz) > 0.01 * host_mhz) {
        fprintf(stderr, "gpucal measure: warning: %s: the SM clock reads %.1f MHz against "
                        "%%globaltimer but %.1f MHz against the host clock\n",
                b->name, ctx->clock_mhz, host_mhz);
        rc = gc_trace_put_meta(w, "clock_check", "globaltimer %.1f MHz vs host %.1f MHz: "
                               "more than 1 %% apart", ctx->clock_mhz, host_mhz);
    }
    if (!rc)
        rc = b->run(ctx, w, &err);
    if (!rc && ctx->res.active) /* the interrupted run had rows this run did not produce */
        gc_resume_skip(ctx, ctx->res.rows + 1);
    if (!rc && ctx->res.w)
        rc = gc_trace_put_meta(w, "note", "resumed on %s: %ld rows kept from the interrupted run",
                               ctx->date, ctx->res.done);
    free(ctx->res.offsets);
    ctx->res.offsets = NULL;
    double end_mhz = 0;
    if (!rc && gc_clock_measure(20.0, &end_mhz, &err) == 0)
        rc = gc_trace_put_meta(w, "sm_clock_end_mhz", "%.1f", end_mhz);
    o->rows = w ? gc_trace_written(w) : 0;
    if (!rc) {
        rc = gc_trace_finish(w, &err);
        w = NULL;
    }
    if (w)
        gc_trace_abandon(w); /* keeps <bench>.csv.part with every row measured */
    o->name = b->name;
    o->seconds = gc_host_seconds() - t0;
    o->status = rc ? "FAILED" : "ok";
    snprintf(o->msg, sizeof(o->msg), "%s", rc ? err.msg : "");
    if (rc)
        fprintf(stderr, "gpucal measure: %s: %s\n", b->name, err.msg);
    return rc;
}

/* The options into ctx (*list: the --bench list, *dev: --device); -1 to go
 * on, else the exit status (help or the bench list printed, a usage error). */
static int parse_args(int argc, char **argv, gc_mctx_t *ctx, const char **list, int *dev)
{
    static const struct option opts[] = {
        {"bench", required_argument, NULL, 'b'}, {"out", required_argument, NULL, 'o'},
        {"quick", no_argument, NULL, 'q'},       {"full", no_argument, NULL, 'F'},
        {"force", no_argument, NULL, 'f'},       {"reps", required_argument, NULL, 'r'},
        {"device", required_argument, NULL, 'd'}, {"list", no_argument, NULL, 'l'},
        {"resume", no_argument, NULL, 'R'},
        {"help", no_argument, NULL, 'h'},        {NULL, 0, NULL, 0}};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "b:o:qFfRr:d:lh", opts, NULL)) != -1) {
        switch (c) {
        case 'b': *list = optarg; break;
        case 'o': ctx->out_dir = optarg; break;
        case 'q': ctx->quick = 1; break;
        case 'F': ctx->full = 1; break;
        case 'f': ctx->force = 1; break;
        case 'R': ctx->resume = 1; break;
        case 'r': ctx->reps = atoi(optarg);
            if (ctx->reps < 1 || ctx->reps > 1000) {
                fprintf(stderr, "gpucal measure: --reps takes 1..1000, got '%s' (see `gpucal measure --help`)\n", optarg);
                return 2;
            }
            break;
        case 'd': *dev = atoi(optarg); break;
        case 'l': list_benches(); return 0;
        case 'h': usage(stdout); return 0;
        default:
            fprintf(stderr, "gpucal measure: unknown option '%s' (see `gpucal measure --help`)\n",
                    argv[optind - 1]);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gpucal measure: unexpected argument '%s' (see `gpucal measure --help`)\n",
                argv[optind]);
        return 2;
    }
    return -1;
}

/* The benches of the comma-separated list ("all": every one built in) into
 * sel, each once; checked before the GPU is touched. 0, or 2 after the
 * message. */
static int select_benches(const char *list, const gc_bench_t **sel, int *nsel)
{
    *nsel = 0;
    if (!strcmp(list, "all")) {
        for (int i = 0; i < NBENCH; i++)
            if (benches[i].bench)
                sel[(*nsel)++] = benches[i].bench;
        return 0;
    }
    char *dup = strdup(list), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(dup, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
        int known;
        const gc_bench_t *b = find_bench(tok, &known);
        if (!known) {
            fprintf(stderr, "gpucal measure: unknown bench '%s' (see `gpucal measure --list`)\n", tok);
            rc = 2;
        } else if (!b) {
            fprintf(stderr, "gpucal measure: bench '%s' is not built into this binary\n", tok);
            rc = 2;
        }
        for (int j = 0; !rc && j < *nsel; j++)
            if (sel[j] == b)
                b = NULL;
        if (!rc && b && *nsel < 64)
            sel[(*nsel)++] = b;
    }
    free(dup);
    return rc;
}

/* Refuse up front rather than after minutes of measuring: a finished trace
 * (unless --force; with --resume it is kept: keep[i]) or an interrupted one
 * (unless --resume or --force). 0, or 2 after the message. */
static int refuse_existing(const gc_mctx_t *ctx, const gc_bench_t *const *sel, int nsel,
                           int *keep)
{
    for (int i = 0; i < nsel && !ctx->force; i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s.csv", ctx->out_dir, sel[i]->name);
        if (access(path, F_OK) == 0) {
            if (ctx->resume) {
                keep[i] = 1; /* finished in the interrupted run */
                continue;
            }
            fprintf(stderr, "gpucal measure: %s exists; refusing to overwrite it (pass --force, or choose another --out)\n", path);
            return 2;
        }
        strcat(path, ".part");
        if (!ctx->resume && access(path, F_OK) == 0) {
            fprintf(stderr, "gpucal measure: %s holds an interrupted run (pass --resume to continue it, or --force to start over)\n", path);
            return 2;
        }
    }
    return 0;
}

/* Run the selected benches (those kept or needing a newer GPU noted) and
 * print the summary table; 1 if any failed. */
static int run_selected(gc_mctx_t *ctx, const gc_bench_t *const *sel, int nsel, const int *keep)
{
    int cc = ctx->dev.cc_major * 10 + ctx->dev.cc_minor;
    double t0 = gc_host_seconds();
    outcome_t out[64];
    int failed = 0;
    for (int i = 0; i < nsel; i++) {
        if (keep[i] || (sel[i]->min_cc && cc < sel[i]->min_cc)) {
            out[i].name = sel[i]->name;
            out[i].status = keep[i] ? "kept" : "skipped";
            out[i].rows = 0;
            out[i].seconds = 0;
            if (keep[i])
                snprintf(out[i].msg, sizeof(out[i].msg), "complete before --resume");
            else
                snprintf(out[i].msg, sizeof(out[i].msg), "needs cc >= %d.%d",
                         sel[i]->min_cc / 10, sel[i]->min_cc % 10);
            continue;
        }
        failed |= run_bench(ctx, sel[i], &out[i]) != 0;
    }
    double wall = gc_host_seconds() - t0;
    printf("\n%-12s %-8s %8s %9s  %s\n", "bench", "status", "rows", "seconds", "note");
    for (int i = 0; i < nsel; i++)
        printf("%-12s %-8s %8ld %9.1f  %s\n", out[i].name, out[i].status, out[i].rows,
               out[i].seconds, out[i].msg);
    printf("wall time %.1f s on %s; traces in %s\n", wall, ctx->dev.name, ctx->out_dir);
    return failed;
}

int main(int argc, char **argv)
{
    gc_mctx_t ctx;
    memset(&ctx, 0, sizeof(ctx));
    const char *list = "all";
    int dev = 0;
    int st = parse_args(argc, argv, &ctx, &list, &dev);
    if (st >= 0)
        return st;
    const gc_bench_t *sel[64];
    int nsel = 0;
    if (select_benches(list, sel, &nsel))
        return 2;
    if (!ctx.reps)
        ctx.reps = ctx.quick ? 5 : 9;
    size_t at = 0;
    for (int i = 0; i < argc && at < sizeof(ctx.command) - 1; i++) {
        int k = snprintf(ctx.command + at, sizeof(ctx.command) - at, "%s%s", i ? " " : "",
                         i ? argv[i] : "gpucal measure");
        if (k > 0)
            at += (size_t)k;
    }
    time_t now = time(NULL);
    strftime(ctx.date, sizeof(ctx.date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    ctx.progress_tty = isatty(2);

    gc_err_t err;
    gc_err_clear(&err);
    if (devinfo(dev, &ctx.dev, &err) != 0) {
        fprintf(stderr, "gpucal measure: %s\n", err.msg);
        return 1;
    }
    char defdir[512];
    if (!ctx.out_dir) {
        char s[256];
        slug(ctx.dev.name, s, sizeof(s));
        snprintf(defdir, sizeof(defdir), "traces/%s", s);
        ctx.out_dir = defdir;
    }
    if (gc_mkdir_p(ctx.out_dir, &err) != 0) {
        fprintf(stderr, "gpucal measure: %s\n", err.msg);
        return 1;
    }
    int keep[64] = {0};
    if (refuse_existing(&ctx, sel, nsel, keep))
        return 2;
    gc_sass_t *sass = load_sass(&ctx.dev, &ctx.sass_skip);
    ctx.sass = sass;
    fprintf(stderr, "gpucal measure: %s (cc %d.%d, %d SMs), %d bench(es) -> %s%s\n",
            ctx.dev.name, ctx.dev.cc_major, ctx.dev.cc_minor, ctx.dev.sms, nsel, ctx.out_dir,
            sass ? "" : " (SASS check skipped)");
    int failed = run_selected(&ctx, sel, nsel, keep);
    gc_sass_destroy(sass);
    return failed ? 1 : 0;
}
