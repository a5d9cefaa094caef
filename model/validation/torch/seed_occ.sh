#!/bin/sh
# seed_occ.sh - occupancy sweep of seed 002's kernels under ncu, on the lent
# GPU: does the shared/L1 data path of the barrier-synchronised loops (1.0,
# 1.1, 2.1; 3.0 for contrast) get busier with more blocks per SM (a queueing /
# latency-hiding effect the model should reproduce), or does it stay at the
# ~88 % the H200 run of 2026-11-26 showed at full occupancy (a throughput
# ceiling of the mixed traffic)? Blocks per SM are forced with unused dynamic
# shared memory (seed002_time occ K B).
#
#   OUT=dir sh model/validation/torch/seed_occ.sh
#
# Needs CUDA (nvcc, ncu) and seed 002's sources in .dev/seed002 (git-ignored,
# never committed; SEED002_DIR overrides). About 2 minutes on an H200.
# Writes $OUT/seed_occ.csv (one row per kernel launch ncu profiled: kernel,
# blocks asked, ncu's metrics below) and $OUT/seed_occ.log.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
SEED=${SEED002_DIR:-$ROOT/.dev/seed002}
OUT=${OUT:?set OUT to the output folder}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
[ -f "$SEED/kernel_1.cu" ] || { echo "seed_occ.sh: no seed 002 sources in $SEED" >&2; exit 2; }
cp "$SEED"/*.cu "$SEED"/*.cuh "$HERE/seed002_time.cu" "$W"/
(cd "$W" && nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o seed002_time seed002_time.cu \
   kernel_1.cu kernel_2.cu kernel_3.cu) >"$OUT/seed_occ.log" 2>&1 || { tail -5 "$OUT/seed_occ.log"; exit 1; }
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,gpc__cycles_elapsed.avg.per_second
M=$M,sm__warps_active.avg.per_cycle_active,launch__occupancy_limit_shared_mem
M=$M,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum
M=$M,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
echo "kernel,blocks_asked,metrics..." >"$OUT/seed_occ.csv"
for kb in "10 1" "10 2" "10 3" "10 4" "10 5" "10 6" "11 1" "11 2" "11 3" "11 4" "11 5" \
          "21 1" "21 2" "21 3" "21 4" "30 1" "30 2" "30 3" "30 4"; do
  # shellcheck disable=SC2086 # the pair splits into K B on purpose
  set -- $kb
  "$W/seed002_time" occ "$1" "$2" 1 >>"$OUT/seed_occ.log" 2>&1 || { echo "occ $1 $2: rc $?" >>"$OUT/seed_occ.log"; continue; }
  # one warm-up, then one profiled launch; ncu's own csv, prefixed with the point
  timeout 120 ncu --clock-control none --launch-skip 1 --launch-count 1 -k regex:mma_matmul \
      --metrics "$M" --csv "$W/seed002_time" occ "$1" "$2" 2 2>>"$OUT/seed_occ.log" |
    grep '^"' | sed "s/^/$1,$2,/" >>"$OUT/seed_occ.csv"
done
echo "rows: $(($(wc -l <"$OUT/seed_occ.csv") - 1))" | tee -a "$OUT/seed_occ.log"
