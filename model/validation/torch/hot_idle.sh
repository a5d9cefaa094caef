#!/bin/sh
# hot_idle.sh - for the device tool (H200): how much more the idle board draws
# when the die is hot. nvidia-smi samples the instantaneous power, the SM
# clock and the temperature every 20 ms ($OUT/hot_idle.csv) through: 2 s
# idle (cold), 4 s of f16 16384^3 GEMMs back to back (the board at its
# limit, the die heating), then 3 s idle again (hot, cooling); the GEMM's
# start and end are in $OUT/hot_idle_marks.csv.
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
Q=timestamp,power.draw.instant,clocks.sm,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$Q --format=csv >/dev/null 2>&1 || Q=timestamp,power.draw,clocks.sm,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$Q --format=csv,nounits -lms 20 >"$OUT/hot_idle.csv" 2>&1 &
smi=$!
PYTHONUNBUFFERED=1 python3 - "$OUT/hot_idle_marks.csv" <<'PY'
import sys, time, torch
a = torch.randn(16384, 16384, device="cuda").half(); b = torch.randn(16384, 16384, device="cuda").half()
torch.cuda.synchronize(); time.sleep(2.0)
t0 = time.time()
while time.time() - t0 < 4.0:
    for _ in range(4):
        a @ b
    torch.cuda.synchronize()
t1 = time.time()
time.sleep(3.0)
open(sys.argv[1], "w").write(f"gemm_start_unix,gemm_end_unix\n{t0:.3f},{t1:.3f}\n")
print("gemm", t0, t1)
PY
kill $smi; wait $smi 2>/dev/null
head -2 "$OUT/hot_idle.csv"
