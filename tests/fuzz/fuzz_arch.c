/* fuzz_arch.c - libFuzzer target: the arch YAML loader on any bytes.
 * Property checked beyond "no crash, no leak": whatever loads must emit
 * and load back to an equal arch (the writer's round-trip promise). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "arch/arch.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    gc_warn_set_quiet(1);
    gc_arch_t *a = NULL, *b = NULL;
    gc_err_t e;
    if (gc_arch_parse(&a, "fuzz.yaml", (const char *)data, size, &e) != 0) {
        if (!e.msg[0] || e.code == 0)
            abort(); /* a failure must say what is wrong */
        return 0;
    }
    char *txt = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&txt, &n);
    if (!m || gc_arch_emit(a, m, &e) != 0)
        abort();
    fclose(m);
    if (gc_arch_parse(&b, "emitted.yaml", txt, n, &e) != 0) {
        fprintf(stderr, "re-parse of emitted YAML failed: %s\n%s\n", e.msg, txt);
        abort();
    }
    char diff[512];
    if (!gc_arch_equal(a, b, diff, sizeof(diff))) {
        fprintf(stderr, "round trip differs: %s\n", diff);
        abort();
    }
    free(txt);
    gc_arch_destroy(a);
    gc_arch_destroy(b);
    return 0;
}
