#!/bin/sh
# run_last.sh - the session's last device call, on the GPU host (from the repository root), in
# order of importance, each part's results copied to $OUT as soon as it ends:
#   1. builds gpucal-measure (sm_90a, CUDA alone) in the background, while
#   2. clock_rows.py reads the SM clock inside the GPU while chosen train rows run (1 s each;
#      clock_rows_ids.txt) -> $OUT/row_sm_clock_{gemm,ops}.csv
#   3. the clock bench alone on the GPU -> $OUT/clock.csv (the trace), $OUT/clock_run.log
#   4. DIAG_MODE=sass diag.sh on diag_sass_rows2.txt -> $OUT/diag2.tar.gz
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(pwd)
OUT=${OUT:-/tmp/gpucal-last-out}
W=/tmp/gpucal-last
rm -rf "$W"; mkdir -p "$W" "$OUT"
t0=$(date +%s)
(cmake -S "$ROOT" -B "$W/bm" -DGPUCAL_CUDA=ON -DGPUCAL_CUDA_GENCODE="-gencode=arch=compute_90a,code=sm_90a" &&
 nice cmake --build "$W/bm" -j12 --target gpucal-measure) >"$W/build.log" 2>&1 &
BUILD=$!
nvcc -O2 -arch=sm_90 -shared -Xcompiler -fPIC -o "$W/libclock_probe.so" "$HERE/clock_probe.cu" &&
for set in gemm ops; do
  ids=$(grep -v '^#' "$HERE/clock_rows_ids.txt" | grep "^$set:" | cut -d: -f2)
  timeout 60 python3 "$HERE/clock_rows.py" --csv "$ROOT/model/validation/data/h200/$set.csv" \
    --lib "$W/libclock_probe.so" --out "$OUT/row_sm_clock_$set.csv" --classes all --seconds 1.0 \
    --ids "$ids" >"$OUT/clock_rows_$set.log" 2>&1
  echo "clock_rows $set: rc=$? rows $(($(wc -l <"$OUT/row_sm_clock_$set.csv") - 1)) at $(( $(date +%s) - t0 )) s"
done
wait $BUILD
echo "build: $(tail -1 "$W/build.log") at $(( $(date +%s) - t0 )) s"
if [ -x "$W/bm/gpucal-measure" ]; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv >"$OUT/smi_clock.txt" 2>&1
  timeout 100 "$W/bm/gpucal-measure" --bench clock --out "$W/h200" --force >"$OUT/clock_run.log" 2>&1
  echo "clock: rc=$? at $(( $(date +%s) - t0 )) s"
  cp "$W/h200/clock.csv" "$OUT/clock.csv"
  grep -E ',(settled|unsettled),|_load|sass_check' "$OUT/clock.csv"
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv >>"$OUT/smi_clock.txt" 2>&1
  cuobjdump -sass -arch sm_90a "$W/bm/gpucal-measure" 2>/dev/null |
    awk '/Function :/ { keep = ($3 ~ /k_clk_/) } keep' | gzip >"$OUT/clk_sass.txt.gz"
else
  tail -30 "$W/build.log"; cp "$W/build.log" "$OUT/"
fi
cp "$HERE/diag_sass_rows2.txt" "$W/rows2.txt"
OUT=$W/diag DIAG_MODE=sass DIAG_ROWS=$W/rows2.txt timeout 70 sh "$HERE/diag.sh" >"$W/diag.log" 2>&1
echo "diag: rc=$? at $(( $(date +%s) - t0 )) s"; tail -3 "$W/diag.log"
[ -f "$W/diag/diag.tar.gz" ] && cp "$W/diag/diag.tar.gz" "$OUT/diag2.tar.gz"
ls -la "$OUT"
