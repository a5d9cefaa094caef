#!/bin/sh
# ncu_capped.sh - for the device tool (H200): the SM clock a kernel really
# runs at once the board's power limit holds it. Each case runs its call
# back to back from Python for about 2 s (the board reaches its limit within
# 0.2 s), then ncu profiles one more launch of its main kernel
# (--launch-skip, --clock-control none: the clocks as the GPU has them),
# reading the SM clock over that kernel (sm__cycles_elapsed.avg.per_second),
# its duration, its L2 and DRAM bytes and its tensor-pipe activity.
#   sh model/validation/torch/ncu_capped.sh      -> $OUT/ncu_capped.csv, ncu_*.log
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,lts__t_bytes.sum,dram__bytes.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__inst_executed_pipe_tensor_op_gmma.sum
cat >/tmp/case.py <<'PY'
import sys, time, torch
import torch.nn.functional as F
case, calls = sys.argv[1], int(sys.argv[2])
def mats(m, n, k, dt):
    return torch.randn(m, k, device="cuda").to(dt), torch.randn(k, n, device="cuda").to(dt)
if case.startswith("gemm"):
    _, m, n, k, dt = case.split(":")
    a, b = mats(int(m), int(n), int(k), getattr(torch, dt)); f = lambda: a @ b
else:
    _, n, c, h, w, kk, dt = case.split(":")
    dt = getattr(torch, dt)
    x = torch.randn(int(n), int(c), int(h), int(w), device="cuda").to(dt).to(memory_format=torch.channels_last)
    wt = torch.randn(int(kk), int(c), 3, 3, device="cuda").to(dt).to(memory_format=torch.channels_last)
    f = lambda: F.conv2d(x, wt, padding=1)
t0 = time.time(); n = 0
while n < calls + 16:
    for _ in range(8):
        f()
    n += 8
    if n % 64 == 0:
        torch.cuda.synchronize()
torch.cuda.synchronize()
print(f"{case}: {n} calls in {time.time() - t0:.2f} s", flush=True)
PY
echo "case,launch_skip,kernel,duration_us,sm_mhz,cycles,l2_bytes,dram_bytes,hmma_pct,gmma_inst" >"$OUT/ncu_capped.csv"
run() { # case, calls, kernel regex, launches to skip (= calls: the profiled one follows them)
    tag=$(echo "$1" | tr ':' '_')
    timeout 100 ncu --clock-control none --kernel-name "regex:$3" --launch-skip "$4" --launch-count 1 \
        --metrics "$M" --csv python3 /tmp/case.py "$1" "$2" >"$OUT/ncu_$tag.log" 2>&1
    python3 - "$OUT/ncu_$tag.log" "$1" "$4" >>"$OUT/ncu_capped.csv" <<'PY'
import csv, sys
lines = [l for l in open(sys.argv[1]) if l.startswith('"')]
rows = list(csv.DictReader(lines))
v = {r["Metric Name"]: r["Metric Value"].replace(",", "") for r in rows}
k = rows[0]["Kernel Name"][:60] if rows else "-"
g = lambda n: v.get(n, "")
print(",".join([sys.argv[2], sys.argv[3], k.replace(",", ";"), g("gpu__time_duration.sum"), g("sm__cycles_elapsed.avg.per_second"),
                g("sm__cycles_elapsed.max"), g("lts__t_bytes.sum"), g("dram__bytes.sum"),
                g("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed"),
                g("sm__inst_executed_pipe_tensor_op_gmma.sum")]))
PY
    tail -n 1 "$OUT/ncu_capped.csv"
}
run gemm:16384:16384:16384:float16 120 "nvjet|sm90|gemm" 120
run gemm:8192:8192:8192:bfloat16 900 "nvjet|sm90|gemm" 900
run gemm:4096:4096:4096:bfloat16 6000 "nvjet|sm90|gemm" 6000
run gemm:128:8192:8192:float16 20000 "nvjet|sm90|gemm" 20000
run conv:128:64:56:56:64:bfloat16 12000 "sm90|xmma|conv|implicit" 12000
run conv:16:320:64:64:320:float16 5000 "sm90|xmma|conv|implicit" 5000
# the same kernels after only two calls: the clock of a GPU not yet at its limit
run gemm:16384:16384:16384:float16 2 "nvjet|sm90|gemm" 2
run gemm:4096:4096:4096:bfloat16 2 "nvjet|sm90|gemm" 2
