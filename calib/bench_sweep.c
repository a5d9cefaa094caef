/* bench_sweep.c - calib's handlers of the ILP x warps sweeps: mma, mma_sp,
 * wgmma (tensor entries), alu, ldmatrix, smem (see bench.h; the methods
 * are in calib/README.md). Reads one table, writes arch entries. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "fit.h"
#include "sweep.h"

#define MAXPT 4096 /* sweep points per form */

/* ---- shared pieces ---- */

/* Check lo <= v <= hi of a row; the error names the file and line. */
/* the columns of a sweep table */
typedef struct sweep_cols {
    int warps, ilp, cyc, cyc_lo, cyc_hi, rate, rate_lo, rate_hi, clock;
} sweep_cols_t;

static void sweep_cols(const gc_table_t *t, const char *rate, const char *rlo, const char *rhi,
                       sweep_cols_t *s)
{
    s->warps = gc_table_col(t, "warps");
    s->ilp = gc_table_col(t, "ilp");
    s->cyc = gc_table_col(t, "cyc_per_iter");
    s->cyc_lo = gc_table_col(t, "cyc_lo");
    s->cyc_hi = gc_table_col(t, "cyc_hi");
    s->rate = gc_table_col(t, rate);
    s->rate_lo = gc_table_col(t, rlo);
    s->rate_hi = gc_table_col(t, rhi);
    s->clock = gc_table_col(t, "clock_mhz");
}

/* One row as a sweep point (warps divided by unit); checks its intervals. */
static int row_point(const gc_table_t *t, const char *file, size_t row, const sweep_cols_t *s,
                     double unit, gc_sweep_pt_t *p, gc_err_t *err)
{
    int rc = gc_table_check_ci(t, file, row, s->cyc, s->cyc_lo, s->cyc_hi, err);
    if (!rc)
        rc = gc_table_check_ci(t, file, row, s->rate, s->rate_lo, s->rate_hi, err);
    if (rc)
        return rc;
    double w = gc_table_num(t, s->warps, row);
    if (fmod(w, unit) != 0)
        return gc_err_at(err, GC_EINPUT, file, t->line[row], 0,
                         "warps %g is not a multiple of %g (a warpgroup is 4 warps: wgmma "
                         "rows need whole warpgroups)",
                         w, unit);
    *p = (gc_sweep_pt_t){.warps = w / unit,
                         .ilp = gc_table_num(t, s->ilp, row),
                         .cyc = gc_table_num(t, s->cyc, row),
                         .cyc_lo = gc_table_num(t, s->cyc_lo, row),
                         .cyc_hi = gc_table_num(t, s->cyc_hi, row),
                         .rate = gc_table_num(t, s->rate, row),
                         .rate_lo = gc_table_num(t, s->rate_lo, row),
                         .rate_hi = gc_table_num(t, s->rate_hi, row),
                         .clock_mhz = gc_table_num(t, s->clock, row),
                         .line = t->line[row]};
    return 0;
}

/* The completion-latency row (1 unit, ILP 1) into q; else a warning. */
static void put_latency(gc_calib_ctx_t *c, gc_qty_t *q, const gc_sweep_pt_t *pt, size_t n,
                        const char *file, const char *what, const char *label)
{
    long i = gc_sweep_find(pt, n, 1, 1);
    if (i < 0) {
        gc_calib_leave_out(c, file, 0, "%s latency_cyc left out: no %s, ILP-1 row", label, what);
        return;
    }
    gc_calib_put(
        c, q, pt[i].cyc, pt[i].cyc_lo, pt[i].cyc_hi,
        gc_calib_str(c, "%s:%ld: the %s, ILP-1 row (completion latency)", file, pt[i].line, what),
        NULL);
}

static void put_rate(gc_calib_ctx_t *c, gc_qty_t *q, const gc_sweep_pt_t *p, const char *src)
{
    gc_calib_put(c, q, p->rate, p->rate_lo, p->rate_hi, src, NULL);
}

/* Convergence points into a new conv list. */
static void put_conv(gc_calib_ctx_t *c, gc_conv_t **list, size_t *count, const gc_sweep_pt_t *pt,
                     size_t n, double unit, const char *file)
{
    size_t idx[16];
    size_t k = gc_sweep_conv(pt, n, idx, 16);
    if (!k)
        return;
    gc_conv_t *v = gc_calib_grow(c, (void **)list, count, sizeof(*v), k);
    if (!v)
        return;
    for (size_t j = 0; j < k; j++) {
        const gc_sweep_pt_t *p = &pt[idx[j]];
        const char *src = gc_calib_str(c,
                                       "%s:%ld: convergence point (smallest ILP within 5 %% "
                                       "of the best rate at these warps; calib/README.md)",
                                       file, p->line);
        const char *row = gc_calib_str(c, "%s:%ld", file, p->line);
        gc_calib_put_count(c, &v[j].warps, p->warps * unit, row, NULL);
        gc_calib_put_count(c, &v[j].ilp, p->ilp, row, NULL);
        gc_calib_put(c, &v[j].latency_cyc, p->cyc, p->cyc_lo, p->cyc_hi, row, NULL);
        put_rate(c, &v[j].rate, p, src);
    }
}

