/* arch.h - an architecture file (schema gpucal-arch/1) in memory.
 *
 * Reads, validates and writes the files in arch/. The layout of the file is one
 * declarative table (arch_schema.c) that drives the loader, the writer, the
 * equality check, `gpucal compare` and the key reference in arch/README.md.
 * Every number is a gc_qty_t: a value in the unit the schema names, with an
 * optional 95 % interval, a source and a note. Units are part of the key
 * names (_cyc cycles, _mhz MHz, _kib KiB, _bytes_clk_sm bytes/clock/SM...).
 *
 * Ownership: a gc_arch_t owns every string and list it points to (one
 * arena); gc_arch_destroy frees it all.
 */
#ifndef GC_ARCH_H
#define GC_ARCH_H

#include <stdio.h>
#include <stddef.h>

#include "../util/err.h"

#define GC_ARCH_SCHEMA "gpucal-arch/1"

/* A measured or published number. set == 0: absent from the file. */
typedef struct gc_qty {
    double v;          /* the value, in the unit of its key */
    double lo, hi;     /* 95 % interval when has_ci */
    const char *src;   /* where it comes from (NULL: not stated) */
    const char *note;  /* free text (NULL: none) */
    unsigned char set, has_ci;
} gc_qty_t;

/* A yes/no value. set == 0: absent. */
typedef struct gc_flag {
    unsigned char set, val;
} gc_flag_t;

/* A convergence point of an ILP x warps sweep. rate is FMA/clk/SM for
 * tensor forms and bytes/clk/SM for ldmatrix. */
typedef struct gc_conv {
    gc_qty_t warps, ilp, latency_cyc, rate;
} gc_conv_t;

typedef struct gc_tensor {
    const char *inst;      /* mma | mma.sp | wgmma | wgmma.sp | wmma */
    const char *shape;     /* PTX shape, e.g. m16n8k16 (sparse: the PTX k) */
    const char *a, *c;     /* A/B type and C/D type */
    const char *operands;  /* wgmma: ss | rs */
    const char *data;      /* data pattern of the figures: zero | rand */
    const char *sass;      /* SASS opcode it compiles to */
    gc_qty_t latency_cyc, issue_cyc, overhead_cyc, sub_cores, peak_fma_clk_sm, peak_tflops,
        clock_mhz, peak_warps, peak_ilp;
    gc_conv_t *conv;
    size_t n_conv;
} gc_tensor_t;

typedef struct gc_alu {
    const char *op;        /* ffma, hfma2, imad, mufu.ex2, ... */
    gc_qty_t latency_cyc, ops_clk_sm;
} gc_alu_t;

typedef struct gc_ldmatrix {
    gc_qty_t num;          /* 1 | 2 | 4 matrices */
    gc_flag_t trans;
    gc_qty_t latency_cyc, peak_bytes_clk_sm, peak_warps, peak_ilp;
    gc_conv_t *conv;
    size_t n_conv;
} gc_ldmatrix_t;

typedef struct gc_conflict {
    gc_qty_t width_bytes, ways, latency_cyc;
} gc_conflict_t;

typedef struct gc_dsm_point {
    gc_qty_t cluster, latency_cyc, bw_gbs;
} gc_dsm_point_t;

typedef struct gc_dpx {
    const char *op;
    gc_qty_t latency_cyc, ops_clk_sm;
} gc_dpx_t;

typedef struct gc_numerics {
    const char *a, *c;       /* the form: A/B type, C/D type */
    gc_flag_t products_exact;
    gc_qty_t align_bits, group;
    const char *rounding;    /* rz | rn | rd | ru: rounding of the accumulation */
    const char *subnormals;  /* keep | flush */
    const char *note;
    /* optional, written from the `numeric` bench's findings (emulate.h) */
    const char *inst;        /* mma | wgmma (absent: mma) */
    const char *align_exp;   /* sum (ea+eb of each product) | lead (its leading bit) */
    gc_qty_t acc_bits, interleave;
    const char *out_rounding; /* rz | rn | rd | ru: into an f16 C/D */
    gc_flag_t out_direct;
    const char *overflow;    /* inf | ieee */
    const char *zero_sign;   /* pos | ieee */
    const char *nan;         /* NaN result, hex bit pattern */
    const char *tf32_operands; /* truncate | round */
    const char *c_order;     /* first | last */
    const char *c_rounding;  /* rz | rn | rd | ru (c_order last) */
    const char *trunc;       /* zero | floor: how the alignment cuts negative addends */
} gc_numerics_t;

/* One point of the coissue bench: how much of the shorter of mma.sync and
 * a partner's work a sub-core hides with `warps` warps on the SM. */
typedef struct gc_coissue {
    gc_qty_t warps, fma, alu, xu, ldsm, shfl;
} gc_coissue_t;

/* One point of the SM clock against tensor-pipe activity (the clock
 * bench's full and partial tensor loads): under instruction kind inst
 * (wgmma | mma), the clock the GPU sustains when its tensor pipes are busy
 * `activity` of the time (0: no tensor work, 1: the full load). */
