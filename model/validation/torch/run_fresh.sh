#!/bin/sh
# run_fresh.sh - on the GPU host (the device tool runs it from the repository root): times the
# sealed 'fresh' sets (shapes.py fresh_gemm_cases / fresh_op_cases: shapes in no other list)
# with the same harness and rule as the train/held-out sets (bench.py: CUPTI kernel time,
# inputs rotated out of the L2, launches excluded), so that the final report has a set no
# model choice ever saw. Writes $OUT/gemm_fresh.csv, $OUT/ops_fresh.csv, $OUT/log_fresh.txt.
#   sh model/validation/torch/run_fresh.sh      (GEMM_BUDGET_S, OPS_BUDGET_S: seconds per set)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/gpucal-fresh-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
{
  date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
  python3 -c 'import torch;print("torch",torch.__version__,"cuda",torch.version.cuda,"cudnn",torch.backends.cudnn.version())'
  t=$(date +%s)
  timeout $((${GEMM_BUDGET_S:-150} + 40)) python3 "$HERE/bench.py" --set fresh_gemm \
    --out "$OUT/gemm_fresh.csv" --budget-s "${GEMM_BUDGET_S:-150}" --target-s 0.5
  echo "fresh gemm done in $(( $(date +%s) - t )) s"; t=$(date +%s)
  timeout $((${OPS_BUDGET_S:-150} + 40)) python3 "$HERE/bench.py" --set fresh_ops \
    --out "$OUT/ops_fresh.csv" --budget-s "${OPS_BUDGET_S:-150}" --target-s 0.5
  echo "fresh ops done in $(( $(date +%s) - t )) s"
} 2>&1 | tee "$OUT/log_fresh.txt"
