/* plot_model.c - charts of predictions: the roofline of an architecture
 * with kernels placed on it, stall-stack bars, and predicted against
 * measured times (see plot.h). Reads arch files and kernel descriptions
 * (through model/predict) and validation tables (CSV); writes the chart. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/predict/derive.h"
#include "../util/iotrack.h"
#include "../model/predict/machine.h"
#include "../model/predict/predict.h"
#include "plot.h"
#include "plot_int.h"

/* ---- roofline ---- */

#define ROOF_MAX 16

typedef struct ceiling {
    char what[96];      /* "tensor f16", "L2" */
    char detail[64];    /* "(wgmma m64n256k16)" or "" */
    const char *unit;   /* TFLOP/s, TOP/s, GB/s */
    double v;           /* in unit */
    char name[224];     /* the label, made by merge_ceilings */
} ceiling_t;

typedef struct roof {
    ceiling_t comp[ROOF_MAX], mem[ROOF_MAX];
    int nc, nm;
} roof_t;

static void add_ceiling(ceiling_t *c, int *n, double v, const char *unit, const char *what,
                        const char *detail)
{
    if (!(v > 0) || !isfinite(v) || *n == ROOF_MAX)
        return;
    c[*n] = (ceiling_t){"", "", unit, v, ""};
    snprintf(c[*n].what, sizeof(c[*n].what), "%s", what);
    snprintf(c[*n].detail, sizeof(c[*n].detail), "%s", detail ? detail : "");
    (*n)++;
}

/* Ceilings within 3 % of each other would print one label over the other:
 * they become one entry naming both ("tensor f16, bf16 ..."). Then every
 * entry gets its label. */
static void merge_ceilings(ceiling_t *c, int *n)
{
    for (int i = 0; i < *n; i++)
        for (int j = i + 1; j < *n; j++) {
            if (fabs(c[j].v - c[i].v) > 0.03 * c[i].v)
                continue;
            size_t l = strlen(c[i].what);
            const char *w = c[j].what;
            /* "tensor f16" + "tensor bf16" -> "tensor f16, bf16" */
            if (!strncmp(w, "tensor ", 7) && !strncmp(c[i].what, "tensor ", 7))
                w += 7;
            snprintf(c[i].what + l, sizeof(c[i].what) - l, ", %s", w);
            if (strcmp(c[i].unit, c[j].unit))
                c[i].unit = "T(FL)OP/s";
            if (strcmp(c[i].detail, c[j].detail))
                c[i].detail[0] = '\0';
            memmove(&c[j], &c[j + 1], (size_t)(*n - j - 1) * sizeof(*c));
            (*n)--;
            j--;
        }
    for (int i = 0; i < *n; i++)
        snprintf(c[i].name, sizeof(c[i].name), c[i].v >= 1000 ? "%s%s%s: %.0f %s" : "%s%s%s: %.3g %s",
                 c[i].what, c[i].detail[0] ? " " : "", c[i].detail, c[i].v, c[i].unit);
}

/* Dense tensor forms: the best peak of each operand type (b1, s4, u4 left
 * out: bit and nibble forms would dwarf the rest), at the clock measured
 * while the form ran (else the arch's tensor clock). */
static void tensor_ceilings(const gc_arch_t *a, const gc_machine_t *m, roof_t *r)
{
    static const char *const types[] = {"f64", "tf32", "f16", "bf16", "e4m3", "s8"};
    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
        double best = 0;
        const gc_tensor_t *bf = NULL;
        for (size_t i = 0; i < a->n_tensor; i++) {
            const gc_tensor_t *e = &a->tensor[i];
            if (strcmp(e->a, types[t]) || strstr(e->inst, ".sp") || !e->peak_fma_clk_sm.set)
                continue;
            double clk = e->clock_mhz.set ? e->clock_mhz.v : m->clock_tensor_mhz;
            double tf = 2 * e->peak_fma_clk_sm.v * m->sms * clk / 1e6;
            if (tf > best)
                best = tf, bf = e;
        }
        if (!bf)
            continue;
        char what[32], detail[64];
        snprintf(what, sizeof(what), "tensor %s", types[t]);
        snprintf(detail, sizeof(detail), "(%s)", bf->inst);
        add_ceiling(r->comp, &r->nc, best, !strcmp(types[t], "s8") ? "TOP/s" : "TFLOP/s", what,
                    detail);
    }
}

