#!/bin/sh
# calib_hopper_l2.sh - both shipped Hopper arch files carry the L2 near hit,
# far hit, near miss and far miss (issue 14), each with an interval, from the
# two array-size regimes of the fine P-chase, and each inside the range an
# independent per-access chase shows on the same GPU (measure/ref/chase_ref.cu,
# 8 MiB hit and 512 MiB miss footprints on 4 SMs; its 20-cycle histogram bins in
# measure/ref/results/{h100,h200}-summary.txt). arch/hopper-h200.yaml is what
# its recorded command makes from traces/h200, byte for byte.
. "$(dirname "$0")/lib.sh"
G=$GPUCAL

# value of memory.l2.KEY in FILE (the emitter folds long lines: join them first)
l2val() {
    tr '\n' ' ' <"$2" | sed 's/  */ /g' |
        sed -n "s/.* $1: {value: \([0-9.]*\), ci95: \[[0-9.]*, [0-9.]*\], source: '[^']*pchase_fine.csv: k-means cluster.*/\1/p"
}

# in_range GPU KEY LO HI: the shipped value lies in [LO, HI]
in_range() {
    v=$(l2val "$2" "$GC_SRC/arch/hopper-$1.yaml")
    [ -n "$v" ] || { fail "$1: memory.l2.$2 missing, or without interval or k-means source"; return; }
    awk -v v="$v" -v lo="$3" -v hi="$4" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
        fail "$1: memory.l2.$2 = $v, outside the independent chase's $3-$4 cycles"
}

# ranges read off the chase_ref bins (>= 0.5 % of the accesses) of each summary
in_range h100 near_hit_cyc 260 320
in_range h100 far_hit_cyc 420 500
in_range h100 near_miss_cyc 540 620
in_range h100 far_miss_cyc 700 820
in_range h200 near_hit_cyc 260 320
in_range h200 far_hit_cyc 420 500
in_range h200 near_miss_cyc 500 580
in_range h200 far_miss_cyc 640 780

# the H200 file is reproduced by its recorded command
SHIPPED=$GC_SRC/arch/hopper-h200.yaml
cmd=$(sed -n 's/^  command: //p' "$SHIPPED")
[ "$cmd" = "gpucal calib traces/h200 -o arch/hopper-h200.yaml --name hopper-h200" ] ||
    fail "unexpected provenance command: $cmd"
mkdir -p "$T/w/arch"
ln -s "$GC_SRC/traces" "$T/w/traces"
(cd "$T/w" && "$G" calib traces/h200 -o arch/hopper-h200.yaml --name hopper-h200 -q) \
    >"$T/out" 2>"$T/err" || fail "the recorded command failed: $(grep -v warning "$T/err" | head -3)"
cmp -s "$T/w/arch/hopper-h200.yaml" "$SHIPPED" ||
    fail "re-running the recorded command does not reproduce arch/hopper-h200.yaml (regenerate it)"
grep -q 'pchase_fine.csv: warning' "$T/err" &&
    fail "calib left an L2 latency out of the H200 file: $(grep 'pchase_fine.csv: warning' "$T/err")"
finish
