/* calib.c - the calibration driver (see calib.h): finds the traces of a
 * folder, checks that they describe one device, runs each bench's handler
 * (bench_sweep.c, bench_memory.c) and completes the arch with the device
 * facts of the headers and the provenance. */
#define _POSIX_C_SOURCE 200809L
#include "calib.h"
#include "numerics.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench.h"
#include "fine.h"
#include "../traces/benches.h"

#ifndef GPUCAL_VERSION
#define GPUCAL_VERSION "0.0.0"
#endif

/* ---- the benches calib reads (their columns: traces/benches.c) ---- */

typedef struct bench_def {
    const char *name;
    gc_bench_fn fn;
    const char *keys; /* what it gives (the line printed when it is missing) */
} bench_def_t;

/* the order handlers run in (smem before pchase: the shared latency) */
static const bench_def_t benches[] = {
    {"mma", gc_bench_tensor, "tensor entries of mma/wmma, sm.sub_cores"},
    {"mma_sp", gc_bench_tensor, "tensor entries of mma.sp"},
    {"wgmma", gc_bench_tensor, "tensor entries of wgmma"},
    {"alu", gc_bench_alu, "alu entries"},
    {"ldmatrix", gc_bench_ldmatrix, "ldmatrix entries"},
    {"smem", gc_bench_smem, "memory.shared latency, conflicts, conflict_cyc"},
    {"tma", gc_bench_tma, "memory.tma.latency_cyc, bw_gbs"},
    {"dsm", gc_bench_dsm, "memory.dsm"},
    {"dpx", gc_bench_dpx, "dpx entries"},
    {"coissue", gc_bench_coissue, "sm.overlap_tensor_fma, _alu, _xu, _ldsm, _shfl"},
    {"pchase", gc_bench_pchase, "memory.l1/l2/dram latencies and sizes, memory.tma latency"},
    {"pchase_fine", gc_bench_fine, "memory.l2 near/far hit/miss latencies, partitions, near_share"},
    {"bw", gc_bench_bw, "bandwidths of l1, shared, l2, dram"},
    {"clock", gc_bench_clock, "sm.clock_tensor_mhz, sm.clock_mma_mhz, sm.clock_fma_mhz, sm.clock_memory_mhz, sm.tensor_clock"},
    {"launch", gc_bench_launch, "sm.launch_overhead_us"},
    {"cold", gc_bench_cold, "sm.const_miss_cyc, sm.code_miss_cyc"},
};
#define NBENCH ((int)(sizeof(benches) / sizeof(benches[0])))

/* How bench `name`'s trace is read: the fine P-chase (one row per access)
 * aggregated as it streams (calib/fine.h), every other one row by row. */
static const gc_table_sink_t *sink_of(const char *name)
{
    return !strcmp(name, "pchase_fine") ? &gc_fine_sink : NULL;
}

#define CONTRACT_MAX 64

/* The contract calib reads bench `name`'s trace with: the columns of the
 * bench table it reads, in trace order, with their kinds and ranges.
 * Returns the count (0: no such bench in the table, a gpucal bug). */
static int contract(const char *name, gc_col_t *cols)
{
    const gc_bench_spec_t *b = gc_bench_spec(name);
    static const int kinds[] = {GC_COL_TEXT, GC_COL_NUM, GC_COL_WHOLE};
    int n = 0;
    for (int i = 0; b && i < b->ncols && n < CONTRACT_MAX; i++) {
        const gc_bench_col_t *c = &b->cols[i];
        if (c->use == GC_BCOL_UNREAD)
            continue;
        cols[n++] = (gc_col_t){c->name, kinds[c->type], c->lo, c->strict, c->choices,
                               c->use == GC_BCOL_OPTIONAL};
    }
    return n;
}

/* "mma, mma_sp, ..." into buf */
static const char *bench_list(char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < NBENCH && at < n; i++) {
        int w = snprintf(buf + at, n - at, "%s%s", i ? ", " : "", benches[i].name);
        if (w < 0)
            break;
        at += (size_t)w;
    }
    return buf;
}

static const bench_def_t *find_bench(const char *name)
{
    for (int i = 0; i < NBENCH; i++)
        if (!strcmp(benches[i].name, name))
            return &benches[i];
    return NULL;
}

/* ---- helpers shared with the handlers (bench.h) ---- */

