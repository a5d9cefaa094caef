/* simcheck.c - the validator of GPGPU-Sim / Accel-Sim configs (see simcheck.h).
 *
 * Each constraint below names the simulator behaviour it guards against
 * (gpgpu-sim_distribution, branch dev, and accel-sim-framework's
 * trace-driven front end; shared/reference/accel-sim/README.md lists them).
 */
#define _POSIX_C_SOURCE 200809L
#include "simcheck.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../util/fsio.h"

/* The option list, its misspellings and the value kinds: accel_options.c */
#include "accel_options.h"

/* ---- the option set ---- */

typedef struct opt {
    char *name, *value;
    const char *file;
    long line, col;   /* of the name */
    long vline, vcol; /* of the value */
} opt_t;

struct gc_simcheck {
    opt_t *o;
    size_t n, cap;
    char **files;
    size_t nfiles;
};

gc_simcheck_t *gc_simcheck_create(void)
{
    return calloc(1, sizeof(gc_simcheck_t));
}

void gc_simcheck_destroy(gc_simcheck_t *sc)
{
    if (!sc)
        return;
    for (size_t i = 0; i < sc->n; i++) {
        free(sc->o[i].name);
        free(sc->o[i].value);
    }
    free(sc->o);
    for (size_t i = 0; i < sc->nfiles; i++)
        free(sc->files[i]);
    free(sc->files);
    free(sc);
}

size_t gc_simcheck_count(const gc_simcheck_t *sc)
{
    return sc->n;
}

static int cmp_name(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

int gc_simcheck_known(const char *name)
{
    if (!name || name[0] != '-')
        return 0;
    return bsearch(name, gc_accel_option_names, gc_accel_n_option_names, sizeof(gc_accel_option_names[0]), cmp_name) != NULL;
}

size_t gc_simcheck_names(const char *const **names)
{
    *names = gc_accel_option_names;
    return gc_accel_n_option_names;
}

static int timing_name(const char *name)
{
    return name[0] != '-' &&
           bsearch(name, gc_accel_option_names, gc_accel_n_option_names, sizeof(gc_accel_option_names[0]), cmp_name) != NULL;
}

static const opt_t *find(const gc_simcheck_t *sc, const char *name)
{
    for (size_t i = 0; i < sc->n; i++)
        if (!strcmp(sc->o[i].name, name))
            return &sc->o[i];
    return NULL;
}

const char *gc_simcheck_value(const gc_simcheck_t *sc, const char *name)
{
    const opt_t *o = find(sc, name);
    return o ? o->value : NULL;
}

/* ---- error helpers: every message is "FILE:LINE:COL: OPTION: ..." ---- */

static int bad(gc_err_t *err, const opt_t *o, const char *fmt, ...) GC_PRINTF(3, 4);
static int bad(gc_err_t *err, const opt_t *o, const char *fmt, ...)
{
    char msg[GC_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return gc_err_at(err, GC_EINPUT, o->file, o->vline, o->vcol, "%s: %s", o->name, msg);
}

/* ---- small parsers ---- */

static int is_placeholder(const char *s)
{
    static const char *const ph[] = {"x",   "xx",  "xxx", "todo",  "tbd", "fixme", "?", "??",
                                     "???", "n/a", "na",  "none?", "...", "tba",   NULL};
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '<' && s[n - 1] == '>')
        return 1;
    for (int i = 0; ph[i]; i++)
        if (!strcasecmp(s, ph[i]))
            return 1;
    return 0;
}

/* Parse a whole number in s[0..n) (no sign unless neg_ok); 0 ok. */
static int parse_long(const char *s, size_t n, int neg_ok, long *v)
{
    char buf[32];
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n == 0 || n >= sizeof(buf))
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    size_t i = (neg_ok && buf[0] == '-') ? 1 : 0;
    if (!buf[i])
        return -1;
    for (size_t k = i; buf[k]; k++)
        if (!isdigit((unsigned char)buf[k]))
            return -1;
    errno = 0;
    long x = strtol(buf, NULL, 10);
    if (errno || x > 4294967295L || x < -2147483648L)
        return -1;
    *v = x;
    return 0;
}

/* Copy field s[0..n) trimmed into buf for messages. */
static const char *field_text(char *buf, size_t cap, const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return buf;
}

/* Split v at sep into at most max fields: start and length of each. */
static int split(const char *v, char sep, const char **f, size_t *len, int max)
{
    int n = 0;
    const char *p = v;
    for (;;) {
        const char *q = strchr(p, sep);
        if (n == max)
            return max + 1;
        f[n] = p;
        len[n] = q ? (size_t)(q - p) : strlen(p);
        n++;
        if (!q)
            return n;
        p = q + 1;
    }
}

/* Numeric field i of option o: a placeholder or a non-number is an error. */
static int num_field(gc_err_t *err, const opt_t *o, const char *f, size_t n, int idx, int neg_ok,
                     long lo, long *v)
{
    char t[64];
    field_text(t, sizeof(t), f, n);
    const char *which = "";
    char wbuf[32];
    if (idx >= 0) {
        snprintf(wbuf, sizeof(wbuf), "field %d ", idx + 1);
        which = wbuf;
    }
    if (is_placeholder(t))
        return bad(err, o,
                   "%splaceholder '%s' instead of a number (put the measured or "
                   "documented value)",
                   which, t);
    if (parse_long(f, n, neg_ok, v) != 0)
        return bad(err, o, "%s'%s' is not a whole number", which, t);
    if (*v < lo)
        return bad(err, o, "%s%ld must be %s", which, *v, lo > 0 ? "positive" : "0 or more");
    return 0;
}

