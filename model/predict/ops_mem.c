/* ops_mem.c - the memory-bound operator templates: elementwise, transpose,
 * softmax, layernorm, rowsum. Each builds the kernel PyTorch launches, with
 * the launch arithmetic of the cited source file (pytorch/pytorch, the
 * v2.10/v2.11 tree) and the per-warp work of the kernel's loop. Instruction
 * counts per element are what the compiled loop body issues for the math
 * (fp32 opmath; a conversion per half element in and out); the arch file
 * supplies every rate, latency and bandwidth. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops_build.h"

/* CUDA-core instructions per element of each elementwise op, in fp32 opmath:
 * fma-pipe (FFMA/FADD/FMUL/FMNMX) and MUFU. gelu is the erf form (PyTorch's
 * default approximate='none': x * 0.5 * (1 + erf(x / sqrt 2)), erff a
 * rational polynomial of about 14 FMAs and one MUFU.EX2); exp is expf (range
 * reduction in 5 FMAs, MUFU.EX2, a scale). */
typedef struct eop {
    const char *name;
    int inputs;
    double fma, mufu;
} eop_t;

static const eop_t eops[] = {
    {"relu", 1, 1, 0}, {"add", 2, 1, 0}, {"mul", 2, 1, 0}, {"exp", 1, 6, 1}, {"gelu", 1, 18, 1},
};

/* Half types are converted to fp32 and back: one conversion per input
 * element and one per output element (F2F / HADD2.F32 class, counted on
 * the conversion pipe). */
static double conversions(int size, int inputs)
{
    return size == 2 ? inputs + 1 : 0;
}

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
                              "(launch_vectorized_kernel, vectorized_elementwise_kernel)",
                              err);
    if (!k)
        return GC_ENOMEM;
    k->grid[0] = (long)ceil(n / (128 * ept));
    k->block[0] = 128;
    k->regs = 32;
    gc_kphase_t *L = &k->loop;
    L->trips = 1;
    kb_ldg(&b, L, 16, e->inputs * ept / vec, 0);
    kb_alu(&b, L, "ffma", e->fma * ept, 0);
    kb_alu(&b, L, "mufu", e->mufu * ept, 0);
    kb_alu(&b, L, "f2f", conversions(sz, e->inputs) * ept, 0);
    kb_alu(&b, L, "imad", 6, 0); /* block offset, remainder test, addresses */
    kb_stg(&b, L, 16, ept / vec);
    k->read_bytes = e->inputs * n * sz;
    k->write_bytes = n * sz;
    return ops_push(p, &b, "elementwise", err);
}

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
    (void)a;
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
    gc_kphase_t *L = &k->loop;
    L->trips = unroll;
    /* lanes read rows C * sz bytes apart */
    double stride = C * sz;
    double sectors = stride >= 32 ? 32 : fmax(1, ceil(32 * stride / 32));
    double lines = stride >= 128 ? 32 : fmax(1, ceil(32 * stride / 128));
    gc_kop_t *ld = kb_ldg(&b, L, sz, 1, 0);
    ld->sectors = sectors;
    ld->lines = lines;
    /* a sector holds 32 / sz neighbouring columns; a block covers nv / R
     * output rows (columns of x), which share the sectors in its L1 */
    double share = fmin(32.0 / sz, fmax(1, nv / R));
    ld->l1_hit = 1 - 1 / share;
    kb_stg(&b, L, sz, 1);
    kb_alu(&b, L, "imad", 10, 0); /* OffsetCalculator: one divmod, two offsets */
    k->read_bytes = n * sz;
    k->write_bytes = n * sz;
    /* the 32 / sz uses of a sector fall in 32 / sz consecutive output rows,
     * which read R sectors */
    k->reuse_bytes = fmin(n * sz, R * 32);
    return ops_push(p, &b, "copy", err);
}

/* Per-element math of a softmax in fp32 (PersistentSoftmax.cuh,
 * SoftMax.cu): max (FMNMX), x - max and expf (6 FMA-pipe, one MUFU) nexp
 * times, the sum (FADD), the division by the sum (IEEE division: MUFU.RCP
 * and 4 FMAs). softmax_warp_forward keeps exp(x - max) in registers (nexp
 * 1); the block kernels (cunn_SoftMaxForward*) take exp once in
 * SumExpFloat for the sum and again in SoftMaxForwardEpilogue,
 * exp(input - max_input) / sum (pytorch aten/src/ATen/native/cuda/
 * SoftMax.cu): nexp 2. */
