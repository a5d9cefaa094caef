/* kernel.c - load and validate gpucal-kernel/1 descriptions (see kernel.h;
 * the keys are documented in model/kernels/README.md). Reads YAML through
 * ytree.c; every error names the node's FILE:LINE:COL. */
#define _POSIX_C_SOURCE 200809L
#include "kernel.h"
#include "../../arch/arch.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../util/arena.h"
#include "../../util/fsio.h"
#include "../../util/suggest.h"
#include "../../arch/ytree.h"
#include "derive.h"
#include "expr.h"

static const char *const class_names[GC_OP_N] = {
    "mma", "wgmma", "wmma", "alu", "ldmatrix", "lds", "sts", "shfl",
    "ldg", "stg", "cp_async", "tma", "bar",
};

const char *gc_opclass_name(gc_opclass_t c)
{
    return c < GC_OP_N ? class_names[c] : "?";
}

/* ---- construction ---- */

gc_kernel_t *gc_kernel_create(const char *name)
{
    gc_kernel_t *k = calloc(1, sizeof(*k));
    if (!k)
        return NULL;
    k->arena = gc_arena_create();
    if (!k->arena) {
        free(k);
        return NULL;
    }
    k->schema = GC_KERNEL_SCHEMA;
    k->name = gc_kernel_str(k, name ? name : "kernel");
    for (int i = 0; i < 3; i++)
        k->grid[i] = k->block[i] = 1;
    gc_kphase_t *ph[3] = {&k->prologue, &k->loop, &k->epilogue};
    for (int i = 0; i < 3; i++) {
        ph[i]->trips = 1;
        ph[i]->stages = 1;
    }
    k->loop.present = 1;
    return k;
}

void gc_kernel_destroy(gc_kernel_t *k)
{
    if (!k)
        return;
    gc_arena_destroy(k->arena);
    free(k);
}

const char *gc_kernel_str(gc_kernel_t *k, const char *s)
{
    return gc_arena_strdup(k->arena, s);
}

gc_kop_t *gc_kernel_op(gc_kernel_t *k, gc_kphase_t *ph, gc_opclass_t cls)
{
    if (ph->n_ops >= GC_KERNEL_OPS_MAX)
        return NULL;
    if (ph->n_ops == ph->cap) {
        size_t cap = ph->cap ? 2 * ph->cap : 8;
        gc_kop_t *ops = gc_arena_alloc(k->arena, cap * sizeof(*ops));
        if (!ops)
            return NULL;
        if (ph->n_ops)
            memcpy(ops, ph->ops, ph->n_ops * sizeof(*ops));
        ph->ops = ops;
        ph->cap = cap;
    }
    gc_kop_t *op = &ph->ops[ph->n_ops++];
    memset(op, 0, sizeof(*op));
    op->cls = cls;
    op->count = 1;
    op->active = 32;
    op->ways = 1;
    op->l1 = 1;
    op->multicast = 1;
    ph->present = 1;
    return op;
}

long gc_kernel_threads(const gc_kernel_t *k)
{
    return k->block[0] * k->block[1] * k->block[2];
}

long gc_kernel_warps(const gc_kernel_t *k)
{
    return (gc_kernel_threads(k) + 31) / 32;
}

double gc_kernel_blocks(const gc_kernel_t *k)
{
    return (double)k->grid[0] * (double)k->grid[1] * (double)k->grid[2];
}

/* ---- loading ---- */

typedef struct loader {
    gc_kernel_t *k;
    const char *file;
    gc_err_t *err;
    gc_expr_var_t vars[GC_KERNEL_PARAMS_MAX]; /* params, in file order */
    size_t n_vars;
    const gc_kernel_opts_t *opts;             /* --set overrides (may be NULL) */
} loader_t;

GC_PRINTF(5, 6)
static int fail(loader_t *L, const gc_ynode_t *n, int code, const char *path, const char *fmt,
                ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = gc_ynode_verr(L->err, code, L->file, n, path, fmt, ap);
    va_end(ap);
    return rc;
}

static int need_map(loader_t *L, const gc_ynode_t *n, const char *path, const char *what)
{
    if (n->kind != GC_Y_MAP)
        return fail(L, n, GC_EINPUT, path, "expected a mapping of keys (%s), found %s", what,
                    gc_ykind_name(n->kind));
    for (size_t i = 0; i < n->n; i++) {
        const gc_ynode_t *ki = gc_ymap_keynode(n, i);
        if (ki->kind != GC_Y_SCALAR)
            return fail(L, ki, GC_EINPUT, path, "a key must be a plain name, found %s",
                        gc_ykind_name(ki->kind));
        for (size_t j = 0; j < i; j++)
            if (!strcmp(gc_ymap_key(n, j), ki->str))
                return fail(L, ki, GC_EINPUT, path,
                            "duplicate key '%s' (first on line %ld): keep one of them", ki->str,
                            gc_ymap_keynode(n, j)->line);
    }
    return 0;
}

/* 1 if s reads whole as a number (strtod), NaN and infinity included. */
static int looks_numeric(const char *s)
{
    char *e;
    (void)strtod(s, &e);
    return e != s && !*e;
}

/* A number given as an expression over the params (expr.h), within
 * [lo, hi], whole when integer != 0. */
static int get_expr(loader_t *L, const gc_ynode_t *n, const char *path, double lo, double hi,
                    int integer, const char *unit, double *out)
{
    char why[256];
    double v;
    if (gc_expr_eval(n->str, L->vars, L->n_vars, &v, why, sizeof(why))) {
        /* YAML splits an unquoted flow list at each comma: max(A, B) arrives
         * as 'max(A' */
        int open = 0;
        for (const char *c = n->str; *c; c++)
            open += (*c == '(') - (*c == ')');
        return fail(L, n, GC_EINPUT, path, "'%.60s': %s%s", n->str, why,
                    open > 0 && n->plain ? " (inside [...] or {...}, quote an expression that "
                                           "has a comma: \"max(A, B)\")"
                                         : "");
    }
    if (v < lo || v > hi)
        return fail(L, n, GC_EINPUT, path,
                    "%.60s = %g is out of range (must be between %g and %g %s)", n->str, v, lo,
                    hi, unit);
    if (integer && v != floor(v))
        return fail(L, n, GC_EINPUT, path,
                    "%.60s = %g: must be a whole number of %s (round it: ceil(...) or "
                    "floor(...))",
                    n->str, v, unit);
    *out = v;
    return 0;
}

