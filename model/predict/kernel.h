/* kernel.h - a kernel description (schema gpucal-kernel/1) in memory.
 *
 * What `gpucal predict` reads: the launch (grid, block, registers, shared
 * memory), a main loop (trips, pipeline stages and, per warp and iteration,
 * the instructions by class), an optional prologue and epilogue, and the
 * kernel's data footprint. model/kernels/README.md documents every key with
 * examples. Descriptions are arch-independent: whether an instruction form
 * exists on a GPU is checked when a prediction is made (predict.c), with
 * the op's FILE:LINE:COL.
 *
 * Reads YAML through arch/ytree.h. Bad input: GC_EINPUT with one line
 * "FILE:LINE:COL: what is wrong (how to fix)"; unknown keys: an error that
 * names the closest known key. `params: {N: 8192}` names values that any
 * number below may use in an expression (`grid: [N / 128, 1]`); `body:`
 * replaces `loop:` for a kernel without a main loop; launch.registers may
 * be left out (estimated, regs_estimated set). The gemm and stream templates build descriptions in code
 * with gc_kernel_create + gc_kernel_op.
 *
 * Ownership: a gc_kernel_t owns its strings and op lists (one arena);
 * gc_kernel_destroy(NULL) is a no-op.
 */
#ifndef GC_KERNEL_H
#define GC_KERNEL_H

#include <stddef.h>
#include <stdio.h>

#include "../../util/err.h"

#define GC_KERNEL_SCHEMA "gpucal-kernel/1"
#define GC_KERNEL_OPS_MAX 256 /* ops per phase */

/* Instruction classes of a phase's op list. */
typedef enum {
    GC_OP_MMA,      /* mma.sync, mma.sp: one warp */
    GC_OP_WGMMA,    /* wgmma, wgmma.sp: one warpgroup (4 warps) */
    GC_OP_WMMA,     /* wmma.mma: one warp */
    GC_OP_ALU,      /* CUDA-core instruction: ffma, hfma2, imad, iadd3, lop3, mufu.ex2, ... */
    GC_OP_LDMATRIX, /* ldmatrix .x1/.x2/.x4 */
    GC_OP_LDS,      /* ld.shared */
    GC_OP_STS,      /* st.shared */
    GC_OP_SHFL,     /* shfl.sync */
    GC_OP_LDG,      /* ld.global */
    GC_OP_STG,      /* st.global (and red/atom without return) */
    GC_OP_CP_ASYNC, /* cp.async global -> shared */
    GC_OP_TMA,      /* cp.async.bulk(.tensor) global -> shared */
    GC_OP_BAR,      /* bar.sync / __syncthreads */
    GC_OP_N
} gc_opclass_t;

/* One op entry: `count` instructions per warp per loop iteration. */
typedef struct gc_kop {
    gc_opclass_t cls;
    double count;        /* instructions per warp per iteration (> 0; may be fractional) */
    double chains;       /* independent chains among them (dependency depth = count/chains);
                          * 0 = all independent */
    double depth;        /* alu, shfl: dependent steps each customer waits through per
                          * iteration when not count / chains (0): may exceed count, e.g.
                          * one warp's work the others wait for at a barrier */
    /* tensor ops */
    const char *inst;    /* mma | mma.sp | wgmma | wgmma.sp | wmma */
    const char *shape;   /* e.g. m16n8k16 */
    const char *a, *c;   /* A/B type, C/D type */
    const char *operands;/* wgmma: ss | rs (NULL: any) */
    /* alu */
    const char *name;    /* ffma, imad, ... */
    int after_tensor;    /* reads the loop's tensor results: waits for them, and the next
                          * tensor work for it (FP8 accumulator promotion) */
    /* memory ops */
    double num;          /* ldmatrix: matrices (1, 2, 4) */
    double width;        /* bytes per thread per access (1..16) */
    double active;       /* active threads of the warp (1..32; default 32) */
    double ways;         /* shared bank-conflict degree (1 = conflict-free) */
    int broadcast;       /* lds: all threads (or thread pairs) read one address */
    int staged;          /* cp_async: an ld.global into registers that the iteration's own
                          * st.shared lands (sm75's two-stage kernels, any width), not a
                          * cp.async (4, 8 or 16 bytes): waited for in the iteration that
                          * issues it */
    double sectors;      /* global: 32-byte sectors per warp instruction (0 = derive) */
    double lines;        /* global: 128-byte lines per warp instruction (0 = derive) */
    double bytes;        /* tma: bytes per instruction */
    double multicast;    /* tma: blocks of the cluster each load lands in (.multicast::cluster),
                          * read from the L2 once for all of them (1..16; default 1) */
    double l1_hit;       /* ldg: fraction of sectors served by L1 (data another warp of the
                          * block loaded just before); 0..1 */
    int l1;              /* global loads: 1 = cached in L1 (ld.global.ca, default),
                          * 0 = L2 only (.cg, cp.async.cg) */
    long line, col;      /* where the entry starts in the file (0 if built in code) */
} gc_kop_t;

