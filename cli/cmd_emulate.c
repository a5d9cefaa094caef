/* cmd_emulate.c - `gpucal emulate mma` (one mma's arithmetic on the CPU, bit
 * for bit, from an arch file's numerics entry or a numeric trace) and
 * `gpucal emulate check` (the emulator against the committed GPU fixtures).
 * Reads a matrix file or stdin, the arch/trace and the fixture folder;
 * writes to stdout only. */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../measure/numeric_fix.h"
#include "../measure/numeric_gen.h"
#include "../arch/arch.h"
#include "../calib/numerics.h"
#include "../model/emulate/emulate.h"
#include "../util/fsio.h"
#include "cli.h"

void gc_usage_emulate(FILE *fp)
{
    fprintf(fp,
            "usage: gpucal emulate mma (--arch NAME|FILE | --trace FILE) --form A.C\n"
            "                          [--inst mma|wgmma] [--round] [--format text|hex|csv] [FILE|-]\n"
            "       gpucal emulate check (--arch NAME|FILE | --trace FILE) [--fixtures DIR]\n"
            "                          [--set NAME] [--show N]\n\n"
            "Reproduce what a tensor core computes for D = A x B + C, bit for bit, from\n"
            "the numerics the `numeric` bench measured (model/emulate/numerics.md).\n\n"
            "  mma     read A, B and C from FILE (or stdin) and print D\n"
            "  check   run the emulator on every committed fixture set and compare with the\n"
            "          GPU's outputs: one line per set, a summary per form; exit 0 when\n"
            "          every form it could check matches on at least 99.99%% of its cases\n\n"
            "  --arch NAME|FILE  take the numerics entries from an arch file\n"
            "  --trace FILE      take them from a numeric trace (e.g. traces/h100/numeric.csv)\n"
            "  --form A.C        A/B and C/D types: f16.f32 bf16.f32 tf32.f32 f16.f16\n"
            "                    e4m3.f32 e5m2.f32 e4m3.f16 e5m2.f16\n"
            "  --inst I          mma (default) or wgmma (FP8 differs on Hopper)\n"
            "  --round           round inexact input values to nearest (default: refuse them)\n"
            "  --format F        text (default: shortest decimal that reads back to the same\n"
            "                    bits), hex (the bit patterns), csv (row,col,bits,value)\n"
            "  --fixtures DIR    fixture folder (default: tests/fixtures/numerics)\n"
            "  --set NAME        check only the sets whose name contains NAME\n"
            "  --show N          print up to N mismatches per set (default 0)\n\n"
            "Input: sections 'A', 'B' and 'C' (C optional: zeros), each a header line\n"
            "followed by rows of values separated by blanks; '#' starts a comment. A is\n"
            "m x k, B is k x n, C is m x n. A value is a decimal number, inf, -inf, nan, or\n"
            "a bit pattern 0x3c00 in the element's format (tf32 and f32: 32-bit patterns).\n"
            "Example (m16n8k16 is the hardware shape; any m, n, k <= 1024 is emulated):\n"
            "  A\n  1 2\n  B\n  0.5\n  0.25\n  C\n  1\n");
}

/* ---- the numerics source ---- */

typedef struct src {
    gc_arch_t *arch;
    const char *what; /* for messages */
} src_t;

static int src_open(src_t *s, const char *arch, const char *trace, gc_err_t *err)
{
    memset(s, 0, sizeof(*s));
    if (arch) {
        s->what = arch;
        return gc_arch_open(&s->arch, arch, err);
    }
    s->what = trace;
    s->arch = gc_arch_create();
    if (!s->arch)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    return gc_calib_numerics(trace, s->arch, err);
}

/* ---- the matrix file ---- */

typedef struct mat {
    uint32_t *v;      /* row r, column c at v[r * 1024 + c] */
    int rows, cols, cap;
    int have;         /* the section's header was seen */
    long line;        /* its line */
} mat_t;