static int is_pow2(long v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* ---- per-option checks ---- */

/* The policy part of a cache string: <rep>:<wr>:<alloc>:<wr_alloc>:<index>,
 * one letter each, in combinations the simulator accepts for nset sets. */
static int cache_policies(gc_err_t *err, const opt_t *o, const char *g, size_t gl, long nset)
{
    const char *p[6];
    size_t pl[6];
    char pol[64];
    field_text(pol, sizeof(pol), g, gl);
    if (split(pol, ':', p, pl, 5) != 5 || pl[0] != 1 || pl[1] != 1 || pl[2] != 1 || pl[3] != 1 ||
        pl[4] != 1)
        return bad(err, o,
                   "'%s': policies must be <rep>:<wr>:<alloc>:<wr_alloc>:<index>, one "
                   "letter each",
                   pol);
    char rp = p[0][0], wp = p[1][0], ap = p[2][0], wap = p[3][0], sif = p[4][0];
    if (!strchr("LF", rp))
        return bad(err, o, "replacement policy '%c' is not L (LRU) or F (FIFO)", rp);
    if (!strchr("RBTEL", wp))
        return bad(err, o, "write policy '%c' is not one of R, B, T, E, L", wp);
    if (!strchr("mfs", ap))
        return bad(err, o,
                   "allocation policy '%c' is not m (on miss), f (on fill) or s "
                   "(streaming)",
                   ap);
    if (!strchr("NWFL", wap))
        return bad(err, o, "write-allocate policy '%c' is not one of N, W, F, L", wap);
    if (!strchr("HPCLX", sif))
        return bad(err, o, "set index function '%c' is not one of H, P, C, L, X", sif);
    if (wp == 'B' && ap == 'f')
        return bad(err, o,
                   "a write-back cache (B) cannot allocate on fill (f): the simulator "
                   "asserts (use m)");
    if ((wap == 'F' || wap == 'L') && ap == 'f')
        return bad(err, o, "write-allocate %c needs allocation on miss (m), not on fill (f)", wap);
    if (sif == 'P' && nset != 16 && nset != 32 && nset != 64)
        return bad(err, o,
                   "the IPOLY set hash (P) takes 16, 32 or 64 sets, not %ld (change the "
                   "sets or use L)",
                   nset);
    if (sif == 'L' && !is_pow2(nset))
        return bad(err, o,
                   "linear set indexing (L) needs a power-of-two number of sets, not "
                   "%ld",
                   nset);
    return 0;
}

static int check_cache(gc_err_t *err, const opt_t *o)
{
    const char *v = o->value;
    if (!strcmp(v, "none"))
        return 0;
    const char *g[6] = {0};
    size_t gl[6] = {0};
    int ng = split(v, ',', g, gl, 5);
    if (ng < 3 || ng > 5)
        return bad(err, o,
                   "'%s' is not a cache string <type>:<sets>:<line>:<assoc>,<rep>:<wr>:<alloc>:"
                   "<wr_alloc>:<index>,<mshr>:<entries>:<merge>[,<miss queue>[:<fifo>]][,<port "
                   "width>]",
                   v);
    char geo[64];
    field_text(geo, sizeof(geo), g[0], gl[0]);
    const char *f[6];
    size_t fl[6];
    if (split(geo, ':', f, fl, 4) != 4)
        return bad(err, o, "'%s': the geometry must be <type>:<sets>:<line bytes>:<assoc>", geo);
    if (fl[0] != 1 || (f[0][0] != 'N' && f[0][0] != 'S'))
        return bad(err, o, "'%.*s' is not a cache type: N (normal) or S (sector)", (int)fl[0],
                   f[0]);
    long nset, line, assoc;
    if (num_field(err, o, f[1], fl[1], -1, 0, 1, &nset) ||
        num_field(err, o, f[2], fl[2], -1, 0, 1, &line) ||
        num_field(err, o, f[3], fl[3], -1, 0, 1, &assoc))
        return err->code;
    if (f[0][0] == 'S' && line != 128)
        return bad(err, o,
                   "a sector cache needs 128-byte lines (4 sectors of 32 bytes), this one has "
                   "%ld (use 128, or type N)",
                   line);
    int rc = cache_policies(err, o, g[1], gl[1], nset);
    if (rc)
        return rc;
    const char *p[6];
    size_t pl[6];
    /* mshr */
    char ms[64];
    field_text(ms, sizeof(ms), g[2], gl[2]);
    if (split(ms, ':', p, pl, 3) != 3 || pl[0] != 1 || !strchr("FTAS", p[0][0]))
        return bad(err, o, "'%s': the MSHR part must be <F|T|A|S>:<entries>:<max merge>", ms);
    long me, mm;
    if (num_field(err, o, p[1], pl[1], -1, 0, 1, &me) ||
        num_field(err, o, p[2], pl[2], -1, 0, 1, &mm))
        return err->code;
    if (ng >= 4) {
        field_text(ms, sizeof(ms), g[3], gl[3]);
        int nq = split(ms, ':', p, pl, 2);
        long q;
        if (nq > 2)
            return bad(err, o, "'%s': expected <miss queue>[:<result fifo>]", ms);
        for (int i = 0; i < nq; i++)
            if (num_field(err, o, p[i], pl[i], -1, 0, 0, &q))
                return err->code;
    }
    if (ng == 5) {
        long w;
        if (num_field(err, o, g[4], gl[4], -1, 0, 0, &w))
            return err->code;
        if (w > 0 && line % w != 0)
            return bad(err, o,
                       "the line (%ld bytes) is not a multiple of the data port width "
                       "%ld",
                       line, w);
    }
    return 0;
}

static int check_list(gc_err_t *err, const opt_t *o, int nmin, int nmax, long lo)
{
    const char *f[16];
    size_t fl[16];
    int n = split(o->value, ',', f, fl, 14);
    if (n < nmin || n > nmax) {
        if (nmin == nmax)
            return bad(err, o, "'%s' has %s%d fields, the simulator reads exactly %d", o->value,
                       n > 14 ? "more than " : "", n > 14 ? 14 : n, nmin);
        return bad(err, o, "'%s' has %d fields, the simulator reads %d to %d", o->value, n, nmin,
                   nmax);
    }
    for (int i = 0; i < n; i++) {
        long v;
        if (num_field(err, o, f[i], fl[i], n > 1 ? i : -1, 0, lo, &v))
            return err->code;
    }
    return 0;
}

/* Fields of a comma list as numbers (checked already). */
static int list_vals(const char *v, long *out, int max)
{
    const char *f[16];
    size_t fl[16];
    int n = split(v, ',', f, fl, max);
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++)
        if (parse_long(f[i], fl[i], 0, &out[i]))
            return -1;
    return n;
}

