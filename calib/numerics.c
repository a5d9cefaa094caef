/* numerics.c - the findings of a `numeric` trace -> an arch file's numerics
 * entries (numerics.h). Calib's reader of the numeric bench: it reads the
 * trace, the emulator (model/emulate) only reads the entries it writes. */
#include "numerics.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../traces/benches.h"
#include "../traces/trace.h"

/* ---- findings of a `numeric` trace -> numerics entries ---- */

enum { NKEYS = 24, NGROUPS = 64 };

typedef struct fgroup {
    char inst[8], a[8], c[8], shape[16];
    int k;
    long line;
    char key[NKEYS][32], val[NKEYS][48], detail[NKEYS][160];
    int nk;
} fgroup_t;

static const char *fget(const fgroup_t *g, const char *key, const char **detail)
{
    for (int i = 0; i < g->nk; i++)
        if (!strcmp(g->key[i], key)) {
            if (detail)
                *detail = g->detail[i];
            return g->val[i];
        }
    return NULL;
}

static int shape_k(const char *shape)
{
    const char *p = strchr(shape, 'k');
    return p ? atoi(p + 1) : 0;
}

/* Build one entry from a group of findings. */
/* The text findings of group g into n (checked against what the arch
 * schema allows). */
static int fill_texts(gc_arch_t *arch, gc_numerics_t *n, const fgroup_t *g, const char *path,
                      gc_err_t *err)
{
    static const struct {
        const char *key;
        const char *const *ok; /* allowed values (NULL: any) */
        size_t off;
    } strs[] = {
        {"rounding", gc_rounding_names, offsetof(gc_numerics_t, rounding)},
        {"out_rounding", gc_rounding_names, offsetof(gc_numerics_t, out_rounding)},
        {"c_rounding", gc_rounding_names, offsetof(gc_numerics_t, c_rounding)},
        {"subnormals", NULL, offsetof(gc_numerics_t, subnormals)},
        {"align_exp", NULL, offsetof(gc_numerics_t, align_exp)},
        {"overflow", NULL, offsetof(gc_numerics_t, overflow)},
        {"zero_sign", NULL, offsetof(gc_numerics_t, zero_sign)},
        {"nan", NULL, offsetof(gc_numerics_t, nan)},
        {"tf32_operands", NULL, offsetof(gc_numerics_t, tf32_operands)},
        {"c_order", NULL, offsetof(gc_numerics_t, c_order)},
        {"trunc", NULL, offsetof(gc_numerics_t, trunc)},
    };
    static const char *const choices[][4] = {
        {NULL}, {NULL}, {NULL}, {"keep", "flush", NULL}, {"sum", "lead", NULL},
        {"inf", "ieee", NULL}, {"pos", "ieee", NULL}, {NULL}, {"truncate", "round", NULL},
        {"first", "last", NULL}, {"zero", "floor", NULL},
    };
    for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
        const char *v = fget(g, strs[i].key, NULL);
        if (!v || !strcmp(v, "-"))
            continue;
        const char *const *ok = strs[i].ok ? strs[i].ok : choices[i][0] ? choices[i] : NULL;
        int good = !ok;
        for (int q = 0; ok && q < 4 && ok[q]; q++)
            good |= !strcmp(ok[q], v);
        if (!strcmp(strs[i].key, "nan")) {
            good = strlen(v) <= 8 && v[0] && strspn(v, "0123456789abcdef") == strlen(v);
            while (*v == '0' && v[1])
                v++; /* 00007fff -> 7fff */
        }
        if (!good)
            return gc_err_at(err, GC_EINPUT, path, g->line, 0,
                             "probe finding %s = '%s' for %s %s.%s is not a value the arch "
                             "schema allows (re-run the numeric bench)",
                             strs[i].key, v, g->inst, g->a, g->c);
        *(const char **)((char *)n + strs[i].off) = gc_arch_str(arch, v);
    }
    return 0;
}

/* The whole-number findings of group g into n (src: their source). */
static int fill_numbers(gc_arch_t *arch, gc_numerics_t *n, const fgroup_t *g, const char *path,
                        const char *src, gc_err_t *err)
{
    static const struct {
        const char *key;
        size_t off;
        double lo, hi;
    } nums[] = {
        {"align_bits", offsetof(gc_numerics_t, align_bits), 0, 64},
        {"group", offsetof(gc_numerics_t, group), 1, 1024},
        {"acc_bits", offsetof(gc_numerics_t, acc_bits), 2, 64},
        {"interleave", offsetof(gc_numerics_t, interleave), 0, 1024},
    };
    for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
        const char *v = fget(g, nums[i].key, NULL);
        if (!v || !strcmp(v, "-"))
            continue;
        char *end;
        double x = strtod(v, &end);
        if (*end || x < nums[i].lo || x > nums[i].hi || x != (double)(long)x)
            return gc_err_at(err, GC_EINPUT, path, g->line, 0,
                             "probe finding %s = '%s' for %s %s.%s is not a whole number in "
                             "%g..%g (re-run the numeric bench)",
                             nums[i].key, v, g->inst, g->a, g->c, nums[i].lo, nums[i].hi);
        gc_qty_put(arch, (gc_qty_t *)((char *)n + nums[i].off), x, 1, 0, src);
    }
    return 0;
}

