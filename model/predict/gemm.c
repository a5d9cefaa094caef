/* gemm.c - the gemm template (see gemm.h): the kernels a vendor library
 * would run for C = A*B, described per warp and iteration like any other
 * kernel, predicted, and the fastest tile shape kept. */
#include "gemm.h"
#include "gemm_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const dt_names[] = {"f16", "bf16", "tf32", "f32", "f8e4m3", "i8"};

int gc_gemm_dtype(const char *s, gc_gemm_dtype_t *dt)
{
    for (int i = 0; i < 6; i++)
        if (!strcmp(s, dt_names[i])) {
            *dt = (gc_gemm_dtype_t)i;
            return 0;
        }
    return -1;
}

/* Element sizes (bytes) and the tensor types of a dtype. */
static double in_bytes(gc_gemm_dtype_t dt)
{
    return dt == GC_GEMM_TF32 || dt == GC_GEMM_F32    ? 4
           : dt == GC_GEMM_F8E4M3 || dt == GC_GEMM_I8 ? 1
                                                      : 2;
}

static double out_bytes(gc_gemm_dtype_t dt)
{
    return dt == GC_GEMM_F16 || dt == GC_GEMM_BF16 ? 2 : 4; /* f8 -> f32, i8 -> s32 */
}

double gc_gemm_in_bytes(gc_gemm_dtype_t dt)
{
    return in_bytes(dt);
}

/* C is written in the input type for f16 / bf16, and in bf16 for f8 (what
 * torch._scaled_mm is asked for), f32 for tf32 / f32, s32 for i8. */
double gc_gemm_out_bytes(gc_gemm_dtype_t dt)
{
    return dt == GC_GEMM_F8E4M3 ? 2 : out_bytes(dt);
}

const char *gc_gemm_dtype_name(gc_gemm_dtype_t dt)
{
    return dt_names[dt];
}

static const char *atype(gc_gemm_dtype_t dt)
{
    static const char *const a[] = {"f16", "bf16", "tf32", "f32", "e4m3", "s8"};
    return a[dt];
}

static const char *ctype(gc_gemm_dtype_t dt)
{
    return dt == GC_GEMM_I8 ? "s32" : "f32";
}

/* k of one tensor instruction: 256 bits of A per row (mma m16n8k16 f16,
 * k8 tf32, k32 for 8-bit types; wgmma the same). */
static int inst_k(gc_gemm_dtype_t dt)
{
    return (int)(32 / in_bytes(dt));
}

/* ---- candidate tiles of each path ---- */

typedef struct cand {
    int bm, bn, bk, stages, warps; /* block tile, pipeline depth, warps per block */
    int wm, wn;                    /* warp tile (mma paths); consumer warpgroups (wgmma: wm) */
} cand_t;

/* Hopper: warp-specialised wgmma, one producer warpgroup issuing TMA and
 * wm consumer warpgroups of 64 rows each (CUTLASS 3 / cuBLAS sm90 kernels). */
static const cand_t c_wgmma[] = {
    {128, 256, 64, 4, 12, 2, 0}, {256, 128, 64, 4, 12, 2, 0}, /* consumers of 128 rows: two m64 per
                                                                 warpgroup */
    {128, 128, 64, 6, 12, 2, 0}, {64, 128, 64, 8, 8, 1, 0},   {64, 64, 64, 8, 8, 1, 0},
};

/* Ampere / Ada: mma.sync + ldmatrix + cp.async multistage (CUTLASS 2 sm80). */
static const cand_t c_mma[] = {
    {128, 256, 32, 3, 8, 64, 64}, {256, 128, 32, 3, 8, 64, 64}, {128, 128, 32, 4, 4, 64, 64},
    {128, 64, 32, 4, 4, 64, 32},  {64, 64, 32, 6, 4, 32, 32},
};

/* Turing: mma.sync m16n8k8 with register double buffering (no cp.async). */
static const cand_t c_turing[] = {
    {128, 128, 32, 2, 4, 64, 64},
    {128, 64, 32, 2, 4, 64, 32},
    {64, 64, 32, 2, 4, 32, 32},
};

/* CUDA cores, f32: 256 threads, 8x8 outputs per thread (the classic SGEMM). */
static const cand_t c_ffma[] = {
    {128, 128, 8, 2, 8, 32, 64},
    {64, 64, 8, 2, 2, 32, 64},
};

typedef enum { P_WGMMA, P_MMA, P_TURING, P_FFMA } path_t;

