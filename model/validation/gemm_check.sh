#!/bin/sh
# gemm_check.sh - `gpucal predict gemm` against the cuBLAS calls timed through
# PyTorch (model/validation/data/<gpu>/gemm.csv: id,split,class,args,kernels,
# kernel_us,time_us,reps; time_us is the GPU time of the call's kernels from
# CUPTI, memsets and split-K reductions included, launches excluded). Prints,
# per row, the measured and the predicted GPU time (the prediction's time_us:
# every kernel it lists, without launch_us), the error, and with --kernels the
# kernels measured and predicted (name@grid@block@registers); then the median
# and largest |error| per shape class and overall.
#
# Model choices are made on the train rows only: the held-out third is read
# only with --holdout (for the final report); the sealed fresh set
# (data/<gpu>/gemm_fresh.csv) only with --fresh.
#
# usage: sh model/validation/gemm_check.sh GPUCAL GEMM.csv ARCH [--holdout|--fresh] [--kernels]
set -u
me=gemm_check.sh
what=GEMM.csv
. "$(dirname "$0")/check_common.sh"
check_args "$@"
printf '%-5s %-11s %10s %10s %7s  %s\n' id class meas_us pred_us err_pct args
while IFS="$(printf '\t')" read -r id class args kernels meas; do
    # shellcheck disable=SC2086
    if ! "$G" predict $args --arch "$ARCH" --format json >"$tmp/p.json" 2>"$tmp/e"; then
        printf '%-5s %-11s %10s %10s %7s  %s (%s)\n' "$id" "$class" "$meas" - - "$args" \
            "$(head -c 200 "$tmp/e")"
        printf '%s\t%s\n' "$class" refused >>"$tmp/errs"
        continue
    fi
    pred=$(sed -n 's/^  "time_us": \([0-9.e+-]*\),\{0,1\}$/\1/p' "$tmp/p.json" | head -n 1)
    err=$(awk -v p="$pred" -v m="$meas" 'BEGIN { printf "%.1f", 100 * (p - m) / m }')
    printf '%-5s %-11s %10.2f %10.2f %7s  %s\n' "$id" "$class" "$meas" "$pred" "$err" \
        "$(echo "$args" | sed 's/^gemm //; s/--//g')"
    printf '%s\t%s\n' "$class" "$err" >>"$tmp/errs"
    if [ "$kern" = 1 ]; then
        echo "        measured:  $(echo "$kernels" | sed 's/(cublasLt::cublasSplitKParams[^@]*//g; s/cublasGemvParamsEx<[^@]*//g')"
        echo "        predicted: $(grep -o '"library": "[^"]*"' "$tmp/p.json" | sed 's/"library": "//; s/"$//' | paste -sd';' -)"
    fi
done <"$tmp/rows"
echo
echo "|error| on the $split rows ($ARCH): median and max per shape class"
summ() {
    sort -n | awk '{ a[NR] = $1 } END { if (!NR) { print "   0 rows"; exit }
        m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2;
        printf "%4d rows  median %6.1f %%  max %6.1f %%\n", NR, m, a[NR] }'
}
ref() { awk -F'\t' -v c="$1" '($1 == c || c == "all") && $2 == "refused"' "$tmp/errs" | wc -l; }
for c in $(cut -f1 "$tmp/errs" | sort -u) all; do
    printf '  %-11s ' "$c"
    awk -F'\t' -v c="$c" '($1 == c || c == "all") && $2 != "refused" { x = $2 < 0 ? -$2 : $2; print x }' \
        "$tmp/errs" | summ | tr -d '\n'
    r=$(ref "$c")
    [ "$r" -gt 0 ] && printf '  (%d refused)' "$r"
    echo
done
