# check_common.sh - what gemm_check.sh and ops_check.sh share, sourced by
# both (not run on its own): their command line, the temporary folder and
# the rows of the chosen split.
#
#   me=NAME.sh; what=FILE.csv; . "$(dirname "$0")/check_common.sh"; check_args "$@"
#
# check_args GPUCAL CSV ARCH [--holdout|--fresh] [--kernels] [--call-period]
# sets G, CSV, ARCH,
# split (train, or holdout with --holdout: model choices are made on the
# train rows only, the held-out rows are read only for the final report;
# --fresh: the sealed set measured apart, data/<gpu>/*_fresh.csv, read
# only for the final report too)
# and kern (1 with --kernels), makes the folder $tmp (removed on exit) and
# writes $tmp/rows: the split's rows as id, class, args, kernels, time_us,
# tab-separated, args ending in `--period-us P` with --call-period: P the
# time between two calls of the row as the harness made them: the median
# time between the starts of two calls' first kernels that
# torch/clock_inrow.py measured (the `period_us` of NAME_inrow.csv beside
# NAME.csv), else its profiled interval in row_times.csv beside CSV over its
# reps (an upper bound: it holds the profiler's start and stop); rows
# without either keep the default, back to back. Bad usage, an unreadable GPUCAL or CSV, or a split with no
# rows: one line on stderr naming what is wrong, exit 2.

check_usage() {
    echo "usage: $me GPUCAL $what ARCH [--holdout|--fresh] [--kernels] [--call-period]" >&2
    exit 2
}

check_args() {
    [ $# -ge 3 ] || check_usage
    G=$1
    CSV=$2
    ARCH=$3
    shift 3
    split=train
    kern=0
    period=0
    for o in "$@"; do
        case $o in
        --holdout) split=holdout ;;
        --fresh) split=fresh ;;
        --kernels) kern=1 ;;
        --call-period) period=1 ;;
        *) echo "$me: unknown option '$o' (--holdout, --fresh, --kernels, --call-period)" >&2; exit 2 ;;
        esac
    done
    [ -x "$G" ] || { echo "$me: $G: not an executable (give the gpucal binary)" >&2; exit 2; }
    [ -r "$CSV" ] || { echo "$me: $CSV: cannot read (give the $(echo "$what" | tr '[:upper:]' '[:lower:]') of a GPU)" >&2; exit 2; }
    tmp=$(mktemp -d) || exit 1
    trap 'rm -rf "$tmp"' EXIT
    check_rows
    [ -s "$tmp/rows" ] || { echo "$me: $CSV: no $split rows" >&2; exit 2; }
}

# The rows of the split into $tmp/rows (CSV fields may be double-quoted,
# with commas inside: the kernels' grids; "" stands for ").
check_rows() {
    times=$(dirname "$CSV")/row_times.csv
    inrow=${CSV%.csv}_inrow.csv
    [ "$period" = 1 ] && [ -r "$times" ] || times=/dev/null
    [ "$period" = 1 ] && [ -r "$inrow" ] || inrow=/dev/null
    awk -v s="$split" -v times="$times" -v inrow="$inrow" '
function split_csv(line, f,    n, i, c, q, cur) {
    n = 0; cur = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q && c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
        else if (c == "\"") q = !q
        else if (c == "," && !q) { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}
BEGIN {
    FS = "\n"; while ((getline l < times) > 0) { split(l, t, ","); span[t[1]] = t[3] - t[2] }
    # the CSV of clock_inrow.py: id first, period_us the 8th column (args hold no commas)
    while ((getline l < inrow) > 0) { split(l, t, ","); if (t[8] + 0 > 0) per[t[1]] = t[8] + 0 }
}
NR > 1 {
    sub(/\r$/, ""); split_csv($0, f)
    if (f[2] != s) next
    a = f[4]
    if (f[1] in per) a = a sprintf(" --period-us %.2f", per[f[1]])
    else if ((f[1] in span) && f[8] > 0 && span[f[1]] > 0) a = a sprintf(" --period-us %.2f", span[f[1]] / f[8] * 1e6)
    print f[1] "\t" f[3] "\t" a "\t" f[5] "\t" f[7]
}
' "$CSV" >"$tmp/rows"
}