/* A plain finite number within [lo, hi]; whole when integer != 0; or an
 * expression over the params. */
static int get_num(loader_t *L, const gc_ynode_t *n, const char *path, double lo, double hi,
                   int integer, const char *unit, double *out)
{
    if (n->kind != GC_Y_SCALAR)
        return fail(L, n, GC_EINPUT, path, "expected a number (%s), found %s", unit,
                    gc_ykind_name(n->kind));
    const char *s = n->str;
    int numeric = looks_numeric(s);
    if (!n->plain && numeric)
        return fail(L, n, GC_EINPUT, path,
                    "expected a number (%s), found a quoted text (remove the quotes)", unit);
    const char *t = s + (*s == '-' || *s == '+');
    if (!strcasecmp(t, ".nan") || !strcasecmp(t, "nan") || !strcasecmp(t, ".inf") ||
        !strcasecmp(t, "inf") || !strcasecmp(t, "infinity"))
        return fail(L, n, GC_EINPUT, path,
                    "'%s' is not a valid value (NaN and infinity are refused; give a finite "
                    "number of %s)",
                    s, unit);
    if (!numeric && s[0])
        return get_expr(L, n, path, lo, hi, integer, unit, out);
    char *e;
    errno = 0;
    double v = strtod(s, &e);
    if (!s[0] || e == s || *e || errno == ERANGE || !isfinite(v))
        return fail(L, n, GC_EINPUT, path, "expected a number (%s), found '%.40s'", unit, s);
    if (v < 0 && lo >= 0)
        return fail(L, n, GC_EINPUT, path, "negative value %s (must be at least %g %s)", s, lo,
                    unit);
    if (v < lo || v > hi)
        return fail(L, n, GC_EINPUT, path, "%s is out of range (must be between %g and %g %s)",
                    s, lo, hi, unit);
    if (integer && v != floor(v))
        return fail(L, n, GC_EINPUT, path, "must be a whole number of %s, found %s", unit, s);
    *out = v;
    return 0;
}

static int get_str(loader_t *L, const gc_ynode_t *n, const char *path, const char *const *choices,
                   const char **out)
{
    if (n->kind != GC_Y_SCALAR)
        return fail(L, n, GC_EINPUT, path, "expected a text, found %s", gc_ykind_name(n->kind));
    if (!n->str[0])
        return fail(L, n, GC_EINPUT, path, "empty text: give a value or leave the key out");
    if (choices) {
        char list[256] = "";
        size_t at = 0;
        int ok = 0;
        for (const char *const *c = choices; *c; c++) {
            ok |= !strcmp(*c, n->str);
            int w = snprintf(list + at, sizeof(list) - at, "%s%s", at ? ", " : "", *c);
            if (w > 0 && (size_t)w < sizeof(list) - at)
                at += (size_t)w;
        }
        if (!ok)
            return fail(L, n, GC_EINPUT, path, "'%.40s' is not one of: %s", n->str, list);
    }
    *out = gc_kernel_str(L->k, n->str);
    return *out ? 0 : gc_err_set(L->err, GC_ENOMEM, "out of memory");
}

static int get_bool(loader_t *L, const gc_ynode_t *n, const char *path, int *out)
{
    if (n->kind == GC_Y_SCALAR && n->plain && (!strcmp(n->str, "true") || !strcmp(n->str, "false"))) {
        *out = n->str[0] == 't';
        return 0;
    }
    return fail(L, n, GC_EINPUT, path, "expected true or false, found %s",
                n->kind == GC_Y_SCALAR ? n->str : gc_ykind_name(n->kind));
}

/* grid / block: a whole number or a list of 1 to 3 of them. */
static int get_dims(loader_t *L, const gc_ynode_t *n, const char *path, double hi0, double hi12,
                    const char *unit, long out[3])
{
    out[0] = out[1] = out[2] = 1;
    if (n->kind == GC_Y_SCALAR) {
        double v;
        int rc = get_num(L, n, path, 1, hi0, 1, unit, &v);
        if (!rc)
            out[0] = (long)v;
        return rc;
    }
    if (n->kind != GC_Y_SEQ || n->n < 1 || n->n > 3)
        return fail(L, n, GC_EINPUT, path,
                    "expected a whole number or a list [x, y, z] of 1 to 3 of them (%s)", unit);
    for (size_t i = 0; i < n->n; i++) {
        double v = 0;
        int rc = get_num(L, n->kids[i], path, 1, i ? hi12 : hi0, 1, unit, &v);
        if (rc)
            return rc;
        out[i] = (long)v;
    }
    return 0;
}

/* An unknown key is an error: a misspelt key would otherwise change
 * nothing silently. Names the closest known key and lists them all. */
static int unknown_key(loader_t *L, const gc_ynode_t *kn, const char *path, const char *key,
                       const char *const *known, size_t n)
{
    char hint[96], list[512] = "";
    size_t at = 0;
    gc_suggest_hint(key, known, n, hint, sizeof(hint));
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "", known[i]);
        if (w > 0 && (size_t)w < sizeof(list) - at)
            at += (size_t)w;
    }
    return gc_err_at(L->err, GC_EINPUT, L->file, kn->line, kn->col,
                     "unknown key '%s%s%.60s'%s; the keys here are: %s", path[0] ? path : "",
                     path[0] ? "." : "", key, hint, list);
}

/* ---- ops ---- */

static const char *const atypes[] = {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8",
                                     "s4",  "u4",   "b1",   "f64",  NULL};
static const char *const ctypes[] = {"f16", "f32", "s32", "f64", NULL};
static const char *const operands[] = {"ss", "rs", NULL};
static const char *const caches[] = {"l1", "l2", NULL};