static int check_pair(gc_err_t *err, const opt_t *o)
{
    const char *f[4];
    size_t fl[4];
    int n = split(o->value, ',', f, fl, 3);
    if (n != 2)
        return bad(err, o, "'%s' must be <latency>,<initiation interval>", o->value);
    char t[64];
    long lat, ini;
    for (int i = 0; i < 2; i++)
        if (is_placeholder(field_text(t, sizeof(t), f[i], fl[i])))
            return bad(err, o,
                       "placeholder '%s' instead of a number (put the measured or "
                       "documented value)",
                       t);
    if (parse_long(f[0], fl[0], 1, &lat) || parse_long(f[1], fl[1], 1, &ini))
        return bad(err, o, "'%s' must be two whole numbers <latency>,<initiation interval>",
                   o->value);
    if (lat <= 0)
        return bad(err, o, "latency %ld must be positive", lat);
    if (ini <= 0)
        return bad(err, o, "initiation interval %ld must be positive", ini);
    if (ini > lat)
        return bad(err, o,
                   "initiation interval %ld exceeds the latency %ld: the simulator starts the "
                   "instruction at pipeline stage latency - initiation (raise the latency)",
                   ini, lat);
    return 0;
}

static int check_spec(gc_err_t *err, const opt_t *o)
{
    const char *f[8];
    size_t fl[8];
    int n = split(o->value, ',', f, fl, 7);
    if (n != 6)
        return bad(err, o,
                   "'%s' has %d fields, expected 6: <enabled>,<num_units>,"
                   "<max_latency>,<ID_OC>,<OC_EX>,<NAME>",
                   o->value, n > 7 ? 7 : n);
    long v[5];
    for (int i = 0; i < 5; i++)
        if (num_field(err, o, f[i], fl[i], i, 0, 0, &v[i]))
            return err->code;
    if (v[0] > 1)
        return bad(err, o, "field 1 (enabled) must be 0 or 1, not %ld", v[0]);
    if (v[0] == 1)
        for (int i = 1; i < 5; i++)
            if (v[i] <= 0)
                return bad(err, o, "field %d must be positive for an enabled unit", i + 1);
    char name[64];
    field_text(name, sizeof(name), f[5], fl[5]);
    if (!name[0] || is_placeholder(name))
        return bad(err, o, "field 6 (NAME) '%s' is not a unit name", name);
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return bad(err, o, "field 6 (NAME) '%s' is not a unit name (letters, digits, _)", name);
    return 0;
}

static int check_clocks(gc_err_t *err, const opt_t *o)
{
    const char *f[6];
    size_t fl[6];
    int n = split(o->value, ':', f, fl, 5);
    if (n != 4)
        return bad(err, o, "'%s' must be <core>:<interconnect>:<L2>:<DRAM> clocks in MHz",
                   o->value);
    for (int i = 0; i < 4; i++) {
        char t[64], *e;
        field_text(t, sizeof(t), f[i], fl[i]);
        if (is_placeholder(t))
            return bad(err, o, "field %d: placeholder '%s' instead of a clock (MHz)", i + 1, t);
        errno = 0;
        double x = strtod(t, &e);
        if (e == t || *e || errno || !(x > 0) || x > 1e6)
            return bad(err, o, "field %d: '%s' is not a clock in MHz (a positive number)", i + 1,
                       t);
    }
    return 0;
}

static int check_map(gc_err_t *err, const opt_t *o)
{
    const char *v = o->value, *m = v;
    int dramid = 0;
    if (!strncmp(v, "dramid@", 7)) {
        long at;
        const char *semi = strchr(v, ';');
        if (!semi || parse_long(v + 7, (size_t)(semi - v - 7), 0, &at) || at > 63)
            return bad(err, o, "'%s': expected dramid@<bit 0..63>;<64 address bits>", v);
        dramid = 1;
        m = semi + 1;
    }
    int bits = 0;
    for (const char *p = m; *p; p++) {
        char c = (char)toupper((unsigned char)*p);
        if (c == '.' || c == '|' || c == ' ')
            continue;
        if (!strchr("DBRCS0", c))
            return bad(err, o, "'%c' is not an address-map letter (D, B, R, C, S, 0)", *p);
        if (c == 'D' && dramid)
            return bad(err, o, "D bits and dramid@ together: the simulator asserts (use one)");
        bits++;
    }
    if (bits != 64)
        return bad(err, o, "the address map has %d bits, the simulator needs exactly 64", bits);
    return 0;
}

