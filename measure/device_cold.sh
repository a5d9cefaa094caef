#!/bin/sh
# device_cold.sh - the cold bench of gpucal-measure on the GPU host.
#   sh measure/device_cold.sh
# Builds gpucal-measure for sm_90a (CMake, CUDA on, the measure target only), runs
# `--bench cold` twice in full (the committed trace, and a second run for the
# spread between runs) and once --quick, keeps the binary's SASS of the cold
# kernels, and writes into $OUT: cold.csv, cold_run2.csv, cold_quick.csv,
# cold.sass, cold.log.
set -eu
OUT=${OUT:-/tmp/out}
B=/tmp/gccold
mkdir -p "$B" "$OUT"
. measure/device_build.sh
cuobjdump -sass -arch sm_90a "$B/gpucal-measure" |
    awk '/Function : / { k = /cold/ } k' > "$OUT/cold.sass" 2>&1 || true
: > "$OUT/cold.log"
for run in 1 2 quick; do
    rm -rf "$B/tr"
    F=
    [ "$run" = quick ] && F=--quick
    timeout -s KILL 200 "$B/gpucal-measure" --bench cold $F --out "$B/tr" >> "$OUT/cold.log" 2>&1
    case $run in
    1) cp "$B/tr/cold.csv" "$OUT/cold.csv" ;;
    2) cp "$B/tr/cold.csv" "$OUT/cold_run2.csv" ;;
    quick) cp "$B/tr/cold.csv" "$OUT/cold_quick.csv" ;;
    esac
done
grep -h '^# \(sass_check\|method\)' "$OUT/cold.csv"
grep -v '^#' "$OUT/cold.csv"
