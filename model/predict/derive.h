/* derive.h - the rules that turn an arch file into the machine the
 * predictor reads (machine.h): every model parameter predict.c needs, taken
 * from the file or, where the file lacks it, derived from what it has, in
 * one place.
 *
 * Arch files made by hand from papers carry latencies and peak throughputs
 * but no fitted issue intervals; older ones lack ALU tables, ldmatrix
 * entries or a launch overhead. The rules below fill those gaps; each one
 * is documented in model/kernels/README.md ("Parameters the model derives")
 * and every value a prediction derived is listed in its output, so a
 * number is never silently made up. The rules run once, when a machine is
 * resolved (gc_machine_create); a prediction only reads their results.
 */
#ifndef GC_DERIVE_H
#define GC_DERIVE_H

#include "../../util/err.h"
#include "../../arch/arch.h"
#include "../../arch/pipe.h"

/* One derived value, for the output's "derived" list. Its key is made of
 * static parts and formatted only when printed (gc_derived_key). */
typedef struct gc_derived {
    const gc_tensor_t *form; /* tensor[<label>]. ... when set */
    const char *alu;         /* else alu[<alu>]. ... when set */
    const char *field;       /* the key below that, or the whole dotted key */
    double value;
    const char *how; /* the rule, one short phrase (static text) */
} gc_derived_t;

/* The dotted key of d ("tensor[mma m16n8k16 f16.f32].issue_cyc",
 * "sm.launch_overhead_us") into buf of n bytes; returns buf. */
const char *gc_derived_key(const gc_derived_t *d, char *buf, size_t n);

#define GC_DERIVED_MAX 32

typedef struct gc_derived_list {
    gc_derived_t d[GC_DERIVED_MAX];
    int n;
} gc_derived_list_t;

/* Append a derived value (ignored when dl is NULL, the list is full or the
 * key is there already). field and how are static text. */
void gc_derived_add(gc_derived_list_t *dl, const gc_tensor_t *form, const char *alu,
                    const char *field, double value, const char *how);

/* A tensor form of the arch, resolved: its pipe with every missing figure
 * derived, and the derived values recorded in the order the rules made
 * them (added to a prediction's list when an op uses the form). */
#define GC_MFORM_DERIVED 5
typedef struct gc_mform {
    const gc_tensor_t *t; /* the arch entry */
    gc_pipe_t pipe;       /* latency, issue interval, overhead, slots */
    double fma;           /* multiply-adds of one instruction of the form (m*n*k) */
    double clock_mhz;     /* the clock its figures were measured at (0: not stated) */
    int warpgroup;        /* 1: a wgmma form (slots count warpgroups) */
    int ok;               /* 0: neither issue_cyc nor a peak throughput (unusable) */
    int is_rand;          /* its figures were taken on random data */
    gc_derived_t d[GC_MFORM_DERIVED];
    int nd;
    unsigned long long hash; /* of inst, shape, a, c (machine.c's index) */
    int next;                /* next form with the same inst/shape/a/c, or -1 */
} gc_mform_t;

/* A CUDA-core op resolved: the arch's alu entry (or a default for its
 * pipe), one warp instruction per sub-core. The derived values' alu name is
 * filled in with the op's own name when a prediction uses it. */
typedef struct gc_malu {
    const char *name; /* the arch entry's op, or the default's prefix */
    gc_pipe_t pipe;
    int cls; /* execution pipe (gc_derive_alu_pipe) */
    int ok;  /* 0: no figures and no default */
    gc_derived_t d[2];
    int nd;
} gc_malu_t;

/* Number of default CUDA-core pipes (the programming guide's table). */
#define GC_ALU_DEFAULTS 31

/* The CUDA-core instruction names gpucal has a default pipe for (any arch
 * file may add more in its alu list), in table order, into out (at most
 * max); returns how many. */
size_t gc_derive_alu_names(const char **out, size_t max);

/* The tensor-clock kinds of sm.tensor_clock (wgmma, mma.sync) and the most
 * points the machine keeps of each. */
enum { GC_TCLK_WGMMA, GC_TCLK_MMA, GC_TCLK_MAX = 16 };

/* The machine: memory and SM figures the model uses, each from the arch or
 * derived, and every tensor form and CUDA-core op resolved. Made once per
 * arch (machine.h); a prediction only reads it. */
