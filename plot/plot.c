/* plot.c - SVG charts through gnuplot (see plot.h). */
#define _POSIX_C_SOURCE 200809L
#include "plot.h"
#include "plot_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../traces/trace.h"
#include "../util/fsio.h"

extern char **environ;

/* ---- the script and gnuplot ---- */


static const char *tmpdir(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

int gc_plot_script_open(gc_plot_script_t *s, gc_err_t *err)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->path, sizeof(s->path), "%s/gpucal-plot-XXXXXX", tmpdir());
    int fd = mkstemp(s->path);
    if (fd < 0) {
        s->path[0] = '\0';
        return gc_err_set(err, GC_EIO, "cannot create a temporary file in %s: %s (set TMPDIR)",
                          tmpdir(), strerror(errno));
    }
    s->fp = fdopen(fd, "w");
    if (!s->fp) {
        close(fd);
        unlink(s->path);
        s->path[0] = '\0';
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    return 0;
}

void gc_plot_script_drop(gc_plot_script_t *s)
{
    if (s->fp)
        fclose(s->fp);
    if (s->path[0])
        unlink(s->path);
    s->fp = NULL;
    s->path[0] = '\0';
}

/* s as a gnuplot single-quoted string ('' stands for '). */
void gc_plot_q(FILE *fp, const char *s)
{
    fputc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', fp);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, fp);
    }
    fputc('\'', fp);
}

int gc_plot_is_png(const char *out)
{
    size_t n = strlen(out);
    return n > 4 && !strcmp(out + n - 4, ".png");
}

void gc_plot_terminal(FILE *fp, const char *out, int w, int h)
{
    if (gc_plot_is_png(out))
        fprintf(fp,
                "set terminal pngcairo size %d,%d noenhanced font 'sans,11' background "
                "'#ffffff'\n",
                w, h);
    else
        fprintf(fp,
                "set terminal svg size %d,%d noenhanced font 'sans,12' background '#ffffff'\n",
                w, h);
    fputs("set encoding utf8\nset datafile missing '?'\n", fp);
}

void gc_plot_preamble(FILE *fp, const char *out, int w, int h, const char *title, const char *xl,
                      const char *yl, const char *foot)
{
    gc_plot_terminal(fp, out, w, h);
    fputs("set grid\nset bmargin 5\n", fp);
    fputs("set title ", fp);
    gc_plot_q(fp, title);
    fputs("\nset xlabel ", fp);
    gc_plot_q(fp, xl);
    fputs("\nset ylabel ", fp);
    gc_plot_q(fp, yl);
    fputs("\nset label 99 ", fp);
    gc_plot_q(fp, foot);
    fputs(" at screen 0.01, screen 0.02 font ',8' tc rgb '#666666'\n", fp);
}

/* Colours of the architectures: a fixed colour per shipped file, so a GPU
 * looks the same in every figure; any other name gets one of the palette's
 * colours by a hash of its name. */
const char *gc_plot_arch_colour(const char *name)
{
    static const struct {
        const char *name, *rgb;
    } fixed[] = {
        {"turing-rtx2080ti", "#8c564b"}, {"ampere-a100", "#1f77b4"},
        {"ampere-rtx3070ti", "#17becf"}, {"ada-rtx4090", "#2ca02c"},
        {"hopper-h100", "#d62728"},      {"hopper-h800", "#ff7f0e"},
        {"hopper-h200", "#9467bd"},
    };
    static const char *const palette[] = {"#e377c2", "#7f7f7f", "#bcbd22", "#393b79",
                                          "#637939", "#8c6d31", "#843c39", "#7b4173"};
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        if (name && !strcmp(name, fixed[i].name))
            return fixed[i].rgb;
    unsigned h = 5381;
    for (const char *c = name ? name : ""; *c; c++)
        h = h * 33 + (unsigned char)*c;
    return palette[h % (sizeof(palette) / sizeof(palette[0]))];
}

/* The last non-empty line of file path, for an error message. */
static void last_line(const char *path, char *buf, size_t n)
{
    buf[0] = '\0';
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    char line[512];
    while (fgets(line, sizeof(line), fp)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[strspn(line, " \t")])
            snprintf(buf, n, "%s", line + strspn(line, " \t"));
    }
    fclose(fp);
}