typedef struct gc_tclock {
    const char *inst;
    gc_qty_t activity, clock_mhz;
} gc_tclock_t;

typedef struct gc_sm {
    gc_qty_t count, sub_cores, fp32_lanes, tensor_cores, clock_base_mhz, clock_max_mhz,
        clock_tensor_mhz, clock_mma_mhz, clock_fma_mhz, clock_memory_mhz, max_threads, max_warps,
        max_blocks, max_block_threads, registers, max_regs_thread, reg_alloc_unit, shared_max_kib,
        shared_block_max_kib, l1_shared_kib, launch_overhead_us, kernel_floor_us,
        block_dispatch_ns, const_miss_cyc, code_miss_cyc, issue_1warp_ratio, overlap_tensor_fma,
        overlap_tensor_alu,
        overlap_tensor_xu, overlap_tensor_ldsm, overlap_tensor_shfl;
    /* the board's power: its limit, its draw with no load, and what tensor
     * work draws (pJ per SM cycle its pipes are busy, at clock_max_mhz,
     * scaling with the clock as (clock / clock_max_mhz)^power_exponent) */
    gc_qty_t power_limit_w, power_idle_w, power_exponent, energy_wgmma_pj, energy_mma_pj;
    gc_coissue_t *coissue; /* by warps, ascending */
    size_t n_coissue;
    gc_tclock_t *tensor_clock; /* by inst, then activity ascending */
    size_t n_tensor_clock;
} gc_sm_t;

typedef struct gc_l1 {
    gc_qty_t size_kib, line_bytes, sector_bytes, latency_cyc, bw_bytes_clk_sm,
        bw_v4_bytes_clk_sm;
} gc_l1_t;

typedef struct gc_shared {
    gc_qty_t latency_cyc, banks, bank_bytes, bw_bytes_clk_sm, bw_v4_bytes_clk_sm, conflict_cyc;
    gc_conflict_t *conflicts;
    size_t n_conflicts;
} gc_shared_t;

typedef struct gc_l2 {
    gc_qty_t size_mib, partitions, partition_mib, line_bytes, sector_bytes, latency_cyc,
        latency_far_cyc, near_hit_cyc, far_hit_cyc, near_miss_cyc, far_miss_cyc, miss_sd_cyc,
        near_share,
        bw_bytes_clk, bw_v4_bytes_clk, lines_bw_bytes_clk, bw_clock_mhz, energy_pj_byte;
} gc_l2_t;

typedef struct gc_dram {
    const char *type;
    gc_qty_t size_gib, bus_bits, clock_mhz, channels, bw_peak_gbs, bw_gbs, latency_cyc;
    gc_qty_t bw_read_gbs, bw_write_gbs, bw_copy_gbs; /* per access mix (optional) */
    gc_qty_t energy_pj_byte; /* board energy a byte costs beyond its L2 passage */
} gc_dram_t;

typedef struct gc_tma {
    gc_qty_t latency_cyc, latency_extra_cyc, bw_gbs;
} gc_tma_t;

typedef struct gc_dsm {
    gc_qty_t latency_local_cyc, latency_cyc, bw_gbs;
    gc_dsm_point_t *clusters;
    size_t n_clusters;
} gc_dsm_t;

typedef struct gc_memory {
    gc_l1_t l1;
    gc_shared_t shared;
    gc_l2_t l2;
    gc_dram_t dram;
    gc_tma_t tma;
    gc_dsm_t dsm;
} gc_memory_t;

typedef struct gc_prov {
    const char *made_by, *date, *gpucal, *command, *traces, *notes;
} gc_prov_t;

typedef struct gc_arch {
    const char *schema;   /* always GC_ARCH_SCHEMA after a load */
    const char *name;     /* e.g. hopper-h100 */
    const char *family;   /* turing | ampere | ada | hopper | blackwell */
    const char *device;   /* marketing name */
    const char *cc;       /* compute capability "M.m" */
    gc_prov_t provenance;
    gc_sm_t sm;
    gc_tensor_t *tensor;
    size_t n_tensor;
    gc_alu_t *alu;
    size_t n_alu;
    gc_ldmatrix_t *ldmatrix;
    size_t n_ldmatrix;
    gc_memory_t memory;
    gc_dpx_t *dpx;
    size_t n_dpx;
    gc_numerics_t *numerics;
    size_t n_numerics;
    const char *path;     /* the file it was read from, or NULL */
    struct gc_arena *arena;
    /* A view of this arch resolved once by a reader above the arch library
     * (model/predict/machine.h attaches the predictor's machine), freed with
     * the arch by view_free. NULL: none. Not part of the file. */
    void *view;
    void (*view_free)(void *view);
    /* The compiled image the texts point into when the arch was read from
     * one (arch_cache.c), released with the arch; NULL otherwise. */
    void *image;
    size_t image_len;
} gc_arch_t;

/* An empty arch (all values absent) for a writer such as calib to fill. */
gc_arch_t *gc_arch_create(void);
void gc_arch_destroy(gc_arch_t *a);

/* Copy a string / allocate a zeroed list of n elements inside a's arena. */
const char *gc_arch_str(gc_arch_t *a, const char *s);
void *gc_arch_list(gc_arch_t *a, size_t elem_size, size_t n);