/* CUDA-core FMA pipes (fp64, fp32, half2) through the model's own rates
 * (derive.c: the arch's alu entry, else its pipe's share of the lanes). */
static void core_ceilings(const gc_machine_t *m, roof_t *r)
{
    static const struct {
        const char *op, *label;
        double flop; /* per thread-op */
    } core[] = {{"dfma", "CUDA cores fp64", 2},
                {"ffma", "CUDA cores fp32", 2},
                {"hfma2", "CUDA cores f16x2", 4}};
    for (size_t i = 0; i < sizeof(core) / sizeof(core[0]); i++) {
        gc_kop_t op;
        memset(&op, 0, sizeof(op));
        op.cls = GC_OP_ALU;
        op.name = core[i].op;
        gc_pipe_t p;
        gc_err_t e;
        int cls;
        if (gc_machine_alu(m, &op, "roofline", &p, &cls, NULL, &e) || !(p.issue_cyc > 0))
            continue;
        double ops_clk_sm = 32.0 * m->sub_cores / p.issue_cyc;
        char detail[32];
        snprintf(detail, sizeof(detail), "(%s)", core[i].op);
        add_ceiling(r->comp, &r->nc, core[i].flop * ops_clk_sm * m->sms * m->clock_max_mhz / 1e6,
                    "TFLOP/s", core[i].label, detail);
    }
}

static void mem_ceilings(const gc_arch_t *a, const gc_machine_t *m, roof_t *r)
{
    const gc_memory_t *mm = &a->memory;
    double clk = m->clock_memory_mhz > 0 ? m->clock_memory_mhz : m->clock_max_mhz;
    const gc_qty_t *l1 = mm->l1.bw_v4_bytes_clk_sm.set ? &mm->l1.bw_v4_bytes_clk_sm
                                                       : &mm->l1.bw_bytes_clk_sm;
    const gc_qty_t *sh = mm->shared.bw_v4_bytes_clk_sm.set ? &mm->shared.bw_v4_bytes_clk_sm
                                                           : &mm->shared.bw_bytes_clk_sm;
    const gc_qty_t *l2 =
        mm->l2.bw_v4_bytes_clk.set ? &mm->l2.bw_v4_bytes_clk : &mm->l2.bw_bytes_clk;
    if (l1->set)
        add_ceiling(r->mem, &r->nm, l1->v * m->sms * clk / 1e3, "GB/s", "L1", NULL);
    if (sh->set)
        add_ceiling(r->mem, &r->nm, sh->v * m->sms * clk / 1e3, "GB/s", "shared", NULL);
    if (l2->set)
        add_ceiling(r->mem, &r->nm, l2->v * clk / 1e3, "GB/s", "L2", NULL);
    add_ceiling(r->mem, &r->nm, m->dram_bw_gbs, "GB/s", "DRAM", NULL);
}

/* Floating-point (and integer tensor) operations of a whole kernel: the
 * tensor multiply-adds twice, plus CUDA-core arithmetic per thread (an FMA
 * 2, a half2 FMA 4, a half2 add or multiply 2, other float ops 1). */
static double kernel_flop(const gc_kernel_t *k, const gc_prediction_t *p)
{
    double flop = 2 * p->tensor_fma, warps = gc_kernel_blocks(k) * (double)gc_kernel_warps(k);
    const gc_kphase_t *ph[3] = {&k->prologue, &k->loop, &k->epilogue};
    for (int i = 0; i < 3; i++) {
        if (!ph[i]->present)
            continue;
        for (size_t j = 0; j < ph[i]->n_ops; j++) {
            const gc_kop_t *op = &ph[i]->ops[j];
            if (op->cls != GC_OP_ALU || !op->name)
                continue;
            const char *n = op->name;
            double per = !strncmp(n, "hfma2", 5)                              ? 4
                         : !strncmp(n, "hadd2", 5) || !strncmp(n, "hmul2", 5) ? 2
                         : !strncmp(n, "ffma", 4) || !strncmp(n, "dfma", 4)   ? 2
                         : !strncmp(n, "fadd", 4) || !strncmp(n, "fmul", 4) ||
                                 !strncmp(n, "dadd", 4) || !strncmp(n, "dmul", 4)
                             ? 1
                             : 0;
            flop += per * 32 * op->count * ph[i]->trips * warps;
        }
    }
    return flop;
}