/* round v to `sig` significant digits at the decimal place of `ref`;
 * dir -1 down, 0 nearest, +1 up */
static double round_at(double v, double ref, int sig, int dir)
{
    if (v == 0 || !isfinite(v) || ref == 0)
        return v;
    int e = (int)floor(log10(fabs(ref)));
    int d = sig - 1 - e; /* decimals kept */
    if (d > 12)
        d = 12;
    double s = pow(10.0, d);
    double x = v * s;
    x = dir < 0 ? floor(x) : dir > 0 ? ceil(x) : round(x);
    return x / s;
}

void gc_calib_put(gc_calib_ctx_t *c, gc_qty_t *q, double v, double lo, double hi, const char *src,
                  const char *note)
{
    double ref = fabs(v);
    if (lo <= hi) {
        ref = fabs(lo) > ref ? fabs(lo) : ref;
        ref = fabs(hi) > ref ? fabs(hi) : ref;
    }
    double rv = round_at(v, ref, 5, 0);
    if (lo <= hi) {
        lo = round_at(lo, ref, 5, -1);
        hi = round_at(hi, ref, 5, +1);
        lo = lo < rv ? lo : rv;
        hi = hi > rv ? hi : rv;
    }
    gc_qty_put(c->a, q, rv, lo, hi, src);
    if (note)
        q->note = gc_arch_str(c->a, note);
}

void gc_calib_put_count(gc_calib_ctx_t *c, gc_qty_t *q, double v, const char *src, const char *note)
{
    gc_qty_put(c->a, q, v, 1, 0, src);
    if (note)
        q->note = gc_arch_str(c->a, note);
}

const char *gc_calib_str(gc_calib_ctx_t *c, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return gc_arch_str(c->a, buf);
}