/* A loop: the main loop, or the prologue / epilogue (trips 1 by default). */
typedef struct gc_kphase {
    int present;
    double trips;        /* iterations per block */
    double stages;       /* global->shared pipeline depth (cp.async / TMA); 1 = none */
    gc_kop_t *ops;
    size_t n_ops, cap;
    long line, col;
} gc_kphase_t;

typedef struct gc_kernel {
    const char *schema;
    const char *name;
    const char *source;  /* where the kernel comes from (paper, file) */
    const char *note;
    long grid[3];        /* blocks */
    long block[3];       /* threads */
    double regs;         /* registers per thread */
    int regs_estimated;  /* 1: launch.registers not given, regs estimated (kernel.c) */
    double shared_bytes; /* shared memory per block, static + dynamic */
    double blocks_per_sm;/* 0, or an occupancy cap observed with a profiler */
    double param_lines;  /* 64-byte lines of parameters its code reads (0: not counted) */
    double far_jumps;    /* jumps into code 2 KiB or more away its warps take once */
    double serial_inst;  /* instructions a warp runs once outside the rounds, each waiting for
                            the one before (operators' ends; 0: none, or for a warp-specialised
                            kernel the gemm template's count) */
    gc_kphase_t prologue, loop, epilogue;
    /* footprint (bytes of global memory, whole kernel) */
    double read_bytes;   /* unique bytes read; 0 = derive from the ops (no reuse) */
    double write_bytes;  /* unique bytes written; 0 = derive from the ops */
    double reuse_bytes;  /* bytes touched between two uses of a line (0 = read_bytes) */
    unsigned footprint_given; /* GC_FP_* bits: given explicitly, so an explicit 0 is
                                 honoured as 0 (unset and 0: derived as above) */
    int l2_warm;         /* 1: the data is in L2 at launch (repeated runs on the same data) */
    const char *path;    /* file it was read from, or NULL */
    long launch_line, launch_col;
    struct gc_arena *arena;
} gc_kernel_t;

enum { GC_FP_READ = 1, GC_FP_WRITE = 2, GC_FP_REUSE = 4 };

/* An empty description named name (trips 1, stages 1, grid and block 1). */
gc_kernel_t *gc_kernel_create(const char *name);
void gc_kernel_destroy(gc_kernel_t *k);

/* Copy a string into k's arena. */
const char *gc_kernel_str(gc_kernel_t *k, const char *s);

/* Append a zeroed op of class cls (count 1, active 32, ways 1, l1 1) to
 * phase ph of k; returns it, or NULL when out of memory or the phase holds
 * GC_KERNEL_OPS_MAX ops. */
gc_kop_t *gc_kernel_op(gc_kernel_t *k, gc_kphase_t *ph, gc_opclass_t cls);

/* Options of a load: --set NAME=EXPR overrides of the description's params
 * (each must name one of them). */
typedef struct gc_kernel_opts {
    const char *const *set;
    int n_set;
} gc_kernel_opts_t;

#define GC_KERNEL_PARAMS_MAX 64

/* As gc_kernel_load / gc_kernel_parse, with opts (NULL: none). path "-"
 * reads standard input (named "<stdin>" in messages). */
int gc_kernel_load_opts(gc_kernel_t **k, const char *path, const gc_kernel_opts_t *opts,
                        gc_err_t *err);
int gc_kernel_parse_opts(gc_kernel_t **k, const char *name, const char *buf, size_t len,
                         const gc_kernel_opts_t *opts, gc_err_t *err);

/* Read and validate a description. Errors: GC_EINPUT / GC_ELIMIT with one
 * line FILE:LINE:COL; an unknown key is an error naming the closest known
 * one. Numbers may be expressions over the params (expr.h). */
int gc_kernel_load(gc_kernel_t **k, const char *path, gc_err_t *err);
int gc_kernel_parse(gc_kernel_t **k, const char *name, const char *buf, size_t len,
                    gc_err_t *err);

/* Check the parts the loader cannot leave to the YAML (used for built
 * descriptions too): positive sizes, counts, widths. 0 or GC_EINPUT. */
int gc_kernel_check(const gc_kernel_t *k, gc_err_t *err);

/* The instruction vocabulary of descriptions as Markdown (op classes and
 * the keys each takes, alu names, types), between marker comments: what
 * model/kernels/README.md holds (tests/docs.sh compares them). */
void gc_kernel_vocabulary(FILE *fp);

/* Class name as written in a description ("mma", "ldg", ...). */
const char *gc_opclass_name(gc_opclass_t c);

/* Threads per block, warps per block, blocks in the grid. */
long gc_kernel_threads(const gc_kernel_t *k);
long gc_kernel_warps(const gc_kernel_t *k);
double gc_kernel_blocks(const gc_kernel_t *k);

#endif