static int map_bank_bits(const char *v)
{
    const char *m = strchr(v, ';');
    m = m ? m + 1 : v;
    int b = 0;
    for (; *m; m++)
        b += (*m == 'B' || *m == 'b');
    return b;
}

/* Value of DRAM timing parameter key in v, or -1. */
static long timing_get(const char *v, const char *key)
{
    const char *f[64];
    size_t fl[64];
    int n = split(v, ':', f, fl, 63);
    for (int i = 0; i < n && i < 63; i++) {
        char t[64];
        field_text(t, sizeof(t), f[i], fl[i]);
        char *eq = strchr(t, '=');
        if (!eq)
            continue;
        *eq = '\0';
        long x;
        if (!strcmp(t, key) && !parse_long(eq + 1, strlen(eq + 1), 0, &x))
            return x;
    }
    return -1;
}

static int check_timing(gc_err_t *err, const opt_t *o)
{
    const char *f[64];
    size_t fl[64];
    int n = split(o->value, ':', f, fl, 63);
    if (n > 63)
        return bad(err, o, "more than 63 timing parameters");
    for (int i = 0; i < n; i++) {
        char t[64];
        field_text(t, sizeof(t), f[i], fl[i]);
        char *eq = strchr(t, '=');
        if (!eq || eq == t)
            return bad(err, o, "'%s' is not <name>=<cycles>", t);
        *eq = '\0';
        if (!timing_name(t))
            return bad(err, o, "'%s' is not a DRAM timing parameter the simulator knows", t);
        long x;
        if (is_placeholder(eq + 1))
            return bad(err, o, "%s: placeholder '%s' instead of a number of cycles", t, eq + 1);
        if (parse_long(eq + 1, strlen(eq + 1), 0, &x))
            return bad(err, o, "%s: '%s' is not a whole number of cycles", t, eq + 1);
    }
    long nbk = timing_get(o->value, "nbk"), grp = timing_get(o->value, "nbkgrp");
    if (nbk == -1)
        return bad(err, o, "no nbk (number of banks) in the timing string");
    if (!is_pow2(nbk))
        return bad(err, o, "nbk=%ld must be a power of two", nbk);
    if (grp != -1 && (grp <= 0 || nbk % grp))
        return bad(err, o, "nbkgrp=%ld must divide nbk=%ld", grp, nbk);
    return 0;
}

static int check_shmem(gc_err_t *err, const opt_t *o)
{
    const char *f[32];
    size_t fl[32];
    int n = split(o->value, ',', f, fl, 30);
    if (n > 30)
        return bad(err, o, "more than 30 carve-out sizes");
    long prev = -1;
    for (int i = 0; i < n; i++) {
        long v;
        if (num_field(err, o, f[i], fl[i], n > 1 ? i : -1, 0, 0, &v))
            return err->code;
        if (v <= prev)
            return bad(err, o, "sizes must increase: %ld after %ld", v, prev);
        prev = v;
    }
    return 0;
}

/* <threads per SM>:<warp size>, whole warps */
static int check_pipe(gc_err_t *err, const opt_t *o)
{
    const char *f[3];
    size_t fl[3];
    long th, ws;
    if (split(o->value, ':', f, fl, 2) != 2)
        return bad(err, o, "'%s' must be <threads per SM>:<warp size>", o->value);
    if (num_field(err, o, f[0], fl[0], 0, 0, 1, &th) ||
        num_field(err, o, f[1], fl[1], 1, 0, 1, &ws))
        return err->code;
    return th % ws ? bad(err, o, "%ld threads are not whole warps of %ld", th, ws) : 0;
}

/* four queue sizes a:b:c:d */
static int check_queues(gc_err_t *err, const opt_t *o)
{
    long v;
    const char *f[5];
    size_t fl[5];
    if (split(o->value, ':', f, fl, 4) != 4)
        return bad(err, o, "'%s' must be four queue sizes a:b:c:d", o->value);
    for (int i = 0; i < 4; i++)
        if (num_field(err, o, f[i], fl[i], i, 0, 0, &v))
            return err->code;
    return 0;
}

/* a warp scheduler name (before any ':' parameters) */
static int check_sched(gc_err_t *err, const opt_t *o)
{
    static const char *const sched[] = {"lrr", "gto",           "two_level_active", "rrr",
                                        "old", "warp_limiting", "oldest",           NULL};
    size_t n = strcspn(o->value, ":");
    for (int i = 0; sched[i]; i++)
        if (strlen(sched[i]) == n && !strncmp(sched[i], o->value, n))
            return 0;
    return bad(err, o,
               "'%s' is not a warp scheduler (lrr, gto, two_level_active, rrr, "
               "old, warp_limiting)",
               o->value);
}

