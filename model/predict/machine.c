/* machine.c - an arch resolved once into the machine the predictor reads
 * (machine.h): lifecycle, the attachment to an arch, and the two lookups a
 * prediction makes per op (a tensor form, a CUDA-core op: each through a
 * hash index built at create). */
#include "machine.h"
#include "../../util/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a over inst, shape, a and c, each with its terminating NUL */
static unsigned long long key_hash(const char *inst, const char *shape, const char *a,
                                   const char *c)
{
    const char *part[4] = {inst, shape, a, c};
    unsigned long long h = 14695981039346656037ULL;
    for (int i = 0; i < 4; i++) {
        const unsigned char *s = (const unsigned char *)part[i];
        do {
            h ^= *s;
            h *= 1099511628211ULL;
        } while (*s++);
    }
    return h;
}

static int same_key(const gc_tensor_t *t, const char *inst, const char *shape, const char *a,
                    const char *c)
{
    return !strcmp(t->inst, inst) && !strcmp(t->shape, shape) && !strcmp(t->a, a) &&
           !strcmp(t->c, c);
}

/* Index m's forms: one slot per distinct inst/shape/a/c holds the first
 * form of that key; the others follow it through `next`, in file order. */
static int build_index(gc_machine_t *m)
{
    size_t cap = 8;
    while (cap < 2 * m->n_forms)
        cap *= 2;
    m->index = malloc(cap * sizeof(*m->index));
    if (!m->index)
        return -1;
    m->index_cap = cap;
    for (size_t j = 0; j < cap; j++)
        m->index[j] = -1;
    for (size_t i = 0; i < m->n_forms; i++) {
        gc_mform_t *f = &m->forms[i];
        const gc_tensor_t *t = f->t;
        f->hash = key_hash(t->inst, t->shape, t->a, t->c);
        for (size_t j = f->hash & (cap - 1);; j = (j + 1) & (cap - 1)) {
            int h = m->index[j];
            if (h < 0) {
                m->index[j] = (int)i;
                break;
            }
            if (m->forms[h].hash == f->hash && same_key(m->forms[h].t, t->inst, t->shape, t->a, t->c)) {
                while (m->forms[h].next >= 0)
                    h = m->forms[h].next;
                m->forms[h].next = (int)i;
                break;
            }
        }
    }
    return 0;
}

/* One name of the CUDA-core index: the first arch alu entry of that name
 * and the default pipe whose prefix it is (-1: none). */
typedef struct gc_malu_key {
    const char *name;
    size_t len;
    unsigned long long hash;
    int alu, dflt;
} gc_malu_key_t;