void gc_calib_info(gc_calib_ctx_t *c, const char *fmt, ...)
{
    if (c->o->quiet || !c->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(c->log, "calib: ");
    vfprintf(c->log, fmt, ap);
    fprintf(c->log, "\n");
    va_end(ap);
}

void gc_calib_leave_out(gc_calib_ctx_t *c, const char *file, long line, const char *fmt, ...)
{
    c->n_left_out++;
    if (!c->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    if (line > 0)
        fprintf(c->log, "%s:%ld: warning: ", file, line);
    else
        fprintf(c->log, "%s: warning: ", file);
    vfprintf(c->log, fmt, ap);
    fprintf(c->log, "\n");
    va_end(ap);
}

void *gc_calib_grow(gc_calib_ctx_t *c, void **list, size_t *count, size_t elem, size_t n)
{
    char *p = gc_arch_list(c->a, elem, *count + n);
    if (!p)
        return NULL;
    if (*count)
        memcpy(p, *list, *count * elem);
    *list = p;
    void *first = p + *count * elem;
    *count += n;
    return first;
}

const char *gc_calib_bytes(double b, char *buf, size_t n)
{
    const double mib = 1048576.0, kib = 1024.0;
    if (b >= mib && fmod(b, mib / 4) == 0)
        snprintf(buf, n, "%g MiB", b / mib);
    else if (b >= kib && fmod(b, kib) == 0)
        snprintf(buf, n, "%g KiB", b / kib);
    else
        snprintf(buf, n, "%.0f B", b);
    return buf;
}

/* ---- device facts ---- */

static const char *family_of(const char *cc)
{
    int maj, min;
    if (gc_trace_parse_cc(cc, &maj, &min) != 0)
        return NULL;
    if (maj == 7 && min == 5)
        return "turing";
    if (maj == 8 && (min == 0 || min == 6 || min == 7))
        return "ampere";
    if (maj == 8 && min == 9)
        return "ada";
    if (maj == 9 && min == 0)
        return "hopper";
    if (maj == 10 || maj == 11 || maj == 12) /* 11.x: Thor after the CUDA 13 renumbering */
        return "blackwell";
    return NULL;
}

typedef struct trace_file {
    char *name; /* file name in the folder */
    char *path; /* folder/name */
    const bench_def_t *def;
} trace_file_t;

typedef struct facts {
    const char *first; /* the trace that set device/cc/sms */
    char device[256], cc[16], date[64];
    double sms;
    double l2_bytes, smem_optin, bus_bits, mem_clock;
    const char *l2_src, *optin_src, *bus_src, *memclk_src;
    double clock; /* highest header sm_clock_mhz */
    const char *clock_src;
    double clock_max; /* header clock_max_mhz (the device's boost clock) */
    const char *clock_max_src;
} facts_t;

static int meta_err(gc_trace_reader_t *r, const char *key, gc_err_t *err, const char *fmt,
                    const char *a, const char *b)
{
    long line = gc_trace_meta_line(r, key);
    return gc_err_at(err, GC_EINPUT, gc_trace_path(r), line > 0 ? line : 1, line > 0 ? 3 : 0, fmt,
                     a, b);
}

/* read the header facts of one trace into f (checking it agrees) */
static int header_facts(gc_trace_reader_t *r, const char *shown, facts_t *f, gc_err_t *err)
{
    const char *dev = gc_trace_meta(r, "device"), *cc = gc_trace_meta(r, "cc");
    double sms;
    if (!dev)
        return gc_err_at(err, GC_EINPUT, gc_trace_path(r), 1, 0,
                         "metadata key 'device' is missing from the header (traces/README.md "
                         "lists the required keys)");
    if (!cc)
        return gc_err_at(err, GC_EINPUT, gc_trace_path(r), 1, 0,
                         "metadata key 'cc' is missing from the header (traces/README.md "
                         "lists the required keys)");
    int rc = gc_trace_meta_num(r, "sms", &sms, err);
    if (rc)
        return rc;
    /* the values themselves were range-checked by the reader at their lines
     * (key_ranges in traces/trace.c, traces/README.md "Header values") */
    if (!family_of(cc))
        return meta_err(r, "cc", err,
                        "cc '%.16s' is not a compute capability gpucal-arch/1 has a family "
                        "for (7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.x-12.x)%s",
                        cc, "");
    if (!f->first) {
        f->first = shown;
        snprintf(f->device, sizeof(f->device), "%s", dev);
        snprintf(f->cc, sizeof(f->cc), "%s", cc);
        f->sms = sms;
    } else if (strcmp(dev, f->device) || strcmp(cc, f->cc) || sms != f->sms) {
        const char *key = strcmp(dev, f->device) ? "device" : strcmp(cc, f->cc) ? "cc" : "sms";
        return meta_err(r, key, err,
                        "%s differs from %s: one folder holds the traces of one GPU (move the "
                        "other traces to their own folder)",
                        key, f->first);
    }
    const char *date = gc_trace_meta(r, "date");
    if (date && strcmp(date, f->date) > 0)
        snprintf(f->date, sizeof(f->date), "%s", date);
    static const char *const keys[] = {"l2_bytes", "smem_optin_bytes", "mem_bus_bits",
                                       "mem_clock_mhz", "clock_max_mhz"};
    double *dst[] = {&f->l2_bytes, &f->smem_optin, &f->bus_bits, &f->mem_clock, &f->clock_max};
    const char **srcs[] = {&f->l2_src, &f->optin_src, &f->bus_src, &f->memclk_src,
                           &f->clock_max_src};
    for (int k = 0; k < 5; k++) {
        if (!gc_trace_meta(r, keys[k]))
            continue;
        double v;
        if ((rc = gc_trace_meta_num(r, keys[k], &v, err)) != 0)
            return rc;
        if (!*dst[k]) {
            *dst[k] = v;
            *srcs[k] = shown;
        }
    }
    if (gc_trace_meta(r, "sm_clock_mhz")) {
        double v;
        if ((rc = gc_trace_meta_num(r, "sm_clock_mhz", &v, err)) != 0)
            return rc;
        if (v > f->clock) {
            f->clock = v;
            f->clock_src = shown;
        }
    }
    return 0;
}

/* ---- the folder ---- */

static int by_name(const void *a, const void *b)
{
    return strcmp(((const trace_file_t *)a)->name, ((const trace_file_t *)b)->name);
}

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n > m && !strcmp(s + n - m, suf);
}

static void free_files(trace_file_t *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(f[i].name);
        free(f[i].path);
    }
    free(f);
}

/* Folder entry nm of dir: 1 and *pathp (malloc'd) for a trace to read, 0
 * for one to pass over (a note in log, *skipped counted, for a compressed
 * or interrupted trace), or an error (a .csv that cannot be opened). */