/* Run gnuplot on the script; its stdout (the SVG) becomes out. */
int gc_plot_render(gc_plot_script_t *s, const char *out, int force, gc_err_t *err)
{
    if (fflush(s->fp) != 0 || ferror(s->fp))
        return gc_err_set(err, GC_EIO, "%s: cannot write the gnuplot script", s->path);
    /* the chart's folder, as `-o DIR` of the other charts */
    const char *slash = strrchr(out, '/');
    if (slash && slash != out) {
        char dir[4096];
        snprintf(dir, sizeof(dir), "%.*s", (int)(slash - out), out);
        int rc0 = gc_mkdir_p(dir, err);
        if (rc0)
            return rc0;
    }
    gc_afile_t af;
    int rc = gc_afile_open(&af, out, force ? GC_AFILE_FORCE : 0, err);
    if (rc)
        return rc;
    char epath[4096];
    snprintf(epath, sizeof(epath), "%s/gpucal-gnuplot-err-XXXXXX", tmpdir());
    int efd = mkstemp(epath);
    if (efd < 0) {
        gc_afile_abort(&af);
        return gc_err_set(err, GC_EIO, "cannot create a temporary file in %s: %s", tmpdir(),
                          strerror(errno));
    }
    fflush(af.fp);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fileno(af.fp), 1);
    posix_spawn_file_actions_adddup2(&fa, efd, 2);
    char *argv[] = {"gnuplot", s->path, NULL};
    pid_t pid;
    int e = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(efd);
    if (e) {
        gc_afile_abort(&af);
        unlink(epath);
        if (e == ENOENT)
            return gc_err_set(err, GC_ERUN,
                              "gnuplot not found on PATH: install it to draw charts (Debian, "
                              "Ubuntu: apt-get install gnuplot-nox)");
        return gc_err_set(err, GC_ERUN, "cannot start gnuplot: %s", strerror(e));
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    char msg[512];
    last_line(epath, msg, sizeof(msg));
    unlink(epath);
    struct stat sb;
    int empty = fstat(fileno(af.fp), &sb) != 0 || sb.st_size == 0;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || empty) {
        gc_afile_abort(&af);
        return gc_err_set(err, GC_ERUN, "gnuplot failed drawing %s: %s", out,
                          msg[0]  ? msg
                          : empty ? "no output"
                                  : "killed");
    }
    if (msg[0])
        gc_warn_at(NULL, 0, 0, "gnuplot, drawing %s: %s", out, msg);
    return gc_afile_commit(&af, err);
}