static int check_one(gc_err_t *err, const opt_t *o)
{
    if (is_placeholder(o->value))
        return bad(err, o,
                   "placeholder '%s' instead of a value (put the measured or "
                   "documented value)",
                   o->value);
    if (!strncmp(o->name, "-specialized_unit_", 18))
        return check_spec(err, o);
    if (!strncmp(o->name, "-trace_opcode_latency_initiation_", 33))
        return check_pair(err, o);
    const gc_accel_rule_t *r = NULL;
    for (size_t i = 0; i < gc_accel_n_rules && !r; i++)
        if (!strcmp(gc_accel_rules[i].name, o->name))
            r = &gc_accel_rules[i];
    if (!r)
        return 0;
    long v;
    /* whole-number options are read by a C++ stream that takes 0NN as octal */
    if ((r->k == V_UINT || r->k == V_POS || r->k == V_INT || r->k == V_BOOL || r->k == V_INDEX) &&
        o->value[o->value[0] == '-'] == '0' &&
        isdigit((unsigned char)o->value[1 + (o->value[0] == '-')]))
        return bad(err, o,
                   "'%s' has a leading zero: the simulator reads it as octal (write it "
                   "in decimal without the 0)",
                   o->value);
    switch (r->k) {
    case V_ANY:
        return 0;
    case V_UINT:
        return num_field(err, o, o->value, strlen(o->value), -1, 0, 0, &v);
    case V_POS:
        return num_field(err, o, o->value, strlen(o->value), -1, 0, 1, &v);
    case V_INT:
        return num_field(err, o, o->value, strlen(o->value), -1, 1, -2147483648L, &v);
    case V_BOOL:
        if (num_field(err, o, o->value, strlen(o->value), -1, 0, 0, &v))
            return err->code;
        return v > 1 ? bad(err, o, "%ld must be 0 or 1", v) : 0;
    case V_INDEX:
        if (num_field(err, o, o->value, strlen(o->value), -1, 0, 0, &v))
            return err->code;
        return v > 6 ? bad(err, o,
                           "%ld is not an indexing function (0 consecutive, 1 XOR, 2 "
                           "IPOLY, 4 random, 5 custom, 6 IPOLY-modulo)",
                           v)
                     : 0;
    case V_LIST:
        return check_list(err, o, r->nmin, r->nmax, 1);
    case V_WIDTHS:
        return check_list(err, o, 13, 13, 0);
    case V_PAIR:
        return check_pair(err, o);
    case V_SPEC:
        return check_spec(err, o);
    case V_CACHE:
        return check_cache(err, o);
    case V_CLOCKS:
        return check_clocks(err, o);
    case V_PIPE:
        return check_pipe(err, o);
    case V_QUEUES:
        return check_queues(err, o);
    case V_MAP:
        return check_map(err, o);
    case V_TIMING:
        return check_timing(err, o);
    case V_SHMEM:
        return check_shmem(err, o);
    case V_SCHED:
        return check_sched(err, o);
    }
    return 0;
}

/* ---- the tokenizer: the simulator's option-file rules ---- */

typedef struct tok {
    char *s;
    long line, col;
} tok_t;

#define TOK_MAX 4096

static const char *intern_file(gc_simcheck_t *sc, const char *name)
{
    for (size_t i = 0; i < sc->nfiles; i++)
        if (!strcmp(sc->files[i], name))
            return sc->files[i];
    char **f = realloc(sc->files, (sc->nfiles + 1) * sizeof(*f));
    if (!f)
        return NULL;
    sc->files = f;
    f[sc->nfiles] = strdup(name);
    return f[sc->nfiles] ? f[sc->nfiles++] : NULL;
}

/* Next word of buf from *i: 1 a word (tok->s malloc'd), 0 end, <0 error. */
/* Keep word w (n bytes) in tok->s without the blanks a quoted value may
 * carry at its ends; 1, or GC_ENOMEM. */
static int tok_keep(tok_t *tok, const char *w, size_t n, gc_err_t *err)
{
    size_t a = 0;
    while (a < n && w[a] == ' ')
        a++;
    while (n > a && w[n - 1] == ' ')
        n--;
    tok->s = malloc(n - a + 1);
    if (!tok->s)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    memcpy(tok->s, w + a, n - a);
    tok->s[n - a] = '\0';
    return 1;
}