static int take_entry(const char *dir, const char *nm, FILE *log, char **pathp, int *skipped,
                      gc_err_t *err)
{
    *pathp = NULL;
    if (nm[0] == '.')
        return 0;
    size_t plen = strlen(dir) + strlen(nm) + 2;
    char *path = malloc(plen);
    if (!path)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    snprintf(path, plen, "%s/%s", dir, nm);
    struct stat st;
    if (stat(path, &st) != 0 && !ends_with(nm, ".csv"))
        st.st_mode = 0; /* not a trace name: skipped below */
    else if (stat(path, &st) != 0) { /* a dangling link, a loop */
        int rc = gc_err_set(err, GC_EINPUT, "%s: cannot open: %s (fix or remove it)", path,
                            strerror(errno));
        free(path);
        return rc;
    }
    if (S_ISREG(st.st_mode) && (ends_with(nm, ".csv.gz") || ends_with(nm, ".csv.part"))) {
        if (log)
            fprintf(log, "calib: %s: skipped (%s)\n", path,
                    ends_with(nm, ".gz") ? "compressed: calib reads plain .csv; "
                                           "gunzip it first"
                                         : "an interrupted bench: finish it with "
                                           "`gpucal measure --resume`");
        (*skipped)++;
    }
    if (!S_ISREG(st.st_mode) || !ends_with(nm, ".csv")) {
        free(path);
        return 0;
    }
    *pathp = path;
    return 1;
}

/* Append trace name nm at path (taken over) to f (n used of *cap). */
static int add_file(trace_file_t **f, size_t *n, size_t *cap, const char *nm, char *path)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        trace_file_t *g = realloc(*f, nc * sizeof(*g));
        if (!g)
            return -1;
        *f = g;
        *cap = nc;
    }
    trace_file_t *t = &(*f)[*n];
    t->name = malloc(strlen(nm) + 1);
    if (!t->name)
        return -1;
    memcpy(t->name, nm, strlen(nm) + 1);
    t->path = path;
    t->def = NULL;
    (*n)++;
    return 0;
}

static int list_folder(const char *dir, trace_file_t **out, size_t *nout, FILE *log, gc_err_t *err)
{
    *out = NULL;
    *nout = 0;
    DIR *d = opendir(dir);
    if (!d)
        return gc_err_set(err,
                          errno == ENOENT || errno == ENOTDIR || errno == ELOOP ||
                                  errno == EACCES || errno == ENAMETOOLONG
                              ? GC_EINPUT
                              : GC_EIO,
                          "%s: cannot open the trace folder: %s (check the path)", dir,
                          strerror(errno));
    trace_file_t *f = NULL;
    size_t n = 0, cap = 0;
    int skipped = 0, rc = 0;
    struct dirent *de;
    while (!rc && (de = readdir(d))) {
        char *path;
        rc = take_entry(dir, de->d_name, log, &path, &skipped, err);
        if (rc == 1 && (rc = add_file(&f, &n, &cap, de->d_name, path)) != 0) {
            free(path);
            rc = gc_err_set(err, GC_ENOMEM, "out of memory");
        }
    }
    closedir(d);
    if (rc) {
        free_files(f, n);
        return rc;
    }
    if (n == 0) {
        free(f);
        return gc_err_set(err, GC_EINPUT, "%s: no traces (*.csv) in the folder%s", dir,
                          skipped ? " that calib can read (see the lines above)"
                                  : " (give the folder `gpucal measure --out` wrote)");
    }
    qsort(f, n, sizeof(*f), by_name);
    *out = f;
    *nout = n;
    return 0;
}

/* ---- the round trip: what calib writes must load ---- */

/* A calibrated value outside the physical range of its key
 * (arch/README.md, bounds) comes from traces that are not those of one real
 * GPU (a hand-edited header, rows of another device): bad input, reported
 * at the source the value names ("FILE:LINE: ..." where it has a line). */