enum { K_COUNT, K_CHAINS, K_SHAPE, K_A, K_C, K_OPERANDS, K_NAME, K_NUM, K_TRANS, K_WIDTH,
       K_ACTIVE, K_WAYS, K_SECTORS, K_LINES, K_CACHE, K_BYTES, K_L1HIT, K_BCAST, K_DEPTH,
       K_AFTER, K_MCAST, K_STAGED, K_N };

#define B(c) (1u << (c))
#define TENSOR (B(GC_OP_MMA) | B(GC_OP_WGMMA) | B(GC_OP_WMMA))
#define GLOBAL (B(GC_OP_LDG) | B(GC_OP_STG) | B(GC_OP_CP_ASYNC))
#define ALLOPS ((1u << GC_OP_N) - 1)

static const struct opkey {
    const char *key;
    unsigned classes;   /* classes that take it */
    unsigned required;  /* classes that need it */
} opkeys[K_N] = {
    [K_COUNT] = {"count", ALLOPS, ALLOPS},
    [K_CHAINS] = {"chains", TENSOR | B(GC_OP_ALU) | B(GC_OP_LDG) | B(GC_OP_SHFL), 0},
    [K_SHAPE] = {"shape", TENSOR, TENSOR},
    [K_A] = {"a", TENSOR, TENSOR},
    [K_C] = {"c", TENSOR, TENSOR},
    [K_OPERANDS] = {"operands", B(GC_OP_WGMMA), 0},
    [K_NAME] = {"name", B(GC_OP_ALU), B(GC_OP_ALU)},
    [K_NUM] = {"num", B(GC_OP_LDMATRIX), B(GC_OP_LDMATRIX)},
    [K_TRANS] = {"trans", B(GC_OP_LDMATRIX), 0},
    [K_WIDTH] = {"width", B(GC_OP_LDS) | B(GC_OP_STS) | GLOBAL,
                 B(GC_OP_LDS) | B(GC_OP_STS) | GLOBAL},
    [K_ACTIVE] = {"active", B(GC_OP_LDS) | B(GC_OP_STS) | GLOBAL, 0},
    [K_WAYS] = {"ways", B(GC_OP_LDS) | B(GC_OP_STS) | B(GC_OP_LDMATRIX) | B(GC_OP_CP_ASYNC), 0},
    [K_SECTORS] = {"sectors", GLOBAL, 0},
    [K_LINES] = {"lines", GLOBAL, 0},
    [K_CACHE] = {"cache", B(GC_OP_LDG) | B(GC_OP_CP_ASYNC), 0},
    [K_BYTES] = {"bytes", B(GC_OP_TMA), B(GC_OP_TMA)},
    [K_L1HIT] = {"l1_hit", B(GC_OP_LDG), 0},
    [K_BCAST] = {"broadcast", B(GC_OP_LDS), 0},
    [K_DEPTH] = {"depth", B(GC_OP_ALU) | B(GC_OP_SHFL), 0},
    [K_AFTER] = {"after_tensor", B(GC_OP_ALU), 0},
    [K_MCAST] = {"multicast", B(GC_OP_TMA), 0},
    [K_STAGED] = {"staged", B(GC_OP_CP_ASYNC), 0},
};

static int op_class(const char *s, gc_opclass_t *c)
{
    if (!strcmp(s, "mma") || !strcmp(s, "mma.sp"))
        *c = GC_OP_MMA;
    else if (!strcmp(s, "wgmma") || !strcmp(s, "wgmma.sp"))
        *c = GC_OP_WGMMA;
    else if (!strcmp(s, "wmma"))
        *c = GC_OP_WMMA;
    else {
        for (int i = 0; i < GC_OP_N; i++)
            if (!strcmp(s, class_names[i]) && i != GC_OP_MMA && i != GC_OP_WGMMA &&
                i != GC_OP_WMMA) {
                *c = (gc_opclass_t)i;
                return 0;
            }
        return -1;
    }
    return 0;
}

static int check_shape(const char *s)
{
    return gc_tensor_shape(s, NULL, NULL, NULL);
}

/* An op's text key kid (shape, a, c, operands, name, cache) from v. */
static int op_key_text(loader_t *L, gc_kop_t *op, int kid, const gc_ynode_t *v, const char *p)
{
    int rc = 0;
    switch (kid) {
    case K_SHAPE:
        rc = get_str(L, v, p, NULL, &op->shape);
        if (!rc && check_shape(op->shape))
            rc = fail(L, v, GC_EINPUT, p, "'%.40s' is not well formed (expected mMnNkK, "
                      "e.g. m16n8k16)", v->str);
        break;
    case K_A:
        rc = get_str(L, v, p, atypes, &op->a);
        break;
    case K_C:
        rc = get_str(L, v, p, ctypes, &op->c);
        break;
    case K_OPERANDS:
        rc = get_str(L, v, p, operands, &op->operands);
        break;
    case K_NAME:
        rc = get_str(L, v, p, NULL, &op->name);
        for (const char *c = op->name; !rc && *c; c++)
            if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '.' ||
                  *c == '_'))
                rc = fail(L, v, GC_EINPUT, p,
                          "'%.40s' is not an instruction name (lower case, e.g. ffma, "
                          "imad, mufu.ex2)",
                          v->str);
        break;
    case K_CACHE: {
        const char *c;
        rc = get_str(L, v, p, caches, &c);
        if (!rc)
            op->l1 = !strcmp(c, "l1");
        break;
    }
    }
    return rc;
}

