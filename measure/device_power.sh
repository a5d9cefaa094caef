#!/bin/sh
# device_power.sh - for the device tool (GPU host): the clock bench with its
# l2 load and the board's power limit, and which limiter holds the clock
# under each load and under cuBLAS's large GEMMs.
#   sh measure/device_power.sh
# Builds gpucal-measure for sm_90a (CUDA alone), then, while nvidia-smi
# samples the SM clock, power and clock-event reasons every 100 ms
# ($OUT/smi_clock.csv):
#   1. gpucal-measure --bench clock --out $OUT/h200 (every load until its
#      clock settles, the l2 load last; 40-60 s);
#   2. (when PyTorch is there) four large cuBLAS GEMMs through torch.matmul,
#      each repeated for 3 s (f16 16384^3, bf16 8192^3, tf32 8192^3, f8e4m3
#      16384^3 via torch._scaled_mm), then five mid-size ones (bf16 4096^3
#      and 2048^3, f16 128x8192x8192, two cuDNN convolutions) as CUDA graphs
#      of 20 calls replayed back to back for 2 s, their start and end times
#      in $OUT/gemm_marks.csv (us_per_call: per replay for the graphs), so
#      the samples show the clock, power and reasons each ran at.
# Leaves $OUT/h200/clock.csv (to commit as traces/h200/clock.csv), run.err,
# smi_clock.csv, gemm_marks.csv, nvidia-smi-q.txt (power and clock
# sections), build.log.
set -u
OUT=${OUT:-/tmp/out}
B=/tmp/gcpow
mkdir -p "$OUT"
. "$(dirname "$0")/device_build.sh"
nvidia-smi -q -d POWER,CLOCK,PERFORMANCE,TEMPERATURE >"$OUT/nvidia-smi-q.txt" 2>&1 || true
Q=timestamp,clocks.sm,power.draw,enforced.power.limit,temperature.gpu,clocks_event_reasons.active,clocks_event_reasons.sw_power_cap,clocks_event_reasons.hw_slowdown,clocks_event_reasons.sw_thermal_slowdown,clocks_event_reasons.hw_thermal_slowdown,clocks_event_reasons.hw_power_brake_slowdown
nvidia-smi --query-gpu=$Q --format=csv >/dev/null 2>&1 || Q=timestamp,clocks.sm,power.draw,power.limit,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$Q --format=csv,nounits -lms 100 >"$OUT/smi_clock.csv" 2>&1 &
smi=$!
t=$(date +%s)
"$B/gpucal-measure" --bench clock --out "$OUT/h200" --force 2>"$OUT/run.err"
st=$?
echo "== clock bench: exit $st in $(($(date +%s) - t)) s"
grep -E 'warning|error|FAILED' "$OUT/run.err" | head -10
[ -f "$OUT/h200/clock.csv" ] && grep -E ',(settled|unsettled),|_load:|power_limit' "$OUT/h200/clock.csv" | cut -c1-260
if python3 -c 'import torch' 2>/dev/null; then
    PYTHONUNBUFFERED=1 python3 - "$OUT/gemm_marks.csv" <<'PY'
import sys, time, torch
out = open(sys.argv[1], "w")
out.write("name,t_start_unix,t_end_unix,calls,us_per_call\n")
def loop(name, f, secs=3.0):
    for _ in range(3):
        f()
    torch.cuda.synchronize()
    t0 = time.time(); n = 0
    e0 = torch.cuda.Event(enable_timing=True); e1 = torch.cuda.Event(enable_timing=True)
    e0.record()
    while time.time() - t0 < secs:
        for _ in range(4):
            f()
        n += 4
        torch.cuda.synchronize()
    e1.record(); torch.cuda.synchronize()
    us = e0.elapsed_time(e1) * 1000 / n
    out.write(f"{name},{t0:.3f},{time.time():.3f},{n},{us:.1f}\n"); out.flush()
    print(f"{name}: {us:.1f} us a call, {n} calls")
    time.sleep(1.0)
def mats(m, n, k, dt):
    a = torch.randn(m, k, device="cuda").to(dt); b = torch.randn(k, n, device="cuda").to(dt)
    return a, b
a, b = mats(16384, 16384, 16384, torch.float16); loop("f16_16384", lambda: a @ b)
a, b = mats(8192, 8192, 8192, torch.bfloat16); loop("bf16_8192", lambda: a @ b)
torch.backends.cuda.matmul.allow_tf32 = True
a, b = mats(8192, 8192, 8192, torch.float32); loop("tf32_8192", lambda: a @ b)
torch.backends.cuda.matmul.allow_tf32 = False
a = torch.randn(16384, 16384, device="cuda").to(torch.float8_e4m3fn)
b = torch.randn(16384, 16384, device="cuda").to(torch.float8_e4m3fn).t()
s = torch.tensor(1.0, device="cuda")
loop("f8_16384", lambda: torch._scaled_mm(a, b, scale_a=s, scale_b=s, out_dtype=torch.bfloat16))
# mid-size kernels, back to back through a CUDA graph of 20 calls (no host
# gaps): do they meet the limit too?
def graphed(f, n=20):
    s = torch.cuda.Stream(); s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            f()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(n):
            f()
    return lambda: g.replay()
a, b = mats(4096, 4096, 4096, torch.bfloat16); loop("bf16_4096_graph20", graphed(lambda: a @ b), 2.0)
a, b = mats(2048, 2048, 2048, torch.bfloat16); loop("bf16_2048_graph20", graphed(lambda: a @ b), 2.0)
a, b = mats(128, 8192, 8192, torch.float16); loop("f16_128x8192x8192_graph20", graphed(lambda: a @ b), 2.0)
import torch.nn.functional as F
x = torch.randn(128, 64, 56, 56, device="cuda").to(torch.bfloat16).to(memory_format=torch.channels_last)
w = torch.randn(64, 64, 3, 3, device="cuda").to(torch.bfloat16).to(memory_format=torch.channels_last)
loop("conv_bf16_n128_c64_k64_56_3x3_graph20", graphed(lambda: F.conv2d(x, w, padding=1)), 2.0)
x = torch.randn(16, 320, 64, 64, device="cuda").to(torch.float16).to(memory_format=torch.channels_last)
w = torch.randn(320, 320, 3, 3, device="cuda").to(torch.float16).to(memory_format=torch.channels_last)
loop("conv_f16_n16_c320_k320_64_3x3_graph20", graphed(lambda: F.conv2d(x, w, padding=1)), 2.0)
PY
fi
kill $smi 2>/dev/null
wait $smi 2>/dev/null
echo "== limiter samples: reasons seen (active mask: count)"
awk -F', ' 'NR > 1 { c[$6]++ } END { for (k in c) print "  " k ": " c[k] }' "$OUT/smi_clock.csv"
grep -A12 -i 'power readings\|Power Limit' "$OUT/nvidia-smi-q.txt" | head -30
exit $st
