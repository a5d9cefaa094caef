/* predict.c - the analytic kernel-time model (see predict.h and
 * model/kernels/README.md). Reads a gc_kernel_t and a gc_arch_t, writes a
 * gc_prediction_t; prints it as text or JSON. */
#include "predict.h"
#include "template.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "predict_json.h"
#include "../../arch/pipe.h"
#include "machine.h"

/* fmax without the libm call (no NaN can reach these) */
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* fmin and fmax without the libm call, as glibc's x86-64 ones answer:
 * minsd / maxsd (a < b ? a : b, so of two zeros the second), and the
 * other operand where one is a NaN. A prediction takes a few dozen. */
static inline double dmin(double a, double b)
{
    return a < b ? a : b != b ? a : b;
}

static inline double dmax(double a, double b)
{
    return a > b ? a : b != b ? a : b;
}

static const char *const res_names[GC_R_N] = {
    "tensor", "alu", "issue", "shared", "l2", "dram", "latency", "tail", "launch",
};

const char *gc_predict_resource(int r)
{
    return r >= 0 && r < GC_R_N ? res_names[r] : "?";
}

/* ---- the plan: per-warp, per-iteration demands of one phase ---- */

#define PLAN_PIPES 64

typedef struct pipe_use {
    gc_pipe_t pipe;
    double depth;  /* dependent steps per iteration: count / chains */
    double chains; /* independent chains per warp */
    int wg;        /* counts warpgroups, not warps */
    int cls;       /* execution pipe (gc_derive_alu_pipe; tensor: 0) */
    int after;     /* waits for the loop's tensor work, which waits for it (after_tensor) */
} pipe_use_t;

typedef struct plan {
    double trips, stages, cover; /* cover: rounds a prefetch's latency overlaps */
    int n_tensor, n_alu;
    double inst;        /* instructions issued per warp-iteration */
    double waves;       /* shared / L1 data-path wavefronts per warp-iteration */
    double shfl;        /* the part of waves that are warp shuffles */
    double rd, wr;      /* bytes read / written through the L2 per warp-iteration */
    double sync_rd;     /* part of rd a warp waits for in the same iteration */
    double sync_lines;  /* 128-byte lines of sync_rd per warp-iteration */
    double async_lines; /* lines of the prefetches per warp-iteration */
    double ldg_depth;   /* dependent global-load steps per iteration (0: none) */
    double ldg_l1;      /* log of the odds that a warp's dependent step of synchronous loads
                         * finds all its lines in the L1 (0: all hit; < -700: none can) */
    double async_rd;    /* bytes of cp.async / TMA */
    int tma;            /* async loads use TMA */
    int lds;            /* shared loads: 1 lds, 2 ldmatrix */
    double bars;        /* barriers per iteration */
    double shfl_depth;  /* dependent shuffle steps per iteration (shfl ops given chains) */
    double fma;         /* tensor multiply-adds per warp-iteration */
    double tclock;      /* lowest clock_mhz of the tensor forms used (0: none known) */
    int tkinds;         /* tensor kinds used: bit GC_TCLK_WGMMA, GC_TCLK_MMA */
    double ldg_rd;      /* part of rd read by plain global loads (ldg) */
    double mr;          /* DRAM bytes per L2 byte the phase reads (phase_miss) */
    pipe_use_t tensor[PLAN_PIPES], alu[PLAN_PIPES]; /* last: not cleared, filled as counted */
} plan_t;

static double sectors_of(const gc_kop_t *op)
{
    return op->sectors > 0 ? op->sectors : ceil(op->active * op->width / 32.0);
}

static double lines_of(const gc_kop_t *op)
{
    return op->lines > 0 ? op->lines : dmax(1, ceil(sectors_of(op) / 4.0));
}

/* Wavefronts of one shared access instruction: the banks deliver 128 bytes
 * per cycle, and the data path returns one 32-bit register per thread per
 * cycle (a 16-byte access needs 4 passes; a uniform address, half as many). */
static double shared_waves(const gc_kop_t *op)
{
    double bytes = op->broadcast ? op->width : op->active * op->width;
    double banks = dmax(1, ceil(bytes / 128.0)) * op->ways;
    double regs = op->width / 4.0 * op->active / 32.0 * (op->broadcast ? 0.5 : 1);
    return dmax(banks, dmax(1, ceil(regs)));
}

/* The synchronous global loads of a phase: their bytes, and the log of the
 * odds that every line they touch is an L1 hit (the lines drawn apart, each
 * a hit at its op's l1_hit; a line of an op that never hits makes it -1e300). */
typedef struct sync_acc {
    double bytes, lp;
} sync_acc_t;

/* A tensor op: its pipe use, multiply-adds and instructions. */
static int plan_tensor(const gc_machine_t *m, const gc_kop_t *op, double n, double chains,
                       const char *file, plan_t *pl, gc_derived_list_t *dl, gc_err_t *err)
{
    gc_tensor_plan_t tp;
    int rc = gc_machine_tensor(m, op, file, &tp, dl, err);
    if (rc)
        return rc;
    if (pl->n_tensor >= PLAN_PIPES)
        return gc_err_at(err, GC_ELIMIT, file, op->line, op->col,
                         "more than %d tensor ops in one loop (merge entries)", PLAN_PIPES);
    pipe_use_t *u = &pl->tensor[pl->n_tensor++];
    u->pipe = tp.pipe;
    u->chains = chains * tp.insts;
    u->depth = n / chains;
    u->wg = tp.warpgroup;
    u->cls = 0;
    u->after = 0;
    pl->fma += n * tp.fma / (tp.warpgroup ? 4 : 1); /* 4 warps share a wgmma */
    double clk = tp.form->clock_mhz;
    if (clk > 0 && (pl->tclock <= 0 || clk < pl->tclock))
        pl->tclock = clk;
    pl->tkinds |= 1 << (tp.warpgroup ? GC_TCLK_WGMMA : GC_TCLK_MMA);
    pl->inst += n * tp.insts;
    return 0;
}

/* A CUDA-core op: its pipe use. */
static int plan_alu(const gc_machine_t *m, const gc_kop_t *op, double n, double chains,
                    const char *file, plan_t *pl, gc_derived_list_t *dl, gc_err_t *err)
{
    gc_pipe_t p;
    int cls = 0;
    int rc = gc_machine_alu(m, op, file, &p, &cls, dl, err);
    if (rc)
        return rc;
    if (pl->n_alu >= PLAN_PIPES)
        return gc_err_at(err, GC_ELIMIT, file, op->line, op->col,
                         "more than %d alu ops in one loop (merge entries)", PLAN_PIPES);
    pipe_use_t *u = &pl->alu[pl->n_alu++];
    u->pipe = p;
    u->cls = cls;
    u->wg = 0;
    u->after = op->after_tensor;
    u->chains = chains;
    u->depth = n / chains;
    pl->inst += n;
    return 0;
}

/* A global load: L2 traffic, lines, and the dependent depth it adds. */
static void plan_ldg(const gc_kop_t *op, double n, double chains, plan_t *pl, sync_acc_t *acc)
{
    double bytes = n * sectors_of(op) * 32;
    double hit = op->l1 ? op->l1_hit : 0;
    pl->waves += n * lines_of(op);
    pl->inst += n;
    pl->rd += bytes * (1 - hit);
    pl->ldg_rd += bytes * (1 - hit);
    pl->sync_rd += bytes * (1 - hit);
    pl->sync_lines += n * lines_of(op) * (1 - hit);
    acc->bytes += bytes;
    acc->lp += hit >= 1 ? 0 : hit > 0 ? n * lines_of(op) * log(hit) : -1e300;
    double depth = n / chains;
    if (depth > pl->ldg_depth)
        pl->ldg_depth = depth;
}

/* An asynchronous copy of `bytes` in `lines` lines (cp.async, TMA): a
 * prefetch across pipeline stages, or waited for in the same iteration. */
static void plan_async(double bytes, double lines, plan_t *pl, sync_acc_t *acc)
{
    pl->rd += bytes;
    if (pl->stages > 1) {
        pl->async_rd += bytes;
        pl->async_lines += lines;
    } else {
        pl->sync_rd += bytes;
        pl->sync_lines += lines;
        acc->bytes += bytes;
        acc->lp = -1e300; /* from the L2 */
        if (pl->ldg_depth < 1)
            pl->ldg_depth = 1;
    }
}

