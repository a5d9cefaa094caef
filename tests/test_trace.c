/* test_trace.c - gpucal-trace/1: write/read round trip, completeness,
 * no-clobber, and bad input (each with its specific message). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "traces/trace.h"

static char dir[256];

static const char *tmp(const char *name)
{
    static char p[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
    return p[k];
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "wb");
    fputs(text, fp);
    fclose(fp);
}

static void test_round_trip(void)
{
    gc_trace_writer_t *w;
    gc_err_t e;
    const char *path = tmp("rt.csv");
    unlink(path);
    CHECK(gc_trace_create(&w, path, 0, &e) == 0);
    CHECK(gc_trace_put_meta(w, "bench", "mma") == 0);
    CHECK(gc_trace_put_meta(w, "device", "NVIDIA Test, 2 GPUs") == 0); /* comma in meta ok */
    CHECK(gc_trace_put_meta(w, "sm_clock_mhz", "%.1f", 1755.0) == 0);
    const char *cols[] = {"inst", "warps", "cycles"};
    CHECK(gc_trace_columns(w, cols, 3) == 0);
    const double vals[] = {24.7, 0.1, 1e-300, 123456789.123456789, -3.5};
    for (int i = 0; i < 5; i++)
        CHECK(gc_trace_rowf(w, "mma,%d,%.17g", i + 1, vals[i]) == 0);
    const char *bad[] = {"a,b", "1", "2"};
    CHECK(gc_trace_row(w, bad, 3) < 0); /* a comma inside a cell is refused */
    CHECK(gc_trace_row(w, cols, 2) < 0); /* wrong cell count */
    CHECK(gc_trace_written(w) == 5);
    CHECK(access(path, F_OK) != 0);     /* not in place before finish */
    CHECK(gc_trace_finish(w, &e) == 0);
    CHECK(access(path, F_OK) == 0);
    CHECK(access(tmp("rt.csv.part"), F_OK) != 0);

    gc_trace_reader_t *r;
    CHECK(gc_trace_open(&r, path, &e) == 0);
    CHECK_STR(gc_trace_meta(r, "bench"), "mma");
    CHECK_STR(gc_trace_meta(r, "device"), "NVIDIA Test, 2 GPUs");
    double clk = 0;
    CHECK(gc_trace_meta_num(r, "sm_clock_mhz", &clk, &e) == 0);
    CHECK(clk == 1755.0);
    CHECK(gc_trace_meta_num(r, "nope", &clk, &e) < 0);
    CHECK_HAS(e.msg, "metadata key 'nope' is missing");
    CHECK(gc_trace_ncols(r) == 3);
    CHECK(gc_trace_col(r, "cycles") == 2);
    CHECK(gc_trace_col(r, "absent") == -1);
    int idx[2];
    const char *want[] = {"inst", "latency_cyc"};
    CHECK(gc_trace_cols(r, want, idx, 2, &e) < 0);
    CHECK_HAS(e.msg, "column 'latency_cyc' is missing");
    int i = 0;
    while (gc_trace_next(r, &e) > 0) {
        double v;
        long n;
        CHECK_STR(gc_trace_cell(r, 0), "mma");
        CHECK(gc_trace_long(r, 1, &n, &e) == 0 && n == i + 1);
        CHECK(gc_trace_num(r, 2, &v, &e) == 0);
        CHECK(v == vals[i]); /* bit-exact */
        CHECK(gc_trace_num(r, 0, &v, &e) < 0);
        i++;
    }
    CHECK(i == 5);
    CHECK(gc_trace_rows(r) == 5);
    CHECK(gc_trace_complete(r));
    CHECK_STR(gc_trace_meta(r, "end"), "5");
    gc_trace_close(r);

    /* refuses to overwrite without force, replaces with force */
    CHECK(gc_trace_create(&w, path, 0, &e) == GC_EEXIST);
    CHECK_HAS(e.msg, "refusing to overwrite");
    CHECK(gc_trace_create(&w, path, GC_TRACE_FORCE, &e) == 0);
    CHECK(gc_trace_columns(w, cols, 3) == 0);
    CHECK(gc_trace_finish(w, &e) == 0);
    CHECK(gc_trace_open(&r, path, &e) == 0);
    CHECK(gc_trace_next(r, &e) == 0 && gc_trace_rows(r) == 0 && gc_trace_complete(r));
    gc_trace_close(r);
}

