#!/bin/sh
# run_h100.sh - build and time gpucal's validation kernels on the GPU host in
# one go (the device tool runs this from the repository root, with $OUT set).
#
#   sh model/validation/run_h100.sh ["GROUP ..."]   (default: every group)
#
# Writes under $OUT (default: ./h100-out):
#   times.csv      one row per kernel (20 warm-ups, then the median of 5..201
#                  launches each timed alone with CUDA events; the SM clock
#                  block 0 measured; the result check; cuBLAS: also batch_us)
#   env.txt        device, driver, clocks and power before and after the run
#   smi.csv        nvidia-smi samples (SM clock, power, temperature) every 200 ms
#   ptxas.txt      registers / shared memory of every kernel (-Xptxas -v)
#   sass.txt       the SASS of every kernel (instruction counts for model/kernels/)
#   loops.txt      every loop of that SASS and the loads it holds (sass_loops.awk):
#                  a kernel meant to load in its loop must show them there
#   log.txt        everything the program printed on stderr
# and prints times.csv last. Never changes the GPU's clocks or settings.
set -u
OUT=${OUT:-./h100-out}
mkdir -p "$OUT"
SRC=$(dirname "$0")/h100_kernels.cu
BIN=$OUT/h100_kernels.bin

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "command: sh model/validation/run_h100.sh ${1:-}"
    nvcc --version | tail -1
    nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,temperature.gpu --format=csv
} >"$OUT/env.txt" 2>&1

nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xptxas -v "$SRC" -lcublas -o "$BIN" \
    >"$OUT/ptxas.txt" 2>&1 || { cat "$OUT/ptxas.txt"; echo "build failed"; exit 1; }
cuobjdump -sass "$BIN" >"$OUT/sass.txt" 2>&1 || echo "cuobjdump failed" >>"$OUT/sass.txt"
awk -f "$(dirname "$0")/sass_loops.awk" "$OUT/sass.txt" >"$OUT/loops.txt" 2>&1

nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv -lms 200 >"$OUT/smi.csv" 2>&1 &
SMI=$!
# one process per group: a failure in one group cannot take the others with it
rc=0
: >"$OUT/log.txt"
for g in ${1:-empty mma_pipe mma_lat smem_v4 smem_conflict l2_read stream chase tail small_grid s003 pipe_gemm cublas}; do
    if [ -s "$OUT/times.csv" ]; then
        NO_HEADER=1 "$BIN" "$g" >>"$OUT/times.csv" 2>>"$OUT/log.txt"
    else
        "$BIN" "$g" >>"$OUT/times.csv" 2>>"$OUT/log.txt"
    fi
    st=$?
    [ $st -eq 0 ] || { echo "group $g: exit $st" >>"$OUT/log.txt"; rc=1; }
done
kill "$SMI" 2>/dev/null
wait "$SMI" 2>/dev/null
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv >>"$OUT/env.txt" 2>&1
rm -f "$BIN"
cat "$OUT/log.txt"
echo "loops of every kernel (sass_loops.awk; a kernel's loads must sit in its main loop):"
cat "$OUT/loops.txt"
column -s, -t <"$OUT/times.csv" 2>/dev/null || cat "$OUT/times.csv"
echo "exit $rc"
exit $rc