/* An op's key kid from v: numbers and flags here, text in op_key_text. */
static int op_key(loader_t *L, gc_kop_t *op, int kid, const gc_ynode_t *v, const char *p)
{
    int rc = 0;
    double x = 0;
    switch (kid) {
    case K_COUNT:
        rc = get_num(L, v, p, 0, 1e9, 0, "instructions per warp per iteration", &op->count);
        break;
    case K_CHAINS:
        rc = get_num(L, v, p, 1, 1e9, 0, "independent chains", &op->chains);
        break;
    case K_NUM:
        rc = get_num(L, v, p, 1, 4, 1, "matrices", &op->num);
        if (!rc && op->num == 3)
            rc = fail(L, v, GC_EINPUT, p, "ldmatrix loads 1, 2 or 4 matrices, not 3");
        break;
    case K_TRANS: {
        int t;
        rc = get_bool(L, v, p, &t);
        break;
    }
    case K_WIDTH:
        rc = get_num(L, v, p, 1, 16, 1, "bytes per thread", &op->width);
        if (!rc && op->width != 1 && op->width != 2 && op->width != 4 && op->width != 8 &&
            op->width != 16)
            rc = fail(L, v, GC_EINPUT, p, "an access is 1, 2, 4, 8 or 16 bytes, not %s",
                      v->str);
        break;
    case K_ACTIVE:
        rc = get_num(L, v, p, 1, 32, 1, "threads", &op->active);
        break;
    case K_WAYS:
        rc = get_num(L, v, p, 1, 32, 0, "ways", &op->ways);
        break;
    case K_SECTORS:
        rc = get_num(L, v, p, 1, 512, 0, "32-byte sectors per warp instruction", &op->sectors);
        break;
    case K_LINES:
        rc = get_num(L, v, p, 1, 128, 0, "128-byte lines per warp instruction", &op->lines);
        break;
    case K_BYTES:
        rc = get_num(L, v, p, 1, 1 << 20, 0, "bytes per instruction", &x);
        op->bytes = x;
        break;
    case K_MCAST:
        rc = get_num(L, v, p, 1, 16, 1, "blocks of a cluster the load lands in", &op->multicast);
        break;
    case K_STAGED:
        rc = get_bool(L, v, p, &op->staged);
        break;
    case K_L1HIT:
        rc = get_num(L, v, p, 0, 1, 0, "fraction of sectors", &op->l1_hit);
        break;
    case K_BCAST:
        rc = get_bool(L, v, p, &op->broadcast);
        break;
    case K_DEPTH:
        rc = get_num(L, v, p, 0, 1e9, 0, "dependent steps per iteration", &op->depth);
        if (!rc && !(op->depth > 0))
            rc = fail(L, v, GC_EINPUT, p, "depth must be > 0 (dependent steps per "
                      "iteration; leave it out for count / chains)");
        break;
    case K_AFTER:
        rc = get_bool(L, v, p, &op->after_tensor);
        break;
    default:
        return op_key_text(L, op, kid, v, p);
    }
    return rc;
}

/* The op entry n: its class checked, a new op of it appended to ph (*op,
 * *on its `op` node). */
static int op_create(loader_t *L, gc_kphase_t *ph, const gc_ynode_t *n, const char *path,
                     const gc_ynode_t **onp, gc_kop_t **opp)
{
    const gc_ynode_t *on = gc_ymap_get(n, "op");
    if (!on)
        return fail(L, n, GC_EINPUT, path,
                    "missing required key 'op' (mma, mma.sp, wgmma, wgmma.sp, wmma, alu, "
                    "ldmatrix, lds, sts, shfl, ldg, stg, cp_async, tma, bar)");
    if (on->kind != GC_Y_SCALAR)
        return fail(L, on, GC_EINPUT, path, "op: expected a text, found %s",
                    gc_ykind_name(on->kind));
    gc_opclass_t cls;
    if (op_class(on->str, &cls)) {
        static const char *const ops[] = {"mma",      "mma.sp", "wgmma", "wgmma.sp", "wmma",
                                          "alu",      "ldmatrix", "lds", "sts",      "shfl",
                                          "ldg",      "stg",    "cp_async", "tma",   "bar"};
        char hint[96];
        return fail(L, on, GC_EINPUT, path,
                    "op: unknown instruction class '%.40s'%s (one of: mma, mma.sp, wgmma, "
                    "wgmma.sp, wmma, alu, ldmatrix, lds, sts, shfl, ldg, stg, cp_async, tma, "
                    "bar)",
                    on->str, gc_suggest_hint(on->str, ops, 15, hint, sizeof(hint)));
    }
    gc_kop_t *op = gc_kernel_op(L->k, ph, cls);
    if (!op)
        return ph->n_ops >= GC_KERNEL_OPS_MAX
                   ? fail(L, n, GC_ELIMIT, path, "more than %d ops in one loop (merge entries)",
                          GC_KERNEL_OPS_MAX)
                   : gc_err_set(L->err, GC_ENOMEM, "out of memory");
    op->line = n->line;
    op->col = n->col;
    if (cls == GC_OP_MMA || cls == GC_OP_WGMMA || cls == GC_OP_WMMA)
        op->inst = gc_kernel_str(L->k, on->str);
    if (cls == GC_OP_CP_ASYNC)
        op->l1 = 0; /* 16-byte cp.async is .cg: L2 only */
    *onp = on;
    *opp = op;
    return 0;
}

/* The keys op's class needs, and the checks across its keys. */
static int op_check(loader_t *L, const gc_ynode_t *n, const char *path, const gc_ynode_t *on,
                    const gc_kop_t *op)
{
    gc_opclass_t cls = op->cls;
    for (int j = 0; j < K_N; j++)
        if ((opkeys[j].required & B(cls)) && !gc_ymap_get(n, opkeys[j].key))
            return fail(L, n, GC_EINPUT, path, "op '%s' needs '%s'%s", on->str, opkeys[j].key,
                        j == K_COUNT ? " (instructions per warp per iteration)"
                        : j == K_WIDTH ? " (bytes per thread: 1, 2, 4, 8 or 16)"
                        : j == K_SHAPE ? " (e.g. m16n8k16)"
                        : j == K_NUM   ? " (1, 2 or 4 matrices)"
                        : j == K_NAME  ? " (e.g. ffma, imad)"
                                       : "");
    if (op->chains > 0 && op->depth > 0)
        return fail(L, n, GC_EINPUT, path, "give chains or depth, not both (depth is the "
                    "dependent steps, count / chains when left out)");
    if (op->chains > 0 && op->count > 0 && op->chains > op->count)
        return fail(L, n, GC_EINPUT, path, "chains (%g) exceeds count (%g): a chain holds at "
                    "least one instruction", op->chains, op->count);
    if (cls == GC_OP_CP_ASYNC && op->width < 4 && !op->staged)
        return fail(L, n, GC_EINPUT, path,
                    "cp.async copies 4, 8 or 16 bytes per thread (a narrower copy staged in "
                    "registers, ld.global then st.shared, says staged: true)");
    if (op->sectors > 0 && op->width > 0 && op->sectors * 32 < op->active * op->width - 1e-9)
        return fail(L, n, GC_EINPUT, path,
                    "sectors (%g) cannot hold the %g bytes the warp accesses (32 bytes each)",
                    op->sectors, op->active * op->width);
    return 0;
}

