#!/bin/sh
# run_rows8.sh - on the GPU host (from the repository root): diag.sh on the rows of
# diag_rows8.txt with the L2 left as the calls before left it (NCU_CACHE=none, as the
# harness's warm rows run), in both modes: the sections (stall reasons, memory, issue) and
# DIAG_MODE=sass (every instruction's executed count and stall samples).
# Writes $OUT/diag8_sections.tar.gz, $OUT/diag8_sass.tar.gz and their logs.
set -u
H=model/validation
for mode in sections sass; do
  mkdir -p $OUT/d
  OUT=$OUT/d DIAG_MODE=$mode NCU_CACHE=none DIAG_ROWS=$H/torch/diag_rows8.txt \
    SEED002_DIR=/nonexistent timeout 250 sh $H/torch/diag.sh >$OUT/diag8_$mode.log 2>&1
  echo "diag $mode rc=$?"; tail -3 $OUT/diag8_$mode.log
  mv $OUT/d/diag.tar.gz $OUT/diag8_$mode.tar.gz; rm -rf $OUT/d
done
ls -la $OUT
