#!/bin/sh
# Builds and runs the torch validation harness on the GPU host in one call.
#   sh model/validation/torch/run_device.sh            (from the repository root)
# Environment:
#   OUT            folder the results go to (the device tool sets it)
#   SEED002_DIR    seed 002's sources (kernel_*.cu, mma_kernels.cuh); default
#                  .dev/seed002 (git-ignored; never committed)
#   MEASURE=1      also build gpucal-measure and run the whole suite into
#                  traces_h200.tar.gz (issue 14; H200 call only)
#   GEMM_BUDGET_S, OPS_BUDGET_S   seconds each set aims at (reps shrink after)
# Writes into $OUT: gemm.csv ops.csv smi.csv ncu.csv seed002.csv log.txt
# extra.tar.gz [traces_h200.tar.gz].  Never changes clocks (ncu runs with
# --clock-control none).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(pwd)
OUT=${OUT:-/tmp/gpucal-val-out}
SEED=${SEED002_DIR:-$ROOT/.dev/seed002}
W=/tmp/gpucal-val
MEASURE=${MEASURE:-0}
GB=${GEMM_BUDGET_S:-140}
OB=${OPS_BUDGET_S:-120}
export PYTHONUNBUFFERED=1
rm -rf "$W"; mkdir -p "$W" "$OUT"
NCU_M="gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum"

env_info() {
  date -u; date +'local %Z %z'; uname -a
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit,persistence_mode --format=csv
  python3 -c 'import torch;p=torch.cuda.get_device_properties(0);print("torch",torch.__version__,"cuda",torch.version.cuda,"cudnn",torch.backends.cudnn.version(),"cublas-lt via torch; device",p.name,"sms",p.multi_processor_count,"l2",p.L2_cache_size)'
  nvcc --version | tail -2; ncu --version | tail -1
}

build_seed() {
  [ -f "$SEED/kernel_3.cu" ] || { echo "no seed002 sources in $SEED"; return 1; }
  cp "$SEED"/*.cu "$SEED"/*.cuh "$W"/ && cp "$HERE/seed002_time.cu" "$W"/ &&
  (cd "$W" && nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -Xptxas -v \
     -o seed002_time seed002_time.cu kernel_1.cu kernel_2.cu kernel_3.cu) \
     > "$W/seed002_build.log" 2>&1
}

build_measure() {
  (cmake -S "$ROOT" -B "$W/build-m" -DGPUCAL_WERROR=OFF &&
   nice cmake --build "$W/build-m" -j12 --target gpucal-measure) > "$W/measure_build.log" 2>&1
}

run_ncu_ops() {
  python3 -c "import sys;sys.path.insert(0,'$HERE');import shapes;print('\n'.join(shapes.ncu_subset()))" > "$W/ncu_args.txt"
  timeout 100 ncu --clock-control none --profile-from-start off --metrics "$NCU_M" \
    -f -o "$W/ops_ncu" python3 "$HERE/bench.py" --ncu "$W/ncu_args.txt" > "$W/ncu_run.log" 2>&1
  echo "ncu ops rc=$? ($(grep -c '==PROF==' "$W/ncu_run.log") PROF lines)"; tail -3 "$W/ncu_run.log"
  ncu -i "$W/ops_ncu.ncu-rep" --csv --page raw --print-units base > "$W/ncu_ops_raw.csv" 2>&1
  python3 "$HERE/ncu_post.py" ops "$W/ncu_ops_raw.csv" "$W/ncu_args.txt" "$OUT/gemm.csv" "$OUT/ops.csv" "$OUT/ncu.csv"
  echo "ncu.csv rows: $(($(wc -l < "$OUT/ncu.csv") - 1))"
}

run_seed() {
  wait_for "$W/seed.done"
  [ -x "$W/seed002_time" ] || { echo "seed002 build failed:"; tail -20 "$W/seed002_build.log"; return; }
  grep -E "Function properties|registers|smem" "$W/seed002_build.log" | head -40
  (cd "$W" && timeout 60 ./seed002_time time seed002_events.csv)
  timeout 60 ncu --clock-control none -k regex:mma_matmul --metrics "$NCU_M" -f -o "$W/seed_ncu" "$W/seed002_time" ncu > "$W/seed_ncu.log" 2>&1
  echo "ncu seed rc=$?"
  ncu -i "$W/seed_ncu.ncu-rep" --csv --page raw --print-units base > "$W/ncu_seed_raw.csv" 2>&1
  python3 "$HERE/ncu_post.py" seed "$W/ncu_seed_raw.csv" "$W/seed002_events.csv" "$OUT/seed002.csv"
  cat "$OUT/seed002.csv"
}

wait_for() {  # wait up to 240 s for a flag file
  i=0; while [ ! -f "$1" ] && [ $i -lt 240 ]; do sleep 1; i=$((i + 1)); done
}

run_measure() {
  wait_for "$W/measure.done"
  tail -3 "$W/measure_build.log"
  [ -x "$W/build-m/measure/gpucal-measure" ] || { echo "gpucal-measure not built"; tail -30 "$W/measure_build.log"; return; }
  "$W/build-m/measure/gpucal-measure" --help | head -5
  mkdir -p "$W/th"
  t=$(date +%s)
  timeout 200 "$W/build-m/measure/gpucal-measure" --out "$W/th/traces_h200" > "$W/measure_run.log" 2>&1
  echo "gpucal-measure rc=$? in $(( $(date +%s) - t )) s"; tail -5 "$W/measure_run.log"
  cp "$W/measure_run.log" "$W/th/traces_h200/" 2>/dev/null
  tar -C "$W/th" -czf "$OUT/traces_h200.tar.gz" traces_h200
}

main() {
  env_info
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > "$OUT/smi.csv" 2>&1 &
  SMI=$!
  (build_seed; touch "$W/seed.done") &
  if [ "$MEASURE" = 1 ]; then (build_measure; touch "$W/measure.done") & fi
  t=$(date +%s)
  timeout $((GB + 40)) python3 "$HERE/bench.py" --set gemm --out "$OUT/gemm.csv" --times "$W/row_times.csv" --budget-s "$GB"
  echo "gemm done in $(( $(date +%s) - t )) s"; t=$(date +%s)
  timeout $((OB + 40)) python3 "$HERE/bench.py" --set ops --out "$OUT/ops.csv" --times "$W/row_times.csv" --budget-s "$OB"
  echo "ops done in $(( $(date +%s) - t )) s"; t=$(date +%s)
  run_ncu_ops; echo "ncu ops done in $(( $(date +%s) - t )) s"; t=$(date +%s)
  run_seed; echo "seed done in $(( $(date +%s) - t )) s"; t=$(date +%s)
  if [ "$MEASURE" = 1 ]; then run_measure; echo "measure done in $(( $(date +%s) - t )) s"; fi
  kill $SMI 2>/dev/null
  python3 "$HERE/rowclock.py" "$OUT/smi.csv" "$W/row_times.csv" "$W/row_clock.csv" &&
    echo "row_clock: $(awk -F, 'NR>1 && $4>0' "$W/row_clock.csv" | wc -l) rows with smi samples"
  grep -c FAIL "$OUT/log.txt"
  (cd "$W" && tar -czf "$OUT/extra.tar.gz" --exclude=build-m --exclude=th --exclude='*.cu' --exclude='*.cuh' \
     --exclude=seed002_time --exclude='*.ncu-rep' --exclude=trace.json . )
  ls -la "$OUT"
}

main 2>&1 | tee "$OUT/log.txt"