/* The pipe fit as a note: "gc_pipe_cycles fit: lat ... ; residuals ...". */
static const char *fit_note(gc_calib_ctx_t *c, const gc_sweep_fit_t *f, const char *unit)
{
    char ov[128];
    if (f->overhead_determined)
        snprintf(ov, sizeof(ov), "overhead %.4g [%.4g, %.4g]", f->pipe.overhead_cyc, f->lo[2],
                 f->hi[2]);
    else
        snprintf(ov, sizeof(ov), "overhead not determined");
    return gc_calib_str(c,
                        "gc_pipe_cycles fit: lat %.4g [%.4g, %.4g], issue %.4g [%.4g, %.4g], "
                        "%s cycles; %d slot%s of %s; residuals rms %.2f %%, max %.2f %% over "
                        "%zu rows (%zu latency-bound, %zu throughput-bound)",
                        f->pipe.lat_cyc, f->lo[0], f->hi[0], f->pipe.issue_cyc, f->lo[1], f->hi[1],
                        ov, f->pipe.slots, f->pipe.slots == 1 ? "" : "s", unit, 100 * f->rms_rel,
                        100 * f->max_rel, f->n, f->n_lat, f->n_thr);
}

static const char *slots_text(const gc_sweep_fit_t *f, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int s = 0; s < f->n_slots && at < n; s++) {
        int w = f->slot_sse[s] >= 0
                    ? snprintf(buf + at, n - at, "%s%d: %.3g", s ? ", " : "", f->slot[s],
                               f->slot_sse[s])
                    : snprintf(buf + at, n - at, "%s%d: no fit", s ? ", " : "", f->slot[s]);
        if (w < 0)
            break;
        at += (size_t)w;
    }
    return buf;
}

/* ---- SASS opcode from the header's sass_check ---- */

/* 1 for a tensor-core opcode: HMMA, IMMA, BMMA, DMMA, QMMA, HGMMA, ... */
static int is_tensor_op(const char *op)
{
    static const char *const fam[] = {"HMMA",  "IMMA",  "BMMA",  "DMMA",  "QMMA",  "OMMA",
                                      "HGMMA", "IGMMA", "BGMMA", "QGMMA", "OGMMA", NULL};
    for (const char *const *f = fam; *f; f++) {
        size_t n = strlen(*f);
        if (!strncmp(op, *f, n) && (op[n] == '.' || op[n] == '\0'))
            return 1;
    }
    return 0;
}

/* gpucal measure writes sass_check as "ok: OP xCOUNT in FUNC, ..." with
 * one kernel family per form, FUNC = gc_k_<ID>_ and ID = <prefix>_<A>_<C>_
 * <shape> (measure/forms.h: MMA_F16_F32_M16N8K16, WMMA_..., SP_...,
 * WG_F16_F32_N256, WGS_...; a form emulated on CUDA cores ends in _CUDA).
 * The form's opcode is the one tensor-core op with a non-zero count in its
 * kernels (or, with none, the one op of any kind: an emulated form).
 * Traces from elsewhere: a token matching the shape digits and the types,
 * when exactly one does. NULL when nothing singles one out. */
/* The form's opcode in gpucal measure's "OP xCOUNT in FUNC, ..." list (p
 * after "ok:"), for the kernels id / idc; *parsed = items understood. */
static const char *sass_measure(gc_calib_ctx_t *c, const char *p, const char *id, const char *idc,
                                int *parsed_out)
{
    const char *found = NULL;
    int hits = 0, parsed = 0, tc_found = 0;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        const char *e = strstr(p, ", ");
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char item[256], op[96], fn[160];
        long cnt;
        if (len && len < sizeof(item)) {
            memcpy(item, p, len);
            item[len] = '\0';
            if (sscanf(item, "%95s x%ld in %159s", op, &cnt, fn) == 3) {
                parsed++;
                if ((!strcmp(fn, id) || !strcmp(fn, idc)) && cnt > 0) {
                    /* tensor-core opcodes first; the others (WARPGROUP.ARRIVE,
                     * the CUDA-core ops of an emulated form) only alone */
                    int tc = is_tensor_op(op);
                    if (tc && !tc_found) {
                        tc_found = 1;
                        hits = 0;
                        found = NULL;
                    }
                    if (tc == tc_found && (!found || strcmp(found, op))) {
                        hits++;
                        found = gc_arch_str(c->a, op);
                    }
                }
            }
        }
        p += len;
    }
    *parsed_out = parsed;
    return hits == 1 ? found : NULL;
}

/* Not gpucal measure's format: the one token of the sass_check text p
 * (after "ok:") with the shape digits and the types, or NULL. */