static path_t path_of(const gc_arch_t *a, gc_gemm_dtype_t dt)
{
    int cc = gc_arch_cc(a);
    if (dt == GC_GEMM_F32)
        return P_FFMA;
    if (cc >= 90)
        return P_WGMMA;
    if (cc >= 80)
        return P_MMA;
    return P_TURING;
}

static const cand_t *cands(path_t p, int *n)
{
    switch (p) {
    case P_WGMMA:
        *n = (int)(sizeof(c_wgmma) / sizeof(c_wgmma[0]));
        return c_wgmma;
    case P_MMA:
        *n = (int)(sizeof(c_mma) / sizeof(c_mma[0]));
        return c_mma;
    case P_TURING:
        *n = (int)(sizeof(c_turing) / sizeof(c_turing[0]));
        return c_turing;
    default:
        *n = (int)(sizeof(c_ffma) / sizeof(c_ffma[0]));
        return c_ffma;
    }
}

static gc_kop_t *op(gc_kernel_t *k, gc_kphase_t *ph, gc_opclass_t c, double count, int *ok)
{
    gc_kop_t *o = gc_kernel_op(k, ph, c);
    if (!o) {
        *ok = 0;
        return NULL;
    }
    o->count = count;
    return o;
}

/* One candidate being described: the kernel, its tile, and the per-warp
 * quantities every path's ops are written from. ok drops to 0 when an op
 * could not be added (out of memory). */
typedef struct gdesc {
    gc_kernel_t *k;
    cand_t c;
    gc_gemm_dtype_t dt;
    double eb, ob;  /* bytes per element of A and B, of C */
    double W;       /* warps per block */
    double pro;     /* k steps the prologue loads (stages - 1, at most trips) */
    double lfrac;   /* fraction of the loop's iterations that load */
    double tile_in; /* bytes of A and B per iteration */
    int ik;         /* k of one tensor instruction */
    int ok;
} gdesc_t;

/* A 16-byte cp.async (L2 only, .cg) of `count` copies per warp in phase ph. */
static void cp_async16(gdesc_t *g, gc_kphase_t *ph, double count)
{
    gc_kop_t *o = op(g->k, ph, GC_OP_CP_ASYNC, count, &g->ok);
    if (o) {
        o->width = 16;
        o->l1 = 0;
    }
}

/* The epilogue's stores of the C tile, 16 bytes per lane: accumulators to
 * shared, then shared to global (512 bytes per warp instruction each). */
static void c_stores(gdesc_t *g)
{
    double cbytes = (double)g->c.bm * g->c.bn * g->ob;
    gc_kop_t *o = op(g->k, &g->k->epilogue, GC_OP_STS, cbytes / (g->W * 512), &g->ok);
    if (o)
        o->width = 16;
    o = op(g->k, &g->k->epilogue, GC_OP_STG, cbytes / (g->W * 512), &g->ok);
    if (o)
        o->width = 16;
}

/* Hopper's warp-specialised kernel: c.wm consumer warpgroups each covering
 * bm / wm rows as m64 slabs of wgmma, one producer thread issuing a TMA
 * load of A and of B per stage, and the epilogue through stmatrix. */
