"""Does the SM clock follow tensor work within microseconds? A one-warp probe
(clock_probe.cu, its own stream, launched first so it holds one SM) samples
%clock64 against %globaltimer every ~4000 cycles while cuBLAS GEMMs of 128
blocks (the other SMs) run: idle, then calls from Python one after another
(as the harness makes them), then a CUDA graph of 20 calls replayed back to
back. If the clock drops only while tensor work runs, the 2-us windows of the
Python phase split into two clocks (kernels vs gaps); the graph phase shows
the clock under continuous tensor work. stdlib + torch only.

  nvcc -O2 -arch=sm_90 -shared -Xcompiler -fPIC -o libclock_probe.so clock_probe.cu
  python3 clock_burst.py --lib ./libclock_probe.so --out $OUT/clock_burst.csv

Writes phase,t_us,mhz: every sample window's clock (t from the first sample),
and prints each phase's clock percentiles. Never changes clocks.
"""

import argparse
import ctypes
import time

import torch

MAX = 1 << 20
SHAPES = {"1024^3 f16": (1024, 1024, 1024, torch.float16),
          "2048^3 bf16": (2048, 2048, 2048, torch.bfloat16)}


def pct(xs, q):
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))] if s else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    lib = ctypes.CDLL(a.lib)
    lib.probe_start.argtypes = [ctypes.c_int]
    lib.probe_stop.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    marks = []  # (phase, host seconds at start)
    ops = {}
    for name, (m, n, k, dt) in SHAPES.items():
        x, y = torch.randn(m, k, device="cuda").to(dt), torch.randn(k, n, device="cuda").to(dt)
        for _ in range(5):
            torch.matmul(x, y)
        g = torch.cuda.CUDAGraph()
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            torch.matmul(x, y)
            with torch.cuda.graph(g, stream=s):
                for _ in range(20):
                    torch.matmul(x, y)
        torch.cuda.synchronize()
        ops[name] = (x, y, g)
    if lib.probe_start(MAX):
        raise SystemExit("probe_start failed")
    time.sleep(0.05)
    for name, (x, y, g) in ops.items():
        marks.append(("idle before " + name, time.time()))
        time.sleep(0.05)
        marks.append(("python calls " + name, time.time()))
        for _ in range(3000):
            torch.matmul(x, y)
        torch.cuda.synchronize()
        marks.append(("idle after " + name, time.time()))
        time.sleep(0.05)
        marks.append(("graph back to back " + name, time.time()))
        for _ in range(100):
            g.replay()
        torch.cuda.synchronize()
    marks.append(("end", time.time()))
    time.sleep(0.02)
    T = (ctypes.c_ulonglong * MAX)()
    C = (ctypes.c_ulonglong * MAX)()
    t_stop = time.time()
    n = lib.probe_stop(T, C, MAX)
    if n <= 1:
        raise SystemExit("probe returned %d samples" % n)
    # host and GPU time matched at the probe's last sample, taken when it saw
    # the stop flag probe_stop raises (within microseconds of t_stop); the
    # phases last 50 ms or more
    t0 = T[0]
    rows = []
    for i in range(n - 1):
        dt = T[i + 1] - T[i]
        if dt > 0:
            rows.append(((T[i] - t0) / 1e3, (C[i + 1] - C[i]) * 1e3 / dt))
    t_end = (T[n - 1] - t0) / 1e3  # us

    def gpu_us(h):
        return t_end - (t_stop - h) * 1e6
    with open(a.out, "w") as f:
        f.write("phase,t_us,mhz\n")
        for j in range(len(marks) - 1):
            ph, h0 = marks[j]
            h1 = marks[j + 1][1]
            lo, hi = gpu_us(h0), gpu_us(h1)
            xs = [mz for (t, mz) in rows if lo <= t < hi]
            for (t, mz) in rows:
                if lo <= t < hi:
                    f.write("%s,%.1f,%.1f\n" % (ph, t, mz))
            print("%-32s %7.1f ms  samples %6d  clock p5 %6.1f p25 %6.1f p50 %6.1f p75 %6.1f "
                  "p95 %6.1f MHz" % (ph, (h1 - h0) * 1e3, len(xs), pct(xs, .05), pct(xs, .25),
                                     pct(xs, .5), pct(xs, .75), pct(xs, .95)), flush=True)


if __name__ == "__main__":
    main()