typedef struct kpoint {
    char name[64];
    double ai, tflops, time_us;
    const char *bound;
    int l2; /* intensity against L2 bytes (no DRAM traffic) */
} kpoint_t;

/* Predict each kernel on a; a kernel without arithmetic or traffic cannot
 * sit on log axes: it is left off with a warning. *np = points kept. */
static int roof_points(const gc_arch_t *a, gc_kernel_t *const *ks, int nk, kpoint_t *pt, int *np,
                       gc_err_t *err)
{
    *np = 0;
    for (int i = 0; i < nk; i++) {
        gc_prediction_t p;
        int rc = gc_predict(a, ks[i], NULL, &p, err);
        if (rc)
            return rc;
        double flop = kernel_flop(ks[i], &p);
        double bytes = p.dram_bytes > 0 ? p.dram_bytes : p.l2_bytes;
        const char *f = ks[i]->path ? ks[i]->path : ks[i]->name;
        if (!(flop > 0) || !(bytes > 0)) {
            gc_warn_at(f, 0, 0, "kernel '%s' left off the roofline: it has no %s", ks[i]->name,
                       flop > 0 ? "memory traffic" : "arithmetic (FLOP)");
            continue;
        }
        kpoint_t *q = &pt[(*np)++];
        snprintf(q->name, sizeof(q->name), "%s", ks[i]->name);
        q->ai = flop / bytes;
        q->tflops = flop / p.time_us / 1e6;
        q->time_us = p.time_us;
        q->bound = gc_predict_resource(p.bound);
        q->l2 = !(p.dram_bytes > 0);
    }
    return 0;
}

