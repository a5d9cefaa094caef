#!/bin/sh
# device_check.sh - one device call: the launch bench, the kill-and-resume
# check (measure/resume_check.sh) and any extra commands in $EXTRA. Writes
# under $OUT. For the device tool (run from the repository root).
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
cmake -S . -B /tmp/b -DGPUCAL_CUDA_GENCODE="-gencode=arch=compute_90a,code=sm_90a" >/dev/null
cmake --build /tmp/b -j16 --target gpucal-measure 2>&1 | tail -1
B=/tmp/b/gpucal-measure
echo "== launch bench" >&2
"$B" --bench launch --out "$OUT/h100" 2>&1 | tail -3
echo "== kill and resume" >&2
sh measure/resume_check.sh "$B" "${RESUME_BENCHES:-alu,ldmatrix,smem,pchase}" "${KILL_BENCH:-smem}" "${KILL_ROWS:-700}" /tmp/rc \
    >"$OUT/resume.txt" 2>&1
echo "resume check exit $?" >>"$OUT/resume.txt"
cat "$OUT/resume.txt"
