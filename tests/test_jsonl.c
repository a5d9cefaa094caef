/* test_jsonl.c - the JSON-lines request reader (lib/jsonl.h): scalar
 * members with escapes and \u code points, blank lines, and each kind of
 * malformed line refused with its column. */
#include <string.h>

#include "lib/jsonl.h"
#include "check.h"

static int parse(const char *s, gc_jobj_t *o, gc_err_t *e)
{
    gc_err_clear(e);
    return gc_jsonl_parse(s, strlen(s), o, e);
}

static void good(void)
{
    static gc_jobj_t o;
    gc_err_t e;
    CHECK(parse(" {\"template\": \"gemm\", \"m\": 4096, \"x\": -1.5e3, \"c\": true, "
                "\"z\": null, \"s\": \"a\\\"b\\\\c\\u00e9\\n\"} ", &o, &e) == 0);
    CHECK(o.n == 6);
    CHECK_STR(o.m[0].key, "template");
    CHECK_STR(o.m[0].text, "gemm");
    CHECK(o.m[0].type == GC_JV_STR && o.m[1].type == GC_JV_NUM);
    CHECK_STR(o.m[1].text, "4096");
    CHECK_STR(o.m[2].text, "-1.5e3");
    CHECK(o.m[3].type == GC_JV_BOOL && o.m[4].type == GC_JV_NULL);
    CHECK_STR(o.m[5].text, "a\"b\\c\xc3\xa9\n");
    CHECK(gc_jsonl_find(&o, "m") == 1 && gc_jsonl_find(&o, "q") == -1);
    CHECK(parse("{}", &o, &e) == 0 && o.n == 0);
    CHECK(parse("   \t", &o, &e) == 1);
}

static void bad(void)
{
    static gc_jobj_t o;
    gc_err_t e;
    static const struct {
        const char *line, *msg;
    } cases[] = {
        {"[1]", "column 1: a request is one JSON object per line"},
        {"{\"a\": 1", "column 8: unterminated object"},
        {"{\"a\": 1 \"b\": 2}", "column 9: expected ',' or '}' after a member"},
        {"{\"a\" 1}", "column 6: expected ':' after the member name"},
        {"{a: 1}", "column 2: expected a member name in double quotes"},
        {"{\"a\": {\"b\": 1}}", "column 7: nested objects and arrays are not requests"},
        {"{\"a\": [1]}", "column 7: nested objects and arrays"},
        {"{\"a\": 1, \"a\": 2}", "a member name given twice"},
        {"{\"a\": \"x\\q\"}", "bad escape in a string"},
        {"{\"a\": \"x", "unterminated string"},
        {"{\"a\": 1} 2", "column 10: text after the object"},
        {"{\"a\": tru}", "expected a value"},
        {"{\"a\": 1-}", "bad number"},
        {"{\"a\": \"\t\"}", "control character in a string"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        CHECK(parse(cases[i].line, &o, &e) == GC_EINPUT);
        if (!strstr(e.msg, cases[i].msg))
            fprintf(stderr, "case %zu: got '%s'\n", i, e.msg);
        CHECK(strstr(e.msg, cases[i].msg) != NULL);
    }
    char big[5000];
    memset(big, 'x', sizeof(big));
    memcpy(big, "{\"a\": \"", 7);
    memcpy(big + sizeof(big) - 3, "\"}", 3);
    CHECK(gc_jsonl_parse(big, sizeof(big) - 1, &o, &e) == GC_EINPUT);
    CHECK(strstr(e.msg, "too long") != NULL);
}

int main(void)
{
    good();
    bad();
    CHECK_DONE();
}