typedef struct gc_machine {
    const char *name; /* the arch's name */
    const char *file; /* its path (or name), for error messages */
    int cc;           /* compute capability 10*major+minor, 0 if unset */
    double sms;       /* SMs */
    double sub_cores; /* sub-cores per SM */
    double max_threads, max_warps, max_blocks, max_block_threads;
    double registers, reg_unit, max_regs_thread;
    double shared_sm_bytes, shared_block_bytes, shared_reserved_bytes;
    double wave_cyc; /* cycles one shared/L1 wavefront (128 B) occupies the data path */
    double shared_lat_cyc, ldm_lat_cyc, l1_lat_cyc;
    double l2_lat_cyc, dram_lat_cyc, tma_extra_cyc;
    /* the L2's two partitions (all 0 when the arch lacks a figure): a hit or
     * a miss served by the near or the far one, and how often it is near */
    double hit_near_cyc, hit_far_cyc, miss_near_cyc, miss_far_cyc;
    double hit_near_share, miss_near_share;
    double miss_sd_cyc; /* memory.l2.miss_sd_cyc (0: unknown) */
    double l2_bytes;                 /* L2 capacity, bytes */
    double l2_bw_clk;                /* whole-chip L2 bytes per SM clock */
    double l2_sm_bw_clk;             /* most one SM draws from the L2, bytes per clock */
    double l2_lines_clk;             /* whole-chip lines the L2 serves per clock (0: no limit) */
    double dram_bw_gbs;              /* sustained DRAM bandwidth, GB/s */
    double dram_rd_gbs, dram_wr_gbs; /* reads only / writes only, GB/s */
    double dram_cp_gbs; /* a copy: as many bytes read as written, GB/s (both counted) */
    double bar_cyc;     /* one __syncthreads when the warps arrive together */
    double launch_us;   /* launch overhead as event timing sees it */
    double floor_us;    /* the GPU's own cost of a kernel, part of launch_us (0: unknown) */
    double dispatch_ns; /* the GPU starts at most one block per this many ns on an SM */
    double const_miss_cyc; /* a further line of parameters read, once a launch (0: unknown) */
    double code_miss_cyc;  /* a jump to far code, once a launch (0: unknown) */
    double issue_1warp; /* cycles per instruction of a warp alone on its sub-core (1: every
                         * cycle; sm.issue_1warp_ratio) */
    double overlap_tensor[5]; /* mma.sync beside FMA, ALU, MUFU, ldmatrix, shfl: share hidden */
    int n_coissue;            /* points of sm.coissue (0: the scalars above hold everywhere) */
    double co_warps[8], co_overlap[8][5]; /* by warps on the SM, ascending */
    double clock_max_mhz, clock_tensor_mhz, clock_memory_mhz, clock_fma_mhz;
    int has_clock_tensor, has_clock_memory, has_clock_fma; /* the file states them */
    /* sm.tensor_clock by kind (GC_TCLK_WGMMA, GC_TCLK_MMA): the clock (MHz)
     * at each activity, activity ascending; n_tclk 0: none for that kind */
    int n_tclk[2];
    double tclk_act[2][GC_TCLK_MAX], tclk_mhz[2][GC_TCLK_MAX];
    /* the board's power (has_power 0: the arch lacks a key of it, and no
     * kernel is held to a power limit): limit and idle draw (W), energy per
     * busy tensor SM cycle by kind at clock_max_mhz (pJ), its clock exponent,
     * and per byte of L2 and (beyond the L2) DRAM traffic (pJ) */
    int has_power;
    double pw_limit_w, pw_idle_w, pw_exp, pw_tensor_pj[2], pw_l2_pj, pw_dram_pj;
    gc_derived_list_t derived; /* the SM and memory figures derived, in rule order */
    gc_mform_t *forms;         /* one per arch tensor entry, in file order */
    size_t n_forms;
    int *index; /* open-addressed hash of forms by inst/shape/a/c (-1: empty) */
    size_t index_cap;
    gc_malu_t *alus; /* one per arch alu entry, in file order */
    size_t n_alus;
    gc_malu_t defaults[GC_ALU_DEFAULTS]; /* the default pipes, by prefix */
    gc_malu_t fp64;                      /* dfma / dadd / dmul without an entry */
    struct gc_malu_key *alu_index; /* open-addressed hash of the alu and default names */
    size_t alu_index_cap;
    struct gc_mwgmma *wgmma; /* the wgmma forms by operand types (machine.c) */
    size_t n_wgmma;
} gc_machine_t;

/* Fill m's SM and memory figures from a (derived values recorded in
 * m->derived). Fails with GC_EINPUT when a has no SM count or no DRAM
 * bandwidth of any kind. */
int gc_derive_scalars(const gc_arch_t *a, gc_machine_t *m, gc_err_t *err);

/* Resolve tensor form t of a into f (m's scalars filled already). */
void gc_derive_form(const gc_arch_t *a, const gc_machine_t *m, const gc_tensor_t *t,
                    gc_mform_t *f);

/* Resolve CUDA-core op `name` (arch entry e, or NULL for the defaults) into
 * out: the entry's figures, else the default for its pipe (fp32, half2,
 * int, sfu, fp64) scaled by sm.fp32_lanes. out->ok = 0 when neither. */
void gc_derive_alu(const gc_arch_t *a, const gc_machine_t *m, const char *name,
                   const gc_alu_t *e, gc_malu_t *out);

/* Prefix of default pipe i (0 <= i < GC_ALU_DEFAULTS); the default a name
 * takes: the index whose prefix is the name up to its first '.', or -1. */
const char *gc_derive_alu_default(int i);
int gc_derive_alu_default_of(const char *name);

/* 1 if name is an FP64 op (dfma, dadd, dmul, by prefix). */
int gc_derive_alu_fp64(const char *name);

/* The execution pipe of a sub-core that runs CUDA-core op `name` (SASS
 * name): 0 fma (FFMA, FADD, FMUL, HFMA2, IMAD: the FMA datapaths), 1 alu
 * (IADD3, LOP3, SHF, ISETP, LEA, SEL, MOV, FMNMX, FSETP, FSEL, F2FP, ...),
 * 2 xu (MUFU, FCHK, conversions, POPC), 3 fp64, 4 issue only (bra,
 * uniform, ldc, s2r: a unit of their own that never binds before issue).
 * Different pipes work side by side; one instruction per clock issues to
 * any of them. */
int gc_derive_alu_pipe(const char *name);

#endif