static void softmax_math(kb_t *b, gc_kphase_t *ph, double elems, int sz, double nexp)
{
    kb_alu(b, ph, "ffma", elems * (1 + 6 * nexp + 1 + 4), 0);
    kb_alu(b, ph, "mufu", elems * (nexp + 1), 0);
    kb_alu(b, ph, "f2f", elems * conversions(sz, 1), 0);
}

/* softmax_warp_forward<WARP_BATCH, WARP_ITERATIONS, WARP_SIZE> (pytorch
 * aten/src/ATen/native/cuda/PersistentSoftmax.cuh, dispatch_softmax_forward),
 * taken by host_softmax (aten/src/ATen/native/cuda/SoftMax.cu) when
 * cols <= 2048 and cols * sizeof <= 8192: next_pow2 = the power of two >=
 * cols, WARP_SIZE = min(next_pow2, 32), WARP_ITERATIONS = next_pow2 /
 * WARP_SIZE, WARP_BATCH = 2 rows when next_pow2 <= 128 else 1; 128 threads
 * per block as (WARP_SIZE, 128 / WARP_SIZE), grid = ceil(rows /
 * (WARP_BATCH * 128 / WARP_SIZE)). Each lane loads its elements one by one
 * (element_index = lane + it * WARP_SIZE), butterfly-reduces max and sum over
 * log2(WARP_SIZE) shuffles, stores. */
static int softmax_warp(const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    int sz = ops_dsize(g->dtype);
    double R = (double)g->rows, C = (double)g->cols;
    double pow2 = 1;
    while (pow2 < C)
        pow2 *= 2;
    double ws = fmin(pow2, 32), wi = pow2 / ws, wb = pow2 <= 128 ? 2 : 1;
    double lanes_rows = 32 / ws; /* logical warps in one hardware warp */
    char name[80];
    snprintf(name, sizeof(name), "softmax_warp_forward<%d,%d,%d>", (int)wb, (int)wi, (int)ws);
    kb_t b;
    gc_kernel_t *k = kb_start(&b, name,
                              "pytorch aten/src/ATen/native/cuda/PersistentSoftmax.cuh "
                              "(dispatch_softmax_forward), aten/src/ATen/native/cuda/SoftMax.cu",
                              err);
    if (!k)
        return GC_ENOMEM;
    k->block[0] = (long)ws;
    k->block[1] = (long)(128 / ws);
    k->grid[0] = (long)ceil(R / (wb * 128 / ws));
    /* as compiled in PyTorch 2.11 for sm_90 (ops.csv: 30 to 32 registers
     * up to 16 elements per lane, 48 at 32) */
    k->regs = wi * wb > 16 ? 48 : 32;
    gc_kphase_t *L = &k->loop;
    L->trips = 1;
    double act = fmax(1, round(32 * C / pow2));
    gc_kop_t *ld = kb_ldg(&b, L, sz, wb * wi, 0);
    ld->active = act;
    softmax_math(&b, L, wb * wi * C / pow2, sz, 1);
    double steps = log2(ws);
    kb_op(&b, L, GC_OP_SHFL, 2 * steps * wb);
    kb_alu(&b, L, "fmnmx", 2 * steps * wb, wb);
    gc_kop_t *st = kb_stg(&b, L, sz, wb * wi);
    st->active = act;
    (void)lanes_rows;
    k->read_bytes = R * C * sz;
    k->write_bytes = R * C * sz;
    return ops_push(p, &b, "softmax", err);
}

/* A block-wide reduction of one value (cuda_utils::BlockReduce in
 * block_reduce.cuh, as blockReduceWarp in SoftMax.cu calls it): a warp
 * butterfly (5 shuffles and 5 dependent combines), a barrier, one shared
 * store per warp, a barrier, the first warp's butterfly over the partials,
 * thread 0's store of the result, a barrier and a shared (broadcast) load.
 * scale: the share of it each trip of the phase carries (1 / trips when
 * the phase loops). */
static void block_reduce_n(kb_t *b, gc_kphase_t *ph, double scale)
{
    kb_op(b, ph, GC_OP_SHFL, 10 * scale);
    kb_alu(b, ph, "fadd", 10 * scale, 1);
    gc_kop_t *s = kb_op(b, ph, GC_OP_STS, scale);
    s->width = 4;
    s->active = 1;
    gc_kop_t *l = kb_op(b, ph, GC_OP_LDS, 2 * scale);
    l->width = 4;
    l->broadcast = 1;
    kb_op(b, ph, GC_OP_BAR, 3 * scale);
}

