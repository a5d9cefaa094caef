"""Time cuBLAS GEMMs and PyTorch operators with torch.profiler (CUPTI kernel
durations) on the device machine.  stdlib + torch only.

  python3 bench.py --set gemm|ops|fresh_gemm|fresh_ops|rows2|ops3 --out FILE.csv [--times FILE] [--budget-s S]
  python3 bench.py --ncu ARGS_FILE [--ncu-calls N]  (under ncu --profile-from-start off)
  python3 bench.py --diag FILE --out FILE.csv [--target-s S]
      diagnostic shapes, lines "ID ARGS" (e.g. "k001 gemm --m 1024 --n 1024 --k 256 --dtype f16
      --layout nn --batch 1"), timed as the sets are (split and class "diag"); refused when
      they are a held-out or fresh row's args: for what a kernel costs per k step or per
      row, never a validation row's time

Per row: inputs are drawn at random (torch.randn; never zeros) and rotate
among k copies so that repeated calls do not find them in L2 (k copies hold
>= 3x the L2 size, k <= 16); 3 warm-up calls; a host-timed estimate sizes
`reps` (5 .. --max-reps) so the profiled region lasts about --target-s
(1 s; a quarter of that once 70 % of --budget-s is spent); then `reps` calls run
back to back inside torch.profiler (CUDA activity only); each kernel's
duration is CUPTI's, each kernel position's median over the reps is reported;
time_us is the sum of those medians (launch gaps excluded).  See README.md.
"""

import argparse
import contextlib
import json
import math
import os
import signal
import sys
import tempfile
import time

import torch
import torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shapes  # noqa: E402

DT = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
      "tf32": torch.float32}
DEV = "cuda"


def rnd(*shape, dtype=torch.float32):
    return torch.randn(*shape, device=DEV, dtype=torch.float32).to(dtype)


def operand(batch, rows, cols, letter, dtype):
    """A (rows x cols) operand; letter 't' = transposed view of a contiguous
    (cols x rows) tensor, 'n' = contiguous (rows x cols)."""
    lead = (batch,) if batch > 1 else ()
    if letter == "n":
        return rnd(*lead, rows, cols, dtype=dtype)
    x = rnd(*lead, cols, rows, dtype=dtype)
    return x.transpose(-1, -2)


def build_gemm(p):
    m, n, k, b = p["m"], p["n"], p["k"], p["batch"]
    d, lay = p["dtype"], p["layout"]
    if d == "f8e4m3":
        if lay != "nt" or b != 1:
            raise ValueError("f8e4m3 rows need --layout nt --batch 1 "
                             "(torch._scaled_mm wants A row-major, B col-major)")
        one = torch.tensor(1.0, device=DEV)

        def mk():
            a = rnd(m, k).to(torch.float8_e4m3fn)
            bt = rnd(n, k).to(torch.float8_e4m3fn)
            return (a, bt.t())

        def fn(a, bb):
            return torch._scaled_mm(a, bb, scale_a=one, scale_b=one,
                                    out_dtype=torch.bfloat16)
        return mk, fn, (m * k + n * k) * b, contextlib.nullcontext
    dt = DT[d]

    def mk():
        return (operand(b, m, k, lay[0], dt), operand(b, k, n, lay[1], dt))
    fn = torch.bmm if b > 1 else torch.matmul
    esz = torch.tensor([], dtype=dt).element_size()
    return mk, fn, (m * k + k * n) * b * esz, contextlib.nullcontext


def flash_ctx():
    from torch.nn.attention import sdpa_kernel, SDPBackend
    return sdpa_kernel(SDPBackend.FLASH_ATTENTION)


