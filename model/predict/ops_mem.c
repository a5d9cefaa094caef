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

/* A block-wide reduction of one value (blockReduce in SoftMax.cu /
 * block_reduce.cuh): a warp butterfly, one shared store per warp, a
 * barrier, the first warp's butterfly over the partials, a barrier and a
 * shared (broadcast) load. */
static void block_reduce(kb_t *b, gc_kphase_t *ph)
{
    kb_op(b, ph, GC_OP_SHFL, 10);
    kb_alu(b, ph, "fadd", 10, 1);
    gc_kop_t *s = kb_op(b, ph, GC_OP_STS, 1);
    s->width = 4;
    s->active = 1;
    gc_kop_t *l = kb_op(b, ph, GC_OP_LDS, 2);
    l->width = 4;
    l->broadcast = 1;
    kb_op(b, ph, GC_OP_BAR, 2);
}

/* Above 2048 columns host_softmax launches one block per row (grid = rows)
 * of SoftMaxForward_getBlockSize(cols) = min(cols, 1024) threads rounded up
 * to a warp (pytorch aten/src/ATen/native/cuda/SoftMax.cu), and picks
 * cunn_SoftMaxForwardReg when potential_register_count = ceil(cols /
 * block) < 10 (each thread keeps its elements in registers: one read, one
 * write); else cunn_SoftMaxForwardSmem when the row fits the 48 KiB of
 * shared memory a block gets without opting in and cols % ILP == 0 (ILP =
 * 16 / sizeof: the row is staged in shared memory by 16-byte vectors: one
 * read); else cunn_SoftMaxForward, which reads the row three times (max,
 * sum, output: the second and third from the L2). Two block reductions
 * (max, sum) each. */
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
                              "SoftMaxForward_getBlockSize)",
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
    gc_kphase_t *L = &k->loop;
    double per_thread = C / block; /* elements per thread */
    double vec = use_reg ? 1 : ilp, width = use_reg ? sz : 16;
    /* the Reg kernel's loads are unrolled (all in flight at once); the
     * others loop, one vector in flight per thread */
    double per_it = use_reg ? regcnt : 1;
    L->trips = use_reg ? 1 : fmax(1, ceil(per_thread / vec));
    kb_ldg(&b, L, width, per_it, 0);
    if (!use_reg && !use_smem) { /* the sum pass and the output pass read again */
        gc_kop_t *again = kb_ldg(&b, L, width, 2, 0);
        again->l1_hit = 0;
    }
    if (use_smem) {
        gc_kop_t *s = kb_op(&b, L, GC_OP_STS, 1);
        s->width = 16;
        gc_kop_t *l = kb_op(&b, L, GC_OP_LDS, 2);
        l->width = 16;
    }
    softmax_math(&b, L, use_reg ? per_thread : vec, sz, 2);
    kb_stg(&b, L, width, per_it);
    block_reduce(&b, &k->epilogue);
    block_reduce(&b, &k->epilogue);
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

/* layernorm: vectorized_layer_norm_kernel (pytorch aten/src/ATen/native/
 * cuda/layer_norm_kernel.cu, launch_vectorized_layer_norm_kernel), taken
 * for f32/f16/bf16 when cols % vec_size == 0 (vec_size = 4) and the tensors
 * are aligned: one block per row (grid = rows) of (32, num_threads() / 32)
 * = (32, 4) threads, shared (4 * 3 / 2) accumulators. compute_stats reads
 * the row in 4-element vectors (Welford update per element: a division by
 * the count and three FMAs), reduces (mean, m2, count) over the warp by
 * shuffles and over the 4 warps through shared memory; the second loop
 * reads the row again (from the L1 while the rows of the blocks resident
 * on an SM fit in it, memory.l1.size_kib; else from the L2), gamma and beta
 * (shared by every block, so in the L1 after the first), writes y. Mean and
 * rstd are written per row. Both loops run ceil(cols / 512) trips per
 * thread and are one iteration here. */
int ops_layernorm(const gc_arch_t *a, const gc_ops_args_t *g, gc_ops_plan_t *p, gc_err_t *err)
{
    int sz = ops_dsize(g->dtype);
    double R = (double)g->rows, C = (double)g->cols;
    if (g->cols % 4)
        return gc_err_set(err, GC_EUSAGE, "layernorm: --cols %ld is not a multiple of 4 (the "
                          "vectorized kernel modelled needs it)", g->cols);
    kb_t b;
    gc_kernel_t *k = kb_start(&b, "vectorized_layer_norm_kernel",
                              "pytorch aten/src/ATen/native/cuda/layer_norm_kernel.cu "
                              "(launch_vectorized_layer_norm_kernel)",
                              err);
    if (!k)
        return GC_ENOMEM;
    k->grid[0] = (long)R;
    k->block[0] = 32;
    k->block[1] = 4;
    k->regs = 32;
    k->shared_bytes = 4 * 3 / 2 * 4;
    gc_kphase_t *L = &k->loop;
    L->trips = ceil(C / 512);
    double w = 4 * sz, active = fmin(32, ceil(C / 4 / 4)); /* lanes with a vector */
    gc_kop_t *x = kb_ldg(&b, L, w, 1, 0);
    x->active = active;
    gc_kop_t *x2 = kb_ldg(&b, L, w, 1, 0);
    x2->active = active;
    /* rows resident on an SM at once: up to 2048 / 128 blocks, at most the
     * SM's share of the grid; the second pass finds its row in the L1 only
     * while those rows fit */
    double live = fmin(floor(ops_sm_threads(a) / 128), ceil(R / ops_sms(a)));
    double l1 = a->memory.l1.size_kib.set ? a->memory.l1.size_kib.v * 1024 : 0;
    double rows_bytes = live * C * sz;
    x2->l1_hit = l1 > 0 ? fmin(1, l1 / rows_bytes) : 1;
    double per_sm = fmax(1, R / ops_sms(a)); /* rows an SM runs: gamma, beta from its L1 */
    gc_kop_t *gb = kb_ldg(&b, L, w, 2, 0);
    gb->active = active;
    gb->l1_hit = 1 - 1 / per_sm;
    kb_alu(&b, L, "ffma", 4 * (3 + 4 + 2), 0); /* Welford, its division, the affine */
    kb_alu(&b, L, "mufu", 4, 0);
    kb_alu(&b, L, "f2f", 4 * (sz == 2 ? 4 : 0), 0); /* x twice, gamma, beta; y */
    gc_kop_t *y = kb_stg(&b, L, w, 1);
    y->active = active;
    gc_kphase_t *E = &k->epilogue;
    kb_op(&b, E, GC_OP_SHFL, 15);
    kb_alu(&b, E, "ffma", 60, 5); /* Welford combine per shuffle step */
    gc_kop_t *s = kb_op(&b, E, GC_OP_STS, 1);
    s->width = 16;
    s->active = 1;
    gc_kop_t *l = kb_op(&b, E, GC_OP_LDS, 2);
    l->width = 16;
    l->broadcast = 1;
    kb_op(&b, E, GC_OP_BAR, 2);
    gc_kop_t *ms = kb_stg(&b, E, 4, 0.5);
    ms->active = 1;
    k->read_bytes = R * C * sz + 2 * C * sz;
    k->write_bytes = R * C * sz + 8 * R;
    return ops_push(p, &b, "layernorm", err);
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