/* One value text -> bits of format f. */
static int parse_value(const char *file, long line, long col, const char *t, gc_nfmt_t f,
                       int round, uint32_t *bits, gc_err_t *err)
{
    const gc_nfmt_info_t *in = gc_nfmt_info(f);
    if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        char *end;
        unsigned long v = strtoul(t + 2, &end, 16);
        int wbits = f == GC_NF_TF32 ? 32 : in->bytes * 8;
        if (*end || !t[2] || (wbits < 32 && v >> wbits))
            return gc_err_at(err, GC_EINPUT, file, line, col,
                             "'%s' is not a %d-bit pattern for %s (write e.g. 0x%0*x)", t,
                             wbits, in->name, wbits / 4, 0);
        *bits = (uint32_t)v;
        return 0;
    }
    char *end;
    double x = strtod(t, &end);
    if (*end || end == t)
        return gc_err_at(err, GC_EINPUT, file, line, col,
                         "'%s' is not a number (decimal, inf, nan, or bits like 0x3c00)", t);
    if (isnan(x)) {
        *bits = gc_nfmt_encode(f, x);
        return 0;
    }
    if (gc_nfmt_exact(f, x, bits))
        return 0;
    uint32_t nb = gc_nfmt_encode(f, x);
    if (round) {
        *bits = nb;
        return 0;
    }
    return gc_err_at(err, GC_EINPUT, file, line, col,
                     "%s is not exactly representable in %s (nearest: %.17g = 0x%x; write "
                     "that, or pass --round)",
                     t, in->name, gc_nfmt_decode(f, nb), (unsigned)nb);
}

/* Read the A/B/C sections. */
static int read_mats(const char *file, const char *buf, gc_nfmt_t fa, gc_nfmt_t fc, int round,
                     mat_t m[3], gc_err_t *err)
{
    int cur = -1;
    long line = 0;
    const char *p = buf;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        line++;
        char text[65536];
        if (len >= sizeof(text))
            return gc_err_at(err, GC_ELIMIT, file, line, 1, "line longer than %zu bytes",
                             sizeof(text) - 1);
        memcpy(text, p, len);
        text[len] = '\0';
        p = nl ? nl + 1 : p + len;
        char *hash = strchr(text, '#');
        if (hash)
            *hash = '\0';
        char *save = NULL, *tok = strtok_r(text, " \t\r,", &save);
        if (!tok)
            continue;
        if ((!strcmp(tok, "A") || !strcmp(tok, "B") || !strcmp(tok, "C")) &&
            !strtok_r(NULL, " \t\r,", &save)) {
            cur = tok[0] - 'A';
            if (m[cur].have)
                return gc_err_at(err, GC_EINPUT, file, line, 1,
                                 "a second section %s (each of A, B, C at most once)", tok);
            m[cur].have = 1;
            m[cur].line = line;
            continue;
        }
        if (cur < 0)
            return gc_err_at(err, GC_EINPUT, file, line, (long)(tok - text) + 1,
                             "a value before any section (start with a line 'A')");
        mat_t *x = &m[cur];
        int n = 0;
        for (; tok; tok = strtok_r(NULL, " \t\r,", &save)) {
            if (x->rows >= 1024 || n >= 1024)
                return gc_err_at(err, GC_ELIMIT, file, line, (long)(tok - text) + 1,
                                 "more than 1024 rows or columns");
            uint32_t bits;
            int rc = parse_value(file, line, (long)(tok - text) + 1, tok, cur == 2 ? fc : fa,
                                 round, &bits, err);
            if (rc)
                return rc;
            if ((x->rows + 1) * 1024 > x->cap) {
                int cap = (x->rows + 1) * 1024 * 2;
                uint32_t *nv = realloc(x->v, sizeof(*nv) * (size_t)cap);
                if (!nv)
                    return gc_err_set(err, GC_ENOMEM, "out of memory");
                x->v = nv;
                x->cap = cap;
            }
            x->v[x->rows * 1024 + n++] = bits;
        }
        if (x->rows && n != x->cols)
            return gc_err_at(err, GC_EINPUT, file, line, 1,
                             "%d values in this row of %c, the first row had %d", n, 'A' + cur,
                             x->cols);
        x->cols = n;
        x->rows++;
    }
    for (int i = 0; i < 2; i++)
        if (!m[i].have || !m[i].rows)
            return gc_err_at(err, GC_EINPUT, file, line ? line : 1, 1,
                             "no section %c with values (A is m x k, B is k x n)", 'A' + i);
    if (m[0].cols != m[1].rows)
        return gc_err_at(err, GC_EINPUT, file, m[1].line, 1,
                         "B has %d rows, A has %d columns: they must agree (k)", m[1].rows,
                         m[0].cols);
    if (m[2].have && (m[2].rows != m[0].rows || m[2].cols != m[1].cols))
        return gc_err_at(err, GC_EINPUT, file, m[2].line, 1,
                         "C is %d x %d, expected %d x %d (rows of A x columns of B)", m[2].rows,
                         m[2].cols, m[0].rows, m[1].cols);
    return 0;
}

