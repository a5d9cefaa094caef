"""The SM clock and the call period of each validation row as the harness ran it.

Each row runs as bench.py timed it (its inputs rotated out of the L2, 3 warm-up
calls, 3 timed estimate calls, then the CSV's `reps` calls one after another
from Python inside torch.profiler), with one tick (clock_tick.cu, loaded with
ctypes) launched on the row's own stream after every `every`-th call: a warp
that spins 4000 cycles between two %globaltimer reads, in the gap between two
calls, so it reads the clock the GPU holds under the row's load. From the
profiler's trace: the row's kernel time as bench.py computes it (ticks left
out) and the call period, the median time between the starts of two
consecutive calls' first kernels. stdlib + torch only.

  nvcc -O2 -arch=sm_90 -shared -Xcompiler -fPIC -o libclock_tick.so clock_tick.cu
  python3 clock_inrow.py --csv model/validation/data/h200/gemm.csv --lib ./libclock_tick.so \\
      --out $OUT/gemm_inrow.csv [--classes conv2d,attention] [--ids g001,g003] [--budget-s S]

Writes id,split,class,args,reps,time_us,csv_time_us,period_us,ticks,clock_mhz,
clock_lo_mhz,clock_hi_mhz,first_mhz,last_mhz,row_s: clock_mhz the median of the
row's ticks, lo / hi its 10th and 90th percentiles, first / last the first and
last tick's, mean_mhz all ticks' cycles over all their time (free of the
timer's 32 ns step, which moves one tick's figure by ~1.5 %), row_s the profiled stretch's seconds. Never changes clocks.
"""

import argparse
import csv
import ctypes
import os
import sys
import tempfile
import time

import torch
from torch.profiler import profile, ProfilerActivity

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import shapes  # noqa: E402

COLS = ["id", "split", "class", "args", "reps", "time_us", "csv_time_us", "period_us", "ticks",
        "clock_mhz", "clock_lo_mhz", "clock_hi_mhz", "first_mhz", "last_mhz", "mean_mhz", "row_s"]
MAX_TICKS = 400


def pct(xs, q):
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))] if s else float("nan")


def period_us(ev, reps):
    """Median start-to-start time of consecutive calls: the events split into
    `reps` equal chunks (one per call) when they do; else None."""
    n = len(ev)
    if reps < 2 or n % reps:
        return None
    k = n // reps
    starts = [ev[i * k][2] for i in range(reps)]
    return pct([b - a for a, b in zip(starts, starts[1:])], 0.5)


def run_row(lib, args, reps, l2, tmpdir):
    mk, fn, nbytes, ctx = bench.build(args)
    torch.backends.cuda.matmul.allow_tf32 = "--dtype tf32" in args
    sets = bench.input_sets(mk, nbytes, l2)
    ns = len(sets)
    every = max(1, reps // MAX_TICKS)
    slots = reps // every + 1
    buf = torch.zeros(4 * slots, dtype=torch.int64, device="cuda")
    ptr = ctypes.c_void_p(buf.data_ptr())
    with ctx():
        for i in range(6):  # bench.py's 3 warm-up and 3 estimate calls
            fn(*sets[i % ns])
        torch.cuda.synchronize()
        stream = torch.cuda.current_stream().cuda_stream
        n = 0
        t0 = time.time()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for i in range(reps):
                fn(*sets[i % ns])
                if (i + 1) % every == 0 and n < slots:
                    if lib.tick(ctypes.c_ulonglong(stream), ptr, n):
                        raise RuntimeError("tick launch failed")
                    n += 1
            torch.cuda.synchronize()
        t1 = time.time()
    ev = bench.trace_events(prof, tmpdir, skip="tick_kernel", with_ts=True)
    del sets
    groups, _ = shapes.group_per_rep([(k, d) for k, d, _ in ev], reps)
    _, _, tus = shapes.row_fields(groups)
    b = buf.cpu().tolist()
    ok = [j for j in range(n) if b[4 * j + 2] > b[4 * j]]
    mhz = [(b[4 * j + 3] - b[4 * j + 1]) * 1e3 / (b[4 * j + 2] - b[4 * j]) for j in ok]
    # all ticks' cycles over all their nanoseconds: free of the timer's step
    ns = sum(b[4 * j + 2] - b[4 * j] for j in ok)
    mean = sum(b[4 * j + 3] - b[4 * j + 1] for j in ok) * 1e3 / ns if ns else float("nan")
    return tus, period_us(ev, reps), mhz, mean, t1 - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--classes", default="all")
    ap.add_argument("--ids", default="")
    ap.add_argument("--budget-s", type=float, default=400.0)
    a = ap.parse_args()
    lib = ctypes.CDLL(a.lib)
    lib.tick.argtypes = [ctypes.c_ulonglong, ctypes.c_void_p, ctypes.c_int]
    lib.tick.restype = ctypes.c_int
    torch.manual_seed(2026)
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    ids = set(x for x in a.ids.split(",") if x)
    classes = set(a.classes.split(","))
    rows = [r for r in csv.DictReader(open(a.csv))
            if (not ids or r["id"] in ids) and ("all" in classes or r["class"] in classes)]
    tmpdir = tempfile.mkdtemp()
    start, out = time.time(), []
    for r in rows:
        if time.time() - start > a.budget_s:
            print("budget spent: %d of %d rows" % (len(out), len(rows)), flush=True)
            break
        try:
            tus, per, mhz, mean, secs = run_row(lib, r["args"], int(r["reps"]), l2, tmpdir)
        except (RuntimeError, ValueError, TypeError, AttributeError) as e:
            print("FAIL %s: %s" % (r["id"], (str(e).splitlines() or [""])[0][:200]), flush=True)
            torch.cuda.empty_cache()
            continue
        f = lambda x: "%.1f" % x if x == x else ""  # noqa: E731
        out.append([r["id"], r["split"], r["class"], r["args"], r["reps"], tus, r["time_us"],
                    "%.3f" % per if per else "", len(mhz), f(pct(mhz, 0.5)), f(pct(mhz, 0.1)),
                    f(pct(mhz, 0.9)), f(mhz[0] if mhz else float("nan")),
                    f(mhz[-1] if mhz else float("nan")), f(mean), "%.3f" % secs])
        print("%s %-60s %9s us (csv %9s) period %8s us clock %6s MHz [%s..%s] mean %s, %d ticks" % (
            r["id"], r["args"][:60], tus, r["time_us"], out[-1][7], out[-1][9], out[-1][10],
            out[-1][11], out[-1][14], len(mhz)), flush=True)
        torch.cuda.empty_cache()
    with open(a.out, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(COLS)
        w.writerows(out)
    print("%s: %d rows in %.1f s" % (a.out, len(out), time.time() - start), flush=True)


if __name__ == "__main__":
    main()