static const char *sass_token(gc_calib_ctx_t *c, const char *p, const char *inst, const char *at,
                              const char *ct, int m, int nn, int k)
{
    int wg = !strncmp(inst, "wgmma", 5), sp = strstr(inst, ".sp") != NULL;
    char digits[32], up_a[16], up_c[16];
    if (wg)
        snprintf(digits, sizeof(digits), "%dX%dX%d", m, nn, k);
    else
        snprintf(digits, sizeof(digits), "%d%d%d", m, nn, k);
    snprintf(up_a, sizeof(up_a), ".%s", at);
    snprintf(up_c, sizeof(up_c), ".%s", ct);
    for (char *q = up_a; *q; q++)
        *q = (char)toupper((unsigned char)*q);
    for (char *q = up_c; *q; q++)
        *q = (char)toupper((unsigned char)*q);
    static const char *const tags[] = {".TF32", ".BF16", ".E4M3", ".E5M2", ".S8", ".U8",
                                       ".S4",   ".U4",   ".B1",   ".F64",  NULL};
    char tok[96];
    int hits = 0;
    const char *found = NULL;
    while (*p) {
        while (*p == ' ' || *p == ',' || *p == ';')
            p++;
        size_t len = 0;
        while (p[len] && p[len] != ' ' && p[len] != ',' && p[len] != ';')
            len++;
        if (!len)
            break;
        if (len < sizeof(tok)) {
            memcpy(tok, p, len);
            tok[len] = '\0';
            for (char *q = tok; *q; q++)
                *q = (char)toupper((unsigned char)*q);
            int ok = strstr(tok, digits) != NULL && (strstr(tok, ".SP") != NULL) == sp;
            if (ok && !strcmp(at, "f16")) {
                for (const char *const *g = tags; *g && ok; g++)
                    ok = strstr(tok, *g) == NULL;
            } else if (ok) {
                ok = strstr(tok, up_a) != NULL;
            }
            if (ok && (!strcmp(ct, "f32") || !strcmp(ct, "f16")))
                ok = strstr(tok, up_c) != NULL;
            if (ok && (!found || strcmp(found, tok))) {
                hits++;
                found = gc_arch_str(c->a, tok);
            }
        }
        p += len;
    }
    return hits == 1 ? found : NULL;
}

static const char *find_sass(gc_calib_ctx_t *c, const gc_table_t *t, const char *inst,
                             const char *shape, const char *at, const char *ct)
{
    const char *chk = gc_trace_meta(t->r, "sass_check");
    int m, nn, k;
    if (!chk || strncmp(chk, "ok:", 3) != 0 || gc_tensor_shape(shape, &m, &nn, &k) != 0)
        return NULL;
    int wg = !strncmp(inst, "wgmma", 5), sp = strstr(inst, ".sp") != NULL;
    const char *prefix = !strcmp(inst, "wmma") ? "WMMA"
                         : wg                  ? (sp ? "WGS" : "WG")
                         : sp                  ? "SP"
                                               : "MMA";
    char id[96], up[32];
    if (wg)
        snprintf(up, sizeof(up), "N%d", nn);
    else
        snprintf(up, sizeof(up), "M%dN%dK%d", m, nn, k);
    snprintf(id, sizeof(id), "gc_k_%s_%s_%s_%s_", prefix, at, ct, up);
    for (char *p = id + 5; *p; p++)
        *p = (char)toupper((unsigned char)*p);
    char idc[112];
    snprintf(idc, sizeof(idc), "%sCUDA_", id);
    int parsed = 0;
    const char *found = sass_measure(c, chk + 3, id, idc, &parsed);
    if (parsed)
        return found;
    return sass_token(c, chk + 3, inst, at, ct, m, nn, k);
}

/* ---- tensor forms: mma, mma_sp, wgmma ---- */

enum { T_INST, T_SHAPE, T_A, T_C, T_OPS, T_DATA, T_NKEY };

/* The distinct forms (inst, shape, a, c, operands, data) of t's rows in
 * the order they first appear: form[g] their text indices, of[r] each
 * row's form. */
static int group_forms(const gc_table_t *t, const int *kc, int (**formp)[T_NKEY], size_t *nformp,
                       int *of, gc_err_t *err)
{
    size_t nform = 0, cap = 0;
    int(*form)[T_NKEY] = NULL;
    for (size_t r = 0; r < t->nrows; r++) {
        size_t g = 0;
        for (; g < nform; g++) {
            int same = 1;
            for (int k = 0; k < T_NKEY && same; k++)
                same = form[g][k] == t->txt[kc[k]][r];
            if (same)
                break;
        }
        if (g == nform) {
            if (nform == cap) {
                cap = cap ? 2 * cap : 16;
                void *nf = realloc(form, cap * sizeof(*form));
                if (!nf) {
                    free(form);
                    return gc_err_set(err, GC_ENOMEM, "out of memory");
                }
                form = nf;
            }
            for (int k = 0; k < T_NKEY; k++)
                form[nform][k] = t->txt[kc[k]][r];
            nform++;
        }
        of[r] = (int)g;
    }
    *formp = form;
    *nformp = nform;
    return 0;
}

/* One tensor form being calibrated. */
typedef struct tform {
    gc_calib_ctx_t *c;
    const gc_table_t *t;
    const char *file;
    const sweep_cols_t *sc;
    gc_tensor_t *e;
    int wg;         /* a wgmma form: warpgroups */
    double unit;    /* warps per instruction issuer (wgmma: 4) */
    char tl[160];   /* "tensor[<label>]" */
    gc_sweep_pt_t *pt;
    size_t n;       /* scope-sm sweep points in pt */
    long best_gpu;  /* the best scope-gpu row, or -1 */
} tform_t;

/* The rows of form g: the scope-sm sweep into F->pt, the best scope-gpu row. */
static int form_points(tform_t *F, const int *of, size_t g, int cscope, const char *label,
                       gc_err_t *err)
{
    const gc_table_t *t = F->t;
    const sweep_cols_t *sc = F->sc;
    F->n = 0;
    F->best_gpu = -1;
    for (size_t r = 0; r < t->nrows; r++) {
        if (of[r] != (int)g)
            continue;
        int rc;
        if (!strcmp(gc_table_txt(t, cscope, r), "gpu")) {
            if ((rc = gc_table_check_ci(t, F->file, r, sc->rate, sc->rate_lo, sc->rate_hi, err)))
                return rc;
            if (F->best_gpu < 0 ||
                gc_table_num(t, sc->rate, r) > gc_table_num(t, sc->rate, (size_t)F->best_gpu))
                F->best_gpu = (long)r;
            continue;
        }
        if (F->n == MAXPT)
            return gc_err_at(err, GC_ELIMIT, F->file, t->line[r], 0,
                             "more than %d sweep rows for %s", MAXPT, label);
        if ((rc = row_point(t, F->file, r, sc, F->unit, &F->pt[F->n], err)) != 0)
            return rc;
        F->n++;
    }
    return 0;
}