static void roof_script(FILE *fp, const char *out, const gc_arch_t *a, const roof_t *r,
                        const kpoint_t *pt, int nk)
{
    double top = 0, bot = INFINITY, dram = r->mem[r->nm - 1].v;
    for (int i = 0; i < r->nc; i++)
        top = fmax(top, r->comp[i].v), bot = fmin(bot, r->comp[i].v);
    double xlo = 1.0 / 16, xhi = 4096;
    for (int i = 0; i < nk; i++)
        xlo = fmin(xlo, pt[i].ai / 2), xhi = fmax(xhi, pt[i].ai * 2);
    double ylo = fmin(dram * xlo / 1e3, bot) / 2;
    for (int i = 0; i < nk; i++)
        ylo = fmin(ylo, pt[i].tflops / 2);
    char title[256], foot[512];
    snprintf(title, sizeof(title), "Roofline of %s%s%s: ceilings measured by gpucal (arch file)",
             a->name, a->device ? ", " : "", a->device ? a->device : "");
    snprintf(foot, sizeof(foot),
             "gpucal plot roofline --arch %s: compute ceilings start on the DRAM slope; "
             "kernels placed at their predicted time (gpucal predict)",
             a->name);
    int rows = (r->nm + nk + 1) / 2;
    gc_plot_preamble(fp, out, 1100, 720 + 20 * rows, title,
                     "operational intensity (FLOP per DRAM byte)", "performance (TFLOP/s)", foot);
    fprintf(fp,
            "set logscale xy 10\nset format x '%%g'\nset format y '%%g'\nset xrange [%g:%g]\n"
            "set yrange [%g:%g]\nset key at screen 0.5, screen %.4f center bottom horizontal "
            "maxrows %d samplen 3 spacing 1.1\nset bmargin %d\nset rmargin 4\n",
            xlo, xhi, ylo, top * 3, 26.0 / (720 + 20 * rows), rows, 6 + rows);

    static const char *const ccol[] = {"#d62728", "#ff7f0e", "#2ca02c", "#1f77b4",
                                       "#8c564b", "#e377c2", "#bcbd22", "#393b79", "#637939"};
    for (int i = 0; i < nk; i++) {
        fprintf(fp, "set label %d ", 100 + i);
        gc_plot_q(fp, pt[i].name);
        int right = pt[i].ai * 8 > xhi; /* near the right edge: name on the left */
        fprintf(fp, " at %.10g, %.10g %s offset %s, -0.1 font ',9' tc rgb '#111111' front\n",
                pt[i].ai, pt[i].tflops, right ? "right" : "left", right ? "-1.2" : "1.2");
    }
    for (int i = 0; i < r->nc; i++) {
        fprintf(fp, "set label %d ", i + 1);
        gc_plot_q(fp, r->comp[i].name);
        /* at the start of the ceiling (where it meets the DRAM slope), leaving
         * the right side, where the compute-bound kernels sit, clear */
        double x0 = fmax(xlo, r->comp[i].v * 1e3 / dram);
        if (x0 * 25 > xhi) /* no room after the start: end the label at the right edge */
            fprintf(fp, " at %g, %g right offset -0.5, 0.6 font ',9' tc rgb '%s'\n", xhi,
                    r->comp[i].v, ccol[i % 9]);
        else
            fprintf(fp, " at %g, %g left offset 0.5, 0.6 font ',9' tc rgb '%s'\n", x0,
                    r->comp[i].v, ccol[i % 9]);
    }
    fputs("plot ", fp);
    for (int i = 0; i < r->nm; i++) {
        const char *w = r->mem[i].what;
        const char *col = !strcmp(w, "DRAM")       ? "#000000"
                          : !strncmp(w, "L2", 2)   ? "#17becf"
                          : !strncmp(w, "L1", 2)   ? "#9467bd"
                                                   : "#e377c2";
        fprintf(fp, "%s(x*%g/1e3 < %g ? x*%g/1e3 : 1/0) with lines lw %d dt %d lc rgb '%s' title ",
                i ? ", " : "", r->mem[i].v, top, r->mem[i].v, i == r->nm - 1 ? 3 : 2,
                i == r->nm - 1 ? 1 : 2, col);
        gc_plot_q(fp, r->mem[i].name);
    }
    for (int i = 0; i < r->nc; i++)
        fprintf(fp, ", (x*%g/1e3 >= %g ? %g : 1/0) with lines lw 2 lc rgb '%s' notitle", dram,
                r->comp[i].v, r->comp[i].v, ccol[i % 9]);
    for (int i = 0; i < nk; i++) {
        char t[160];
        snprintf(t, sizeof(t), pt[i].time_us >= 100 ? "%s: %.0f us, %s-bound%s" : "%s: %.3g us, %s-bound%s",
                 pt[i].name, pt[i].time_us, pt[i].bound, pt[i].l2 ? " (per L2 byte)" : "");
        /* kernels in black, one shape each, named beside the point: the
         * ceilings own the colours */
        fprintf(fp, ", '-' using 1:2 with points pt %d ps 1.8 lw 2 lc rgb '#111111' title ",
                5 + 2 * (i % 4) + (i / 4) % 2);
        gc_plot_q(fp, t);
    }
    fputc('\n', fp);
    for (int i = 0; i < nk; i++)
        fprintf(fp, "%.10g %.10g\ne\n", pt[i].ai, pt[i].tflops);
}

int gc_plot_roofline(const gc_arch_t *a, gc_kernel_t *const *ks, int nk, const char *out,
                     int force, gc_err_t *err)
{
    gc_machine_t *mp = NULL;
    int rc = gc_machine_create(&mp, a, err);
    if (rc)
        return rc;
    const gc_machine_t m = *mp;
    roof_t r;
    memset(&r, 0, sizeof(r));
    tensor_ceilings(a, &m, &r);
    core_ceilings(mp, &r);
    mem_ceilings(a, &m, &r);
    merge_ceilings(r.comp, &r.nc);
    merge_ceilings(r.mem, &r.nm);
    gc_machine_destroy(mp);
    if (r.nc == 0)
        return gc_err_set(err, GC_ENODATA, "arch %s: no compute ceiling (no tensor peak and no "
                          "CUDA-core rate)", a->name);
    kpoint_t *pt = calloc((size_t)(nk > 0 ? nk : 1), sizeof(*pt));
    if (!pt)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int np = 0;
    rc = roof_points(a, ks, nk, pt, &np, err);
    gc_plot_script_t s;
    if (!rc)
        rc = gc_plot_script_open(&s, err);
    if (!rc) {
        roof_script(s.fp, out, a, &r, pt, np);
        rc = gc_plot_render(&s, out, force, err);
        gc_plot_script_drop(&s);
    }
    free(pt);
    return rc;
}

