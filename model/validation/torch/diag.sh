#!/bin/sh
# diag.sh - on the GPU host (the device tool runs it from the repository root): profiles the
# train rows listed in diag_rows.txt under ncu in depth, and seed 002's six kernels, so that
# model changes can be chosen from what the kernels do (instruction mix, stall reasons,
# occupancy, memory traffic, clocks), not from their times alone.
#   sh model/validation/torch/diag.sh        (OUT: the folder results go to)
#   DIAG_MODE=l2 sh model/validation/torch/diag.sh
#        the rows of diag_l2_rows.txt: L2 bytes by kind, clusters, cycles, clock, and the L2
#        request coalescer's (LRC) sectors: read from the L2 slices, delivered to the GPCs,
#        coalesced by the hardware or by a multicast (metrics only)
#   DIAG_MODE=sass sh model/validation/torch/diag.sh
#        the rows of diag_sass_rows.txt instead, with ncu's SourceCounters: every SASS
#        instruction of each kernel with its executed count and stall samples, exported as
#        sass.csv (ncu --page source --print-source sass), plus the report itself (ops.ncu-rep.gz);
#        DIAG_ROWS=FILE names another list of rows; DIAG_ARGS=FILE adds diagnostic shapes (lines
#        "ID ARGS", e.g. "d001 softmax --rows 256 --cols 2048 --dtype f16"), refused when they
#        are the args of a held-out or fresh row: for a kernel's code, never its time
#   DIAG_DRY=1 lists the rows (id and args) it would profile and stops; DIAG_WORK=DIR its
#        scratch folder (default /tmp/gpucal-diag)
# Writes $OUT/diag.tar.gz: ops_raw.csv / seed_raw.csv (ncu --page raw, every metric of the
# sections, instance values), args.txt (the rows in profiling order), ids.txt, log.txt.
# NCU_CACHE=none leaves the L2 as the calls before left it (ncu's --cache-control none), as the
# harness's warm rows run; by default ncu flushes it before each profiled kernel.
# Never changes clocks (--clock-control none). Reads the rows' args from
# model/validation/data/h200/{gemm,ops,ops3,rows2}.csv; refuses a held-out id. DIAG_ROWS=FILE
# names the list of rows in every mode.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(pwd)
OUT=${OUT:-/tmp/gpucal-diag-out}
SEED=${SEED002_DIR:-$ROOT/.dev/seed002}
W=${DIAG_WORK:-/tmp/gpucal-diag}
rm -rf "$W"; mkdir -p "$W" "$OUT"
export PYTHONUNBUFFERED=1
SECTIONS="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats
 --section InstructionStats --section SchedulerStats --section ComputeWorkloadAnalysis
 --section MemoryWorkloadAnalysis"
DATA=$ROOT/model/validation/data/h200

args_of() {  # args_of ID: the args column of a train row, or nothing
  python3 - "$1" "$DATA/gemm.csv" "$DATA/ops.csv" "$DATA/ops3.csv" "$DATA/rows2.csv" <<'PY'
import csv, sys
rid = sys.argv[1]
for path in sys.argv[2:]:
    for row in csv.DictReader(open(path)):
        if row["id"] == rid:
            if row["split"] != "train":
                sys.exit("diag: %s is a held-out row: not profiled" % rid)
            print(row["args"]); sys.exit(0)
sys.exit("diag: no row %s" % rid)
PY
}

export_raw() {  # export_raw REPORT NAME: every metric, instance values where ncu can
  ncu -i "$1.ncu-rep" --csv --page raw --print-units base --print-metric-instances details \
    >"$W/$2" 2>>"$W/export.err" ||
  ncu -i "$1.ncu-rep" --csv --page raw --print-units base --print-metric-instances values \
    >"$W/$2" 2>>"$W/export.err" ||
    ncu -i "$1.ncu-rep" --csv --page raw --print-units base >"$W/$2" 2>>"$W/export.err"
  ncu -i "$1.ncu-rep" --page details --print-units base >"$W/${2%_raw.csv}_details.txt" 2>>"$W/export.err"
}

: >"$W/args.txt"; : >"$W/ids.txt"
MODE=${DIAG_MODE:-sections}
ROWS=${DIAG_ROWS:-$HERE/diag_rows.txt}
if [ "$MODE" = sass ]; then
  ROWS=${DIAG_ROWS:-$HERE/diag_sass_rows.txt}
  SECTIONS="--section LaunchStats --section InstructionStats --section SourceCounters --section WarpStateStats"
