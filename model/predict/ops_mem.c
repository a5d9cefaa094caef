/* ops_mem.c - the memory-bound operator templates: elementwise, transpose,
 * rowsum (softmax: ops_softmax.c, layernorm: ops_norm.c). Each builds the
 * kernel PyTorch launches, with the launch arithmetic of the cited source
 * file (pytorch/pytorch, the v2.10/v2.11 tree) and, per warp, the
 * instructions its compiled code executes, by unit (ops_mix_t), read off
 * the SASS listings named at each (model/validation/data/h200/sass/); the
 * arch file supplies every rate, latency and bandwidth. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops_build.h"

/* The instructions per element of each elementwise op in fp32 opmath, by
 * unit (ops_mix_t): gelu, the erf form of PyTorch's default approximate =
 * 'none' (x * 0.5 * (1 + erf(x / sqrt 2)), erff's two polynomials selected
 * per element by FSEL, MUFU.EX2), read off the SASS listing o087 (bf16,
 * model/validation/data/h200/sass/); relu, which PyTorch runs as
 * clamp_min (launch_clamp_scalar: the NaN test, FMNMX with the limit, read
 * by an LDC per element: listing o091, f16); add, mul (one FADD / FMUL) and
 * exp (expf as the softmax listings compile it: o041) are not from a
 * listing of their own. */
typedef struct eop {
    const char *name;
    int inputs;
    ops_mix_t m;
} eop_t;

static const eop_t eops[] = {
    {"relu", 1, {.fcmp = 2, .ldc = 1}},
    {"add", 2, {.ffma = 1}},
    {"mul", 2, {.ffma = 1}},
    {"exp", 1, {.ffma = 8, .imad = 0.5, .ialu = 0.5, .mufu = 1}},
    {"gelu", 1, {.ffma = 13, .fcmp = 10, .ialu = 1, .mufu = 1}},
};

/* Per warp, whatever the op (o087): the indices and parameters, the
 * remainder test, the addresses, the constants. Per 16-bit element: each
 * input unpacked from its vector (PRMT, half of one) and widened; the
 * result packed (F2FP, half of one). */
static const ops_mix_t EW_FIXED = {.ffma = 2, .imad = 8, .ialu = 4, .ldc = 5, .uni = 2, .bra = 2};

/* elementwise: vectorized_elementwise_kernel<vec_size> (pytorch
 * aten/src/ATen/native/cuda/CUDALoops.cuh, launch_vectorized_kernel):
 * num_threads() = 128 threads per block, elems_per_thread = 8 (io sizes
 * above 1 byte), grid = ceil(N / (128 * 8)), vec_size = 16 / sizeof(out):
 * each thread loads 8 / vec_size 16-byte vectors per input and stores as
 * many. The remainder block runs the unrolled policy (same bytes). */
int ops_elementwise(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    (void)a;
    const eop_t *e = NULL;
    for (size_t i = 0; i < sizeof(eops) / sizeof(eops[0]); i++)
        if (!strcmp(eops[i].name, g->eop))
            e = &eops[i];
    if (!e)
        return gc_err_set(err, GC_EUSAGE,
                          "elementwise: unknown --op '%s' (gelu, relu, add, mul or exp)", g->eop);
    int sz = ops_dsize(g->dtype);
    double vec = 16.0 / sz, ept = 8, n = (double)g->n;
    char name[64];
    snprintf(name, sizeof(name), "vectorized_elementwise_kernel<%d> %s", (int)vec, e->name);
    kb_t b;
    gc_kernel_t *k = kb_start(&b, name,
                              "pytorch aten/src/ATen/native/cuda/CUDALoops.cuh "
                              "(launch_vectorized_kernel, vectorized_elementwise_kernel); "
                              "counts: model/validation/data/h200/sass/o087, o091",
                              err);
    if (!k)
        return GC_ENOMEM;
    k->grid[0] = (long)ceil(n / (128 * ept));
    k->block[0] = 128;
    k->regs = 32;
    k->param_lines = 2; /* parameters and code (sass/o087 o091: 2 lines, no far jump) */
    gc_kphase_t *L = &k->loop;
    L->trips = 1;
    kb_ldg(&b, L, 16, e->inputs * ept / vec, 0);
    ops_mix_t m = EW_FIXED, wid = ops_widen(g->dtype);
    ops_mix_add(&m, &e->m, ept);
    if (sz == 2) {
        ops_mix_add(&m, &wid, e->inputs * ept);
        m.ialu += 0.5 * e->inputs * ept;
        m.f2fp += 0.5 * ept;
    }
    kb_mix(&b, L, &m, 1);
    kb_stg(&b, L, 16, ept / vec);
    k->read_bytes = e->inputs * n * sz;
    k->write_bytes = n * sz;
    return ops_push(p, &b, "elementwise", err);
}