static int out_of_bounds(const gc_arch_item_t *it, void *ctx)
{
    const gc_qty_t *q = it->q;
    if (q->v >= it->lo && q->v <= it->hi)
        return 0;
    gc_err_t *err = ctx;
    const char *src = q->src ? q->src : "?";
    char file[512];
    const char *c1 = strchr(src, ':');
    char *end = NULL;
    long line = c1 ? strtol(c1 + 1, &end, 10) : 0;
    size_t fn = c1 ? (size_t)(c1 - src) : 0;
    const char *why = "is outside its physical range";
    if (line > 0 && end && *end == ':' && fn < sizeof(file)) {
        memcpy(file, src, fn);
        file[fn] = '\0';
        return gc_err_at(err, GC_EINPUT, file, line, 0,
                         "%s = %g %s (from%s) %s [%g, %g] (arch/README.md, bounds): the traces "
                         "are not those of one real GPU; check this row and the headers",
                         it->key, q->v, it->unit, end + 1, why, it->lo, it->hi);
    }
    return gc_err_set(err, GC_EINPUT,
                      "%s = %g %s (from %s) %s [%g, %g] (arch/README.md, bounds): the traces "
                      "are not those of one real GPU; check them",
                      it->key, q->v, it->unit, src, why, it->lo, it->hi);
}

static int self_check(const gc_arch_t *a, gc_err_t *err)
{
    if (gc_arch_walk(a, 0, out_of_bounds, err))
        return err ? err->code : GC_EINPUT;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    if (!fp)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int rc = gc_arch_emit(a, fp, err);
    fclose(fp);
    if (!rc) {
        gc_arch_t *b;
        gc_err_t e;
        gc_err_clear(&e);
        if (gc_arch_parse(&b, "<calibrated arch>", buf, len, &e) != 0)
            rc = gc_err_set(err, GC_ERUN,
                            "the calibrated arch does not validate (a calib bug: "
                            "please report it): %s",
                            e.msg);
        else
            gc_arch_destroy(b);
    }
    free(buf);
    return rc;
}

/* ---- the run ---- */

static void finish_device(gc_calib_ctx_t *c, const facts_t *f)
{
    gc_arch_t *a = c->a;
    gc_calib_put_count(c, &a->sm.count, f->sms, gc_calib_str(c, "%s: header sms", f->first), NULL);
    if (f->optin_src)
        gc_calib_put(c, &a->sm.shared_block_max_kib, f->smem_optin / 1024, 1, 0,
                     gc_calib_str(c, "%s: header smem_optin_bytes", f->optin_src), NULL);
    if (f->bus_src)
        gc_calib_put_count(c, &a->memory.dram.bus_bits, f->bus_bits,
                           gc_calib_str(c, "%s: header mem_bus_bits", f->bus_src), NULL);
    if (f->memclk_src)
        gc_calib_put(c, &a->memory.dram.clock_mhz, f->mem_clock, 1, 0,
                     gc_calib_str(c, "%s: header mem_clock_mhz", f->memclk_src), NULL);
    if (f->l2_src && !a->memory.l2.size_mib.set)
        gc_calib_put(c, &a->memory.l2.size_mib, f->l2_bytes / 1048576.0, 1, 0,
                     gc_calib_str(c,
                                  "%s: header l2_bytes (the device's own figure; no P-chase "
                                  "inflection gave it)",
                                  f->l2_src),
                     NULL);
    /* TMA latency above a regular load of the same level: the L2 plateau */
    gc_tma_t *tma = &a->memory.tma;
    if (tma->latency_cyc.set && c->has_l2_plateau) {
        double extra = tma->latency_cyc.v - c->l2_level;
        double lo = (tma->latency_cyc.has_ci ? tma->latency_cyc.lo : tma->latency_cyc.v) - c->l2_hi,
               hi = (tma->latency_cyc.has_ci ? tma->latency_cyc.hi : tma->latency_cyc.v) - c->l2_lo;
        if (extra > 0)
            gc_calib_put(c, &tma->latency_extra_cyc, extra, lo > 0 ? lo : 0, hi,
                         gc_calib_str(c,
                                      "memory.tma.latency_cyc minus the L2 plateau of the "
                                      "classic chase (%s)",
                                      c->l2_src),
                         NULL);
        else
            gc_calib_leave_out(c, c->l2_src, 0,
                               "memory.tma.latency_extra_cyc left out: the TMA latency "
                               "(%.1f) is not above the L2 plateau (%.1f)",
                               tma->latency_cyc.v, c->l2_level);
    }
    /* sm.sub_cores: the slot count most warp-level tensor fits found, when
     * it is a strict majority (a form emulated on CUDA cores may differ) */
    int best = 0, total = 0;
    for (int s = 1; s < 9; s++) {
        total += c->slot_votes[s];
        if (c->slot_votes[s] > c->slot_votes[best])
            best = s;
    }
    if (total && 2 * c->slot_votes[best] > total)
        gc_calib_put_count(c, &a->sm.sub_cores, best,
                           gc_calib_str(c,
                                        "%s: slot count of the gc_pipe_cycles fits, chosen by "
                                        "residual: %d of the %d warp-level tensor forms whose "
                                        "fit determined it",
                                        c->slot_file, c->slot_votes[best], total),
                           NULL);
    else if (total)
        gc_calib_leave_out(c, c->slot_file, 0,
                           "sm.sub_cores left out: no slot count has a majority among the %d "
                           "warp-level tensor fits that determined one",
                           total);
    /* sm.clock_max_mhz: the device's figure in the headers, else the highest
     * clock measured (the clock bench, else the headers' sm_clock_mhz) */
    if (f->clock_max_src)
        gc_calib_put(c, &a->sm.clock_max_mhz, f->clock_max, 1, 0,
                     gc_calib_str(c, "%s: header clock_max_mhz (the device's maximum clock)",
                                  f->clock_max_src),
                     NULL);
    else if (c->clk_src)
        gc_calib_put(c, &a->sm.clock_max_mhz, c->clk, c->clk_lo, c->clk_hi, c->clk_src,
                     "a measured clock: the boost limit may be higher");
    else if (f->clock_src)
        gc_calib_put(c, &a->sm.clock_max_mhz, f->clock, 1, 0,
                     gc_calib_str(c,
                                  "%s: header sm_clock_mhz (the highest SM clock measured "
                                  "at the start of any bench)",
                                  f->clock_src),
                     "a measured clock: the boost limit may be higher");
}

