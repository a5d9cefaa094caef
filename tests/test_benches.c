/* test_benches.c - the bench table (traces/benches.h): well formed (unique
 * names, units and meanings on every column, choices only on text), and
 * every committed trace (traces/h100/, traces/h200/) has exactly the columns
 * the table gives its bench, in order (less trailing columns marked late,
 * which the committed traces predate): what the measurement wrote is what
 * the table says; and the clock bench's newer columns are late and
 * optional, so the older traces still read. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* the committed trace of every bench in traces/<gpu>/ has the table's
 * columns; `absent` names the one bench that GPU was not measured with
 * (the cold bench came after the last H100 was lent), NULL: none */
static void traces_match(const char *src, const char *gpu, const char *absent)
{
    const gc_bench_spec_t *b;
    size_t n = gc_bench_specs(&b);
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/traces/%s/%s.csv", src, gpu, b[i].name);
        gc_trace_reader_t *r = NULL;
        gc_err_t e;
        gc_err_clear(&e);
        if (absent && !strcmp(b[i].name, absent)) {
            CHECK(access(path, F_OK) != 0); /* once measured, it is checked like the rest */
            continue;
        }
        if (gc_trace_open(&r, path, &e)) {
            fprintf(stderr, "%s\n", e.msg);
            CHECK(0);
            continue;
        }
        const char *names[64];
        int nc = gc_bench_columns(&b[i], names, 64);
        /* a trace taken before `late` columns were appended lacks them
         * (the newest first: the H200 clock trace has the curve's, not
         * the tensor rate) */
        while (nc > gc_trace_ncols(r) && nc > 0 && b[i].cols[nc - 1].late)
            nc--;
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

/* the column of bench b called name, or NULL */
static const gc_bench_col_t *col_of(const gc_bench_spec_t *b, const char *name)
{
    for (int c = 0; b && c < b->ncols; c++)
        if (!strcmp(b->cols[c].name, name))
            return &b->cols[c];
    return NULL;
}

static int has_choice(const gc_bench_col_t *c, const char *v)
{
    for (int i = 0; c && c->choices && c->choices[i]; i++)
        if (!strcmp(c->choices[i], v))
            return 1;
    return 0;
}

/* the clock bench: five full loads and six partial tensor loads; the
 * curve's columns and the tensor rate come after the five the older traces
 * have, marked late and read when present (so the committed H100 trace,
 * which predates them, still calibrates, and the H200 one, which predates
 * the rate), in this order */
static void clock_columns(void)
{
    const gc_bench_spec_t *b = gc_bench_spec("clock");
    CHECK(b != NULL);
    const char *loads[] = {"idle",           "memory",         "tensor",        "tensor_mma",
                           "fma",            "tensor_d25",     "tensor_d50",    "tensor_d75",
                           "tensor_mma_d25", "tensor_mma_d50", "tensor_mma_d75", "l2",
                           "tensor_vary",    "tensor_tma"};
    for (int i = 0; i < 14; i++)
        CHECK(has_choice(col_of(b, "load"), loads[i]));
    CHECK(!has_choice(col_of(b, "load"), "tensor_d100"));
    static const char *const names[] = {"load",    "clock_mhz", "clock_lo", "clock_hi",
                                        "seconds", "part",      "t_s",      "power_w",
                                        "tensor_fma_clk_sm", "gbs",     "nvml_mhz",
                                        "temp_c"};
    CHECK(b && b->ncols == 12);
    for (int c = 0; b && c < b->ncols && c < 12; c++) {
        CHECK(!strcmp(b->cols[c].name, names[c]));
        CHECK(b->cols[c].late == (c >= 5));
        if (c >= 5)
            CHECK(b->cols[c].use == GC_BCOL_OPTIONAL);
    }
    const gc_bench_col_t *part = col_of(b, "part");
    CHECK(has_choice(part, "settled") && has_choice(part, "unsettled") &&
          has_choice(part, "sample") && !has_choice(part, "idle"));
    const gc_bench_col_t *t = col_of(b, "t_s"), *w = col_of(b, "power_w");
    CHECK(t && t->type == GC_BCOL_NUM && t->lo == 0 && !strcmp(t->unit, "s"));
    CHECK(w && w->type == GC_BCOL_NUM && w->lo == 0 && !strcmp(w->unit, "W"));
    const gc_bench_col_t *r = col_of(b, "tensor_fma_clk_sm");
    CHECK(r && r->type == GC_BCOL_NUM && r->lo == 0 && !strcmp(r->unit, "FMA/clk/SM"));
}

int main(void)
{
    const char *src = getenv("GC_SRC");
    well_formed();
    clock_columns();
    if (src) {
        traces_match(src, "h100", "cold");
        traces_match(src, "h200", NULL);
    }
    return gc_check_failures ? 1 : 0;
}
