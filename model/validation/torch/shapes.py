"""Shape lists, the train/holdout split and the CSV helpers of the torch
validation harness.  Pure Python (stdlib only): testable without torch or a
GPU (test_shapes.py).  bench.py imports it on the device.

The split rule: FNV-1a, 64 bit, over the UTF-8 bytes of the `args` string
(offset basis 0xcbf29ce484222325, prime 0x100000001b3, arithmetic mod 2^64);
a row is `holdout` when that hash mod 3 == 0, else `train`.
"""

import csv
import glob
import io
import os
import sys

FNV64_OFFSET = 0xCBF29CE484222325
FNV64_PRIME = 0x100000001B3
MASK64 = (1 << 64) - 1

COLUMNS = ["id", "split", "class", "args", "kernels", "kernel_us",
           "time_us", "reps"]


def fnv1a64(text):
    """FNV-1a 64-bit hash of the UTF-8 bytes of `text` (an int in [0, 2^64))."""
    h = FNV64_OFFSET
    for b in text.encode("utf-8"):
        h ^= b
        h = (h * FNV64_PRIME) & MASK64
    return h


def split_of(args):
    """'holdout' when fnv1a64(args) % 3 == 0, else 'train'."""
    return "holdout" if fnv1a64(args) % 3 == 0 else "train"


# ---------------------------------------------------------------- args strings

def gemm_args(m, n, k, dtype, layout="nn", batch=1):
    """The gpucal command line after `gpucal predict` for one GEMM."""
    return ("gemm --m %d --n %d --k %d --dtype %s --layout %s --batch %d"
            % (m, n, k, dtype, layout, batch))


def attention_args(batch, heads, seq, head_dim, causal, dtype):
    """`attention ...` args; --causal only when causal."""
    s = "attention --batch %d --heads %d --seq %d --head-dim %d" % (
        batch, heads, seq, head_dim)
    if causal:
        s += " --causal"
    return s + " --dtype %s" % dtype


def rows_cols_args(op, rows, cols, dtype):
    """softmax / layernorm / rowsum / transpose args."""
    return "%s --rows %d --cols %d --dtype %s" % (op, rows, cols, dtype)


def elementwise_args(op, n, dtype):
    return "elementwise --op %s --n %d --dtype %s" % (op, n, dtype)


def conv2d_args(n, c, h, w, k, r, s, stride, pad, dtype):
    return ("conv2d --n %d --c %d --h %d --w %d --k %d --r %d --s %d "
            "--stride %d --pad %d --dtype %s"
            % (n, c, h, w, k, r, s, stride, pad, dtype))


def parse_args(args):
    """Inverse of the *_args builders: (op, {flag: value}) with ints where the
    value is an integer and True for a bare flag (--causal)."""
    toks = args.split()
    op, out, i = toks[0], {}, 1
    while i < len(toks):
        key = toks[i][2:]
        if i + 1 < len(toks) and not toks[i + 1].startswith("--"):
            val = toks[i + 1]
            out[key] = int(val) if val.lstrip("-").isdigit() else val
            i += 2
        else:
            out[key] = True
            i += 1
    return op, out


# ---------------------------------------------------------------- the cases

