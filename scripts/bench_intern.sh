#!/bin/sh
# bench_intern.sh GPUCAL [N] - figures, not a test (issue 18, class 7): the
# time of `gpucal calib --check` on an alu trace of N rows (default 120000)
# whose op names are all distinct, and of `gpucal trace check` on it. Text
# cells are interned through a hash table (calib/table.c), so the time grows
# with N, not N^2 (a linear search took 44 s for 120,000 names).
# Usage: sh scripts/bench_intern.sh build/gpucal [N]
set -eu
G=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
N=${2:-120000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$(dirname "$0")/.."
{
    sed -n '/^#/p; /^op,/q' traces/h100/alu.csv | grep -v '^# end:'
    grep -m1 '^op,' traces/h100/alu.csv
    awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++)
        printf "op%d.x,1,1,88512,9,4.114,4.114,4.114,7.78,7.78,7.78,1974.6,0\n", i
        printf "# end: %d\n", n }'
} >"$T/alu.csv"
now() { date +%s.%N; }
t0=$(now)
"$G" calib --check "$T/alu.csv" >"$T/out" 2>&1 || { cat "$T/out"; exit 1; }
t1=$(now)
"$G" trace check "$T/alu.csv" >/dev/null 2>&1 || true
t2=$(now)
echo "$t0 $t1 $t2 $N" | awk '{printf "calib --check of %d distinct op names: %.2f s (trace check: %.2f s)\n", $4, $2 - $1, $3 - $2}'
cat "$T/out"
