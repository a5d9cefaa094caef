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
#include "../../arch/ytree.h"

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
} loader_t;

GC_PRINTF(5, 6)
static int fail(loader_t *L, const gc_ynode_t *n, int code, const char *path, const char *fmt,
                ...)
{
    char msg[GC_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (path && path[0])
        return gc_err_at(L->err, code, L->file, n->line, n->col, "%s: %s", path, msg);
    return gc_err_at(L->err, code, L->file, n->line, n->col, "%s", msg);
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

/* A plain finite number within [lo, hi]; whole when integer != 0. */
static int get_num(loader_t *L, const gc_ynode_t *n, const char *path, double lo, double hi,
                   int integer, const char *unit, double *out)
{
    if (n->kind != GC_Y_SCALAR)
        return fail(L, n, GC_EINPUT, path, "expected a number (%s), found %s", unit,
                    gc_ykind_name(n->kind));
    if (!n->plain)
        return fail(L, n, GC_EINPUT, path,
                    "expected a number (%s), found a quoted text (remove the quotes)", unit);
    const char *s = n->str;
    const char *t = s + (*s == '-' || *s == '+');
    if (!strcasecmp(t, ".nan") || !strcasecmp(t, "nan") || !strcasecmp(t, ".inf") ||
        !strcasecmp(t, "inf") || !strcasecmp(t, "infinity"))
        return fail(L, n, GC_EINPUT, path,
                    "'%s' is not a valid value (NaN and infinity are refused; give a finite "
                    "number of %s)",
                    s, unit);
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

static void warn_unknown(loader_t *L, const gc_ynode_t *kn, const char *path, const char *key,
                         const char *where)
{
    gc_warn_at(L->file, kn->line, kn->col,
               "unknown key '%s%s%s' ignored (model/kernels/README.md lists the keys of %s)",
               path[0] ? path : "", path[0] ? "." : "", key, where);
}

/* ---- ops ---- */

static const char *const atypes[] = {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8",
                                     "s4",  "u4",   "b1",   "f64",  NULL};
static const char *const ctypes[] = {"f16", "f32", "s32", "f64", NULL};
static const char *const operands[] = {"ss", "rs", NULL};
static const char *const caches[] = {"l1", "l2", NULL};

enum { K_COUNT, K_CHAINS, K_SHAPE, K_A, K_C, K_OPERANDS, K_NAME, K_NUM, K_TRANS, K_WIDTH,
       K_ACTIVE, K_WAYS, K_SECTORS, K_LINES, K_CACHE, K_BYTES, K_L1HIT, K_BCAST, K_N };

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
    [K_CHAINS] = {"chains", TENSOR | B(GC_OP_ALU) | B(GC_OP_LDG), 0},
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
    case K_L1HIT:
        rc = get_num(L, v, p, 0, 1, 0, "fraction of sectors", &op->l1_hit);
        break;
    case K_BCAST:
        rc = get_bool(L, v, p, &op->broadcast);
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
    if (op_class(on->str, &cls))
        return fail(L, on, GC_EINPUT, path,
                    "op: unknown instruction class '%.40s' (one of: mma, mma.sp, wgmma, "
                    "wgmma.sp, wmma, alu, ldmatrix, lds, sts, shfl, ldg, stg, cp_async, tma, "
                    "bar)",
                    on->str);
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
    if (op->chains > 0 && op->count > 0 && op->chains > op->count)
        return fail(L, n, GC_EINPUT, path, "chains (%g) exceeds count (%g): a chain holds at "
                    "least one instruction", op->chains, op->count);
    if (cls == GC_OP_CP_ASYNC && op->width < 4)
        return fail(L, n, GC_EINPUT, path, "cp.async copies 4, 8 or 16 bytes per thread");
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
        if (kid < 0) {
            warn_unknown(L, kn, path, key, "an op");
            continue;
        }
        if (!(opkeys[kid].classes & B(op->cls))) {
            gc_warn_at(L->file, kn->line, kn->col,
                       "%s: key '%s' does not apply to op '%s' and is ignored", path, key,
                       on->str);
            continue;
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
        if (!strcmp(key, "trips")) {
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
            warn_unknown(L, kn, path, key, main_loop ? "the loop" : "a prologue or epilogue");
        }
        if (rc)
            return rc;
    }
    if (main_loop && !gc_ymap_get(n, "trips"))
        return fail(L, n, GC_EINPUT, path, "missing required key 'trips' (iterations of the "
                    "main loop per block)");
    if (!gc_ymap_get(n, "ops"))
        return fail(L, n, GC_EINPUT, path, "missing required key 'ops' (the instructions per "
                    "warp and iteration)");
    return 0;
}

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
        else
            warn_unknown(L, kn, "launch", key, "launch");
        if (rc)
            return rc;
    }
    static const char *const req[] = {"grid", "block", "registers"};
    static const char *const why[] = {"blocks: a number or [x, y, z]",
                                      "threads per block: a number or [x, y, z]",
                                      "registers per thread, as ptxas -v reports them"};
    for (int i = 0; i < 3; i++)
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
        else
            warn_unknown(L, kn, "footprint", key, "footprint");
        if (rc)
            return rc;
        k->footprint_given |= !strcmp(key, "read_bytes")    ? GC_FP_READ
                              : !strcmp(key, "write_bytes") ? GC_FP_WRITE
                              : !strcmp(key, "reuse_bytes") ? GC_FP_REUSE
                                                            : 0u;
    }
    return 0;
}

