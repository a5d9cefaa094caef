#!/bin/sh
# compare.sh - predicted against measured for every validation kernel.
#
#   sh model/validation/compare.sh [--arch NAME] [--gpucal BIN] [--times CSV] [--clock MHZ]
#                                  [--csv OUT.csv]
#
# For each valid row of the timings file (default model/validation/h100_times.csv)
# it runs `gpucal predict` on the kernel's description in model/kernels/ (the
# cuBLAS rows: `gpucal predict gemm --dtype f16`) with --arch (default
# hopper-h100) and prints one Markdown table: predicted and measured time, the
# error, the predicted and measured cycles (measured: median time x the clock
# the kernel's block 0 measured), the bound; then the median and largest |error|.
# Every row is scored on median_us: one launch between two CUDA events, the rule
# of every row (h100_kernels.cu, time_it). Rows that also carry batch_us (cuBLAS:
# the per-call average of 100 back-to-back calls between one event pair) get a
# second table with both errors, and a second summary with batch_us in place of
# median_us for those rows.
# Rows marked INVALID in the timings file are listed as such and not scored.
# --csv OUT.csv also writes the scored rows as name,predicted_us,measured_us,gpu
# (the table `gpucal plot validation` draws; model/validation/tables/ holds the
# project's own).
# Exit status: 0, or 2 when an argument is bad or a prediction fails.
set -u
here=$(dirname "$0")
root=$(cd "$here/../.." && pwd)
arch=hopper-h100
gpucal=
times=$here/h100_times.csv
clock=
csv=
while [ $# -gt 0 ]; do
    case $1 in
    --arch) arch=$2; shift 2 ;;
    --gpucal) gpucal=$2; shift 2 ;;
    --times) times=$2; shift 2 ;;
    --clock) clock="--clock $2"; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "compare.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
if [ -z "$gpucal" ]; then
    for b in "$root"/build*/gpucal; do [ -x "$b" ] && gpucal=$b && break; done
fi
[ -n "$gpucal" ] && [ -x "$gpucal" ] || { echo "compare.sh: no gpucal binary (give --gpucal BIN)" >&2; exit 2; }
[ -r "$times" ] || { echo "compare.sh: cannot read $times" >&2; exit 2; }
if [ -n "$csv" ]; then
    { echo "# gpucal validation table: sh model/validation/compare.sh --arch $arch${clock:+ $clock} --csv, measured: $(basename "$times")"
      echo "name,predicted_us,measured_us,gpu"; } >"$csv.tmp" || exit 2
fi
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.rows" "$tmp.err" "$tmp.batch" "$tmp.alt"' EXIT
: >"$tmp.batch"
: >"$tmp.alt"

# json KEY: the first numeric or string value of "KEY" in the prediction
json() { sed -n "s/^  \"$1\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$tmp" | head -n 1; }