def build_attention(p):
    b, h, s, d = p["batch"], p["heads"], p["seq"], p["head-dim"]
    dt, causal = DT[p["dtype"]], bool(p.get("causal", False))

    def mk():
        return tuple(rnd(b, h, s, d, dtype=dt) for _ in range(3))

    def fn(q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    return mk, fn, 3 * b * h * s * d * 2, flash_ctx


def build_rows(op, p):
    r, c, dt = p["rows"], p["cols"], DT[p["dtype"]]
    esz = torch.tensor([], dtype=dt).element_size()
    if op == "layernorm":
        w, bias = rnd(c, dtype=dt), rnd(c, dtype=dt)

        def fn(x):
            return F.layer_norm(x, (c,), w, bias)
    elif op == "softmax":
        def fn(x):
            return torch.softmax(x, -1)
    elif op == "rowsum":
        def fn(x):
            return x.sum(-1)
    else:
        def fn(x):
            return x.t().contiguous()

    def mk():
        return (rnd(r, c, dtype=dt),)
    return mk, fn, r * c * esz, contextlib.nullcontext


def build_elementwise(p):
    n, dt, op = p["n"], DT[p["dtype"]], p["op"]
    esz = torch.tensor([], dtype=dt).element_size()
    unary = {"gelu": F.gelu, "relu": torch.relu, "exp": torch.exp}
    if op in unary:
        f = unary[op]

        def mk():
            return (rnd(n, dtype=dt),)
        return mk, f, n * esz, contextlib.nullcontext
    f = torch.add if op == "add" else torch.mul

    def mk2():
        return (rnd(n, dtype=dt), rnd(n, dtype=dt))
    return mk2, f, 2 * n * esz, contextlib.nullcontext


def build_conv(p):
    n, c, h, w, k = p["n"], p["c"], p["h"], p["w"], p["k"]
    r, s, st, pad, dt = p["r"], p["s"], p["stride"], p["pad"], DT[p["dtype"]]
    cl = torch.channels_last
    wt = rnd(k, c, r, s, dtype=dt).to(memory_format=cl)

    def mk():
        return (rnd(n, c, h, w, dtype=dt).to(memory_format=cl),)

    def fn(x):
        return F.conv2d(x, wt, None, st, pad)
    return mk, fn, n * c * h * w * 2, contextlib.nullcontext


def build(args):
    """(make_inputs, fn, bytes_per_input_set, ctx_factory) for an args string."""
    op, p = shapes.parse_args(args)
    if op == "gemm":
        return build_gemm(p)
    if op == "attention":
        return build_attention(p)
    if op in ("softmax", "layernorm", "rowsum", "transpose"):
        return build_rows(op, p)
    if op == "elementwise":
        return build_elementwise(p)
    if op == "conv2d":
        return build_conv(p)
    raise ValueError("unknown op " + op)


def input_sets(mk, nbytes, l2_bytes):
    """k input sets, k copies >= 3x L2 (1 <= k <= 16)."""
    k = max(1, min(16, int(math.ceil(3.0 * l2_bytes / max(1, nbytes)))))
    return [mk() for _ in range(k)]


def kernel_events(trace_path, skip=None, with_ts=False):
    """[(key, dur_us)] of GPU kernels and memsets in a chrome trace, in start
    order ([(key, dur_us, ts_us)] with with_ts); key = (name, grid, block,
    regs); kernels whose name holds `skip` left out."""
    with open(trace_path) as f:
        tr = json.load(f)
    out = []
    for e in tr.get("traceEvents", []):
        cat = e.get("cat", "")
        if cat not in ("kernel", "gpu_memset", "gpu_memcpy") or (skip and skip in e["name"]):
            continue
        a = e.get("args", {})
        if cat == "kernel":
            key = (e["name"], tuple(a.get("grid", (0, 0, 0))),
                   tuple(a.get("block", (0, 0, 0))),
                   int(a.get("registers per thread", 0)))
        else:
            key = ("[%s]" % cat, (0, 0, 0), (0, 0, 0), 0)
        out.append((key, float(e.get("dur", 0.0)), float(e.get("ts", 0.0))))
    out.sort(key=lambda t: t[2])
    return out if with_ts else [(k, d) for k, d, _ in out]


def trace_events(prof, tmpdir, **kw):
    """kernel_events of a finished torch.profiler run (its chrome trace
    written to tmpdir and removed)."""
    path = os.path.join(tmpdir, "trace.json")
    prof.export_chrome_trace(path)
    ev = kernel_events(path, **kw)
    os.remove(path)
    return ev


def time_row(args, target_s, max_reps, l2_bytes, tmpdir):
    """Profile one args string; returns (groups, reps, exact, t0, t1)."""
    mk, fn, nbytes, ctx = build(args)
    torch.backends.cuda.matmul.allow_tf32 = "--dtype tf32" in args
    sets = input_sets(mk, nbytes, l2_bytes)
    ns = len(sets)
    with ctx():
        for i in range(3):
            fn(*sets[i % ns])
        torch.cuda.synchronize()
        t = time.perf_counter()
        for i in range(3):
            fn(*sets[i % ns])
        torch.cuda.synchronize()
        est = (time.perf_counter() - t) / 3.0
        reps = int(max(5, min(max_reps, target_s / max(est, 1e-6))))
        torch.cuda.synchronize()
        t0 = time.time()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for i in range(reps):
                fn(*sets[i % ns])
            torch.cuda.synchronize()
        t1 = time.time()
    ev = trace_events(prof, tmpdir)
    del sets
    groups, exact = shapes.group_per_rep(ev, reps)
    return groups, reps, exact, t0, t1


def _term(signum, frame):
    raise SystemExit("terminated by signal %d" % signum)


def run_set(name, out_csv, times_path, target_s, budget_s, max_reps):
    """Time every case of the set; the CSV is written when the loop ends,
    also when `timeout` stops it (SIGTERM), with the rows done so far."""
    cases = {"gemm": lambda: shapes.with_ids("g", shapes.gemm_cases()),
             "ops": lambda: shapes.with_ids("o", shapes.op_cases()),
             "fresh_gemm": lambda: shapes.fresh_ids("fg", shapes.fresh_gemm_cases()),
             "fresh_ops": lambda: shapes.fresh_ids("fo", shapes.fresh_op_cases()),
             "rows2": lambda: shapes.with_ids("r", shapes.rows2_cases()),
             "ops3": lambda: shapes.with_ids("p", shapes.ops3_cases())}[name]()
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    rows, times, start = [], [], time.time()
    tmpdir = tempfile.mkdtemp()
    signal.signal(signal.SIGTERM, _term)
    try:
        for (rid, split, cls, args) in cases:
            used = time.time() - start
            tgt = (target_s if used < 0.7 * budget_s else
                   target_s / 4.0 if used < budget_s else 0.0)
            one_row(rid, split, cls, args, tgt, max_reps, l2, tmpdir, rows,
                    times)
    except SystemExit as e:
        print("STOPPED: %s" % e, flush=True)
    finally:
        shapes.write_csv(out_csv, rows)
        if times_path:
            with open(times_path, "a") as f:
                f.write("\n".join(times) + "\n")
        print("%s: %d of %d rows in %.1f s" % (name, len(rows), len(cases),
                                              time.time() - start), flush=True)


def one_row(rid, split, cls, args, tgt, max_reps, l2, tmpdir, rows,
                    times):
    """Time one case and append its row (or print FAIL and append nothing)."""
    try:
        groups, reps, exact, t0, t1 = time_row(args, tgt, max_reps, l2, tmpdir)
    except (RuntimeError, ValueError, TypeError, AttributeError) as e:
        print("FAIL %s %s: %s" % (rid, args, (str(e).splitlines() or [""])[0][:300]),
              flush=True)
        torch.cuda.empty_cache()
        return
    if not groups:
        print("FAIL %s %s: no kernel events" % (rid, args), flush=True)
        return
    kern, kus, tus = shapes.row_fields(groups)
    rows.append([rid, split, cls, args, kern, kus, tus, reps])
    times.append("%s,%.3f,%.3f" % (rid, t0, t1))
    print("%s %-8s %-72s %10s us reps %4d kernels %d%s" % (
        rid, split, args, tus, reps, len(groups),
        "" if exact else " (grouped by name)"), flush=True)
    torch.cuda.empty_cache()


def run_diag(path, out_csv, target_s, max_reps):
    """Time the diagnostic shapes of path (lines "ID ARGS"); exits 2 on an id without
    args or a held-out or fresh row's args, before anything runs (shapes.diag_cases)."""
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
    cases = [(rid, " ".join(args.split())) for rid, args in shapes.diag_cases(path, data, "timed")]
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    rows, times, tmpdir = [], [], tempfile.mkdtemp()
    for rid, args in cases:
        one_row(rid, "diag", "diag", args, target_s, max_reps, l2, tmpdir, rows, times)
    shapes.write_csv(out_csv, rows)


def run_ncu(args_file, calls=2):
    """Under ncu --profile-from-start off: for each args line, one warm-up
    call, then profiling on, a marker kernel (bitwise_not on int16), `calls`
    calls, profiling off.  The k-th marker in ncu's report opens line k."""
    lines = [x.strip() for x in open(args_file) if x.strip()]
    mark = torch.zeros(7, dtype=torch.int16, device=DEV)
    for args in lines:
        try:
            mk, fn, nbytes, ctx = build(args)
            torch.backends.cuda.matmul.allow_tf32 = "--dtype tf32" in args
            x = mk()
            with ctx():
                fn(*x)
                torch.cuda.synchronize()
                torch.cuda.profiler.start()
                torch.bitwise_not(mark)
                for _ in range(calls):
                    fn(*x)
                torch.cuda.synchronize()
                torch.cuda.profiler.stop()
            del x
        except Exception as e:
            torch.cuda.profiler.stop()
            print("NCU-FAIL %s: %s" % (args, str(e).splitlines()[0][:200]))
        torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", choices=["gemm", "ops", "fresh_gemm", "fresh_ops", "rows2",
                                          "ops3"])
    ap.add_argument("--out")
    ap.add_argument("--times")
    ap.add_argument("--target-s", type=float, default=1.0)
    ap.add_argument("--max-reps", type=int, default=2000)
    ap.add_argument("--budget-s", type=float, default=150.0)
    ap.add_argument("--ncu")
    ap.add_argument("--ncu-calls", type=int, default=2)
    ap.add_argument("--diag")
    a = ap.parse_args()
    torch.manual_seed(2026)
    if a.diag:
        run_diag(a.diag, a.out, a.target_s, a.max_reps)
        return
    if a.ncu:
        run_ncu(a.ncu, a.ncu_calls)
        return
    run_set(a.set, a.out, a.times, a.target_s, a.budget_s, a.max_reps)


if __name__ == "__main__":
    main()