/* The shared-memory, global-memory and barrier ops of a phase. */
static void plan_mem(const gc_kop_t *op, double n, double chains, plan_t *pl, sync_acc_t *acc)
{
    switch (op->cls) {
    case GC_OP_LDMATRIX:
        pl->waves += n * op->num * op->ways;
        pl->lds |= 2;
        break;
    case GC_OP_LDS:
        pl->waves += n * shared_waves(op);
        pl->lds |= 1;
        break;
    case GC_OP_STS:
        pl->waves += n * shared_waves(op);
        break;
    case GC_OP_SHFL:
        pl->waves += n;
        pl->shfl += n;
        /* a butterfly: each of its n / chains steps waits for the shuffle
         * before (only where the description gives chains or depth) */
        if ((op->chains > 0 || op->depth > 0) && n / chains > pl->shfl_depth)
            pl->shfl_depth = n / chains;
        break;
    case GC_OP_LDG:
        plan_ldg(op, n, chains, pl, acc);
        return; /* counts its instructions itself */
    case GC_OP_STG:
        pl->waves += n * lines_of(op);
        pl->wr += n * sectors_of(op) * 32;
        break;
    case GC_OP_CP_ASYNC:
        /* the shared-memory write always; the L1's per-line lookups only for
         * cp.async.ca: .cg (every 16-byte copy) bypasses the L1 (PTX ISA,
         * cp.async cache operators) */
        pl->waves += n * ((op->l1 ? lines_of(op) : 0) + shared_waves(op));
        plan_async(n * sectors_of(op) * 32, n * lines_of(op), pl, acc);
        if (op->staged)
            pl->cover = 0; /* its st.shared waits for it in the iteration that issues it */
        break;
    case GC_OP_TMA: {
        /* a multicast load lands in `multicast` blocks' shared memory (each
         * SM's shared data path takes all of it) but is read from the L2
         * once for all of them: the L2's bytes (and the SM link's) are its
         * share. ncu on the H200 sees SMs take in up to 68 bytes a clock
         * on average over a multicast kernel (data/h200/diag_l2.csv, o162),
         * beyond the 64 the link is given (derive.c), so what multicast
         * brings is not charged to it. */
        double mc = op->multicast > 1 ? op->multicast : 1, l2 = n * op->bytes / mc;
        pl->waves += n * op->bytes / 128.0;
        pl->tma = 1;
        plan_async(l2, l2 / 128, pl, acc);
        break;
    }
    case GC_OP_BAR:
        pl->bars += n;
        break;
    default:
        return;
    }
    pl->inst += n;
}

static int plan_phase(const gc_machine_t *m, const gc_kernel_t *k, const gc_kphase_t *ph,
                      plan_t *pl, gc_derived_list_t *dl, gc_err_t *err)
{
    memset(pl, 0, offsetof(plan_t, tensor)); /* the pipe lists are filled as counted */
    pl->trips = ph->present ? ph->trips : 0;
    pl->stages = ph->stages > 0 ? ph->stages : 1;
    pl->cover = pl->stages - 1;
    const char *file = k->path ? k->path : k->name;
    sync_acc_t acc = {0, 0};
    for (size_t i = 0; i < ph->n_ops; i++) {
        const gc_kop_t *op = &ph->ops[i];
        double n = op->count;
        if (n <= 0)
            continue;
        double chains = op->chains > 0 ? dmin(op->chains, n) : n;
        if (op->depth > 0 && (op->cls == GC_OP_ALU || op->cls == GC_OP_SHFL))
            chains = n / op->depth; /* its dependent steps, as given */
        int rc = 0;
        if (op->cls == GC_OP_MMA || op->cls == GC_OP_WGMMA || op->cls == GC_OP_WMMA)
            rc = plan_tensor(m, op, n, chains, file, pl, dl, err);
        else if (op->cls == GC_OP_ALU)
            rc = plan_alu(m, op, n, chains, file, pl, dl, err);
        else
            plan_mem(op, n, chains, pl, &acc);
        if (rc)
            return rc;
    }
    pl->ldg_l1 = acc.bytes > 0 && pl->ldg_depth > 0 ? acc.lp / pl->ldg_depth : -1e300;
    for (int i = 0; pl->n_tensor == 0 && i < pl->n_alu; i++)
        pl->alu[i].after = 0; /* nothing to wait for: an ordinary op */
    return 0;
}

/* ---- one round ---- */

/* Terms of a round: the resources GC_R_TENSOR..GC_R_LATENCY, where L2 and
 * DRAM hold the traffic a customer waits for (synchronous loads), then the
 * traffic nobody waits for (prefetches in flight across pipeline stages,
 * stores). */
enum {
    T_L2A = GC_R_LATENCY + 1,
    T_DRAMA,
    T_DRS, /* DRAM bytes the customers wait for (synchronous reads) */
    T_DRB, /* DRAM bytes read */
    T_DWB, /* DRAM bytes written */
    T_TSR, /* the part of the tensor term that is after_tensor work, not tensor-pipe work */
    NT
};

/* slowest_extra's last answers in one prediction: every wave and both
 * clocks ask again for the same lines (a pure function of its inputs). */
#define EXTRA_MEMO 4

typedef struct extra_memo {
    double mr[EXTRA_MEMO], n[EXTRA_MEMO], v[EXTRA_MEMO];
    int used, next;
} extra_memo_t;

typedef struct ctx {
    const gc_machine_t *m;
    double clock_mhz;
    double period_us; /* the least time between two starts of the kernel (power) */
    double mw; /* DRAM bytes per L2 byte written (read: each phase's plan_t.mr) */
    extra_memo_t *memo;
} ctx_t;

/* The warps on the busiest slot of pipe use u, ceil(max(w, 1) / slots)
 * (arch/pipe.h), at `warps` warps on the SM (wgmma: w = its warpgroups).
 * The pipes of one list mostly share wg and slots: *k keeps the last
 * answer, so the division and ceil run once per change ({-1, -1} first). */
typedef struct slot_q {
    int wg, slots;
    double q;
} slot_q_t;

static double slot_q(slot_q_t *k, const pipe_use_t *u, double warps)
{
    if (u->wg != k->wg || u->pipe.slots != k->slots) {
        double w = u->wg ? ceil(warps / 4.0) : warps;
        k->wg = u->wg, k->slots = u->pipe.slots;
        k->q = gc_pipe_slot_warps(&u->pipe, MAX(w, 1));
    }
    return k->q;
}

/* Issue work of the ops per iteration on the busiest slot, for `warps`
 * warps (arch/pipe.h: n = ceil(warps / slots) * chains per step): ops of
 * one execution pipe add up, different pipes work side by side (the busiest
 * counts; the issue term bounds them together). PIPES: fma, alu, xu, fp64
 * and the issue-only units (gc_derive_alu_pipe). */
#define PIPES 5

static double pipes_cls(const pipe_use_t *u, int n, double warps, double thr[PIPES])
{
    double mx = 0;
    for (int k = 0; k < PIPES; k++)
        thr[k] = 0;
    if (n == 0)
        return 0; /* a phase without such ops */
    slot_q_t q = {-1, -1, 0};
    for (int i = 0; i < n; i++) {
        int k = u[i].cls >= 0 && u[i].cls < PIPES ? u[i].cls : 1;
        if (!u[i].after)
            thr[k] += u[i].depth * (slot_q(&q, &u[i], warps) * u[i].chains) * u[i].pipe.issue_cyc;
    }
    for (int k = 0; k < PIPES; k++)
        mx = MAX(mx, thr[k]);
    return mx;
}

static double pipes_thr(const pipe_use_t *u, int n, double warps)
{
    double thr[PIPES];
    return pipes_cls(u, n, warps, thr);
}

/* The issue time of the after_tensor ops among u, on the busiest slot for
 * `warps` warps: they run between one round's tensor work and the next
 * (the tensor pipe idles meanwhile), so their times add to it. */
static double pipes_after(const pipe_use_t *u, int n, double warps)
{
    double t = 0;
    slot_q_t q = {-1, -1, 0};
    for (int i = 0; i < n; i++)
        if (u[i].after)
            t += u[i].depth * (slot_q(&q, &u[i], warps) * u[i].chains) * u[i].pipe.issue_cyc;
    return t;
}

/* What a sub-core cannot hide when mma.sync and other work share its
 * warps: for each partner k (the FMA, ALU and MUFU pipes, thr: their times
 * from pipes_cls; the shared-memory data path's loads and its shuffles,
 * shared: their times), (1 - overlap_k) of the shorter of the tensor time
 * and k's time (sm.overlap_tensor_fma/_alu/_xu/_ldsm/_shfl, measured by the
 * coissue bench; 1 = hidden, the old rule), at the round's warps on the SM:
 * linear between the warp counts sm.coissue measured, the nearest outside
 * them (the scalars where the arch has no list). A sub-core with fewer warps
 * to choose from hides less: beside ldmatrix it hides 0.71 with 4 warps,
 * nothing with 2. Only for loops whose tensor work is all mma.sync: wgmma
 * runs asynchronously. */
static double overlap_at(const gc_machine_t *m, int k, double warps)
{
    int n = m->n_coissue;
    if (n == 0)
        return m->overlap_tensor[k];
    if (warps <= m->co_warps[0])
        return m->co_overlap[0][k];
    for (int i = 1; i < n; i++)
        if (warps <= m->co_warps[i]) {
            double f = (warps - m->co_warps[i - 1]) / (m->co_warps[i] - m->co_warps[i - 1]);
            return m->co_overlap[i - 1][k] + f * (m->co_overlap[i][k] - m->co_overlap[i - 1][k]);
        }
    return m->co_overlap[n - 1][k];
}

static double coissue_extra(const gc_machine_t *m, const plan_t *pl, const double thr[PIPES],
                            const double shared[2], double tensor, double warps)
{
    if (!(tensor > 0))
        return 0;
    for (int i = 0; i < pl->n_tensor; i++)
        if (pl->tensor[i].wg)
            return 0;
    double extra = 0;
    for (int k = 0; k < 3; k++)
        extra += (1 - overlap_at(m, k, warps)) * dmin(tensor, thr[k]);
    for (int k = 0; k < 2; k++)
        extra += (1 - overlap_at(m, 3 + k, warps)) * dmin(tensor, shared[k]);
    return extra;
}

/* The longest dependency chain of one warp per iteration with `warps` warps
 * on the SM: each step waits the latency plus the overhead of the other
 * instructions in flight on its slot (arch/pipe.h); ops run side by side. */
