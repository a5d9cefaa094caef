#!/bin/sh
# device_smoke.sh - build gpucal-measure for sm_90a on the GPU host and run the
# clock bench; keep a cuobjdump dump as a SASS-parser fixture. For the device tool.
set -eu
OUT=${OUT:-/tmp/out}
cmake -S . -B /tmp/b -DGPUCAL_CUDA_GENCODE="-gencode=arch=compute_90a,code=sm_90a" >/dev/null
cmake --build /tmp/b -j16 2>&1 | tail -3
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
/tmp/b/gpucal-measure --bench clock --out "$OUT/tr"
cuobjdump -sass -arch sm_90a /tmp/b/gpucal-measure > "$OUT/clock.sass" 2>&1 || true
head -40 "$OUT/clock.sass"
cat "$OUT/tr/clock.csv"