def gemm_cases():
    """[(class, args)] for every GEMM row, in run order, no duplicates."""
    c = []
    for d in ("f16", "bf16"):
        for s in (256, 512, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384):
            c.append(("square", gemm_args(s, s, s, d)))
    for s in (256, 512, 1024, 2048, 4096, 8192, 16384):
        c.append(("square", gemm_args(s, s, s, "tf32")))
        c.append(("square", gemm_args(s, s, s, "f8e4m3", "nt")))
    for s in (256, 512, 1024, 2048, 4096, 8192):
        c.append(("square_simt", gemm_args(s, s, s, "f32")))
    for m in (1, 16, 128):
        for nk in (4096, 8192):
            for d in ("f16", "bf16", "f32", "tf32"):
                c.append(("skinny_m", gemm_args(m, nk, nk, d)))
    for n in (1, 16, 128):
        c.append(("skinny_n", gemm_args(4096, n, 4096, "f16")))
        c.append(("skinny_n", gemm_args(8192, n, 8192, "bf16")))
    for m in (16, 128):
        c.append(("skinny_m", gemm_args(m, 8192, 8192, "f8e4m3", "nt")))
    for (m, n, k) in ((256, 256, 16384), (256, 256, 65536), (128, 128, 32768),
                      (512, 512, 16384), (1024, 1024, 32768), (64, 64, 131072)):
        for d in ("f16", "f32"):
            c.append(("large_k", gemm_args(m, n, k, d)))
    for (m, n, k) in ((256, 256, 16384), (512, 512, 16384), (1024, 1024, 32768)):
        for d in ("bf16", "tf32"):
            c.append(("large_k", gemm_args(m, n, k, d)))
    for (m, n, k, d) in ((4095, 4095, 4095, "f16"), (4095, 4095, 4095, "bf16"),
                         (4095, 4095, 4095, "tf32"), (4095, 4095, 4095, "f32"),
                         (1000, 1000, 1000, "f16"), (1000, 1000, 1000, "bf16"),
                         (1000, 1000, 1000, "tf32"), (1000, 1000, 1000, "f32"),
                         (4096, 4096, 4095, "f16"), (4096, 4096, 4001, "bf16"),
                         (4097, 4097, 4097, "f16"), (2047, 2047, 2047, "f16"),
                         (8191, 8191, 8191, "bf16"), (1024, 1024, 999, "f16"),
                         (777, 1234, 4099, "bf16"), (4096, 4096, 4100, "f16")):
        c.append(("unaligned", gemm_args(m, n, k, d)))
    for (b, m, n, k, d) in ((2, 2048, 2048, 2048, "f16"), (8, 1024, 1024, 1024, "f16"),
                            (32, 512, 512, 512, "f16"), (128, 256, 256, 256, "f16"),
                            (8, 1024, 1024, 1024, "bf16"), (64, 128, 128, 64, "f16"),
                            (256, 64, 64, 64, "f16"), (512, 128, 128, 128, "bf16"),
                            (16, 4096, 4096, 128, "f16"), (4, 4096, 4096, 4096, "bf16"),
                            (32, 512, 512, 512, "tf32"), (8, 1024, 1024, 1024, "f32"),
                            (96, 2048, 2048, 64, "bf16"), (96, 2048, 64, 2048, "bf16"),
                            (1024, 32, 32, 32, "f16"), (3, 1000, 1000, 1000, "f16")):
        c.append(("batched", gemm_args(m, n, k, d, "nn", b)))
    for (m, n, k, d) in ((4096, 4096, 4096, "f16"), (2048, 2048, 2048, "bf16"),
                         (4096, 4096, 4096, "tf32"), (1024, 4096, 4096, "f16"),
                         (8192, 8192, 8192, "bf16")):
        for lay in ("nt", "tn", "tt"):
            c.append(("layout", gemm_args(m, n, k, d, lay)))
    for lay in ("nt", "tn"):
        c.append(("layout", gemm_args(1024, 1024, 1024, "f16", lay, 8)))
        c.append(("layout", gemm_args(128, 4096, 4096, "bf16", lay)))
    return dedupe(c)


def attention_cases():
    c = []
    for seq, b, h in ((512, 16, 16), (1024, 8, 32), (2048, 4, 32),
                      (4096, 2, 32), (8192, 1, 32)):
        for hd in (64, 128):
            for causal in (False, True):
                c.append(("attention", attention_args(b, h, seq, hd, causal, "f16")))
            c.append(("attention", attention_args(b, h, seq, hd, True, "bf16")))
    for (b, h, seq, hd, causal, d) in ((1, 8, 512, 64, False, "f16"),
                                       (32, 32, 1024, 128, True, "bf16"),
                                       (8, 16, 2048, 64, False, "bf16"),
                                       (1, 64, 4096, 128, True, "f16")):
        c.append(("attention", attention_args(b, h, seq, hd, causal, d)))
    return c


