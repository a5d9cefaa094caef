#!/bin/sh
# run_rows7.sh - on the GPU host (from the repository root): probe/wide_chase.cu (a warp's
# load of 1..8 lines as a dependent chain, beyond and within the L2), then diag.sh on the
# rows of diag_rows7.txt twice: the sections (stall reasons, memory) and DIAG_MODE=sass.
# Writes $OUT/wide_chase.csv, $OUT/diag7_sections.tar.gz, $OUT/diag7_sass.tar.gz, logs.
set -u
H=model/validation
nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o /tmp/wide_chase $H/probe/wide_chase.cu
/tmp/wide_chase $((2 << 30)) >$OUT/wide_chase.csv 2>$OUT/wide_chase.err
/tmp/wide_chase $((256 << 20)) | tail -n +2 >>$OUT/wide_chase.csv 2>>$OUT/wide_chase.err
/tmp/wide_chase $((16 << 20)) | tail -n +2 >>$OUT/wide_chase.csv 2>>$OUT/wide_chase.err
wc -l $OUT/wide_chase.csv
[ -n "${CHASE_ONLY:-}" ] && exit 0
for mode in sections sass; do
  mkdir -p $OUT/d
  OUT=$OUT/d DIAG_MODE=$mode DIAG_ROWS=$H/torch/diag_rows7.txt SEED002_DIR=/nonexistent \
    timeout 240 sh $H/torch/diag.sh >$OUT/diag7_$mode.log 2>&1
  echo "diag $mode rc=$?"; tail -3 $OUT/diag7_$mode.log
  mv $OUT/d/diag.tar.gz $OUT/diag7_$mode.tar.gz; rm -rf $OUT/d
done
ls -la $OUT
