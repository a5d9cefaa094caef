#!/bin/sh
# measure_nogpu.sh - `gpucal measure` on a host without a GPU says so in one
# line and exits 1 (an environment without a GPU is not bad input), and
# leaves no output folder behind. Skipped (77) where the measurement binary
# is not built (no nvcc) or where an NVIDIA driver is loaded (a GPU host).
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
if [ -e /proc/driver/nvidia/version ]; then
    echo "skipped: an NVIDIA driver is loaded here (a GPU host)"
    exit 77
fi
$G measure --help 2>&1 | grep -q 'built without CUDA' && { echo "skipped: gpucal-measure not built (no nvcc)"; exit 77; }
run $G measure -o "$T/tr" --bench clock
expect_rc 1 "measure without a GPU"
expect_err '^gpucal measure: no CUDA GPU on this host' "measure without a GPU"
expect_err_lines 1 "measure without a GPU"
[ -e "$T/tr" ] && fail "measure without a GPU left $T/tr behind"
finish