def rowwise_cases():
    c = []
    sm = ((32, 128, "f32"), (4096, 128, "f16"), (4096, 1024, "f16"),
          (4096, 4096, "bf16"), (16384, 4096, "f16"), (1024, 32768, "f32"),
          (65536, 512, "bf16"), (8192, 50257, "f16"), (262144, 64, "f32"),
          (2048, 8192, "f32"), (128, 131072, "bf16"), (16384, 1000, "f32"),
          (512, 512, "f16"), (8, 1048576, "f16"))
    for r, col, d in sm:
        c.append(("softmax", rows_cols_args("softmax", r, col, d)))
    ln = ((32, 1024, "f32"), (4096, 768, "f16"), (8192, 1024, "bf16"),
          (16384, 4096, "bf16"), (2048, 8192, "f16"), (65536, 256, "f32"),
          (512, 12288, "bf16"), (8192, 5120, "f32"), (1024, 1000, "f16"),
          (131072, 128, "f16"), (4096, 16384, "f16"), (256, 65536, "f32"))
    for r, col, d in ln:
        c.append(("layernorm", rows_cols_args("layernorm", r, col, d)))
    rs = ((32, 128, "f32"), (4096, 4096, "f32"), (8192, 8192, "f16"),
          (65536, 256, "bf16"), (1024, 65536, "f32"), (16, 4194304, "f32"),
          (1048576, 32, "f16"), (2048, 1000, "f16"), (16384, 4096, "bf16"),
          (262144, 512, "f32"), (1, 16777216, "f32"), (100000, 100, "f32"))
    for r, col, d in rs:
        c.append(("rowsum", rows_cols_args("rowsum", r, col, d)))
    tr = ((64, 64, "f32"), (4096, 4096, "f16"), (8192, 8192, "f32"),
          (1024, 65536, "bf16"), (16384, 128, "f16"), (128, 16384, "f16"),
          (3000, 5000, "f32"), (8192, 8192, "bf16"), (512, 768, "f16"),
          (16384, 16384, "f16"), (1000, 1000, "f16"), (2, 1048576, "f32"))
    for r, col, d in tr:
        c.append(("transpose", rows_cols_args("transpose", r, col, d)))
    return c


def elementwise_cases():
    c = []
    for op in ("gelu", "relu", "add", "mul", "exp"):
        for n, d in ((65536, "f16"), (1 << 20, "f32"), (1 << 24, "bf16"),
                     (1 << 26, "f16"), (1000003, "f32"), (1 << 28, "f32")):
            c.append(("elementwise", elementwise_args(op, n, d)))
    for op, n, d in (("gelu", 1 << 24, "f32"), ("add", 1 << 24, "f16"),
                     ("mul", 1 << 26, "bf16"), ("relu", 4096, "f32"),
                     ("exp", 1 << 27, "bf16")):
        c.append(("elementwise", elementwise_args(op, n, d)))
    return c


def conv_cases():
    """ResNet-50-like NHWC convolutions (and a few others)."""
    c = []
    base = ((3, 224, 224, 64, 7, 2, 3), (64, 56, 56, 64, 1, 1, 0),
            (64, 56, 56, 64, 3, 1, 1), (64, 56, 56, 256, 1, 1, 0),
            (256, 56, 56, 64, 1, 1, 0), (128, 56, 56, 128, 3, 2, 1),
            (128, 28, 28, 128, 3, 1, 1), (512, 28, 28, 128, 1, 1, 0),
            (256, 14, 14, 256, 3, 1, 1), (1024, 14, 14, 256, 1, 1, 0),
            (512, 7, 7, 512, 3, 1, 1), (256, 28, 28, 256, 3, 2, 1),
            (2048, 7, 7, 512, 1, 1, 0), (3, 32, 32, 16, 3, 1, 1))
    for n, d in ((32, "f16"), (1, "f16"), (128, "bf16")):
        for (ch, h, w, k, r, st, p) in base:
            if n == 128 and ch in (3,) and h == 32:
                continue
            c.append(("conv2d", conv2d_args(n, ch, h, w, k, r, r, st, p, d)))
    c.append(("conv2d", conv2d_args(8, 32, 128, 128, 32, 3, 3, 1, 1, "bf16")))
    c.append(("conv2d", conv2d_args(16, 320, 64, 64, 320, 3, 3, 1, 1, "f16")))
    return c


def op_cases():
    """[(class, args)] for every operator row, in run order, no duplicates."""
    return dedupe(attention_cases() + rowwise_cases() + elementwise_cases()
                  + conv_cases())


