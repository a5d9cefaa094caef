/* fuzz_trace.c - libFuzzer target: the trace reader on any bytes (through
 * a memory-backed file), every row, every cell parsed as a number. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "traces/trace.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static char path[64];
    static int fd = -1;
    if (fd < 0) {
        fd = memfd_create("fuzz_trace", 0);
        if (fd < 0)
            abort();
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    gc_trace_reader_t *r;
    gc_err_t e;
    if (gc_trace_open(&r, path, &e) != 0) {
        if (!e.msg[0])
            abort();
        return 0;
    }
    int rc;
    while ((rc = gc_trace_next(r, &e)) > 0) {
        for (int i = 0; i < gc_trace_ncols(r); i++) {
            double v;
            long l;
            if (!gc_trace_cell(r, i))
                abort();
            gc_trace_num(r, i, &v, &e);
            gc_trace_long(r, i, &l, &e);
        }
    }
    if (rc < 0 && !e.msg[0])
        abort();
    (void)gc_trace_complete(r);
    for (size_t i = 0; i < gc_trace_meta_count(r); i++) {
        const char *k, *v;
        gc_trace_meta_at(r, i, &k, &v);
        if (!k || !v)
            abort();
    }
    gc_trace_close(r);
    return 0;
}