int gc_plot_check(gc_err_t *err)
{
    gc_plot_script_t s;
    int rc = gc_plot_script_open(&s, err);
    if (rc)
        return rc;
    /* a script that draws nothing: only whether gnuplot starts */
    fputs("set terminal svg\nset output '/dev/null'\nprint ''\n", s.fp);
    fflush(s.fp);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {"gnuplot", s.path, NULL};
    pid_t pid;
    int e = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int st = 0;
    if (!e)
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
    gc_plot_script_drop(&s);
    if (e == ENOENT)
        return gc_err_set(err, GC_ERUN,
                          "gnuplot not found on PATH: install it to draw charts "
                          "(Debian, Ubuntu: apt-get install gnuplot-nox)");
    if (e || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return gc_err_set(err, GC_ERUN, "gnuplot does not run (%s)",
                          e ? strerror(e) : "it exited with an error");
    return 0;
}

/* ---- growable point lists ---- */

typedef struct pts {
    double *x, *y;
    size_t n, cap;
} pts_t;

static int pts_add(pts_t *p, double x, double y, size_t *total, gc_err_t *err)
{
    if (++*total > GC_PLOT_POINTS_MAX)
        return gc_err_set(err, GC_ELIMIT,
                          "more than %d data points in one chart (plot fewer "
                          "traces or a smaller sweep)",
                          GC_PLOT_POINTS_MAX);
    if (p->n == p->cap) {
        size_t nc = p->cap ? p->cap * 2 : 64;
        double *nx = realloc(p->x, nc * sizeof(*nx));
        if (!nx)
            return gc_err_set(err, GC_ENOMEM, "out of memory");
        p->x = nx;
        double *ny = realloc(p->y, nc * sizeof(*ny));
        if (!ny)
            return gc_err_set(err, GC_ENOMEM, "out of memory");
        p->y = ny;
        p->cap = nc;
    }
    p->x[p->n] = x;
    p->y[p->n] = y;
    p->n++;
    return 0;
}

static void pts_free(pts_t *p)
{
    free(p->x);
    free(p->y);
    memset(p, 0, sizeof(*p));
}

/* Sort a point list by x (insertion sort of indices is enough for the
 * sizes of a P-chase; use qsort on pairs). */
typedef struct xy {
    double x, y;
} xy_t;

static int cmp_xy(const void *a, const void *b)
{
    const xy_t *p = a, *q2 = b;
    return (p->x > q2->x) - (p->x < q2->x);
}

static int pts_sort(pts_t *p, gc_err_t *err)
{
    if (p->n < 2)
        return 0;
    xy_t *v = malloc(p->n * sizeof(*v));
    if (!v)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    for (size_t i = 0; i < p->n; i++)
        v[i] = (xy_t){p->x[i], p->y[i]};
    qsort(v, p->n, sizeof(*v), cmp_xy);
    for (size_t i = 0; i < p->n; i++) {
        p->x[i] = v[i].x;
        p->y[i] = v[i].y;
    }
    free(v);
    return 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Open a trace and require its bench and columns. */
static int open_trace(gc_trace_reader_t **r, const char *path, const char *const *benches,
                      const char *const *cols, int *idx, int ncols, gc_err_t *err)
{
    int rc = gc_trace_open(r, path, err);
    if (rc)
        return rc;
    const char *b = gc_trace_meta(*r, "bench");
    int ok = 0;
    for (int i = 0; benches[i] && !ok; i++)
        ok = b && !strcmp(b, benches[i]);
    if (!ok) {
        rc = gc_err_at(err, GC_EINPUT, path, 0, 0, "bench '%s' is not a %s trace (give a %s.csv)",
                       b ? b : "?", benches[0], benches[0]);
        gc_trace_close(*r);
        *r = NULL;
        return rc;
    }
    rc = gc_trace_cols(*r, cols, idx, ncols, err);
    if (rc) {
        gc_trace_close(*r);
        *r = NULL;
    }
    return rc;
}

/* ---- latency vs array size ---- */

typedef struct series {
    char name[160];
    char dev[96], path[32], pattern[16];
    pts_t p;
} series_t;

/* Colour of a P-chase path (the same in every latency chart). */
static const char *path_colour(const char *path)
{
    static const struct {
        const char *path, *rgb;
    } c[] = {{"l1", "#1f77b4"},     {"l2", "#ff7f0e"},         {"global", "#2ca02c"},
             {"tma", "#d62728"},    {"shared", "#9467bd"},     {"shared_idx", "#8c564b"},
             {"texture", "#e377c2"}, {"constant", "#7f7f7f"}};
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
        if (!strcmp(path, c[i].path))
            return c[i].rgb;
    return "#17becf";
}

/* Step vertices of an arch's latencies over array size (KiB); a NaN pair
 * breaks the line. */
static int arch_steps(const gc_arch_t *a, double xmin, double xmax, pts_t *p, size_t *total,
                      gc_err_t *err)
{
    const gc_memory_t *m = &a->memory;
    double l1 = m->l1.size_kib.set        ? m->l1.size_kib.v
                : a->sm.l1_shared_kib.set ? a->sm.l1_shared_kib.v
                                          : NAN;
    double part = m->l2.partition_mib.set ? m->l2.partition_mib.v * 1024 : NAN;
    double l2 = m->l2.size_mib.set ? m->l2.size_mib.v * 1024 : NAN;
    struct {
        double from, to, y;
        int set;
    } seg[4] = {
        {xmin, l1, m->l1.latency_cyc.v, m->l1.latency_cyc.set && !isnan(l1)},
        {l1, m->l2.latency_far_cyc.set && !isnan(part) ? part : l2, m->l2.latency_cyc.v,
         m->l2.latency_cyc.set && !isnan(l1) && !isnan(l2)},
        {part, l2, m->l2.latency_far_cyc.v,
         m->l2.latency_far_cyc.set && !isnan(part) && !isnan(l2)},
        {l2, xmax, m->dram.latency_cyc.v, m->dram.latency_cyc.set && !isnan(l2)},
    };
    int any = 0;
    double last_to = NAN;
    for (int i = 0; i < 4; i++) {
        if (!seg[i].set || !(seg[i].to > seg[i].from))
            continue;
        /* a gap in array size breaks the line; a missing level between two
         * contiguous ones does not */
        if (any && seg[i].from != last_to && pts_add(p, NAN, NAN, total, err))
            return err->code;
        if (pts_add(p, seg[i].from, seg[i].y, total, err) ||
            pts_add(p, seg[i].to, seg[i].y, total, err))
            return err->code;
        last_to = seg[i].to;
        any = 1;
    }
    return any ? 0 : 1;
}

static void write_pts(FILE *fp, const char *name, const pts_t *p)
{
    fprintf(fp, "$%s << EOD\n", name);
    for (size_t i = 0; i < p->n; i++) {
        if (isnan(p->x[i]))
            fputs("\n", fp);
        else
            fprintf(fp, "%.17g %.17g\n", p->x[i], p->y[i]);
    }
    fputs("EOD\n", fp);
}

/* What a latency chart collects: the P-chase series of the traces, one
 * step list per arch file, the traces' x range and the footnote naming
 * every input drawn. */
typedef struct latency {
    series_t *sr; /* GC_PLOT_SERIES_MAX slots, ns used */
    int ns;
    pts_t *ap;         /* one step list per arch (empty: nothing to draw) */
    size_t total;      /* points in all lists, against GC_PLOT_POINTS_MAX */
    double xmin, xmax; /* array sizes (KiB) of the traces' rows */
    char foot[1024];
} latency_t;

/* The series of the current row (device dev, its path and pattern), added
 * when new; its index in *k. Fails (ELIMIT) past GC_PLOT_SERIES_MAX. */
static int latency_series(latency_t *L, gc_trace_reader_t *r, const int *idx, const char *dev,
                          const char *trace, int *k, gc_err_t *err)
{
    char name[160];
    snprintf(name, sizeof(name), "%s, %s %s", dev, gc_trace_cell(r, idx[0]),
             gc_trace_cell(r, idx[1]));
    for (*k = 0; *k < L->ns; (*k)++)
        if (!strcmp(L->sr[*k].name, name))
            return 0;
    if (L->ns == GC_PLOT_SERIES_MAX)
        return gc_err_at(err, GC_ELIMIT, trace, gc_trace_line(r), 0,
                         "more than %d series in one chart", GC_PLOT_SERIES_MAX);
    series_t *s = &L->sr[L->ns++];
    snprintf(s->name, sizeof(s->name), "%s", name);
    snprintf(s->dev, sizeof(s->dev), "%s", dev);
    snprintf(s->path, sizeof(s->path), "%s", gc_trace_cell(r, idx[0]));
    snprintf(s->pattern, sizeof(s->pattern), "%s", gc_trace_cell(r, idx[1]));
    return 0;
}

/* One pchase row (columns idx: path, pattern, array_bytes, latency_cyc)
 * as a point (KiB, cycles) of its series; widens the x range. Fails on a
 * bad number, a size that is not positive, or too many series or points. */
static int latency_row(latency_t *L, gc_trace_reader_t *r, const int *idx, const char *dev,
                       const char *trace, gc_err_t *err)
{
    double bytes, lat;
    int rc, k;
    if ((rc = gc_trace_num(r, idx[2], &bytes, err)) || (rc = gc_trace_num(r, idx[3], &lat, err)))
        return rc;
    if ((rc = latency_series(L, r, idx, dev, trace, &k, err)) != 0)
        return rc;
    double kib = bytes / 1024.0;
    if (!(kib > 0))
        return gc_err_at(err, GC_EINPUT, trace, gc_trace_line(r), 0,
                         "array_bytes %g: an array size must be positive", bytes);
    if ((rc = pts_add(&L->sr[k].p, kib, lat, &L->total, err)) != 0)
        return rc;
    L->xmin = kib < L->xmin ? kib : L->xmin;
    L->xmax = kib > L->xmax ? kib : L->xmax;
    return 0;
}

/* Every row of one pchase trace into L; the trace named in the footnote.
 * The device is the trace's `device` meta, else its file name. */
static int latency_trace(latency_t *L, const char *trace, gc_err_t *err)
{
    static const char *const benches[] = {"pchase", NULL};
    static const char *const cols[] = {"path", "pattern", "array_bytes", "latency_cyc"};
    gc_trace_reader_t *r;
    int idx[4];
    int rc = open_trace(&r, trace, benches, cols, idx, 4, err);
    if (rc)
        return rc;
    const char *dev = gc_trace_meta(r, "device");
    if (!dev)
        dev = base_name(trace);
    size_t fl = strlen(L->foot);
    snprintf(L->foot + fl, sizeof(L->foot) - fl, " %s", trace);
    while ((rc = gc_trace_next(r, err)) == 1)
        if ((rc = latency_row(L, r, idx, dev, trace, err)) != 0)
            break;
    gc_trace_close(r);
    return rc;
}

/* The arch files' steps, spanning the traces' range, or 1 KiB to 4 x the
 * largest L2; each arch with steps is named in the footnote and counted in
 * *na. */
static int latency_archs(latency_t *L, const gc_arch_t *const *archs, int n_arch, int *na,
                         gc_err_t *err)
{
    double lo = isinf(L->xmin) ? 1.0 : L->xmin, hi = L->xmax;
    for (int i = 0; i < n_arch; i++)
        if (archs[i]->memory.l2.size_mib.set && archs[i]->memory.l2.size_mib.v * 4096 > hi)
            hi = archs[i]->memory.l2.size_mib.v * 4096;
    *na = 0;
    for (int i = 0; i < n_arch; i++) {
        int rc = arch_steps(archs[i], lo, hi, &L->ap[i], &L->total, err);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            (*na)++;
            size_t fl = strlen(L->foot);
            snprintf(L->foot + fl, sizeof(L->foot) - fl, " arch %s", archs[i]->name);
        }
    }
    return 0;
}

/* The plot command: the series (colour by path; seq solid with circles,
 * rand dotted with squares; the device in the title when one_dev), then
 * the arch files' steps as thick dashed lines. */
static void latency_plot(FILE *fp, const latency_t *L, const gc_arch_t *const *archs, int n_arch,
                         int one_dev)
{
    fputs("plot ", fp);
    int first = 1;
    for (int k = 0; k < L->ns; k++) {
        const series_t *s = &L->sr[k];
        int rnd = !strcmp(s->pattern, "rand");
        fprintf(fp, "%s$s%d using 1:2 with linespoints pt %d ps 0.5 dt %d lc rgb '%s' title ",
                first ? "" : ", ", k, rnd ? 5 : 7, rnd ? 3 : 1, path_colour(s->path));
        char t[160];
        snprintf(t, sizeof(t), "%s%s%s %s", one_dev ? "" : s->dev, one_dev ? "" : ", ", s->path,
                 s->pattern);
        gc_plot_q(fp, t);
        first = 0;
    }
    for (int i = 0; i < n_arch; i++)
        if (L->ap[i].n) {
            char t[200];
            snprintf(t, sizeof(t), "%s (arch file: L1, L2, DRAM)", archs[i]->name);
            fprintf(fp, "%s$a%d using 1:2 with lines dt 2 lw 3 lc rgb '%s' title ",
                    first ? "" : ", ", i, gc_plot_arch_colour(archs[i]->name));
            gc_plot_q(fp, t);
            first = 0;
        }
    fputs("\n", fp);
}

/* The whole gnuplot script of the chart into fp: preamble (one device's
 * name in the title, not in every legend entry), data blocks $sK of the
 * series and $aI of the arch steps, then the plot command. */
static void latency_script(FILE *fp, const latency_t *L, const gc_arch_t *const *archs, int n_arch,
                           const char *out)
{
    int one_dev = L->ns > 0;
    for (int k = 1; k < L->ns; k++)
        one_dev &= !strcmp(L->sr[k].dev, L->sr[0].dev);
    char title[256];
    snprintf(title, sizeof(title), "Load latency vs array size (P-chase%s%s)", one_dev ? ", " : "",
             one_dev ? L->sr[0].dev : "");
    gc_plot_preamble(fp, out, 960, 600, title, "array size (KiB)", "latency (cycles)", L->foot);
    fputs("set logscale x 2\nset format x '%g'\nset key top left\n", fp);
    char nm[16];
    for (int k = 0; k < L->ns; k++) {
        snprintf(nm, sizeof(nm), "s%d", k);
        write_pts(fp, nm, &L->sr[k].p);
    }
    for (int i = 0; i < n_arch; i++)
        if (L->ap[i].n) {
            snprintf(nm, sizeof(nm), "a%d", i);
            write_pts(fp, nm, &L->ap[i]);
        }
    latency_plot(fp, L, archs, n_arch, one_dev);
}

/* Free what L holds (its lists and slot arrays; a NULL array is skipped). */
static void latency_free(latency_t *L, int n_arch)
{
    if (L->sr)
        for (int k = 0; k < GC_PLOT_SERIES_MAX; k++)
            pts_free(&L->sr[k].p);
    if (L->ap)
        for (int i = 0; i < n_arch; i++)
            pts_free(&L->ap[i]);
    free(L->sr);
    free(L->ap);
}

int gc_plot_latency(const gc_arch_t *const *archs, int n_arch, const char *const *traces,
                    int n_traces, const char *out, int force, gc_err_t *err)
{
    latency_t L = {.xmin = INFINITY, .xmax = 0, .foot = "gpucal plot latency:"};
    L.sr = calloc(GC_PLOT_SERIES_MAX, sizeof(*L.sr));
    L.ap = calloc(n_arch > 0 ? (size_t)n_arch : 1, sizeof(*L.ap));
    int rc = 0, na = 0;
    if (!L.sr || !L.ap)
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    for (int t = 0; t < n_traces && !rc; t++)
        rc = latency_trace(&L, traces[t], err);
    if (!rc)
        rc = latency_archs(&L, archs, n_arch, &na, err);
    if (!rc && L.ns == 0 && na == 0)
        rc = gc_err_set(err, GC_ENODATA,
                        "nothing to draw: no pchase rows and no arch with L1/L2/DRAM latencies "
                        "and sizes (give --trace pchase.csv or --arch NAME)");
    for (int k = 0; k < L.ns && !rc; k++)
        rc = pts_sort(&L.sr[k].p, err);
    gc_plot_script_t s;
    if (!rc && (rc = gc_plot_script_open(&s, err)) == 0) {
        latency_script(s.fp, &L, archs, n_arch, out);
        rc = gc_plot_render(&s, out, force, err);
        gc_plot_script_drop(&s);
    }
    latency_free(&L, n_arch);
    return rc;
}

/* ---- ILP x warps heat maps ---- */

typedef struct cell {
    long warps, ilp;
    double sum;
    int n;
} cell_t;

typedef struct form {
    char label[128];
    cell_t *c;
    size_t n, cap;
} form_t;

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Sorted unique values of warps (which = 0) or ilp (1) of a form. */
static size_t uniq(const form_t *f, int which, long *out)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++)
        out[n++] = which ? f->c[i].ilp : f->c[i].warps;
    qsort(out, n, sizeof(*out), cmp_long);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (!u || out[u - 1] != out[i])
            out[u++] = out[i];
    return u;
}