static int required(gc_calib_ctx_t *c, gc_err_t *err)
{
    const gc_arch_t *a = c->a;
    if (!a->sm.sub_cores.set)
        return gc_err_set(err, GC_ENODATA,
                          "%s: cannot write an arch file: sm.sub_cores (required by "
                          "gpucal-arch/1) comes from the pipe fits of an mma sweep, and no "
                          "warp-level form determined it (see the warnings above)",
                          c->dir);
    if (!a->sm.clock_max_mhz.set)
        return gc_err_set(err, GC_ENODATA,
                          "%s: cannot write an arch file: sm.clock_max_mhz (required) needs "
                          "a clock trace or an sm_clock_mhz header",
                          c->dir);
    return 0;
}

/* One calibration run: the folder's traces sorted by bench, the device
 * facts of their headers, and what was used. */
typedef struct run {
    const gc_calib_opts_t *o;
    const char *dir; /* o->dir without trailing '/' */
    FILE *log;
    trace_file_t *files;
    size_t nfiles;
    const trace_file_t *by_bench[NBENCH];
    const char *numeric_path; /* the numeric trace, read after the benches */
    facts_t f;
    char used[512], missing[512]; /* bench names, ", "-joined */
} run_t;

/* Pass 1 on files[i]: which bench it holds (one trace per bench), and the
 * device facts of its header. *found counts the traces of a bench calib
 * reads. */
static int sort_trace(run_t *R, size_t i, int *found, gc_err_t *err)
{
    trace_file_t *tf = &R->files[i];
    gc_trace_reader_t *r;
    int rc = gc_trace_open(&r, tf->path, err);
    if (rc)
        return rc;
    const char *bench = gc_trace_meta(r, "bench");
    const bench_def_t *def = bench ? find_bench(bench) : NULL;
    int k = def ? (int)(def - benches) : -1;
    int numeric = bench && !strcmp(bench, "numeric");
    const char *first = numeric ? R->numeric_path
                        : def && R->by_bench[k] ? R->by_bench[k]->path
                                                : NULL; /* an earlier trace of this bench */
    if (!bench) {
        rc = gc_err_at(err, GC_EINPUT, tf->path, 1, 0,
                       "metadata key 'bench' is missing from the header (traces/README.md "
                       "lists the required keys)");
    } else if (!def && !numeric) {
        if (!R->o->quiet)
            fprintf(R->log, "calib: %s: skipped (bench '%s' is not one calib reads)\n", tf->path,
                    bench);
    } else if (first) {
        rc = gc_err_set(err, GC_EINPUT,
                        "%s: a second trace of bench '%s' (the first is "
                        "%s): keep one of them in the folder",
                        tf->path, bench, first);
    } else if ((rc = header_facts(r, tf->path, &R->f, err)) != 0) {
        /* every trace calib reads, the numeric one too, names one GPU */
    } else if (numeric) { /* read by the emulator's own reader, after pass 2 */
        R->numeric_path = tf->path;
    } else {
        tf->def = def;
        R->by_bench[k] = tf;
        (*found)++;
    }
    gc_trace_close(r);
    return rc;
}