/* ---- stall stacks ---- */

/* Colours of the stack's resources, the same in every stall chart. */
static const char *const res_colour[GC_R_N] = {
    "#d62728", "#ff7f0e", "#bcbd22", "#2ca02c", "#17becf",
    "#1f77b4", "#9467bd", "#c7c7c7", "#7f7f7f",
};

/* s as a gnuplot double-quoted string: a newline becomes a line break. */
static void dq(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '\n')
            fputs("\\n", fp);
        else if (*s == '"' || *s == '\\')
            fprintf(fp, "\\%c", *s);
        else if ((unsigned char)*s >= 0x20)
            fputc(*s, fp);
    }
    fputc('"', fp);
}

/* 1 if resource r holds at least 0.1 % of p's stack (a thinner slice is
 * not drawn, nor named in the key). */
static int visible(const gc_prediction_t *p, int r)
{
    return p->cycles > 0 && p->breakdown[r] >= 0.001 * p->cycles;
}

static void stall_script(FILE *fp, const char *out, const gc_prediction_t *p, int n,
                         const char *const *lab, const char *const *acol, const char *title)
{
    double ymax = 0;
    for (int i = 0; i < n; i++)
        ymax = fmax(ymax, p[i].time_us);
    char foot[256];
    snprintf(foot, sizeof(foot),
             "gpucal plot stall: the stall stack of gpucal predict (cycles per resource, as time); "
             "above each bar: time and bound");
    gc_plot_preamble(fp, out, 190 * n + 260 > 1100 ? 190 * n + 260 : 1100, 680, title, "",
                     "predicted time (us)", foot);
    fprintf(fp,
            "set yrange [0:%g]\nset xrange [-0.6:%d.6]\nset key outside right top vertical\n"
            "set rmargin 16\nset grid noxtics ytics\nset xtics scale 0\nset xtics (",
            ymax * 1.15, n - 1);
    for (int i = 0; i < n; i++) {
        fprintf(fp, "%s", i ? ", " : "");
        dq(fp, lab[i]);
        fprintf(fp, " %d", i);
    }
    fputs(")\n", fp);
    for (int i = 0; i < n; i++) {
        char t[96];
        snprintf(t, sizeof(t), p[i].time_us >= 100 ? "%.0f us, %s" : "%.3g us, %s", p[i].time_us,
                 gc_predict_resource(p[i].bound));
        fprintf(fp, "set label %d ", i + 1);
        gc_plot_q(fp, t);
        fprintf(fp, " at %d, %g center offset 0, 0.8 font ',10' tc rgb '%s'\n", i, p[i].time_us,
                acol[i]);
    }
    for (int r = 0; r < GC_R_N; r++) {
        fprintf(fp, "$r%d << EOD\n", r);
        for (int i = 0; i < n; i++) {
            double lo = 0, us = p[i].cycles > 0 ? p[i].time_us / p[i].cycles : 0;
            for (int q = 0; q < r; q++)
                lo += p[i].breakdown[q] * us;
            double hi = lo + p[i].breakdown[r] * us;
            if (visible(&p[i], r))
                fprintf(fp, "%d %.10g %.10g\n", i, lo, hi);
        }
        fputs("EOD\n", fp);
    }
    fputs("plot ", fp);
    int first = 1;
    for (int r = 0; r < GC_R_N; r++) {
        int any = 0;
        for (int i = 0; i < n; i++)
            any |= visible(&p[i], r);
        if (!any)
            continue;
        fprintf(fp,
                "%s$r%d using 1:(($2+$3)/2):(0.3):(($3-$2)/2) with boxxyerror lc rgb '%s' "
                "fs solid 0.9 border lc rgb '#ffffff' title '%s'",
                first ? "" : ", ", r, res_colour[r], gc_predict_resource(r));
        first = 0;
    }
    fputc('\n', fp);
}