def fresh_gemm_cases():
    """[(class, args)] of the sealed 'fresh' GEMM set: shapes of the kind users run (LLM
    projections and decode steps, BERT, odd sizes, batched attention products) that are in
    no other list; measured once, read only for the final report (split 'fresh')."""
    c = []
    for (m, n, k, d) in ((4096, 11008, 4096, "f16"), (4096, 4096, 11008, "bf16"),
                         (8192, 14336, 4096, "bf16"), (2048, 5120, 5120, "f16"),
                         (1024, 3072, 768, "f16"), (512, 768, 3072, "bf16"),
                         (6144, 2048, 1536, "f16"), (2560, 2560, 2560, "bf16"),
                         (1536, 1536, 1536, "tf32"), (3000, 3000, 3000, "tf32"),
                         (768, 768, 768, "tf32"), (1536, 1536, 1536, "f32"),
                         (3072, 1024, 2048, "f32"), (640, 640, 640, "f32"),
                         (8192, 4096, 14336, "f8e4m3"), (2048, 2048, 8192, "f8e4m3")):
        c.append(("square", gemm_args(m, n, k, d, "nt" if d == "f8e4m3" else "nn")))
    for (m, n, k, d) in ((32, 4096, 4096, "bf16"), (8, 8192, 8192, "f16"),
                         (64, 14336, 4096, "bf16"), (4, 11008, 4096, "f16"),
                         (100, 4096, 4096, "f32"), (256, 4096, 4096, "tf32"),
                         (2, 5120, 5120, "f32")):
        c.append(("skinny_m", gemm_args(m, n, k, d)))
    for (m, n, k, d) in ((8192, 8, 8192, "f16"), (4096, 64, 4096, "bf16"),
                         (16384, 32, 2048, "f16")):
        c.append(("skinny_n", gemm_args(m, n, k, d)))
    for (m, n, k, d) in ((128, 128, 65536, "bf16"), (384, 384, 24576, "f16"),
                         (2048, 2048, 32768, "bf16"), (96, 96, 49152, "f32")):
        c.append(("large_k", gemm_args(m, n, k, d)))
    for (m, n, k, d) in ((3000, 3000, 3001, "f16"), (1023, 1023, 1023, "bf16"),
                         (4096, 4096, 1001, "f16"), (5000, 700, 3000, "f16"),
                         (1999, 2001, 1003, "tf32"), (3333, 3333, 3333, "f32")):
        c.append(("unaligned", gemm_args(m, n, k, d)))
    for (b, m, n, k, d) in ((192, 512, 512, 64, "f16"), (64, 2048, 2048, 128, "bf16"),
                            (48, 1024, 1024, 64, "f16"), (12, 384, 384, 384, "bf16"),
                            (24, 1024, 64, 1024, "f16"), (16, 256, 256, 4096, "tf32")):
        c.append(("batched", gemm_args(m, n, k, d, "nn", b)))
    for (m, n, k, d, lay) in ((3072, 3072, 3072, "f16", "tn"), (2048, 8192, 1024, "bf16", "nt"),
                              (4096, 1024, 4096, "f16", "tt"), (2048, 2048, 2048, "tf32", "tn")):
        c.append(("layout", gemm_args(m, n, k, d, lay)))
    return dedupe(c)


