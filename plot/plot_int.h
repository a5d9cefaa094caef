/* plot_int.h - what the chart files of plot/ share (not part of the plot
 * API): the temporary gnuplot script, quoting, the common preamble, the
 * terminal for the output's extension (.png: pngcairo, else SVG), the
 * colour of each architecture, and rendering into an atomic file. */
#ifndef GC_PLOT_INT_H
#define GC_PLOT_INT_H

#include <stdio.h>

#include "../util/err.h"

typedef struct gc_plot_script {
    FILE *fp;
    char path[4096];
} gc_plot_script_t;

/* A temporary script file (TMPDIR); drop removes it (a dropped or never
 * opened script is a no-op). */
int gc_plot_script_open(gc_plot_script_t *s, gc_err_t *err);
void gc_plot_script_drop(gc_plot_script_t *s);

/* s as a gnuplot single-quoted string. */
void gc_plot_q(FILE *fp, const char *s);

/* 1 if out ends in .png. */
int gc_plot_is_png(const char *out);

/* The terminal line for out (w x h pixels) and the common settings. */
void gc_plot_terminal(FILE *fp, const char *out, int w, int h);

/* Terminal, grid, title, axis labels and the footnote naming the inputs. */
void gc_plot_preamble(FILE *fp, const char *out, int w, int h, const char *title, const char *xl,
                      const char *yl, const char *foot);

/* "#rrggbb" of architecture name: the same in every figure. */
const char *gc_plot_arch_colour(const char *name);

/* Run gnuplot on the script; its output becomes out (atomic, never replaces
 * a file without force). */
int gc_plot_render(gc_plot_script_t *s, const char *out, int force, gc_err_t *err);

#endif