/* The copy's instructions per element (an unrolled iteration), by unit:
 * the OffsetCalculator's 2-D index (a divmod by the magic-number multiply,
 * IMAD.HI, and the two strides, from the kernel parameters: ULDC), the
 * bound check and the branch, read off the SASS listings o078 (f16, unroll
 * 4: 170 a warp) and o084 (f32, unroll 2: 90 a warp), about 43 an element
 * with its load and store. */
static const ops_mix_t TR_ELEM = {.ffma = 1, .ialu = 14.5, .imad = 8.5, .ldc = 2.75, .uni = 8.5,
                                  .bra = 5.25};

/* transpose: x.t().contiguous() is a copy through TensorIterator with a
 * non-contiguous input, which gpu_kernel_nocast runs as
 * elementwise_kernel<128, unroll> (pytorch aten/src/ATen/native/cuda/
 * CUDALoops.cuh, launch_legacy_kernel: unroll = 2 for 4-byte and 4 for
 * 2-byte elements, grid = ceil(N / (128 * unroll)), thread t of block b
 * handles elements b*128*unroll + t + i*128). TensorIterator orders the
 * loop by the output, so stores are coalesced and the 32 lanes of a load
 * read 32 rows of x: one sector each while a row is at least 32 bytes. */
int ops_transpose(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    int sz = ops_dsize(g->dtype);
    double R = (double)g->rows, C = (double)g->cols, n = R * C;
    double unroll = sz >= 4 ? 2 : 4, nv = 128 * unroll;
    kb_t b;
    gc_kernel_t *k =
        kb_start(&b, "elementwise_kernel<128> copy (transpose)",
                 "pytorch aten/src/ATen/native/cuda/CUDALoops.cuh (launch_legacy_kernel), "
                 "aten/src/ATen/native/cuda/Copy.cu",
                 err);
    if (!k)
        return GC_ENOMEM;
    k->grid[0] = (long)ceil(n / nv);
    k->block[0] = 128;
    k->regs = 24;
    /* parameters and code: 4 lines; far jumps 4 unrolled 4 times, 2 unrolled
     * twice (sass/o078 f16, o084 f32) */
    k->param_lines = 4;
    k->far_jumps = unroll;
    gc_kphase_t *L = &k->loop;
    L->trips = unroll;
    /* a warp's 32 output elements span 32 / R output rows when R < 32:
     * its lanes read min(R, 32) rows of x, C * sz bytes apart, each run of
     * 32 / min(R, 32) neighbouring elements */
    double stride = C * sz, rows = fmin(R, 32), run = 32 / rows;
    double sectors = rows * ceil(run * sz / 32), lines = rows * ceil(run * sz / 128);
    if (stride < 32) { /* rows of x closer than a sector share them */
        sectors = fmin(sectors, fmax(1, ceil(32 * stride / 32)));
        lines = fmin(lines, fmax(1, ceil(32 * stride / 128)));
    }
    gc_kop_t *ld = kb_ldg(&b, L, sz, 1, 0);
    ld->sectors = sectors;
    ld->lines = lines;
    /* a sector holds 32 / sz neighbouring columns; a block covers nv / R
     * output rows (columns of x), which share the sectors in its L1 beyond
     * the run one load already takes: a thread's next load (its unroll
     * loads run one after another, each waiting for its data: sass/o078),
     * after every warp resident on the SM has loaded its own lines. The L1
     * keeps them only while those lines fit it (memory.l1.size_kib; a
     * cyclic reuse beyond the capacity misses under LRU: o078's 64 warps x
     * 32 lines of 128 bytes exceed the 240 KiB, and ncu counts a 13.7 %
     * L1 sector hit rate where the reuse alone gives 75 %) */
    double share = fmin(32.0 / sz, fmax(1, nv / R)) / fmin(32.0 / sz, run);
    double warps = 4 * fmin(fmin(floor(ops_sm_threads(a) / 128), 32), ceil(n / nv / ops_sms(a)));
    double l1 = a->memory.l1.size_kib.set ? a->memory.l1.size_kib.v * 1024 : 0;
    ld->l1_hit = warps * lines * 128 <= l1 ? 1 - 1 / fmax(1, share) : 0;
    kb_stg(&b, L, sz, 1);
    kb_mix(&b, L, &TR_ELEM, 1);
    k->read_bytes = n * sz;
    k->write_bytes = n * sz;
    /* the 32 / sz uses of a sector fall in 32 / sz consecutive output rows,
     * which read R sectors */
    k->reuse_bytes = fmin(n * sz, R * 32);
    return ops_push(p, &b, "copy", err);
}