int gc_plot_stall(const gc_arch_t *const *archs, int n_arch, gc_kernel_t *const *ks, int nk,
                  const char *out, int force, gc_err_t *err)
{
    int n = n_arch * nk;
    gc_prediction_t *p = calloc((size_t)(n > 0 ? n : 1), sizeof(*p));
    char(*lab)[160] = calloc((size_t)(n > 0 ? n : 1), sizeof(*lab));
    const char **lp = calloc((size_t)(n > 0 ? n : 1), sizeof(*lp));
    const char **cp = calloc((size_t)(n > 0 ? n : 1), sizeof(*cp));
    int rc = !p || !lab || !lp || !cp ? gc_err_set(err, GC_ENOMEM, "out of memory") : 0;
    for (int k = 0, i = 0; !rc && k < nk; k++)
        for (int a = 0; !rc && a < n_arch; a++, i++) {
            rc = gc_predict(archs[a], ks[k], NULL, &p[i], err);
            if (nk == 1)
                snprintf(lab[i], sizeof(lab[i]), "%s", archs[a]->name);
            else if (n_arch == 1)
                snprintf(lab[i], sizeof(lab[i]), "%s", ks[k]->name);
            else
                snprintf(lab[i], sizeof(lab[i]), "%s\n%s", ks[k]->name, archs[a]->name);
            lp[i] = lab[i];
            cp[i] = gc_plot_arch_colour(archs[a]->name);
        }
    char title[256];
    if (nk == 1)
        snprintf(title, sizeof(title), "Stall stack of %s on %d architecture%s", ks[0]->name,
                 n_arch, n_arch == 1 ? "" : "s");
    else if (n_arch == 1)
        snprintf(title, sizeof(title), "Stall stacks of %d kernels on %s", nk, archs[0]->name);
    else
        snprintf(title, sizeof(title), "Stall stacks of %d kernels on %d architectures", nk,
                 n_arch);
    gc_plot_script_t s;
    if (!rc)
        rc = gc_plot_script_open(&s, err);
    if (!rc) {
        stall_script(s.fp, out, p, n, lp, cp, title);
        rc = gc_plot_render(&s, out, force, err);
        gc_plot_script_drop(&s);
    }
    free(p);
    free(lab);
    free(lp);
    free(cp);
    return rc;
}

/* ---- predicted vs measured ---- */

#define VAL_ROWS_MAX 100000
#define VAL_GROUPS_MAX 32

typedef struct vgroup {
    char name[96];
    double *x, *y; /* measured, predicted (us) */
    size_t n, cap;
} vgroup_t;

/* Split one CSV line into at most max cells (double quotes group, "" is a
 * quote); cells point into line, which is modified. Returns the count. */
static int csv_split(char *line, char **cell, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        char *w = p;
        cell[n++] = w;
        int quoted = *p == '"';
        if (quoted)
            p++;
        for (; *p; p++) {
            if (quoted && *p == '"' && p[1] == '"')
                *w++ = '"', p++;
            else if (quoted && *p == '"')
                quoted = 0;
            else if (!quoted && *p == ',')
                break;
            else
                *w++ = *p;
        }
        int end = !*p;
        *w = '\0';
        if (end)
            break;
        p++;
    }
    return n;
}

static int col_of(char **cell, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(cell[i], name))
            return i;
    return -1;
}

static int vgroup_add(vgroup_t *g, double x, double y, gc_err_t *err)
{
    if (g->n == g->cap) {
        size_t nc = g->cap ? 2 * g->cap : 64;
        double *nx = realloc(g->x, nc * sizeof(*nx));
        if (!nx)
            return gc_err_set(err, GC_ENOMEM, "out of memory");
        g->x = nx;
        double *ny = realloc(g->y, nc * sizeof(*ny));
        if (!ny)
            return gc_err_set(err, GC_ENOMEM, "out of memory");
        g->y = ny;
        g->cap = nc;
    }
    g->x[g->n] = x;
    g->y[g->n++] = y;
    return 0;
}

/* A positive finite time in microseconds from cell s, or a one-line error. */
static int val_time(const char *path, long ln, const char *col, const char *s, double *v,
                    gc_err_t *err)
{
    char *e;
    *v = strtod(s, &e);
    if (e == s || *e || !isfinite(*v) || !(*v > 0))
        return gc_err_at(err, GC_EINPUT, path, ln, 0,
                         "%s '%.40s' is not a positive time in microseconds", col, s);
    return 0;
}