/* A new arch for c named and placed from the facts. */
static int new_arch(run_t *R, gc_calib_ctx_t *c, gc_err_t *err)
{
    c->a = gc_arch_create();
    if (!c->a)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    c->o = R->o;
    c->dir = R->dir;
    c->l2_bytes = R->f.l2_bytes;
    c->sms = R->f.sms;
    gc_arch_t *a = c->a;
    a->name = gc_arch_str(a, R->o->name);
    a->family = gc_arch_str(a, family_of(R->f.cc));
    a->device = gc_arch_str(a, R->f.device);
    a->cc = gc_arch_str(a, R->f.cc);
    return 0;
}

/* Append name to the ", "-joined list l (512 bytes). */
static void list_add(char *l, const char *name)
{
    size_t at = strlen(l);
    snprintf(l + at, 512 - at, "%s%s", at ? ", " : "", name);
}

/* Pass 2: the handlers, in the order of the bench table. */
static int run_benches(run_t *R, gc_calib_ctx_t *c, gc_err_t *err)
{
    for (int k = 0; k < NBENCH; k++) {
        const trace_file_t *tf = R->by_bench[k];
        if (!tf) {
            if (!R->o->quiet)
                fprintf(R->log, "calib: no %s trace in %s: %s left out\n", benches[k].name,
                        R->dir, benches[k].keys);
            list_add(R->missing, benches[k].name);
            continue;
        }
        gc_table_t *t;
        gc_col_t cols[CONTRACT_MAX];
        int ncols = contract(benches[k].name, cols);
        int rc = gc_table_stream(&t, tf->path, cols, ncols, sink_of(benches[k].name), err);
        if (rc)
            return rc;
        rc = benches[k].fn(c, t, tf->path, err);
        gc_table_free(t);
        if (rc)
            return rc;
        list_add(R->used, benches[k].name);
    }
    return 0;
}

/* The numerics findings: the probe rows of the numeric trace, through the
 * emulator's reader (model/emulate/emulate.h), so the arch says exactly
 * what the emulator will do. */
static int run_numerics(run_t *R, gc_calib_ctx_t *c, gc_err_t *err)
{
    if (!R->numeric_path)
        return 0;
    int rc = gc_calib_numerics(R->numeric_path, c->a, err);
    if (rc == GC_ENODATA) {
        gc_calib_leave_out(c, R->numeric_path, 0, "numerics left out: no probe rows");
        return 0;
    }
    if (rc)
        return rc;
    gc_calib_info(c, "%s: %zu numerics entries", R->numeric_path, c->a->n_numerics);
    list_add(R->used, "numeric");
    return 0;
}

/* The arch's provenance: who made it, from what, what was left out. */
static void provenance(const run_t *R, gc_calib_ctx_t *c)
{
    gc_arch_t *a = c->a;
    const gc_calib_opts_t *o = R->o;
    gc_prov_t *p = &a->provenance;
    p->made_by = gc_arch_str(a, "gpucal calib: every value fitted from the traces of one GPU "
                                "(methods: calib/README.md)");
    if (R->f.date[0])
        p->date = gc_arch_str(a, R->f.date);
    p->gpucal = gc_arch_str(a, GPUCAL_VERSION);
    p->command = gc_calib_str(c, "gpucal calib %s -o %s --name %s", R->dir,
                              o->out ? o->out : "FILE", o->name);
    p->traces = gc_arch_str(a, R->dir);
    p->notes = gc_calib_str(c,
                            "benches used: %s; missing: %s; %d value%s left out where the "
                            "data could not support them (warnings at calibration). The date "
                            "is the latest trace date.",
                            R->used, R->missing[0] ? R->missing : "none", c->n_left_out,
                            c->n_left_out == 1 ? "" : "s");
}

/* Everything after the folder is listed: the two passes, the device, the
 * checks. c->a is the arch made (also on failure, for the caller to free). */
