/* test_export_check.c - the validator of simulator configs: the compiled-in
 * option list is the reference list; the parser reads what the simulator
 * reads (comments, quotes over lines, values after comments stripped);
 * checks across files; limits; and, where the shared reference configs are
 * present, the SM86 reference passes and the work-in-progress H100 one is
 * refused for its IPOLY indexing. Single-option failures are covered by the
 * bad-input fixtures in tests/fixtures/export/bad. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model/export/simcheck.h"
#include "util/fsio.h"

static const char *src(void)
{
    const char *s = getenv("GC_SRC");
    return s && *s ? s : "..";
}

/* Check text as one file; 0 ok, else the error code (message in e). */
static int check_text(const char *text, gc_err_t *e)
{
    gc_simcheck_t *sc = gc_simcheck_create();
    gc_err_clear(e);
    int rc = gc_simcheck_add(sc, "t.config", text, strlen(text), e);
    if (!rc)
        rc = gc_simcheck_done(sc, e);
    gc_simcheck_destroy(sc);
    return rc;
}

static void test_names(void)
{
    const char *const *names;
    size_t n = gc_simcheck_names(&names);
    for (size_t i = 1; i < n; i++)
        CHECK(strcmp(names[i - 1], names[i]) < 0);
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/fixtures/export/option-names.txt", src());
    char *buf;
    size_t len;
    gc_err_t e;
    CHECK(gc_file_read(path, 1 << 20, &buf, &len, &e) == 0);
    if (!buf)
        return;
    size_t k = 0;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        if (k < n)
            CHECK_STR(names[k], line);
        k++;
    }
    CHECK(k == n);
    free(buf);
    CHECK(gc_simcheck_known("-gpgpu_n_mem"));
    CHECK(gc_simcheck_known("-ptx_opcode_latency_tesnor"));
    CHECK(!gc_simcheck_known("-ptx_opcode_latency_tensor"));
    CHECK(!gc_simcheck_known("nbk")); /* a DRAM timing sub-option, not an option */
    CHECK(!gc_simcheck_known("-config"));
}

