/* plot.c - SVG charts through gnuplot (see plot.h). */
#define _POSIX_C_SOURCE 200809L
#include "plot.h"

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

typedef struct script {
    FILE *fp;
    char path[4096];
} script_t;

static const char *tmpdir(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

static int script_open(script_t *s, gc_err_t *err)
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

static void script_drop(script_t *s)
{
    if (s->fp)
        fclose(s->fp);
    if (s->path[0])
        unlink(s->path);
    s->fp = NULL;
    s->path[0] = '\0';
}

/* s as a gnuplot single-quoted string ('' stands for '). */
static void q(FILE *fp, const char *s)
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

static void preamble(FILE *fp, int w, int h, const char *title, const char *xl, const char *yl,
                     const char *foot)
{
    fprintf(fp,
            "set terminal svg size %d,%d noenhanced font 'sans,12' background '#ffffff'\n"
            "set encoding utf8\nset grid\nset bmargin 5\nset datafile missing '?'\n",
            w, h);
    fputs("set title ", fp);
    q(fp, title);
    fputs("\nset xlabel ", fp);
    q(fp, xl);
    fputs("\nset ylabel ", fp);
    q(fp, yl);
    fputs("\nset label 99 ", fp);
    q(fp, foot);
    fputs(" at screen 0.01, screen 0.02 font ',8' tc rgb '#666666'\n", fp);
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
static int render(script_t *s, const char *out, int force, gc_err_t *err)
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
    script_t s;
    int rc = script_open(&s, err);
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
    script_drop(&s);
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
    pts_t p;
} series_t;

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
                snprintf(sr[ns++].name, sizeof(sr[0].name), "%s", name);
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
    script_t s;
    if ((rc = script_open(&s, err)) != 0)
        goto done;
    preamble(s.fp, 960, 600, "Load latency vs array size (P-chase)", "array size (KiB)",
             "latency (cycles)", foot);
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
        fprintf(s.fp, "%s$s%d using 1:2 with linespoints pt 7 ps 0.5 title ", first ? "" : ", ", k);
        q(s.fp, sr[k].name);
        first = 0;
    }
    for (int i = 0; i < n_arch; i++)
        if (ap[i].n) {
            char t[200];
            snprintf(t, sizeof(t), "%s (arch file: L1, L2, DRAM)", archs[i]->name);
            fprintf(s.fp, "%s$a%d using 1:2 with lines dt 2 lw 2 title ", first ? "" : ", ", i);
            q(s.fp, t);
            first = 0;
        }
    fputs("\n", s.fp);
    rc = render(&s, out, force, err);
    script_drop(&s);
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