echo "Predicted with \`gpucal predict --arch $arch${clock:+ $clock}\`, measured: $(basename "$times")."
echo
echo "| kernel | size | predicted us | measured us | error | predicted cycles | measured cycles | bound |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
status=0
grep -v '^#' "$times" | tail -n +2 | while IFS=, read -r kernel what size blocks threads regs smem med mn mx reps clk cyc check err batch; do
    case $kernel in
    h100_cublas_hgemm)
        m=$(echo "$size" | sed 's/.*m=\([0-9]*\).*/\1/')
        n=$(echo "$size" | sed 's/.*n=\([0-9]*\).*/\1/')
        k=$(echo "$size" | sed 's/.*k=\([0-9]*\).*/\1/')
        set -- gemm --m "$m" --n "$n" --k "$k" --dtype f16 ;;
    h100_stream_*)
        f=$kernel
        [ "$size" = "bytes=8388608" ] && f=${kernel}_8m
        set -- "$root/model/kernels/$f.yaml" ;;
    h100_s003_*)
        n=$(echo "$size" | sed 's/n=//')
        set -- "$root/model/kernels/${kernel}_n$n.yaml" ;;
    *)
        set -- "$root/model/kernels/$kernel.yaml" ;;
    esac
    if [ "$check" = INVALID ]; then
        echo "| $kernel | $size | - | $med | invalid measurement | - | $cyc | - |"
        continue
    fi
    # shellcheck disable=SC2086
    if ! "$gpucal" predict "$@" --arch "$arch" --format json $clock >"$tmp" 2>"$tmp.err"; then
        echo "| $kernel | $size | error: $(head -c 200 "$tmp.err") | $med | | | | |"
        rm -f "$tmp.err"
        continue
    fi
    rm -f "$tmp.err"
    t=$(json time_us)
    # the gemm template's time_us is GPU time; an event-timed row also holds
    # the launch (launch_us)
    lu=$(json launch_us)
    [ -n "$lu" ] && t=$(awk -v a="$t" -v b="$lu" 'BEGIN { printf "%.6g", a + b }')
    pc=$(json cycles)
    b=$(json bound)
    clk=$(json clock_mhz)
    # the launch overhead's share of the prediction (breakdown.launch, cycles)
    lc=$(sed -n 's/^  "breakdown": .*"launch": \([0-9.e+-]*\)}.*$/\1/p' "$tmp" | head -n 1)
    [ -n "$csv" ] && printf '"%s %s",%s,%s,%s\n' "$kernel" "$size" "$t" "$med" "$arch" >>"$csv.tmp"
    awk -v k="$kernel" -v s="$size" -v t="$t" -v m="$med" -v pc="$pc" -v mc="$cyc" -v b="$b" 'BEGIN {
        e = 100 * (t - m) / m
        mcs = mc > 0 ? sprintf("%.0f", mc) : "-"
        printf "| %s | %s | %.1f | %.1f | %+.1f%% | %.0f | %s | %s |\n", k, s, t, m, e, pc, mcs, b
    }'
    awk -v k="$kernel" -v s="$size" -v t="$t" -v m="$med" -v bt="${batch:-}" -v lc="${lc:-0}" -v clk="$clk" \
        -v batchf="$tmp.batch" -v altf="$tmp.alt" 'BEGIN {
        e = 100 * (t - m) / m
        if (bt ~ /^[0-9.]+$/ && bt + 0 > 0) {
            kt = t - lc / clk
            eb = 100 * (t - bt) / bt
            printf "| %s | %s | %.1f | %.1f | %+.1f%% | %.1f | %+.1f%% | %.1f | %+.1f%% |\n", k, s, t, m, e, bt, eb, kt, 100 * (kt - bt) / bt >>batchf
            e = eb
        }
        printf "%.4f\n", e < 0 ? -e : e >>altf
    }'
done | tee "$tmp.rows"

# stats: one |error| per line -> the summary line
stats() {
    awk -v what="$1" '{ a[n++] = $1 + 0 }
    END {
        if (!n) exit
        for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
        med = n % 2 ? a[int(n / 2)] : (a[n / 2 - 1] + a[n / 2]) / 2
        w10 = 0; w20 = 0
        for (i = 0; i < n; i++) { if (a[i] <= 10) w10++; if (a[i] <= 20) w20++ }
        printf "%d kernels scored%s: median |error| %.1f%%, largest %.1f%%; %d within 10%%, %d within 20%%.\n", n, what, med, a[n - 1], w10, w20
    }'
}
echo
awk -F"|" '$6 ~ /%/ { gsub(/[ +%]/, "", $6); e = $6 + 0; if (e < 0) e = -e; print e }' "$tmp.rows" | stats ""
if [ -s "$tmp.batch" ]; then
    echo
    echo "Rows timed both ways: one call between two events (scored above) and the per-call"
    echo "average of 100 back-to-back calls between one event pair (batch); \"kernel only\" is the"
    echo "prediction less its launch overhead (sm.launch_overhead_us)."
    echo
    echo "| kernel | size | predicted us | one call us | error | batch us per call | error | kernel only us | error vs batch |"
    echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    cat "$tmp.batch"
    echo
    stats " with batch_us in place of median_us for those rows" <"$tmp.alt"
fi
grep -q '| error:' "$tmp.rows" && status=2
[ -n "$csv" ] && { [ $status -eq 0 ] && mv "$csv.tmp" "$csv" || rm -f "$csv.tmp"; }
exit $status