static double pipes_lat(const pipe_use_t *u, int n, double warps)
{
    double lat = 0;
    slot_q_t k = {-1, -1, 0};
    for (int i = 0; i < n; i++) {
        double per = slot_q(&k, &u[i], warps) * u[i].chains;
        lat = MAX(lat, u[i].depth * (u[i].pipe.lat_cyc + u[i].pipe.overhead_cyc * (per - 1)));
    }
    return lat;
}

/* How much longer than one line's mean latency a customer waits for the
 * slowest of n lines it requested at once: each line is a hit or a miss
 * (miss ratio mr) served by the near or the far L2 partition, so its latency
 * takes one of four values with known odds, and the expected maximum of n
 * draws is sum_v v (F(v)^n - F(v-)^n). The mean of one draw is taken out:
 * one line waits the arch's plateau latency as before. 0 without partition
 * figures. */
static double slowest_extra(const gc_machine_t *m, double mr, double n)
{
    if (!(m->hit_far_cyc > 0) || n <= 1)
        return 0;
    double v[4] = {m->hit_near_cyc, m->hit_far_cyc, m->miss_near_cyc, m->miss_far_cyc};
    double p[4] = {(1 - mr) * m->hit_near_share, (1 - mr) * (1 - m->hit_near_share),
                   mr * m->miss_near_share, mr * (1 - m->miss_near_share)};
    /* sort the four by latency (insertion) */
    for (int i = 1; i < 4; i++)
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double tv = v[j], tp = p[j];
            v[j] = v[j - 1], p[j] = p[j - 1];
            v[j - 1] = tv, p[j - 1] = tp;
        }
    double F = 0, Fn = 0, emax = 0, mean = 0;
    for (int i = 0; i < 4; i++) {
        F += p[i];
        /* pow only where it can tell: F unchanged (p[i] == 0) gives the last
         * power again, and pow(1, n) is 1 (C11 7.12.7.4) */
        double fF = dmin(F, 1);
        double fn = p[i] == 0 ? Fn : fF == 1 ? 1 : pow(fF, n);
        emax += v[i] * (fn - Fn);
        mean += v[i] * p[i];
        Fn = fn;
    }
    return MAX(0, emax - mean);
}

/* slowest_extra through the prediction's memo (mr: the loads' miss ratio). */
static double slowest_memo(const ctx_t *c, double mr, double n)
{
    extra_memo_t *mm = c->memo;
    for (int i = 0; i < mm->used; i++)
        if (mm->mr[i] == mr && mm->n[i] == n)
            return mm->v[i];
    double v = slowest_extra(c->m, mr, n);
    int k = mm->next;
    mm->mr[k] = mr, mm->n[k] = n, mm->v[k] = v;
    mm->next = (k + 1) % EXTRA_MEMO;
    if (mm->used < EXTRA_MEMO)
        mm->used++;
    return v;
}

/* A phase's pipe figures for `warps` warps: the throughput time of its
 * tensor list (pipes_thr) and of its CUDA-core list (pipes_cls: the
 * busiest pipe, each pipe's in cls[]), and its after_tensor work
 * (pipes_after). A round needs them at the SM's warps and at a customer's. */
typedef struct pipe_figs {
    double tensor, alu, after, cls[PIPES];
} pipe_figs_t;

static void pipe_figs(const plan_t *pl, double warps, pipe_figs_t *f)
{
    if (pl->n_tensor == 0 && pl->n_alu == 0) { /* what the three give for empty lists */
        *f = (pipe_figs_t){0, 0, 0, {0, 0, 0, 0, 0}};
        return;
    }
    f->after = pipes_after(pl->alu, pl->n_alu, warps);
    f->tensor = pipes_thr(pl->tensor, pl->n_tensor, warps);
    f->alu = pipes_cls(pl->alu, pl->n_alu, warps, f->cls);
}

/* The customer's own dependent work in phase pl, for a customer of wc
 * warps with W warps on the SM (f: pipe_figs at wc warps; lat: pipes_lat
 * of the tensor and the CUDA-core list at W): overlapped within it, so the
 * longest of its pipes' throughput and dependency chains, its issue, its
 * shared-memory wavefronts and its loads through the SM's L2 link. */
static double own_work(const gc_machine_t *m, const plan_t *pl, const pipe_figs_t *f,
                       const double lat[2], double wc, double W)
{
    double S = m->sub_cores;
    double lone = W <= S ? m->issue_1warp : 1; /* a warp alone on its sub-core (issue term) */
    /* after_tensor work follows the tensor work's results */
    double own = MAX(f->tensor, lat[0]) + f->after;
    own = MAX(own, MAX(f->alu, lat[1]));
    own = MAX(own, ceil(wc / S) * lone * pl->inst);
    own = MAX(own, wc * pl->waves * m->wave_cyc);
    return MAX(own, wc * pl->sync_rd / m->l2_sm_bw_clk);
}

/* The latencies a customer of wc warps waits through in phase pl (lmem: a
 * line's mean latency from the L2 or DRAM at the phase's miss ratio). */
static double wait_cyc(const ctx_t *c, const plan_t *pl, double wc, double lmem)
{
    const gc_machine_t *m = c->m;
    double z = 0;
    if (pl->ldg_depth > 0) { /* each dependent step waits for the slowest of its lines:
                              * the L1's latency only when the customer's lines all hit */
        double all = exp(dmax(-700, wc * pl->ldg_l1));
        z += pl->ldg_depth *
             ((1 - all) * (lmem + slowest_memo(c, pl->mr, wc * pl->sync_lines / pl->ldg_depth)) +
              all * m->l1_lat_cyc);
    }
    if (pl->lds)
        z += (pl->lds & 2) ? m->ldm_lat_cyc : m->shared_lat_cyc;
    /* a shuffle crosses the shared-memory data path (its wavefronts above):
     * its latency is the shared path's (memory.shared.latency_cyc) */
    z += pl->shfl_depth * m->shared_lat_cyc;
    return z + pl->bars * m->bar_cyc;
}

/* Each resource's demand (cycles) in one round of phase pl with N blocks on
 * the SM and A SMs active, given the round takes t cycles (the exposed part
 * of an asynchronous load depends on it). blocks: the round's customers
 * are blocks (its main loop has barriers). */
static void round_terms(const ctx_t *c, const plan_t *pl, double wpb, double N, double A,
                        int blocks, double term[NT], double *lasync)
{
    const gc_machine_t *m = c->m;
    double W = N * wpb;                /* warps on the SM */
    int blocks_wait = pl->bars > 0;    /* a customer is a block, else a warp */
    double wc = blocks_wait ? wpb : 1; /* warps per customer */
    double S = m->sub_cores, mr = pl->mr;
    double r2 = dmin(m->l2_bw_clk / A, m->l2_sm_bw_clk);
    /* cycles per DRAM byte of this SM's share, reading / writing (the turnaround
     * between them is added per round, in round_cycles) */
    double cr = c->clock_mhz * A / (m->dram_rd_gbs * 1e3),
           cw = c->clock_mhz * A / (m->dram_wr_gbs * 1e3);
    /* work that waits for the tensor results, and the next tensor work for
     * it (after_tensor), keeps the tensor pipe idle while it runs */
    pipe_figs_t fw, fc; /* at the SM's warps, at a customer's */
    pipe_figs(pl, W, &fw);
    term[T_TSR] = fw.after;
    term[GC_R_TENSOR] = fw.tensor + term[T_TSR];
    const double *athr = fw.cls; /* each CUDA-core pipe's time */
    term[GC_R_ALU] = fw.alu;
    /* issue: one instruction a cycle on the busiest sub-core, except that a
     * warp alone on its sub-core issues one every sm.issue_1warp_ratio
     * cycles (the alu bench: a lone warp cannot issue every cycle) */
    double lone = W <= S ? m->issue_1warp : 1;
    term[GC_R_ISSUE] = ceil(W / S) * lone * pl->inst;
    term[GC_R_SHARED] = W * pl->waves * m->wave_cyc;
    double sh[2] = {W * (pl->waves - pl->shfl) * m->wave_cyc, W * pl->shfl * m->wave_cyc};
    /* the part of the pair the sub-core cannot hide goes to the longer one */
    double ex = coissue_extra(m, pl, athr, sh, term[GC_R_TENSOR], W);
    int longest = term[GC_R_TENSOR] >= term[GC_R_ALU] ? GC_R_TENSOR : GC_R_ALU;
    term[term[GC_R_SHARED] > term[longest] ? GC_R_SHARED : longest] += ex;
    double async = pl->rd - pl->sync_rd + pl->wr;
    /* the L2 serves bytes at r2 and line requests at rl: requests of one
     * line each are bound by rl (memory.l2.lines_bw_bytes_clk / 16) */
    double rl = m->l2_lines_clk > 0 ? m->l2_lines_clk / A : 0;
    term[GC_R_L2] = MAX(W * pl->sync_rd / r2, rl > 0 ? W * pl->sync_lines / rl : 0);
    term[GC_R_DRAM] = W * pl->sync_rd * mr * cr;
    term[T_L2A] = MAX(W * async / r2, rl > 0 ? W * pl->async_lines / rl : 0);
    term[T_DRAMA] = W * ((pl->rd - pl->sync_rd) * mr * cr + pl->wr * c->mw * cw);
    term[T_DRS] = W * pl->sync_rd * mr;
    term[T_DRB] = W * pl->rd * mr;
    term[T_DWB] = W * pl->wr * c->mw;
    double lmem = (1 - mr) * m->l2_lat_cyc + mr * m->dram_lat_cyc;
    *lasync = pl->async_rd > 0 ? lmem + slowest_memo(c, mr, wc * pl->async_lines) +
                                     (pl->tma ? m->tma_extra_cyc : 0)
                               : 0;
    double lat[2] = {pipes_lat(pl->tensor, pl->n_tensor, W), pipes_lat(pl->alu, pl->n_alu, W)};
    if (wc != W)
        pipe_figs(pl, wc, &fc);
    term[GC_R_LATENCY] =
        wait_cyc(c, pl, wc, lmem) + own_work(m, pl, wc != W ? &fc : &fw, lat, wc, W);
    /* a block whose warps meet at a barrier every trip waits for the whole
     * trip's data before the work after it: its bytes come in through the
     * SM's link and its share of DRAM in series with that work, where the
     * queue below overlaps one customer's demand with the others' (a
     * softmax block holding a row, one block an SM: o044 -31 -> -12 %);
     * a barrier every few trips exposes that part of them */
    if (blocks_wait)
        term[GC_R_LATENCY] += dmin(1, pl->bars) * wc * pl->sync_rd *
                              MAX(1 / m->l2_sm_bw_clk, mr * cr);
    /* a block passes a phase without barriers when its last warp does: at
     * least its warps' own work at the SM's rate, however short one warp's
     * path through it (a block customer's next phase waits for all of them) */
    if (blocks && !blocks_wait) {
        if (wpb != W)
            pipe_figs(pl, wpb, &fc);
        term[GC_R_LATENCY] =
            MAX(term[GC_R_LATENCY], own_work(m, pl, wpb != W ? &fc : &fw, lat, wpb, W));
    }
}

