/* test_expr.c - the expression evaluator of kernel descriptions
 * (model/predict/expr.h) and the closest-word suggestion (util/suggest.h):
 * known answers, precedence, functions, and every failure with its reason. */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "../model/predict/expr.h"
#include "../util/suggest.h"
#include "check.h"

static const gc_expr_var_t vars[] = {{"N", 8192}, {"TILE", 128}, {"K_dim", 4096}, {"N", 4096}};

static double ev(const char *s)
{
    double v = -12345;
    char why[256];
    int rc = gc_expr_eval(s, vars, 4, &v, why, sizeof(why));
    if (rc)
        fprintf(stderr, "unexpected failure of '%s': %s\n", s, why);
    CHECK(rc == 0);
    return v;
}

static void fails(const char *s, const char *reason)
{
    double v = 7;
    char why[256];
    CHECK(gc_expr_eval(s, vars, 4, &v, why, sizeof(why)) == -1);
    CHECK(v == 7); /* untouched */
    CHECK(strchr(why, '\n') == NULL);
    CHECK_HAS(why, reason);
}

int main(void)
{
    /* known answers; the later N (4096) shadows the earlier */
    CHECK_NEAR(ev("42"), 42, 0);
    CHECK_NEAR(ev("1e6"), 1e6, 0);
    CHECK_NEAR(ev("N / TILE"), 32, 0);
    CHECK_NEAR(ev("2 + 3 * 4"), 14, 0);
    CHECK_NEAR(ev("(2 + 3) * 4"), 20, 0);
    CHECK_NEAR(ev("10 - 4 - 3"), 3, 0);
    CHECK_NEAR(ev("64 / 4 / 2"), 8, 0);
    CHECK_NEAR(ev("-3 + 5"), 2, 0);
    CHECK_NEAR(ev("--3"), 3, 0);
    CHECK_NEAR(ev("2 ^ 3 ^ 2"), 512, 0); /* right associative */
    CHECK_NEAR(ev("-2 ^ 2"), -4, 0);
    CHECK_NEAR(ev("17 % 5"), 2, 0);
    CHECK_NEAR(ev("K_dim * 2"), 8192, 0);
    CHECK_NEAR(ev("cdiv(1000, 128)"), 8, 0);
    CHECK_NEAR(ev("ceil(7 / 2) + floor(7 / 2) + round(2.5)"), 10, 0);
    CHECK_NEAR(ev("min(N, TILE) + max(3, 4)"), 132, 0);
    CHECK_NEAR(ev("log2(32) * sqrt(16)"), 20, 0);
    CHECK_NEAR(ev("  N/TILE  "), 32, 0);

    /* bad expressions: one line each */
    fails("N / TILES", "unknown name 'TILES' (did you mean 'TILE'?)");
    fails("n / TILE", "unknown name 'n'");
    fails("N /", "ends where a value is expected");
    fails("(N", "expected ')'");
    fails("N TILE", "unexpected 'T' at column 3");
    fails("2 * * 3", "unexpected '*'");
    fails("", "ends where a value is expected");
    fails("foo(3)", "unknown function 'foo'");
    fails("min(3)", "min takes 2 arguments");
    fails("ceil(1, 2)", "ceil takes 1 argument");
    fails("max(1, 2, 3)", "too many arguments");
    /* division by zero, remainder by zero */
    fails("N / 0", "division by zero");
    fails("N / (TILE - 128)", "division by zero");
    fails("5 % 0", "remainder by zero");
    fails("cdiv(5, 0)", "division by zero");
    /* overflow and undefined results */
    fails("1e308 * 10", "not a finite number");
    fails("10 ^ 400", "not a finite number");
    fails("1e999", "too large");
    fails("log2(0)", "log2 of 0");
    fails("sqrt(-1)", "sqrt of -1");
    /* depth and length limits */
    char deep[400];
    memset(deep, '(', 200);
    strcpy(deep + 200, "1");
    fails(deep, "nested more than");
    char longer[GC_EXPR_LEN + 10];
    memset(longer, '1', sizeof(longer) - 1);
    longer[sizeof(longer) - 1] = '\0';
    fails(longer, "at most");

    /* names */
    CHECK(gc_expr_is_name("TILE_M"));
    CHECK(gc_expr_is_name("_x1"));
    CHECK(!gc_expr_is_name("1x"));
    CHECK(!gc_expr_is_name("ceil"));
    CHECK(!gc_expr_is_name("a-b"));
    CHECK(!gc_expr_is_name(""));

    /* suggestions */
    static const char *const keys[] = {"count", "chains", "width", "coalesced", "trips"};
    CHECK(gc_suggest_distance("colaesced", "coalesced") == 1);
    CHECK(gc_suggest_distance("abc", "abc") == 0);
    CHECK(gc_suggest_distance("", "abc") == 3);
    CHECK_STR(gc_suggest("colaesced", keys, 5), "coalesced");
    CHECK_STR(gc_suggest("cnt", keys, 5), "count");
    CHECK_STR(gc_suggest("Trips", keys, 5), "trips");
    CHECK_STR(gc_suggest("wid", keys, 5), "width"); /* a prefix */
    CHECK(gc_suggest("zebra", keys, 5) == NULL);
    char hint[64];
    CHECK_STR(gc_suggest_hint("widht", keys, 5, hint, sizeof(hint)), " (did you mean 'width'?)");
    CHECK_STR(gc_suggest_hint("zebra", keys, 5, hint, sizeof(hint)), "");
    return gc_check_failures ? 1 : 0;
}
