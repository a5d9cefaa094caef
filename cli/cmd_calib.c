/* cmd_calib.c - `gpucal calib DIR -o FILE`: a folder of traces -> an arch
 * file, and `gpucal calib --check TRACE`: one trace read as calib reads it.
 * The work is calib/calib.c; this file parses options, saves atomically
 * (gc_arch_save: temp file + rename, no clobber without --force) and turns
 * errors into the one-line message and exit status. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../calib/calib.h"
#include "../arch/arch.h"
#include "../util/fsio.h"
#include "../util/iotrack.h"
#include "cli.h"

void gc_usage_calib(FILE *fp)
{
    fprintf(fp,
            "usage: gpucal calib DIR -o FILE [--name NAME] [--force] [--near-map CSV] [--quiet]\n"
            "       gpucal calib --check TRACE\n\n"
            "Fit the traces of one GPU (the folder `gpucal measure --out DIR` wrote) into an\n"
            "architecture file (schema gpucal-arch/1). Every value is fitted from the traces,\n"
            "with a 95%% interval where the method gives one and a source naming the trace\n"
            "file and the method (calib/README.md):\n"
            "  mma, mma_sp, wgmma   pipe-model fits (GSL) of the ILP x warps sweeps: latency,\n"
            "                       issue interval, overhead, sub-cores, peak, convergence\n"
            "  alu, ldmatrix, smem  latencies, peaks, bank-conflict penalty (linear fit)\n"
            "  pchase               L1/L2/DRAM latency plateaus, L1 and L2 sizes, partition\n"
            "  pchase_fine          k-means of per-access latencies: L2 near/far hit/miss\n"
            "  bw, clock            bandwidth per level, sustained clocks\n"
            "Device facts come from the trace headers. A bench missing from DIR leaves its\n"
            "keys out; a value the data cannot support is left out with a warning. The\n"
            "same DIR always gives the same file, byte for byte.\n\n"
            "options:\n"
            "  -o, --output FILE   the arch file to write (atomically); required\n"
            "  -n, --name NAME     the arch name, [a-z0-9-] (default: FILE's name without .yaml)\n"
            "  -f, --force         replace FILE (and the --near-map file) if it exists\n"
            "      --near-map CSV  also write the per-SM map of near/far L2 address ranges\n"
            "                      (sm,array_bytes,offset_lo,offset_hi,partition,accesses)\n"
            "  -q, --quiet         no progress lines (warnings are still printed)\n"
            "      --check TRACE   read one trace the way calib does and say what it holds;\n"
            "                      a bad trace gives one line FILE:LINE:COL and exit 2\n"
            "  -h, --help          this text\n\n"
            "exit status: 0 written, 1 the traces cannot support a required key or a write\n"
            "failed, 2 bad usage or a malformed trace (one line FILE:LINE:COL: ...).\n");
}

/* The default name: FILE's base name without .yaml/.yml. */
static int name_from_output(const char *out, char *name, size_t n)
{
    const char *b = strrchr(out, '/');
    b = b ? b + 1 : out;
    size_t len = strlen(b);
    if (len > 5 && !strcmp(b + len - 5, ".yaml"))
        len -= 5;
    else if (len > 4 && !strcmp(b + len - 4, ".yml"))
        len -= 4;
    if (len == 0 || len >= n)
        return -1;
    memcpy(name, b, len);
    name[len] = '\0';
    return 0;
}

static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
            return 0;
    return 1;
}

static int check_one(const char *path)
{
    char summary[512];
    gc_err_t e;
    gc_err_clear(&e);
    if (gc_calib_check(path, summary, sizeof(summary), &e) != 0)
        return gc_cli_fail(&e);
    printf("%s: ok (%s)\n", path, summary);
    return 0;
}

/* The run, with both outputs opened (as temporary files beside them)
 * before the fit, so that a path that cannot be written is found at once;
 * the arch is saved (atomically) after the fit, and the near map, held in
 * its temporary file, is moved into place only after that: a failed run
 * leaves no file behind. The map is kept only when calib wrote one. */
