#!/bin/sh
# ops_check.sh - the operator templates against operator calls timed through
# PyTorch (model/validation/data/<gpu>/ops.csv: id,split,class,args,kernels,
# kernel_us,time_us,reps; time_us is the GPU time of the call's kernels,
# launches excluded). Prints, per row, the measured and the predicted GPU
# time (gpucal's kernel_us: the prediction without the launch overhead),
# the kernels measured and predicted (name@grid@block@registers), and the
# median and largest |error| per operator class and overall.
#
# Model choices are made on the train rows only: the held-out rows are read
# only with --holdout (the lead reports them); the sealed fresh set
# (data/<gpu>/ops_fresh.csv) only with --fresh.
#
# usage: sh model/validation/ops_check.sh GPUCAL OPS.csv ARCH [--holdout|--fresh] [--kernels]
set -u
me=ops_check.sh
what=OPS.csv
. "$(dirname "$0")/check_common.sh"
check_args "$@"
printf '%-6s %-11s %10s %10s %8s  %s\n' id class meas_us pred_us err_pct args
while IFS="$(printf '\t')" read -r id class args kernels meas; do
    # shellcheck disable=SC2086
    if ! "$G" predict $args --arch "$ARCH" --format json >"$tmp/p.json" 2>"$tmp/e"; then
        printf '%-6s %-11s %10s %10s %8s  %s (%s)\n' "$id" "$class" "$meas" - - "$args" \
            "$(head -c 200 "$tmp/e")"
        continue
    fi
    pred=$(grep -o '"kernel_us": [0-9.]*}$' "$tmp/p.json" | tr -dc '0-9.')
    err=$(awk -v p="$pred" -v m="$meas" 'BEGIN { printf "%.1f", 100 * (p - m) / m }')
    printf '%-6s %-11s %10.2f %10.2f %8s  %s\n' "$id" "$class" "$meas" "$pred" "$err" "$args"
    printf '%s\t%s\n' "$class" "$err" >>"$tmp/errs"
    if [ "$kern" = 1 ]; then
        echo "         measured:  $kernels"
        echo "         predicted: $(grep -o '"name": "[^"]*", "grid": \[[0-9, ]*\], "block": \[[0-9, ]*\], "registers": [0-9]*' "$tmp/p.json" |
            sed 's/"name": "\([^"]*\)", "grid": \[\([0-9, ]*\)\], "block": \[\([0-9, ]*\)\], "registers": \([0-9]*\)/\1@\2@\3@\4/' | tr -d ' ' | paste -sd';' -)"
    fi
done <"$tmp/rows"
[ -s "$tmp/errs" ] || { echo "no $split rows predicted"; exit 1; }
echo
echo "|error| on the $split rows ($ARCH): median and max per operator"
summ() {
    sort -n | awk '{ a[NR] = $1 } END { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2;
        printf "%4d rows  median %6.1f %%  max %6.1f %%\n", NR, m, a[NR] }'
}
for c in $(cut -f1 "$tmp/errs" | sort -u); do
    printf '  %-11s ' "$c"
    awk -F'\t' -v c="$c" '$1 == c { x = $2 < 0 ? -$2 : $2; print x }' "$tmp/errs" | summ
done
printf '  %-11s ' all
awk -F'\t' '{ x = $2 < 0 ? -$2 : $2; print x }' "$tmp/errs" | summ