static size_t index_of(const long *v, size_t n, long x)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == x)
            return i;
    return 0;
}

/* One heat map; 1 (nothing written) when the form's sweep is not 2-D (one
 * warp count or one ILP: a line, not a map). */
static int heatmap_one(const form_t *f, const char *dev, const char *trace, const char *outdir,
                       const char *ext, int force, gc_err_t *err)
{
    long *wv = malloc(f->n * sizeof(long)), *iv = malloc(f->n * sizeof(long));
    if (!wv || !iv) {
        free(wv);
        free(iv);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    size_t nw = uniq(f, 0, wv), ni = uniq(f, 1, iv);
    if (nw < 2 || ni < 2) {
        free(wv);
        free(iv);
        return 1;
    }
    double vmax = 0;
    for (size_t i = 0; i < f->n; i++)
        vmax = fmax(vmax, f->c[i].sum / f->c[i].n);
    char file[160], path[4096], title[320], foot[1024];
    size_t k = 0;
    for (const char *p = f->label; *p && k + 1 < sizeof(file); p++)
        file[k++] = (*p == ' ') ? '-' : (*p == '.') ? '_' : *p;
    file[k] = '\0';
    snprintf(path, sizeof(path), "%s/heatmap-%s.%s", outdir, file, ext);
    snprintf(title, sizeof(title), "%s: throughput over ILP x warps (%s)", f->label, dev);
    snprintf(foot, sizeof(foot),
             "gpucal plot heatmap: %s (scope sm; mean of repeated points; blank: not measured)",
             trace);
    gc_plot_script_t s;
    int rc = gc_plot_script_open(&s, err);
    if (rc) {
        free(wv);
        free(iv);
        return rc;
    }
    gc_plot_preamble(s.fp, path, 900, 600, title, "warps per SM", "ILP (independent instructions per warp)",
             foot);
    fprintf(s.fp,
            "set cblabel 'throughput (FMA/clk/SM, scale from 0)'\nunset key\nunset grid\n"
            "set cbrange [0:*]\nset xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\n"
            "set palette defined (0 '#440154', 1 '#3b528b', 2 '#21918c', 3 '#5ec962', 4 "
            "'#fde725')\nset xtics (",
            nw - 1, ni - 1);
    for (size_t i = 0; i < nw; i++)
        fprintf(s.fp, "%s'%ld' %zu", i ? ", " : "", wv[i], i);
    fputs(")\nset ytics (", s.fp);
    for (size_t i = 0; i < ni; i++)
        fprintf(s.fp, "%s'%ld' %zu", i ? ", " : "", iv[i], i);
    fputs(")\n$d << EOD\n", s.fp);
    for (size_t i = 0; i < f->n; i++)
        fprintf(s.fp, "%zu %zu %.17g\n", index_of(wv, nw, f->c[i].warps),
                index_of(iv, ni, f->c[i].ilp), f->c[i].sum / f->c[i].n);
    /* the value in each cell: dark on the bright end of the palette */
    fprintf(s.fp,
            "EOD\nplot $d using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc "
            "palette, $d using 1:2:($3 > %.17g ? sprintf('%%.0f', $3) : '') with labels "
            "font ',9' tc rgb '#000000', $d using 1:2:($3 > %.17g ? '' : sprintf('%%.0f', $3)) "
            "with labels font ',9' tc rgb '#ffffff'\n",
            0.6 * vmax, 0.6 * vmax);
    rc = gc_plot_render(&s, path, force, err);
    gc_plot_script_drop(&s);
    free(wv);
    free(iv);
    return rc;
}

/* What a heat-map trace collects: its tensor forms (label and cells) and
 * where its columns are. */
typedef struct heat {
    form_t *fm; /* GC_PLOT_FORMS_MAX slots, nf used */
    int nf;
    size_t total;        /* cells in all forms, against GC_PLOT_POINTS_MAX */
    int idx[7];          /* inst, shape, a_type, c_type, warps, ilp, fma_clk_sm */
    int ops, dat, scope; /* operands, data, scope: -1 where the trace lacks them */
} heat_t;

/* The label of the current row's tensor form, "inst shape a.c", then the
 * operands and the data pattern where the trace has them (not "-"). */
static void heat_label(const heat_t *H, gc_trace_reader_t *r, char *lab, size_t n)
{
    const int *idx = H->idx;
    const char *o = H->ops >= 0 ? gc_trace_cell(r, H->ops) : "-";
    const char *d = H->dat >= 0 ? gc_trace_cell(r, H->dat) : "-";
    snprintf(lab, n, "%s %s %s.%s%s%s%s%s", gc_trace_cell(r, idx[0]), gc_trace_cell(r, idx[1]),
             gc_trace_cell(r, idx[2]), gc_trace_cell(r, idx[3]), strcmp(o, "-") ? " " : "",
             strcmp(o, "-") ? o : "", strcmp(d, "-") ? " " : "", strcmp(d, "-") ? d : "");
}

/* The form labelled lab, added when new; its index in *k. Fails (ELIMIT,
 * at trace:line) past GC_PLOT_FORMS_MAX forms. */
static int heat_form(heat_t *H, const char *lab, const char *trace, long line, int *k,
                     gc_err_t *err)
{
    for (*k = 0; *k < H->nf; (*k)++)
        if (!strcmp(H->fm[*k].label, lab))
            return 0;
    if (H->nf == GC_PLOT_FORMS_MAX)
        return gc_err_at(err, GC_ELIMIT, trace, line, 0, "more than %d tensor forms in one trace",
                         GC_PLOT_FORMS_MAX);
    snprintf(H->fm[H->nf++].label, sizeof(H->fm[0].label), "%s", lab);
    return 0;
}

/* Add the throughput v to the cell (w warps, il ILP) of form f, adding the
 * cell when new. Fails past GC_PLOT_POINTS_MAX cells in all (*total counts
 * them) or out of memory. */
static int heat_cell(form_t *f, long w, long il, double v, size_t *total, gc_err_t *err)
{
    size_t c = 0;
    while (c < f->n && (f->c[c].warps != w || f->c[c].ilp != il))
        c++;
    if (c == f->n) {
        if (++*total > GC_PLOT_POINTS_MAX)
            return gc_err_set(err, GC_ELIMIT, "more than %d points in one trace",
                              GC_PLOT_POINTS_MAX);
        if (f->n == f->cap) {
            size_t ncap = f->cap ? f->cap * 2 : 32;
            cell_t *nc = realloc(f->c, ncap * sizeof(*nc));
            if (!nc)
                return gc_err_set(err, GC_ENOMEM, "out of memory");
            f->c = nc;
            f->cap = ncap;
        }
        f->c[f->n++] = (cell_t){w, il, 0, 0};
    }
    f->c[c].sum += v;
    f->c[c].n++;
    return 0;
}

/* One row of the trace into its form's cell; rows whose scope is not sm
 * are skipped. Fails on a bad number or a limit. */
static int heat_row(heat_t *H, gc_trace_reader_t *r, const char *trace, gc_err_t *err)
{
    if (H->scope >= 0 && strcmp(gc_trace_cell(r, H->scope), "sm"))
        return 0;
    long w, il;
    double v;
    int rc, k;
    if ((rc = gc_trace_long(r, H->idx[4], &w, err)) ||
        (rc = gc_trace_long(r, H->idx[5], &il, err)) || (rc = gc_trace_num(r, H->idx[6], &v, err)))
        return rc;
    char lab[128];
    heat_label(H, r, lab, sizeof(lab));
    if ((rc = heat_form(H, lab, trace, gc_trace_line(r), &k, err)) != 0)
        return rc;
    return heat_cell(&H->fm[k], w, il, v, &H->total, err);
}

/* Every form's map into outdir (made if missing); *n_written counts the
 * maps written, *n_flat the forms with a one-dimensional sweep. */
static int heat_draw(const heat_t *H, const char *dev, const char *trace, const char *outdir,
                     const char *ext, int force, int *n_written, int *n_flat, gc_err_t *err)
{
    int rc = gc_mkdir_p(outdir, err);
    for (int k = 0; k < H->nf && !rc; k++) {
        rc = heatmap_one(&H->fm[k], dev, trace, outdir, ext, force, err);
        if (rc == 1)
            (*n_flat)++, rc = 0;
        else if (!rc)
            (*n_written)++;
    }
    return rc;
}

int gc_plot_heatmaps(const char *trace, const char *outdir, const char *ext, int force,
                     int *n_written, int *n_flat, gc_err_t *err)
{
    static const char *const benches[] = {"mma", "mma_sp", "wgmma", NULL};
    static const char *const cols[] = {"inst",  "shape", "a_type",    "c_type",
                                       "warps", "ilp",   "fma_clk_sm"};
    *n_flat = 0;
    *n_written = 0;
    heat_t H = {0};
    gc_trace_reader_t *r;
    int rc = open_trace(&r, trace, benches, cols, H.idx, 7, err);
    if (rc)
        return rc;
    H.ops = gc_trace_col(r, "operands");
    H.dat = gc_trace_col(r, "data");
    H.scope = gc_trace_col(r, "scope");
    char dev[128];
    snprintf(dev, sizeof(dev), "%s",
             gc_trace_meta(r, "device") ? gc_trace_meta(r, "device") : base_name(trace));
    H.fm = calloc(GC_PLOT_FORMS_MAX, sizeof(*H.fm));
    if (!H.fm)
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    while (!rc && (rc = gc_trace_next(r, err)) == 1)
        rc = heat_row(&H, r, trace, err);
    gc_trace_close(r);
    if (!rc && H.nf == 0)
        rc = gc_err_at(err, GC_ENODATA, trace, 0, 0,
                       "no rows with scope sm: nothing to draw (is the sweep complete?)");
    if (!rc)
        rc = heat_draw(&H, dev, trace, outdir, ext, force, n_written, n_flat, err);
    for (int k = 0; H.fm && k < GC_PLOT_FORMS_MAX; k++)
        free(H.fm[k].c);
    free(H.fm);
    return rc;
}

/* ---- P-chase latency histogram ---- */

#define HIST_MAX 100000 /* cycles: the arch schema's latency bound */

/* The smallest latency at or below which a fraction q of the n counts lie. */
static long hist_quantile(const long *cnt, long lo, long hi, long n, double q)
{
    long acc = 0;
    for (long i = lo; i <= hi; i++) {
        acc += cnt[i];
        if (acc >= q * n)
            return i;
    }
    return hi;
}

/* The largest of the arch's L2 near/far hit/miss centres (0: none). */
static double hist_centre_max(const gc_arch_t *a)
{
    const gc_l2_t *l2 = &a->memory.l2;
    const gc_qty_t *q[4] = {&l2->near_hit_cyc, &l2->far_hit_cyc, &l2->near_miss_cyc,
                            &l2->far_miss_cyc};
    double m = 0;
    for (int i = 0; i < 4; i++)
        if (q[i]->set)
            m = fmax(m, q[i]->v);
    return m;
}

/* A latency histogram: counts per whole cycle 0..HIST_MAX, the range
 * [lo, hi] that holds counts and the number of accesses n. */
typedef struct hist {
    long *cnt;
    long lo, hi, n;
} hist_t;

/* Every row's latency_cyc (column col) into h. Fails on a bad number or a
 * latency outside 0..HIST_MAX cycles. */
static int hist_read(hist_t *h, gc_trace_reader_t *r, int col, const char *trace, gc_err_t *err)
{
    int rc;
    while ((rc = gc_trace_next(r, err)) == 1) {
        double v;
        if ((rc = gc_trace_num(r, col, &v, err)) != 0)
            return rc;
        if (v < 0 || v > HIST_MAX)
            return gc_err_at(err, GC_EINPUT, trace, gc_trace_line(r), 0,
                             "latency_cyc %g is outside 0..%d cycles", v, HIST_MAX);
        long b = lround(v);
        h->cnt[b]++;
        h->lo = b < h->lo ? b : h->lo;
        h->hi = b > h->hi ? b : h->hi;
        h->n++;
    }
    return rc;
}

/* The data block $h: bins of w cycles from lo (rounded down to a multiple
 * of w) to top, each at its centre; empty bins left out. */
static void hist_bins(FILE *fp, const hist_t *h, long top, long w)
{
    fputs("$h << EOD\n", fp);
    for (long b = h->lo - h->lo % w; b <= top; b += w) {
        long c = 0;
        for (long i = b; i < b + w && i <= HIST_MAX; i++)
            c += h->cnt[i];
        if (c)
            fprintf(fp, "%.17g %ld\n", b + (w - 1) / 2.0, c);
    }
    fputs("EOD\n", fp);
}

/* A dashed vertical line and a label for each of the arch's L2 near/far
 * hit/miss centres that is set (labels on two alternating heights so
 * neighbours do not meet); returns how many were drawn. */
static int hist_centres(FILE *fp, const gc_arch_t *arch)
{
    const gc_l2_t *l2 = &arch->memory.l2;
    const struct {
        const char *name;
        const gc_qty_t *q;
    } c[] = {{"near hit", &l2->near_hit_cyc},
             {"far hit", &l2->far_hit_cyc},
             {"near miss", &l2->near_miss_cyc},
             {"far miss", &l2->far_miss_cyc}};
    int nc = 0;
    for (int i = 0; i < 4; i++) {
        if (!c[i].q->set)
            continue;
        char lab[64];
        snprintf(lab, sizeof(lab), "%s %.1f", c[i].name, c[i].q->v);
        fprintf(fp,
                "set arrow %d from %.17g, graph 0 to %.17g, graph 1 nohead front dt 2 lw 2 lc "
                "rgb '#d62728'\nset label %d ",
                i + 1, c[i].q->v, c[i].q->v, i + 1);
        gc_plot_q(fp, lab);
        fprintf(fp, " at %.17g, graph %.2f left front offset 0.5,0 tc rgb '#222222'\n", c[i].q->v,
                nc % 2 ? 0.87 : 0.95);
        nc++;
    }
    return nc;
}

/* The whole gnuplot script of the histogram of h (device dev, from trace)
 * into fp, with the k-means centres of arch when arch is not NULL. The
 * axis ends at the 99.9th percentile: a handful of slow outliers would
 * otherwise squeeze the clusters into the left half. */
static void hist_script(FILE *fp, const hist_t *h, const gc_arch_t *arch, const char *dev,
                        const char *trace, const char *out)
{
    long top = hist_quantile(h->cnt, h->lo, h->hi, h->n, 0.999), beyond = 0;
    for (long i = top + 1; i <= h->hi; i++)
        beyond += h->cnt[i];
    long w = (top - h->lo) / 200 + 1; /* about 200 bins */
    char title[256], foot[1024];
    snprintf(title, sizeof(title),
             "Fine-grained P-chase latency histogram and k-means centres (%s)", dev);
    snprintf(foot, sizeof(foot),
             "gpucal plot hist: %s (%ld accesses, bins of %ld cycles; %ld above %ld cycles, up "
             "to %ld, not drawn)%s%s",
             trace, h->n, w, beyond, top, h->hi, arch ? "; centres: arch " : "",
             arch ? arch->name : "");
    gc_plot_preamble(fp, out, 960, 560, title, "latency (cycles)", "accesses (count)", foot);
    double x0 = (double)(h->lo - h->lo % w), x1 = (double)top + w;
    if (arch)
        x1 = fmax(x1, hist_centre_max(arch) + 3 * w);
    fprintf(fp,
            "set style fill solid 0.6 noborder\nset boxwidth %ld\nset tmargin 6\nset title offset "
            "0, 1.6\nset key at screen 0.5, screen 0.90 center top horizontal maxrows 1\n"
            "set yrange [0:*]\nset xrange [%g:%g]\nset offsets 0, 0, graph 0.12, 0\n",
            w, x0 - w, x1);
    hist_bins(fp, h, top, w);
    int nc = arch ? hist_centres(fp, arch) : 0;
    fputs("plot $h using 1:2 with boxes lc rgb '#1f77b4' title 'accesses per bin'", fp);
    if (nc) {
        char t[160];
        snprintf(t, sizeof(t), "k-means centres of %s (L2 near/far hit/miss)", arch->name);
        fputs(", NaN with lines dt 2 lw 2 lc rgb '#d62728' title ", fp);
        gc_plot_q(fp, t);
    }
    fputs("\n", fp);
}

int gc_plot_hist(const char *trace, const gc_arch_t *arch, const char *out, int force,
                 gc_err_t *err)
{
    static const char *const benches[] = {"pchase_fine", NULL};
    static const char *const cols[] = {"latency_cyc"};
    gc_trace_reader_t *r;
    int idx[1];
    int rc = open_trace(&r, trace, benches, cols, idx, 1, err);
    if (rc)
        return rc;
    char dev[128];
    snprintf(dev, sizeof(dev), "%s",
             gc_trace_meta(r, "device") ? gc_trace_meta(r, "device") : base_name(trace));
    hist_t h = {.lo = HIST_MAX};
    h.cnt = calloc(HIST_MAX + 1, sizeof(*h.cnt));
    rc = h.cnt ? hist_read(&h, r, idx[0], trace, err) : gc_err_set(err, GC_ENOMEM, "out of memory");
    gc_trace_close(r);
    if (!rc && h.n == 0)
        rc = gc_err_at(err, GC_ENODATA, trace, 0, 0, "no rows: nothing to draw");
    gc_plot_script_t s;
    if (!rc && (rc = gc_plot_script_open(&s, err)) == 0) {
        hist_script(s.fp, &h, arch, dev, trace, out);
        rc = gc_plot_render(&s, out, force, err);
        gc_plot_script_drop(&s);
    }
    free(h.cnt);
    return rc;
}
