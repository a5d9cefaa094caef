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
# The harness's L2 (torch/bench.py): a row's inputs rotate among k copies,
# k = min(16, ceil(3 x L2 / input bytes)), so that a call does not find them in
# the L2 -- except when all 16 copies and the output fit in it: then every call
# finds its inputs there, and the row is predicted with --l2 warm.
#
# usage: sh model/validation/ops_check.sh GPUCAL OPS.csv ARCH [--holdout|--fresh] [--kernels]
set -u
me=ops_check.sh
what=OPS.csv
. "$(dirname "$0")/check_common.sh"
check_args "$@"
# the L2's bytes as PyTorch reports them (the arch's memory.l2.size_mib)
l2=$(awk '/^  l2:/ { f = 1 } f && /size_mib:/ { sub(/.*value: /, ""); sub(/[,}].*/, ""); print $0 * 1048576; exit }' "$ARCH")
[ -n "$l2" ] || { echo "$me: $ARCH: no memory.l2.size_mib (the harness's L2 rule needs it)" >&2; exit 2; }

# l2_flag ARGS: "--l2 warm" when the harness's 16 input copies and the output
# fit in the L2 (bench.py's input bytes per call, the output's bytes), else nothing
l2_flag() {
    echo "$1" | awk -v l2="$l2" '{
        for (i = 2; i <= NF; i++) if ($i ~ /^--/ && $(i + 1) !~ /^--/) v[substr($i, 3)] = $(++i)
        e = v["dtype"] == "f32" ? 4 : 2; op = $1
        if (op == "attention") { in_b = 3 * v["batch"] * v["heads"] * v["seq"] * v["head-dim"] * 2; out = in_b / 3 }
        else if (op == "elementwise") { in_b = v["n"] * e * (v["op"] == "add" || v["op"] == "mul" ? 2 : 1); out = v["n"] * e }
        else if (op == "conv2d") {
            p = int((v["h"] + 2 * v["pad"] - v["r"]) / v["stride"]) + 1
            q = int((v["w"] + 2 * v["pad"] - v["s"]) / v["stride"]) + 1
            in_b = v["n"] * v["c"] * v["h"] * v["w"] * 2; out = v["n"] * v["k"] * p * q * 2 }
        else { in_b = v["rows"] * v["cols"] * e; out = op == "rowsum" ? v["rows"] * e : in_b }
        if (16 * in_b + out <= l2) print "--l2 warm" }'
}
printf '%-6s %-11s %10s %10s %8s  %s\n' id class meas_us pred_us err_pct args
while IFS="$(printf '\t')" read -r id class args kernels meas; do
    # shellcheck disable=SC2086
    if ! "$G" predict $args $(l2_flag "$args") --arch "$ARCH" --format json >"$tmp/p.json" 2>"$tmp/e"; then
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
