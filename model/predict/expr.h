/* expr.h - arithmetic expressions over named parameters, for kernel
 * descriptions written before the kernel exists:
 *
 *   params: {N: 8192, TILE: 128}
 *   launch: {grid: [N / TILE, N / TILE], ...}
 *
 * Grammar (usual precedence, left to right):
 *   expr    = term { ('+' | '-') term }
 *   term    = unary { ('*' | '/' | '%') unary }
 *   unary   = ('-' | '+') unary | power
 *   power   = primary [ '^' unary ]          (right associative)
 *   primary = NUMBER | NAME | NAME '(' expr { ',' expr } ')' | '(' expr ')'
 * NUMBER as strtod reads it (1e6, 0.5); NAME [A-Za-z_][A-Za-z0-9_]*.
 * Functions: ceil(x), floor(x), round(x), min(a, b), max(a, b),
 * cdiv(a, b) = ceil(a / b), log2(x), sqrt(x).
 *
 * Errors (return -1 and one short reason in why, no file or line: the
 * caller adds the place): an unknown name (with the closest known one), a
 * syntax error with its column, division or remainder by zero, a result
 * that is not finite (overflow, log2 of 0, sqrt of a negative), nesting
 * deeper than GC_EXPR_DEPTH, text longer than GC_EXPR_LEN. Reentrant.
 */
#ifndef GC_EXPR_H
#define GC_EXPR_H

#include <stddef.h>

#define GC_EXPR_DEPTH 64  /* nested parentheses and operators */
#define GC_EXPR_LEN 1024  /* bytes of one expression */

typedef struct gc_expr_var {
    const char *name;
    double value;
} gc_expr_var_t;

/* Evaluate s with the n variables vars (later entries shadow earlier ones
 * of the same name). 0 and *out, or -1 and why (why_n bytes). */
int gc_expr_eval(const char *s, const gc_expr_var_t *vars, size_t n, double *out, char *why,
                 size_t why_n);

/* 1 if s is a parameter name ([A-Za-z_][A-Za-z0-9_]*, at most 63 bytes,
 * not a function name). */
int gc_expr_is_name(const char *s);

#endif