elif [ "$MODE" = l2 ]; then
  # where the L2 bytes go (reads, writes, to the SMs), clusters, cycles and clock; the L2
  # left warm between replays as between the harness's calls (--cache-control none); only
  # the metrics this ncu knows (an unknown name would stop the whole run)
  ROWS=${DIAG_ROWS:-$HERE/diag_l2_rows.txt}
  ncu --query-metrics --chip gh100 >"$W/metrics.txt" 2>&1
  want="gpu__time_duration.sum sm__cycles_elapsed.max sm__cycles_elapsed.avg.per_second
 lts__t_bytes.sum lts__t_sectors_op_read.sum lts__t_sectors_op_write.sum lts__t_sectors_op_red.sum
 lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
 l1tex__m_xbar2l1tex_read_bytes.sum dram__bytes_read.sum dram__bytes_write.sum
 sm__inst_executed_pipe_tensor_op_gmma.sum sm__ctas_launched.sum launch__cluster_dim_x
 launch__cluster_dim_y launch__cluster_dim_z launch__grid_size launch__block_size
 lrc__lts2lrc_sectors_op_read.sum lrc__xbar2gpc_sectors_op_read.sum lrc__lrc2xbar_sectors_op_read.sum
 lrc__xbar2gpc_sectors_op_read_coalescing_achieved_type_hardware.sum
 lrc__xbar2gpc_sectors_op_read_coalescing_achieved_type_programmatic.sum
 lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
 lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum lrc__xbar2lrc_requests_op_read.sum"
  have=""
  for m in $want; do
    grep -q "^${m%%.*}[ .]" "$W/metrics.txt" && have="$have,$m"
  done
  echo "l2 metrics: ${have#,}"
  SECTIONS="--section LaunchStats --cache-control none --metrics ${have#,}"
fi
for id in $(grep -v '^#' "$ROWS"); do
  a=$(args_of "$id") || continue
  echo "$a" >>"$W/args.txt"; echo "$id" >>"$W/ids.txt"
done
if [ -n "${DIAG_ARGS:-}" ]; then  # diagnostic shapes: ID ARGS lines, not rows of any set
  python3 - "$HERE" "$DIAG_ARGS" "$DATA/.." >>"$W/pairs.txt" <<'PY' || exit 2
import sys
sys.path.insert(0, sys.argv[1])
import shapes
for rid, args in shapes.diag_cases(sys.argv[2], sys.argv[3], "profiled"):
    print(rid, args)
PY
  while read -r id a; do
    echo "$a" >>"$W/args.txt"; echo "$id" >>"$W/ids.txt"
  done <"$W/pairs.txt"
fi
echo "rows: $(wc -l <"$W/args.txt")"
if [ -n "${DIAG_DRY:-}" ]; then  # the rows it would profile, and nothing else
  paste -d' ' "$W/ids.txt" "$W/args.txt"
  exit 0
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv
t=$(date +%s)
# shellcheck disable=SC2086
CACHE=""
[ "${NCU_CACHE:-}" = none ] && CACHE="--cache-control none"
# shellcheck disable=SC2086
timeout 330 ncu --clock-control none $CACHE --profile-from-start off $SECTIONS -f -o "$W/ops" \
  python3 "$HERE/bench.py" --ncu "$W/args.txt" --ncu-calls 1 >"$W/ncu_ops.log" 2>&1
echo "ncu ops rc=$? in $(( $(date +%s) - t )) s; $(grep -c '==PROF==' "$W/ncu_ops.log") PROF lines"
grep -E "NCU-FAIL|==ERROR==" "$W/ncu_ops.log" | head -5
export_raw "$W/ops" ops_raw.csv
if [ "$MODE" = sass ]; then
  ncu -i "$W/ops.ncu-rep" --page source --csv --print-source sass >"$W/sass.csv" 2>>"$W/export.err"
  echo "sass.csv: $(wc -l <"$W/sass.csv") lines"
  gzip -c "$W/ops.ncu-rep" >"$OUT/ops.ncu-rep.gz"
fi
echo "ops_raw.csv: $(wc -l <"$W/ops_raw.csv") lines"
if [ -f "$SEED/kernel_3.cu" ]; then
  cp "$SEED"/*.cu "$SEED"/*.cuh "$HERE/seed002_time.cu" "$W"/
  (cd "$W" && nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o seed002_time seed002_time.cu \
     kernel_1.cu kernel_2.cu kernel_3.cu) >"$W/seed_build.log" 2>&1 || tail -5 "$W/seed_build.log"
  t=$(date +%s)
  # shellcheck disable=SC2086
  timeout 120 ncu --clock-control none -k regex:mma_matmul $SECTIONS -f -o "$W/seed" \
    "$W/seed002_time" ncu $([ "$MODE" = sass ] && echo 1) >"$W/ncu_seed.log" 2>&1
  echo "ncu seed rc=$? in $(( $(date +%s) - t )) s"
  export_raw "$W/seed" seed_raw.csv
  if [ "$MODE" = sass ]; then
    ncu -i "$W/seed.ncu-rep" --page source --csv --print-source sass >"$W/seed_sass.csv" 2>>"$W/export.err"
  fi
  echo "seed_raw.csv: $(wc -l <"$W/seed_raw.csv") lines"
else
  echo "no seed 002 sources in $SEED: seed kernels not profiled"
fi
(cd "$W" && tar -czf "$OUT/diag.tar.gz" --exclude='*.ncu-rep' --exclude='*.cu' --exclude='*.cuh' \
   --exclude=seed002_time .)
ls -la "$OUT"
