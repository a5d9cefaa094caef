/* gpucal/gpucal.h - the gpucal library: predict a GPU kernel's time on an
 * architecture from its calibrated arch file, without the GPU.
 *
 * Build: cc prog.c $(pkg-config --cflags --libs gpucal)
 *
 *   gpucal_error err;
 *   gpucal_arch *h100;
 *   if (gpucal_arch_load(&h100, "hopper-h100", &err)) { puts(err.message); return 2; }
 *   const char *keys[] = {"m", "n", "k", "dtype"}, *vals[] = {"4096", "4096", "4096", "f16"};
 *   gpucal_result r;
 *   if (gpucal_predict_template(h100, "gemm", 4, keys, vals, NULL, &r, &err) == 0)
 *       printf("%.1f us, %s-bound\n", r.time_us, r.bound);
 *   gpucal_arch_free(h100);
 *
 * Contract (stable within a major version, GPUCAL_API_VERSION):
 *  - Fallible functions return 0 or a negative GPUCAL_E* code and fill the
 *    caller's gpucal_error (may be NULL) with one line: "FILE:LINE:COL: what
 *    is wrong (how to fix)" when a place in a file is known.
 *  - A loaded arch and a loaded kernel are read-only: any number of threads
 *    may predict on one arch (and one kernel) at the same time. Loading and
 *    freeing are not concurrent with predictions on the same object.
 *  - Result fields are the members of `gpucal predict --format json`
 *    (model/kernels/README.md documents each); strings in a result are
 *    static or inside the result.
 *  - Shipped arch names (e.g. "hopper-h100") are found in $GPUCAL_ARCH_DIR,
 *    else in share/gpucal/arch beside the installed library, else in the
 *    source tree the library was built from; anything with a '/' or ending
 *    in .yaml is a path.
 */
#ifndef GPUCAL_GPUCAL_H
#define GPUCAL_GPUCAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define GPUCAL_API __attribute__((visibility("default")))
#else
#define GPUCAL_API
#endif

#define GPUCAL_API_VERSION 1

/* Error codes (the CLI exits 2 for USAGE..LIMIT, 1 for the rest). */
enum {
    GPUCAL_OK = 0,
    GPUCAL_EUSAGE = -1,  /* a bad argument: unknown template or option, bad value */
    GPUCAL_EINPUT = -2,  /* a bad input file or value */
    GPUCAL_EEXIST = -3,
    GPUCAL_ELIMIT = -4,  /* input larger than gpucal accepts */
    GPUCAL_EIO = -5,     /* a read failed */
    GPUCAL_ENOMEM = -6,
    GPUCAL_ERUN = -7,    /* a computation failed */
    GPUCAL_ENODATA = -8
};

typedef struct gpucal_error {
    int code;           /* GPUCAL_OK when nothing failed */
    char message[1024]; /* one line, no newline */
} gpucal_error;

/* Resources of the stall stack, in the order of the JSON output. */
enum {
    GPUCAL_R_TENSOR,
    GPUCAL_R_ALU,
    GPUCAL_R_ISSUE,
    GPUCAL_R_SHARED,
    GPUCAL_R_L2,
    GPUCAL_R_DRAM,
    GPUCAL_R_LATENCY,
    GPUCAL_R_TAIL,
    GPUCAL_R_LAUNCH,
    GPUCAL_R_N
};

typedef struct gpucal_options {
    double clock_mhz; /* > 0: run at this SM clock; 0: the arch's sustained clock */
    double period_us; /* > 0: the kernel starts once every period_us (a caller's rate: a
                       * shorter kernel leaves the GPU idle between, drawing less power);
                       * 0: back to back */
} gpucal_options;

/* One prediction; for a template of several kernels (the operators) the
 * figures of its longest kernel, with time_us and kernel_us the sums. */
typedef struct gpucal_result {
    char kernel[64], arch[64];
    double cycles;            /* SM cycles, launch included */
    double time_us;           /* duration on the GPU (several kernels: the sum) */
    double kernel_us;         /* time_us without launch overheads */
    double clock_mhz;
    const char *clock_source; /* arch key of the clock, or "--clock" */
    const char *load_class;   /* tensor | memory | fma | compute */
    const char *bound;        /* resource name of the largest breakdown entry */
    double breakdown_cyc[GPUCAL_R_N]; /* stall stack, sums to cycles */
    double busy_cyc[GPUCAL_R_N];      /* cycles each resource needs alone */
    double utilisation[GPUCAL_R_N];   /* busy / cycles (0..1) */
    int blocks_per_sm, warps_per_sm;
    const char *limited_by;           /* occupancy limit: threads|warps|blocks|registers|shared|cap */
    double registers_per_thread;
    int registers_estimated;
    double blocks, waves, full_waves, tail_blocks;
    double l2_bytes, dram_bytes, tensor_fma;
    int n_kernels;            /* kernels the prediction covers (1, or an operator's) */
} gpucal_result;

typedef struct gpucal_arch gpucal_arch;
typedef struct gpucal_kernel gpucal_kernel;

/* Library version, e.g. "0.1.0". */
GPUCAL_API const char *gpucal_version(void);

/* Name of resource r as in the JSON output ("tensor", "dram", ...). */
GPUCAL_API const char *gpucal_resource_name(int r);

/* Load and resolve an arch (shipped name or path). Free with gpucal_arch_free
 * (NULL is a no-op). */
GPUCAL_API int gpucal_arch_load(gpucal_arch **out, const char *name_or_path, gpucal_error *err);
GPUCAL_API void gpucal_arch_free(gpucal_arch *a);

/* The arch as JSON (`gpucal arch show NAME --format json`); *json is
 * malloc'd, free it with gpucal_free. */
GPUCAL_API int gpucal_arch_json(const gpucal_arch *a, char **json, gpucal_error *err);

/* Load a kernel description (gpucal-kernel/1 YAML). Free with gpucal_kernel_free. */
GPUCAL_API int gpucal_kernel_load(gpucal_kernel **out, const char *path, gpucal_error *err);
GPUCAL_API void gpucal_kernel_free(gpucal_kernel *k);

/* Predict kernel k on arch a (o may be NULL). Allocates nothing. */
GPUCAL_API int gpucal_predict_kernel(const gpucal_arch *a, const gpucal_kernel *k,
                                     const gpucal_options *o, gpucal_result *r,
                                     gpucal_error *err);

/* Predict template `name` (gemm, stream, attention, softmax, layernorm,
 * rowsum, elementwise, transpose, conv2d) with n options: keys[i] is a long
 * option of `gpucal predict NAME` without dashes, values[i] its value as
 * text (a flag such as causal: "true"). */
GPUCAL_API int gpucal_predict_template(const gpucal_arch *a, const char *name, int n,
                                       const char *const *keys, const char *const *values,
                                       const gpucal_options *o, gpucal_result *r,
                                       gpucal_error *err);

/* One batch request (a JSON object, as a line of `gpucal predict --batch`)
 * to its answer: *out (malloc'd, free with gpucal_free) is one JSON line
 * without a newline per arch of the request, joined by newlines: the object
 * `gpucal predict --format json` prints, or {"error": "..."}. Archs named by
 * requests are loaded once per process and kept. Returns 0 when every
 * answer is a prediction, else the first error's code. */
GPUCAL_API int gpucal_predict_json(const char *request, char **out, gpucal_error *err);

/* The templates, one per call: name of template i (NULL past the last). */
GPUCAL_API const char *gpucal_template_name(int i);

GPUCAL_API void gpucal_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