static int fill_entry(gc_arch_t *arch, gc_numerics_t *n, const fgroup_t *g, const char *path,
                      gc_err_t *err)
{
    char src[600];
    snprintf(src, sizeof(src), "measured: numeric bench, %s (%s %s)", path, g->inst, g->shape);
    memset(n, 0, sizeof(*n));
    n->a = gc_arch_str(arch, g->a);
    n->c = gc_arch_str(arch, g->c);
    if (strcmp(g->inst, "mma"))
        n->inst = gc_arch_str(arch, g->inst);
    int rc = fill_texts(arch, n, g, path, err);
    if (rc || (rc = fill_numbers(arch, n, g, path, src, err)))
        return rc;
    const char *pe = fget(g, "products_exact", NULL), *od = fget(g, "out_direct", NULL);
    if (pe && strcmp(pe, "-")) {
        n->products_exact.set = 1;
        n->products_exact.val = !strcmp(pe, "true");
    }
    if (od && strcmp(od, "-")) {
        n->out_direct.set = 1;
        n->out_direct.val = !strcmp(od, "true");
    }
    const char *fd = NULL, *fit = fget(g, "fit", &fd);
    char note[600];
    snprintf(note, sizeof(note), "%s %s from %s: %s hypotheses fit the probes (%s)", g->inst,
             g->shape, path, fit ? fit : "?", fd ? fd : "");
    n->note = gc_arch_str(arch, note);
    return 0;
}

int gc_calib_numerics(const char *path, gc_arch_t *arch, gc_err_t *err)
{
    gc_trace_reader_t *r;
    int rc = gc_trace_open(&r, path, err);
    if (rc)
        return rc;
    /* the columns the bench table marks as read: experiment, inst, shape,
     * a_type, c_type, key, value, detail (traces/benches.c) */
    const char *need[8];
    int ix[8], nneed = 0;
    const gc_bench_spec_t *b = gc_bench_spec("numeric");
    for (int i = 0; b && i < b->ncols && nneed < 8; i++)
        if (b->cols[i].use != GC_BCOL_UNREAD)
            need[nneed++] = b->cols[i].name;
    fgroup_t *gs = calloc(NGROUPS, sizeof(*gs));
    int ng = 0;
    if (!gs) {
        gc_trace_close(r);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    rc = nneed == 8 ? gc_trace_cols(r, need, ix, nneed, err)
                    : gc_err_set(err, GC_ERUN, "the bench table's numeric columns changed "
                                               "(traces/benches.c; a gpucal bug)");
    while (!rc && (rc = gc_trace_next(r, err)) > 0) {
        rc = 0;
        if (strcmp(gc_trace_cell(r, ix[0]), "probe"))
            continue;
        const char *inst = gc_trace_cell(r, ix[1]), *shape = gc_trace_cell(r, ix[2]);
        const char *a = gc_trace_cell(r, ix[3]), *c = gc_trace_cell(r, ix[4]);
        int k = shape_k(shape), gi;
        for (gi = 0; gi < ng; gi++)
            if (!strcmp(gs[gi].inst, inst) && !strcmp(gs[gi].a, a) && !strcmp(gs[gi].c, c))
                break;
        if (gi == ng) {
            if (ng == NGROUPS) {
                rc = gc_err_at(err, GC_ELIMIT, path, gc_trace_line(r), 0,
                               "more than %d forms in one numeric trace", NGROUPS);
                break;
            }
            ng++;
            snprintf(gs[gi].inst, sizeof(gs[gi].inst), "%s", inst);
            snprintf(gs[gi].a, sizeof(gs[gi].a), "%s", a);
            snprintf(gs[gi].c, sizeof(gs[gi].c), "%s", c);
        }
        fgroup_t *g = &gs[gi];
        if (k > g->k) { /* the largest k of the form wins */
            g->k = k;
            g->nk = 0;
            g->line = gc_trace_line(r);
            snprintf(g->shape, sizeof(g->shape), "%s", shape);
        }
        if (k == g->k && g->nk < NKEYS) {
            snprintf(g->key[g->nk], sizeof(g->key[0]), "%s", gc_trace_cell(r, ix[5]));
            snprintf(g->val[g->nk], sizeof(g->val[0]), "%s", gc_trace_cell(r, ix[6]));
            snprintf(g->detail[g->nk], sizeof(g->detail[0]), "%s", gc_trace_cell(r, ix[7]));
            g->nk++;
        }
    }
    gc_trace_close(r);
    if (!rc && !ng)
        rc = gc_err_set(err, GC_ENODATA, "%s: no probe rows (is it a numeric trace?)", path);
    for (int gi = 0; !rc && gi < ng; gi++) {
        const gc_numerics_t *old = gc_arch_numerics(arch, gs[gi].inst, gs[gi].a, gs[gi].c);
        gc_numerics_t *dst;
        if (old) {
            dst = (gc_numerics_t *)old;
        } else {
            gc_numerics_t *nl = gc_arch_list(arch, sizeof(*nl), arch->n_numerics + 1);
            if (!nl) {
                rc = gc_err_set(err, GC_ENOMEM, "out of memory");
                break;
            }
            if (arch->n_numerics)
                memcpy(nl, arch->numerics, sizeof(*nl) * arch->n_numerics);
            arch->numerics = nl;
            dst = &nl[arch->n_numerics++];
        }
        rc = fill_entry(arch, dst, &gs[gi], path, err);
    }
    free(gs);
    return rc;
}
