/* cmd_arch.c - `gpucal arch list | show | validate | schema`. */
#define _GNU_SOURCE
#include <dirent.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../arch/arch.h"
#include "cli.h"

void gc_usage_arch(FILE *fp)
{
    fprintf(fp,
            "usage: gpucal arch list [--format text|csv]\n"
            "       gpucal arch show NAME|FILE [--format yaml|json]\n"
            "       gpucal arch validate [--require-sources] FILE...\n"
            "       gpucal arch schema\n\n"
            "Architecture files (schema gpucal-arch/1) hold everything the model knows about\n"
            "one GPU: SM limits and clocks, tensor-core forms, CUDA-core pipes, the memory\n"
            "hierarchy, numerics. Every value may carry a 95%% interval and its source.\n\n"
            "  list       the shipped architectures (folder: $GPUCAL_ARCH_DIR or %s)\n"
            "  show       print one, as YAML (default) or JSON\n"
            "  validate   check files against the schema; one line per problem, exit 2;\n"
            "             --require-sources also refuses any value without a source\n"
            "  schema     the key-by-key reference (Markdown; arch/README.md holds it)\n\n"
            "NAME is a shipped name (e.g. hopper-h800) or a path to a .yaml file.\n",
            gc_arch_dir());
}

static int parse_format(const char *cmd, int argc, char **argv, const char *const *allowed,
                        const char **fmt, int *first_arg, int *flag)
{
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"require-sources", no_argument, NULL, 'r'},
                                         {NULL, 0, NULL, 0}};
    opterr = 0;
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "hf:", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            gc_usage_arch(stdout);
            return 1;
        case 'f': {
            int ok = 0;
            for (const char *const *a = allowed; a && *a; a++)
                ok |= !strcmp(*a, optarg);
            if (!ok) {
                gc_cli_usage_error(cmd, "unknown --format '%s'", optarg);
                return -1;
            }
            *fmt = optarg;
            break;
        }
        case 'r':
            if (!flag) {
                gc_cli_usage_error(cmd, "unknown option '--require-sources'");
                return -1;
            }
            *flag = 1;
            break;
        default:
            gc_cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
            return -1;
        }
    }
    *first_arg = optind;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int arch_list(int argc, char **argv)
{
    static const char *const fmts[] = {"text", "csv", NULL};
    const char *fmt = "text";
    int first, rc = parse_format("gpucal arch list", argc, argv, fmts, &fmt, &first, NULL);
    if (rc)
        return rc > 0 ? 0 : 2;
    if (first < argc)
        return gc_cli_usage_error("gpucal arch list", "unexpected argument '%s'", argv[first]);
    const char *dir = gc_arch_dir();
    DIR *d = opendir(dir);
    if (!d) {
        gc_err_t e;
        gc_err_set(&e, GC_EIO, "%s: cannot open the arch folder (set GPUCAL_ARCH_DIR?)", dir);
        return gc_cli_fail(&e);
    }
    char *names[512];
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < 512) {
        size_t len = strlen(de->d_name);
        if (len > 5 && !strcmp(de->d_name + len - 5, ".yaml"))
            names[n++] = strndup(de->d_name, len - 5);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof(names[0]), by_name);
    int status = 0;
    if (!strcmp(fmt, "csv"))
        printf("name,family,cc,device,made_by\n");
    else
        printf("%-20s %-9s %-4s %-28s %s\n", "NAME", "FAMILY", "CC", "DEVICE", "MADE BY");
    for (int i = 0; i < n; i++) {
        gc_arch_t *a;
        gc_err_t e;
        gc_err_clear(&e);
        if (gc_arch_open(&a, names[i], &e) != 0) {
            status = gc_cli_fail(&e);
            free(names[i]);
            continue;
        }
        const char *by = a->provenance.made_by ? a->provenance.made_by : "";
        if (!strcmp(fmt, "csv"))
            printf("%s,%s,%s,%s,%s\n", a->name, a->family, a->cc, a->device, by);
        else
            printf("%-20s %-9s %-4s %-28s %s\n", a->name, a->family, a->cc, a->device, by);
        gc_arch_destroy(a);
        free(names[i]);
    }
    return status;
}