static int heatmap_one(const form_t *f, const char *dev, const char *trace, const char *outdir,
                       int force, gc_err_t *err)
{
    long *wv = malloc(f->n * sizeof(long)), *iv = malloc(f->n * sizeof(long));
    if (!wv || !iv) {
        free(wv);
        free(iv);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    size_t nw = uniq(f, 0, wv), ni = uniq(f, 1, iv);
    char file[160], path[4096], title[320], foot[1024];
    size_t k = 0;
    for (const char *p = f->label; *p && k + 1 < sizeof(file); p++)
        file[k++] = (*p == ' ') ? '-' : (*p == '.') ? '_' : *p;
    file[k] = '\0';
    snprintf(path, sizeof(path), "%s/heatmap-%s.svg", outdir, file);
    snprintf(title, sizeof(title), "%s: throughput over ILP x warps (%s)", f->label, dev);
    snprintf(foot, sizeof(foot), "gpucal plot heatmap: %s (scope sm; mean of repeated points)",
             trace);
    script_t s;
    int rc = script_open(&s, err);
    if (rc) {
        free(wv);
        free(iv);
        return rc;
    }
    preamble(s.fp, 760, 560, title, "warps per SM", "ILP (independent instructions per warp)",
             foot);
    fprintf(s.fp,
            "set cblabel 'throughput (FMA/clk/SM)'\nunset key\nunset grid\n"
            "set xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\n"
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
    fputs("EOD\nplot $d using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder lc "
          "palette, $d using 1:2:(sprintf('%.0f', $3)) with labels font ',9' tc rgb '#ffffff'\n",
          s.fp);
    rc = render(&s, path, force, err);
    script_drop(&s);
    free(wv);
    free(iv);
    return rc;
}

int gc_plot_heatmaps(const char *trace, const char *outdir, int force, int *n_written,
                     gc_err_t *err)
{
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
        rc = heatmap_one(&fm[k], dev, trace, outdir, force, err);
        if (!rc)
            (*n_written)++;
    }
    for (int k = 0; k < GC_PLOT_FORMS_MAX; k++)
        free(fm[k].c);
    free(fm);
    return rc;
}

/* ---- P-chase latency histogram ---- */

#define HIST_MAX 100000 /* cycles: the arch schema's latency bound */

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
    script_t s;
    if (!rc)
        rc = script_open(&s, err);
    if (rc) {
        free(cnt);
        return rc;
    }
    long w = (hi - lo) / 200 + 1; /* about 200 bins */
    char title[256], foot[1024];
    snprintf(title, sizeof(title),
             "Fine-grained P-chase latency histogram and k-means centres (%s)", dev);
    snprintf(foot, sizeof(foot), "gpucal plot hist: %s (%ld accesses, bins of %ld cycles)%s%s",
             trace, n, w, arch ? "; centres: arch " : "", arch ? arch->name : "");
    preamble(s.fp, 960, 560, title, "latency (cycles)", "accesses (count)", foot);
    fprintf(s.fp,
            "set style fill solid 0.6 noborder\nset boxwidth %ld\nset key top right\n"
            "set yrange [0:*]\n",
            w);
    fputs("$h << EOD\n", s.fp);
    for (long b = lo - lo % w; b <= hi; b += w) {
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
            fprintf(s.fp,
                    "set arrow %d from %.17g, graph 0 to %.17g, graph 1 nohead front dt 2 lw 2 lc "
                    "rgb '#d62728'\nset label %d ",
                    i + 1, c[i].q->v, c[i].q->v, i + 1);
            q(s.fp, lab);
            fprintf(s.fp,
                    " at %.17g, graph 0.97 rotate by 90 right front offset -0.8,0 tc "
                    "rgb '#d62728'\n",
                    c[i].q->v);
            nc++;
        }
    }
    fputs("plot $h using 1:2 with boxes lc rgb '#1f77b4' title 'accesses per bin'", s.fp);
    if (nc) {
        char t[160];
        snprintf(t, sizeof(t), "k-means centres of %s (L2 near/far hit/miss)", arch->name);
        fputs(", NaN with lines dt 2 lw 2 lc rgb '#d62728' title ", s.fp);
        q(s.fp, t);
    }
    fputs("\n", s.fp);
    rc = render(&s, out, force, err);
    script_drop(&s);
    free(cnt);
    return rc;
}

/* ---- tensor forms across architectures ---- */

/* "inst shape a.c[ operands]": a form whatever its data pattern. */
static const char *form_label(const gc_tensor_t *t, char *buf, size_t n)
{
    snprintf(buf, n, "%s %s %s.%s%s%s", t->inst, t->shape, t->a, t->c, t->operands ? " " : "",
             t->operands ? t->operands : "");
    return buf;
}

/* The entry of a for form label l: random data preferred over zero. */
static const gc_tensor_t *form_find(const gc_arch_t *a, const char *l)
{
    const gc_tensor_t *best = NULL;
    char buf[128];
    for (size_t t = 0; t < a->n_tensor; t++) {
        const gc_tensor_t *e = &a->tensor[t];
        if (strcmp(form_label(e, buf, sizeof(buf)), l))
            continue;
        if (!best || (e->data && !strcmp(e->data, "rand")))
            best = e;
    }
    return best;
}