/* x^GC_PREDICT_P and x^(1/GC_PREDICT_P) for the exponent 6, without pow() */
static double pw(double x)
{
    double x2 = x * x;
    return x2 * x2 * x2;
}

static double root(double x)
{
    return cbrt(sqrt(x));
}

/* The round. The resources a customer waits on combine as an L^p norm
 * (near-ties interfere), except instruction issue, which every other pipe
 * overlaps perfectly (a max). Customers then queue for that combined
 * resource: exact mean-value analysis of `ncust` customers cycling between
 * it (demand res/ncust each) and their own latency (a delay of lat minus
 * that demand), which is exact for one customer and tends to res for many.
 * Traffic nobody waits for only has to fit: the round lasts at least as
 * long as the L2 and DRAM need for all of it. In three steps, as the
 * latency term alone changes between the fixed-point steps of
 * round_cycles: the combined resource (comb_prep), the queue for a given
 * latency (comb_t1), each resource's share of the round (comb_shares). */
typedef struct comb {
    double mx, s;     /* the largest term, the sum of (term / mx)^p */
    double res;       /* the combined resource, at least the issue term */
    double sm;        /* its SM part: issue, tensor, CUDA-core pipes, shared data path
                       * (only where lockstep_first reads it: no pipeline stages) */
    double l2, dram;  /* all L2 / DRAM traffic of the round */
    int issue_bound;  /* issue exceeds the combined others */
    int nc;           /* customers */
} comb_t;

static void comb_prep(const double term[NT], double ncust, int piped, comb_t *cb)
{
    double mx = 0, s = 0;
    for (int r = 0; r < GC_R_LATENCY; r++)
        if (r != GC_R_ISSUE)
            mx = MAX(mx, term[r]);
    if (mx > 0)
        for (int r = 0; r < GC_R_LATENCY; r++)
            if (r != GC_R_ISSUE)
                s += pw(term[r] / mx);
    double res = mx > 0 ? mx * root(s) : 0, sm = 0;
    for (int r = 0; r < GC_R_LATENCY && mx > 0 && !piped; r++)
        if (r != GC_R_ISSUE && r != GC_R_L2 && r != GC_R_DRAM)
            sm += pw(term[r] / mx);
    cb->issue_bound = term[GC_R_ISSUE] > res;
    cb->res = MAX(res, term[GC_R_ISSUE]);
    cb->sm = piped ? 0 : MAX(mx * root(sm), term[GC_R_ISSUE]);
    cb->mx = mx;
    cb->s = s;
    cb->nc = ncust >= 1 ? (int)(ncust + 0.5) : 1;
    cb->l2 = term[GC_R_L2] + term[T_L2A];
    cb->dram = term[GC_R_DRAM] + term[T_DRAMA];
}

/* The round's cycles through the queue alone (t1) for latency term lat. */
static double comb_t1(const comb_t *cb, double lat)
{
    double res = cb->res;
    int nc = cb->nc;
    if (!(res > 0))
        return lat;
    double d = res / nc, z = MAX(0, lat - d), q = 0, x = 0, rr = 0;
    int n;
    for (n = 1; n <= nc; n++) {
        rr = d * (1 + q);
        x = n / (z + rr);
        q = x * rr;
        if (x * d > 1 - 1e-12) /* saturated: each further customer adds d */
            break;
    }
    return n < nc ? z + rr + (nc - n) * d : nc / x;
}

/* Each resource's share sh[] of a round of t cycles, t1 of them queueing. */
static void comb_shares(const comb_t *cb, const double term[NT], double t1, double t,
                        double sh[GC_R_LATENCY + 1])
{
    double busy = dmin(cb->res, t1);
    for (int r = 0; r < GC_R_LATENCY; r++)
        sh[r] = 0;
    if (cb->issue_bound)
        sh[GC_R_ISSUE] = busy;
    else if (cb->mx > 0)
        for (int r = 0; r < GC_R_LATENCY; r++)
            if (r != GC_R_ISSUE)
                sh[r] = busy * pw(term[r] / cb->mx) / cb->s;
    sh[GC_R_LATENCY] = t1 - busy;
    if (t > t1)
        sh[cb->dram > cb->l2 ? GC_R_DRAM : GC_R_L2] += t - t1;
}

/* The first round of a wave that starts cold. A kernel's blocks start
 * together, nothing in flight: every customer first waits its own latency
 * (its loads, barriers and dependent steps) and only then do they queue
 * for the round's resources, so the kernel's first round lasts the latency
 * plus the round's whole demand at its bottleneck (the combined resource,
 * or all the L2 and DRAM traffic), where the steady state (mean-value
 * analysis, comb_t1) overlaps one customer's latency with the others'
 * work (cold[0]). The blocks of a wave share the SM's pipes and issue
 * evenly and finish together, so the next wave starts cold as well, as far
 * as the SM's work is concerned (cold[1]: the latency, then the SM's
 * demand; a round the memory bounds is longer than that and stands: its
 * blocks finish in the order DRAM served them, out of step). A long main
 * loop pays this once a wave; a kernel of single-trip blocks (a row each,
 * an element vector each) in every round. Not for a kernel with pipeline
 * stages: a cp.async / TMA pipeline overlaps its loads with the math by
 * design, in step or not (its first loads: the template's ends). lat: the
 * round's latency; t: the steady round; piped: some phase has stages. */
static void lockstep_first(const comb_t *cb, double lat, double t, int piped, double cold[2])
{
    cold[0] = cold[1] = t;
    if (!(cb->res > 0) || piped)
        return;
    double z = MAX(0, lat - cb->res / cb->nc);
    cold[0] = MAX(t, z + MAX(cb->res, MAX(cb->l2, cb->dram)));
    cold[1] = MAX(t, z + cb->sm);
}

/* The shape of a round: who waits, on how many warps, blocks and SMs, and
 * how far the kernel's copies are prefetched. */
typedef struct round_in {
    int blocks;    /* the customers are blocks (the main loop has barriers), else warps */
    double wpb;    /* warps per block */
    double N, A;   /* blocks per SM, SMs */
    double cover;  /* rounds the main loop's prefetches' latency overlaps */
    int piped;     /* some phase of the kernel has stages */
} round_in_t;

/* One round of the main loop with the prologue's and epilogue's demands
 * spread over its trips, all overlapped (a warp-specialised kernel's warps
 * run them at once; round_of runs each phase of any other kernel through
 * here alone), ph[] the phases (NULL: none), in the round's shape. term[]
 * gets the combined demands; cold[] the first round of the kernel and of a
 * later wave (lockstep_first). */