/* The slot count of a pipe fit f, or why it is left out. */
static void put_slots(tform_t *F, const gc_sweep_fit_t *f)
{
    gc_calib_ctx_t *c = F->c;
    char st[160];
    slots_text(f, st, sizeof(st));
    if (!f->slots_determined) {
        gc_calib_leave_out(c, F->file, 0,
                           "%s sub_cores left out: the sweep does not "
                           "single out a slot count (relative SSE by slots: %s; "
                           "sweep more %s)",
                           F->tl, st, F->wg ? "warpgroups" : "warps");
        return;
    }
    gc_calib_put_count(c, &F->e->sub_cores, f->pipe.slots,
                       gc_calib_str(c,
                                    "%s: slot count of the gc_pipe_cycles fit, chosen by "
                                    "residual (relative SSE by slots: %s)",
                                    F->file, st),
                       F->wg ? "in warpgroups: 1 = the SM's tensor cores work on one wgmma at "
                               "a time"
                             : NULL);
    if (!F->wg && f->pipe.slots < 9) {
        c->slot_votes[f->pipe.slots]++;
        if (!c->slot_file)
            c->slot_file = gc_arch_str(c->a, F->file);
    }
}

/* The pipe fit of the sweep: issue, overhead and slots, or why they are
 * left out. *fitted = 1 and *rms its residual when it converged. */
static int put_fit(tform_t *F, int *fitted, double *rms, gc_err_t *err)
{
    gc_calib_ctx_t *c = F->c;
    static const int warp_slots[] = {1, 2, 4, 8}, wg_slots[] = {1, 2, 4};
    gc_sweep_fit_t f;
    gc_err_t fe;
    gc_err_clear(&fe);
    int frc = gc_sweep_fit(F->pt, F->n, F->wg ? wg_slots : warp_slots, F->wg ? 3 : 4, &f, &fe);
    *fitted = 0;
    if (frc == GC_ENOMEM)
        return gc_err_set(err, frc, "%s", fe.msg);
    if (frc) {
        gc_calib_leave_out(c, F->file, 0, "%s issue_cyc, overhead_cyc, sub_cores left out: %s",
                           F->tl, fe.msg);
        return 0;
    }
    *fitted = 1;
    *rms = f.rms_rel;
    const char *src = gc_calib_str(c,
                                   "%s: gc_pipe_cycles fitted to %zu rows of "
                                   "scope sm (GSL multifit_nlinear)",
                                   F->file, F->n);
    const char *note = fit_note(c, &f, F->wg ? "warpgroups" : "warps");
    gc_calib_put(c, &F->e->issue_cyc, f.pipe.issue_cyc, f.lo[1], f.hi[1], src, note);
    if (f.overhead_determined)
        gc_calib_put(c, &F->e->overhead_cyc, f.pipe.overhead_cyc, f.lo[2], f.hi[2], src,
                     f.overhead_at_zero ? "the free fit went below 0: the constrained "
                                          "optimum is 0 (interval up to the free fit's "
                                          "upper limit)"
                                        : NULL);
    else
        gc_calib_leave_out(c, F->file, 0,
                           "%s overhead_cyc left out: the latency-bound "
                           "rows sit at one in-flight count (sweep ILP 1..4 at 1 "
                           "warp)",
                           F->tl);
    put_slots(F, &f);
    return 0;
}

/* Where a sweep's peak is reached: the fewest warps x ILP within 1 % of
 * the best rate (gc_sweep_knee), warps in units of `unit` warps. */
static void put_knee(gc_calib_ctx_t *c, gc_qty_t *warps, gc_qty_t *ilp, const gc_sweep_pt_t *pt,
                     size_t n, double unit, const char *file)
{
    size_t kn = gc_sweep_knee(pt, n, GC_SWEEP_KNEE_TOL);
    const char *prow = gc_calib_str(c, "%s:%ld: the fewest warps x ILP within 1 %% of the peak",
                                    file, pt[kn].line);
    gc_calib_put_count(c, warps, pt[kn].warps * unit, prow, NULL);
    gc_calib_put_count(c, ilp, pt[kn].ilp, prow, NULL);
}

/* The peak of the scope-sm sweep, where it is reached, and the
 * convergence points. */
static void put_peak(tform_t *F)
{
    gc_calib_ctx_t *c = F->c;
    gc_tensor_t *e = F->e;
    const gc_sweep_pt_t *pt = F->pt;
    size_t pk = gc_sweep_peak(pt, F->n);
    put_rate(c, &e->peak_fma_clk_sm, &pt[pk],
             gc_calib_str(c, "%s:%ld: best fma_clk_sm of the sweep (scope sm)", F->file,
                          pt[pk].line));
    put_knee(c, &e->peak_warps, &e->peak_ilp, pt, F->n, F->unit, F->file);
    if (F->best_gpu < 0)
        gc_calib_put(c, &e->clock_mhz, pt[pk].clock_mhz, 1, 0,
                     gc_calib_str(c, "%s:%ld: clock_mhz of the peak row", F->file, pt[pk].line),
                     NULL);
    put_conv(c, &e->conv, &e->n_conv, pt, F->n, F->unit, F->file);
}