def fresh_op_cases():
    """[(class, args)] of the sealed 'fresh' operator set (see fresh_gemm_cases)."""
    c = []
    for (b, h, s, hd, causal, d) in ((2, 16, 1536, 64, False, "bf16"),
                                     (4, 40, 1024, 128, True, "f16"),
                                     (1, 32, 16384, 128, True, "bf16"),
                                     (8, 12, 768, 64, False, "f16"),
                                     (16, 8, 256, 64, False, "f16"),
                                     (2, 24, 3072, 128, True, "f16"),
                                     (1, 16, 32768, 64, True, "bf16"),
                                     (64, 16, 128, 64, False, "bf16")):
        c.append(("attention", attention_args(b, h, s, hd, causal, d)))
    for op, shapes_ in (("softmax", ((8192, 2048, "f16"), (32768, 256, "f32"),
                                     (1024, 16384, "bf16"), (2000, 3000, "f32"),
                                     (500000, 16, "f16"), (6144, 6144, "bf16"))),
                        ("layernorm", ((8192, 4096, "bf16"), (32768, 768, "f16"),
                                       (1000, 2560, "f32"), (4096, 12288, "f16"),
                                       (262144, 64, "f32"), (64, 8192, "bf16"))),
                        ("rowsum", ((8192, 2048, "f16"), (50000, 512, "bf16"),
                                    (3, 10000000, "f32"), (131072, 64, "f32"),
                                    (4096, 12288, "bf16"), (777, 777, "f16"))),
                        ("transpose", ((2048, 2048, "f32"), (4096, 1024, "f16"),
                                       (12288, 768, "bf16"), (333, 777, "f32"),
                                       (65536, 64, "f16")))):
        for r, col, d in shapes_:
            c.append((op, rows_cols_args(op, r, col, d)))
    for op, n, d in (("gelu", 3000000, "f16"), ("relu", 50000000, "bf16"),
                     ("add", 12345678, "f32"), ("mul", 1 << 22, "f16"),
                     ("exp", 1 << 25, "f32"), ("gelu", 1 << 20, "bf16"),
                     ("relu", 1 << 15, "f32")):
        c.append(("elementwise", elementwise_args(op, n, d)))
    for (n, ch, h, w, k, r, st, p, d) in ((8, 64, 224, 224, 64, 3, 1, 1, "f16"),
                                          (16, 128, 112, 112, 128, 3, 1, 1, "bf16"),
                                          (64, 256, 28, 28, 512, 1, 1, 0, "f16"),
                                          (4, 3, 512, 512, 32, 3, 2, 1, "f16"),
                                          (32, 96, 35, 35, 128, 3, 1, 1, "f16"),
                                          (1, 128, 64, 64, 256, 3, 2, 1, "bf16"),
                                          (8, 512, 14, 14, 512, 3, 1, 1, "f16"),
                                          (64, 32, 64, 64, 64, 5, 1, 2, "f16")):
        c.append(("conv2d", conv2d_args(n, ch, h, w, k, r, r, st, p, d)))
    return dedupe(c)


def rows2_cases():
    """[(class, args)] of the second row-kernel set (2026-11-28): PyTorch's reduce_kernel
    (rowsum) over short, odd and vector-misaligned rows, in no other list, to choose the
    rowsum template's launch and counts on more than the 8 train rows of the first set.
    Split by split_of like the first set; its held-out rows are read only for the report."""
    c = []
    for r, col, d in ((65536, 16, "f32"), (262144, 32, "f32"), (8192, 32, "bf16"),
                      (131072, 48, "f16"), (32768, 64, "f16"), (4096, 64, "f32"),
                      (200000, 96, "bf16"), (50000, 127, "f32"), (65536, 128, "f16"),
                      (16384, 130, "bf16"), (100000, 200, "f16"), (8192, 256, "f32"),
                      (30000, 500, "bf16"), (4096, 768, "f16"), (20000, 1000, "f32"),
                      (5000, 1001, "f16"), (4096, 1024, "bf16"), (2000, 1500, "f32"),
                      (10000, 2000, "bf16"), (1000, 3000, "f16"), (512, 4000, "f32"),
                      (64, 8192, "bf16"), (256, 16384, "f16"), (8, 262144, "bf16"),
                      (32, 100000, "f32"), (2, 4194304, "f16"), (1, 1000000, "bf16"),
                      (300, 300, "f16"), (1000, 64, "f32"), (100, 10000, "f16")):
        c.append(("rowsum", rows_cols_args("rowsum", r, col, d)))
    return dedupe(c)