static int load_op(loader_t *L, gc_kphase_t *ph, const gc_ynode_t *n, const char *path)
{
    int rc = need_map(L, n, path, "an op: {op: CLASS, count: N, ...}");
    const gc_ynode_t *on = NULL;
    gc_kop_t *op = NULL;
    if (rc || (rc = op_create(L, ph, n, path, &on, &op)))
        return rc;
    op->count = -1;
    for (size_t i = 0; i < n->n; i++) {
        const char *key = gc_ymap_key(n, i);
        const gc_ynode_t *kn = gc_ymap_keynode(n, i), *v = gc_ymap_val(n, i);
        if (!strcmp(key, "op"))
            continue;
        char p[256];
        snprintf(p, sizeof(p), "%s.%s", path, key);
        int kid = -1;
        for (int j = 0; j < K_N; j++)
            if (!strcmp(opkeys[j].key, key))
                kid = j;
        if (kid < 0 || !(opkeys[kid].classes & B(op->cls))) {
            const char *known[K_N + 1];
            size_t nk = 0;
            known[nk++] = "op";
            for (int j = 0; j < K_N; j++)
                if (opkeys[j].classes & B(op->cls))
                    known[nk++] = opkeys[j].key;
            return unknown_key(L, kn, path, key, known, nk);
        }
        if ((rc = op_key(L, op, kid, v, p)))
            return rc;
    }
    return op_check(L, n, path, on, op);
}

static int load_phase(loader_t *L, gc_kphase_t *ph, const gc_ynode_t *n, const char *path,
                      int main_loop)
{
    int rc = need_map(L, n, path, "trips, stages, ops");
    if (rc)
        return rc;
    ph->present = 1;
    ph->line = n->line;
    ph->col = n->col;
    ph->trips = 1;
    ph->stages = 1;
    for (size_t i = 0; i < n->n; i++) {
        const char *key = gc_ymap_key(n, i);
        const gc_ynode_t *kn = gc_ymap_keynode(n, i), *v = gc_ymap_val(n, i);
        char p[128];
        snprintf(p, sizeof(p), "%s.%s", path, key);
        if (main_loop == 2 && strcmp(key, "ops")) {
            static const char *const known[] = {"ops"};
            return unknown_key(L, kn, path, key, known, 1);
        } else if (!strcmp(key, "trips")) {
            rc = get_num(L, v, p, 0, 1e12, 0, "iterations per block", &ph->trips);
        } else if (!strcmp(key, "stages")) {
            rc = get_num(L, v, p, 1, 64, 1, "pipeline stages", &ph->stages);
        } else if (!strcmp(key, "ops")) {
            if (v->kind != GC_Y_SEQ)
                return fail(L, v, GC_EINPUT, p, "expected a list of ops ('- {op: ...}'), found %s",
                            gc_ykind_name(v->kind));
            for (size_t j = 0; j < v->n && !rc; j++) {
                char q[160];
                snprintf(q, sizeof(q), "%s[%zu]", p, j);
                rc = load_op(L, ph, v->kids[j], q);
            }
        } else {
            static const char *const known[] = {"trips", "stages", "ops"};
            return unknown_key(L, kn, path, key, known, 3);
        }
        if (rc)
            return rc;
    }
    if (main_loop == 1 && !gc_ymap_get(n, "trips"))
        return fail(L, n, GC_EINPUT, path, "missing required key 'trips' (iterations of the "
                    "main loop per block)");
    if (!gc_ymap_get(n, "ops"))
        return fail(L, n, GC_EINPUT, path, "missing required key 'ops' (the instructions per "
                    "warp and iteration)");
    return 0;
}

static const char *const launch_keys[] = {"grid",          "block",       "registers",
                                          "shared_bytes",  "blocks_per_sm", "param_lines",
                                          "far_jumps",     "serial_inst"};

static int load_launch(loader_t *L, const gc_ynode_t *n)
{
    int rc = need_map(L, n, "launch", "grid, block, registers, shared_bytes");
    if (rc)
        return rc;
    gc_kernel_t *k = L->k;
    k->launch_line = n->line;
    k->launch_col = n->col;
    for (size_t i = 0; i < n->n; i++) {
        const char *key = gc_ymap_key(n, i);
        const gc_ynode_t *kn = gc_ymap_keynode(n, i), *v = gc_ymap_val(n, i);
        char p[64];
        snprintf(p, sizeof(p), "launch.%s", key);
        if (!strcmp(key, "grid"))
            rc = get_dims(L, v, p, 2147483647.0, 65535, "blocks", k->grid);
        else if (!strcmp(key, "block"))
            rc = get_dims(L, v, p, 1024, 1024, "threads", k->block);
        else if (!strcmp(key, "registers"))
            rc = get_num(L, v, p, 1, 255, 1, "registers per thread", &k->regs);
        else if (!strcmp(key, "shared_bytes"))
            rc = get_num(L, v, p, 0, 4194304, 1, "bytes per block", &k->shared_bytes);
        else if (!strcmp(key, "blocks_per_sm"))
            rc = get_num(L, v, p, 1, 1024, 1, "blocks per SM", &k->blocks_per_sm);
        else if (!strcmp(key, "param_lines"))
            rc = get_num(L, v, p, 1, 512, 1, "64-byte lines of parameters", &k->param_lines);
        else if (!strcmp(key, "far_jumps"))
            rc = get_num(L, v, p, 0, 1e6, 1, "jumps to far code", &k->far_jumps);
        else if (!strcmp(key, "serial_inst"))
            rc = get_num(L, v, p, 0, 1e6, 1, "instructions run once in a chain",
                         &k->serial_inst);
        else
            return unknown_key(L, kn, "launch", key, launch_keys, 8);
        if (rc)
            return rc;
    }
    static const char *const req[] = {"grid", "block"};
    static const char *const why[] = {"blocks: a number or [x, y, z]",
                                      "threads per block: a number or [x, y, z]"};
    for (int i = 0; i < 2; i++)
        if (!gc_ymap_get(n, req[i]))
            return fail(L, n, GC_EINPUT, "launch", "missing required key '%s' (%s)", req[i],
                        why[i]);
    if (gc_kernel_threads(k) > 1024)
        return fail(L, gc_ymap_get(n, "block"), GC_EINPUT, "launch.block",
                    "%ld threads per block: no GPU runs more than 1024", gc_kernel_threads(k));
    return 0;
}