/* The shortest decimal that reads back to the same bits of format f. */
static void fmt_value(char *buf, size_t n, gc_nfmt_t f, uint32_t bits)
{
    double v = gc_nfmt_decode(f, bits);
    if (isnan(v)) {
        snprintf(buf, n, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, n, v < 0 ? "-inf" : "inf");
        return;
    }
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, n, "%.*g", p, v);
        if (gc_nfmt_encode(f, strtod(buf, NULL)) == bits)
            return;
    }
}

static int parse_form(const char *form, gc_nfmt_t *a, gc_nfmt_t *c)
{
    char ta[16], tc[16];
    if (!form || sscanf(form, "%15[a-z0-9].%15[a-z0-9]", ta, tc) != 2)
        return -1;
    int ia = gc_nfmt_parse(ta), ic = gc_nfmt_parse(tc);
    if (ia < 0 || ia == GC_NF_F32 || (ic != GC_NF_F32 && ic != GC_NF_F16))
        return -1;
    *a = (gc_nfmt_t)ia;
    *c = (gc_nfmt_t)ic;
    return 0;
}

typedef struct opts {
    const char *arch, *trace, *form, *inst, *format, *fixtures, *set;
    int round;
    long show;
    int first;
} opts_t;

static int get_opts(const char *cmd, int argc, char **argv, opts_t *o, int check)
{
    static const struct option lo[] = {
        {"arch", required_argument, NULL, 'a'},     {"trace", required_argument, NULL, 't'},
        {"form", required_argument, NULL, 'F'},     {"inst", required_argument, NULL, 'i'},
        {"format", required_argument, NULL, 'f'},   {"fixtures", required_argument, NULL, 'x'},
        {"set", required_argument, NULL, 's'},      {"show", required_argument, NULL, 'S'},
        {"round", no_argument, NULL, 'r'},          {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof(*o));
    o->inst = "mma";
    o->format = "text";
    o->fixtures = "tests/fixtures/numerics";
    opterr = 0;
    optind = 0;
    int c, li;
    unsigned seen = 0;
    while ((c = getopt_long(argc, argv, "h", lo, &li)) != -1) {
        const char *name = NULL;
        if (c != 'h' && c != '?' && c != ':') { /* an option given twice: which one counts? */
            if (seen & (1u << li))
                return gc_cli_usage_error(cmd, "--%s given twice (give it once)", lo[li].name);
            seen |= 1u << li;
        }
        switch (c) {
        case 'a': o->arch = optarg; break;
        case 't': o->trace = optarg; break;
        case 'F': o->form = optarg, name = check ? "--form" : NULL; break;
        case 'i': o->inst = optarg, name = check ? "--inst" : NULL; break;
        case 'f': o->format = optarg, name = check ? "--format" : NULL; break;
        case 'r': o->round = 1, name = check ? "--round" : NULL; break;
        case 'x': o->fixtures = optarg, name = check ? NULL : "--fixtures"; break;
        case 's': o->set = optarg, name = check ? NULL : "--set"; break;
        case 'S':
            name = check ? NULL : "--show";
            if (check && gc_cli_long(cmd, "--show", optarg, 0, 1000, &o->show))
                return 2;
            break;
        case 'h': gc_usage_emulate(stdout); return 1;
        default:
            return gc_cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
        }
        if (name)
            return gc_cli_usage_error(cmd, "%s is not an option of this command", name);
    }
    if (!o->arch == !o->trace)
        return gc_cli_usage_error(cmd, "give exactly one of --arch NAME|FILE and --trace FILE");
    if (strcmp(o->inst, "mma") && strcmp(o->inst, "wgmma"))
        return gc_cli_usage_error(cmd, "--inst takes mma or wgmma, got '%s'", o->inst);
    if (strcmp(o->format, "text") && strcmp(o->format, "hex") && strcmp(o->format, "csv"))
        return gc_cli_usage_error(cmd, "unknown --format '%s' (text, hex, csv)", o->format);
    o->first = optind;
    return 0;
}

/* All of stdin (at most 64 MiB) into a malloc'd NUL-terminated *bufp of
 * *lenp bytes. */
static int read_stdin(char **bufp, size_t *lenp, gc_err_t *err)
{
    char *buf;
    size_t len = 0;
    int rc = 0;
    size_t cap = 1 << 16;
    buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - 1 - len, stdin)) > 0) {
        len += got;
        if (len + 1 == cap) {
            if (cap >= (64u << 20)) {
                rc = gc_err_set(err, GC_ELIMIT, "<stdin>: more than 64 MiB");
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb)
                break;
            buf = nb;
            cap *= 2;
        }
    }
    if (!buf && !rc)
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    if (buf)
        buf[len] = '\0';
    *bufp = buf;
    *lenp = len;
    return rc;
}