/* Set a quantity: value, interval (lo > hi means none), source (copied). */
void gc_qty_put(gc_arch_t *a, gc_qty_t *q, double v, double lo, double hi, const char *src);

/* Read and validate an arch file. Bad input: GC_EINPUT with one line
 * "FILE:LINE:COL: what is wrong (how to fix)". Unknown keys: a warning
 * on stderr, the key ignored. */
int gc_arch_load(gc_arch_t **a, const char *path, gc_err_t *err);
int gc_arch_parse(gc_arch_t **a, const char *name, const char *buf, size_t len, gc_err_t *err);

/* Resolve a shipped name (e.g. "hopper-h800") or a path to a file path:
 * a NAME of [a-z0-9-] looks in $GPUCAL_ARCH_DIR, then the shipped arch/
 * folder; anything with a '/' or ending in .yaml is a path. */
int gc_arch_resolve(const char *name_or_path, char *path, size_t n, gc_err_t *err);

/* gc_arch_resolve + gc_arch_load. */
int gc_arch_open(gc_arch_t **a, const char *name_or_path, gc_err_t *err);

/* The folder of shipped arch files (for `gpucal arch list`):
 * $GPUCAL_ARCH_DIR, else the folder given to gc_arch_set_dir (an installed
 * program's share/gpucal/arch), else the source tree's arch/. Set it once,
 * before any thread loads an arch. */
const char *gc_arch_dir(void);
void gc_arch_set_dir(const char *dir);

/* Write a as YAML (libyaml emitter) to fp / atomically to path. The output
 * loads back to an equal arch (gc_arch_equal). */
int gc_arch_emit(const gc_arch_t *a, FILE *fp, gc_err_t *err);
int gc_arch_save(const gc_arch_t *a, const char *path, int force, gc_err_t *err);

/* Write a as JSON (same tree; quantities as {"value":..., ...}). */
int gc_arch_emit_json(const gc_arch_t *a, FILE *fp);

/* Write s as a JSON string: quoted, the quote and the backslash escaped,
 * control bytes as \u00XX; NULL as "". The one JSON string writer (arch,
 * predict, compare). */
void gc_json_str(FILE *fp, const char *s);

/* 1 if every field of a and b is equal (values bit for bit, strings,
 * intervals, sources); else 0 and the first difference in diff. */
int gc_arch_equal(const gc_arch_t *a, const gc_arch_t *b, char *diff, size_t n);

/* One quantity met by gc_arch_walk. */
typedef struct gc_arch_item {
    const char *key;   /* dotted path, list entries by label:
                        * "memory.l2.near_hit_cyc", "tensor[mma m16n8k16 f16.f32].latency_cyc" */
    const char *unit;  /* "cycles", "MHz", ... */
    const char *doc;   /* one sentence */
    const gc_qty_t *q; /* the quantity (q->set may be 0) */
    int is_int;        /* a whole-number quantity (a count) */
    double lo, hi;     /* the range the loader accepts (arch/README.md, bounds) */
} gc_arch_item_t;

/* Call fn on every quantity of a in schema order (unset ones too when
 * all != 0). fn returning non-zero stops the walk and is returned. */
int gc_arch_walk(const gc_arch_t *a, int all, int (*fn)(const gc_arch_item_t *, void *),
                 void *ctx);

/* The key-by-key reference of the schema, as Markdown (arch/README.md's
 * "Keys" section is this output). */
void gc_arch_schema_doc(FILE *fp);

/* Label of a tensor form: "mma m16n8k16 f16.f32" (+ " ss"/" rs",
 * + " zero"/" rand" when set). buf of n bytes. */
const char *gc_tensor_label(const gc_tensor_t *t, char *buf, size_t n);

/* Parse a PTX shape "mMnNkK" into m, n, k (any may be NULL). 0 if well
 * formed (1 <= m, n <= 256, 1 <= k <= 1024, nothing after), else -1. */
int gc_tensor_shape(const char *shape, int *m, int *n, int *k);

/* Find a tensor form by inst, shape, a, c (operands/data NULL = any;
 * prefers rand data over zero). NULL when absent. */
const gc_tensor_t *gc_arch_tensor(const gc_arch_t *a, const char *inst, const char *shape,
                                  const char *at, const char *ct, const char *operands);

/* Find an ALU / DPX op by name. NULL when absent. */
const gc_alu_t *gc_arch_alu(const gc_arch_t *a, const char *op);

/* Compute capability as 10*major+minor (e.g. 90), 0 if unset. */
int gc_arch_cc(const gc_arch_t *a);

/* The numerics entry of arch for instruction inst (mma | wgmma; NULL and an
 * entry without inst mean mma) and form (a, c), or NULL (also when arch is
 * NULL). */
const gc_numerics_t *gc_arch_numerics(const gc_arch_t *arch, const char *inst, const char *a,
                                      const char *c);

/* The rounding-mode names a numerics entry may hold, in the order
 * rz rn rd ru, NULL-terminated. */
extern const char *const gc_rounding_names[5];

#endif