static double last_pow2(double n)
{
    double p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

/* The launch of reduce_kernel for a sum over the contiguous last dimension
 * (pytorch aten/src/ATen/native/cuda/Reduce.cuh, setReduceConfig and
 * ReduceConfig::set_block_dimension): the input is read in vectors of
 * input_vec_size elements when cols >= 128 (dim0 = cols / input_vec_size;
 * ReduceSumProdKernel.cu sum_functor: input_vec_size 8 for 16-bit types,
 * 4 for float, as the kernel names measured on the H100 show:
 * ReduceOp<c10::Half, ..., 4, 8>, ReduceOp<float, ..., 4, 4>); block
 * width = min(pow2(dim0), 32), height up to 512 / width over rows; lanes
 * split a row; warps split it too when each thread would still sum >= 16 x
 * height values (or >= 256), else each warp takes its own row. The values
 * per thread are counted in elements, not vectors (values_per_thread() =
 * div_up(num_inputs, step_input), num_inputs = cols); and when a
 * thread would still sum >= 256 values and the grid is at most one wave
 * (SMs x threads-per-SM / block), ctas_per_output blocks split each row
 * and combine through global memory. */
typedef struct rcfg {
    double vec, bw, bh, dim0;
    double warps_split;    /* 1: the block's warps share a row */
    double ctas;           /* blocks per row */
    double vpt;            /* elements each thread sums */
    double grid_x, grid_y;
} rcfg_t;

static void reduce_config(const gc_arch_t *a, double R, double C, int sz, rcfg_t *c)
{
    c->vec = C >= 128 ? (sz == 2 ? 8 : 4) : 1;
    c->dim0 = ceil(C / c->vec);
    double mnt = 512;
    double d0 = c->dim0 < mnt ? last_pow2(c->dim0) : mnt, d1 = R < mnt ? last_pow2(R) : mnt;
    c->bw = fmin(d0, 32);
    c->bh = fmin(d1, floor(mnt / c->bw));
    c->bw = fmin(d0, floor(mnt / c->bh));
    double step = c->bw;
    c->vpt = ceil(C / step);
    c->warps_split = c->vpt >= fmin(c->bh * 16, 256);
    double outputs_per_block = 1;
    if (c->warps_split) {
        step *= c->bh;
        c->vpt = ceil(C / step);
    } else {
        outputs_per_block = c->bh;
    }
    c->grid_x = ceil(R / outputs_per_block);
    c->ctas = 1;
    double target = ops_sms(a) * floor(ops_sm_threads(a) / (c->bw * c->bh));
    if (c->warps_split && c->vpt >= 256 && c->grid_x <= target) {
        double c1 = ceil(target / c->grid_x), c2 = ceil(c->vpt / 16), c3 = ceil(c->vpt / 256);
        c->ctas = fmax(fmin(c1, c2), c3);
        if (c->ctas > 1)
            c->vpt = ceil(C / (step * c->ctas));
    }
    c->grid_y = c->ctas;
}

/* When blocks split a row, gpu_reduce_kernel first zeroes the semaphores
 * (one int per output block column) with cudaMemsetAsync (pytorch aten/src/
 * ATen/native/cuda/Reduce.cuh, gpu_reduce_kernel: semaphore_size() =
 * sizeof(int) x grid().x), which the profiler shows as [gpu_memset] before
 * reduce_kernel: one block storing those bytes. */
static int reduce_memset(double grid_x, gc_ops_plan_t *p, gc_err_t *err)
{
    kb_t b;
    gc_kernel_t *k = kb_start(&b, "memset (reduce semaphores)",
                              "pytorch aten/src/ATen/native/cuda/Reduce.cuh "
                              "(gpu_reduce_kernel: cudaMemsetAsync)",
                              err);
    if (!k)
        return GC_ENOMEM;
    double words = grid_x;
    k->grid[0] = 1;
    k->block[0] = (long)fmin(1024, ceil(words / 32) * 32);
    k->regs = 16;
    k->loop.trips = ceil(words / 1024);
    gc_kop_t *st = kb_stg(&b, &k->loop, 4, 1);
    st->active = fmin(32, words);
    k->write_bytes = 4 * words;
    return ops_push(p, &b, "memset", err);
}

/* reduce_kernel's instructions per warp by unit (ops_mix_t), read off the
 * SASS listings of PyTorch 2.11's sm_90 build (model/validation/data/h200/
 * sass/: o063 f16 8192 x 8192, the 16 warps of a block split a row, 2
 * vectors a thread; o064 bf16 65536 x 256, a warp a row; o066 f32 16 x 4M,
 * 33 blocks a row combined through global memory, 62 vectors a thread; o072
 * f32 100000 x 100, scalar loads). The kernel's start (ReduceConfig's
 * indices, the input and output calculators): 80 with vector loads, 59
 * without. A vector trip (input_vectorized_thread_reduce_impl): the load,
 * its address and bound, a FADD per element (and the widening). Without
 * vectors: below. Folding the vector's accumulators; the reduction (its 5 FADDs
 * the butterfly's chain, emitted with its shuffles): a 5-level
 * shuffle butterfly in each warp, then, when the warps share a row, the
 * rounds through shared memory (o063: log2(16) = 4, 12 each); the output:
 * one thread of the block, or every warp for its row; the global combine
 * of split rows (the partials, a fence, the semaphore's atomic, the last
 * block's loads). */
static const ops_mix_t RS_START = {.bra = 10, .ffma = 1, .ialu = 23, .imad = 21, .ldc = 9,
                                   .uni = 16};
static const ops_mix_t RS_START1 = {.bra = 6, .ffma = 1, .ialu = 13, .imad = 14, .ldc = 10,
                                    .uni = 15};
static const ops_mix_t RS_TRIP = {.bra = 1, .ialu = 3, .imad = 1, .uni = 1};
/* Without vectors (thread_reduce_impl, vt0 = 4; the listings o072, r001, r002):
 * its set-up; the while loop's entry and exit, run when a lane has 4 values or
 * more; a trip of it (4 loads, their addresses, the 4 accumulators' FADDs); the
 * tail after it (the remaining values, fewer than 4 a lane: a bound check and
 * a load each, then a check and a FADD each), its fixed part; the fold of the
 * 4 accumulators. */
static const ops_mix_t RS1_SETUP = {.bra = 2, .ialu = 3, .imad = 2, .ldc = 2};
static const ops_mix_t RS1_ENTRY = {.bra = 2, .ialu = 2, .imad = 2};
static const ops_mix_t RS1_TRIP = {.bra = 1, .ialu = 4, .imad = 6}; /* + 4 FADDs, 4 loads */
static const ops_mix_t RS1_TAIL = {.bra = 7, .ialu = 1};
static const ops_mix_t RS1_VALUE = {.bra = 2, .ialu = 4, .imad = 1}; /* + a FADD, a load */
static const ops_mix_t RS1_FOLD = {.bra = 1}; /* + 3 FADDs */
static const ops_mix_t RS_FOLD = {.bra = 7.5, .ffma = 4, .ialu = 3.4};
static const ops_mix_t RS_RED = {.bra = 13, .ffma = 1, .ialu = 27, .imad = 6, .ldc = 3, .uni = 8};
static const ops_mix_t RS_ROUND = {.bra = 1, .ffma = 1, .ialu = 5, .imad = 1.5, .uni = 1};
static const ops_mix_t RS_OUT_ROW = {.bra = 8, .f2fp = 1, .ialu = 11, .imad = 1, .ldc = 1,
                                     .uni = 6};
static const ops_mix_t RS_OUT_BLOCK = {.bra = 3.3, .ialu = 5.4, .uni = 3.2};
static const ops_mix_t RS_GLOBAL = {.bra = 14.7, .ffma = 1.3, .ialu = 27, .imad = 9.5,
                                    .ldc = 2.4, .uni = 15.7};

/* The loads of reduce_kernel's loop (trips: vectors a thread; without
 * vectors, chunks of 4 values) and their instructions. */
static void rowsum_loop(kb_t *b, gc_kphase_t *L, const rcfg_t *c, double C, int sz,
                        const char *dtype)
{
    ops_mix_t m = {0}, wid = ops_widen(dtype);
    if (c->vec > 1) {
        L->trips = ceil(c->vpt / c->vec); /* vector loads per thread */
        gc_kop_t *ld = kb_ldg(b, L, c->vec * sz, 1, 0);
        ld->active = fmin(32, c->bw); /* lanes of a warp along x (block width up to 512) */
        ops_mix_add(&m, &RS_TRIP, 1); /* its FADDs: the accumulator's chain below */
        ops_mix_add(&m, &wid, c->vec);
        ops_mix_add(&m, &RS_START, 1 / L->trips);
        kb_mix(b, L, &m, 1);
        kb_alu(b, L, "fadd", c->vec, 1); /* the accumulator's chain */
        return;
    }
    /* without vectors: a lane sums vmax or vmin values (the first C mod
     * step lanes one more); the warp runs the while loop's trips of 4 for its
     * fullest lanes and the tail for the most values any lane has left */
    double step = c->warps_split ? c->bw * c->bh * c->ctas : c->bw;
    double vmax = ceil(C / step), vmin = floor(C / step);
    double full = floor(vmax / 4), left = vmax - 4 * full;
    if (vmin < vmax && vmin > 0)
        left = fmax(left, vmin - 4 * floor(vmin / 4));
    L->trips = full + (left > 0);
    double t = 1 / L->trips, loads = 4 * full + left;
    gc_kop_t *ld = kb_ldg(b, L, sz, loads * t, 0);
    /* the warp's rows (32 / block width) spread over its loads */
    ld->active = fmin(32, (32 / fmin(c->bw, 32)) * C / loads);
    ops_mix_add(&m, &RS_START1, t);
    ops_mix_add(&m, &RS1_SETUP, t);
    if (full > 0)
        ops_mix_add(&m, &RS1_ENTRY, t);
    ops_mix_add(&m, &RS1_TRIP, full * t);
    ops_mix_add(&m, &RS1_TAIL, t);
    ops_mix_add(&m, &RS1_VALUE, left * t);
    ops_mix_add(&m, &RS1_FOLD, t);
    ops_mix_add(&m, &wid, loads * t);
    m.ffma += 3 * t; /* the fold's FADDs */
    kb_mix(b, L, &m, 1);
    kb_alu(b, L, "fadd", loads * t, 1); /* a FADD a value, into its accumulator */
}

/* The epilogue: the fold, the butterfly, the rounds through shared memory
 * when the warps share a row, the output, the global combine. */
static void rowsum_end(kb_t *b, gc_kphase_t *E, const rcfg_t *c)
{
    ops_mix_t m = {0};
    double rounds = c->warps_split ? log2(fmax(c->bh, 1)) : 0;
    if (c->vec > 1) /* the scalar loop folds its accumulators itself */
        ops_mix_add(&m, &RS_FOLD, 1);
    ops_mix_add(&m, &RS_RED, 1);
    ops_mix_add(&m, &RS_ROUND, rounds);
    ops_mix_add(&m, c->warps_split ? &RS_OUT_BLOCK : &RS_OUT_ROW, 1);
    if (c->ctas > 1)
        ops_mix_add(&m, &RS_GLOBAL, 1);
    kb_mix(b, E, &m, 1);
    gc_kop_t *s = kb_op(b, E, GC_OP_SHFL, 5);
    s->chains = 1;
    kb_alu(b, E, "fadd", 5, 1);
    if (rounds > 0) { /* each round: a barrier, a partial in, the sum out */
        gc_kop_t *st = kb_op(b, E, GC_OP_STS, rounds + 1);
        st->width = 4;
        gc_kop_t *l = kb_op(b, E, GC_OP_LDS, rounds);
        l->width = 4;
        kb_op(b, E, GC_OP_BAR, rounds + 1);
    }
    if (c->ctas > 1) { /* partials to global memory, a semaphore, the last block sums */
        gc_kop_t *ps = kb_stg(b, E, 4, 1.0 / (c->bh));
        ps->active = 1;
        gc_kop_t *pl = kb_ldg(b, E, 4, c->ctas / 32 / c->bh, 0);
        pl->active = 1;
        kb_op(b, E, GC_OP_BAR, 3);
        /* and three round trips to the L2 one after another that every warp
         * waits through (sass/r027): its fence (MEMBAR.SC.GPU, ERRBAR: the
         * partial's store acknowledged; 11 % of the kernel's stall samples),
         * the block's semaphore ATOMG (one thread's, its old value read back
         * through shared memory behind a barrier: 6 %), then the last block's
         * loads of the partials; as 4-byte accesses of one lane, each waiting
         * for the one before (12 bytes a warp: the partials' traffic is the
         * op above) */
        gc_kop_t *rt = kb_ldg(b, E, 4, 3, 1);
        rt->active = 1;
    }
    gc_kop_t *st = kb_stg(b, E, 4, c->warps_split ? 1.0 / c->bh : 1);
    st->active = 1;
}

int ops_rowsum(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    int sz = ops_dsize(g->dtype);
    double R = (double)g->rows, C = (double)g->cols;
    rcfg_t c;
    reduce_config(a, R, C, sz, &c);
    if (c.ctas > 1 && reduce_memset(c.grid_x, p, err))
        return -1;
    kb_t b;
    gc_kernel_t *k = kb_start(&b, "reduce_kernel<512,1> sum",
                              "pytorch aten/src/ATen/native/cuda/Reduce.cuh "
                              "(setReduceConfig, reduce_kernel); counts: "
                              "model/validation/data/h200/sass/o063, o064, o066, o072",
                              err);
    if (!k)
        return GC_ENOMEM;
    k->grid[0] = (long)c.grid_x;
    k->grid[1] = (long)c.grid_y;
    k->block[0] = (long)c.bw;
    k->block[1] = (long)c.bh;
    k->regs = 32;
    /* parameters and code: vector loads 7 lines, 5 far jumps for 16-bit
     * input, 4 for f32 (sass/o063 o064 r014 r022 r027; o066 r018 r021);
     * scalar loads 8 lines, 4 far jumps (o072 r001 r002, f32) */
    k->param_lines = c.vec > 1 ? 7 : 8;
    k->far_jumps = c.vec > 1 && sz == 2 ? 5 : 4;
    rowsum_loop(&b, &k->loop, &c, C, sz, g->dtype);
    rowsum_end(&b, &k->epilogue, &c);
    k->shared_bytes = c.warps_split ? c.bw * c.bh * 4 : 0;
    k->read_bytes = R * C * sz;
    k->write_bytes = R * sz;
    return ops_push(p, &b, "reduce", err);
}