static double round_cycles(const ctx_t *c, const plan_t *const ph[3], const round_in_t *in,
                           double term[NT], double sh[GC_R_LATENCY + 1], double cold[2])
{
    double trips = ph[1] && ph[1]->trips > 0 ? ph[1]->trips : 1;
    double N = in->N, A = in->A;
    double ncust = in->blocks ? N : N * in->wpb; /* blocks wait for each other, or warps don't */
    double lasync = 0;
    memset(term, 0, sizeof(double) * NT);
    for (int i = 0; i < 3; i++) {
        if (!ph[i] || ph[i]->trips <= 0)
            continue;
        double x[NT], la;
        double w = i == 1 ? 1 : ph[i]->trips / trips;
        round_terms(c, ph[i], in->wpb, N, A, in->blocks, x, &la);
        for (int r = 0; r < NT; r++)
            term[r] += w * x[r];
        if (i == 1)
            lasync = la;
    }
    /* DRAM reads and writes in one round share the bus: each turn between them
     * costs what a copy loses against reads and writes alone. Per byte of the
     * smaller direction: 2 / copy - 1 / read - 1 / write (0 when the arch has
     * one bandwidth), shared over all the round's DRAM bytes. */
    const gc_machine_t *m = c->m;
    double ct =
        c->clock_mhz * A / 1e3 * (2 / m->dram_cp_gbs - 1 / m->dram_rd_gbs - 1 / m->dram_wr_gbs);
    double dtot = term[T_DRB] + term[T_DWB];
    if (ct > 0 && dtot > 0) {
        double per = dmin(term[T_DRB], term[T_DWB]) * ct / dtot; /* cycles per DRAM byte */
        term[GC_R_DRAM] += term[T_DRS] * per;
        term[T_DRAMA] += (dtot - term[T_DRS]) * per;
    }
    /* the part of a prefetch's latency its stages - 1 rounds in flight do not
     * cover depends on the round itself: a few fixed-point steps */
    double base = term[GC_R_LATENCY], t = 0, tn = 0, t1 = 0;
    double cover = in->cover;
    comb_t cb;
    int piped = in->piped;
    comb_prep(term, ncust, piped, &cb); /* the latency term is not part of it */
    for (int it = 0; it < 8; it++) {
        term[GC_R_LATENCY] = base + MAX(0, lasync - cover * t);
        t1 = comb_t1(&cb, term[GC_R_LATENCY]);
        tn = MAX(t1, MAX(cb.l2, cb.dram));
        if (lasync <= 0 || fabs(tn - t) <= 1e-9 * tn)
            break;
        t = tn;
    }
    if (sh)
        comb_shares(&cb, term, t1, tn, sh);
    lockstep_first(&cb, term[GC_R_LATENCY], tn, piped, cold);
    return tn;
}

/* One round of a wave of N blocks per SM on A SMs (round_of): its cycles t,
 * demands term[], stall shares sh[] and cold first rounds. */
typedef struct round {
    double A; /* SMs the wave runs on */
    double t, term[NT], sh[GC_R_LATENCY + 1], cold[2];
} round_t;

/* Whether the kernel's warps divide its phases among themselves: a Hopper
 * warp-specialised kernel (CUTLASS sm90 TMA warp-specialised schedules,
 * cuBLAS's nvjet and sm90_xmma: a producer warp issues the TMA loads while
 * consumer warpgroups run the wgmma, and a consumer's epilogue overlaps the
 * producer's next loads). Its loads are TMA copies or its tensor work is
 * wgmma: every description of such a kernel says so. */
static int warp_specialised(const plan_t pl[3])
{
    for (int i = 0; i < 3; i++) {
        if (pl[i].tma)
            return 1;
        for (int j = 0; j < pl[i].n_tensor; j++)
            if (pl[i].tensor[j].wg)
                return 1;
    }
    return 0;
}

/* Whether phase p only starts copies (cp.async or TMA and their address
 * arithmetic: a multistage pipeline's fill): no tensor work, no shared or
 * plain global loads, no shuffles, some bytes read. */
static int fill_only(const plan_t *p)
{
    return p->n_tensor == 0 && !p->lds && p->shfl == 0 && p->ldg_rd == 0 && p->rd > 0;
}

/* One round of a wave of N blocks per SM on A SMs: its cycles t, demands
 * term[], stall shares sh[] and cold first rounds. Every warp of a kernel
 * that is not warp-specialised runs the phases in order (prologue, loop,
 * epilogue: in FlashAttention S = Q K^T, the softmax that needs all of S,
 * then O += P V), and the blocks of a wave start together and share the
 * SM's pipes evenly, so they stay in step: while one block is in a phase
 * the others are too, and the round is the phases' rounds one after
 * another, each with the SM's warps all in it (weighted by its trips per
 * loop trip). ncu on the H200 sees FlashAttention's o001 (2 blocks an SM)
 * keep its tensor pipe 38 % busy, MUFU 29 %, ALU 25 %, FMA 21 % and issue
 * 49 %: nothing near full, the steps not hidden behind each other
 * (model/validation/data/h200/ncu_pipes9.csv). Two exceptions overlap:
 * a prologue that only starts copies (cp.async or TMA and their address
 * arithmetic: a multistage pipeline's fill) is in flight while the loop
 * runs, one round with it as before; and a warp-specialised kernel overlaps
 * all its phases by design (round_cycles over the three). */
static void round_of(const ctx_t *c, const plan_t pl[3], double wpb, double N, double A,
                     round_t *rd)
{
    rd->A = A;
    round_in_t in = {pl[1].bars > 0, wpb, N, A, pl[1].cover,
                     pl[0].stages > 1 || pl[1].stages > 1 || pl[2].stages > 1};
    const plan_t *all[3] = {&pl[0], &pl[1], &pl[2]};
    if (warp_specialised(pl)) {
        rd->t = round_cycles(c, all, &in, rd->term, rd->sh, rd->cold);
        return;
    }
    double trips = pl[1].trips > 0 ? pl[1].trips : 1;
    int fill = pl[0].trips > 0 && fill_only(&pl[0]);
    rd->t = rd->cold[0] = rd->cold[1] = 0;
    memset(rd->term, 0, sizeof rd->term);
    memset(rd->sh, 0, sizeof rd->sh);
    for (int i = fill; i < 3; i++) {
        if (pl[i].trips <= 0)
            continue;
        /* phase i as the loop of a round of its own; the fill runs beside the
         * loop; the loop's prefetch distance covers every phase's copies */
        const plan_t *one[3] = {i == 1 && fill ? &pl[0] : NULL, &pl[i], NULL};
        double w = i == 1 ? 1 : pl[i].trips / trips, term[NT], sh[GC_R_LATENCY + 1], cold[2];
        rd->t += w * round_cycles(c, one, &in, term, sh, cold);
        for (int r = 0; r < NT; r++)
            rd->term[r] += w * term[r];
        for (int r = 0; r <= GC_R_LATENCY; r++)
            rd->sh[r] += w * sh[r];
        rd->cold[0] += w * cold[0];
        rd->cold[1] += w * cold[1];
    }
}

/* Add `reps` waves of round rd to p; returns their cycles. idle: the
 * fraction of the time charged to the tail; start: the first of them is
 * the kernel's first wave. */
static double wave(const ctx_t *c, const plan_t pl[3], const round_t *rd, double idle,
                   gc_prediction_t *p, double reps, int start)
{
    const double *term = rd->term, *sh = rd->sh, *cold = rd->cold;
    double t = rd->t, A = rd->A;
    double trips = pl[1].trips > 0 ? pl[1].trips : 1;
    if (t <= 0)
        return 0;
    /* each wave's first round starts cold (lockstep_first) */
    double extra = (start ? cold[0] - t : 0) + (reps - (start ? 1 : 0)) * (cold[1] - t);
    double cyc = t * trips * reps + extra;
    for (int r = 0; r <= GC_R_LATENCY; r++) {
        p->breakdown[r] += (1 - idle) * sh[r] * trips * reps;
        p->busy[r] += term[r] * trips * reps;
    }
    p->tensor_busy_gpu += (term[GC_R_TENSOR] - term[T_TSR]) * trips * reps * A / c->m->sms;
    p->breakdown[GC_R_LATENCY] += (1 - idle) * extra;
    p->busy[GC_R_L2] += term[T_L2A] * trips * reps;
    p->busy[GC_R_DRAM] += term[T_DRAMA] * trips * reps;
    p->breakdown[GC_R_TAIL] += idle * cyc;
    return cyc;
}

/* ---- occupancy ---- */

static int occupancy(const gc_machine_t *m, const gc_kernel_t *k, const char *file, int *blocks,
                     const char **limit, gc_err_t *err)
{
    long threads = gc_kernel_threads(k), warps = gc_kernel_warps(k);
    if (threads > m->max_block_threads)
        return gc_err_at(err, GC_EINPUT, file, k->launch_line, k->launch_col,
                         "launch.block: %ld threads per block, the arch allows %g", threads,
                         m->max_block_threads);
    if (k->regs > m->max_regs_thread)
        return gc_err_at(err, GC_EINPUT, file, k->launch_line, k->launch_col,
                         "launch.registers: %g per thread, the arch allows %g", k->regs,
                         m->max_regs_thread);
    if (k->shared_bytes > m->shared_block_bytes)
        return gc_err_at(err, GC_EINPUT, file, k->launch_line, k->launch_col,
                         "launch.shared_bytes: %g bytes per block, the arch allows %g",
                         k->shared_bytes, m->shared_block_bytes);
    double lim[6];
    static const char *const names[6] = {"threads",   "warps",  "blocks",
                                         "registers", "shared", "cap"};
    lim[0] = floor(m->max_threads / threads);
    lim[1] = floor(m->max_warps / warps);
    lim[2] = m->max_blocks;
    double regs = k->regs > 0 ? k->regs : 32;
    double per_warp = ceil(regs * 32 / m->reg_unit) * m->reg_unit;
    lim[3] = floor(floor(m->registers / per_warp) / warps);
    lim[4] = k->shared_bytes > 0
                 ? floor(m->shared_sm_bytes / (k->shared_bytes + m->shared_reserved_bytes))
                 : 1e9;
    lim[5] = k->blocks_per_sm > 0 ? k->blocks_per_sm : 1e9;
    int best = 0;
    for (int i = 1; i < 6; i++)
        if (lim[i] < lim[best])
            best = i;
    if (lim[best] < 1)
        return gc_err_at(err, GC_EINPUT, file, k->launch_line, k->launch_col,
                         "launch: one block does not fit on an SM (%s: %ld threads, %g "
                         "registers per thread, %g bytes of shared memory)",
                         names[best], threads, regs, k->shared_bytes);
    *blocks = (int)lim[best];
    *limit = names[best];
    return 0;
}