static void block_reduce(kb_t *b, gc_kphase_t *ph)
{
    block_reduce_n(b, ph, 1);
}

/* expf without --use_fast_math (PyTorch builds ATen without it): range
 * reduction in FMAs, MUFU.EX2, a scale: 6 FMA-pipe ops and one MUFU. The
 * IEEE division by the sum: MUFU.RCP, 4 FMAs and the slow-path compare
 * (CUDA C++ Programming Guide, "Floating-Point Standard": x / y is
 * IEEE-compliant unless -prec-div=false). */
#define EXP_FMA 6.0
#define DIV_FMA 5.0

/* Above 2048 columns host_softmax launches one block per row (grid = rows)
 * of SoftMaxForward_getBlockSize(cols) = min(cols, 1024) threads rounded up
 * to a warp (pytorch aten/src/ATen/native/cuda/SoftMax.cu), and picks
 * cunn_SoftMaxForwardReg when potential_register_count = ceil(cols /
 * block) < 10 (each thread keeps its elements in registers: one read, one
 * write); else cunn_SoftMaxForwardSmem when the row fits the 48 KiB of
 * shared memory a block gets without opting in and cols % ILP == 0 (ILP =
 * 16 / sizeof: the row is staged in shared memory by 16-byte vectors: one
 * read); else cunn_SoftMaxForward, which reads the row three times (max,
 * sum, output: the second and third from the L2).
 *
 * Each kernel runs three steps one after another, separated by the two
 * block reductions' barriers, and the description has one phase for each
 * (the predictor adds their demands and latencies): the prologue reads the
 * row (from DRAM) and takes the thread's max, then the block's max; the
 * loop sums exp(x - max) (ilpReduce with SumExpFloat: registers, shared
 * memory or a second read of the row from the L2), then the block's sum;
 * the epilogue writes exp(x - max) / sum (SoftMaxForwardEpilogue; the plain
 * kernel reads the row a third time). Per trip, one 16-byte vector per
 * thread is in flight (ilpReduce's loop); the Reg kernel's loads are
 * unrolled, all in flight at once. */