int gc_plot_mma(const gc_arch_t *const *archs, int n_arch, const char *inst, const char *out,
                int force, gc_err_t *err)
{
    char(*lab)[128] = calloc(GC_PLOT_FORMS_MAX, sizeof(*lab));
    if (!lab)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int nf = 0, rc = 0;
    for (int i = 0; i < n_arch && !rc; i++)
        for (size_t t = 0; t < archs[i]->n_tensor; t++) {
            const gc_tensor_t *e = &archs[i]->tensor[t];
            if (strcmp(e->inst, inst) || (!e->latency_cyc.set && !e->peak_fma_clk_sm.set))
                continue;
            char l[128];
            form_label(e, l, sizeof(l));
            int k = 0;
            while (k < nf && strcmp(lab[k], l))
                k++;
            if (k == nf) {
                if (nf == GC_PLOT_FORMS_MAX) {
                    rc = gc_err_set(err, GC_ELIMIT, "more than %d tensor forms", GC_PLOT_FORMS_MAX);
                    break;
                }
                snprintf(lab[nf++], sizeof(lab[0]), "%s", l);
            }
        }
    if (!rc && nf == 0)
        rc = gc_err_set(err, GC_ENODATA,
                        "no tensor form with inst '%s' and a latency or peak in the given arch "
                        "files (try --inst mma, mma.sp or wgmma)",
                        inst);
    script_t s;
    if (!rc)
        rc = script_open(&s, err);
    if (rc) {
        free(lab);
        return rc;
    }
    char foot[1024] = "gpucal plot mma: arch";
    for (int i = 0; i < n_arch; i++) {
        size_t fl = strlen(foot);
        snprintf(foot + fl, sizeof(foot) - fl, " %s", archs[i]->name);
    }
    size_t fl = strlen(foot);
    snprintf(foot + fl, sizeof(foot) - fl, " (random-data figures where the file has both)");
    int wide = nf > 14 ? 56 * nf + 360 : 1160;
    fprintf(s.fp,
            "set terminal svg size %d,1000 noenhanced font 'sans,12' background "
            "'#ffffff'\nset encoding utf8\nset grid ytics\nset datafile missing '?'\n"
            "set style data histograms\nset style histogram clustered gap 1\n"
            "set style fill solid 0.8 border -1\nset xtics rotate by -35 left\n"
            "set key outside right top vertical\nset rmargin 16\nset bmargin 10\n"
            "set yrange [0:*]\n"
            "set label 99 ",
            wide);
    q(s.fp, foot);
    fputs(" at screen 0.01, screen 0.008 font ',8' tc rgb '#666666'\n", s.fp);
    /* two tables: latency and peak, one column per arch */
    for (int which = 0; which < 2; which++) {
        fprintf(s.fp, "$%s << EOD\n", which ? "peak" : "lat");
        for (int k = 0; k < nf; k++) {
            fprintf(s.fp, "\"%s\"", lab[k]); /* labels are [a-z0-9. ] (schema) */
            for (int i = 0; i < n_arch; i++) {
                const gc_tensor_t *e = form_find(archs[i], lab[k]);
                const gc_qty_t *v = !e ? NULL : which ? &e->peak_fma_clk_sm : &e->latency_cyc;
                if (v && v->set)
                    fprintf(s.fp, " %.17g", v->v);
                else
                    fputs(" ?", s.fp);
            }
            fputc('\n', s.fp);
        }
        fputs("EOD\n", s.fp);
    }
    fputs("set multiplot layout 2,1\n", s.fp);
    for (int which = 0; which < 2; which++) {
        char title[160];
        snprintf(title, sizeof(title),
                 which ? "%s peak throughput per form" : "%s completion latency per form", inst);
        fputs("set title ", s.fp);
        q(s.fp, title);
        fputs("\nset xlabel 'instruction form (inst shape A.C)'\nset ylabel ", s.fp);
        q(s.fp, which ? "peak (FMA/clk/SM)" : "latency (cycles)");
        fputs("\nplot ", s.fp);
        for (int i = 0; i < n_arch; i++) {
            fprintf(s.fp, "%s$%s using %d%s title ", i ? ", " : "", which ? "peak" : "lat", i + 2,
                    i ? "" : ":xtic(1)");
            q(s.fp, archs[i]->name);
        }
        fputs("\n", s.fp);
    }
    fputs("unset multiplot\n", s.fp);
    rc = render(&s, out, force, err);
    script_drop(&s);
    free(lab);
    return rc;
}