/* ---- the prediction ---- */

/* Each phase's miss ratio. A kernel's passes of plain loads over its data
 * (ldg: a softmax's or layernorm's passes, an element-wise kernel's one)
 * read its distinct bytes before they read any again, so the first such
 * phases (prologue, loop, epilogue in order) take the first touches, which
 * miss (all hits when the data is warm in the L2), and their other reads
 * miss at the re-read ratio; tile copies (cp.async, TMA) interleave first
 * reads and re-reads of their tiles (a GEMM's panels are read by many
 * blocks at once) and share the rest at one ratio. The phases' DRAM reads
 * add up to the kernel's. */
static void phase_miss(plan_t pl[3], double warps, double unique, double miss, int warm,
                       double l2rd, double drd)
{
    double left = unique, ldg[3], copies = 0; /* ldg bytes by phase; the copies' */
    for (int i = 0; i < 3; i++) {
        ldg[i] = warps * pl[i].trips * pl[i].ldg_rd;
        copies += warps * pl[i].trips * (pl[i].rd - pl[i].ldg_rd);
    }
    double first[3];
    for (int i = 0; i < 3; i++) {
        first[i] = dmin(ldg[i], left);
        left -= first[i];
    }
    double mc = copies > 0 ? ((warm ? 0 : left) + (copies - left) * miss) / copies : 0;
    for (int i = 0; i < 3; i++) {
        double b = warps * pl[i].trips * pl[i].rd, a = b - ldg[i];
        pl[i].mr = b > 0 ? ((warm ? 0 : first[i]) + (ldg[i] - first[i]) * miss + a * mc) / b
                         : (l2rd > 0 ? drd / l2rd : 0);
    }
}

/* The kernel's L2 and DRAM bytes (and each phase's miss ratio: phase_miss). */
static void traffic(const gc_kernel_t *k, const gc_machine_t *m, plan_t pl[3], double wpb,
                    double *l2rd, double *l2wr, double *drd, double *dwr)
{
    double warps = gc_kernel_blocks(k) * wpb;
    *l2rd = *l2wr = 0;
    for (int i = 0; i < 3; i++) {
        *l2rd += warps * pl[i].trips * pl[i].rd;
        *l2wr += warps * pl[i].trips * pl[i].wr;
    }
    /* a footprint value given in the file counts even when it is 0 */
    unsigned given = k->footprint_given;
    double unique =
        (given & GC_FP_READ) || k->read_bytes > 0 ? dmin(k->read_bytes, *l2rd) : *l2rd;
    double reuse = (given & GC_FP_REUSE) || k->reuse_bytes > 0 ? k->reuse_bytes : unique;
    double cap = m->l2_bytes;
    double miss = reuse <= cap ? 0 : (cap > 0 ? 1 - cap / reuse : 1);
    double wr = (given & GC_FP_WRITE) || k->write_bytes > 0 ? dmin(k->write_bytes, *l2wr) : *l2wr;
    /* warm: the data sits in the L2 at launch, and what is written stays there */
    int warm = k->l2_warm && unique + wr <= cap;
    *drd = (warm ? 0 : unique) + dmax(0, *l2rd - unique) * miss;
    *dwr = warm ? 0 : wr;
    phase_miss(pl, warps, unique, miss, warm, *l2rd, *drd);
}

/* The expected largest of n standard normal draws: Blom's approximation
 * Phi^-1((n - 0.375) / (n + 0.25)), with Phi^-1 by Acklam's rational
 * approximation (relative error below 1.2e-9); 0 for n <= 1. */
static double normal_max(double n)
{
    if (n <= 1)
        return 0;
    static const double a[6] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                -2.759285104469687e+02, 1.383577518672690e+02,
                                -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[5] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                -1.556989798598866e+02, 6.680131188771972e+01,
                                -1.328068155288572e+01};
    static const double d[4] = {7.784695709041462e-03, 3.224671290700398e-01,
                                2.445134137142996e+00, 3.754408661907416e+00};
    static const double e[6] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                -2.400758277161838e+00, -2.549732539343734e+00,
                                4.374664141464968e+00, 2.938163982698783e+00};
    double q = (n - 0.375) / (n + 0.25); /* above 0.5 for n > 1 */
    if (q <= 0.97575) {
        double x = q - 0.5, r = x * x;
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * x /
               (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
    double t = sqrt(-2 * log(1 - q));
    return -(((((e[0] * t + e[1]) * t + e[2]) * t + e[3]) * t + e[4]) * t + e[5]) /
           ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1);
}

/* How much longer than its mean warp a kernel lasts: every dependent step of
 * synchronous loads waits a latency that varies from step to step -- a miss
 * by memory.l2.miss_sd_cyc (the fine P-chase's misses: near, far and the
 * slower DRAM page or TLB misses), a hit by the near/far split, and a step
 * hits or misses at the phase's miss ratio -- so a warp's total over its
 * steps varies by sd x sqrt(steps), and the kernel ends with its slowest
 * warp: of all its warps when the grid runs in one wave (they start
 * together), of the last block's warps when later blocks start as earlier
 * ones leave. A TMA copy is one thread's for its whole block, so where a
 * kernel waits only for TMA copies the draws are its blocks (warps / wpb).
 * Cycles; 0 without the spread figures. */
static double straggle_cyc(const gc_machine_t *m, const plan_t pl[3], double warps, double wpb)
{
    int per_warp = 0;
    for (int j = 0; j < 3; j++)
        per_warp |= pl[j].ldg_depth > 0 && (!pl[j].tma || pl[j].ldg_rd > 0);
    if (!per_warp)
        warps /= wpb;
    if (!(m->miss_sd_cyc > 0) || !(m->hit_far_cyc > 0) || warps <= 1)
        return 0;
    double hp = m->hit_near_share, hd = m->hit_far_cyc - m->hit_near_cyc;
    double hvar = hp * (1 - hp) * hd * hd;
    double hmean = hp * m->hit_near_cyc + (1 - hp) * m->hit_far_cyc;
    double var = 0;
    for (int j = 0; j < 3; j++) {
        if (!(pl[j].ldg_depth > 0))
            continue;
        double mr = pl[j].mr, gap = m->dram_lat_cyc - hmean;
        double step = mr * m->miss_sd_cyc * m->miss_sd_cyc + (1 - mr) * hvar +
                      mr * (1 - mr) * gap * gap;
        var += step * pl[j].ldg_depth * (pl[j].trips > 0 ? pl[j].trips : 1);
    }
    return sqrt(var) * normal_max(warps);
}

static double run(const ctx_t *c, const gc_kernel_t *k, const plan_t pl[3], int B, double wpb,
                  gc_prediction_t *p)
{
    const gc_machine_t *m = c->m;
    memset(p->breakdown, 0, sizeof(p->breakdown));
    memset(p->busy, 0, sizeof(p->busy));
    p->tensor_busy_gpu = 0;
    double G = gc_kernel_blocks(k), S = m->sms, cap = S * B;
    double full = floor(G / cap), rest = G - full * cap;
    double cyc = 0;
    round_t rd[2];
    if (full > 0) {
        round_of(c, pl, wpb, B, S, &rd[0]);
        cyc += wave(c, pl, &rd[0], 0, p, full, 1);
    }
    if (rest > 0) {
        double n = ceil(rest / S), act = dmin(S, rest);
        /* a last wave with as many blocks on every SM runs the full waves' round
         * (round_cycles is a function of N and A at one clock) */
        int same = full > 0 && n == B && act == S;
        if (!same)
            round_of(c, pl, wpb, n, act, &rd[1]);
        cyc += wave(c, pl, &rd[same ? 0 : 1], full > 0 ? 1 - rest / cap : 0, p, 1, full == 0);
    }
    double late = straggle_cyc(m, pl, full > 0 ? wpb : G * wpb, wpb);
    /* a launch's first pass through its parameters and its code (the cold
     * bench): each 64-byte line of parameters beyond the one an empty kernel
     * reads, and each jump to code 2 KiB or more away, misses once a launch;
     * the SMs pay it side by side before their work, so once a kernel */
    late += dmax(0, k->param_lines - 1) * m->const_miss_cyc + k->far_jumps * m->code_miss_cyc;
    cyc += late;
    p->breakdown[GC_R_LATENCY] += late;
    /* blocks start at most one per sm.block_dispatch_ns on each SM (measured
     * with empty blocks): a grid of short blocks waits for them to start */
    double disp = G / S * m->dispatch_ns * 1e-3 * c->clock_mhz;
    if (disp > cyc) {
        p->breakdown[GC_R_TAIL] += disp - cyc;
        cyc = disp;
    }
    double launch = m->launch_us * c->clock_mhz;
    p->floor_us = m->floor_us;
    p->breakdown[GC_R_LAUNCH] = launch;
    p->busy[GC_R_LAUNCH] = launch;
    p->busy[GC_R_TAIL] = p->breakdown[GC_R_TAIL];
    p->full_waves = full;
    p->tail_blocks = rest;
    p->waves = G / cap;
    return cyc + launch;
}

