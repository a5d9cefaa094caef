/* plot_forms.c - `gpucal plot mma`: completion latency and peak throughput
 * of every tensor form of one instruction family across architectures, as
 * horizontal bars on log axes (two panels, the form names once, written
 * horizontally). Forms in a fixed order (operand type, accumulator type,
 * shape); architectures by compute capability then name, each in its own
 * colour (plot_int.h) in every figure. A form that the architecture runs
 * emulated rather than as one tensor-core instruction (measure/forms.h:
 * path "emu", read off the SASS) is drawn hatched and marked with '*'.
 * Reads loaded arch files; writes the chart given. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../measure/forms.h"
#include "plot.h"
#include "plot_int.h"

typedef struct fkey {
    const char *inst, *shape, *a, *c, *operands;
    char label[128];
} fkey_t;

/* Rank of an operand type: wide floating point first, bits last. */
static int type_rank(const char *t)
{
    static const char *const order[] = {"f64", "f16",  "bf16", "tf32", "e4m3", "e5m2",
                                        "s8",  "u8",   "s4",   "u4",   "b1"};
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
        if (t && !strcmp(t, order[i]))
            return (int)i;
    return 99;
}

static long shape_num(const char *s)
{
    int m = 0, n = 0, k = 0;
    if (gc_tensor_shape(s, &m, &n, &k))
        return 0;
    return ((long)m * 1000 + n) * 1000 + k;
}

static int cmp_form(const void *x, const void *y)
{
    const fkey_t *a = x, *b = y;
    int d = type_rank(a->a) - type_rank(b->a);
    if (!d)
        d = type_rank(a->c) - type_rank(b->c);
    if (!d) {
        long sa = shape_num(a->shape), sb = shape_num(b->shape);
        d = (sa > sb) - (sa < sb);
    }
    if (!d)
        d = strcmp(a->operands ? a->operands : "", b->operands ? b->operands : "");
    return d;
}

