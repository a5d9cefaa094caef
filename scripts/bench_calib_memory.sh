#!/bin/sh
# bench_calib_memory.sh GPUCAL [MB] - figures, not a test (issue 18, class
# 6): the resident memory and time of `gpucal calib` on the H100 traces with
# the fine P-chase trace grown to about MB megabytes (default 500) by
# repeating its rows, each copy's latencies moved by -1, 0 or +1 cycle (so
# the repeats are not identical rows). calib aggregates that trace as it
# streams (calib/fine.h): its memory is bounded by the distinct addresses
# and latencies, not by the rows. Needs /usr/bin/time (GNU time).
# Usage: sh scripts/bench_calib_memory.sh build/gpucal [MB]
set -eu
G=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
MB=${2:-500}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$(dirname "$0")/.."
SRC=traces/h100
mkdir "$T/traces"
for f in "$SRC"/*.csv; do
    [ "$(basename "$f")" = pchase_fine.csv ] || cp "$f" "$T/traces/"
done
# header (comments before the column line), column line, rows, trailer
awk -v mb="$MB" -v src="$SRC/pchase_fine.csv" '
    /^#/ && !seen { print; next }
    !seen { seen = 1; print; next }
    /^#/ { if ($2 != "end:") tail = tail $0 "\n"; next }
    { row[n++] = $0; bytes += length($0) + 1 }
    END {
        reps = int(mb * 1048576 / bytes) + 1
        rows = 0
        for (r = 0; r < reps; r++)
            for (i = 0; i < n; i++) {
                k = split(row[i], c, ",")
                c[k] += (r + i) % 3 - 1
                line = c[1]
                for (j = 2; j <= k; j++) line = line "," c[j]
                print line
                rows++
            }
        printf "%s# end: %d\n", tail, rows
    }' "$SRC/pchase_fine.csv" >"$T/traces/pchase_fine.csv"
size=$(wc -c <"$T/traces/pchase_fine.csv")
rows=$(grep -c '^[0-9]' "$T/traces/pchase_fine.csv")
/usr/bin/time -v "$G" calib "$T/traces" -o "$T/out.yaml" --name bench --force --quiet \
    2>"$T/time" >/dev/null || { cat "$T/time"; exit 1; }
rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$T/time")
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$T/time")
printf 'calib of %s with a %.0f MB fine P-chase trace (%d rows): %.1f MB resident at most, %s wall\n' \
    "$SRC" "$(echo "$size" | awk '{print $1 / 1048576}')" "$rows" \
    "$(echo "$rss" | awk '{print $1 / 1024}')" "$wall"
sed -n 's/^ *\(near_hit_cyc\|far_hit_cyc\|near_miss_cyc\|far_miss_cyc\|near_share\): {value: \([^,]*\),.*/  \1 \2/p' "$T/out.yaml"
