/* plot.h - SVG charts of traces and architectures, drawn by gnuplot.
 *
 * Each chart is a gnuplot script (data inline as datablocks) that gpucal
 * writes to a temporary file and runs with `gnuplot SCRIPT`; gnuplot's
 * standard output, the SVG, goes straight into a gc_afile, so a chart
 * appears whole or not at all and never replaces a file without force.
 * Every chart has a title and axis labels with units, and a footnote that
 * names its inputs.
 *
 *   latency  load latency vs array size: pchase traces (one line per device,
 *            path and pattern) and the arch files' L1 / L2 / DRAM latencies
 *            as steps at their capacities
 *   heatmap  ILP x warps throughput of every tensor form of an mma / mma_sp /
 *            wgmma trace (seed 000's figures), one SVG per form
 *   hist     the fine-grained P-chase latency histogram with the arch's
 *            k-means centres (L2 near/far hit/miss) as vertical lines
 *   mma      completion latency and peak throughput per tensor form across
 *            architectures (two panels, log axes, emulated forms marked)
 *   roofline an arch's measured ceilings (tensor forms, CUDA-core pipes, L1,
 *            shared, L2, DRAM bandwidth) with kernels predicted on it
 *   stall    stall-stack bars of predictions (kernels x archs)
 *   validation  predicted vs measured times (CSV tables), log-log, y = x
 *            and a +-10 % band
 * An output ending in .png is drawn as PNG (gnuplot's pngcairo), else SVG.
 *
 * Reads: trace CSVs (traces/trace.h), loaded arch files. Writes: the SVGs
 * given. Runs: gnuplot from PATH (Debian: gnuplot-nox); without it every
 * chart fails with one line (GC_ERUN, exit 1).
 */
#ifndef GC_PLOT_H
#define GC_PLOT_H

#include <stddef.h>

#include "../util/err.h"
#include "../arch/arch.h"
#include "../model/predict/kernel.h"

/* Limits: data points per chart, tensor forms per trace, series per chart. */
#define GC_PLOT_POINTS_MAX 1000000
#define GC_PLOT_FORMS_MAX 256
#define GC_PLOT_SERIES_MAX 64

/* 0 if gnuplot can be started, else GC_ERUN and the one-line reason. */
int gc_plot_check(gc_err_t *err);

/* Latency vs array size to out (an .svg path): the pchase traces (n_traces
 * paths) and the archs (n_arch, may be 0) as steps. At least one of the two
 * must give data (else GC_ENODATA). */
int gc_plot_latency(const gc_arch_t *const *archs, int n_arch, const char *const *traces,
                    int n_traces, const char *out, int force, gc_err_t *err);

/* One heat map per tensor form of the sweep trace whose sweep is 2-D (more
 * than one warp count and ILP), written as outdir/heatmap-<form>.<ext>
 * (ext "svg" or "png"; outdir is created), colour scale from 0;
 * *n_written = the number of files, *n_flat = forms left out (a 1-D
 * sweep). Only scope=sm rows. */
int gc_plot_heatmaps(const char *trace, const char *outdir, const char *ext, int force,
                     int *n_written, int *n_flat, gc_err_t *err);

/* Histogram of the latency_cyc column of a pchase_fine trace to out, with
 * the near/far hit/miss centres of arch (NULL: none) as vertical lines. */
int gc_plot_hist(const char *trace, const gc_arch_t *arch, const char *out, int force,
                 gc_err_t *err);

/* Latency and peak per tensor form of instruction family inst ("mma",
 * "mma.sp", "wgmma", ...) across the archs, to out. */
int gc_plot_mma(const gc_arch_t *const *archs, int n_arch, const char *inst, const char *out,
                int force, gc_err_t *err);

/* Roofline of a: compute ceilings (the best dense tensor form per operand
 * type, CUDA-core fp64/fp32/half2 FMA) and memory ceilings (L1, shared, L2,
 * DRAM bandwidth), every value from the arch file (or derived as predict
 * derives it); the nk kernels predicted on a and placed at (FLOP per DRAM
 * byte, FLOP/s). */
int gc_plot_roofline(const gc_arch_t *a, gc_kernel_t *const *ks, int nk, const char *out,
                     int force, gc_err_t *err);

/* Stall-stack bars (predicted time split by resource) of every kernel on
 * every arch (kernel-major order). */
int gc_plot_stall(const gc_arch_t *const *archs, int n_arch, gc_kernel_t *const *ks, int nk,
                  const char *out, int force, gc_err_t *err);

/* Predicted against measured time from n CSV tables with the columns
 * name,predicted_us,measured_us[,gpu] ('#' lines are comments); points
 * coloured by gpu (else by table). Bad cells: GC_EINPUT FILE:LINE. */
int gc_plot_validation(const char *const *tables, int n, const char *out, int force,
                       gc_err_t *err);

#endif