static int run_all(run_t *R, gc_calib_ctx_t *c, gc_err_t *err)
{
    int found = 0, rc = 0;
    for (size_t i = 0; i < R->nfiles && !rc; i++)
        rc = sort_trace(R, i, &found, err);
    if (rc)
        return rc;
    if (!found) {
        char list[256];
        return gc_err_set(err, GC_EINPUT, "%s: no trace of a bench calib reads (%s)", R->dir,
                          bench_list(list, sizeof(list)));
    }
    if ((rc = new_arch(R, c, err)) || (rc = run_benches(R, c, err)) ||
        (rc = run_numerics(R, c, err)))
        return rc;
    finish_device(c, &R->f);
    if ((rc = required(c, err)) != 0)
        return rc;
    provenance(R, c);
    return self_check(c->a, err);
}

int gc_calib_run(const gc_calib_opts_t *o, gc_arch_t **out, gc_err_t *err)
{
    *out = NULL;
    /* the folder as the sources name it: no trailing '/' */
    size_t dl = strlen(o->dir);
    while (dl > 1 && o->dir[dl - 1] == '/')
        dl--;
    char *dir = malloc(dl + 1);
    if (!dir)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    memcpy(dir, o->dir, dl);
    dir[dl] = '\0';
    run_t *R = calloc(1, sizeof(*R));
    gc_calib_ctx_t c;
    memset(&c, 0, sizeof(c));
    char *logbuf = NULL;
    size_t loglen = 0;
    FILE *log = R ? open_memstream(&logbuf, &loglen) : NULL;
    if (!log) {
        free(R);
        free(dir);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    c.log = log;
    R->o = o;
    R->dir = dir;
    R->log = log;
    int rc = list_folder(dir, &R->files, &R->nfiles, o->quiet ? NULL : log, err);
    if (!rc)
        rc = run_all(R, &c, err);
    if (!rc) {
        *out = c.a;
        c.a = NULL;
    }
    fclose(log);
    if (!rc && loglen && !o->silent) /* a failed run's lines would bury its one error line */
        fwrite(logbuf, 1, loglen, stderr);
    free(logbuf);
    gc_arch_destroy(c.a);
    if (R->files)
        free_files(R->files, R->nfiles);
    free(R);
    free(dir);
    return rc;
}

int gc_calib_check(const char *path, char *summary, size_t n, gc_err_t *err)
{
    gc_trace_reader_t *r;
    int rc = gc_trace_open(&r, path, err);
    if (rc)
        return rc;
    const char *bench = gc_trace_meta(r, "bench");
    const bench_def_t *def = bench ? find_bench(bench) : NULL;
    facts_t f;
    memset(&f, 0, sizeof(f));
    if (!bench)
        rc = gc_err_at(err, GC_EINPUT, path, 1, 0,
                       "metadata key 'bench' is missing from the header (traces/README.md "
                       "lists the required keys)");
    else if (!def) {
        char list[256];
        rc = meta_err(r, "bench", err, "bench '%.40s' is not one calib reads (%s)", bench,
                      bench_list(list, sizeof(list)));
    } else
        rc = header_facts(r, path, &f, err);
    gc_trace_close(r);
    if (rc)
        return rc;
    gc_table_t *t;
    gc_col_t cols[CONTRACT_MAX];
    if ((rc = gc_table_stream(&t, path, cols, contract(def->name, cols), sink_of(def->name), err)) != 0)
        return rc;
    /* run the handler on its own, silently: its located errors are input errors too */
    gc_calib_opts_t o = {.dir = ".", .name = "check", .quiet = 1};
    gc_calib_ctx_t c;
    memset(&c, 0, sizeof(c));
    c.a = gc_arch_create();
    c.o = &o;
    c.dir = ".";
    c.l2_bytes = f.l2_bytes;
    c.sms = f.sms;
    if (!c.a) {
        gc_table_free(t);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    rc = def->fn(&c, t, path, err); /* c.log NULL: no lines */
    if (!rc)
        snprintf(summary, n,
                 "bench %s, %zu rows, %s (cc %s, %g SMs); %d value%s the data "
                 "cannot support",
                 def->name, t->nrows, f.device, f.cc, f.sms, c.n_left_out,
                 c.n_left_out == 1 ? "" : "s");
    gc_table_free(t);
    gc_arch_destroy(c.a);
    return rc;
}
