#!/bin/sh
# device_memory.sh - the memory benches of gpucal-measure on the GPU host.
#   sh measure/device_memory.sh [quick|full|both|one]    (default: both)
# quick/full/both: one process per bench (a fault stays in its bench);
# one: the seven benches in one full run (the committed traces, one wall time).
# Builds gpucal-measure for sm_90a with nvcc alone from the measurement
# sources (the GPU host needs neither GSL nor libyaml, and nobody's
# unfinished bench gets in the way), runs
#   pchase pchase_fine bw clock tma dsm dpx
# with --quick and/or in full, prints a histogram of the fine-grained
# latencies per array (the groups calib's k-means separates) and the key
# rows, keeps the binary's SASS (fixture material), and tars the traces and
# logs into $OUT (traces_quick.tgz, traces_full.tgz, sass.gz, *.log).
set -eu
MODE=${1:-both}
OUT=${OUT:-/tmp/out}
B=/tmp/gcmem
mkdir -p "$B" "$OUT"
GENCODE=${GENCODE:--gencode=arch=compute_90a,code=sm_90a}
t0=$(date +%s)
for f in util/err.c util/fsio.c util/arena.c util/numfmt.c traces/trace.c \
         measure/stats.c measure/sass.c measure/ring.c measure/mem_sass.c measure/power.c \
         measure/clk_series.c; do
    gcc -std=c11 -O2 -Wall -Wextra -Wno-format-truncation -I. -c "$f" -o "$B/$(basename "$f" .c).o" &
done
for f in main harness mem_util bench_clock bench_pchase bench_pchase_fine bench_bw bw_variants bench_tma \
         bench_dsm bench_dpx; do
    nvcc -O2 $GENCODE -std=c++17 -lineinfo -Xcompiler=-Wall,-Wno-format-truncation \
         -Werror=all-warnings -DGPUCAL_VERSION='"0.1.0"' -I. -c "measure/$f.cu" -o "$B/$f.o" &
done
wait
nvcc $GENCODE -o "$B/gpucal-measure" "$B"/*.o -lm -ldl
echo "built in $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv || true
cuobjdump -sass -arch sm_90a "$B/gpucal-measure" > "$B/h100_mem.sass" 2>&1 || true
gzip -c "$B/h100_mem.sass" > "$OUT/sass.gz"

hist() { # a 10-cycle histogram of latency_cyc per array (bins holding >= 0.5 %)
    awk -F, '!/^#/ && $1 != "sm" { n[$2]++; h[$2 "," int($6 / 10) * 10]++ }
        END { for (k in h) { split(k, a, ","); if (h[k] * 200 >= n[a[1]]) print a[1], a[2], h[k] } }' "$1" |
        sort -n -k1,1 -k2,2 | awk '
        { if ($1 != last) { printf "\narray %d MiB:", $1 / 1048576; last = $1 } printf " %d:%d", $2, $3 }
        END { print "" }'
}

BENCHES="dpx pchase pchase_fine bw dsm tma clock"
rc=0
for m in quick full; do
    [ "$MODE" = both ] || [ "$MODE" = "$m" ] || [ "$MODE" = one ] || continue
    [ "$MODE" = one ] && [ "$m" = quick ] && continue
    FLAGS=
    [ "$m" = quick ] && FLAGS=--quick
    D="$B/tr_$m"
    rm -rf "$D"
    : > "$OUT/$m.log"
    if [ "$MODE" = one ]; then # the committed traces: one run of all seven
        set +e
        timeout -s KILL 400 "$B/gpucal-measure" --bench pchase,pchase_fine,bw,clock,dsm,dpx,tma \
            --out "$D" >> "$OUT/$m.log" 2>&1
        r=$?
        set -e
        [ $r -eq 0 ] || rc=$r
    else # one process per bench: a fault in one cannot take the others down
        for b in $BENCHES; do
            set +e
            timeout -s KILL 150 "$B/gpucal-measure" --bench $b $FLAGS --out "$D" >> "$OUT/$m.log" 2>&1
            r=$?
            set -e
            echo "$m $b: exit $r"
            [ $r -eq 0 ] || rc=$r
        done
    fi
    grep -i "warning\|error\|FAILED\|wall time\| ok \|skipped" "$OUT/$m.log" | grep -v "^\[" | head -40 || true
    ls -la "$D" || true
    (cd "$B" && tar czf "$OUT/traces_$m.tgz" "tr_$m")
    if [ -f "$D/pchase_fine.csv" ]; then
        echo "--- pchase_fine histogram ($m)"
        hist "$D/pchase_fine.csv"
    fi
done
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv || true
for m in full quick; do
    D="$B/tr_$m"
    [ -d "$D" ] || continue
    echo "--- key rows ($m)"
    grep -h '^\(idle\|memory\|tensor\),' "$D/clock.csv" 2>/dev/null || true
    grep -h '^[a-z0-9]*,[a-z0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9.]*' "$D/bw.csv" 2>/dev/null | cut -d, -f1,2,7-11 || true
    grep '^# note' "$D/bw.csv" 2>/dev/null || true
    awk -F, '$2 == "rand" && ($3 == 1024 || $3 == 8388608 || $3 == 26214400 || $3 == 36700160 ||
        $3 == 41943040 || $3 == 52428800 || $3 == 209715200) { print $1, $3, $6 }
        $1 ~ /^shared/ && $3 == 4096 { print $1, $2, $3, $6 }' "$D/pchase.csv" 2>/dev/null || true
    grep -h '^# \(bench\|sass_check\|clock_overhead_cyc\): ' "$D"/*.csv 2>/dev/null || true
    grep -h '^throughput' "$D/tma.csv" 2>/dev/null | cut -d, -f2-5,7 | tr '\n' ' ' || true; echo
    grep -h '^latency' "$D/tma.csv" 2>/dev/null | cut -d, -f1,2,6-9 || true
    grep -h '^latency,\(1\|2\|16\),' "$D/dsm.csv" 2>/dev/null | cut -d, -f1-6,9 || true
    grep -h '^throughput' "$D/dsm.csv" 2>/dev/null | cut -d, -f2,3,9,13 || true
    grep -h '^\(vimax3_s32\|viaddmax_s32\|vimax3_s16x2\|imax_s32\|vibmax_s32\),' "$D/dpx.csv" 2>/dev/null | cut -d, -f1,2,7,11,12 || true
    break
done
exit $rc