static int load_footprint(loader_t *L, const gc_ynode_t *n)
{
    int rc = need_map(L, n, "footprint", "read_bytes, write_bytes, reuse_bytes, l2_warm");
    if (rc)
        return rc;
    gc_kernel_t *k = L->k;
    for (size_t i = 0; i < n->n; i++) {
        const char *key = gc_ymap_key(n, i);
        const gc_ynode_t *kn = gc_ymap_keynode(n, i), *v = gc_ymap_val(n, i);
        char p[64];
        snprintf(p, sizeof(p), "footprint.%s", key);
        if (!strcmp(key, "read_bytes"))
            rc = get_num(L, v, p, 0, 1e15, 0, "bytes", &k->read_bytes);
        else if (!strcmp(key, "write_bytes"))
            rc = get_num(L, v, p, 0, 1e15, 0, "bytes", &k->write_bytes);
        else if (!strcmp(key, "reuse_bytes"))
            rc = get_num(L, v, p, 0, 1e15, 0, "bytes", &k->reuse_bytes);
        else if (!strcmp(key, "l2_warm"))
            rc = get_bool(L, v, p, &k->l2_warm);
        else {
            static const char *const known[] = {"read_bytes", "write_bytes", "reuse_bytes",
                                                "l2_warm"};
            return unknown_key(L, kn, "footprint", key, known, 4);
        }
        if (rc)
            return rc;
        k->footprint_given |= !strcmp(key, "read_bytes")    ? GC_FP_READ
                              : !strcmp(key, "write_bytes") ? GC_FP_WRITE
                              : !strcmp(key, "reuse_bytes") ? GC_FP_REUSE
                                                            : 0u;
    }
    return 0;
}

static const char *const top_keys[] = {"schema", "name",     "source",   "note",
                                       "params", "launch",   "loop",     "body",
                                       "prologue", "epilogue", "footprint"};

/* The --set NAME=EXPR of opts for name, or NULL. */
static const char *set_for(const gc_kernel_opts_t *o, const char *name)
{
    for (int i = 0; o && i < o->n_set; i++) {
        const char *eq = strchr(o->set[i], '=');
        if (eq && strlen(name) == (size_t)(eq - o->set[i]) &&
            !strncmp(o->set[i], name, (size_t)(eq - o->set[i])))
            return eq + 1;
    }
    return NULL;
}

/* params: {NAME: number or expression over the earlier params}; a
 * --set NAME=EXPR replaces the file's value (evaluated the same way). */
static int load_params(loader_t *L, const gc_ynode_t *n)
{
    int rc = need_map(L, n, "params", "NAME: value, e.g. {N: 8192, TILE: 128}");
    if (rc)
        return rc;
    for (size_t i = 0; i < n->n; i++) {
        const char *key = gc_ymap_key(n, i);
        const gc_ynode_t *kn = gc_ymap_keynode(n, i), *v = gc_ymap_val(n, i);
        char p[128];
        snprintf(p, sizeof(p), "params.%.60s", key);
        if (!gc_expr_is_name(key))
            return fail(L, kn, GC_EINPUT, "params",
                        "'%.60s' is not a parameter name (letters, digits and _, starting with "
                        "a letter; not a function name)",
                        key);
        if (L->n_vars == GC_KERNEL_PARAMS_MAX)
            return fail(L, kn, GC_EINPUT, "params", "more than %d parameters",
                        GC_KERNEL_PARAMS_MAX);
        double x;
        const char *over = set_for(L->opts, key);
        if (over) {
            char why[256];
            if (gc_expr_eval(over, L->vars, L->n_vars, &x, why, sizeof(why)))
                return gc_err_at(L->err, GC_EINPUT, L->file, kn->line, kn->col,
                                 "--set %.60s=%.60s: %s", key, over, why);
        } else if ((rc = get_num(L, v, p, -1e300, 1e300, 0, "a parameter value", &x)) != 0) {
            return rc;
        }
        L->vars[L->n_vars++] = (gc_expr_var_t){key, x};
    }
    return 0;
}

/* Every --set names a parameter of the description. */
static int check_sets(loader_t *L)
{
    const char *names[GC_KERNEL_PARAMS_MAX];
    for (size_t i = 0; i < L->n_vars; i++)
        names[i] = L->vars[i].name;
    for (int i = 0; L->opts && i < L->opts->n_set; i++) {
        const char *s = L->opts->set[i], *eq = strchr(s, '=');
        char name[64], hint[96], list[256] = "";
        snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - s) : 0, s);
        size_t j = 0, at = 0;
        while (j < L->n_vars && strcmp(names[j], name))
            j++;
        for (size_t m = 0; m < L->n_vars; m++) {
            int w = snprintf(list + at, sizeof(list) - at, "%s%s", m ? ", " : "", names[m]);
            if (w > 0 && (size_t)w < sizeof(list) - at)
                at += (size_t)w;
        }
        if (!eq || j == L->n_vars)
            return gc_err_at(L->err, GC_EINPUT, L->file, 0, 0,
                             "--set %.60s: %s%s (the description's params: %s)", s,
                             eq ? "no such parameter" : "expected NAME=VALUE",
                             eq ? gc_suggest_hint(name, names, L->n_vars, hint, sizeof(hint))
                                : "",
                             L->n_vars ? list : "none");
    }
    return 0;
}

/* The registers a thread needs when launch.registers is not given: 32 for
 * addresses, indices and loop state (what nvcc gives a simple kernel),
 * plus the accumulators the main loop's tensor ops hold, one fragment per
 * independent chain (m*n values of c-type bytes over the threads of the
 * warp, or of the warpgroup for wgmma), capped at 255. */
