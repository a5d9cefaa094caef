/* test_arch.c - gpucal-arch/1: every shipped file and every good fixture
 * round-trips exactly (load -> emit -> load gives equal values); values
 * built through the API round-trip bit for bit; lookups work. Bad input is
 * covered by tests/fixtures/arch/bad (one line, exit 2, each message). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "arch/arch.h"

/* Load path, emit to memory, parse back, compare; emitting again must give
 * the same bytes (the writer is deterministic). Returns 1 if ok. */
static int round_trip(const char *path)
{
    gc_arch_t *a = NULL, *b = NULL;
    gc_err_t e;
    gc_err_clear(&e);
    if (gc_arch_load(&a, path, &e) != 0) {
        fprintf(stderr, "%s: %s\n", path, e.msg);
        return 0;
    }
    char *t1 = NULL, *t2 = NULL;
    size_t n1 = 0, n2 = 0;
    FILE *m = open_memstream(&t1, &n1);
    CHECK(gc_arch_emit(a, m, &e) == 0);
    fclose(m);
    int ok = gc_arch_parse(&b, "emitted", t1, n1, &e) == 0;
    if (!ok)
        fprintf(stderr, "%s: re-parse failed: %s\n%s\n", path, e.msg, t1);
    char diff[512] = "";
    if (ok && !gc_arch_equal(a, b, diff, sizeof(diff))) {
        fprintf(stderr, "%s: round trip differs: %s\n", path, diff);
        ok = 0;
    }
    if (ok) {
        m = open_memstream(&t2, &n2);
        gc_arch_emit(b, m, &e);
        fclose(m);
        if (n1 != n2 || memcmp(t1, t2, n1) != 0) {
            fprintf(stderr, "%s: second emit differs from the first\n", path);
            ok = 0;
        }
    }
    free(t1);
    free(t2);
    gc_arch_destroy(a);
    gc_arch_destroy(b);
    return ok;
}

static int round_trip_dir(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".yaml"))
            continue;
        char p[1024];
        snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
        CHECK(round_trip(p));
        n++;
    }
    closedir(d);
    return n;
}

/* Values built through the API, including awkward doubles, round-trip
 * bit for bit, intervals and sources too. */
static void test_api_round_trip(void)
{
    gc_arch_t *a = gc_arch_create();
    a->name = gc_arch_str(a, "synthetic");
    a->family = gc_arch_str(a, "hopper");
    a->device = gc_arch_str(a, "true"); /* a name that looks like a boolean */
    a->cc = gc_arch_str(a, "9.0");
    gc_qty_put(a, &a->sm.count, 132, 1, 0, "traces/h100/clock.csv");
    gc_qty_put(a, &a->sm.sub_cores, 4, 1, 0, NULL);
    gc_qty_put(a, &a->sm.clock_max_mhz, 1980, 1, 0, NULL);
    const double odd[] = {0.1, 1.0 / 3.0, 24.700000000000003, 1e-7, 99999.99999999999};
    gc_qty_put(a, &a->memory.l2.near_hit_cyc, odd[1], odd[1] - 0.01, odd[1] + 0.02,
               "k-means, cluster 1 of 4: \"near\" #1");
    gc_qty_put(a, &a->memory.l2.near_share, odd[3], 1, 0, NULL); /* 1e-7: a fraction may */
    gc_qty_put(a, &a->memory.l2.far_hit_cyc, odd[2], 1, 0, NULL);
    gc_qty_put(a, &a->memory.l1.latency_cyc, odd[0], 1, 0, NULL); /* cycles: >= 1e-3 */
    gc_qty_put(a, &a->memory.dram.latency_cyc, odd[4], 1, 0, NULL);
    a->n_tensor = 2;
    a->tensor = gc_arch_list(a, sizeof(gc_tensor_t), 2);
    for (int i = 0; i < 2; i++) {
        gc_tensor_t *t = &a->tensor[i];
        t->inst = gc_arch_str(a, "wgmma");
        t->shape = gc_arch_str(a, "m64n256k16");
        t->a = gc_arch_str(a, "f16");
        t->c = gc_arch_str(a, "f32");
        t->operands = gc_arch_str(a, "ss");
        t->data = gc_arch_str(a, i ? "rand" : "zero");
        gc_qty_put(a, &t->latency_cyc, 128 + i, 127, 130, "x");
    }
    char *txt = NULL;
    size_t n = 0;
    gc_err_t e;
    FILE *m = open_memstream(&txt, &n);
    CHECK(gc_arch_emit(a, m, &e) == 0);
    fclose(m);
    gc_arch_t *b = NULL;
    CHECK(gc_arch_parse(&b, "api", txt, n, &e) == 0);
    if (b) {
        char diff[256];
        CHECK(gc_arch_equal(a, b, diff, sizeof(diff)));
        CHECK(b->memory.l2.near_hit_cyc.v == odd[1]);
        CHECK(b->memory.l2.far_hit_cyc.v == odd[2]);
        CHECK(b->memory.dram.latency_cyc.v == odd[4]);
        CHECK_STR(b->device, "true");
        CHECK_STR(b->memory.l2.near_hit_cyc.src, "k-means, cluster 1 of 4: \"near\" #1");
        CHECK(b->memory.l2.near_hit_cyc.has_ci);
        /* lookups: rand preferred over zero */
        const gc_tensor_t *t = gc_arch_tensor(b, "wgmma", "m64n256k16", "f16", "f32", "ss");
        CHECK(t && !strcmp(t->data, "rand"));
        CHECK(gc_arch_tensor(b, "mma", "m16n8k16", "f16", "f32", NULL) == NULL);
        CHECK(gc_arch_cc(b) == 90);
    }
    /* non-integer fields always carry a decimal point in the text */
    CHECK_HAS(txt, "clock_max_mhz: 1980.0");
    CHECK_HAS(txt, "count: {value: 132,");
    CHECK_HAS(txt, "cc: \"9.0\"");
    free(txt);
    /* a changed value is detected */
    if (b) {
        char diff[256];
        b->memory.l2.near_share.v += 1e-12;
        CHECK(!gc_arch_equal(a, b, diff, sizeof(diff)));
        CHECK_HAS(diff, "memory.l2.near_share");
    }
    gc_arch_destroy(a);
    gc_arch_destroy(b);
}

int main(void)
{
    const char *src = getenv("GC_SRC");
    char p[1024];
    snprintf(p, sizeof(p), "%s/tests/fixtures/arch/good", src ? src : "..");
    CHECK(round_trip_dir(p) >= 1);
    int shipped = round_trip_dir(gc_arch_dir());
    printf("round trip: %d shipped arch files\n", shipped);
    test_api_round_trip();
    CHECK_DONE();
}
