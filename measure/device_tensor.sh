#!/bin/sh
# device_tensor.sh - for the device tool (GPU host): the tensor, CUDA-core
# and shared-memory benches (mma mma_sp wgmma alu ldmatrix smem).
#   sh measure/device_tensor.sh quick   a --quick pass
#   sh measure/device_tensor.sh first   a --quick pass, then the full suite
#   sh measure/device_tensor.sh twice   the full suite twice (repeatability)
# Builds gpucal-measure for sm_90a unless GC_BIN names a prebuilt binary (a
# build made here from the same sources, carried along), records the SASS of
# the bench kernels (cuobjdump of the gc_k_* functions: Function lines and
# instruction lines with address, predicate and opcode; operands and
# encodings dropped to keep the fixture small) as the test fixture
# tests/fixtures/sass/h100_tensor.sass, and leaves everything in
# $OUT/tensor.tgz.
# GC_TIMEOUT (seconds) bounds each suite run.
set -u
OUT=${OUT:-/tmp/out}
MODE=${1:-quick}
BENCHES=mma,mma_sp,wgmma,alu,ldmatrix,smem
BIN=${GC_BIN:-}
mkdir -p "$OUT/t"
if [ -z "$BIN" ]; then
    cmake -S . -B /tmp/gcb -DGPUCAL_CUDA_GENCODE="-gencode=arch=compute_90a,code=sm_90a" \
        >/tmp/gcb.log 2>&1
    if ! cmake --build /tmp/gcb -j16 --target gpucal-measure >"$OUT/t/build.log" 2>&1; then
        tail -40 "$OUT/t/build.log"
        exit 1
    fi
    BIN=/tmp/gcb/gpucal-measure
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu \
    --format=csv | tee "$OUT/t/nvidia-smi.txt"
cuobjdump -sass -arch sm_90a "$BIN" |
    awk '/Function :/ { keep = ($3 ~ /^gc_k_/) } keep' |
    grep -E 'Function :|^[[:space:]]+/\*[0-9a-f]+\*/' |
    sed -E 's@[[:space:]]+/\* 0x[0-9a-f]+ \*/[[:space:]]*$@@; s/[[:space:]]+/ /g' |
    sed -E 's#^( /\*[0-9a-f]+\*/ (@!?U?P[A-Z0-9]+ )?[A-Za-z0-9_.]+).*#\1 ;#' \
        >"$OUT/t/h100_tensor.sass"
echo "sass: $(grep -c 'Function :' "$OUT/t/h100_tensor.sass") functions"

suite() { # $1: folder, $2...: extra flags
    d=$1
    shift
    start=$(date +%s)
    timeout "${GC_TIMEOUT:-1200}" "$BIN" --bench $BENCHES --out "$OUT/t/$d" --force "$@" \
        >"$OUT/t/$d.log" 2>"$OUT/t/$d.err"
    rc=$?
    echo "== $d: exit $rc in $(($(date +%s) - start)) s"
    tail -12 "$OUT/t/$d.log"
    grep -E 'warning|FAILED|error' "$OUT/t/$d.err" | head -20
}
case "$MODE" in
quick) suite quick --quick ;;
first)
    suite quick --quick
    suite full
    ;;
twice)
    suite run1
    suite run2
    ;;
esac
tar czf "$OUT/tensor.tgz" -C "$OUT/t" .
# the headline figures of the last suite run
last=$(ls -td "$OUT"/t/*/ 2>/dev/null | head -1)
if [ -n "$last" ] && [ -f "$last/mma.csv" ]; then
    echo "== headline ($last)"
    awk -F, '$1=="mma" && $2=="m16n8k16" && $3=="f16" && $4=="f32" && $6=="rand" && $7=="sm" && $9==1 && $10==1 {print "mma m16n8k16 f16->f32 latency", $13, "cyc"}' "$last/mma.csv"
    awk -F, '$1=="mma" && $2=="m16n8k16" && $3=="f16" && $4=="f32" && $6=="rand" && $7=="sm" && $16>b {b=$16; w=$9; i=$10} END {print "mma m16n8k16 f16->f32 peak", b, "FMA/clk/SM at warps", w, "ilp", i}' "$last/mma.csv"
    [ -f "$last/wgmma.csv" ] && awk -F, '$2=="m64n256k16" && $3=="f16" && $16>b[$4","$5","$6","$7] {b[$4","$5","$6","$7]=$16} END {for (k in b) print "wgmma m64n256k16 f16", k, b[k], "FMA/clk/SM"}' "$last/wgmma.csv"
fi
