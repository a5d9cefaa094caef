#!/bin/sh
# bench_batch.sh GPUCAL [N] - figures, not a test: the time of one CLI
# prediction with hopper-h100 (median of 21 runs, and the mean of a loop of
# 200, end to end: the shell's fork and exec included), and N (default
# 100000) gemm predictions through `gpucal predict --batch` on one core
# (taskset -c 0 when present), plus kernel-description requests.
# Usage: sh scripts/bench_batch.sh build/gpucal [N]
set -eu
G=$1
N=${2:-100000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$(dirname "$0")/.."
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
now() { date +%s.%N; }
for i in $(seq 21); do
    t0=$(now)
    "$G" predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch hopper-h100 >/dev/null
    t1=$(now)
    echo "$t0 $t1" | awk '{printf "%.3f\n", ($2 - $1) * 1e3}'
done | sort -n | sed -n 11p | awk '{print "one CLI prediction (gemm, hopper-h100): " $1 " ms (median of 21)"}'
t0=$(now)
for i in $(seq 200); do
    "$G" predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch hopper-h100 >/dev/null
done
t1=$(now)
echo "$t0 $t1" | awk '{printf "one CLI prediction (gemm, hopper-h100): %.3f ms (a loop of 200, end to end)\n", ($2 - $1) * 1e3 / 200}'
awk -v n="$N" 'BEGIN { split("128 256 512 1024 2048 4096 8192", s, " ");
    for (i = 0; i < n; i++)
        printf "{\"template\": \"gemm\", \"m\": %d, \"n\": %d, \"k\": %d, \"dtype\": \"f16\", \"arch\": \"hopper-h100\"}\n",
               s[i % 7 + 1], s[int(i / 7) % 7 + 1], s[int(i / 49) % 7 + 1] }' >"$T/gemm.jsonl"
t0=$(now)
$pin "$G" predict --batch "$T/gemm.jsonl" >"$T/out"
t1=$(now)
echo "$t0 $t1 $N $(wc -l <"$T/out")" | awk '{printf "batch: %d gemm predictions in %.2f s (%.0f/s, %d answers)\n", $3, $2 - $1, $3 / ($2 - $1), $4}'
awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++)
    print "{\"kernel\": \"model/kernels/mma_matmul_3_1.yaml\", \"arch\": \"hopper-h100\"}" }' >"$T/k.jsonl"
t0=$(now)
$pin "$G" predict --batch "$T/k.jsonl" >"$T/out"
t1=$(now)
echo "$t0 $t1 $N" | awk '{printf "batch: %d kernel-description predictions in %.2f s (%.0f/s)\n", $3, $2 - $1, $3 / ($2 - $1)}'