/* Rows of one table into groups by its gpu column (else by the file's name). */
static int val_read(const char *path, vgroup_t *g, int *ng, size_t *total, gc_err_t *err)
{
    FILE *fp = fopen(path, "r");
    gc_io_note_input(path); /* no output may be written over it (util/iotrack.h) */
    if (!fp)
        return gc_err_set(err, GC_EINPUT, "%s: cannot open the validation table: %s (give a "
                          "CSV with name,predicted_us,measured_us[,gpu])",
                          path, strerror(errno));
    char line[4096], *cell[64];
    int ci[3] = {-1, -1, -1}, rc = 0, header = 0;
    long ln = 0;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    while (!rc && fgets(line, sizeof(line), fp)) {
        ln++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || !line[0])
            continue;
        int n = csv_split(line, cell, 64);
        if (!header) {
            static const char *const need[] = {"predicted_us", "measured_us", "gpu"};
            for (int i = 0; i < 3; i++)
                ci[i] = col_of(cell, n, need[i]);
            if (col_of(cell, n, "name") < 0 || ci[0] < 0 || ci[1] < 0)
                rc = gc_err_at(err, GC_EINPUT, path, ln, 0,
                               "the header needs the columns name,predicted_us,measured_us[,gpu]");
            header = 1;
            continue;
        }
        if (n <= ci[0] || n <= ci[1])
            rc = gc_err_at(err, GC_EINPUT, path, ln, 0, "%d cells: the row is short", n);
        double pr = 0, me = 0;
        if (!rc)
            rc = val_time(path, ln, "predicted_us", cell[ci[0]], &pr, err);
        if (!rc)
            rc = val_time(path, ln, "measured_us", cell[ci[1]], &me, err);
        if (!rc && ++*total > VAL_ROWS_MAX)
            rc = gc_err_set(err, GC_ELIMIT, "more than %d validation rows", VAL_ROWS_MAX);
        if (rc)
            break;
        const char *gn = ci[2] >= 0 && ci[2] < n && cell[ci[2]][0] ? cell[ci[2]] : base;
        int k = 0;
        while (k < *ng && strcmp(g[k].name, gn))
            k++;
        if (k == *ng) {
            if (*ng == VAL_GROUPS_MAX) {
                rc = gc_err_at(err, GC_ELIMIT, path, ln, 0, "more than %d GPUs", VAL_GROUPS_MAX);
                break;
            }
            snprintf(g[(*ng)++].name, sizeof(g[0].name), "%s", gn);
        }
        rc = vgroup_add(&g[k], me, pr, err);
    }
    if (!rc && !header)
        rc = gc_err_at(err, GC_EINPUT, path, 0, 0,
                       "empty: expected a header name,predicted_us,measured_us[,gpu]");
    fclose(fp);
    return rc;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median |error| (%) and the count within 10 % over all groups. */
static double val_stats(const vgroup_t *g, int ng, size_t total, size_t *within)
{
    double *e = malloc((total ? total : 1) * sizeof(*e));
    size_t n = 0;
    *within = 0;
    for (int k = 0; k < ng; k++)
        for (size_t i = 0; i < g[k].n; i++) {
            double v = 100 * fabs(g[k].y[i] - g[k].x[i]) / g[k].x[i];
            *within += v <= 10;
            if (e)
                e[n++] = v;
        }
    double med = 0;
    if (e && n) {
        qsort(e, n, sizeof(*e), cmp_dbl);
        med = n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
    }
    free(e);
    return med;
}