static void ops_wgmma(gdesc_t *g, gc_gemm_result_t *info)
{
    const cand_t *c = &g->c;
    gc_kernel_t *k = g->k;
    int slabs = c->bm / 64 / c->wm; /* m64 wgmma per consumer warpgroup per k16 */
    char shape[32];
    snprintf(shape, sizeof(shape), "m64n%dk%d", c->bn, g->ik);
    double per_cons_warp = (double)slabs * (c->bk / g->ik);
    /* averaged over all warps: consumers are 4*wm of the warps */
    double frac = 4.0 * c->wm / g->W;
    gc_kop_t *o = op(k, &k->loop, GC_OP_WGMMA, per_cons_warp * frac, &g->ok);
    if (o) {
        o->inst = "wgmma";
        o->shape = gc_kernel_str(k, shape);
        o->a = atype(g->dt);
        o->c = ctype(g->dt);
        o->operands = "ss";
        o->chains = fmax(1, slabs * frac);
    }
    /* producer: one TMA load of A and one of B per stage, issued by one
     * thread. Clusters of 2 blocks along M multicast their common B tile:
     * it is read from the L2 once for both (CUTLASS's sm90 default cluster
     * shape 2x1x1). */
    double a_bytes = (double)c->bm * c->bk * g->eb, b_bytes = (double)c->bn * c->bk * g->eb;
    o = op(k, &k->loop, GC_OP_TMA, g->lfrac / g->W, &g->ok);
    if (o)
        o->bytes = a_bytes;
    o = op(k, &k->loop, GC_OP_TMA, g->lfrac / g->W, &g->ok);
    if (o) {
        o->bytes = b_bytes;
        o->multicast = 2;
    }
    /* mbarrier waits and arrivals, fences, loop control */
    o = op(k, &k->loop, GC_OP_ALU, 12, &g->ok);
    if (o)
        o->name = "iadd3";
    /* prologue: fill the ring */
    o = op(k, &k->prologue, GC_OP_TMA, g->pro / g->W, &g->ok);
    if (o)
        o->bytes = a_bytes + b_bytes / 2;
    /* epilogue: accumulators -> shared (stmatrix) -> global */
    c_stores(g);
    op(k, &k->epilogue, GC_OP_BAR, 1, &g->ok);
    k->regs = 168; /* consumers hold 64 x bn / 128 f32 accumulators per thread */
    k->shared_bytes = c->stages * g->tile_in + 1024;
    snprintf(info->inst, sizeof(info->inst), "wgmma %s %s.%s ss", shape, atype(g->dt),
             ctype(g->dt));
    info->path = "wgmma+tma";
}

/* Ampere / Ada (cp.async multistage) and Turing (register double
 * buffering): mma.sync over the warp tile, fragments by ldmatrix.x4. */
static void ops_mma(gdesc_t *g, int turing, gc_gemm_result_t *info)
{
    const cand_t *c = &g->c;
    gc_kernel_t *k = g->k;
    int tk = turing ? (g->dt == GC_GEMM_I8 ? 16 : 8) : g->ik;
    char shape[32];
    snprintf(shape, sizeof(shape), "m16n8k%d", tk);
    double mmas = (double)(c->wm / 16) * (c->wn / 8) * (c->bk / tk);
    gc_kop_t *o = op(k, &k->loop, GC_OP_MMA, mmas, &g->ok);
    if (o) {
        o->inst = "mma";
        o->shape = gc_kernel_str(k, shape);
        o->a = atype(g->dt);
        o->c = ctype(g->dt);
        o->chains = (double)(c->wm / 16) * (c->wn / 8);
    }
    /* fragments: the warp tile's A and B rows for the k step, 512 bytes per
     * ldmatrix.x4, from a swizzled (conflict-free) layout */
    double frag = (double)(c->wm + c->wn) * c->bk * g->eb;
    o = op(k, &k->loop, GC_OP_LDMATRIX, frag / 512, &g->ok);
    if (o)
        o->num = 4;
    /* global -> shared: 16 bytes per thread per copy, whole rows */
    double copies = g->tile_in / 16 / (32 * g->W);
    if (!turing) {
        cp_async16(g, &k->loop, copies * g->lfrac);
        cp_async16(g, &k->prologue, copies * g->pro);
    } else { /* registers hold the next tile: loads in flight over one stage */
        cp_async16(g, &k->loop, copies);
    }
    op(k, &k->loop, GC_OP_BAR, 1, &g->ok);
    o = op(k, &k->loop, GC_OP_ALU, 16 + copies * 4, &g->ok);
    if (o)
        o->name = "imad";
    c_stores(g);
    op(k, &k->epilogue, GC_OP_BAR, 2, &g->ok);
    double acc = (double)c->wm * c->wn / 32;
    k->regs = fmin(255, acc + 64 + (c->wm + c->wn) / 4);
    k->shared_bytes = c->stages * g->tile_in;
    snprintf(info->inst, sizeof(info->inst), "mma %s %s.%s", shape, atype(g->dt), ctype(g->dt));
    info->path = turing ? "mma+ldg" : "mma+cp.async";
}

/* CUDA cores, f32: 8x8 outputs per thread, 64 FFMA per k, fragments by
 * LDS.128, A stored transposed through registers. */