int gc_kernel_parse(gc_kernel_t **out, const char *name, const char *buf, size_t len,
                    gc_err_t *err)
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
    if (!k) {
        gc_ydoc_destroy(doc);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    k->loop.present = 0;
    loader_t L = {k, name, err};
    rc = need_map(&L, root, "", "a kernel description: schema, name, launch, loop, ...");
    const gc_ynode_t *sv = rc ? NULL : gc_ymap_get(root, "schema");
    if (!rc && !sv)
        rc = fail(&L, root, GC_EINPUT, NULL,
                  "missing required key 'schema' (the first line is 'schema: %s')",
                  GC_KERNEL_SCHEMA);
    if (!rc && (sv->kind != GC_Y_SCALAR || strcmp(sv->str, GC_KERNEL_SCHEMA)))
        rc = fail(&L, sv, GC_EINPUT, "schema",
                  "'%.40s' is not supported: this gpucal reads %s (an arch file is given with "
                  "--arch, not as the kernel)",
                  sv->kind == GC_Y_SCALAR ? sv->str : "?", GC_KERNEL_SCHEMA);
    for (size_t i = 0; !rc && i < root->n; i++) {
        const char *key = gc_ymap_key(root, i);
        const gc_ynode_t *kn = gc_ymap_keynode(root, i), *v = gc_ymap_val(root, i);
        if (!strcmp(key, "schema"))
            continue;
        if (!strcmp(key, "name"))
            rc = get_str(&L, v, "name", NULL, &k->name);
        else if (!strcmp(key, "source"))
            rc = get_str(&L, v, "source", NULL, &k->source);
        else if (!strcmp(key, "note"))
            rc = get_str(&L, v, "note", NULL, &k->note);
        else if (!strcmp(key, "launch"))
            rc = load_launch(&L, v);
        else if (!strcmp(key, "loop"))
            rc = load_phase(&L, &k->loop, v, "loop", 1);
        else if (!strcmp(key, "prologue"))
            rc = load_phase(&L, &k->prologue, v, "prologue", 0);
        else if (!strcmp(key, "epilogue"))
            rc = load_phase(&L, &k->epilogue, v, "epilogue", 0);
        else if (!strcmp(key, "footprint"))
            rc = load_footprint(&L, v);
        else
            warn_unknown(&L, kn, "", key, "a kernel description");
    }
    static const char *const req[] = {"name", "launch", "loop"};
    static const char *const why[] = {
        "a short name for the output",
        "grid, block, registers and shared_bytes of the launch",
        "the main loop: trips and the ops per warp and iteration",
    };
    for (int i = 0; !rc && i < 3; i++)
        if (!gc_ymap_get(root, req[i]))
            rc = fail(&L, root, GC_EINPUT, NULL, "missing required key '%s' (%s)", req[i],
                      why[i]);
    gc_ydoc_destroy(doc);
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

int gc_kernel_load(gc_kernel_t **k, const char *path, gc_err_t *err)
{
    char *buf;
    size_t len;
    *k = NULL;
    int rc = gc_file_read(path, GC_YTREE_FILE_MAX, &buf, &len, err);
    if (rc)
        return rc;
    rc = gc_kernel_parse(k, path, buf, len, err);
    free(buf);
    return rc;
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
