/* jsonl.c - one flat JSON object per line (jsonl.h). Grammar: RFC 8259
 * (https://www.rfc-editor.org/rfc/rfc8259), restricted to an object of
 * scalar members. */
#include "jsonl.h"

#include <stdlib.h>
#include <string.h>

typedef struct cur {
    const char *s, *end, *start;
    gc_jobj_t *o;
    gc_err_t *err;
} cur_t;

static void skip_ws(cur_t *c)
{
    while (c->s < c->end && (*c->s == ' ' || *c->s == '\t' || *c->s == '\r' || *c->s == '\n'))
        c->s++;
}

static int fail(cur_t *c, const char *what)
{
    return gc_err_set(c->err, GC_EINPUT, "column %ld: %s", (long)(c->s - c->start) + 1, what);
}

/* Append byte ch to the text buffer. */
static int put(cur_t *c, char ch)
{
    if (c->o->used + 1 >= sizeof(c->o->buf))
        return fail(c, "the request is too long (at most 4 KiB of text); split it");
    c->o->buf[c->o->used++] = ch;
    return 0;
}

/* Append code point u as UTF-8. */
static int put_utf8(cur_t *c, unsigned u)
{
    if (u < 0x80)
        return put(c, (char)u);
    if (u < 0x800)
        return put(c, (char)(0xC0 | u >> 6)) || put(c, (char)(0x80 | (u & 0x3F)));
    return put(c, (char)(0xE0 | u >> 12)) || put(c, (char)(0x80 | ((u >> 6) & 0x3F))) ||
           put(c, (char)(0x80 | (u & 0x3F)));
}

/* One escape after the backslash (c->s at the letter). */
static int escape(cur_t *c)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *p = c->s < c->end ? strchr(from, *c->s) : NULL;
    if (p && *p) {
        c->s++;
        return put(c, to[p - from]);
    }
    if (c->s < c->end && *c->s == 'u' && c->end - c->s >= 5) {
        char hex[5] = {c->s[1], c->s[2], c->s[3], c->s[4], 0}, *e;
        unsigned long u = strtoul(hex, &e, 16);
        if (!*e && u > 0) {
            c->s += 5;
            return put_utf8(c, (unsigned)u);
        }
    }
    return fail(c, "bad escape in a string (use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)");
}

/* A string at c->s (the opening quote); *out points at its text. */
static int string(cur_t *c, const char **out)
{
    c->s++;
    *out = c->o->buf + c->o->used;
    while (c->s < c->end && *c->s != '"') {
        unsigned char ch = (unsigned char)*c->s;
        if (ch < 0x20)
            return fail(c, "control character in a string; escape it");
        c->s++;
        int rc = ch == '\\' ? escape(c) : put(c, (char)ch);
        if (rc)
            return rc;
    }
    if (c->s >= c->end)
        return fail(c, "unterminated string; close it with \"");
    c->s++;
    return put(c, '\0');
}

/* A number, true, false or null. */
static int scalar(cur_t *c, const char **out, gc_jv_type_t *t)
{
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(words[i]);
        if ((size_t)(c->end - c->s) >= n && !strncmp(c->s, words[i], n)) {
            *t = i < 2 ? GC_JV_BOOL : GC_JV_NULL;
            *out = words[i];
            c->s += n;
            return 0;
        }
    }
    const char *b = c->s;
    while (c->s < c->end && strchr("+-0123456789.eE", *c->s))
        c->s++;
    char tmp[64], *e;
    size_t n = (size_t)(c->s - b);
    if (n == 0 || n >= sizeof(tmp)) {
        c->s = b;
        if (c->s < c->end && (*c->s == '{' || *c->s == '['))
            return fail(c, "nested objects and arrays are not requests; give scalar members");
        return fail(c, "expected a value (a string, a number, true, false or null)");
    }
    memcpy(tmp, b, n);
    tmp[n] = 0;
    strtod(tmp, &e);
    if (*e) {
        c->s = b;
        return fail(c, "bad number");
    }
    *t = GC_JV_NUM;
    *out = c->o->buf + c->o->used;
    for (size_t i = 0; i <= n; i++)
        if (put(c, tmp[i]))
            return c->err ? c->err->code : GC_EINPUT;
    return 0;
}

/* One "key": value member. */
static int member(cur_t *c)
{
    gc_jobj_t *o = c->o;
    if (c->s >= c->end || *c->s != '"')
        return fail(c, "expected a member name in double quotes");
    if (o->n == GC_JSONL_MEMBERS)
        return fail(c, "too many members (at most 48)");
    int rc = string(c, &o->m[o->n].key);
    if (rc)
        return rc;
    skip_ws(c);
    if (c->s >= c->end || *c->s != ':')
        return fail(c, "expected ':' after the member name");
    c->s++;
    skip_ws(c);
    if (c->s < c->end && *c->s == '"') {
        o->m[o->n].type = GC_JV_STR;
        rc = string(c, &o->m[o->n].text);
    } else {
        rc = scalar(c, &o->m[o->n].text, &o->m[o->n].type);
    }
    if (!rc && gc_jsonl_find(o, o->m[o->n].key) >= 0)
        return fail(c, "a member name given twice; give it once");
    if (!rc)
        o->n++;
    return rc;
}

int gc_jsonl_parse(const char *line, size_t len, gc_jobj_t *o, gc_err_t *err)
{
    cur_t c = {line, line + len, line, o, err};
    o->n = 0;
    o->used = 0;
    skip_ws(&c);
    if (c.s == c.end)
        return 1;
    if (*c.s != '{')
        return fail(&c, "a request is one JSON object per line, {\"template\": ...}");
    c.s++;
    skip_ws(&c);
    int first = 1;
    while (c.s < c.end && *c.s != '}') {
        if (!first) {
            if (*c.s != ',')
                return fail(&c, "expected ',' or '}' after a member");
            c.s++;
            skip_ws(&c);
        }
        int rc = member(&c);
        if (rc)
            return rc;
        skip_ws(&c);
        first = 0;
    }
    if (c.s >= c.end)
        return fail(&c, "unterminated object; close it with }");
    c.s++;
    skip_ws(&c);
    if (c.s != c.end)
        return fail(&c, "text after the object; one object per line");
    return 0;
}

int gc_jsonl_find(const gc_jobj_t *o, const char *key)
{
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->m[i].key, key))
            return i;
    return -1;
}

void gc_jsonl_string(const char *s, FILE *fp)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(fp, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(fp, "\\u%04x", ch);
        else
            fputc(ch, fp);
    }
    fputc('"', fp);
}