static double estimate_regs(const gc_kernel_t *k)
{
    double regs = 32;
    for (size_t i = 0; i < k->loop.n_ops; i++) {
        const gc_kop_t *op = &k->loop.ops[i];
        int m = 0, nn = 0, kk = 0;
        if (!op->shape || gc_tensor_shape(op->shape, &m, &nn, &kk))
            continue;
        double cb = op->c && (!strcmp(op->c, "f16")) ? 2 : op->c && !strcmp(op->c, "f64") ? 8 : 4;
        double threads = op->cls == GC_OP_WGMMA ? 128 : 32;
        double chains = op->chains > 0 ? op->chains : op->count;
        regs += ceil(chains) * (double)m * (double)nn * cb / 4 / threads;
    }
    return fmin(255, ceil(regs));
}

/* The top-level keys but schema, params and the phases. */
static int load_top(loader_t *L, const gc_ynode_t *root)
{
    gc_kernel_t *k = L->k;
    int rc = 0;
    for (size_t i = 0; !rc && i < root->n; i++) {
        const char *key = gc_ymap_key(root, i);
        const gc_ynode_t *kn = gc_ymap_keynode(root, i), *v = gc_ymap_val(root, i);
        if (!strcmp(key, "schema") || !strcmp(key, "params"))
            continue;
        if (!strcmp(key, "name"))
            rc = get_str(L, v, "name", NULL, &k->name);
        else if (!strcmp(key, "source"))
            rc = get_str(L, v, "source", NULL, &k->source);
        else if (!strcmp(key, "note"))
            rc = get_str(L, v, "note", NULL, &k->note);
        else if (!strcmp(key, "launch"))
            rc = load_launch(L, v);
        else if (!strcmp(key, "loop"))
            rc = load_phase(L, &k->loop, v, "loop", 1);
        else if (!strcmp(key, "body"))
            rc = load_phase(L, &k->loop, v, "body", 2);
        else if (!strcmp(key, "prologue"))
            rc = load_phase(L, &k->prologue, v, "prologue", 0);
        else if (!strcmp(key, "epilogue"))
            rc = load_phase(L, &k->epilogue, v, "epilogue", 0);
        else if (!strcmp(key, "footprint"))
            rc = load_footprint(L, v);
        else
            rc = unknown_key(L, kn, "", key, top_keys, sizeof(top_keys) / sizeof(top_keys[0]));
    }
    return rc;
}

/* The schema line and the required keys of root. */
static int check_root(loader_t *L, const gc_ynode_t *root, int after)
{
    if (!after) {
        const gc_ynode_t *sv = gc_ymap_get(root, "schema");
        if (!sv)
            return fail(L, root, GC_EINPUT, NULL,
                        "missing required key 'schema' (the first line is 'schema: %s')",
                        GC_KERNEL_SCHEMA);
        if (sv->kind != GC_Y_SCALAR || strcmp(sv->str, GC_KERNEL_SCHEMA))
            return fail(L, sv, GC_EINPUT, "schema",
                        "'%.40s' is not supported: this gpucal reads %s (an arch file is given "
                        "with --arch, not as the kernel)",
                        sv->kind == GC_Y_SCALAR ? sv->str : "?", GC_KERNEL_SCHEMA);
        return 0;
    }
    const gc_ynode_t *lp = gc_ymap_get(root, "loop"), *bd = gc_ymap_get(root, "body");
    if (lp && bd)
        return fail(L, bd, GC_EINPUT, "body",
                    "give either loop (a main loop) or body (no main loop), not both");
    static const char *const req[] = {"name", "launch"};
    static const char *const why[] = {"a short name for the output",
                                      "grid and block of the launch (registers, shared_bytes)"};
    for (int i = 0; i < 2; i++)
        if (!gc_ymap_get(root, req[i]))
            return fail(L, root, GC_EINPUT, NULL, "missing required key '%s' (%s)", req[i],
                        why[i]);
    if (!lp && !bd)
        return fail(L, root, GC_EINPUT, NULL,
                    "missing required key 'loop' (the main loop: trips and the ops per warp "
                    "and iteration) or 'body' (the ops of a kernel without a main loop)");
    return 0;
}