static void test_abandon_keeps_rows(void)
{
    gc_trace_writer_t *w;
    gc_err_t e;
    const char *path = tmp("ab.csv");
    unlink(path);
    unlink(tmp("ab.csv.part"));
    CHECK(gc_trace_create(&w, path, 0, &e) == 0);
    const char *cols[] = {"x"};
    gc_trace_columns(w, cols, 1);
    gc_trace_rowf(w, "1");
    gc_trace_rowf(w, "2");
    gc_trace_abandon(w);
    CHECK(access(path, F_OK) != 0);
    gc_trace_reader_t *r;
    CHECK(gc_trace_open(&r, tmp("ab.csv.part"), &e) == 0);
    while (gc_trace_next(r, &e) > 0)
        ;
    CHECK(gc_trace_rows(r) == 2);
    CHECK(!gc_trace_complete(r)); /* no trailer: an interrupted run */
    gc_trace_close(r);
    /* a second run must not silently append to the partial file */
    CHECK(gc_trace_create(&w, path, 0, &e) == GC_EEXIST);
    CHECK_HAS(e.msg, "interrupted run");
}

/* --resume: reopen a partial trace after its complete rows, check the
 * columns instead of rewriting them, skip metadata it already has, cut a
 * half-written unit, then finish: the result reads as one complete trace. */
static void test_reopen(void)
{
    gc_trace_writer_t *w;
    gc_err_t e;
    const char *path = tmp("re.csv");
    unlink(path);
    unlink(tmp("re.csv.part"));
    CHECK(gc_trace_create(&w, path, 0, &e) == 0);
    gc_trace_put_meta(w, "bench", "x");
    gc_trace_put_meta(w, "sm_clock_mhz", "1980.0");
    const char *cols[] = {"k", "v"};
    gc_trace_columns(w, cols, 2);
    for (int i = 0; i < 5; i++)
        gc_trace_rowf(w, "%d,%d", i, i * 10);
    gc_trace_abandon(w); /* "killed" after 5 rows */

    gc_trace_reader_t *r;
    CHECK(gc_trace_open(&r, tmp("re.csv.part"), &e) == 0);
    long off[8], n = 0;
    while (gc_trace_next(r, &e) > 0)
        off[n++] = gc_trace_offset(r);
    CHECK(n == 5);
    /* keep 4 rows: pretend the 5th belonged to a half-written unit */
    CHECK(gc_trace_reopen(&w, path, r, off[3], 4, 0, &e) == 0);
    gc_trace_close(r);
    CHECK(gc_trace_written(w) == 4);
    CHECK(gc_trace_put_meta(w, "bench", "x") == 0);              /* same: skipped */
    CHECK(gc_trace_put_meta(w, "sm_clock_mhz", "1755.0") == 0);  /* changed: a note */
    CHECK(gc_trace_columns(w, cols, 2) == 0);                    /* same names: ok */
    const char *other[] = {"k", "w"};
    CHECK(gc_trace_columns(w, other, 2) < 0);
    CHECK_HAS(gc_trace_writer_err(w)->msg, "other columns");
    gc_trace_rowf(w, "4,40");
    gc_trace_rowf(w, "5,50");
    gc_trace_rowf(w, "6,999");
    CHECK(gc_trace_truncate(w, off[3], 4) == 0); /* cut back to 4 rows */
    for (int i = 4; i < 7; i++)
        gc_trace_rowf(w, "%d,%d", i, i * 10);
    CHECK(gc_trace_finish(w, &e) == 0);

    CHECK(gc_trace_open(&r, path, &e) == 0);
    long i = 0;
    int ok = 1;
    while (gc_trace_next(r, &e) > 0) {
        long k, v;
        gc_trace_long(r, 0, &k, &e);
        gc_trace_long(r, 1, &v, &e);
        ok &= k == i && v == i * 10;
        i++;
    }
    CHECK(ok && i == 7);
    CHECK(gc_trace_complete(r));
    CHECK_STR(gc_trace_meta(r, "sm_clock_mhz"), "1980.0");
    CHECK_STR(gc_trace_meta(r, "note"), "sm_clock_mhz on resume: 1755.0");
    gc_trace_close(r);
}