/* D = A x B + C on the emulator e for the matrices m (A, B, C), printed
 * in format fmt (values, csv or hex) with C/D format fc. */
static int run_mma(const gc_emu_t *e, const mat_t *m, gc_nfmt_t fc, const char *fmt,
                   gc_err_t *err)
{
    int rc = 0;
    int M = m[0].rows, K = m[0].cols, N = m[1].cols;
    uint32_t *A = malloc(sizeof(*A) * (size_t)(M * K)), *B = malloc(sizeof(*B) * (size_t)(K * N));
    uint32_t *C = calloc((size_t)(M * N), sizeof(*C)), *D = malloc(sizeof(*D) * (size_t)(M * N));
    if (!A || !B || !C || !D) {
        rc = gc_err_set(err, GC_ENOMEM, "out of memory");
    } else {
        for (int i = 0; i < M; i++)
            for (int q = 0; q < K; q++)
                A[i * K + q] = m[0].v[i * 1024 + q];
        for (int q = 0; q < K; q++)
            for (int j = 0; j < N; j++)
                B[q * N + j] = m[1].v[q * 1024 + j];
        for (int i = 0; m[2].have && i < M; i++)
            for (int j = 0; j < N; j++)
                C[i * N + j] = m[2].v[i * 1024 + j];
        gc_emu_mma(e, M, N, K, A, B, C, D);
        int csv = !strcmp(fmt, "csv"), hex = !strcmp(fmt, "hex");
        if (csv)
            printf("row,col,bits,value\n");
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < N; j++) {
                char v[64];
                uint32_t bits = D[i * N + j];
                fmt_value(v, sizeof(v), fc, bits);
                if (csv)
                    printf("%d,%d,0x%0*x,%s\n", i, j, fc == GC_NF_F32 ? 8 : 4, bits, v);
                else if (hex)
                    printf("%s0x%0*x", j ? " " : "", fc == GC_NF_F32 ? 8 : 4, bits);
                else
                    printf("%s%s", j ? " " : "", v);
            }
            if (!csv)
                printf("\n");
        }
    }
    free(A), free(B), free(C), free(D);
    return rc;
}

static int emulate_mma(int argc, char **argv)
{
    const char *cmd = "gpucal emulate mma";
    opts_t o;
    int rc = get_opts(cmd, argc, argv, &o, 0);
    if (rc)
        return rc == 1 ? 0 : rc;
    gc_nfmt_t fa, fc;
    if (!o.form)
        return gc_cli_usage_error(cmd, "--form A.C is required (e.g. --form f16.f32)");
    if (parse_form(o.form, &fa, &fc))
        return gc_cli_usage_error(cmd, "--form '%s' is not A.C with A one of f16 bf16 tf32 "
                                       "e4m3 e5m2 and C f32 or f16", o.form);
    if (argc - o.first > 1)
        return gc_cli_usage_error(cmd, "one input FILE at most, got '%s'", argv[o.first + 1]);
    const char *file = argc > o.first && strcmp(argv[o.first], "-") ? argv[o.first] : NULL;
    gc_err_t err;
    gc_err_clear(&err);
    src_t s;
    gc_emu_t e;
    mat_t m[3];
    memset(m, 0, sizeof(m));
    char *buf = NULL;
    size_t len = 0;
    rc = src_open(&s, o.arch, o.trace, &err);
    const gc_numerics_t *nu = NULL;
    if (!rc) {
        nu = gc_emu_find(s.arch, o.inst, gc_nfmt_info(fa)->name, gc_nfmt_info(fc)->name);
        if (!nu)
            rc = gc_err_set(&err, GC_ENODATA,
                            "%s has no numerics entry for %s %s (measure it with `gpucal "
                            "measure --bench numeric`, or pass --trace traces/h100/numeric.csv)",
                            s.what, o.inst, o.form);
    }
    if (!rc)
        rc = gc_emu_from_numerics(&e, nu, &err);
    if (!rc) {
        if (file) {
            rc = gc_file_read(file, 64u << 20, &buf, &len, &err);
        } else {
            rc = read_stdin(&buf, &len, &err);
        }
    }
    if (!rc)
        rc = read_mats(file ? file : "<stdin>", buf, fa, fc, o.round, m, &err);
    if (!rc) {
        rc = run_mma(&e, m, fc, o.format, &err);
    }
    for (int i = 0; i < 3; i++)
        free(m[i].v);
    free(buf);
    gc_arch_destroy(s.arch);
    return rc ? gc_cli_fail(&err) : 0;
}

