#!/bin/sh
# run_ops3.sh - on the GPU host (the device tool runs it from the repository root): times the
# third operator set (shapes.ops3_cases, ids p001..) through PyTorch as bench.py times every
# set, then profiles some of its train rows under ncu with diag.sh's sections, so that the
# templates' rules for the classes it adds are chosen from what the kernels do.
#   sh model/validation/torch/run_ops3.sh     (OUT: the folder results go to)
# Writes $OUT/ops3.csv, ops3_times.txt, log.txt and diag3.tar.gz (ops_raw.csv, args.txt,
# ids.txt, diag_summary.csv). Never changes clocks (ncu --clock-control none).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/gpucal-ops3-out}
W=/tmp/gpucal-ops3
rm -rf "$W"; mkdir -p "$W" "$OUT"
export PYTHONUNBUFFERED=1
t0=$(date +%s)
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
  python3 -c 'import torch;print("torch",torch.__version__,"cudnn",torch.backends.cudnn.version())'
  timeout 330 python3 "$HERE/bench.py" --set ops3 --out "$OUT/ops3.csv" --times "$OUT/ops3_times.txt" \
    --budget-s 240
  echo "bench rc=$? at $(( $(date +%s) - t0 )) s"
  # the train rows to profile (never a held-out one)
  python3 - "$HERE" "$W" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import shapes
want = {"p002", "p005", "p006", "p007", "p009", "p010", "p016", "p020", "p022", "p025",
        "p028", "p032"}
ids, args = [], []
for rid, split, cls, a in shapes.with_ids("p", shapes.ops3_cases()):
    if rid in want and split == "train":
        ids.append(rid); args.append(a)
open(sys.argv[2] + "/ids.txt", "w").write("\n".join(ids) + "\n")
open(sys.argv[2] + "/args.txt", "w").write("\n".join(args) + "\n")
PY
  SECTIONS="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats
 --section InstructionStats --section SchedulerStats --section ComputeWorkloadAnalysis
 --section MemoryWorkloadAnalysis"
  # shellcheck disable=SC2086
  timeout 200 ncu --clock-control none --profile-from-start off $SECTIONS -f -o "$W/ops" \
    python3 "$HERE/bench.py" --ncu "$W/args.txt" --ncu-calls 1 >"$W/ncu_ops.log" 2>&1
  echo "ncu rc=$? at $(( $(date +%s) - t0 )) s; $(grep -c '==PROF==' "$W/ncu_ops.log") PROF lines"
  ncu -i "$W/ops.ncu-rep" --csv --page raw --print-units base >"$W/ops_raw.csv" 2>"$W/export.err"
  python3 "$HERE/diag_post.py" "$W/ops_raw.csv" "$W/ids.txt" "$W/args.txt" "$W/diag_summary.csv"
  echo "post rc=$? at $(( $(date +%s) - t0 )) s"
} >"$OUT/log.txt" 2>&1
(cd "$W" && tar -czf "$OUT/diag3.tar.gz" --exclude='*.ncu-rep' .)
cat "$OUT/log.txt" | tail -20
ls -la "$OUT"