/* FNV-1a over the n bytes of s */
static unsigned long long name_hash(const char *s, size_t n)
{
    unsigned long long h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The index's slot of the n bytes of s (hash h): its key, or the empty
 * slot where it would go (name NULL). */
static gc_malu_key_t *alu_slot(const gc_machine_t *m, const char *s, size_t n, unsigned long long h)
{
    size_t mask = m->alu_index_cap - 1;
    for (size_t j = h & mask;; j = (j + 1) & mask) {
        gc_malu_key_t *e = &m->alu_index[j];
        if (!e->name || (e->hash == h && e->len == n && !memcmp(e->name, s, n)))
            return e;
    }
}

static void alu_key_add(gc_machine_t *m, const char *name, int alu, int dflt)
{
    size_t n = strlen(name);
    unsigned long long h = name_hash(name, n);
    gc_malu_key_t *e = alu_slot(m, name, n, h);
    if (!e->name)
        *e = (gc_malu_key_t){name, n, h, -1, -1};
    if (alu >= 0 && e->alu < 0)
        e->alu = alu; /* the first entry of a name, as a scan in file order finds */
    if (dflt >= 0)
        e->dflt = dflt;
}

/* Index the arch's alu names and the default prefixes: a prediction then
 * resolves an op by a hash probe, not by scanning both lists by name. */
static int build_alu_index(gc_machine_t *m)
{
    size_t cap = 8;
    while (cap < 2 * (m->n_alus + GC_ALU_DEFAULTS))
        cap *= 2;
    m->alu_index = calloc(cap, sizeof(*m->alu_index));
    if (!m->alu_index)
        return -1;
    m->alu_index_cap = cap;
    for (size_t i = 0; i < m->n_alus; i++)
        if (m->alus[i].name)
            alu_key_add(m, m->alus[i].name, (int)i, -1);
    for (int i = 0; i < GC_ALU_DEFAULTS; i++)
        alu_key_add(m, gc_derive_alu_default(i), -1, i);
    return 0;
}

/* The wgmma forms of one A/B and accumulator type pair: their N and K,
 * in file order. */
typedef struct gc_mwgmma {
    const char *a, *c;
    int n_forms;
    int *n, *k; /* n_forms each */
} gc_mwgmma_t;

/* Group a's wgmma forms (a readable shape and both types) by type pair. */
static int build_wgmma(gc_machine_t *m, const gc_arch_t *a)
{
    size_t cap = a->n_tensor ? a->n_tensor : 1;
    m->wgmma = calloc(cap, sizeof(*m->wgmma));
    int *nk = calloc(2 * cap, sizeof(int)); /* all groups' N and K, packed */
    if (!m->wgmma || !nk) {
        free(nk);
        return -1;
    }
    size_t used = 0;
    for (int pass = 0; pass < 2; pass++) /* count, then fill */
        for (size_t i = 0; i < a->n_tensor; i++) {
            const gc_tensor_t *t = &a->tensor[i];
            int mm, n, k;
            if (!t->inst || strcmp(t->inst, "wgmma") || !t->a || !t->c ||
                gc_tensor_shape(t->shape, &mm, &n, &k))
                continue;
            size_t g = 0;
            while (g < m->n_wgmma && (strcmp(m->wgmma[g].a, t->a) || strcmp(m->wgmma[g].c, t->c)))
                g++;
            gc_mwgmma_t *w = &m->wgmma[g];
            if (g == m->n_wgmma) {
                *w = (gc_mwgmma_t){t->a, t->c, 0, NULL, NULL};
                m->n_wgmma++;
            }
            if (pass == 0) {
                w->n_forms++;
                continue;
            }
            if (!w->n) { /* its slice of nk */
                w->n = nk + used, w->k = nk + used + w->n_forms;
                used += 2 * (size_t)w->n_forms;
                w->n_forms = 0;
            }
            w->n[w->n_forms] = n, w->k[w->n_forms++] = k;
        }
    if (!m->n_wgmma)
        free(nk);
    return 0;
}

int gc_machine_wgmma_n(const gc_machine_t *m, const char *at, const char *ct, int or_f16,
                       int ik, int want)
{
    int below = 0, above = 0;
    for (size_t g = 0; g < m->n_wgmma; g++) {
        const gc_mwgmma_t *w = &m->wgmma[g];
        if (strcmp(w->c, ct) || !(strcmp(w->a, at) == 0 || (or_f16 && !strcmp(w->a, "f16"))))
            continue;
        for (int i = 0; i < w->n_forms; i++) {
            if (w->k[i] == ik && gc_nearest_n(w->n[i], want, &below, &above))
                return want;
        }
    }
    return below ? below : above;
}

int gc_machine_create(gc_machine_t **out, const gc_arch_t *a, gc_err_t *err)
{
    *out = NULL;
    gc_machine_t *m = calloc(1, sizeof(*m));
    if (!m)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    int rc = gc_derive_scalars(a, m, err);
    if (rc) {
        gc_machine_destroy(m);
        return rc;
    }
    m->forms = calloc(a->n_tensor ? a->n_tensor : 1, sizeof(*m->forms));
    m->alus = calloc(a->n_alu ? a->n_alu : 1, sizeof(*m->alus));
    if (!m->forms || !m->alus) {
        gc_machine_destroy(m);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    m->n_forms = a->n_tensor;
    for (size_t i = 0; i < a->n_tensor; i++)
        gc_derive_form(a, m, &a->tensor[i], &m->forms[i]);
    m->n_alus = a->n_alu;
    for (size_t i = 0; i < a->n_alu; i++)
        gc_derive_alu(a, m, a->alu[i].op, &a->alu[i], &m->alus[i]);
    for (int i = 0; i < GC_ALU_DEFAULTS; i++)
        gc_derive_alu(a, m, gc_derive_alu_default(i), NULL, &m->defaults[i]);
    gc_derive_alu(a, m, "dfma", NULL, &m->fp64);
    if (build_index(m) || build_wgmma(m, a) || build_alu_index(m)) {
        gc_machine_destroy(m);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    *out = m;
    return 0;
}

void gc_machine_destroy(gc_machine_t *m)
{
    if (!m)
        return;
    free(m->forms);
    free(m->alus);
    free(m->index);
    free(m->alu_index);
    if (m->wgmma && m->n_wgmma)
        free(m->wgmma[0].n); /* the first group's slice starts the packed array */
    free(m->wgmma);
    free(m);
}

static void view_free(void *v)
{
    gc_machine_destroy(v);
}

int gc_machine_attach(gc_arch_t *a, gc_err_t *err)
{
    gc_machine_t *m = NULL;
    int rc = gc_machine_create(&m, a, err);
    if (rc)
        return rc;
    if (a->view_free)
        a->view_free(a->view);
    a->view = m;
    a->view_free = view_free;
    return 0;
}

const gc_machine_t *gc_machine_of(const gc_arch_t *a)
{
    return a->view_free == view_free ? a->view : NULL;
}

/* ---- lookups a prediction makes ---- */

/* The form of key inst/shape/a/c (operands NULL = any), preferring rand
 * data over zero; as gc_arch_tensor, through the index. NULL when absent. */
static const gc_mform_t *find(const gc_machine_t *m, const char *inst, const char *shape,
                              const char *at, const char *ct, const char *operands)
{
    unsigned long long h = key_hash(inst, shape, at, ct);
    size_t mask = m->index_cap - 1;
    for (size_t j = h & mask;; j = (j + 1) & mask) {
        int i = m->index[j];
        if (i < 0)
            return NULL;
        if (m->forms[i].hash != h || !same_key(m->forms[i].t, inst, shape, at, ct))
            continue;
        const gc_mform_t *best = NULL;
        for (; i >= 0; i = m->forms[i].next) {
            const gc_mform_t *f = &m->forms[i];
            if (operands && f->t->operands && strcmp(operands, f->t->operands))
                continue;
            if (!best || f->is_rand)
                best = f;
        }
        return best;
    }
}

/* The error for a tensor op m has no form for, listing the forms of its
 * instruction it has. */
static int no_form(const gc_machine_t *m, const gc_kop_t *op, const char *file, const char *inst,
                   int wg, gc_err_t *err)
{
    char list[400] = "";
    size_t at = 0;
    const char *want = !strcmp(inst, "wmma") ? "mma" : inst;
    for (size_t i = 0; i < m->n_forms && at < sizeof(list) - 40; i++) {
        const gc_tensor_t *x = m->forms[i].t;
        if (strcmp(x->inst, want))
            continue;
        char lab[96];
        snprintf(lab, sizeof(lab), "%s %s %s.%s", x->inst, x->shape, x->a, x->c);
        if (strstr(list, lab))
            continue;
        int w = snprintf(list + at, sizeof(list) - at, "%s%s", at ? ", " : "", lab);
        if (w > 0 && (size_t)w < sizeof(list) - at)
            at += (size_t)w;
    }
    return gc_err_at(err, GC_EINPUT, file, op->line, op->col,
                     "the arch %s has no tensor form '%s %s %s.%s'%s (forms it has: %s)", m->name,
                     inst, op->shape, op->a, op->c, wg ? " for wgmma operands" : "",
                     at ? list : "none");
}

/* wmma.mma mMnNkK compiles to N/8 mma.m16n8kK on sm_80 and later, and to
 * N/8 x 2 mma.m16n8k(K/2) on Turing (HMMA.1688): the form and its rule. */
static const gc_mform_t *wmma_form(const gc_machine_t *m, const gc_kop_t *op, int n, int k,
                                   double *insts, const char **rule)
{
    const char *at = !strcmp(op->a, "bf16") ? "f16" : op->a;
    for (int split = 1; split <= 2; split++) {
        char shape[32];
        snprintf(shape, sizeof(shape), "m16n8k%d", k / split);
        const gc_mform_t *f = k % split == 0 ? find(m, "mma", shape, at, op->c, NULL) : NULL;
        if (f) {
            *insts = (double)(n / 8) * split;
            *rule = split == 1 ? "wmma mMnNkK runs as N/8 mma m16n8kK (its SASS on sm_80 on)"
                               : "wmma mMnNkK runs as N/4 mma m16n8k(K/2) (its SASS on sm_75)";
            return f;
        }
    }
    return NULL;
}

int gc_machine_tensor(const gc_machine_t *m, const gc_kop_t *op, const char *file,
                      gc_tensor_plan_t *out, gc_derived_list_t *dl, gc_err_t *err)
{
    memset(out, 0, sizeof(*out));
    const char *inst = op->inst ? op->inst : "mma";
    int wg = !strncmp(inst, "wgmma", 5);
    const char *operands = wg ? (op->operands ? op->operands : "ss") : NULL;
    out->insts = 1;
    out->warpgroup = wg;
    const gc_mform_t *f = op->shape ? find(m, inst, op->shape, op->a, op->c, operands) : NULL;
    /* a form of the op's own shape read that shape at create: its m*n*k
     * (f->fma > 0) is the op's, so the shape is parsed here only without one */
    int mm = 0, n = 0, k = 0;
    if (f && f->fma > 0)
        out->fma = f->fma;
    else if (!op->shape || gc_tensor_shape(op->shape, &mm, &n, &k))
        return gc_err_at(err, GC_EINPUT, file, op->line, op->col, "bad tensor shape '%s'",
                         op->shape ? op->shape : "?");
    else
        out->fma = (double)mm * n * k;
    const char *rule = NULL;
    if (!f && !strcmp(op->a, "bf16")) {
        f = find(m, inst, op->shape, "f16", op->c, operands);
        rule = "bf16 runs at the rate of the f16 form (every tensor core since Ampere)";
    }
    if (!f && !strcmp(inst, "wmma") && mm == 16 && n % 8 == 0)
        f = wmma_form(m, op, n, k, &out->insts, &rule);
    if (!f)
        return no_form(m, op, file, inst, wg, err);
    out->form = f;
    if (rule)
        gc_derived_add(dl, f->t, NULL, "", out->insts, rule);
    if (!f->ok) {
        char lab[96];
        return gc_err_at(err, GC_EINPUT, file, op->line, op->col,
                         "the arch %s gives tensor form '%s' neither issue_cyc nor a peak "
                         "throughput (peak_fma_clk_sm or peak_tflops): add one",
                         m->name, gc_tensor_label(f->t, lab, sizeof(lab)));
    }
    for (int i = 0; i < f->nd; i++)
        gc_derived_add(dl, f->t, NULL, f->d[i].field, f->d[i].value, f->d[i].how);
    out->pipe = f->pipe;
    return 0;
}

/* The entry op `name` resolves to: the arch's first alu entry of that
 * name, else the default whose prefix is the name up to a '.' or its end
 * (the first in table order, as gc_derive_alu_default_of), else the FP64
 * pipe for dfma / dadd / dmul; NULL for none. One pass hashes the name and
 * each of its prefixes that ends before a '.'. */
static const gc_malu_t *alu_find(const gc_machine_t *m, const char *name)
{
    unsigned long long h = 14695981039346656037ULL;
    int di = -1;
    for (size_t i = 0;; i++) {
        if (name[i] == 0 || name[i] == '.') {
            const gc_malu_key_t *e = alu_slot(m, name, i, h);
            if (name[i] == 0 && e->name && e->alu >= 0)
                return &m->alus[e->alu];
            if (e->name && e->dflt >= 0 && (di < 0 || e->dflt < di))
                di = e->dflt;
            if (name[i] == 0)
                break;
        }
        h ^= (unsigned char)name[i];
        h *= 1099511628211ULL;
    }
    if (di >= 0)
        return &m->defaults[di];
    return gc_derive_alu_fp64(name) ? &m->fp64 : NULL;
}

int gc_machine_alu(const gc_machine_t *m, const gc_kop_t *op, const char *file, gc_pipe_t *out,
                   int *cls, gc_derived_list_t *dl, gc_err_t *err)
{
    const gc_malu_t *u = alu_find(m, op->name);
    if (!u || !u->ok) {
        const char *names[96];
        size_t nn = gc_derive_alu_names(names, 64);
        for (size_t i = 0; i < m->n_alus && nn < 96; i++)
            names[nn++] = m->alus[i].name;
        char hint[96];
        return gc_err_at(err, GC_EINPUT, file, op->line, op->col,
                         "the arch %s has no alu entry for '%s' and gpucal knows no default "
                         "for it%s (model/kernels/README.md lists the names)",
                         m->name, op->name,
                         gc_suggest_hint(op->name, names, nn, hint, sizeof(hint)));
    }
    for (int i = 0; i < u->nd; i++)
        gc_derived_add(dl, NULL, op->name, u->d[i].field, u->d[i].value, u->d[i].how);
    *out = u->pipe;
    *cls = u == &m->fp64 ? gc_derive_alu_pipe(op->name) : u->cls;
    return 0;
}