double gc_predict_host_launch_us(const gc_prediction_t *p)
{
    return p->clock_mhz > 0 ? p->breakdown[GC_R_LAUNCH] / p->clock_mhz - p->floor_us : 0;
}

/* snprintf(dst, n, "%s", src) without the format machinery (per prediction;
 * n > 0): memchr stops at the first NUL (C11 7.24.5.1) */
static void copy_name(char *dst, size_t n, const char *src)
{
    const char *end = memchr(src, 0, n - 1);
    size_t len = end ? (size_t)(end - src) : n - 1;
    memcpy(dst, src, len);
    dst[len] = 0;
}

/* 1 when the loop's CUDA-core work is busiest on the FMA pipe (FFMA,
 * FADD, FMUL, HFMA2, IMAD: gc_derive_alu_pipe's class 0) with W warps on
 * the SM. */
static int fma_pipe_busiest(const plan_t *loop, double W)
{
    double thr[PIPES];
    pipes_cls(loop->alu, loop->n_alu, W, thr);
    for (int k = 1; k < PIPES; k++)
        if (thr[k] > thr[0])
            return 0;
    return thr[0] > 0;
}

/* The load class of a kernel: tensor when its main loop issues tensor
 * instructions or the tensor pipe bounds it; memory when L2 or DRAM bound
 * it; fma when its main loop is CUDA-core FP32 work: no tensor op, the FMA
 * pipe the busiest CUDA-core pipe and busy for at least half of the
 * kernel's cycles without the launch (fma_share; a SIMT GEMM's loop keeps
 * it busy nearly all the time, as the clock bench's FFMA load does, while a
 * pointer chase or a short kernel leaves it idle and draws far less power);
 * else compute. bound: the largest entry of busy. */
static const char *load_class(const plan_t *loop, int bound, double fma_share, double W)
{
    if (loop->n_tensor > 0 || bound == GC_R_TENSOR)
        return "tensor";
    if (bound == GC_R_DRAM || bound == GC_R_L2)
        return "memory";
    if (fma_share >= 0.5 && fma_pipe_busiest(loop, W))
        return "fma";
    return "compute";
}

/* The clock a prediction runs at: given (--clock), or the sustained clock
 * of the load class its main loop and bound imply. A main loop that issues
 * tensor instructions runs the SM at the clock measured while its form ran
 * (every H100 tensor-core bench row ran at 1544-1874 MHz, at one warp per
 * SM as at full rate; every CUDA-core and shared-memory bench row at
 * 1968-2000 MHz), whatever bounds it. A CUDA-core FP32 loop runs at the
 * clock the clock bench measured under seconds of FFMA on every SM
 * (sm.clock_fma_mhz) when the arch has it. fma_share: the busiest
 * CUDA-core pipe's cycles over the kernel's (launch excluded); W: warps on
 * the SM. */
static double pick_clock(const gc_machine_t *m, const plan_t *loop, const gc_predict_opts_t *o,
                         int bound, double fma_share, double W, const char **cls,
                         const char **src)
{
    int tensor_loop = loop->n_tensor > 0;
    *cls = load_class(loop, bound, fma_share, W);
    if (o && o->clock_mhz > 0) {
        *src = "--clock";
        return o->clock_mhz;
    }
    *src = "sm.clock_max_mhz";
    if (!strcmp(*cls, "tensor") && tensor_loop && loop->tclock > 0) {
        *src = "tensor[form].clock_mhz";
        return loop->tclock;
    }
    if (!strcmp(*cls, "tensor") && m->has_clock_tensor) {
        *src = "sm.clock_tensor_mhz";
        return m->clock_tensor_mhz;
    }
    if (!strcmp(*cls, "memory") && m->has_clock_memory) {
        *src = "sm.clock_memory_mhz";
        return m->clock_memory_mhz;
    }
    if (!strcmp(*cls, "fma") && m->has_clock_fma) {
        *src = "sm.clock_fma_mhz";
        return m->clock_fma_mhz;
    }
    return m->clock_max_mhz;
}

/* "sm.tensor_clock at activity X" for X = 0.00, 0.01, ... 1.00: the
 * clock_source of a prediction timed at its activity (static texts: a
 * prediction is copied freely and owns no memory). */
#define TC_SRC(x) "sm.tensor_clock at activity " x
#define TC_SRC10(p)                                                                            \
    TC_SRC(p "0"), TC_SRC(p "1"), TC_SRC(p "2"), TC_SRC(p "3"), TC_SRC(p "4"), TC_SRC(p "5"),  \
        TC_SRC(p "6"), TC_SRC(p "7"), TC_SRC(p "8"), TC_SRC(p "9")
static const char *const tclk_src[101] = {
    TC_SRC10("0.0"), TC_SRC10("0.1"), TC_SRC10("0.2"), TC_SRC10("0.3"), TC_SRC10("0.4"),
    TC_SRC10("0.5"), TC_SRC10("0.6"), TC_SRC10("0.7"), TC_SRC10("0.8"), TC_SRC10("0.9"),
    TC_SRC("1.00")};
#undef TC_SRC10
#undef TC_SRC

/* The sm.tensor_clock kind a loop's tensor work times by (wgmma when it
 * issues any, else mma.sync), or -1 when the arch has no points for it or
 * a clock is given (--clock). */
static int tclock_kind(const gc_machine_t *m, const plan_t *loop, const gc_predict_opts_t *o)
{
    if ((o && o->clock_mhz > 0) || !loop->tkinds)
        return -1;
    int k = loop->tkinds & (1 << GC_TCLK_WGMMA) ? GC_TCLK_WGMMA : GC_TCLK_MMA;
    return m->n_tclk[k] > 0 ? k : -1;
}

/* The clock of kind k at tensor-pipe activity act: piecewise linear
 * between the measured points, the end point's clock outside them. */
static double tclock_at(const gc_machine_t *m, int k, double act)
{
    int n = m->n_tclk[k];
    const double *x = m->tclk_act[k], *y = m->tclk_mhz[k];
    if (act <= x[0])
        return y[0];
    for (int i = 1; i < n; i++)
        if (act <= x[i])
            return y[i - 1] + (y[i] - y[i - 1]) * (act - x[i - 1]) / (x[i] - x[i - 1]);
    return y[n - 1];
}

/* The tensor-pipe activity of a run: the busy tensor cycles, averaged over
 * all SMs (a partial wave's idle SMs idle), over the kernel's own cycles
 * (the launch excluded), in [0, 1]. */
static double tclock_activity(const gc_prediction_t *p, double cyc)
{
    double own = cyc - p->breakdown[GC_R_LAUNCH];
    double a = own > 0 ? p->tensor_busy_gpu / own : 0;
    return a < 0 ? 0 : a > 1 ? 1 : a;
}

/* The board power (W) of a run of kind k at clock f (MHz) whose own
 * cycles (launch excluded) are cyc, repeated once every period_us or back
 * to back when it takes longer: the idle draw, plus its busy tensor SM
 * cycles at the energy the clock's voltage gives, plus its L2 and DRAM
 * bytes, over that period. */
static double run_power_w(const gc_machine_t *m, int k, const gc_prediction_t *p, double cyc,
                          double f, double period_us)
{
    /* the GPU idles between two starts of a kernel shorter than the
     * period; back to back, a host launches one per launch_us at most */
    double t_s = fmax(cyc / (f * 1e6), fmax(period_us, m->launch_us) * 1e-6);
    double e_cyc = m->pw_tensor_pj[k] * pow(f / m->clock_max_mhz, m->pw_exp);
    double pj = e_cyc * p->tensor_busy_gpu * m->sms + m->pw_l2_pj * p->l2_bytes +
                m->pw_dram_pj * p->dram_bytes;
    return t_s > 0 ? m->pw_idle_w + pj * 1e-12 / t_s : m->pw_idle_w;
}

/* The clock (MHz, at most f) at which a run of cyc own cycles at f draws
 * the board's limit, its cycles taken as fixed (bisection: the draw rises
 * with the clock). */