static int softmax_block(const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    int sz = ops_dsize(g->dtype);
    double R = (double)g->rows, C = (double)g->cols;
    double block = fmin(1024, ceil(fmin(C, 1024) / 32) * 32);
    double regcnt = ceil(C / block), ilp = 16.0 / sz;
    double red = block / 32 * 4;
    int use_reg = regcnt < 10;
    int use_smem = !use_reg && C < (49152 - red) / sz && fmod(C, ilp) == 0;
    const char *name = use_reg ? "cunn_SoftMaxForwardReg"
                       : use_smem ? "cunn_SoftMaxForwardSmem" : "cunn_SoftMaxForward";
    kb_t b;
    gc_kernel_t *k = kb_start(&b, name,
                              "pytorch aten/src/ATen/native/cuda/SoftMax.cu (host_softmax, "
                              "SoftMaxForward_getBlockSize, ilpReduce, blockReduceWarp)",
                              err);
    if (!k)
        return GC_ENOMEM;
    k->grid[0] = (long)R;
    k->block[0] = (long)block;
    /* registers as compiled in PyTorch 2.11's sm_90 build (ptxas, seen by
     * ncu/profiler in model/validation/data/h100/ops.csv): the Reg kernel
     * holds its ILP = regcnt elements plus a base of 22 (ILP 4: 30, ILP 8:
     * 37 -> 38 at the 8-register allocation step); the others 32 */
    k->regs = use_reg ? 22 + 2 * regcnt : 32;
    k->shared_bytes = use_smem ? C * sz + red : red;
    double per_thread = C / block; /* elements per thread */
    double vec = use_reg ? 1 : ilp, width = use_reg ? sz : 16;
    double trips = use_reg ? 1 : fmax(1, ceil(per_thread / vec));
    double per_it = use_reg ? regcnt : 1;  /* loads per trip */
    double el = use_reg ? per_thread : vec; /* elements per trip */
    double conv = sz == 2 ? el : 0;
    gc_kphase_t *P = &k->prologue, *L = &k->loop, *E = &k->epilogue;
    P->trips = L->trips = E->trips = trips;
    /* the max: read, convert, FMNMX; then the block's max */
    kb_ldg(&b, P, width, per_it, 0);
    if (use_smem) {
        gc_kop_t *s = kb_op(&b, P, GC_OP_STS, 1);
        s->width = 16;
    }
    kb_alu(&b, P, "fmnmx", el, 0);
    kb_alu(&b, P, "f2f", conv, 0);
    kb_alu(&b, P, "imad", 4, 0);
    block_reduce_n(&b, P, 1 / trips);
    /* the sum of exp(x - max); then the block's sum */
    if (use_smem) {
        gc_kop_t *l = kb_op(&b, L, GC_OP_LDS, 1);
        l->width = 16;
    } else if (!use_reg) {
        gc_kop_t *again = kb_ldg(&b, L, width, 1, 0);
        again->l1_hit = 0;
        kb_alu(&b, L, "f2f", conv, 0);
    }
    kb_alu(&b, L, "ffma", el * (1 + EXP_FMA + 1), 0);
    kb_alu(&b, L, "mufu.ex2", el, 0);
    kb_alu(&b, L, "imad", use_reg ? 0 : 3, 0);
    block_reduce_n(&b, L, 1 / trips);
    /* the output: exp(x - max) again, the division, the store */
    if (use_smem) {
        gc_kop_t *l = kb_op(&b, E, GC_OP_LDS, 1);
        l->width = 16;
    } else if (!use_reg) {
        gc_kop_t *again = kb_ldg(&b, E, width, 1, 0);
        again->l1_hit = 0;
        kb_alu(&b, E, "f2f", conv, 0);
    }
    kb_alu(&b, E, "ffma", el * (1 + EXP_FMA + DIV_FMA), 0);
    kb_alu(&b, E, "mufu.ex2", el, 0);
    kb_alu(&b, E, "mufu.rcp", el, 0);
    kb_alu(&b, E, "fsetp", el, 0);
    kb_alu(&b, E, "f2f", conv, 0);
    kb_alu(&b, E, "imad", 3, 0);
    kb_stg(&b, E, width, per_it);
    k->read_bytes = R * C * sz;
    k->write_bytes = R * C * sz;
    k->reuse_bytes = ops_dsize(g->dtype) * C * 2; /* a row, between its passes */
    return ops_push(p, &b, "softmax", err);
}

int ops_softmax(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    (void)a;
    int sz = ops_dsize(g->dtype);
    if (g->cols <= 2048 && g->cols * sz <= 8192)
        return softmax_warp(g, p, err);
    return softmax_block(g, p, err);
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
                              "(setReduceConfig, reduce_kernel)",
                              err);
    if (!k)
        return GC_ENOMEM;
    k->grid[0] = (long)c.grid_x;
    k->grid[1] = (long)c.grid_y;
    k->block[0] = (long)c.bw;
    k->block[1] = (long)c.bh;
    k->regs = 32;
    gc_kphase_t *L = &k->loop;
    L->trips = ceil(c.vpt / c.vec); /* vector loads per thread */
    gc_kop_t *ld = kb_ldg(&b, L, c.vec * sz, 1, 0);
    ld->active = fmin(32, c.bw); /* lanes of a warp along x (block width up to 512) */
    kb_alu(&b, L, "fadd", c.vec, 0);
    kb_alu(&b, L, "f2f", sz == 2 ? c.vec : 0, 0);
    kb_alu(&b, L, "imad", 2, 0);
    gc_kphase_t *E = &k->epilogue;
    double steps = log2(fmax(c.bw, 1)) + 2; /* the lanes' vectors, then the lanes */
    kb_op(&b, E, GC_OP_SHFL, steps);
    kb_alu(&b, E, "fadd", steps + c.vec, steps);
    if (c.warps_split)
        block_reduce(&b, E);
    if (c.ctas > 1) { /* partials to global memory, a semaphore, the last block sums */
        gc_kop_t *ps = kb_stg(&b, E, 4, 1.0 / (c.bh));
        ps->active = 1;
        gc_kop_t *pl = kb_ldg(&b, E, 4, c.ctas / 32 / c.bh, 0);
        pl->active = 1;
    }
    gc_kop_t *st = kb_stg(&b, E, sz, 1);
    st->active = 1;
    k->shared_bytes = c.warps_split ? c.bw * c.bh * 4 : 0;
    k->read_bytes = R * C * sz;
    k->write_bytes = R * sz;
    return ops_push(p, &b, "reduce", err);
}
