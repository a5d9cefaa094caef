#!/bin/sh
# device_coissue.sh - the coissue bench of gpucal-measure on the GPU host, twice (the
# committed trace and a second run for the spread between runs), with the SASS of its
# ldmatrix kernels; then probe/mma_ldsm.cu, the probe that found the old bench's
# dependent ldmatrix chain hid the overlap (model/validation/probe/).
#   sh measure/device_coissue.sh
# Writes into $OUT: coissue.csv, coissue_run2.csv, coissue.sass, coissue.log, mma_ldsm.csv.
set -eu
OUT=${OUT:-/tmp/out}
B=/tmp/gccoissue
mkdir -p "$B" "$OUT"
. measure/device_build.sh
cuobjdump -sass -arch sm_90a "$B/gpucal-measure" |
    awk '/Function : / { k = /co_ldsm/ } k' > "$OUT/coissue.sass" 2>&1 || true
: > "$OUT/coissue.log"
for run in 1 2; do
    rm -rf "$B/tr"
    timeout -s KILL 250 "$B/gpucal-measure" --bench coissue --out "$B/tr" >> "$OUT/coissue.log" 2>&1
    [ "$run" = 1 ] && cp "$B/tr/coissue.csv" "$OUT/coissue.csv" || cp "$B/tr/coissue.csv" "$OUT/coissue_run2.csv"
done
P=model/validation/probe
nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o "$B/mma_ldsm" $P/mma_ldsm.cu && "$B/mma_ldsm" > "$OUT/mma_ldsm.csv"
grep -v '^#' "$OUT/coissue.csv" | grep ldsm