static double power_clock(const gc_machine_t *m, int k, const gc_prediction_t *p, double cyc,
                          double f, double period_us)
{
    double lo = 0.1 * f, hi = f;
    for (int i = 0; i < 40; i++) {
        double mid = 0.5 * (lo + hi);
        /* the same work at mid takes cyc cycles: its draw scales through t */
        if (run_power_w(m, k, p, cyc, mid, period_us) > m->pw_limit_w)
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

/* Times a tensor loop of kind k at the clock its activity implies: one run
 * at the full load's clock (the point of highest activity), then, when its
 * activity gives another clock, one more at that clock. Where the arch
 * holds the board's power and the run would draw more than its limit, it
 * runs at the clock that keeps it there (two more runs at most: the
 * cycles move a little with the clock). Returns the cycles; the clock into
 * c, its source into *src. */
static double tclock_run(ctx_t *c, const gc_kernel_t *k, const plan_t pl[3], int kind,
                         gc_prediction_t *p, const char **src)
{
    const gc_machine_t *m = c->m;
    double wpb = (double)gc_kernel_warps(k);
    c->clock_mhz = m->tclk_mhz[kind][m->n_tclk[kind] - 1];
    double cyc = run(c, k, pl, p->blocks_per_sm, wpb, p);
    double act = tclock_activity(p, cyc), want = tclock_at(m, kind, act);
    if (want != c->clock_mhz) {
        c->clock_mhz = want;
        cyc = run(c, k, pl, p->blocks_per_sm, wpb, p);
    }
    *src = tclk_src[(int)(act * 100 + 0.5)];
    /* the draw of the run as it stands; over the limit (twice at most), the
     * clock that draws the limit and one more run at it */
    for (int i = 0; m->has_power; i++) {
        double own = cyc - p->breakdown[GC_R_LAUNCH];
        p->power_w = 0;
        if (!(own > 0))
            break;
        p->power_w = run_power_w(m, kind, p, own, c->clock_mhz, c->period_us);
        if (i == 2 || p->power_w <= m->pw_limit_w * 1.001)
            break;
        c->clock_mhz = power_clock(m, kind, p, own, c->clock_mhz, c->period_us);
        cyc = run(c, k, pl, p->blocks_per_sm, wpb, p);
        *src = "sm.power_limit_w (the board's power limit holds the clock below sm.tensor_clock's)";
    }
    return cyc;
}

/* The largest entry of busy[] (the first on a tie). */
static int largest(const double busy[GC_R_N])
{
    int b = 0;
    for (int r = 1; r < GC_R_N; r++)
        if (busy[r] > busy[b])
            b = r;
    return b;
}

/* Plan the three phases of k on m, the occupancy and the traffic into p;
 * the context of its rounds into c. */
static int prepare(const gc_machine_t *m, const gc_kernel_t *k, plan_t pl[3], ctx_t *c,
                   gc_prediction_t *p, gc_err_t *err)
{
    const char *file = k->path ? k->path : k->name;
    const gc_kphase_t *ph[3] = {&k->prologue, &k->loop, &k->epilogue};
    int rc;
    for (int i = 0; i < 3; i++)
        if ((rc = plan_phase(m, k, ph[i], &pl[i], &p->derived, err)))
            return rc;
    int B = 0;
    if ((rc = occupancy(m, k, file, &B, &p->occupancy_limit, err)))
        return rc;
    double wpb = (double)gc_kernel_warps(k);
    p->blocks_per_sm = B;
    p->regs = k->regs > 0 ? k->regs : 32;
    p->regs_estimated = k->regs_estimated;
    p->warps_per_sm = (int)(B * wpb);
    p->blocks = gc_kernel_blocks(k);
    double l2rd, l2wr, drd, dwr;
    traffic(k, m, pl, wpb, &l2rd, &l2wr, &drd, &dwr);
    p->l2_bytes = l2rd + l2wr;
    p->dram_bytes = drd + dwr;
    for (int i = 0; i < 3; i++)
        p->tensor_fma += p->blocks * wpb * pl[i].trips * pl[i].fma;
    *c = (ctx_t){m, m->clock_max_mhz, 0, l2wr > 0 ? dwr / l2wr : 0, c->memo};
    return 0;
}

int gc_predict_on(const gc_machine_t *m, const gc_kernel_t *k, const gc_predict_opts_t *o,
                  gc_prediction_t *p, gc_err_t *err)
{
    memset(p, 0, offsetof(gc_prediction_t, derived));
    copy_name(p->kernel, sizeof(p->kernel), k->name ? k->name : "kernel");
    copy_name(p->arch, sizeof(p->arch), m->name ? m->name : "arch");
    /* the SM and memory figures first, as the rules made them (the used
     * entries only: the list is 1.3 KB, a prediction uses a few) */
    p->derived.n = m->derived.n;
    memcpy(p->derived.d, m->derived.d, sizeof(m->derived.d[0]) * (size_t)m->derived.n);
    plan_t pl[3];
    extra_memo_t memo = {.used = 0, .next = 0};
    ctx_t c = {.memo = &memo};
    int rc = prepare(m, k, pl, &c, p, err);
    if (rc)
        return rc;
    double wpb = (double)gc_kernel_warps(k);
    if (o && o->clock_mhz > 0)
        c.clock_mhz = o->clock_mhz;
    c.period_us = o && o->period_us > 0 ? o->period_us : 0;
    const char *cls, *src;
    double cyc, want;
    int tk = pl[1].n_tensor > 0 ? tclock_kind(m, &pl[1], o) : -1;
    if (tk >= 0) {
        /* a tensor main loop on an arch that measured the clock against
         * tensor-pipe activity: at the clock of its own activity */
        cls = "tensor";
        cyc = tclock_run(&c, k, pl, tk, p, &src);
    } else if (pl[1].n_tensor > 0) {
        /* a tensor main loop runs at its clock whatever bounds it
         * (pick_clock): no run at the default clock to find the bound */
        c.clock_mhz = pick_clock(m, &pl[1], o, GC_R_TENSOR, 0, p->warps_per_sm, &cls, &src);
        cyc = run(&c, k, pl, p->blocks_per_sm, wpb, p);
    } else {
        cyc = run(&c, k, pl, p->blocks_per_sm, wpb, p);
        double own = cyc - p->breakdown[GC_R_LAUNCH];
        want = pick_clock(m, &pl[1], o, largest(p->busy), own > 0 ? p->busy[GC_R_ALU] / own : 0,
                          p->warps_per_sm, &cls, &src);
        if (want != c.clock_mhz) {
            c.clock_mhz = want;
            cyc = run(&c, k, pl, p->blocks_per_sm, wpb, p);
        }
    }
    p->cycles = cyc;
    p->clock_mhz = c.clock_mhz;
    p->clock_source = src;
    p->load_class = cls;
    p->time_us = cyc / c.clock_mhz;
    /* the bound: the resource that holds the largest share of the stall stack,
     * so the word printed above the stack names its dominant entry */
    p->bound = gc_predict_dominant(p);
    for (int r = 0; r < GC_R_LATENCY; r++)
        p->util[r] = cyc > 0 ? p->busy[r] / cyc : 0;
    /* every prediction, whoever prints or sums it (text, JSON, batch, the
     * C API, operators, gemm, plots), is finite and positive or an error */
    return gc_prediction_check(p, err);
}

int gc_predict(const gc_arch_t *a, const gc_kernel_t *k, const gc_predict_opts_t *o,
               gc_prediction_t *p, gc_err_t *err)
{
    const gc_machine_t *m = gc_machine_of(a);
    if (m)
        return gc_predict_on(m, k, o, p, err);
    /* not resolved at load (an arch built in code): resolve it for this call */
    gc_machine_t *own = NULL;
    memset(p, 0, sizeof(*p));
    snprintf(p->kernel, sizeof(p->kernel), "%s", k->name ? k->name : "kernel");
    snprintf(p->arch, sizeof(p->arch), "%s", a->name ? a->name : "arch");
    int rc = gc_machine_create(&own, a, err);
    if (rc)
        return rc;
    rc = gc_predict_on(own, k, o, p, err);
    gc_machine_destroy(own);
    return rc;
}

/* ---- output ---- */

int gc_predict_dominant(const gc_prediction_t *p)
{
    int b = 0;
    for (int r = 1; r < GC_R_N; r++)
        if (p->breakdown[r] > p->breakdown[b])
            b = r;
    return b;
}

void gc_predict_print_text(const gc_prediction_t *p, FILE *fp)
{
    fprintf(fp, "%s on %s: %.1f us (%.0f cycles at %.0f MHz, %s), %s-bound\n", p->kernel, p->arch,
            p->time_us, p->cycles, p->clock_mhz, p->clock_source, gc_predict_resource(p->bound));
    fprintf(fp, "  occupancy: %d blocks/SM (%d warps), limited by %s; %.0f blocks = %.2f waves\n",
            p->blocks_per_sm, p->warps_per_sm, p->occupancy_limit, p->blocks, p->waves);
    if (p->regs_estimated)
        fprintf(fp,
                "  registers: %.0f per thread, estimated (launch.registers not given: 32 plus "
                "the tensor accumulators)\n",
                p->regs);
    fprintf(fp, "  traffic: %.3g MB through L2, %.3g MB to/from DRAM", p->l2_bytes / 1e6,
            p->dram_bytes / 1e6);
    if (p->tensor_fma > 0)
        fprintf(fp, "; %.4g TFLOP/s on tensor cores", 2 * p->tensor_fma / p->time_us / 1e6);
    fprintf(fp, "\n  stall stack (cycles, share):\n");
    for (int r = 0; r < GC_R_N; r++) {
        if (p->breakdown[r] < 0.0005 * p->cycles)
            continue;
        fprintf(fp, "    %-8s %12.0f  %5.1f%%", gc_predict_resource(r), p->breakdown[r],
                100 * p->breakdown[r] / p->cycles);
        if (r < GC_R_LATENCY)
            fprintf(fp, "   (busy %.0f%%)", 100 * p->util[r]);
        fputc('\n', fp);
    }
}

void gc_predict_print_derived(const gc_prediction_t *p, FILE *fp)
{
    if (p->derived.n) {
        fprintf(fp, "  derived (the arch file lacks them):\n");
        for (int i = 0; i < p->derived.n; i++) {
            char key[160];
            fprintf(fp, "    %s = %.4g  (%s)\n", gc_derived_key(&p->derived.d[i], key, sizeof(key)),
                    p->derived.d[i].value, p->derived.d[i].how);
        }
    }
}


/* the JSON text: predict_json.c */
void gc_predict_print_json(const gc_prediction_t *p, const char *extra, FILE *fp)
{
    gc_jbuf_t jb;
    gc_jbuf_init(&jb, 0);
    gc_predict_json(&jb, p, extra);
    gc_jbuf_write(&jb, fp);
    gc_jbuf_fini(&jb);
}