static void val_script(FILE *fp, const char *out, const vgroup_t *g, int ng, size_t total,
                       const char *foot)
{
    double lo = INFINITY, hi = 0;
    for (int k = 0; k < ng; k++)
        for (size_t i = 0; i < g[k].n; i++)
            lo = fmin(lo, fmin(g[k].x[i], g[k].y[i])), hi = fmax(hi, fmax(g[k].x[i], g[k].y[i]));
    lo = pow(10, floor(log10(lo))), hi = pow(10, ceil(log10(hi)));
    size_t within = 0;
    double med = val_stats(g, ng, total, &within);
    char title[256];
    snprintf(title, sizeof(title),
             "Predicted vs measured kernel time: %zu rows, median |error| %.1f %%, %zu within "
             "10 %%",
             total, med, within);
    double emax = 10;
    for (int k = 0; k < ng; k++)
        for (size_t i = 0; i < g[k].n; i++)
            emax = fmax(emax, 100 * fabs(g[k].y[i] / g[k].x[i] - 1));
    emax = fmin(ceil(emax / 10) * 10 + 5, 400);
    gc_plot_preamble(fp, out, 900, 1060, title, "measured (us, log scale)",
                     "predicted by gpucal (us, log scale)", foot);
    fprintf(fp,
            "set multiplot\nset size 1, 0.72\nset origin 0, 0.28\nset bmargin 2\nunset xlabel\n"
            "set logscale xy 10\nset format x '%%g'\nset format y '%%g'\nset xrange [%g:%g]\n"
            "set yrange [%g:%g]\nset key top left box opaque\nset samples 400\n",
            lo, hi, lo, hi);
    for (int k = 0; k < ng; k++) {
        fprintf(fp, "$g%d << EOD\n", k);
        for (size_t i = 0; i < g[k].n; i++)
            fprintf(fp, "%.10g %.10g\n", g[k].x[i], g[k].y[i]);
        fputs("EOD\n", fp);
    }
    fputs("plot '+' using 1:(0.9*$1):(1.1*$1) with filledcurves lc rgb '#dddddd' "
          "title '+-10 %', x with lines lc rgb '#444444' dt 2 title 'predicted = measured'",
          fp);
    for (int k = 0; k < ng; k++) {
        char t[160];
        snprintf(t, sizeof(t), "%s (%zu)", g[k].name, g[k].n);
        fprintf(fp, ", $g%d using 1:2 with points pt %d ps 1.1 lc rgb '%s' title ", k,
                7 + 2 * (k % 3), gc_plot_arch_colour(g[k].name));
        gc_plot_q(fp, t);
    }
    /* the error of each row against its measured time, below */
    fprintf(fp,
            "\nset size 1, 0.28\nset origin 0, 0.02\nset tmargin 1\nset bmargin 4\n"
            "unset title\nunset logscale y\nset yrange [%g:%g]\nset format y '%%g'\n"
            "set xlabel 'measured (us, log scale)'\n"
            "set ylabel 'error (%%)'\nunset key\nunset label 99\nplot '+' using 1:(-10):(10) "
            "with filledcurves lc rgb '#dddddd', 0 with lines lc rgb '#444444' dt 2",
            -emax, emax);
    for (int k = 0; k < ng; k++)
        fprintf(fp, ", $g%d using 1:(100*($2/$1-1)) with points pt %d ps 1.1 lc rgb '%s'", k,
                7 + 2 * (k % 3), gc_plot_arch_colour(g[k].name));
    fputs("\nunset multiplot\n", fp);
}

int gc_plot_validation(const char *const *tables, int n, const char *out, int force,
                       gc_err_t *err)
{
    vgroup_t *g = calloc(VAL_GROUPS_MAX, sizeof(*g));
    if (!g)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int ng = 0, rc = 0;
    size_t total = 0;
    char foot[1024] = "gpucal plot validation:";
    for (int i = 0; i < n && !rc; i++) {
        rc = val_read(tables[i], g, &ng, &total, err);
        size_t fl = strlen(foot);
        const char *b = strrchr(tables[i], '/');
        snprintf(foot + fl, sizeof(foot) - fl, " %s", b ? b + 1 : tables[i]);
    }
    if (!rc && total == 0)
        rc = gc_err_set(err, GC_ENODATA, "no rows in the validation tables: nothing to draw");
    gc_plot_script_t s;
    if (!rc)
        rc = gc_plot_script_open(&s, err);
    if (!rc) {
        val_script(s.fp, out, g, ng, total, foot);
        rc = gc_plot_render(&s, out, force, err);
        gc_plot_script_drop(&s);
    }
    for (int k = 0; k < VAL_GROUPS_MAX; k++) {
        free(g[k].x);
        free(g[k].y);
    }
    free(g);
    return rc;
}
