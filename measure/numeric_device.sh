#!/bin/sh
# numeric_device.sh - the `numeric` bench on the GPU host (for the device
# tool): build gpucal-measure for sm_90a from the harness and the numeric
# bench only (other benches in the tree are not needed for it), run it with
# the fixture dump on, and pack the trace, the dump and the SASS of the
# numeric kernels into $OUT. Packs whatever exists even when a step fails.
OUT=${OUT:-/tmp/out}
B=/tmp/gcnum
rm -rf "$B"
mkdir -p "$B/o" "$OUT"
CFLAGS="-std=c11 -O2 -Wall -Wextra -I."
for c in measure/stats.c measure/sass.c measure/numeric_gen.c measure/numeric_probe.c \
         measure/numeric_prof.c traces/trace.c util/err.c util/fsio.c util/arena.c util/numfmt.c; do
    gcc $CFLAGS -c "$c" -o "$B/o/$(echo "$c" | tr / _).o" || echo "BUILD FAILED: $c"
done
nvcc -O2 -std=c++17 -I. -gencode=arch=compute_90a,code=sm_90a -lineinfo \
    -DGPUCAL_VERSION='"0.1.0"' -Xcompiler=-Wall,-Wno-format-truncation \
    measure/main.cu measure/harness.cu measure/bench_numeric.cu \
    "$B"/o/*.o -o "$B/gpucal-measure" || echo "BUILD FAILED: gpucal-measure"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
GPUCAL_NUMERIC_DUMP="$B/fx" "$B/gpucal-measure" --bench numeric --out "$B/tr" "$@" \
    > "$B/run.log" 2>&1
echo "gpucal-measure exit $?"
tail -5 "$B/run.log"
cuobjdump -sass -arch sm_90a "$B/gpucal-measure" > "$B/all.sass" 2>&1
awk '/Function : /{keep = ($0 ~ /k_num_/)} keep' "$B/all.sass" > "$B/numeric.sass"
grep -E 'Function|MMA|GMMA' "$B/numeric.sass" | awk '{print $2, $3}' | sort | uniq -c | sort -rn | head -30
T=$B/tr/numeric.csv
[ -f "$T" ] || T=$B/tr/numeric.csv.part
cp "$T" "$OUT/" 2>/dev/null
cp "$B/run.log" "$OUT/"
tar czf "$OUT/numeric.tgz" -C "$B" tr fx numeric.sass run.log 2>/dev/null
grep -E '^(layout|probe)' "$T" | head -60
grep -E '^(mul|add|dot|acc),mma,m16n8k8' "$T"
grep -E '^chain,mma,m16n8k8' "$T" | awk -F, '$9<=2 || $9%4==0 || $10<1000' | head -60
du -sh "$B/fx"
