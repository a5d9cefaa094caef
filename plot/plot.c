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

int gc_plot_latency(const gc_arch_t *const *archs, int n_arch, const char *const *traces,
                    int n_traces, const char *out, int force, gc_err_t *err)
{
    static const char *const benches[] = {"pchase", NULL};
    static const char *const cols[] = {"path", "pattern", "array_bytes", "latency_cyc"};
    series_t *sr = calloc(GC_PLOT_SERIES_MAX, sizeof(*sr));
    pts_t *ap = calloc(n_arch > 0 ? (size_t)n_arch : 1, sizeof(*ap));
    int ns = 0, rc = 0;
    size_t total = 0;
    double xmin = INFINITY, xmax = 0;
    char foot[1024] = "gpucal plot latency:";
    if (!sr || !ap) {
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
        goto done;
    }
    for (int t = 0; t < n_traces && !rc; t++) {
        gc_trace_reader_t *r;
        int idx[4];
        if ((rc = open_trace(&r, traces[t], benches, cols, idx, 4, err)) != 0)
            break;
        const char *dev = gc_trace_meta(r, "device");
        size_t fl = strlen(foot);
        snprintf(foot + fl, sizeof(foot) - fl, " %s", traces[t]);
        while ((rc = gc_trace_next(r, err)) == 1) {
            double bytes, lat;
            if ((rc = gc_trace_num(r, idx[2], &bytes, err)) ||
                (rc = gc_trace_num(r, idx[3], &lat, err)))
                break;
            char name[160];
            snprintf(name, sizeof(name), "%s, %s %s", dev ? dev : base_name(traces[t]),
                     gc_trace_cell(r, idx[0]), gc_trace_cell(r, idx[1]));
            int k = 0;
            while (k < ns && strcmp(sr[k].name, name))
                k++;
            if (k == ns) {
                if (ns == GC_PLOT_SERIES_MAX) {
                    rc = gc_err_at(err, GC_ELIMIT, traces[t], gc_trace_line(r), 0,
                                   "more than %d series in one chart", GC_PLOT_SERIES_MAX);
                    break;
                }
                snprintf(sr[ns].name, sizeof(sr[0].name), "%s", name);
                snprintf(sr[ns].dev, sizeof(sr[0].dev), "%s", dev ? dev : base_name(traces[t]));
                snprintf(sr[ns].path, sizeof(sr[0].path), "%s", gc_trace_cell(r, idx[0]));
                snprintf(sr[ns].pattern, sizeof(sr[0].pattern), "%s", gc_trace_cell(r, idx[1]));
                ns++;
            }
            double kib = bytes / 1024.0;
            if (!(kib > 0)) {
                rc = gc_err_at(err, GC_EINPUT, traces[t], gc_trace_line(r), 0,
                               "array_bytes %g: an array size must be positive", bytes);
                break;
            }
            if ((rc = pts_add(&sr[k].p, kib, lat, &total, err)) != 0)
                break;
            xmin = kib < xmin ? kib : xmin;
            xmax = kib > xmax ? kib : xmax;
        }
        gc_trace_close(r);
    }
    if (rc)
        goto done;
    /* arch steps span the traces' range, or 1 KiB to 4 x the L2 */
    double lo = isinf(xmin) ? 1.0 : xmin, hi = xmax;
    for (int i = 0; i < n_arch; i++)
        if (archs[i]->memory.l2.size_mib.set && archs[i]->memory.l2.size_mib.v * 4096 > hi)
            hi = archs[i]->memory.l2.size_mib.v * 4096;
    int na = 0;
    for (int i = 0; i < n_arch; i++) {
        int r2 = arch_steps(archs[i], lo, hi, &ap[i], &total, err);
        if (r2 < 0) {
            rc = r2;
            goto done;
        }
        if (r2 == 0) {
            na++;
            size_t fl = strlen(foot);
            snprintf(foot + fl, sizeof(foot) - fl, " arch %s", archs[i]->name);
        }
    }
    if (ns == 0 && na == 0) {
        rc = gc_err_set(err, GC_ENODATA,
                        "nothing to draw: no pchase rows and no arch with L1/L2/DRAM latencies "
                        "and sizes (give --trace pchase.csv or --arch NAME)");
        goto done;
    }
    for (int k = 0; k < ns; k++)
        if ((rc = pts_sort(&sr[k].p, err)) != 0)
            goto done;
    gc_plot_script_t s;
    if ((rc = gc_plot_script_open(&s, err)) != 0)
        goto done;
    /* one device: its name in the title, not in every legend entry */
    int one_dev = ns > 0;
    for (int k = 1; k < ns; k++)
        one_dev &= !strcmp(sr[k].dev, sr[0].dev);
    char title[256];
    snprintf(title, sizeof(title), "Load latency vs array size (P-chase%s%s)",
             one_dev ? ", " : "", one_dev ? sr[0].dev : "");
    gc_plot_preamble(s.fp, out, 960, 600, title, "array size (KiB)", "latency (cycles)", foot);
    fputs("set logscale x 2\nset format x '%g'\nset key top left\n", s.fp);
    char nm[16];
    for (int k = 0; k < ns; k++) {
        snprintf(nm, sizeof(nm), "s%d", k);
        write_pts(s.fp, nm, &sr[k].p);
    }
    for (int i = 0; i < n_arch; i++)
        if (ap[i].n) {
            snprintf(nm, sizeof(nm), "a%d", i);
            write_pts(s.fp, nm, &ap[i]);
        }
    fputs("plot ", s.fp);
    int first = 1;
    for (int k = 0; k < ns; k++) {
        /* colour by path, seq solid with circles, rand dotted with squares */
        int rnd = !strcmp(sr[k].pattern, "rand");
        fprintf(s.fp, "%s$s%d using 1:2 with linespoints pt %d ps 0.5 dt %d lc rgb '%s' title ",
                first ? "" : ", ", k, rnd ? 5 : 7, rnd ? 3 : 1, path_colour(sr[k].path));
        char t[160];
        snprintf(t, sizeof(t), "%s%s%s %s", one_dev ? "" : sr[k].dev, one_dev ? "" : ", ",
                 sr[k].path, sr[k].pattern);
        gc_plot_q(s.fp, t);
        first = 0;
    }
    for (int i = 0; i < n_arch; i++)
        if (ap[i].n) {
            char t[200];
            snprintf(t, sizeof(t), "%s (arch file: L1, L2, DRAM)", archs[i]->name);
            fprintf(s.fp, "%s$a%d using 1:2 with lines dt 2 lw 3 lc rgb '%s' title ",
                    first ? "" : ", ", i, gc_plot_arch_colour(archs[i]->name));
            gc_plot_q(s.fp, t);
            first = 0;
        }
    fputs("\n", s.fp);
    rc = gc_plot_render(&s, out, force, err);
    gc_plot_script_drop(&s);
done:
    if (sr)
        for (int k = 0; k < GC_PLOT_SERIES_MAX; k++)
            pts_free(&sr[k].p);
    if (ap)
        for (int i = 0; i < n_arch; i++)
            pts_free(&ap[i]);
    free(sr);
    free(ap);
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

int gc_plot_heatmaps(const char *trace, const char *outdir, const char *ext, int force,
                     int *n_written, int *n_flat, gc_err_t *err)
{
    *n_flat = 0;
    static const char *const benches[] = {"mma", "mma_sp", "wgmma", NULL};
    static const char *const cols[] = {"inst",  "shape", "a_type",    "c_type",
                                       "warps", "ilp",   "fma_clk_sm"};
    *n_written = 0;
    gc_trace_reader_t *r;
    int idx[7];
    int rc = open_trace(&r, trace, benches, cols, idx, 7, err);
    if (rc)
        return rc;
    int ops = gc_trace_col(r, "operands"), dat = gc_trace_col(r, "data"),
        scope = gc_trace_col(r, "scope");
    char dev[128];
    snprintf(dev, sizeof(dev), "%s",
             gc_trace_meta(r, "device") ? gc_trace_meta(r, "device") : base_name(trace));
    form_t *fm = calloc(GC_PLOT_FORMS_MAX, sizeof(*fm));
    int nf = 0;
    size_t total = 0;
    if (!fm) {
        gc_trace_close(r);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    while ((rc = gc_trace_next(r, err)) == 1) {
        if (scope >= 0 && strcmp(gc_trace_cell(r, scope), "sm"))
            continue;
        long w, il;
        double v;
        if ((rc = gc_trace_long(r, idx[4], &w, err)) || (rc = gc_trace_long(r, idx[5], &il, err)) ||
            (rc = gc_trace_num(r, idx[6], &v, err)))
            break;
        char lab[128];
        const char *o = ops >= 0 ? gc_trace_cell(r, ops) : "-";
        const char *d = dat >= 0 ? gc_trace_cell(r, dat) : "-";
        snprintf(lab, sizeof(lab), "%s %s %s.%s%s%s%s%s", gc_trace_cell(r, idx[0]),
                 gc_trace_cell(r, idx[1]), gc_trace_cell(r, idx[2]), gc_trace_cell(r, idx[3]),
                 strcmp(o, "-") ? " " : "", strcmp(o, "-") ? o : "", strcmp(d, "-") ? " " : "",
                 strcmp(d, "-") ? d : "");
        int k = 0;
        while (k < nf && strcmp(fm[k].label, lab))
            k++;
        if (k == nf) {
            if (nf == GC_PLOT_FORMS_MAX) {
                rc = gc_err_at(err, GC_ELIMIT, trace, gc_trace_line(r), 0,
                               "more than %d tensor forms in one trace", GC_PLOT_FORMS_MAX);
                break;
            }
            snprintf(fm[nf++].label, sizeof(fm[0].label), "%s", lab);
        }
        form_t *f = &fm[k];
        size_t c = 0;
        while (c < f->n && (f->c[c].warps != w || f->c[c].ilp != il))
            c++;
        if (c == f->n) {
            if (++total > GC_PLOT_POINTS_MAX) {
                rc = gc_err_set(err, GC_ELIMIT, "more than %d points in one trace",
                                GC_PLOT_POINTS_MAX);
                break;
            }
            if (f->n == f->cap) {
                size_t ncap = f->cap ? f->cap * 2 : 32;
                cell_t *nc = realloc(f->c, ncap * sizeof(*nc));
                if (!nc) {
                    rc = gc_err_set(err, GC_ENOMEM, "out of memory");
                    break;
                }
                f->c = nc;
                f->cap = ncap;
            }
            f->c[f->n++] = (cell_t){w, il, 0, 0};
        }
        f->c[c].sum += v;
        f->c[c].n++;
    }
    gc_trace_close(r);
    if (!rc && nf == 0)
        rc = gc_err_at(err, GC_ENODATA, trace, 0, 0,
                       "no rows with scope sm: nothing to draw (is the sweep complete?)");
    if (!rc)
        rc = gc_mkdir_p(outdir, err);
    for (int k = 0; k < nf && !rc; k++) {
        rc = heatmap_one(&fm[k], dev, trace, outdir, ext, force, err);
        if (rc == 1)
            (*n_flat)++, rc = 0;
        else if (!rc)
            (*n_written)++;
    }
    for (int k = 0; k < GC_PLOT_FORMS_MAX; k++)
        free(fm[k].c);
    free(fm);
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
    long *cnt = calloc(HIST_MAX + 1, sizeof(*cnt));
    if (!cnt) {
        gc_trace_close(r);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    long lo = HIST_MAX, hi = 0, n = 0;
    while ((rc = gc_trace_next(r, err)) == 1) {
        double v;
        if ((rc = gc_trace_num(r, idx[0], &v, err)) != 0)
            break;
        if (v < 0 || v > HIST_MAX) {
            rc = gc_err_at(err, GC_EINPUT, trace, gc_trace_line(r), 0,
                           "latency_cyc %g is outside 0..%d cycles", v, HIST_MAX);
            break;
        }
        long b = lround(v);
        cnt[b]++;
        lo = b < lo ? b : lo;
        hi = b > hi ? b : hi;
        n++;
    }
    gc_trace_close(r);
    if (!rc && n == 0)
        rc = gc_err_at(err, GC_ENODATA, trace, 0, 0, "no rows: nothing to draw");
    gc_plot_script_t s;
    if (!rc)
        rc = gc_plot_script_open(&s, err);
    if (rc) {
        free(cnt);
        return rc;
    }
    /* the axis ends at the 99.9th percentile: a handful of slow outliers
     * would otherwise squeeze the clusters into the left half */
    long top = hist_quantile(cnt, lo, hi, n, 0.999), beyond = 0;
    for (long i = top + 1; i <= hi; i++)
        beyond += cnt[i];
    long w = (top - lo) / 200 + 1; /* about 200 bins */
    char title[256], foot[1024];
    snprintf(title, sizeof(title),
             "Fine-grained P-chase latency histogram and k-means centres (%s)", dev);
    snprintf(foot, sizeof(foot),
             "gpucal plot hist: %s (%ld accesses, bins of %ld cycles; %ld above %ld cycles, up "
             "to %ld, not drawn)%s%s",
             trace, n, w, beyond, top, hi, arch ? "; centres: arch " : "", arch ? arch->name : "");
    gc_plot_preamble(s.fp, out, 960, 560, title, "latency (cycles)", "accesses (count)", foot);
    double x0 = (double)(lo - lo % w), x1 = (double)top + w;
    if (arch)
        x1 = fmax(x1, hist_centre_max(arch) + 3 * w);
    fprintf(s.fp,
            "set style fill solid 0.6 noborder\nset boxwidth %ld\nset tmargin 6\nset title offset 0, 1.6\nset key at screen 0.5, screen 0.90 center top horizontal maxrows 1\n"
            "set yrange [0:*]\nset xrange [%g:%g]\nset offsets 0, 0, graph 0.12, 0\n",
            w, x0 - w, x1);
    fputs("$h << EOD\n", s.fp);
    for (long b = lo - lo % w; b <= top; b += w) {
        long c = 0;
        for (long i = b; i < b + w && i <= HIST_MAX; i++)
            c += cnt[i];
        if (c)
            fprintf(s.fp, "%.17g %ld\n", b + (w - 1) / 2.0, c);
    }
    fputs("EOD\n", s.fp);
    int nc = 0;
    if (arch) {
        const gc_l2_t *l2 = &arch->memory.l2;
        const struct {
            const char *name;
            const gc_qty_t *q;
        } c[] = {{"near hit", &l2->near_hit_cyc},
                 {"far hit", &l2->far_hit_cyc},
                 {"near miss", &l2->near_miss_cyc},
                 {"far miss", &l2->far_miss_cyc}};
        for (int i = 0; i < 4; i++) {
            if (!c[i].q->set)
                continue;
            char lab[64];
            snprintf(lab, sizeof(lab), "%s %.1f", c[i].name, c[i].q->v);
            /* level text beside the line, two heights so neighbours do not meet */
            fprintf(s.fp,
                    "set arrow %d from %.17g, graph 0 to %.17g, graph 1 nohead front dt 2 lw 2 lc "
                    "rgb '#d62728'\nset label %d ",
                    i + 1, c[i].q->v, c[i].q->v, i + 1);
            gc_plot_q(s.fp, lab);
            fprintf(s.fp, " at %.17g, graph %.2f left front offset 0.5,0 tc rgb '#222222'\n",
                    c[i].q->v, nc % 2 ? 0.87 : 0.95);
            nc++;
        }
    }
    fputs("plot $h using 1:2 with boxes lc rgb '#1f77b4' title 'accesses per bin'", s.fp);
    if (nc) {
        char t[160];
        snprintf(t, sizeof(t), "k-means centres of %s (L2 near/far hit/miss)", arch->name);
        fputs(", NaN with lines dt 2 lw 2 lc rgb '#d62728' title ", s.fp);
        gc_plot_q(s.fp, t);
    }
    fputs("\n", s.fp);
    rc = gc_plot_render(&s, out, force, err);
    gc_plot_script_drop(&s);
    free(cnt);
    return rc;
}