/* The whole-GPU rate (TFLOP/s) and clock of the best scope-gpu row. */
static void put_gpu(tform_t *F)
{
    gc_calib_ctx_t *c = F->c;
    const gc_table_t *t = F->t;
    const sweep_cols_t *sc = F->sc;
    size_t r = (size_t)F->best_gpu;
    double k2 = 2e-6 * c->sms * gc_table_num(t, sc->clock, r);
    gc_calib_put(c, &F->e->peak_tflops, k2 * gc_table_num(t, sc->rate, r),
                 k2 * gc_table_num(t, sc->rate_lo, r), k2 * gc_table_num(t, sc->rate_hi, r),
                 gc_calib_str(c,
                              "%s:%d: best scope gpu row: 2 x fma_clk_sm x %g SMs x "
                              "clock_mhz",
                              F->file, t->line[r], c->sms),
                 NULL);
    gc_calib_put(c, &F->e->clock_mhz, gc_table_num(t, sc->clock, r), 1, 0,
                 gc_calib_str(c, "%s:%d: clock_mhz of the best scope gpu row", F->file,
                              t->line[r]),
                 NULL);
}

/* Entry e from the form's text s[]: names, SASS opcode. */
static int form_entry(tform_t *F, const char *const *s, size_t first, gc_err_t *err)
{
    gc_calib_ctx_t *c = F->c;
    gc_tensor_t *e = F->e;
    int m, nn, kk;
    if (gc_tensor_shape(s[T_SHAPE], &m, &nn, &kk) != 0)
        return gc_err_at(err, GC_EINPUT, F->file, F->t->line[first], 0,
                         "column 'shape': '%.40s' is not a PTX shape mMnNkK (e.g. m16n8k16)",
                         s[T_SHAPE]);
    F->wg = !strncmp(s[T_INST], "wgmma", 5);
    F->unit = F->wg ? 4 : 1;
    e->inst = gc_arch_str(c->a, s[T_INST]);
    e->shape = gc_arch_str(c->a, s[T_SHAPE]);
    e->a = gc_arch_str(c->a, s[T_A]);
    e->c = gc_arch_str(c->a, s[T_C]);
    e->operands = strcmp(s[T_OPS], "-") ? gc_arch_str(c->a, s[T_OPS]) : NULL;
    e->data = gc_arch_str(c->a, s[T_DATA]);
    e->sass = find_sass(c, F->t, s[T_INST], s[T_SHAPE], s[T_A], s[T_C]);
    return 0;
}

int gc_bench_tensor(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    static const char *const keys[T_NKEY] = {"inst",   "shape",    "a_type",
                                             "c_type", "operands", "data"};
    int kc[T_NKEY];
    for (int k = 0; k < T_NKEY; k++)
        kc[k] = gc_table_col(t, keys[k]);
    int cscope = gc_table_col(t, "scope");
    sweep_cols_t sc;
    sweep_cols(t, "fma_clk_sm", "fma_lo", "fma_hi", &sc);
    size_t nform = 0;
    int(*form)[T_NKEY] = NULL;
    int *of = malloc((t->nrows ? t->nrows : 1) * sizeof(*of));
    tform_t F = {.c = c, .t = t, .file = file, .sc = &sc};
    F.pt = malloc(MAXPT * sizeof(*F.pt));
    int rc = !of || !F.pt ? gc_err_set(err, GC_ENOMEM, "out of memory")
                          : group_forms(t, kc, &form, &nform, of, err);
    gc_tensor_t *ent = NULL;
    if (!rc && !nform)
        gc_calib_leave_out(c, file, 0, "no rows: no tensor entries");
    else if (!rc && !(ent = gc_calib_grow(c, (void **)&c->a->tensor, &c->a->n_tensor,
                                          sizeof(*ent), nform)))
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    size_t n_fit = 0, n_sass = 0;
    double worst_rms = 0;
    for (size_t g = 0; ent && !rc && g < nform; g++) {
        F.e = &ent[g];
        const char *s[T_NKEY];
        for (int k = 0; k < T_NKEY; k++)
            s[k] = t->dict[kc[k]][form[g][k]];
        size_t first = 0;
        while (of[first] != (int)g)
            first++;
        char label[128];
        if ((rc = form_entry(&F, s, first, err)) ||
            (rc = form_points(&F, of, g, cscope, gc_tensor_label(F.e, label, sizeof(label)), err)))
            break;
        n_sass += F.e->sass != NULL;
        snprintf(F.tl, sizeof(F.tl), "tensor[%s]", label);
        if (!F.n) {
            gc_calib_leave_out(c, file, t->line[first],
                               "%s: no scope 'sm' rows: latency, pipe fit and peak left out",
                               F.tl);
        } else {
            put_latency(c, &F.e->latency_cyc, F.pt, F.n, file,
                        F.wg ? "1-warpgroup" : "1-warp", F.tl);
            int fitted = 0;
            double rms = 0;
            if ((rc = put_fit(&F, &fitted, &rms, err)) != 0)
                break;
            n_fit += fitted;
            worst_rms = fitted && rms > worst_rms ? rms : worst_rms;
            put_peak(&F);
        }
        if (F.best_gpu >= 0)
            put_gpu(&F);
    }
    if (ent && !rc)
        gc_calib_info(c,
                      "%s: %zu tensor form%s, pipe fitted for %zu (rms residual <= %.2f %%), "
                      "SASS named for %zu",
                      file, nform, nform == 1 ? "" : "s", n_fit, 100 * worst_rms, n_sass);
    free(form);
    free(of);
    free(F.pt);
    return rc;
}