int gc_kernel_parse_opts(gc_kernel_t **out, const char *name, const char *buf, size_t len,
                         const gc_kernel_opts_t *opts, gc_err_t *err)
{
    *out = NULL;
    gc_ydoc_t *doc;
    int rc = gc_ydoc_parse(&doc, name, buf, len, err);
    if (rc)
        return rc;
    const gc_ynode_t *root = doc->root;
    if (!root || (root->kind == GC_Y_SCALAR && !root->str[0])) {
        gc_ydoc_destroy(doc);
        return gc_err_at(err, GC_EINPUT, name, 1, 1,
                         "empty file: a kernel description starts with 'schema: %s'",
                         GC_KERNEL_SCHEMA);
    }
    gc_kernel_t *k = gc_kernel_create(NULL);
    loader_t *L = calloc(1, sizeof(*L));
    if (!k || !L) {
        gc_kernel_destroy(k);
        free(L);
        gc_ydoc_destroy(doc);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    k->loop.present = 0;
    *L = (loader_t){.k = k, .file = name, .err = err, .opts = opts};
    rc = need_map(L, root, "", "a kernel description: schema, name, launch, loop, ...");
    if (!rc)
        rc = check_root(L, root, 0);
    const gc_ynode_t *pn = rc ? NULL : gc_ymap_get(root, "params");
    if (pn)
        rc = load_params(L, pn);
    if (!rc)
        rc = check_sets(L);
    if (!rc)
        rc = load_top(L, root);
    if (!rc)
        rc = check_root(L, root, 1);
    if (!rc && !gc_ymap_get(gc_ymap_get(root, "launch"), "registers")) {
        k->regs = estimate_regs(k);
        k->regs_estimated = 1;
    }
    gc_ydoc_destroy(doc);
    free(L);
    if (!rc)
        rc = gc_kernel_check(k, err);
    if (rc) {
        gc_kernel_destroy(k);
        return rc;
    }
    k->path = gc_kernel_str(k, name);
    *out = k;
    return 0;
}

int gc_kernel_parse(gc_kernel_t **out, const char *name, const char *buf, size_t len,
                    gc_err_t *err)
{
    return gc_kernel_parse_opts(out, name, buf, len, NULL, err);
}

/* All of standard input into a malloc'd buffer (at most max bytes). */
static int read_stdin(size_t max, char **buf, size_t *len, gc_err_t *err)
{
    size_t cap = 65536, n = 0;
    char *b = malloc(cap + 1);
    if (!b)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    size_t r;
    while ((r = fread(b + n, 1, cap - n, stdin)) > 0) {
        n += r;
        if (n > max) {
            free(b);
            return gc_err_set(err, GC_ELIMIT, "standard input: more than %zu bytes", max);
        }
        if (n == cap) {
            char *nb = realloc(b, 2 * cap + 1);
            if (!nb) {
                free(b);
                return gc_err_set(err, GC_ENOMEM, "out of memory");
            }
            b = nb;
            cap *= 2;
        }
    }
    if (ferror(stdin)) {
        free(b);
        return gc_err_set(err, GC_EIO, "standard input: %s", strerror(errno));
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
}

int gc_kernel_load_opts(gc_kernel_t **k, const char *path, const gc_kernel_opts_t *opts,
                        gc_err_t *err)
{
    char *buf;
    size_t len;
    *k = NULL;
    int in = !strcmp(path, "-");
    int rc = in ? read_stdin(GC_YTREE_FILE_MAX, &buf, &len, err)
                : gc_file_read(path, GC_YTREE_FILE_MAX, &buf, &len, err);
    if (rc)
        return rc;
    rc = gc_kernel_parse_opts(k, in ? "<stdin>" : path, buf, len, opts, err);
    free(buf);
    return rc;
}

int gc_kernel_load(gc_kernel_t **k, const char *path, gc_err_t *err)
{
    return gc_kernel_load_opts(k, path, NULL, err);
}

int gc_kernel_check(const gc_kernel_t *k, gc_err_t *err)
{
    const char *f = k->path ? k->path : k->name;
    const gc_kphase_t *ph[3] = {&k->prologue, &k->loop, &k->epilogue};
    static const char *const pn[3] = {"prologue", "loop", "epilogue"};
    for (int i = 0; i < 3; i++) {
        if (!ph[i]->present)
            continue;
        for (size_t j = 0; j < ph[i]->n_ops; j++) {
            const gc_kop_t *op = &ph[i]->ops[j];
            if (!(op->count >= 0) || !isfinite(op->count))
                return gc_err_at(err, GC_EINPUT, f, op->line, op->col,
                                 "%s.ops[%zu]: count must be a number >= 0", pn[i], j);
            if ((op->cls == GC_OP_LDS || op->cls == GC_OP_STS || op->cls == GC_OP_LDG ||
                 op->cls == GC_OP_STG || op->cls == GC_OP_CP_ASYNC) &&
                !(op->width > 0))
                return gc_err_at(err, GC_EINPUT, f, op->line, op->col,
                                 "%s.ops[%zu]: a %s needs a width in bytes", pn[i], j,
                                 gc_opclass_name(op->cls));
            if ((op->cls == GC_OP_MMA || op->cls == GC_OP_WGMMA || op->cls == GC_OP_WMMA) &&
                (!op->shape || !op->a || !op->c || !op->inst))
                return gc_err_at(err, GC_EINPUT, f, op->line, op->col,
                                 "%s.ops[%zu]: a tensor op needs shape, a and c", pn[i], j);
        }
    }
    if (!k->loop.present)
        return gc_err_at(err, GC_EINPUT, f, 1, 1, "no main loop");
    if (k->grid[0] < 1 || k->block[0] < 1)
        return gc_err_at(err, GC_EINPUT, f, k->launch_line, k->launch_col,
                         "launch: grid and block must be at least 1");
    return 0;
}

/* ---- the vocabulary, for the README ---- */

void gc_kernel_vocabulary(FILE *fp)
{
    static const char *const shown[GC_OP_N] = {
        "`mma`, `mma.sp`", "`wgmma`, `wgmma.sp`", "`wmma`", "`alu`", "`ldmatrix`",
        "`lds`",           "`sts`",               "`shfl`", "`ldg`", "`stg`",
        "`cp_async`",      "`tma`",               "`bar`",
    };
    fputs("<!-- generated by `gpucal predict --vocabulary`: tests/docs.sh checks it -->\n"
          "| `op` | keys it takes (**required**) |\n| --- | --- |\n",
          fp);
    for (int c = 0; c < GC_OP_N; c++) {
        fprintf(fp, "| %s |", shown[c]);
        int first = 1;
        for (int j = 0; j < K_N; j++) {
            if (!(opkeys[j].classes & B(c)))
                continue;
            int req = (opkeys[j].required & B(c)) != 0;
            fprintf(fp, "%s %s`%s`%s", first ? "" : ",", req ? "**" : "", opkeys[j].key,
                    req ? "**" : "");
            first = 0;
        }
        fputs(" |\n", fp);
    }
    const char *names[64];
    size_t n = gc_derive_alu_names(names, 64);
    fputs("\n`alu` names with a default pipe (an arch file's `alu` list may add more; an "
          "unknown name is refused with the closest one): ",
          fp);
    for (size_t i = 0; i < n; i++)
        fprintf(fp, "%s`%s`", i ? ", " : "", names[i]);
    fputs(". A name may carry a SASS suffix after a dot (`mufu.ex2`, `shf.l`).\n\n"
          "`a` (A/B type): ",
          fp);
    for (int i = 0; atypes[i]; i++)
        fprintf(fp, "%s`%s`", i ? ", " : "", atypes[i]);
    fputs("; `c` (C/D type): ", fp);
    for (int i = 0; ctypes[i]; i++)
        fprintf(fp, "%s`%s`", i ? ", " : "", ctypes[i]);
    fputs("; `operands` (wgmma): `ss`, `rs`; `cache`: `l1`, `l2`.\n"
          "<!-- end of the generated vocabulary -->\n",
          fp);
}