static void ops_ffma(gdesc_t *g, gc_gemm_result_t *info)
{
    gc_kernel_t *k = g->k;
    double ks = g->c.bk;
    gc_kop_t *o = op(k, &k->loop, GC_OP_ALU, 64 * ks, &g->ok);
    if (o) {
        o->name = "ffma";
        o->chains = 64;
    }
    o = op(k, &k->loop, GC_OP_LDS, 4 * ks, &g->ok);
    if (o) { /* lanes in a row of the warp's 4x8 layout share an address */
        o->width = 16;
        o->broadcast = 1;
    }
    double copies = g->tile_in / 16 / (32 * g->W);
    cp_async16(g, &k->loop, copies);                    /* register-staged prefetch */
    o = op(k, &k->loop, GC_OP_STS, copies * 4, &g->ok); /* A is stored transposed */
    if (o)
        o->width = 4;
    op(k, &k->loop, GC_OP_BAR, 1, &g->ok);
    o = op(k, &k->loop, GC_OP_ALU, 20, &g->ok);
    if (o)
        o->name = "imad";
    o = op(k, &k->epilogue, GC_OP_STG, 16, &g->ok);
    if (o) {
        o->width = 16;
        o->sectors = 32;
    }
    k->regs = 128;
    k->shared_bytes = g->c.stages * g->tile_in;
    snprintf(info->inst, sizeof(info->inst), "ffma");
    info->path = "ffma";
}

/* DRAM traffic of the kernel. A library rasterises the tiles so that the
 * blocks running at once cover a near-square patch of C: they walk K
 * together and share their A row and B column panels through the L2. DRAM
 * then reads A and B once when they fit the L2, else once per wave: the
 * patch's rows and columns, K deep. C is written once. tm x tn: the tile
 * grid; trips: k steps. */
static void footprint(const gc_arch_t *a, const gdesc_t *g, long m, long n, long kk, double tm,
                      double tn, double trips)
{
    const cand_t *c = &g->c;
    gc_kernel_t *k = g->k;
    double L2 = a->memory.l2.size_mib.set ? a->memory.l2.size_mib.v * 1048576.0 : 0;
    double ab = ((double)m * kk + (double)kk * n) * g->eb;
    double sms = a->sm.count.set ? a->sm.count.v : 1;
    double tiles = tm * tn, conc = fmin(tiles, sms);
    double rows = fmin(tm, fmax(1, sqrt(conc * c->bn / c->bm))), cols = fmin(tn, ceil(conc / rows));
    double per_wave = (rows * c->bm + cols * c->bn) * kk * g->eb;
    double waves = ceil(tiles / conc);
    k->read_bytes = ab <= L2 ? ab : fmax(ab, fmin(waves * per_wave, tiles * g->tile_in * trips));
    k->reuse_bytes = 1; /* every re-read is counted in read_bytes */
    k->write_bytes = (double)m * n * g->ob;
}

/* The candidate's tile for dtype dt on its path: the k step covers 128
 * bytes of a row (wgmma) or 64 (mma): f16 64 / 32, tf32 32 / 16, 8-bit
 * 128 / 64; the FFMA tile keeps its own. */
static cand_t tile_of(path_t path, cand_t c, gc_gemm_dtype_t dt)
{
    if (path == P_WGMMA)
        c.bk = (int)(128 / in_bytes(dt));
    else if (path == P_MMA || path == P_TURING)
        c.bk = (int)(64 / in_bytes(dt));
    return c;
}

/* info's problem and tile fields for candidate c (the rest zeroed). */
static void info_of(gc_gemm_result_t *info, long m, long n, long kk, gc_gemm_dtype_t dt,
                    const cand_t *c)
{
    memset(info, 0, sizeof(*info));
    info->m = m;
    info->n = n;
    info->k = kk;
    info->dtype = dt;
    info->tile_m = c->bm;
    info->tile_n = c->bn;
    info->tile_k = c->bk;
    info->stages = c->stages;
    info->warps = c->warps;
}