/* Each bad input: the reader fails, and the message names the line. */
static void expect_bad(const char *name, const char *text, const char *needle)
{
    const char *path = tmp(name);
    write_text(path, text);
    gc_trace_reader_t *r = NULL;
    gc_err_t e;
    gc_err_clear(&e);
    int rc = gc_trace_open(&r, path, &e);
    if (rc == 0) {
        while ((rc = gc_trace_next(r, &e)) > 0)
            ;
        gc_trace_close(r);
    }
    if (rc >= 0)
        fprintf(stderr, "bad input %s was accepted\n", name);
    CHECK(rc < 0);
    CHECK_HAS(e.msg, needle);
    CHECK(e.located);
}

static void test_bad_input(void)
{
    expect_bad("empty.csv", "", "no column header");
    expect_bad("nover.csv", "# bench: x\na,b\n1,2\n", "first line must be '# gpucal-trace: 1'");
    expect_bad("v2.csv", "# gpucal-trace: 2\na\n1\n", "version '2' is not supported");
    expect_bad("cells.csv", "# gpucal-trace: 1\na,b\n1,2\n3\n", ":4: 1 cells, but the header");
    expect_bad("quote.csv", "# gpucal-trace: 1\na,b\n\"1\",2\n", "quoted cells");
    expect_bad("dupcol.csv", "# gpucal-trace: 1\na,a\n", "column 'a' appears twice");
    expect_bad("dupmeta.csv", "# gpucal-trace: 1\n# bench: a\n# bench: b\nx\n",
               "given twice (first on line 2)");
    expect_bad("meta.csv", "# gpucal-trace: 1\n#bench: a\nx\n", "space after '#'");
    expect_bad("bin.csv", "# gpucal-trace: 1\nx\n\001\002\003\n", "control byte 0x01");
    expect_bad("headonly.csv", "# gpucal-trace: 1\n", "no column header");
    /* a line longer than the limit */
    char *big = malloc(GC_TRACE_LINE_MAX + 64);
    snprintf(big, 64, "# gpucal-trace: 1\nx\n");
    size_t at = strlen(big);
    memset(big + at, '7', GC_TRACE_LINE_MAX + 10);
    big[at + GC_TRACE_LINE_MAX + 10] = '\0';
    expect_bad("long.csv", big, "line longer than");
    free(big);
    /* numbers: garbage, NaN, overflow */
    const char *path = tmp("num.csv");
    write_text(path, "# gpucal-trace: 1\nv\nabc\nnan\n1e999\n12\n");
    gc_trace_reader_t *r;
    gc_err_t e;
    CHECK(gc_trace_open(&r, path, &e) == 0);
    double v;
    CHECK(gc_trace_next(r, &e) == 1 && gc_trace_num(r, 0, &v, &e) < 0);
    CHECK_HAS(e.msg, ":3:1: column 'v': expected a number, found 'abc'");
    CHECK(gc_trace_next(r, &e) == 1 && gc_trace_num(r, 0, &v, &e) < 0);
    CHECK_HAS(e.msg, "not a finite number");
    CHECK(gc_trace_next(r, &e) == 1 && gc_trace_num(r, 0, &v, &e) < 0);
    CHECK_HAS(e.msg, "not a finite number");
    CHECK(gc_trace_next(r, &e) == 1 && gc_trace_num(r, 0, &v, &e) == 0 && v == 12);
    gc_trace_close(r);
    /* missing file */
    CHECK(gc_trace_open(&r, tmp("does-not-exist.csv"), &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "cannot open");
}

int main(void)
{
    snprintf(dir, sizeof(dir), "/tmp/gc_trace_test_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_round_trip();
    test_abandon_keeps_rows();
    test_reopen();
    test_bad_input();
    CHECK_DONE();
}
