#!/bin/sh
# calib_fine_repeat.sh - calib aggregates the fine P-chase as it streams
# (calib/fine.h; issue 18): the H100 traces with every fine P-chase row
# given three times give the shipped file's L2 near/far latencies, share and
# partitions exactly (a histogram with every count tripled clusters the
# same), and the same near/far map with three times the accesses per run.
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
H=${GC_SRC:-.}/traces/h100
A=${GC_SRC:-.}/arch/hopper-h100.yaml
mkdir -p "$T/x3"
for f in "$H"/*.csv; do
    [ "$(basename "$f")" = pchase_fine.csv ] || cp "$f" "$T/x3/"
done
awk '/^#/ && !s { print; next }
     !s { s = 1; print; next }
     /^#/ { if ($2 != "end:") tl = tl $0 "\n"; next }
     { r[n++] = $0 }
     END { for (k = 0; k < 3; k++) for (i = 0; i < n; i++) print r[i]
           printf "%s# end: %d\n", tl, 3 * n }' "$H/pchase_fine.csv" >"$T/x3/pchase_fine.csv"
run $G calib "$T/x3" -o "$T/x3.yaml" --name x3 --near-map "$T/x3.map.csv" --quiet
expect_rc 0 "calib, rows tripled"
run $G calib "$H" -o "$T/x1.yaml" --name x1 --near-map "$T/x1.map.csv" --quiet
expect_rc 0 "calib of the shipped traces"
val() { sed -n "s/^ *$1: {value: \([^,}]*\).*/\1/p" "$2"; }
for k in near_hit_cyc far_hit_cyc near_miss_cyc far_miss_cyc near_share partitions; do
    a=$(val $k "$T/x3.yaml") b=$(val $k "$A")
    [ -n "$b" ] && [ "$a" = "$b" ] || fail "memory.l2.$k: $a with the rows tripled, $b shipped"
done
[ "$(wc -l <"$T/x3.map.csv")" -gt 100 ] || fail "near map: $(wc -l <"$T/x3.map.csv") lines"
bad=$(paste -d, "$T/x3.map.csv" "$T/x1.map.csv" | awk -F, 'NR > 1 && ($1 != $7 || $2 != $8 ||
    $3 != $9 || $4 != $10 || $5 != $11 || $6 != 3 * $12) { n++ } END { print n + 0 }')
[ "$bad" -eq 0 ] || fail "near map: $bad runs differ from the shipped traces' (accesses x3)"
[ "$(wc -l <"$T/x3.map.csv")" -eq "$(wc -l <"$T/x1.map.csv")" ] || fail "near map: run counts differ"
finish