/* Typed values: numbers, caches, indexing, PTX lists. */
static void test_values(void)
{
    gc_err_t e;
    /* numbers */
    CHECK(check_text("-gpgpu_n_mem 16.5\n", &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "not a whole number");
    CHECK(check_text("-gpgpu_mem_address_mask -1\n", &e) == 0);
    CHECK(check_text("-gpgpu_flush_l1_cache 2\n", &e) == GC_EINPUT);
    CHECK(check_text("-gpgpu_clock_domains 1410.5:1410.5:1410.5:1215\n", &e) == 0);
    CHECK(check_text("-gpgpu_clock_domains 1410:1410:1410\n", &e) == GC_EINPUT);
    CHECK(check_text("-gpgpu_scheduler two_level_active:6:0:1\n", &e) == 0);
    CHECK(check_text("-gpgpu_scheduler fifo\n", &e) == GC_EINPUT);
    /* caches */
    CHECK(check_text("-gpgpu_cache:dl1 none\n", &e) == 0);
    CHECK(check_text("-gpgpu_cache:il1 N:64:128:16,L:R:f:N:L,S:2:48,4\n", &e) == 0);
    CHECK(check_text("-gpgpu_cache:il1 N:64:128:16,L:R:f:N,S:2:48,4\n", &e) == GC_EINPUT);
    CHECK(check_text("-gpgpu_cache:dl1 S:3:128:256,L:T:m:L:L,A:384:48,16:0,32\n", &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "power-of-two number of sets");
    CHECK(check_text("-gpgpu_cache:dl1 S:4:128:256,L:T:m:L:L,A:384:48,16:0,48\n", &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "data port width");
    /* XOR indexing wants a power of two */
    CHECK(check_text("-gpgpu_n_mem 8\n-gpgpu_memory_partition_indexing 1\n", &e) == 0);
    CHECK(check_text("-gpgpu_n_mem 80\n-gpgpu_memory_partition_indexing 1\n", &e) == GC_EINPUT);
    CHECK(check_text("-gpgpu_n_mem 80\n-gpgpu_memory_partition_indexing 0\n", &e) == 0);
    CHECK(check_text("-gpgpu_memory_partition_indexing 7\n", &e) == GC_EINPUT);
    /* PTX lists: counts, positives, latency >= initiation */
    CHECK(check_text("-ptx_opcode_latency_int 4,13,4,5,145,21\n", &e) == 0);
    CHECK(check_text("-ptx_opcode_latency_fp 4,4,4,4\n", &e) == GC_EINPUT);
    CHECK(check_text("-ptx_opcode_latency_fp 4,4,4,4,39\n-ptx_opcode_initiation_fp 1,1,8,1,2\n",
                     &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "field 3: initiation interval 8 exceeds the latency 4");
    /* a trace pair deeper than the unit's pipeline */
    CHECK(check_text("-ptx_opcode_latency_fp 4,4,4,4,39\n"
                     "-trace_opcode_latency_initiation_sp 8,2\n",
                     &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "MAX field of -ptx_opcode_latency_fp");
    /* sub-core model: register banks and collectors per scheduler */
    CHECK(check_text("-gpgpu_sub_core_model 1\n-gpgpu_num_sched_per_core 4\n"
                     "-gpgpu_num_reg_banks 6\n",
                     &e) == GC_EINPUT);
    CHECK(check_text("-gpgpu_sub_core_model 1\n-gpgpu_num_sched_per_core 4\n"
                     "-gpgpu_enable_specialized_operand_collector 0\n"
                     "-gpgpu_operand_collector_num_units_gen 6\n",
                     &e) == GC_EINPUT);
    /* DRAM map vs timing, shared memory vs the unified L1 */
    CHECK(check_text("-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000."
                     "0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS\n"
                     "-gpgpu_dram_timing_opt nbk=8:CCD=4\n",
                     &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "nbk=8");
    CHECK(check_text("-gpgpu_dram_timing_opt nbk=16:XYZ=4\n", &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "'XYZ' is not a DRAM timing parameter");
    CHECK(check_text("-gpgpu_adaptive_cache_config 1\n-gpgpu_unified_l1d_size 128\n"
                     "-gpgpu_shmem_option 0,8,16,32,64,100,132\n",
                     &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "largest carve-out 132 KB");
    CHECK(check_text("-gpgpu_shmem_option 0,16,8\n", &e) == GC_EINPUT);
    CHECK(check_text("-gpgpu_adaptive_cache_config 1\n-gpgpu_unified_l1d_size 128\n"
                     "-gpgpu_shmem_option 0,64,100\n"
                     "-gpgpu_cache:dl1 S:4:128:96,L:T:m:L:L,A:384:48,16:0,32\n",
                     &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "do not divide -gpgpu_unified_l1d_size");
    CHECK(check_text("-gpgpu_shmem_size 102400\n-gpgpu_shmem_per_block 110000\n", &e) == GC_EINPUT);
}

static void test_parser(void)
{
    gc_err_t e;
    const char *good = "# comment\n"
                       "-gpgpu_n_mem 16 # a comment after the value\n"
                       "-gpgpu_dram_timing_opt \"nbk=16:CCD=1:RRD=3:\n"
                       "                        RCD=12:nbkgrp=4\"   # HBM\n"
                       "-gpgpu_mem_addr_mapping dramid@8;00000000.00000000.00000000.00000000."
                       "0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS\n"
                       "-gpgpu_n_sub_partition_per_mchannel 2\n"
                       "-gpgpu_memory_partition_indexing 2\n";
    gc_simcheck_t *sc = gc_simcheck_create();
    gc_err_clear(&e);
    CHECK(gc_simcheck_add(sc, "good.config", good, strlen(good), &e) == 0);
    CHECK(gc_simcheck_done(sc, &e) == 0);
    CHECK(gc_simcheck_count(sc) == 5);
    CHECK_STR(gc_simcheck_value(sc, "-gpgpu_n_mem"), "16");
    const char *t = gc_simcheck_value(sc, "-gpgpu_dram_timing_opt");
    CHECK_HAS(t, "nbk=16:CCD=1:RRD=3:");
    CHECK_HAS(t, "RCD=12:nbkgrp=4");
    CHECK(gc_simcheck_value(sc, "-gpgpu_n_clusters") == NULL);
    gc_simcheck_destroy(sc);

    /* the place of an error: the value's line and column */
    CHECK(check_text("\n\n   -gpgpu_n_clusters  X\n", &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "t.config:3:23: -gpgpu_n_clusters: placeholder 'X'");
    /* a quoted value that never closes */
    CHECK(check_text("-gpgpu_dram_timing_opt \"nbk=16\n", &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "never closed");
    /* control bytes, non-ASCII outside comments */
    CHECK(check_text("-gpgpu_n_mem 1\0016\n", &e) == GC_EINPUT);
    CHECK(check_text("# caf\xc3\xa9\n-gpgpu_n_mem 16\n", &e) == 0);
    CHECK(check_text("-gpgpu_n_mem 16\xc3\xa9\n", &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "non-ASCII");
    test_values();
}

static void test_cross_files(void)
{
    gc_err_t e;
    gc_err_clear(&e);
    const char *a = "-gpgpu_sub_core_model 1\n-gpgpu_num_sched_per_core 4\n";
    const char *b = "# trace.config\n-specialized_unit_1 1,4,4,2,4,BRA\n";
    gc_simcheck_t *sc = gc_simcheck_create();
    CHECK(gc_simcheck_add(sc, "gpgpusim.config", a, strlen(a), &e) == 0);
    CHECK(gc_simcheck_add(sc, "trace.config", b, strlen(b), &e) == 0);
    CHECK(gc_simcheck_done(sc, &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "trace.config:2:21: -specialized_unit_1: field 4 (ID_OC) is 2");
    gc_simcheck_destroy(sc);
    /* the same option in two files of one simulation */
    sc = gc_simcheck_create();
    CHECK(gc_simcheck_add(sc, "a.config", "-gpgpu_n_mem 16\n", 16, &e) == 0);
    CHECK(gc_simcheck_add(sc, "b.config", "-gpgpu_n_mem 16\n", 16, &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "b.config:1:1: -gpgpu_n_mem is given twice (first at a.config:1:1)");
    gc_simcheck_destroy(sc);
}

static void test_limits(void)
{
    gc_err_t e;
    size_t n = 5000 * 20;
    char *big = malloc(n + 1), *p = big;
    for (int i = 0; i < 5000; i++)
        p += snprintf(p, 21, "-gpgpu_n_mem %d\n", i % 10 + 1);
    *p = '\0';
    CHECK(check_text(big, &e) == GC_EINPUT); /* given twice, before the option limit */
    p = big;
    for (int i = 0; i < 5000; i++)
        p += snprintf(p, 21, "-gpgpu_n_mem%s", i ? "" : " ");
    CHECK(check_text(big, &e) == GC_ELIMIT);
    CHECK_HAS(e.msg, "longer than");
    free(big);
}

static void test_reference(void)
{
    char g[1024], t[1024];
    snprintf(g, sizeof(g), "%s/../shared/reference/accel-sim/SM86_RTX3070.gpgpusim.config", src());
    snprintf(t, sizeof(t), "%s/../shared/reference/accel-sim/SM86_RTX3070.trace.config", src());
    if (!gc_path_exists(g)) {
        printf("shared reference configs not found beside the source: skipped\n");
        return;
    }
    gc_err_t e;
    gc_err_clear(&e);
    gc_simcheck_t *sc = gc_simcheck_create();
    CHECK(gc_simcheck_file(sc, g, &e) == 0);
    CHECK(gc_simcheck_file(sc, t, &e) == 0);
    CHECK(gc_simcheck_done(sc, &e) == 0);
    if (e.code)
        fprintf(stderr, "%s\n", e.msg);
    CHECK(gc_simcheck_count(sc) == 120);
    gc_simcheck_destroy(sc);
    /* upstream's work-in-progress H100 config: 80 channels with IPOLY */
    snprintf(g, sizeof(g), "%s/../shared/reference/accel-sim/SM90_H100.h100-test.gpgpusim.config",
             src());
    sc = gc_simcheck_create();
    CHECK(gc_simcheck_file(sc, g, &e) == 0);
    CHECK(gc_simcheck_done(sc, &e) == GC_EINPUT);
    CHECK_HAS(e.msg, "IPOLY indexing (2) needs 16, 32 or 64 memory channels, -gpgpu_n_mem is 80");
    gc_simcheck_destroy(sc);
}

int main(void)
{
    test_names();
    test_parser();
    test_cross_files();
    test_limits();
    test_reference();
    CHECK_DONE();
}
