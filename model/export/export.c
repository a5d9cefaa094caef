/* export.c - the exporters' registry and the one writer they share
 * (export.h): render, validate, create the folder, write atomically. */
#define _POSIX_C_SOURCE 200809L
#include "export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/fsio.h"

extern const gc_exporter_t gc_exporter_accelsim; /* accelsim.c */

/* Every export format; a new one is one row (export.h). */
static const gc_exporter_t *const exporters[] = {&gc_exporter_accelsim};

size_t gc_exporter_list(const gc_exporter_t *const **list)
{
    *list = exporters;
    return sizeof(exporters) / sizeof(exporters[0]);
}

const gc_exporter_t *gc_exporter_find(const char *name)
{
    for (size_t i = 0; i < sizeof(exporters) / sizeof(exporters[0]); i++)
        if (!strcmp(exporters[i]->name, name))
            return exporters[i];
    return NULL;
}

/* The validator on exactly the bytes about to be written: a failure is a
 * gpucal bug (GC_ERUN). */
static int validate(const gc_exporter_t *x, char *const *text, gc_err_t *err)
{
    gc_err_t ve;
    gc_err_clear(&ve);
    int rc = x->check(x->files, text, x->n_files, &ve);
    if (rc == GC_ENOMEM)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    if (rc)
        return gc_err_set(err, GC_ERUN,
                          "the exported config fails the validator (a gpucal bug, please report "
                          "it): %s",
                          ve.msg);
    return 0;
}

/* Write text[i] to dir/files[i], all or nothing: every file is opened
 * first (refused if it exists and !force), then written, then committed. */
static int write_all(const gc_exporter_t *x, char *const *text, const char *dir, int force,
                     gc_err_t *err)
{
    gc_afile_t af[GC_EXPORT_FILES_MAX];
    memset(af, 0, sizeof(af));
    char path[4096];
    if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, x->files[0]) >= sizeof(path))
        return gc_err_set(err, GC_EUSAGE, "output folder name too long");
    int rc = gc_mkdir_p(dir, err);
    size_t opened = 0;
    for (; !rc && opened < x->n_files; opened++) {
        snprintf(path, sizeof(path), "%s/%s", dir, x->files[opened]);
        if ((rc = gc_afile_open(&af[opened], path, force ? GC_AFILE_FORCE : 0, err)) != 0)
            break;
    }
    for (size_t i = 0; !rc && i < x->n_files; i++)
        if (fputs(text[i], af[i].fp) == EOF)
            rc = gc_err_set(err, GC_EIO, "%s: write failed: %s", dir, strerror(errno));
    for (size_t i = 0; !rc && i < x->n_files; i++)
        rc = gc_afile_commit(&af[i], err);
    /* what was opened and not committed is removed (a no-op on the others) */
    for (size_t i = 0; rc && i < opened; i++)
        gc_afile_abort(&af[i]);
    return rc;
}

int gc_export_write(const gc_exporter_t *x, const gc_arch_t *a, const gc_export_opts_t *o,
                    const char *dir, int force, gc_export_info_t *info, gc_err_t *err)
{
    gc_export_info_t scratch;
    if (!info)
        info = &scratch;
    char *text[GC_EXPORT_FILES_MAX] = {NULL};
    int rc = x->render(a, o, text, info, err);
    if (!rc)
        rc = validate(x, text, err);
    if (!rc)
        rc = write_all(x, text, dir, force, err);
    if (!rc && info->note[0])
        gc_warn_at(NULL, 0, 0, "%s", info->note);
    for (size_t i = 0; i < x->n_files; i++)
        free(text[i]);
    return rc;
}