/* ---- check ---- */

static void eval_emu(void *cookie, const gc_nform_t *f, const uint32_t *A, const uint32_t *B,
                     const uint32_t *C, uint32_t *D)
{
    gc_emu_mma((const gc_emu_t *)cookie, f->m, f->n, f->k, A, B, C, D);
}

static int emulate_check(int argc, char **argv)
{
    const char *cmd = "gpucal emulate check";
    opts_t o;
    int rc = get_opts(cmd, argc, argv, &o, 1);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (argc > o.first)
        return gc_cli_usage_error(cmd, "unexpected argument '%s'", argv[o.first]);
    gc_err_t err;
    gc_err_clear(&err);
    src_t s;
    gc_nfix_t *sets = NULL;
    int ns = 0;
    rc = src_open(&s, o.arch, o.trace, &err);
    if (!rc)
        rc = gc_nfix_list(o.fixtures, &sets, &ns, &err);
    long fcases[64] = {0}, fmiss[64] = {0};
    int checked = 0;
    for (int i = 0; !rc && i < ns; i++) {
        const gc_nfix_t *x = &sets[i];
        if (o.set && !strstr(x->set, o.set))
            continue;
        const gc_nform_t *f = &gc_nforms[x->form];
        const gc_numerics_t *nu =
            gc_emu_find(s.arch, f->inst, gc_nfmt_info(f->a)->name, gc_nfmt_info(f->c)->name);
        if (!nu) {
            printf("%-40s skipped: %s has no numerics entry for %s %s.%s\n", x->set, s.what,
                   f->inst, gc_nfmt_info(f->a)->name, gc_nfmt_info(f->c)->name);
            continue;
        }
        gc_emu_t e;
        uint32_t *out = NULL;
        if ((rc = gc_emu_from_numerics(&e, nu, &err)) != 0 ||
            (rc = gc_nfix_load(o.fixtures, x, &out, &err)) != 0)
            break;
        gc_nmiss_t show[1000];
        long miss, cases = gc_nfix_check(x, out, eval_emu, &e, &miss, show, (int)o.show);
        free(out);
        printf("%-40s %8ld cases %6ld mismatches  %8.4f %% match\n", x->set, cases, miss,
               cases ? 100.0 * (double)(cases - miss) / (double)cases : 0.0);
        for (long j = 0; j < miss && j < o.show; j++)
            printf("    mma %ld (%d,%d): GPU 0x%08x, emulator 0x%08x\n", show[j].mma, show[j].row,
                   show[j].col, show[j].want, show[j].got);
        if (x->form < 64) {
            fcases[x->form] += cases;
            fmiss[x->form] += miss;
        }
        checked++;
    }
    int status = rc ? gc_cli_fail(&err) : 0;
    if (!rc) {
        printf("\n%-28s %9s %9s %10s\n", "form", "cases", "mismatch", "match %");
        for (int fi = 0; fi < gc_nforms_count && fi < 64; fi++) {
            if (!fcases[fi])
                continue;
            char name[64];
            gc_nform_name(&gc_nforms[fi], name, sizeof(name));
            double pct = 100.0 * (double)(fcases[fi] - fmiss[fi]) / (double)fcases[fi];
            printf("%-28s %9ld %9ld %10.4f%s\n", name, fcases[fi], fmiss[fi], pct,
                   pct < 99.99 ? "  BELOW 99.99" : "");
            if (pct < 99.99)
                status = 1;
        }
        if (!checked) {
            fprintf(stderr, "gpucal emulate check: no fixture set could be checked with %s\n",
                    s.what);
            status = 1;
        }
    }
    free(sets);
    gc_arch_destroy(s.arch);
    return status;
}

int gc_cmd_emulate(int argc, char **argv)
{
    static const gc_cmd_t sub[] = {
        {"mma", emulate_mma, gc_usage_emulate, ""},
        {"check", emulate_check, gc_usage_emulate, ""},
    };
    if (argc < 2) {
        gc_usage_emulate(stderr);
        return 2;
    }
    if (gc_cli_is_help(argv[1])) {
        if (argc > 2)
            return gc_cli_usage_error("gpucal emulate", "unexpected argument '%s' after %s",
                                      argv[2], argv[1]);
        gc_usage_emulate(stdout);
        return 0;
    }
    return gc_cmd_select(sub, 2, "gpucal emulate", argc - 1, argv + 1);
}