def ops3_cases():
    """[(class, args)] of the third operator set (2026-11-28), in no other list: classes the
    first set's train rows leave thin, so that the templates' rules for them are chosen on
    train rows of their own: bf16 and odd small-C convolutions (cuDNN's first-layer kernels),
    batch-1/2/4 3x3 convolutions, mid-size 1x1 convolutions, and row kernels whose blocks
    hold a whole row (one or two blocks an SM) or whose grid is a fraction of one wave.
    Split by split_of like the first set; its held-out rows are read only for the report."""
    c = []
    for (n, ch, h, w, k, r, st, p, d) in ((32, 3, 224, 224, 64, 7, 2, 3, "bf16"),
                                          (8, 3, 224, 224, 64, 7, 2, 3, "bf16"),
                                          (64, 3, 224, 224, 64, 7, 2, 3, "bf16"),
                                          (128, 3, 224, 224, 64, 7, 2, 3, "f16"),
                                          (32, 3, 32, 32, 16, 3, 1, 1, "bf16"),
                                          (16, 4, 64, 64, 32, 3, 1, 1, "bf16"),
                                          (32, 3, 112, 112, 32, 3, 2, 1, "bf16"),
                                          (32, 3, 112, 112, 32, 3, 2, 1, "f16"),
                                          (1, 96, 28, 28, 96, 3, 1, 1, "f16"),
                                          (1, 128, 14, 14, 128, 3, 1, 1, "f16"),
                                          (1, 64, 112, 112, 64, 3, 1, 1, "f16"),
                                          (1, 256, 28, 28, 256, 3, 1, 1, "f16"),
                                          (2, 64, 56, 56, 64, 3, 1, 1, "f16"),
                                          (4, 128, 28, 28, 128, 3, 1, 1, "f16"),
                                          (1, 192, 56, 56, 192, 3, 2, 1, "f16"),
                                          (1, 64, 56, 56, 64, 3, 1, 1, "bf16"),
                                          (16, 512, 14, 14, 1024, 1, 1, 0, "f16"),
                                          (64, 256, 28, 28, 512, 1, 1, 0, "bf16"),
                                          (8, 2048, 7, 7, 512, 1, 1, 0, "f16")):
        c.append(("conv2d", conv2d_args(n, ch, h, w, k, r, r, st, p, d)))
    for op, r, col, d in (("layernorm", 16, 512, "f32"), ("layernorm", 64, 2048, "bf16"),
                          ("layernorm", 128, 4096, "f16"), ("layernorm", 1024, 16384, "f32"),
                          ("layernorm", 4096, 2048, "f32"), ("softmax", 256, 256, "f32"),
                          ("softmax", 1024, 1024, "f32"), ("softmax", 4096, 2048, "f32"),
                          ("softmax", 1024, 8192, "f16"), ("softmax", 256, 16384, "f32"),
                          ("softmax", 64, 4096, "bf16"), ("softmax", 512, 2048, "f16"),
                          ("rowsum", 16, 1024, "f16"), ("rowsum", 128, 512, "f32")):
        c.append((op, rows_cols_args(op, r, col, d)))
    return dedupe(c)


def fresh_ids(prefix, cases):
    """[(id, 'fresh', class, args)]: ids prefix001.. in order."""
    return [("%s%03d" % (prefix, i + 1), "fresh", cls, a)
            for i, (cls, a) in enumerate(cases)]


def dedupe(cases):
    seen, out = set(), []
    for cls, a in cases:
        if a not in seen:
            seen.add(a)
            out.append((cls, a))
    return out


def with_ids(prefix, cases):
    """[(id, split, class, args)]: ids prefix001.. in order."""
    return [("%s%03d" % (prefix, i + 1), split_of(a), cls, a)
            for i, (cls, a) in enumerate(cases)]


# ---------------------------------------------------------------- formatting

def clean_name(name):
    """A kernel name safe inside the `kernels` field: ';' and '@' (the field's
    separators) become '_'; newlines become spaces."""
    return (name.replace(";", "_").replace("@", "_").replace("\n", " ")
            .replace("\r", " "))


def kernel_token(name, grid, block, regs):
    """`name@gx,gy,gz@bx,by,bz@regs` for one launched kernel."""
    g = ",".join(str(int(v)) for v in grid)
    b = ",".join(str(int(v)) for v in block)
    return "%s@%s@%s@%d" % (clean_name(name), g, b, int(regs))


def parse_kernel_token(tok):
    """Inverse of kernel_token: (name, (gx,gy,gz), (bx,by,bz), regs)."""
    name, g, b, r = tok.rsplit("@", 3)
    return (name, tuple(int(v) for v in g.split(",")),
            tuple(int(v) for v in b.split(",")), int(r))


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        raise ValueError("median of nothing")
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def group_per_rep(events, reps):
    """Turn a rep-ordered list of kernel events [(key, dur_us)] from `reps`
    identical calls into [(key, [durations])] in launch order, one entry per
    kernel launched by one call.  When the events split into `reps` chunks
    with the same key sequence, position i of every chunk is kernel i;
    otherwise kernels are grouped by key (first-seen order) and each key's
    count per call is round(count / reps) (>= 1).  Returns (groups, exact)."""
    n = len(events)
    if reps > 0 and n % reps == 0 and n > 0:
        kpr = n // reps
        seq = [e[0] for e in events[:kpr]]
        if all([e[0] for e in events[i * kpr:(i + 1) * kpr]] == seq
               for i in range(reps)):
            return [(seq[j], [events[i * kpr + j][1] for i in range(reps)])
                    for j in range(kpr)], True
    order, durs = [], {}
    for key, d in events:
        if key not in durs:
            order.append(key)
            durs[key] = []
        durs[key].append(d)
    out = []
    for key in order:
        per = max(1, int(round(len(durs[key]) / float(reps))))
        out.extend([(key, durs[key])] * per)
    return out, False


