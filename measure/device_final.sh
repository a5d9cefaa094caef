#!/bin/sh
# device_final.sh - one device call (<= 540 s on an H100): the whole
# measurement twice, plus independent references, into $OUT.
#   sh measure/device_final.sh            (from the repository root)
# Steps, each printed with its time:
#   1. build gpucal-measure for sm_90a (CMake, target gpucal-measure only;
#      GENCODE overrides) and, in parallel, the reference programs in
#      measure/ref/ with nvcc alone;
#   2. run 1: gpucal-measure (every bench, default settings) into run1/;
#   3. run 2: the same into run2/;
#   4. stability: measure/ref/compare_runs.py run1 run2 (share of values that
#      move by > 1 %, which ones, the headline figures of both runs);
#   5. references: bw_ref (plain vectorised copy/read/write kernels swept over
#      width, unroll, threads, blocks per SM, streaming hints), torch_ref.py
#      (PyTorch copy, triad, sum, fill), chase_ref (per-access pointer chase
#      on 4 SMs: 8 MiB hit and 512 MiB miss footprints, 32-byte nodes);
#      kernel_floor (the GPU time of empty kernels: a CUDA graph of 1000,
#      a stream of 1000, one), torch_floor.py (the profiler's duration of
#      tiny element-wise kernels);
#   6. $OUT/final.tgz (run1/, run2/, logs, reference outputs) and
#      $OUT/summary.txt (the lines to read first).
# Each step gets what is left of a 530 s budget (timeout); a step that fails
# or times out is reported and the script goes on. Nothing outside the
# machine is needed: CUDA, CMake, python3 (torch optional).
set -u
OUT=${OUT:-/tmp/out}
W=/tmp/gcfinal
BUDGET=${BUDGET:-530}
GENCODE=${GENCODE:--gencode=arch=compute_90a,code=sm_90a}
rm -rf "$W"
mkdir -p "$W/log" "$OUT"
T0=$(date +%s)
S="$W/log/summary.txt"
: > "$S"
say() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a "$S"; }
left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
# step NAME LIMIT CMD...: runs CMD with stdout+stderr into log/NAME.log, at most
# LIMIT seconds (and never past the budget), and reports its time and status.
step() {
    name=$1 lim=$2
    shift 2
    l=$(left)
    [ "$lim" -gt "$l" ] && lim=$l
    if [ "$lim" -le 5 ]; then
        say "$name: skipped (budget spent)"
        return 1
    fi
    t=$(date +%s)
    say "$name: start (limit $lim s)"
    timeout -s KILL "$lim" "$@" > "$W/log/$name.log" 2>&1
    r=$?
    say "$name: exit $r in $(( $(date +%s) - t )) s"
    return $r
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv \
    2>&1 | tee -a "$S"

# 1. build
build_measure() {
    cmake -S . -B "$W/b" -DGPUCAL_CUDA_GENCODE="$GENCODE" -DCMAKE_BUILD_TYPE=Release &&
        cmake --build "$W/b" -j"${JOBS:-16}" --target gpucal-measure
}
build_refs() {
    nvcc -O3 $GENCODE -o "$W/bw_ref" measure/ref/bw_ref.cu &&
        nvcc -O3 $GENCODE -o "$W/chase_ref" measure/ref/chase_ref.cu &&
        nvcc -O3 $GENCODE -o "$W/kernel_floor" measure/ref/kernel_floor.cu
}
t=$(date +%s)
say "build: start"
(build_refs > "$W/log/build_refs.log" 2>&1; echo $? > "$W/refs.rc") &
build_measure > "$W/log/build.log" 2>&1
rb=$?
wait
say "build: gpucal-measure exit $rb, references exit $(cat "$W/refs.rc") in $(( $(date +%s) - t )) s"
[ "$rb" -eq 0 ] || tail -20 "$W/log/build.log" | tee -a "$S"
M="$W/b/gpucal-measure"

# 2-3. the suite twice
for k in 1 2; do
    if [ -x "$M" ]; then
        step "run$k" 200 "$M" --out "$W/run$k"
        sed -n '/^bench  *status/,$p' "$W/log/run$k.log" | tee -a "$S"
        grep -i "error\|failed" "$W/log/run$k.log" | head -5 | tee -a "$S"
        grep "^\[numeric\] seconds" "$W/log/run$k.log" | tee -a "$S"
    fi
done

# 4. stability
if [ -d "$W/run1" ] && [ -d "$W/run2" ]; then
    step compare 60 python3 measure/ref/compare_runs.py "$W/run1" "$W/run2"
    grep "STABILITY\|HEADLINE" "$W/log/compare.log" | tee -a "$S"
    sed -n '2,20p' "$W/log/compare.log" | grep -v HEADLINE | tee -a "$S"
fi

# 5. references
[ -x "$W/bw_ref" ] && step bw_ref 120 "$W/bw_ref" 1024 && grep "^BEST\|^device" "$W/log/bw_ref.log" | tee -a "$S"
step torch_ref 90 python3 measure/ref/torch_ref.py 1024
grep "^TORCH\|^torch" "$W/log/torch_ref.log" | tee -a "$S"
[ -x "$W/chase_ref" ] && step chase_ref 90 "$W/chase_ref" 512 && cat "$W/log/chase_ref.log" | tee -a "$S"
[ -x "$W/kernel_floor" ] && step kernel_floor 60 "$W/kernel_floor" 1000 && cat "$W/log/kernel_floor.log" | tee -a "$S"
step torch_floor 60 python3 measure/ref/torch_floor.py
grep "^TFLOOR\|^torch" "$W/log/torch_floor.log" | tee -a "$S"
if [ -f "$W/run1/bw.csv" ]; then
    echo "--- run1 bw.csv rows (level,width,blocks,threads,gbs,op,...)" | tee -a "$S"
    grep -v '^#' "$W/run1/bw.csv" | cut -d, -f1-4,9,11- | tee -a "$S"
fi
if [ -f "$W/run1/pchase_fine.csv" ]; then
    echo "--- run1 pchase_fine histogram: array MiB: 10-cycle bin:count (bins >= 0.5 %)" | tee -a "$S"
    awk -F, '!/^#/ && $1 != "sm" { n[$2]++; h[$2 "," int($6 / 10) * 10]++ }
        END { for (k in h) { split(k, a, ","); if (h[k] * 200 >= n[a[1]]) print a[1], a[2], h[k] } }' \
        "$W/run1/pchase_fine.csv" | sort -n -k1,1 -k2,2 | awk '
        { if ($1 != last) { printf "\narray %d MiB:", $1 / 1048576; last = $1 } printf " %d:%d", $2, $3 }
        END { print "" }' | tee -a "$S"
fi
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv 2>&1 | tee -a "$S"

# 6. pack
say "total $(( $(date +%s) - T0 )) s"
cp "$S" "$OUT/summary.txt"
(cd "$W" && tar czf "$OUT/final.tgz" run1 run2 log 2>/dev/null)
ls -la "$OUT"
exit 0