/* the description of candidate `cand` of the path for M x N x K */
int gc_gemm_kernel(const gc_arch_t *a, long m, long n, long kk, gc_gemm_dtype_t dt, int cand,
                   gc_kernel_t **out, gc_gemm_result_t *info, gc_err_t *err)
{
    *out = NULL;
    path_t path = path_of(a, dt);
    int nc;
    const cand_t *cs = cands(path, &nc);
    if (cand < 0 || cand >= nc)
        return gc_err_set(err, GC_EUSAGE, "no gemm candidate %d", cand);
    gdesc_t g = {.c = tile_of(path, cs[cand], dt), .dt = dt, .ok = 1};
    const cand_t *c = &g.c;
    char name[96];
    snprintf(name, sizeof(name), "gemm_%ldx%ldx%ld_%s", m, n, kk, dt_names[dt]);
    gc_kernel_t *k = g.k = gc_kernel_create(name);
    if (!k)
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    k->source = "gpucal gemm template (model/predict/gemm.c)";
    g.eb = in_bytes(dt);
    g.ob = out_bytes(dt);
    double tm = ceil((double)m / c->bm), tn = ceil((double)n / c->bn);
    k->grid[0] = (long)tn;
    k->grid[1] = (long)tm;
    if (tm > 65535) { /* grid y limit: fold into x */
        k->grid[0] = (long)(tn * tm);
        k->grid[1] = 1;
    }
    k->block[0] = 32L * c->warps;
    g.W = c->warps;
    double trips = ceil((double)kk / c->bk);
    k->loop.trips = trips;
    k->loop.stages = c->stages;
    /* the prologue fills stages - 1 slots of the ring; the loop loads the other
     * k steps (the last stages - 1 iterations load nothing): A and B cross the
     * L2 once per k step, trips times in all */
    g.pro = fmin(c->stages - 1.0, trips);
    g.lfrac = (trips - g.pro) / trips;
    g.tile_in = (double)(c->bm + c->bn) * c->bk * g.eb;
    g.ik = inst_k(dt);
    info_of(info, m, n, kk, dt, c);
    if (path == P_WGMMA)
        ops_wgmma(&g, info);
    else if (path == P_FFMA)
        ops_ffma(&g, info);
    else
        ops_mma(&g, path == P_TURING, info);
    if (!g.ok) {
        gc_kernel_destroy(k);
        return gc_err_set(err, GC_ENOMEM, "out of memory");
    }
    footprint(a, &g, m, n, kk, tm, tn, trips);
    info->candidates = nc;
    *out = k;
    return 0;
}

/* The template's own tile list, one kernel, fastest kept (kept for
 * comparison; gc_gemm_predict now predicts what the library runs). */
int gc_gemm_predict_template(const gc_arch_t *a, long m, long n, long k, gc_gemm_dtype_t dt,
                             const gc_predict_opts_t *o, gc_gemm_result_t *r, gc_err_t *err)
{
    memset(r, 0, sizeof(*r));
    int nc;
    cands(path_of(a, dt), &nc);
    int best = -1, fits = 0;
    gc_err_t first;
    gc_err_clear(&first);
    for (int i = 0; i < nc; i++) {
        gc_kernel_t *kd;
        gc_gemm_result_t info;
        gc_err_t e;
        gc_err_clear(&e);
        int rc = gc_gemm_kernel(a, m, n, k, dt, i, &kd, &info, &e);
        if (!rc) {
            rc = gc_predict(a, kd, o, &info.pred, &e);
            gc_kernel_destroy(kd);
        }
        if (rc) {
            if (!first.code)
                first = e;
            if (rc == GC_ENOMEM)
                break;
            continue;
        }
        fits++;
        if (best < 0 || info.pred.time_us < r->pred.time_us) {
            *r = info;
            best = i;
        }
    }
    if (best < 0) {
        if (err)
            *err = first;
        return first.code ? first.code : gc_err_set(err, GC_ERUN, "no gemm kernel fits");
    }
    r->candidates = fits;
    r->tflops = 2.0 * m * n * k / (r->pred.time_us * 1e6);
    snprintf(r->pred.kernel, sizeof(r->pred.kernel), "gemm %ldx%ldx%ld %s", m, n, k, dt_names[dt]);
    return 0;
}

void gc_gemm_describe(const gc_gemm_result_t *r, char *json, size_t nj, char *text, size_t nt)
{
    snprintf(json, nj,
             "\"template\": {\"name\": \"gemm\", \"m\": %ld, \"n\": %ld, \"k\": %ld, "
             "\"dtype\": \"%s\", \"path\": \"%s\", \"instruction\": \"%s\", "
             "\"tile\": [%d, %d, %d], \"stages\": %d, \"warps\": %d, \"candidates\": %d, "
             "\"tflops\": %.1f}",
             r->m, r->n, r->k, dt_names[r->dtype], r->path, r->inst, r->tile_m, r->tile_n,
             r->tile_k, r->stages, r->warps, r->candidates, r->tflops);
    snprintf(text, nt,
             "  gemm %ldx%ldx%ld %s: %s, %s, block tile %dx%dx%d, %d stages, %d warps "
             "(fastest of %d tile shapes); %.1f TFLOP/s\n",
             r->m, r->n, r->k, dt_names[r->dtype], r->path, r->inst, r->tile_m, r->tile_n,
             r->tile_k, r->stages, r->warps, r->candidates, r->tflops);
}
