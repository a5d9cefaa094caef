#!/bin/sh
# device_clock.sh - for the device tool (GPU host): the clock bench alone.
#   sh measure/device_clock.sh
# Builds gpucal-measure for sm_90a with CUDA alone (cmake -DGPUCAL_CUDA=ON;
# the GPU host needs neither GSL nor libyaml), runs
#   gpucal-measure --bench clock --out $OUT/h200
# (idle, memory, tensor, tensor_mma and fma loads, then the partial tensor
# loads tensor_d25/_d50/_d75 (wgmma) and tensor_mma_d25/_d50/_d75
# (mma.sync), each until its clock settles: 2-4 s per load, 25-45 s in
# all), once (GC_RUNS=2: again into $OUT/h200_run2, to show how far two
# runs agree), and leaves in $OUT:
#   h200/clock.csv          the trace to commit as traces/h200/clock.csv
#   h200_run2/clock.csv     the second run
#   run*.err                the bench's progress and warnings
#   nvidia-smi.txt          clocks, power, limit, temperature before and after
#   clk_sass.txt            cuobjdump -sass of the k_clk_* kernels (the SASS
#                           check's fixture material: FFMA in k_clk_fma;
#                           HGMMA, HMMA and NANOSLEEP in k_clk_tensor)
#   build.log               the build
# Each load prints its row and trailer line (a partial load's trailer gives
# its activity); a load the GPU fails prints a warning and `<load>_load:
# failed: ...`, and the others still run.
# Expected wall time: 1-3 min (the build), plus 25-45 s per run.
set -u
OUT=${OUT:-/tmp/out}
B=/tmp/gcclk
mkdir -p "$OUT"
. "$(dirname "$0")/device_build.sh"
smi() {
    nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu \
        --format=csv >>"$OUT/nvidia-smi.txt" 2>&1 || true
    nvidia-smi --query-gpu=clocks_event_reasons.active --format=csv >>"$OUT/nvidia-smi.txt" 2>&1 || true
}
smi
cuobjdump -sass -arch sm_90a "$B/gpucal-measure" 2>/dev/null |
    awk '/Function :/ { keep = ($3 ~ /k_clk_/) } keep' >"$OUT/clk_sass.txt" || true
echo "sass: $(grep -c 'Function :' "$OUT/clk_sass.txt") clock kernels," \
    "$(awk '/Function :/ { f = ($3 ~ /k_clk_fma/) } f && / FFMA/' "$OUT/clk_sass.txt" | wc -l)" \
    "FFMA in k_clk_fma;" \
    "$(awk '/Function :/ { f = ($3 ~ /k_clk_tensor/) } f && /HGMMA/' "$OUT/clk_sass.txt" | wc -l) HGMMA," \
    "$(awk '/Function :/ { f = ($3 ~ /k_clk_tensor/) } f && /HMMA/' "$OUT/clk_sass.txt" | wc -l) HMMA," \
    "$(awk '/Function :/ { f = ($3 ~ /k_clk_tensor/) } f && /NANOSLEEP/' "$OUT/clk_sass.txt" | wc -l) NANOSLEEP in k_clk_tensor"
rc=0
for r in $(seq 1 "${GC_RUNS:-1}"); do
    d=h200
    [ "$r" -gt 1 ] && d=h200_run$r
    t=$(date +%s)
    "$B/gpucal-measure" --bench clock --out "$OUT/$d" --force 2>"$OUT/run$r.err"
    st=$?
    [ "$st" -ne 0 ] && rc=$st
    echo "== run $r: exit $st in $(($(date +%s) - t)) s"
    grep -E 'warning|error|FAILED' "$OUT/run$r.err" | head -10
    smi
    # each load's row and its trailer line
    [ -f "$OUT/$d/clock.csv" ] && grep -E ',(settled|unsettled),|_load:|sass_check' "$OUT/$d/clock.csv"
done
cat "$OUT/nvidia-smi.txt"
exit $rc