static int run_calib(const char *dir, const char *name, const char *out, const char *map,
                     int force, int quiet)
{
    gc_err_t e;
    gc_err_clear(&e);
    gc_afile_t aout = {0}, amap = {0};
    int fl = force ? GC_AFILE_FORCE : 0;
    gc_io_note_inputs_in(dir, ".csv"); /* the traces: no output may be one of them */
    if (gc_afile_open(&aout, out, fl, &e) != 0)
        return gc_cli_fail(&e);
    if (map && gc_afile_open(&amap, map, fl, &e) != 0) {
        gc_afile_abort(&aout);
        return gc_cli_fail(&e);
    }
    gc_calib_opts_t o = {.dir = dir,
                         .name = name,
                         .out = out,
                         .near_map = map,
                         .near_map_fp = amap.fp,
                         .force = force,
                         .quiet = quiet};
    gc_afile_abort(&aout); /* it could be opened: gc_arch_save writes it at the end */
    gc_arch_t *a = NULL;
    int rc = gc_calib_run(&o, &a, &e);
    if (!rc)
        rc = gc_arch_save(a, out, force, &e);
    gc_arch_destroy(a);
    if (!rc && amap.fp && ftell(amap.fp) > 0)
        rc = gc_afile_commit(&amap, &e);
    gc_afile_abort(&amap);
    if (rc)
        return gc_cli_fail(&e);
    if (!quiet)
        fprintf(stderr, "calib: wrote %s\n", out);
    return 0;
}

/* The options of `gpucal calib`. */
typedef struct calib_args {
    const char *out, *name, *map, *check;
    int force, quiet;
} calib_args_t;

/* Parse the options into A; -1 to go on, else the exit status (help
 * printed, or a usage error). */
static int parse_args(int argc, char **argv, calib_args_t *A)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"name", required_argument, NULL, 'n'},
        {"force", no_argument, NULL, 'f'},        {"near-map", required_argument, NULL, 'm'},
        {"quiet", no_argument, NULL, 'q'},        {"check", required_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
    const char *cmd = "gpucal calib";
    int c;
    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, ":o:n:fqh", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            A->out = optarg;
            break;
        case 'n':
            A->name = optarg;
            break;
        case 'f':
            A->force = 1;
            break;
        case 'm':
            A->map = optarg;
            break;
        case 'q':
            A->quiet = 1;
            break;
        case 'c':
            A->check = optarg;
            break;
        case 'h':
            gc_usage_calib(stdout);
            return 0;
        case ':':
            return gc_cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
        default:
            return gc_cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
        }
    }
    return -1;
}

int gc_cmd_calib(int argc, char **argv)
{
    const char *cmd = "gpucal calib";
    calib_args_t A = {NULL, NULL, NULL, NULL, 0, 0};
    int st = parse_args(argc, argv, &A);
    if (st >= 0)
        return st;
    const char *out = A.out, *name = A.name, *map = A.map, *check = A.check;
    int force = A.force, quiet = A.quiet;
    if (check) {
        if (optind < argc || out || name || map || force)
            return gc_cli_usage_error(cmd, "--check takes one TRACE and no other option");
        return check_one(check);
    }
    if (optind >= argc)
        return gc_cli_usage_error(cmd, "give the trace folder DIR");
    if (optind + 1 < argc)
        return gc_cli_usage_error(cmd, "one trace folder at a time, got '%s' and '%s'",
                                  argv[optind], argv[optind + 1]);
    const char *dir = argv[optind];
    if (!out)
        return gc_cli_usage_error(cmd, "give the arch file to write with -o FILE");
    char defname[128];
    if (!name) {
        if (name_from_output(out, defname, sizeof(defname)) != 0 || !valid_name(defname))
            return gc_cli_usage_error(cmd,
                                      "'%s' does not give an arch name of [a-z0-9-] "
                                      "(give --name NAME)",
                                      out);
        name = defname;
    } else if (!valid_name(name)) {
        return gc_cli_usage_error(cmd, "--name '%s': use lower case letters, digits and '-'", name);
    }
    if (map && gc_path_same(map, out)) /* any spelling, link or symlink of one file */
        return gc_cli_usage_error(cmd, "--near-map '%s' and -o '%s' name the same file", map,
                                  out);
    gc_err_t e;
    gc_err_clear(&e);
    /* refuse before the work; gc_arch_save checks again, atomically */
    if (!force && gc_path_exists(out)) {
        gc_err_set(&e, GC_EEXIST,
                   "%s: already exists; refusing to overwrite it (pass --force "
                   "to replace it, or choose another output)",
                   out);
        return gc_cli_fail(&e);
    }
    if (!force && map && gc_path_exists(map)) {
        gc_err_set(&e, GC_EEXIST,
                   "%s: already exists; refusing to overwrite it (pass --force "
                   "to replace it, or choose another --near-map)",
                   map);
        return gc_cli_fail(&e);
    }
    return run_calib(dir, name, out, map, force, quiet);
}
