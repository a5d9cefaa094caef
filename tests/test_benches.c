/* test_benches.c - the bench table (traces/benches.h): well formed (unique
 * names, units and meanings on every column, choices only on text), and
 * every committed trace (traces/h100/<bench>.csv) has exactly the columns
 * the table gives its bench, in order: what the measurement wrote is what
 * the table says. */
#include <stdlib.h>
#include <string.h>

#include "traces/benches.h"
#include "traces/trace.h"
#include "check.h"

static void well_formed(void)
{
    const gc_bench_spec_t *b;
    size_t n = gc_bench_specs(&b);
    CHECK(n >= 15);
    for (size_t i = 0; i < n; i++) {
        CHECK(gc_bench_spec(b[i].name) == &b[i]);
        CHECK(b[i].what && b[i].what[0] && b[i].ncols > 0);
        for (int c = 0; c < b[i].ncols; c++) {
            const gc_bench_col_t *col = &b[i].cols[c];
            CHECK(col->name && col->unit && col->unit[0] && col->what && col->what[0]);
            CHECK(col->type == GC_BCOL_TEXT || !col->choices);
            CHECK(strchr(col->what, '|') == NULL); /* a Markdown cell */
            for (int d = 0; d < c; d++)
                if (!strcmp(b[i].cols[d].name, col->name)) {
                    fprintf(stderr, "%s: column %s twice\n", b[i].name, col->name);
                    CHECK(0);
                }
        }
    }
    CHECK(gc_bench_spec("nope") == NULL);
    const char *names[8];
    CHECK(gc_bench_columns(gc_bench_spec("mma"), names, 8) == -1);
}

/* the committed trace of every bench has the table's columns */
static void traces_match(const char *src)
{
    const gc_bench_spec_t *b;
    size_t n = gc_bench_specs(&b);
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/traces/h100/%s.csv", src, b[i].name);
        gc_trace_reader_t *r = NULL;
        gc_err_t e;
        gc_err_clear(&e);
        if (gc_trace_open(&r, path, &e)) {
            fprintf(stderr, "%s\n", e.msg);
            CHECK(0);
            continue;
        }
        const char *names[64];
        int nc = gc_bench_columns(&b[i], names, 64);
        int same = nc == gc_trace_ncols(r);
        for (int c = 0; same && c < nc; c++)
            same = !strcmp(names[c], gc_trace_colname(r, c));
        if (!same)
            fprintf(stderr, "%s: its columns differ from traces/benches.c's %s\n", path,
                    b[i].name);
        CHECK(same);
        gc_trace_close(r);
    }
}

int main(void)
{
    const char *src = getenv("GC_SRC");
    well_formed();
    if (src)
        traces_match(src);
    return gc_check_failures ? 1 : 0;
}