def row_fields(groups):
    """(kernels, kernel_us, time_us) strings from group_per_rep's groups,
    key = (name, grid, block, regs); time_us = sum of per-kernel medians."""
    toks, meds = [], []
    for key, durs in groups:
        toks.append(kernel_token(*key))
        meds.append(median(durs))
    return (";".join(toks), ";".join("%.3f" % m for m in meds),
            "%.3f" % sum(meds))


def csv_text(rows):
    """The CSV text (header COLUMNS, then rows as dicts or sequences)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for r in rows:
        w.writerow([r[c] for c in COLUMNS] if isinstance(r, dict) else r)
    return buf.getvalue()


def write_csv(path, rows):
    """Write rows atomically (temp file, then rename): never half a file."""
    import os
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(csv_text(rows))
    os.replace(tmp, path)


# ---------------------------------------------------------------- ncu subset

def ncu_subset():
    """Args strings profiled once under ncu (a few GEMM classes incl. split-K
    and unaligned, attention, softmax, layernorm, conv, ...)."""
    return [gemm_args(4096, 4096, 4096, "f16"),
            gemm_args(8192, 8192, 8192, "bf16"),
            gemm_args(256, 256, 16384, "f32"),
            gemm_args(256, 256, 16384, "f16"),
            gemm_args(4095, 4095, 4095, "f16"),
            gemm_args(1000, 1000, 1000, "f32"),
            gemm_args(1, 4096, 4096, "f16"),
            gemm_args(16, 8192, 8192, "f32"),
            gemm_args(1024, 1024, 1024, "f16", "nn", 8),
            gemm_args(4096, 4096, 4096, "f8e4m3", "nt"),
            gemm_args(4096, 4096, 4096, "tf32"),
            attention_args(4, 32, 2048, 128, True, "f16"),
            attention_args(1, 32, 8192, 64, False, "f16"),
            rows_cols_args("softmax", 4096, 4096, "bf16"),
            rows_cols_args("layernorm", 4096, 768, "f16"),
            rows_cols_args("rowsum", 4096, 4096, "f32"),
            rows_cols_args("transpose", 4096, 4096, "f16"),
            elementwise_args("gelu", 1 << 24, "bf16"),
            conv2d_args(32, 64, 56, 56, 64, 3, 3, 1, 1, "f16"),
            conv2d_args(32, 3, 224, 224, 64, 7, 7, 2, 3, "f16")]


# ---------------------------------------------------------------- diagnostic shapes

def held_out_args(data_dir):
    """{normalised args: id} of every row of data_dir/*/*.csv whose split is neither
    train nor diag: the held-out and fresh rows, whose args no diagnostic may use."""
    held = {}
    for path in sorted(glob.glob(os.path.join(data_dir, "*", "*.csv"))):
        for row in csv.DictReader(open(path)):
            if "args" in row and row.get("split", "train") not in ("train", "diag"):
                held[" ".join(row["args"].split())] = row["id"]
    return held


def diag_cases(path, data_dir, verb):
    """[(id, args)] of a file of diagnostic shapes (lines "ID ARGS", # comments). An id
    without args, or the args of a held-out or fresh row, ends the program with one line
    naming the file and line on stderr and exit 2 (verb: what the shape would have been,
    e.g. "profiled"), before anything runs."""
    held, cases = held_out_args(data_dir), []
    for n, line in enumerate(open(path), 1):
        line = line.split("#")[0].strip()
        if not line:
            continue
        rid, _, args = line.partition(" ")
        key = " ".join(args.split())
        msg = None
        if not key:
            msg = ("%s:%d: '%s' has no args: write ID then the row's args (e.g. d001 softmax "
                   "--rows 256 --cols 2048 --dtype f16)" % (path, n, rid))
        elif key in held:
            msg = ("%s:%d: these are the args of held-out row %s: not %s (a diagnostic "
                   "shape is in no held-out or fresh set; pick another size)"
                   % (path, n, held[key], verb))
        if msg:
            print(msg, file=sys.stderr)
            sys.exit(2)
        cases.append((rid, args.strip()))
    return cases
