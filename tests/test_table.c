/* test_table.c - calib's trace table (calib/table.h): interning of text
 * cells through the hash table (known answers on 120,000 distinct names,
 * each seen twice, near-identical names, first-seen order), and streaming
 * through a sink (rows handed over, not kept). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib/table.h"
#include "check.h"

#define NAMES 120000

static char dir[256];

/* the name of distinct value i: near-identical names differ in one digit */
static void name_of(size_t i, char *buf, size_t n)
{
    snprintf(buf, n, "op.%06zu", i);
}

/* row r names value (r * 7919) % NAMES: every name twice over 2 * NAMES
 * rows, first seen in a scrambled order */
static size_t value_of_row(size_t r)
{
    return (r * 7919u) % NAMES;
}

static const char *write_trace(size_t rows)
{
    static char path[512];
    snprintf(path, sizeof(path), "%s/names.csv", dir);
    FILE *fp = fopen(path, "w");
    fprintf(fp, "# gpucal-trace: 1\n# bench: test\nop,x\n");
    char b[32];
    for (size_t r = 0; r < rows; r++) {
        name_of(value_of_row(r), b, sizeof(b));
        fprintf(fp, "%s,%zu\n", b, r);
    }
    fprintf(fp, "# end: %zu\n", rows);
    fclose(fp);
    return path;
}

static const gc_col_t cols[] = {
    {"op", GC_COL_TEXT, 0, 0, NULL, 0},
    {"x", GC_COL_WHOLE, 0, 0, NULL, 0},
};

static void test_intern(void)
{
    size_t rows = 2 * NAMES;
    const char *path = write_trace(rows);
    gc_table_t *t;
    gc_err_t e;
    CHECK(gc_table_read(&t, path, cols, 2, &e) == 0);
    if (!t)
        return;
    CHECK(t->nrows == rows);
    CHECK(t->ndict[0] == NAMES); /* each distinct name stored once */
    char b[32];
    int bad = 0;
    for (size_t r = 0; r < rows && bad < 5; r++) {
        name_of(value_of_row(r), b, sizeof(b));
        if (strcmp(gc_table_txt(t, 0, r), b) != 0 || gc_table_num(t, 1, r) != (double)r)
            bad++;
        /* the same name, the same index: row r and r + NAMES name the same value */
        if (r < NAMES && t->txt[0][r] != t->txt[0][r + NAMES])
            bad++;
        /* indices in first-seen order: row r < NAMES is the r-th new name */
        if (r < NAMES && t->txt[0][r] != (int)r)
            bad++;
    }
    CHECK(bad == 0);
    gc_table_free(t);
}

typedef struct sum {
    size_t rows;
    double x;
    size_t op_a;
} sum_t;

static void *sum_create(void)
{
    return calloc(1, sizeof(sum_t));
}

static int sum_row(void *p, const gc_table_t *t, size_t row, gc_err_t *err)
{
    (void)err;
    sum_t *s = p;
    if (row != s->rows)
        return gc_err_set(err, GC_EINPUT, "row %zu out of order", row);
    s->rows++;
    s->x += gc_table_num(t, 1, row);
    s->op_a += !strcmp(gc_table_txt(t, 0, row), "op.000000");
    return 0;
}

static const gc_table_sink_t sum_sink = {sum_create, sum_row, free};

static void test_stream(void)
{
    size_t rows = 2 * NAMES;
    const char *path = write_trace(rows);
    gc_table_t *t;
    gc_err_t e;
    CHECK(gc_table_stream(&t, path, cols, 2, &sum_sink, &e) == 0);
    if (!t)
        return;
    const sum_t *s = t->agg;
    CHECK(t->nrows == rows);
    CHECK(s->rows == rows);
    CHECK(s->x == (double)rows * (double)(rows - 1) / 2); /* 0 + 1 + ... + rows-1 */
    CHECK(s->op_a == 2);
    gc_table_free(t);
}

int main(void)
{
    snprintf(dir, sizeof(dir), "/tmp/gc_table_test_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_intern();
    test_stream();
    char p[512];
    snprintf(p, sizeof(p), "%s/names.csv", dir);
    unlink(p);
    rmdir(dir);
    CHECK_DONE();
}
