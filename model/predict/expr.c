/* expr.c - a recursive-descent evaluator of arithmetic expressions over
 * named parameters (see expr.h). Reads only its arguments. */
#include "expr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/suggest.h"

typedef struct parser {
    const char *s, *p;
    const gc_expr_var_t *vars;
    size_t n;
    int depth;
    char *why;
    size_t why_n;
    int failed;
} parser_t;

static const char *const funcs[] = {"ceil", "floor", "round", "min", "max", "cdiv", "log2", "sqrt"};
#define NFUNCS (sizeof(funcs) / sizeof(funcs[0]))

static double bad(parser_t *P, const char *fmt, ...)
{
    if (!P->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(P->why, P->why_n, fmt, ap);
        va_end(ap);
        P->failed = 1;
    }
    return 0;
}

static void skip(parser_t *P)
{
    while (*P->p == ' ' || *P->p == '\t')
        P->p++;
}

static int col(const parser_t *P)
{
    return (int)(P->p - P->s) + 1;
}

/* A finite result, or the failure "overflows". */
static double fin(parser_t *P, double v, const char *what)
{
    if (!P->failed && !isfinite(v))
        return bad(P, "%s is not a finite number (overflow or an undefined operation)", what);
    return v;
}

static double expr(parser_t *P);
static double unary(parser_t *P);

/* Value of variable name (len bytes), last definition wins. */
static double lookup(parser_t *P, const char *name, size_t len)
{
    for (size_t i = P->n; i-- > 0;)
        if (strlen(P->vars[i].name) == len && !strncmp(P->vars[i].name, name, len))
            return P->vars[i].value;
    char w[64];
    snprintf(w, sizeof(w), "%.*s", (int)(len < 63 ? len : 63), name);
    const char *names[128];
    size_t k = 0;
    for (size_t i = 0; i < P->n && k < 128; i++)
        names[k++] = P->vars[i].name;
    char hint[96];
    gc_suggest_hint(w, names, k, hint, sizeof(hint));
    return bad(P, "unknown name '%s'%s: define it under params (or --set %s=VALUE)", w, hint, w);
}

static double call(parser_t *P, const char *name, size_t len)
{
    size_t f = 0;
    while (f < NFUNCS && !(strlen(funcs[f]) == len && !strncmp(funcs[f], name, len)))
        f++;
    double a[2] = {0, 0};
    int na = 0;
    P->p++; /* '(' */
    for (;;) {
        if (na == 2)
            return bad(P, "too many arguments at column %d", col(P));
        a[na++] = expr(P);
        skip(P);
        if (*P->p == ',') {
            P->p++;
            continue;
        }
        if (*P->p != ')')
            return bad(P, "expected ')' at column %d", col(P));
        P->p++;
        break;
    }
    if (f == NFUNCS)
        return bad(P, "unknown function '%.*s' (known: ceil, floor, round, min, max, cdiv, "
                      "log2, sqrt)", (int)(len < 40 ? len : 40), name);
    int two = f >= 3 && f <= 5;
    if (na != (two ? 2 : 1))
        return bad(P, "%s takes %d argument%s", funcs[f], two ? 2 : 1, two ? "s" : "");
    switch (f) {
    case 0: return ceil(a[0]);
    case 1: return floor(a[0]);
    case 2: return round(a[0]);
    case 3: return fmin(a[0], a[1]);
    case 4: return fmax(a[0], a[1]);
    case 5:
        if (a[1] == 0)
            return bad(P, "division by zero in cdiv");
        return fin(P, ceil(a[0] / a[1]), "cdiv");
    case 6:
        if (!(a[0] > 0))
            return bad(P, "log2 of %g: give a positive number", a[0]);
        return log2(a[0]);
    default:
        if (a[0] < 0)
            return bad(P, "sqrt of %g: give a number >= 0", a[0]);
        return sqrt(a[0]);
    }
}

