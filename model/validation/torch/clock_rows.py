"""The SM clock each operator row runs at (train rows only), read inside the
GPU while the row runs as bench.py runs it: a one-warp probe on its own
stream (clock_probe.cu, loaded with ctypes) samples %clock64 against
%globaltimer; the row's calls run back to back for --seconds after a
quiet stretch that gives the idle clock. stdlib + torch only.

  nvcc -O2 -arch=sm_90 -shared -Xcompiler -fPIC -o libclock_probe.so clock_probe.cu
  python3 clock_rows.py --csv model/validation/data/h200/ops.csv --lib ./libclock_probe.so \\
      --out $OUT/row_sm_clock.csv [--classes conv2d,attention|all] [--seconds 0.5] [--ids g001,g003]

Writes id,class,args,reps,idle_mhz,run_mhz,run_mhz_min,run_mhz_max,run_s: the
clock over the quiet 20 ms, and over the rows' calls (median, least and
most of its 1 ms windows).  Never changes clocks.
"""

import argparse
import csv
import ctypes
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

MAX = 1 << 20


def windows(t, c, t0, t1, w_ns=1_000_000):
    """Clock (MHz) of each w_ns window of samples with t0 <= t < t1."""
    out, i, n = [], 0, len(t)
    while i < n and t[i] < t0:
        i += 1
    while i < n and t[i] < t1:
        j = i
        while j < n and t[j] < min(t1, t[i] + w_ns):
            j += 1
        if j - 1 > i:
            out.append((c[j - 1] - c[i]) * 1e3 / (t[j - 1] - t[i]))
        i = j
    return out


def med(xs):
    s = sorted(xs)
    return s[len(s) // 2] if s else float("nan")


def one_row(lib, args, seconds, l2):
    mk, fn, nbytes, ctx = bench.build(args)
    sets = bench.input_sets(mk, nbytes, l2)
    with ctx():
        for i in range(3):
            fn(*sets[i % len(sets)])
        torch.cuda.synchronize()
        t = time.perf_counter()
        fn(*sets[0])
        torch.cuda.synchronize()
        reps = int(max(5, min(100000, seconds / max(time.perf_counter() - t, 1e-6))))
        if lib.probe_start(MAX):
            raise RuntimeError("probe_start failed")
        time.sleep(0.02)  # the quiet stretch: the idle clock
        for i in range(reps):
            fn(*sets[i % len(sets)])
        torch.cuda.synchronize()
        ta = (ctypes.c_ulonglong * MAX)()
        ca = (ctypes.c_ulonglong * MAX)()
        n = lib.probe_stop(ta, ca, MAX)
    if n < 3:
        raise RuntimeError("probe returned %d samples" % n)
    t, c = list(ta[:n]), list(ca[:n])
    t0 = t[0]
    idle = windows(t, c, t0, t0 + 15_000_000)
    run = windows(t, c, t0 + 25_000_000, t[-1])
    return reps, med(idle), run, (t[-1] - t0 - 25_000_000) / 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--classes", default="conv2d,attention")
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--ids", default="", help="comma-separated row ids (train only); "
                    "default: every train row of --classes")
    a = ap.parse_args()
    lib = ctypes.CDLL(os.path.abspath(a.lib))
    lib.probe_start.argtypes = [ctypes.c_int]
    lib.probe_stop.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    classes = set(a.classes.split(","))
    ids = set(x for x in a.ids.split(",") if x)
    rows = [r for r in csv.DictReader(open(a.csv))
            if r["split"] == "train" and ("all" in classes or r["class"] in classes)
            and (not ids or r["id"] in ids)]
    with open(a.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "class", "args", "reps", "idle_mhz", "run_mhz", "run_mhz_min",
                    "run_mhz_max", "run_s"])
        for r in rows:
            try:
                reps, idle, run, secs = one_row(lib, r["args"], a.seconds, l2)
            except Exception as e:  # one row's failure is reported, the rest run
                print("%s %s: %s" % (r["id"], r["args"], e), flush=True)
                continue
            w.writerow([r["id"], r["class"], r["args"], reps, "%.1f" % idle,
                        "%.1f" % med(run), "%.1f" % min(run), "%.1f" % max(run),
                        "%.3f" % secs])
            f.flush()
            print("%s %-60s idle %.0f run %.0f MHz (%d reps)"
                  % (r["id"], r["args"][:60], idle, med(run), reps), flush=True)


if __name__ == "__main__":
    main()
