/* sass.c - read `cuobjdump -sass` output and check expectations on it (see
 * measure.h). Pure libc, so the logic is tested on the CPU with recorded
 * dumps (tests/fixtures/sass/). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"

typedef struct fn {
    char *name;
    char **ops;
    size_t n, cap;
} fn_t;

struct gc_sass {
    fn_t *fns;
    size_t n, cap;
};

void gc_sass_destroy(gc_sass_t *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        for (size_t j = 0; j < s->fns[i].n; j++)
            free(s->fns[i].ops[j]);
        free(s->fns[i].ops);
        free(s->fns[i].name);
    }
    free(s->fns);
    free(s);
}

static char *dupn(const char *p, size_t n)
{
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, p, n);
        s[n] = '\0';
    }
    return s;
}

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? 2 * *cap : 16;
    while (nc < need)
        nc *= 2;
    void *p = realloc(*arr, nc * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

/* If line is an instruction line "/ *ADDR* /  [@P] OPCODE ...", return the
 * opcode's start and length. */
static const char *opcode_of(const char *line, const char *end, size_t *len)
{
    const char *p = line;
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (end - p < 4 || p[0] != '/' || p[1] != '*' || !isxdigit((unsigned char)p[2]))
        return NULL; /* not an address comment ("/ * 0x... * /" encodings have a space) */
    p += 2;
    while (p < end && isxdigit((unsigned char)*p))
        p++;
    if (end - p < 2 || p[0] != '*' || p[1] != '/')
        return NULL;
    p += 2;
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (p < end && *p == '@') { /* predicate */
        while (p < end && !isspace((unsigned char)*p))
            p++;
        while (p < end && isspace((unsigned char)*p))
            p++;
    }
    const char *q = p;
    while (q < end && (isalnum((unsigned char)*q) || *q == '.' || *q == '_'))
        q++;
    if (q == p || !isupper((unsigned char)*p))
        return NULL;
    *len = (size_t)(q - p);
    return p;
}

int gc_sass_parse(gc_sass_t **out, const char *text, size_t len, gc_err_t *err)
{
    gc_sass_t *s = calloc(1, sizeof(*s));
    if (!s)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    const char *p = text, *end = text + len;
    fn_t *cur = NULL;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        const char *f = NULL;
        for (const char *q = p; q + 10 <= le; q++)
            if (!memcmp(q, "Function :", 10)) {
                f = q + 10;
                break;
            }
        if (f) {
            while (f < le && isspace((unsigned char)*f))
                f++;
            const char *fe = le;
            while (fe > f && isspace((unsigned char)fe[-1]))
                fe--;
            if (grow((void **)&s->fns, &s->cap, s->n + 1, sizeof(fn_t)) != 0)
                goto oom;
            cur = &s->fns[s->n++];
            memset(cur, 0, sizeof(*cur));
            if (!(cur->name = dupn(f, (size_t)(fe - f))))
                goto oom;
        } else if (cur) {
            size_t on;
            const char *op = opcode_of(p, le, &on);
            if (op) {
                if (grow((void **)&cur->ops, &cur->cap, cur->n + 1, sizeof(char *)) != 0)
                    goto oom;
                if (!(cur->ops[cur->n] = dupn(op, on)))
                    goto oom;
                cur->n++;
            }
        }
        p = nl ? nl + 1 : end;
    }
    if (s->n == 0) {
        gc_sass_destroy(s);
        return gc_err_set(err, GC_EINPUT,
                          "no 'Function :' sections in the cuobjdump output (was it -sass "
                          "output of a binary with device code?)");
    }
    *out = s;
    return 0;
oom:
    gc_sass_destroy(s);
    return gc_err_set(err, GC_ENOMEM, "out of memory");
}

int gc_sass_functions(const gc_sass_t *s, const char *func)
{
    int n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += strstr(s->fns[i].name, func) != NULL;
    return n;
}

static int op_matches(const char *have, const char *want)
{
    size_t n = strlen(want);
    return !strncmp(have, want, n) && (have[n] == '\0' || have[n] == '.');
}

long gc_sass_count(const gc_sass_t *s, const char *func, const char *op)
{
    long c = 0;
    int any = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (!strstr(s->fns[i].name, func))
            continue;
        any = 1;
        for (size_t j = 0; j < s->fns[i].n; j++)
            c += op_matches(s->fns[i].ops[j], op);
    }
    return any ? c : -1;
}

/* Append text to buf (size n) at *at, truncating safely. */
static void append(char *buf, size_t n, size_t *at, const char *text)
{
    int k = snprintf(buf + *at, n > *at ? n - *at : 0, "%s", text);
    if (k > 0)
        *at = *at + (size_t)k < n ? *at + (size_t)k : (n ? n - 1 : 0);
}

int gc_sass_check(const gc_sass_t *s, const gc_sass_rule_t *rules, int n, char *out, size_t outn)
{
    static char ok[16384], bad[16384]; /* a bench may check hundreds of forms */
    ok[0] = bad[0] = '\0';
    size_t okat = 0, badat = 0;
    for (int i = 0; i < n; i++) {
        const gc_sass_rule_t *r = &rules[i];
        long c = gc_sass_count(s, r->func, r->op);
        char item[256], hi[24] = "inf";
        if (r->max >= 0)
            snprintf(hi, sizeof(hi), "%ld", r->max);
        if (c < 0) {
            snprintf(item, sizeof(item), "%sno function %s", badat ? "; " : "", r->func);
            append(bad, sizeof(bad), &badat, item);
        } else if (c < r->min || (r->max >= 0 && c > r->max)) {
            snprintf(item, sizeof(item), "%s%s has %ld %s (expected %ld..%s)", badat ? "; " : "",
                     r->func, c, r->op, r->min, hi);
            append(bad, sizeof(bad), &badat, item);
        } else {
            snprintf(item, sizeof(item), "%s%s x%ld in %s", okat ? ", " : "", r->op, c, r->func);
            append(ok, sizeof(ok), &okat, item);
        }
    }
    if (badat) {
        snprintf(out, outn, "FAILED: %s", bad);
        return 1;
    }
    snprintf(out, outn, "ok: %s", ok);
    return 0;
}