static double primary(parser_t *P)
{
    skip(P);
    const char *c = P->p;
    if (*c == '(') {
        P->p++;
        double v = expr(P);
        skip(P);
        if (*P->p != ')')
            return bad(P, "expected ')' at column %d", col(P));
        P->p++;
        return v;
    }
    if (isalpha((unsigned char)*c) || *c == '_') {
        while (isalnum((unsigned char)*P->p) || *P->p == '_')
            P->p++;
        size_t len = (size_t)(P->p - c);
        skip(P);
        if (*P->p == '(')
            return call(P, c, len);
        return lookup(P, c, len);
    }
    if (isdigit((unsigned char)*c) || *c == '.') {
        char *e;
        errno = 0;
        double v = strtod(c, &e);
        if (e == c)
            return bad(P, "expected a number at column %d", col(P));
        P->p = e;
        if (errno == ERANGE && fabs(v) > 1)
            return bad(P, "number at column %d is too large", (int)(c - P->s) + 1);
        return fin(P, v, "a number");
    }
    if (!*c)
        return bad(P, "the expression ends where a value is expected");
    return bad(P, "unexpected '%c' at column %d", *c, col(P));
}

static double power(parser_t *P)
{
    double b = primary(P);
    skip(P);
    if (*P->p == '^') {
        P->p++;
        double e = unary(P);
        return fin(P, pow(b, e), "a power");
    }
    return b;
}

static double unary(parser_t *P)
{
    skip(P);
    if (++P->depth > GC_EXPR_DEPTH)
        return bad(P, "nested more than %d deep", GC_EXPR_DEPTH);
    double v;
    if (*P->p == '-' || *P->p == '+') {
        int neg = *P->p == '-';
        P->p++;
        v = unary(P);
        v = neg ? -v : v;
    } else {
        v = power(P);
    }
    P->depth--;
    return v;
}

static double term(parser_t *P)
{
    double v = unary(P);
    for (;;) {
        skip(P);
        char op = *P->p;
        if (op != '*' && op != '/' && op != '%')
            return v;
        P->p++;
        double r = unary(P);
        if (P->failed)
            return 0;
        if (op != '*' && r == 0)
            return bad(P, "%s by zero", op == '/' ? "division" : "remainder");
        v = op == '*' ? v * r : op == '/' ? v / r : fmod(v, r);
        v = fin(P, v, "a product or quotient");
    }
}

static double expr(parser_t *P)
{
    if (++P->depth > GC_EXPR_DEPTH)
        return bad(P, "nested more than %d deep", GC_EXPR_DEPTH);
    double v = term(P);
    for (;;) {
        skip(P);
        char op = *P->p;
        if (op != '+' && op != '-')
            break;
        P->p++;
        double r = term(P);
        v = fin(P, op == '+' ? v + r : v - r, "a sum");
    }
    P->depth--;
    return v;
}

int gc_expr_eval(const char *s, const gc_expr_var_t *vars, size_t n, double *out, char *why,
                 size_t why_n)
{
    char dummy[8];
    if (!why || !why_n)
        why = dummy, why_n = sizeof(dummy);
    why[0] = '\0';
    if (strlen(s) > GC_EXPR_LEN) {
        snprintf(why, why_n, "an expression is at most %d bytes", GC_EXPR_LEN);
        return -1;
    }
    parser_t P = {s, s, vars, n, 0, why, why_n, 0};
    double v = expr(&P);
    skip(&P);
    if (!P.failed && *P.p)
        bad(&P, "unexpected '%c' at column %d", *P.p, col(&P));
    if (P.failed)
        return -1;
    *out = v;
    return 0;
}

int gc_expr_is_name(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_') || strlen(s) > 63)
        return 0;
    for (const char *c = s; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '_'))
            return 0;
    for (size_t f = 0; f < NFUNCS; f++)
        if (!strcmp(funcs[f], s))
            return 0;
    return 1;
}