static int cmp_arch(const void *x, const void *y)
{
    const gc_arch_t *a = *(const gc_arch_t *const *)x, *b = *(const gc_arch_t *const *)y;
    int d = gc_arch_cc(a) - gc_arch_cc(b);
    return d ? d : strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

static int same_form(const gc_tensor_t *t, const fkey_t *f)
{
    return !strcmp(t->inst, f->inst) && !strcmp(t->shape, f->shape) && !strcmp(t->a, f->a) &&
           !strcmp(t->c, f->c) &&
           !strcmp(t->operands ? t->operands : "", f->operands ? f->operands : "");
}

/* The entry of a for form f: random data preferred over zero. */
static const gc_tensor_t *form_find(const gc_arch_t *a, const fkey_t *f)
{
    const gc_tensor_t *best = NULL;
    for (size_t t = 0; t < a->n_tensor; t++) {
        const gc_tensor_t *e = &a->tensor[t];
        if (same_form(e, f) && (!best || (e->data && !strcmp(e->data, "rand"))))
            best = e;
    }
    return best;
}

/* 1 if form f runs emulated on compute capability cc (measure/forms.h). */
static int emulated(const fkey_t *f, int cc)
{
    for (int i = 0; i < GC_FORM_COUNT; i++) {
        const gc_form_t *g = &gc_forms[i];
        if (!strcmp(g->inst, f->inst) && !strcmp(g->shape, f->shape) && !strcmp(g->a, f->a) &&
            !strcmp(g->c, f->c) && gc_form_planned(g, cc))
            return !strcmp(g->path, "emu");
    }
    return 0;
}

/* The forms of family inst with a latency or a peak in any arch, sorted. */
static int collect(const gc_arch_t *const *archs, int n_arch, const char *inst, fkey_t *fk,
                   int *nf, gc_err_t *err)
{
    *nf = 0;
    for (int i = 0; i < n_arch; i++)
        for (size_t t = 0; t < archs[i]->n_tensor; t++) {
            const gc_tensor_t *e = &archs[i]->tensor[t];
            if (strcmp(e->inst, inst) || (!e->latency_cyc.set && !e->peak_fma_clk_sm.set))
                continue;
            int k = 0;
            while (k < *nf && !same_form(e, &fk[k]))
                k++;
            if (k < *nf)
                continue;
            if (*nf == GC_PLOT_FORMS_MAX)
                return gc_err_set(err, GC_ELIMIT, "more than %d tensor forms", GC_PLOT_FORMS_MAX);
            fkey_t *f = &fk[(*nf)++];
            *f = (fkey_t){e->inst, e->shape, e->a, e->c, e->operands, ""};
            snprintf(f->label, sizeof(f->label), "%s %s.%s%s%s", e->shape, e->a, e->c,
                     e->operands ? " " : "", e->operands ? e->operands : "");
        }
    if (*nf == 0)
        return gc_err_set(err, GC_ENODATA,
                          "no tensor form with inst '%s' and a latency or peak in the given arch "
                          "files (try --inst mma, mma.sp or wgmma)",
                          inst);
    qsort(fk, (size_t)*nf, sizeof(*fk), cmp_form);
    return 0;
}

/* One datablock per arch: row, latency, peak, emulated (0/1). */
static void write_data(FILE *fp, const gc_arch_t *const *ar, int n_arch, const fkey_t *fk, int nf)
{
    for (int i = 0; i < n_arch; i++) {
        fprintf(fp, "$a%d << EOD\n", i);
        int cc = gc_arch_cc(ar[i]);
        for (int k = 0; k < nf; k++) {
            const gc_tensor_t *e = form_find(ar[i], &fk[k]);
            if (!e)
                continue;
            double y = nf - 1 - k + (n_arch - 1 - i - (n_arch - 1) / 2.0) * 0.8 / n_arch;
            fprintf(fp, "%.6g ", y);
            if (e->latency_cyc.set && e->latency_cyc.v > 0)
                fprintf(fp, "%.6g ", e->latency_cyc.v);
            else
                fputs("? ", fp);
            if (e->peak_fma_clk_sm.set && e->peak_fma_clk_sm.v > 0)
                fprintf(fp, "%.6g ", e->peak_fma_clk_sm.v);
            else
                fputs("? ", fp);
            fprintf(fp, "%d\n", emulated(&fk[k], cc));
        }
        fputs("EOD\n", fp);
    }
}

/* One panel: col 2 (latency) or 3 (peak) of every arch's block. */
static void panel(FILE *fp, const gc_arch_t *const *ar, int n_arch, int col, double lo, double h)
{
    fputs("plot ", fp);
    for (int i = 0; i < n_arch; i++) {
        const char *rgb = gc_plot_arch_colour(ar[i]->name);
        /* solid: one tensor-core instruction; hatched: emulated */
        fprintf(fp,
                "%s$a%d using ($4 > 0 ? NaN : sqrt(%g*$%d)):1:(%g):%d:($1-%g):($1+%g) with "
                "boxxyerror lc rgb '%s' fs solid 0.9 noborder title ",
                i ? ", " : "", i, lo, col, lo, col, h, h, rgb);
        gc_plot_q(fp, ar[i]->name);
        fprintf(fp,
                ", $a%d using ($4 > 0 ? sqrt(%g*$%d) : NaN):1:(%g):%d:($1-%g):($1+%g) with "
                "boxxyerror lc rgb '%s' fs pattern 4 border notitle",
                i, lo, col, lo, col, h, h, rgb);
        fprintf(fp,
                ", $a%d using %d:1:($%d >= 1000 ? sprintf(' %%.0f', $%d) : sprintf(' %%.3g', "
                "$%d)) with labels left font ',8' tc rgb '#333333' notitle",
                i, col, col, col, col);
    }
    fputc('\n', fp);
}

int gc_plot_mma(const gc_arch_t *const *archs_in, int n_arch, const char *inst, const char *out,
                int force, gc_err_t *err)
{
    fkey_t *fk = calloc(GC_PLOT_FORMS_MAX, sizeof(*fk));
    const gc_arch_t **ar = calloc((size_t)(n_arch > 0 ? n_arch : 1), sizeof(*ar));
    if (!fk || !ar) {
        free(fk);
        free(ar);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    memcpy(ar, archs_in, (size_t)n_arch * sizeof(*ar));
    qsort(ar, (size_t)n_arch, sizeof(*ar), cmp_arch);
    int nf = 0, rc = collect(ar, n_arch, inst, fk, &nf, err);
    gc_plot_script_t s;
    if (!rc)
        rc = gc_plot_script_open(&s, err);
    if (rc) {
        free(fk);
        free(ar);
        return rc;
    }
    FILE *fp = s.fp;
    int any_emu = 0;
    for (int k = 0; k < nf; k++)
        for (int i = 0; i < n_arch; i++)
            any_emu |= form_find(ar[i], &fk[k]) && emulated(&fk[k], gc_arch_cc(ar[i]));
    int rowpx = 8 + 14 * n_arch, height = 230 + nf * rowpx;
    gc_plot_terminal(fp, out, 1400, height);
    char foot[1024] = "gpucal plot mma: arch";
    for (int i = 0; i < n_arch; i++) {
        size_t fl = strlen(foot);
        snprintf(foot + fl, sizeof(foot) - fl, " %s", ar[i]->name);
    }
    size_t fl = strlen(foot);
    snprintf(foot + fl, sizeof(foot) - fl,
             " (random-data figures where the file has both)%s",
             any_emu ? "; hatched, *: emulated on that GPU, not one tensor-core instruction "
                       "(SASS, measure/forms.h)"
                     : "");
    fputs("set label 99 ", fp);
    gc_plot_q(fp, foot);
    fprintf(fp, " at screen 0.01, screen %.4f font ',9' tc rgb '#555555'\n", 12.0 / height);
    write_data(fp, ar, n_arch, fk, nf);
    fprintf(fp, "set yrange [-0.6:%d.6]\nset ytics (", nf - 1);
    for (int k = 0; k < nf; k++) {
        int emu = 0;
        for (int i = 0; i < n_arch; i++)
            emu |= form_find(ar[i], &fk[k]) && emulated(&fk[k], gc_arch_cc(ar[i]));
        fprintf(fp, "%s'%s%s' %d", k ? ", " : "", fk[k].label, emu ? " *" : "", nf - 1 - k);
    }
    fputs(") font ',11'\nset logscale x 10\nset format x '%g'\nset grid xtics mxtics\n"
          "set mxtics 10\nset tmargin 5\nset bmargin 5\n",
          fp);
    fprintf(fp, "set key at screen 0.5, screen %.4f center top horizontal samplen 2\n",
            1 - 34.0 / height);
    fprintf(fp, "set multiplot layout 1,2 title '%s: tensor forms across architectures'\n", inst);
    double h = 0.4 / n_arch;
    fputs("set lmargin 22\nset rmargin 3\nset title 'completion latency (1 warp, ILP 1)'\n"
          "set xlabel 'latency (cycles, log scale)'\nset xrange [1:*]\n",
          fp);
    panel(fp, ar, n_arch, 2, 1, h);
    fputs("set lmargin 3\nset rmargin 3\nset ytics 1\nset format y ''\n"
          "set title 'peak throughput per SM'\n"
          "set xlabel 'peak (FMA/clk/SM, log scale)'\nset xrange [1:*]\nunset key\n",
          fp);
    panel(fp, ar, n_arch, 3, 1, h);
    fputs("unset multiplot\n", fp);
    rc = gc_plot_render(&s, out, force, err);
    gc_plot_script_drop(&s);
    free(fk);
    free(ar);
    return rc;
}