/* ---- alu ---- */

/* sm.issue_1warp_ratio from one op's sweep (the FFMA rows): the warps that
 * each keep the rate of a lone warp sit one to a sub-core, so the most of
 * them (S) count the sub-cores; a sub-core with a lone warp then issues
 * best1 (the best 1-warp rate) and at its peak peak / S, and the ratio is
 * peak / (S x best1). Left out when no 1-warp row exists or the ratio is
 * below 1. */
static void put_issue_1warp(gc_calib_ctx_t *c, const gc_sweep_pt_t *pt, size_t n,
                            const char *file)
{
    size_t one = n, pk = gc_sweep_peak(pt, n);
    for (size_t i = 0; i < n; i++)
        if (pt[i].warps == 1 && (one == n || pt[i].rate > pt[one].rate))
            one = i;
    if (one == n || !(pt[one].rate > 0)) {
        gc_calib_leave_out(c, file, 0, "sm.issue_1warp_ratio left out: no 1-warp ffma row");
        return;
    }
    double S = 1;
    for (size_t i = 0; i < n; i++)
        if (pt[i].warps > S && pt[i].rate / pt[i].warps >= 0.98 * pt[one].rate)
            S = pt[i].warps;
    double r = pt[pk].rate / (S * pt[one].rate);
    if (!(r >= 1)) {
        gc_calib_leave_out(c, file, pt[one].line,
                           "sm.issue_1warp_ratio left out: a lone warp issues at the peak "
                           "rate (ratio %.3f)",
                           r);
        return;
    }
    double lo = pt[pk].rate_lo / (S * pt[one].rate_hi), hi = pt[pk].rate_hi / (S * pt[one].rate_lo);
    gc_calib_put(c, &c->a->sm.issue_1warp_ratio, r, lo < 1 ? 1 : lo, hi,
                 gc_calib_str(c,
                              "%s:%ld,%ld: the peak ffma rate (%g warps, ILP %g) over %g "
                              "sub-cores of one warp each at the best 1-warp rate (ILP %g)",
                              file, pt[pk].line, pt[one].line, pt[pk].warps, pt[pk].ilp, S,
                              pt[one].ilp),
                 NULL);
}

