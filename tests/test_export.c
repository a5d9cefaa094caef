/* test_export.c - the exporter interface (model/export/export.h): the
 * registry, and the shared writer on a toy exporter of three files: all
 * written, nothing written when the validator refuses (GC_ERUN) or a file
 * exists (GC_EEXIST), everything replaced with force, the note kept. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"
#include "model/export/export.h"
#include "util/fsio.h"
#include "check.h"

static int refuse; /* the toy validator's answer */

static int toy_render(const gc_arch_t *a, const gc_export_opts_t *o, char **text,
                      gc_export_info_t *info, gc_err_t *err)
{
    (void)o;
    (void)err;
    memset(info, 0, sizeof(*info));
    for (int i = 0; i < 3; i++) {
        text[i] = malloc(64);
        snprintf(text[i], 64, "%s file %d\n", a->name, i);
    }
    info->n_options = 3;
    snprintf(info->note, sizeof(info->note), "toy note");
    return 0;
}

static int toy_check(const char *const *names, char *const *text, size_t n, gc_err_t *err)
{
    (void)text;
    return refuse ? gc_err_set(err, GC_EINPUT, "%s:1:1: refused (%zu files)", names[0], n) : 0;
}

static const gc_exporter_t toy = {"toy", {"a.cfg", "b.cfg", "c.cfg"}, 3, toy_render, toy_check,
                                  NULL, NULL, NULL};

static int exists(const char *dir, const char *f)
{
    char p[1024];
    snprintf(p, sizeof(p), "%s/%s", dir, f);
    return access(p, F_OK) == 0;
}

int main(void)
{
    const gc_exporter_t *const *xs;
    CHECK(gc_exporter_list(&xs) >= 1 && xs[0] == gc_exporter_find("accel-sim"));
    CHECK(gc_exporter_find("accel-sim")->n_files == 2);
    CHECK(gc_exporter_find("nope") == NULL);

    char dir[] = "/tmp/gc_test_export_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char sub[1100];
    snprintf(sub, sizeof(sub), "%s/out", dir);
    gc_arch_t *a = gc_arch_create();
    a->name = "toyarch";
    gc_err_t e;
    gc_export_info_t info;
    /* the validator refuses: a gpucal bug, nothing written */
    refuse = 1;
    gc_err_clear(&e);
    CHECK(gc_export_write(&toy, a, NULL, sub, 0, &info, &e) == GC_ERUN);
    CHECK_HAS(e.msg, "fails the validator");
    CHECK_HAS(e.msg, "a.cfg:1:1: refused (3 files)");
    CHECK(!exists(sub, "a.cfg"));
    /* accepted: all three written */
    refuse = 0;
    CHECK(gc_export_write(&toy, a, NULL, sub, 0, &info, &e) == 0);
    CHECK(exists(sub, "a.cfg") && exists(sub, "b.cfg") && exists(sub, "c.cfg"));
    CHECK_STR(info.note, "toy note");
    /* one file exists: refused without force, nothing replaced */
    char p[1200];
    snprintf(p, sizeof(p), "%s/a.cfg", sub);
    unlink(p);
    gc_err_clear(&e);
    CHECK(gc_export_write(&toy, a, NULL, sub, 0, &info, &e) == GC_EEXIST);
    CHECK(!exists(sub, "a.cfg"));
    CHECK(gc_export_write(&toy, a, NULL, sub, 1, &info, &e) == 0 && exists(sub, "a.cfg"));
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof(p), "%s/%c.cfg", sub, 'a' + i);
        unlink(p);
    }
    rmdir(sub);
    rmdir(dir);
    a->name = NULL;
    gc_arch_destroy(a);
    return gc_check_failures ? 1 : 0;
}