static int arch_show(int argc, char **argv)
{
    static const char *const fmts[] = {"yaml", "json", NULL};
    const char *fmt = "yaml";
    int first, rc = parse_format("gpucal arch show", argc, argv, fmts, &fmt, &first, NULL);
    if (rc)
        return rc > 0 ? 0 : 2;
    if (first != argc - 1)
        return gc_cli_usage_error("gpucal arch show", "give exactly one NAME or FILE");
    gc_arch_t *a;
    gc_err_t e;
    gc_err_clear(&e);
    if (gc_arch_open(&a, argv[first], &e) != 0)
        return gc_cli_fail(&e);
    rc = !strcmp(fmt, "json") ? gc_arch_emit_json(a, stdout) : gc_arch_emit(a, stdout, &e);
    gc_arch_destroy(a);
    return rc ? gc_cli_fail(&e) : 0;
}

typedef struct src_check {
    const char *file;
    int missing;
    char first[GC_ERR_MSG_MAX];
} src_check_t;

static int count_unsourced(const gc_arch_item_t *it, void *ctx)
{
    src_check_t *s = ctx;
    if (!it->q->src && !s->missing++)
        snprintf(s->first, sizeof(s->first), "%s", it->key);
    return 0;
}

static int count_items(const gc_arch_item_t *it, void *ctx)
{
    (void)it;
    (*(int *)ctx)++;
    return 0;
}

static int arch_validate(int argc, char **argv)
{
    const char *fmt = NULL;
    int first, strict = 0;
    int rc = parse_format("gpucal arch validate", argc, argv, NULL, &fmt, &first, &strict);
    if (rc)
        return rc > 0 ? 0 : 2;
    if (first >= argc)
        return gc_cli_usage_error("gpucal arch validate", "give at least one FILE");
    int status = 0;
    for (int i = first; i < argc; i++) {
        gc_arch_t *a;
        gc_err_t e;
        gc_err_clear(&e);
        if (gc_arch_load(&a, argv[i], &e) != 0) {
            int st = gc_cli_fail(&e);
            status = status > st ? status : st;
            continue;
        }
        int n = 0;
        gc_arch_walk(a, 0, count_items, &n);
        src_check_t sc = {argv[i], 0, ""};
        gc_arch_walk(a, 0, count_unsourced, &sc);
        if (strict && sc.missing) {
            fprintf(stderr,
                    "%s: %d of %d values have no source, first %s (add source: to each)\n",
                    argv[i], sc.missing, n, sc.first);
            status = 2;
        } else {
            printf("%s: ok (%s, %d values, %d with a source)\n", argv[i], a->name, n,
                   n - sc.missing);
        }
        gc_arch_destroy(a);
    }
    return status;
}

static int arch_schema(int argc, char **argv)
{
    if (argc > 1 && gc_cli_is_help(argv[1])) {
        gc_usage_arch(stdout);
        return 0;
    }
    if (argc > 1)
        return gc_cli_usage_error("gpucal arch schema", "unexpected argument '%s'", argv[1]);
    gc_arch_schema_doc(stdout);
    return 0;
}

int gc_cmd_arch(int argc, char **argv)
{
    static const gc_cmd_t sub[] = {
        {"list", arch_list, gc_usage_arch, ""},
        {"show", arch_show, gc_usage_arch, ""},
        {"validate", arch_validate, gc_usage_arch, ""},
        {"schema", arch_schema, gc_usage_arch, ""},
    };
    if (argc < 2) {
        gc_usage_arch(stderr);
        return 2;
    }
    if (gc_cli_is_help(argv[1])) {
        gc_usage_arch(stdout);
        return 0;
    }
    return gc_cmd_select(sub, 4, "gpucal arch", argc - 1, argv + 1);
}
