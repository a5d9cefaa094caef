#!/bin/sh
# run_inrow.sh - on the GPU host (the device tool runs it from the repository root): each
# GEMM row of data/h200/gemm.csv and each attention and conv2d row of data/h200/ops.csv run
# again as bench.py ran them, with clock_inrow.py's ticks between the calls: the SM clock
# the GPU held under each row's load and the period of its calls. Writes $OUT/inrow.tar.gz
# (gemm_inrow.csv, ops_inrow.csv, log.txt). Never changes clocks.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
D=$HERE/../data/h200
OUT=${OUT:-/tmp/gpucal-inrow-out}
W=/tmp/gpucal-inrow
rm -rf "$W"; mkdir -p "$W" "$OUT"
export PYTHONUNBUFFERED=1
{
  date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
  python3 -c 'import torch;print("torch",torch.__version__,"cuda",torch.version.cuda)'
  nvcc -O2 -arch=sm_90 -shared -Xcompiler -fPIC -o "$W/libclock_tick.so" "$HERE/clock_tick.cu" &&
  timeout 360 python3 "$HERE/clock_inrow.py" --csv "$D/gemm.csv" --lib "$W/libclock_tick.so" \
    --out "$W/gemm_inrow.csv" --budget-s ${GEMM_BUDGET_S:-330}
  timeout 200 python3 "$HERE/clock_inrow.py" --csv "$D/ops.csv" --lib "$W/libclock_tick.so" \
    --out "$W/ops_inrow.csv" --classes attention,conv2d --budget-s ${OPS_BUDGET_S:-170}
  date -u
} 2>&1 | tee "$W/log.txt"
tar -C "$W" -czf "$OUT/inrow.tar.gz" gemm_inrow.csv ops_inrow.csv log.txt 2>/dev/null ||
  tar -C "$W" -czf "$OUT/inrow.tar.gz" log.txt
