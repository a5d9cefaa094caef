/* sass_fixture.h - a recorded cuobjdump dump from tests/fixtures/sass/,
 * parsed for the SASS-rule tests ($GC_SRC is the source folder). */
#ifndef GC_SASS_FIXTURE_H
#define GC_SASS_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "measure/measure.h"
#include "util/fsio.h"

/* Read and parse tests/fixtures/sass/NAME; a failure is a failed check and
 * NULL. The caller destroys the result. */
static gc_sass_t *gc_sass_fixture(const char *name)
{
    const char *src = getenv("GC_SRC");
    char path[1024];
    snprintf(path, sizeof(path), "%s/tests/fixtures/sass/%s", src ? src : "..", name);
    char *buf;
    size_t len;
    gc_err_t e;
    gc_sass_t *s = NULL;
    CHECK(gc_file_read(path, 1 << 24, &buf, &len, &e) == 0);
    if (buf) {
        CHECK(gc_sass_parse(&s, buf, len, &e) == 0);
        free(buf);
    }
    return s;
}

#endif