int gc_bench_alu(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    int cop = gc_table_col(t, "op");
    sweep_cols_t sc;
    sweep_cols(t, "ops_clk_sm", "ops_lo", "ops_hi", &sc);
    size_t nop = t->ndict[cop];
    if (!nop) {
        gc_calib_leave_out(c, file, 0, "no rows: no alu entries");
        return 0;
    }
    /* ops in the order they first appear: dict order is first appearance */
    gc_alu_t *ent = gc_calib_grow(c, (void **)&c->a->alu, &c->a->n_alu, sizeof(*ent), nop);
    gc_sweep_pt_t *pt = malloc(MAXPT * sizeof(*pt));
    /* the rows of each op, in file order, in one pass (a scan of every row
     * per op was quadratic in the number of ops) */
    size_t *first = calloc(nop + 1, sizeof(*first)), *order = malloc(t->nrows * sizeof(*order));
    if (!ent || !pt || !first || !order) {
        free(pt);
        free(first);
        free(order);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    for (size_t r = 0; r < t->nrows; r++)
        first[t->txt[cop][r] + 1]++;
    for (size_t g = 0; g < nop; g++)
        first[g + 1] += first[g];
    for (size_t r = 0, *fill = first; r < t->nrows; r++)
        order[fill[t->txt[cop][r]]++] = r;
    for (size_t g = nop; g > 0; g--) /* the fill moved each start to the next: move back */
        first[g] = first[g - 1];
    first[0] = 0;
    int rc = 0;
    for (size_t g = 0; g < nop; g++) {
        gc_alu_t *e = &ent[g];
        e->op = gc_arch_str(c->a, t->dict[cop][g]);
        size_t n = 0;
        for (size_t i = first[g]; i < first[g + 1] && n < MAXPT; i++)
            if ((rc = row_point(t, file, order[i], &sc, 1, &pt[n++], err)))
                goto done;
        char tl[96];
        snprintf(tl, sizeof(tl), "alu[%s]", e->op);
        put_latency(c, &e->latency_cyc, pt, n, file, "1-warp", tl);
        size_t pk = gc_sweep_peak(pt, n);
        put_rate(c, &e->ops_clk_sm, &pt[pk],
                 gc_calib_str(c, "%s:%ld: best ops_clk_sm of the sweep (%g warps, ILP %g)", file,
                              pt[pk].line, pt[pk].warps, pt[pk].ilp));
        if (!strcmp(e->op, "ffma"))
            put_issue_1warp(c, pt, n, file);
    }
    gc_calib_info(c, "%s: %zu ALU operation%s", file, nop, nop == 1 ? "" : "s");
done:
    free(pt);
    free(first);
    free(order);
    return rc;
}

/* ---- ldmatrix ---- */

int gc_bench_ldmatrix(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    int cnum = gc_table_col(t, "num"), ctr = gc_table_col(t, "trans");
    sweep_cols_t sc;
    sweep_cols(t, "bytes_clk_sm", "bytes_lo", "bytes_hi", &sc);
    /* forms (num, trans) in first-appearance order */
    double fnum[8], ftr[8];
    size_t nform = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double nu = gc_table_num(t, cnum, r), tr = gc_table_num(t, ctr, r);
        if (!(nu == 1 || nu == 2 || nu == 4))
            return gc_err_at(err, GC_EINPUT, file, t->line[r], 0,
                             "column 'num': %g matrices (ldmatrix loads x1, x2 or x4)", nu);
        if (tr > 1)
            return gc_err_at(err, GC_EINPUT, file, t->line[r], 0,
                             "column 'trans': %g (must be 0 or 1)", tr);
        size_t g = 0;
        while (g < nform && !(fnum[g] == nu && ftr[g] == tr))
            g++;
        if (g == nform) {
            fnum[nform] = nu;
            ftr[nform++] = tr;
        }
    }
    if (!nform) {
        gc_calib_leave_out(c, file, 0, "no rows: no ldmatrix entries");
        return 0;
    }
    gc_ldmatrix_t *ent =
        gc_calib_grow(c, (void **)&c->a->ldmatrix, &c->a->n_ldmatrix, sizeof(*ent), nform);
    gc_sweep_pt_t *pt = malloc(MAXPT * sizeof(*pt));
    if (!ent || !pt) {
        free(pt);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    int rc = 0;
    size_t n_fit = 0;
    for (size_t g = 0; g < nform; g++) {
        gc_ldmatrix_t *e = &ent[g];
        gc_calib_put_count(c, &e->num, fnum[g], gc_calib_str(c, "%s: num column", file), NULL);
        e->trans.set = 1;
        e->trans.val = ftr[g] != 0;
        size_t n = 0;
        for (size_t r = 0; r < t->nrows && n < MAXPT; r++)
            if (gc_table_num(t, cnum, r) == fnum[g] && gc_table_num(t, ctr, r) == ftr[g] &&
                (rc = row_point(t, file, r, &sc, 1, &pt[n++], err)))
                goto done;
        char tl[96];
        snprintf(tl, sizeof(tl), "ldmatrix[x%g%s]", fnum[g], ftr[g] ? ".trans" : "");
        put_latency(c, &e->latency_cyc, pt, n, file, "1-warp", tl);
        static const int slots[] = {1, 2, 4, 8};
        gc_sweep_fit_t f;
        gc_err_t fe;
        gc_err_clear(&fe);
        int frc = gc_sweep_fit(pt, n, slots, 4, &f, &fe);
        const char *note = NULL;
        if (frc == GC_ENOMEM) {
            rc = gc_err_set(err, frc, "%s", fe.msg);
            goto done;
        }
        if (!frc) {
            note = fit_note(c, &f, "warps");
            n_fit++;
        } else {
            gc_calib_leave_out(c, file, 0, "%s: no pipe fit (the peak is still given): %s", tl,
                               fe.msg);
        }
        size_t pk = gc_sweep_peak(pt, n);
        gc_calib_put(c, &e->peak_bytes_clk_sm, pt[pk].rate, pt[pk].rate_lo, pt[pk].rate_hi,
                     gc_calib_str(c, "%s:%ld: best bytes_clk_sm of the sweep", file, pt[pk].line),
                     note);
        put_knee(c, &e->peak_warps, &e->peak_ilp, pt, n, 1, file);
        put_conv(c, &e->conv, &e->n_conv, pt, n, 1, file);
    }
    gc_calib_info(c, "%s: %zu ldmatrix form%s, pipe fitted for %zu", file, nform,
                  nform == 1 ? "" : "s", n_fit);
done:
    free(pt);
    return rc;
}

/* ---- smem: latency by bank-conflict degree ---- */

typedef struct conflict_row {
    double width, ways, cyc, lo, hi;
    long line;
} conflict_row_t;

static int cmp_conflict(const void *a, const void *b)
{
    const conflict_row_t *x = a, *y = b;
    if (x->width != y->width)
        return (x->width > y->width) - (x->width < y->width);
    return (x->ways > y->ways) - (x->ways < y->ways);
}

/* The 1-warp, ILP-1 rows of the smem trace (one per width and ways) into
 * row (*np of them); every row's width, ways and interval checked. */
static int smem_rows(const gc_table_t *t, const char *file, const sweep_cols_t *sc_,
                     conflict_row_t *row, size_t *np, gc_err_t *err)
{
    int cw = gc_table_col(t, "width_bytes"), cways = gc_table_col(t, "ways");
    const sweep_cols_t sc = *sc_;
    size_t n = 0;
    int rc;
    for (size_t r = 0; r < t->nrows; r++) {
        double w = gc_table_num(t, cw, r), ways = gc_table_num(t, cways, r);
        if (!(w == 4 || w == 8 || w == 16)) {
            return gc_err_at(err, GC_EINPUT, file, t->line[r], 0,
                             "column 'width_bytes': %g (ld.shared widths are 4, 8 or 16 bytes)", w);
        }
        if (ways > 32) {
            return gc_err_at(err, GC_EINPUT, file, t->line[r], 0,
                             "column 'ways': %g (a warp has 32 threads: at most 32 ways)", ways);
        }
        if ((rc = gc_table_check_ci(t, file, r, sc.cyc, sc.cyc_lo, sc.cyc_hi, err)) != 0)
            return rc;
        if (gc_table_num(t, sc.warps, r) != 1 || gc_table_num(t, sc.ilp, r) != 1)
            continue; /* throughput rows: the bw bench gives bandwidths */
        int dup = 0;
        for (size_t j = 0; j < n && !dup; j++)
            dup = row[j].width == w && row[j].ways == ways;
        if (dup)
            continue;
        row[n++] = (conflict_row_t){w,
                                    ways,
                                    gc_table_num(t, sc.cyc, r),
                                    gc_table_num(t, sc.cyc_lo, r),
                                    gc_table_num(t, sc.cyc_hi, r),
                                    t->line[r]};
    }
    *np = n;
    return 0;
}

/* memory.shared.conflict_cyc: the slope of a line through latency against
 * ways at width wref (m degrees x, latencies y), or why it is left out. */
static int smem_conflict_fit(gc_calib_ctx_t *c, const char *file, const double *x,
                             const double *y, size_t m, double wref, gc_err_t *err)
{
    gc_shared_t *sh = &c->a->memory.shared;
    char why[GC_ERR_MSG_MAX] = "";
    if (m >= 3) {
        gc_fit_result_t res;
        gc_err_t fe;
        gc_err_clear(&fe);
        int rc = gc_fit_line_xy(x, y, m, &res, &fe);
        if (rc == GC_ENOMEM)
            return gc_err_set(err, GC_ENOMEM, "out of memory");
        if (rc)
            snprintf(why, sizeof(why), "%s", fe.msg);
        else if (!(res.p[1] > 0))
            snprintf(why, sizeof(why),
                     "the latency does not grow with the conflict degree "
                     "(slope %.3g cycles/way)",
                     res.p[1]);
        else if (!res.has_ci)
            snprintf(why, sizeof(why), "the fit has no interval (too few distinct degrees)");
        else
            gc_calib_put(c, &sh->conflict_cyc, res.p[1], res.lo[1] > 0 ? res.lo[1] : 0, res.hi[1],
                         gc_calib_str(c,
                                      "%s: slope of a linear fit of latency on ways (%g-byte "
                                      "loads, %zu degrees from %g to %g; GSL)",
                                      file, wref, m, x[0], x[m - 1]),
                         gc_calib_str(c,
                                      "latency = %.4g + %.4g x ways cycles; residuals rms "
                                      "%.3g, max %.3g cycles",
                                      res.p[0], res.p[1], res.rms, res.max_abs));
    } else {
        snprintf(why, sizeof(why), "%zu conflict degree%s at %g bytes, at least 3 needed", m,
                 m == 1 ? "" : "s", wref);
    }
    if (why[0])
        gc_calib_leave_out(c, file, 0, "memory.shared.conflict_cyc left out: %s", why);
    return 0;
}

int gc_bench_smem(gc_calib_ctx_t *c, const gc_table_t *t, const char *file, gc_err_t *err)
{
    sweep_cols_t sc;
    sweep_cols(t, "bytes_clk_sm", "bytes_lo", "bytes_hi", &sc);
    conflict_row_t *row = malloc((t->nrows ? t->nrows : 1) * sizeof(*row));
    if (!row)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    size_t n = 0;
    int rc = 0;
    if ((rc = smem_rows(t, file, &sc, row, &n, err)) != 0)
        goto done;
    if (!n) {
        gc_calib_leave_out(c, file, 0,
                           "memory.shared latency and conflicts left out: no "
                           "1-warp, ILP-1 rows");
        goto done;
    }
    qsort(row, n, sizeof(*row), cmp_conflict);
    gc_shared_t *sh = &c->a->memory.shared;
    gc_conflict_t *ent =
        gc_calib_grow(c, (void **)&sh->conflicts, &sh->n_conflicts, sizeof(*ent), n);
    if (!ent) {
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t j = 0; j < n; j++) {
        const char *at = gc_calib_str(c, "%s:%ld", file, row[j].line);
        gc_calib_put_count(c, &ent[j].width_bytes, row[j].width, at, NULL);
        gc_calib_put_count(c, &ent[j].ways, row[j].ways, at, NULL);
        gc_calib_put(c, &ent[j].latency_cyc, row[j].cyc, row[j].lo, row[j].hi,
                     gc_calib_str(c, "%s:%ld: 1-warp, ILP-1 row", file, row[j].line), NULL);
    }
    /* the reference width: 4 bytes if measured, else the smallest */
    double wref = row[0].width;
    for (size_t j = 0; j < n; j++)
        if (row[j].width == 4)
            wref = 4;
    const conflict_row_t *base = NULL;
    size_t m = 0;
    double x[64], y[64];
    for (size_t j = 0; j < n; j++)
        if (row[j].width == wref) {
            if (row[j].ways == 1)
                base = &row[j];
            if (m < 64) {
                x[m] = row[j].ways;
                y[m++] = row[j].cyc;
            }
        }
    if (base)
        gc_calib_put(c, &sh->latency_cyc, base->cyc, base->lo, base->hi,
                     gc_calib_str(c, "%s:%ld: %g-byte loads, no conflict, 1 warp, ILP 1", file,
                                  base->line, wref),
                     NULL);
    else
        gc_calib_leave_out(c, file, 0,
                           "memory.shared.latency_cyc left out: no conflict-free "
                           "(ways 1) row at %g bytes",
                           wref);
    if ((rc = smem_conflict_fit(c, file, x, y, m, wref, err)) != 0)
        goto done;
    gc_calib_info(c, "%s: shared-memory latency at %zu (width, ways) points%s", file, n,
                  sh->conflict_cyc.set ? ", conflict penalty fitted" : "");
done:
    free(row);
    return rc;
}