static int next_word(const char *name, const char *buf, size_t len, size_t *i, long *line,
                     long *col, int *in_comment, tok_t *tok, gc_err_t *err)
{
    char w[TOK_MAX];
    size_t n = 0;
    int quoted = 0, started = 0;
    long qline = 0, qcol = 0;
    while (*i < len) {
        unsigned char c = (unsigned char)buf[*i];
        if (c == '\n') {
            *in_comment = 0;
            (*i)++;
            (*line)++;
            *col = 1;
            if (quoted) {
                if (n + 1 >= sizeof(w))
                    return gc_err_at(err, GC_ELIMIT, name, tok->line, tok->col,
                                     "a word longer than %d bytes", TOK_MAX - 1);
                w[n++] = ' ';
                continue;
            }
            if (started)
                break;
            continue;
        }
        if (*in_comment || c == '#') {
            *in_comment = 1;
            (*i)++;
            (*col)++;
            continue;
        }
        if (c == '\0' || (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
            return gc_err_at(err, GC_EINPUT, name, *line, *col,
                             "control byte 0x%02x in a config file (is it a text file?)", c);
        if (c >= 0x80)
            return gc_err_at(err, GC_EINPUT, name, *line, *col,
                             "non-ASCII byte 0x%02x outside a comment (the simulator's options "
                             "are ASCII)",
                             c);
        if (c == '"') {
            if (!started) {
                started = 1;
                tok->line = *line;
                tok->col = *col;
            }
            quoted = !quoted;
            if (quoted) {
                qline = *line;
                qcol = *col;
            }
            (*i)++;
            (*col)++;
            continue;
        }
        if ((c == ' ' || c == '\t' || c == '\r') && !quoted) {
            (*i)++;
            (*col)++;
            if (started)
                break;
            continue;
        }
        if (!started) {
            started = 1;
            tok->line = *line;
            tok->col = *col;
        }
        if (n + 1 >= sizeof(w))
            return gc_err_at(err, GC_ELIMIT, name, tok->line, tok->col,
                             "a word longer than %d bytes", TOK_MAX - 1);
        w[n++] = (char)(c == '\t' || c == '\r' ? ' ' : c);
        (*i)++;
        (*col)++;
    }
    if (quoted)
        return gc_err_at(err, GC_EINPUT, name, qline, qcol,
                         "a quote that is never closed (add the closing \")");
    if (!started)
        return 0;
    return tok_keep(tok, w, n, err);
}

static int is_option_word(const char *s)
{
    return s[0] == '-' && (isalpha((unsigned char)s[1]) || s[1] == '_');
}

/* The error for option word k the simulator does not register, with its
 * own spelling when k is a known misspelling. */
static int unknown_option(const char *file, const tok_t *k, gc_err_t *err)
{
    const char *hint = NULL;
    for (size_t j = 0; j < gc_accel_n_respell; j++)
        if (!strcmp(gc_accel_respell[j][0], k->s))
            hint = gc_accel_respell[j][1];
    if (hint)
        return gc_err_at(err, GC_EINPUT, file, k->line, k->col,
                         "unknown option '%s': the simulator spells it '%s'", k->s, hint);
    return gc_err_at(err, GC_EINPUT, file, k->line, k->col,
                     "unknown option '%s': the simulator does not register it and "
                     "would refuse the file (check the spelling, or remove it)",
                     k->s);
}

int gc_simcheck_add(gc_simcheck_t *sc, const char *name, const char *buf, size_t len, gc_err_t *err)
{
    const char *file = intern_file(sc, name);
    if (!file)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    size_t i = 0;
    long line = 1, col = 1;
    int in_comment = 0, rc;
    for (;;) {
        tok_t k = {0}, v = {0};
        rc = next_word(file, buf, len, &i, &line, &col, &in_comment, &k, err);
        if (rc <= 0)
            return rc;
        if (!is_option_word(k.s)) {
            rc = gc_err_at(err, GC_EINPUT, file, k.line, k.col,
                           "'%s' where an option name belongs (options start with '-'; is a "
                           "value separated from its option or given twice?)",
                           k.s);
            free(k.s);
            return rc;
        }
        if (!gc_simcheck_known(k.s)) {
            rc = unknown_option(file, &k, err);
            free(k.s);
            return rc;
        }
        rc = next_word(file, buf, len, &i, &line, &col, &in_comment, &v, err);
        if (rc < 0) {
            free(k.s);
            return rc;
        }
        if (rc == 0 || is_option_word(v.s)) {
            rc = gc_err_at(err, GC_EINPUT, file, k.line, k.col,
                           "%s has no value%s%s%s (give it one, or remove the option)", k.s,
                           rc ? " (the next word, " : "", rc ? v.s : "",
                           rc ? ", is an option)" : "");
            free(k.s);
            free(v.s);
            return rc;
        }
        const opt_t *dup = find(sc, k.s);
        if (dup) {
            rc = gc_err_at(err, GC_EINPUT, file, k.line, k.col,
                           "%s is given twice (first at %s:%ld:%ld); the simulator silently "
                           "keeps the last (remove one)",
                           k.s, dup->file, dup->line, dup->col);
            free(k.s);
            free(v.s);
            return rc;
        }
        if (sc->n == GC_SIMCHECK_OPTS_MAX) {
            free(k.s);
            free(v.s);
            return gc_err_at(err, GC_ELIMIT, file, k.line, k.col,
                             "more than %d options (is it a config file?)", GC_SIMCHECK_OPTS_MAX);
        }
        if (sc->n == sc->cap) {
            size_t nc = sc->cap ? sc->cap * 2 : 64;
            opt_t *no = realloc(sc->o, nc * sizeof(*no));
            if (!no) {
                free(k.s);
                free(v.s);
                return gc_err_set(err, GC_ENOMEM, "out of memory");
            }
            sc->o = no;
            sc->cap = nc;
        }
        opt_t *o = &sc->o[sc->n++];
        *o = (opt_t){k.s, v.s, file, k.line, k.col, v.line, v.col};
        if (check_one(err, o))
            return err->code;
    }
}

int gc_simcheck_file(gc_simcheck_t *sc, const char *path, gc_err_t *err)
{
    char *buf;
    size_t len;
    int rc = gc_file_read(path, GC_SIMCHECK_FILE_MAX, &buf, &len, err);
    if (rc)
        return rc;
    rc = gc_simcheck_add(sc, path, buf, len, err);
    free(buf);
    return rc;
}

/* ---- checks between options ---- */

/* Whole-number value of name, or dflt when absent (checked already). */
static long uval(const gc_simcheck_t *sc, const char *name, long dflt)
{
    const opt_t *o = find(sc, name);
    long v;
    if (!o || parse_long(o->value, strlen(o->value), 1, &v))
        return dflt;
    return v;
}

static int check_pipe_fit(const gc_simcheck_t *sc, gc_err_t *err, const char *pair, long depth,
                          const char *what)
{
    const opt_t *o = find(sc, pair);
    long v[2];
    if (!o || depth < 0 || list_vals(o->value, v, 2) != 2)
        return 0;
    if (v[0] - v[1] >= depth)
        return bad(err, o,
                   "latency %ld - initiation %ld does not fit the unit's pipeline of %ld stages "
                   "(%s; the simulator indexes stage latency - initiation)",
                   v[0], v[1], depth, what);
    return 0;
}

/* ---- checks between options (gc_simcheck_done) ---- */

/* Partition indexing: IPOLY only for 16/32/64 channels, XOR for 2^n. */
static int x_indexing(const gc_simcheck_t *sc, gc_err_t *err)
{
    const opt_t *o;
    if ((o = find(sc, "-gpgpu_memory_partition_indexing")) != NULL) {
        long idx = uval(sc, "-gpgpu_memory_partition_indexing", 0);
        long nmem = uval(sc, "-gpgpu_n_mem", 8);
        const char *from = find(sc, "-gpgpu_n_mem") ? "-gpgpu_n_mem is"
                                                    : "the default "
                                                      "-gpgpu_n_mem is";
        if (idx == 2 && nmem != 16 && nmem != 32 && nmem != 64)
            return bad(err, o,
                       "IPOLY indexing (2) needs 16, 32 or 64 memory channels, %s %ld (use 0, "
                       "consecutive, or 1 for a power of two)",
                       from, nmem);
        if (idx == 1 && !is_pow2(nmem))
            return bad(err, o,
                       "XOR indexing (1) needs a power-of-two channel count, %s %ld (use 0)", from,
                       nmem);
    }
    return 0;
}

/* The sub-core model: one issue slot, register bank group and collector
 * group per scheduler. */
static int x_subcore(const gc_simcheck_t *sc, gc_err_t *err)
{
    const opt_t *o;
    if (uval(sc, "-gpgpu_sub_core_model", 0) == 1) {
        long s = uval(sc, "-gpgpu_num_sched_per_core", 1);
        static const int id_oc[] = {0, 1, 2, 3, 4, 11};
        static const char *const id_name[] = {"ID_OC_SP",  "ID_OC_DP",  "ID_OC_INT",
                                              "ID_OC_SFU", "ID_OC_MEM", "ID_OC_TENSOR_CORE"};
        if ((o = find(sc, "-gpgpu_pipeline_widths")) != NULL) {
            long w[13];
            if (list_vals(o->value, w, 13) == 13)
                for (int i = 0; i < 6; i++)
                    if (w[id_oc[i]] != s)
                        return bad(err, o,
                                   "field %d (%s) is %ld: in the sub-core model it must equal "
                                   "-gpgpu_num_sched_per_core %ld",
                                   id_oc[i] + 1, id_name[i], w[id_oc[i]], s);
        }
        if ((o = find(sc, "-gpgpu_num_reg_banks")) != NULL &&
            uval(sc, "-gpgpu_num_reg_banks", 8) % s)
            return bad(err, o,
                       "%s banks do not split evenly over %ld schedulers (sub-core "
                       "model)",
                       o->value, s);
        if (uval(sc, "-gpgpu_enable_specialized_operand_collector", 1) == 0 &&
            (o = find(sc, "-gpgpu_operand_collector_num_units_gen")) != NULL) {
            long u = uval(sc, "-gpgpu_operand_collector_num_units_gen", 0);
            if (u < s || u % s)
                return bad(err, o,
                           "%ld collector units do not split evenly over %ld "
                           "schedulers (sub-core model)",
                           u, s);
        }
        for (size_t i = 0; i < sc->n; i++) {
            o = &sc->o[i];
            long f[5];
            if (strncmp(o->name, "-specialized_unit_", 18))
                continue;
            if (list_vals(o->value, f, 5) == 5 && f[0] == 1 && f[1] > 0 && f[3] != s)
                return bad(err, o,
                           "field 4 (ID_OC) is %ld: in the sub-core model it must "
                           "equal -gpgpu_num_sched_per_core %ld",
                           f[3], s);
        }
    }
    return 0;
}

/* PTX-mode lists: each latency at least its initiation interval. */
static int x_ptx_lists(const gc_simcheck_t *sc, gc_err_t *err)
{
    static const char *const lists[][2] = {
        {"-ptx_opcode_latency_int", "-ptx_opcode_initiation_int"},
        {"-ptx_opcode_latency_fp", "-ptx_opcode_initiation_fp"},
        {"-ptx_opcode_latency_dp", "-ptx_opcode_initiation_dp"},
        {"-ptx_opcode_latency_sfu", "-ptx_opcode_initiation_sfu"},
        {"-ptx_opcode_latency_tesnor", "-ptx_opcode_initiation_tensor"},
    };
    for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
        const opt_t *lo = find(sc, lists[i][0]), *io = find(sc, lists[i][1]);
        long l[8], in[8];
        int nl, ni;
        if (!lo || !io || (nl = list_vals(lo->value, l, 6)) < 1 ||
            (ni = list_vals(io->value, in, 6)) < 1)
            continue;
        for (int k = 0; k < nl && k < ni; k++)
            if (in[k] > l[k])
                return bad(err, io,
                           "field %d: initiation interval %ld exceeds the latency %ld of %s "
                           "(the pipeline stage latency - initiation would be negative)",
                           k + 1, in[k], l[k], lists[i][0]);
    }
    return 0;
}

/* Trace-mode pairs fit the pipeline depth the simulator derives. */
static int x_pipe_fit(const gc_simcheck_t *sc, gc_err_t *err)
{
    const opt_t *o;
    long l[8];
    if ((o = find(sc, "-ptx_opcode_latency_fp")) && list_vals(o->value, l, 5) == 5 &&
        check_pipe_fit(sc, err, "-trace_opcode_latency_initiation_sp", l[1],
                       "its depth is the MAX field of -ptx_opcode_latency_fp"))
        return err->code;
    if ((o = find(sc, "-ptx_opcode_latency_int")) != NULL) {
        int n = list_vals(o->value, l, 6);
        long d = n >= 2 ? l[1] : -1;
        if (n == 6 && l[5] > d)
            d = l[5];
        if (check_pipe_fit(sc, err, "-trace_opcode_latency_initiation_int", d,
                           "its depth is the MAX (or SHFL) field of -ptx_opcode_latency_int"))
            return err->code;
    }
    if ((o = find(sc, "-ptx_opcode_latency_dp")) && list_vals(o->value, l, 5) == 5) {
        if (check_pipe_fit(sc, err, "-trace_opcode_latency_initiation_dp", l[1],
                           "its depth is the MAX field of -ptx_opcode_latency_dp"))
            return err->code;
        long s[1];
        const opt_t *so = find(sc, "-ptx_opcode_latency_sfu");
        if (so && list_vals(so->value, s, 1) == 1 &&
            check_pipe_fit(sc, err, "-trace_opcode_latency_initiation_sfu",
                           s[0] > l[4] ? s[0] : l[4],
                           "its depth is the larger of -ptx_opcode_latency_sfu and the DIV "
                           "field of -ptx_opcode_latency_dp"))
            return err->code;
    }
    if ((o = find(sc, "-ptx_opcode_latency_tesnor")) && list_vals(o->value, l, 1) == 1 &&
        check_pipe_fit(sc, err, "-trace_opcode_latency_initiation_tensor", l[0],
                       "its depth is -ptx_opcode_latency_tesnor"))
        return err->code;
    for (int u = 1; u <= 8; u++) {
        char sn[40], pn[64];
        snprintf(sn, sizeof(sn), "-specialized_unit_%d", u);
        snprintf(pn, sizeof(pn), "-trace_opcode_latency_initiation_spec_op_%d", u);
        long f[5];
        if ((o = find(sc, sn)) && list_vals(o->value, f, 5) == 5 && f[0] == 1 &&
            check_pipe_fit(sc, err, pn, f[2], "its depth is field 3 (max_latency) of the unit"))
            return err->code;
    }
    return 0;
}

/* DRAM: the address map cannot name more banks than the timing has. */
static int x_dram(const gc_simcheck_t *sc, gc_err_t *err)
{
    const opt_t *mo = find(sc, "-gpgpu_mem_addr_mapping"), *to = find(sc, "-gpgpu_dram_timing_opt");
    if (mo && to) {
        int bb = map_bank_bits(mo->value);
        long nbk = timing_get(to->value, "nbk");
        if (nbk > 0 && (1L << bb) > nbk)
            return bad(err, mo,
                       "%d bank bits address %ld banks, the timing string has nbk=%ld "
                       "(use %d B bits or raise nbk)",
                       bb, 1L << bb, nbk, bb - 1);
        long nsub = uval(sc, "-gpgpu_n_sub_partition_per_mchannel", 1);
        if (!is_pow2(nsub))
            return bad(err, find(sc, "-gpgpu_n_sub_partition_per_mchannel"),
                       "%ld sub-partitions per channel: the simulator needs a power of two", nsub);
        if ((1L << bb) < nsub)
            return bad(err, mo, "%d bank bits cannot select %ld sub-partitions per channel", bb,
                       nsub);
    }
    return 0;
}

/* Shared memory and the unified L1. */
static int x_shmem(const gc_simcheck_t *sc, gc_err_t *err)
{
    const opt_t *o;
    long unified = uval(sc, "-gpgpu_unified_l1d_size", 0);
    long shsize = uval(sc, "-gpgpu_shmem_size", -1);
    if ((o = find(sc, "-gpgpu_shmem_option")) != NULL && unified > 0 &&
        uval(sc, "-gpgpu_adaptive_cache_config", 0) == 1) {
        long opts[32];
        int n = list_vals(o->value, opts, 30);
        if (n > 0 && opts[n - 1] > unified)
            return bad(err, o,
                       "the largest carve-out %ld KB exceeds -gpgpu_unified_l1d_size %ld KB",
                       opts[n - 1], unified);
        if (n > 0 && shsize > opts[n - 1] * 1024)
            return bad(err, find(sc, "-gpgpu_shmem_size"),
                       "%ld bytes exceed the largest carve-out %ld KB of -gpgpu_shmem_option",
                       shsize, opts[n - 1]);
        const opt_t *d1 = find(sc, "-gpgpu_cache:dl1");
        if (d1 && strcmp(d1->value, "none")) {
            long g[3];
            const char *p = strchr(d1->value, ':');
            if (p && sscanf(p + 1, "%ld:%ld:%ld", &g[0], &g[1], &g[2]) == 3) {
                long bytes = g[0] * g[1] * g[2];
                if (bytes % 1024 || unified % (bytes / 1024))
                    return bad(err, d1,
                               "%ld bytes of L1 do not divide -gpgpu_unified_l1d_size %ld KB "
                               "(the simulator asserts: make sets x line x assoc a divisor)",
                               bytes, unified);
            }
        }
    }
    if (shsize > 0) {
        if ((o = find(sc, "-gpgpu_shmem_per_block")) &&
            uval(sc, "-gpgpu_shmem_per_block", 0) > shsize)
            return bad(err, o,
                       "a block cannot have more shared memory than the SM "
                       "(-gpgpu_shmem_size %ld)",
                       shsize);
        if ((o = find(sc, "-gpgpu_shmem_sizeDefault")) &&
            uval(sc, "-gpgpu_shmem_sizeDefault", 0) > shsize)
            return bad(err, o, "more than -gpgpu_shmem_size %ld", shsize);
        if (unified > 0 && shsize > unified * 1024 && (o = find(sc, "-gpgpu_shmem_size")))
            return bad(err, o, "%ld bytes exceed -gpgpu_unified_l1d_size %ld KB", shsize, unified);
    }
    return 0;
}

int gc_simcheck_done(gc_simcheck_t *sc, gc_err_t *err)
{
    static int (*const cross[])(const gc_simcheck_t *, gc_err_t *) = {
        x_indexing, x_subcore, x_ptx_lists, x_pipe_fit, x_dram, x_shmem,
    };
    for (size_t i = 0; i < sizeof(cross) / sizeof(cross[0]); i++) {
        int rc = cross[i](sc, err);
        if (rc)
            return rc;
    }
    return 0;
}
