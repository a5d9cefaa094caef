#!/bin/sh
# same_points.sh DIR_A DIR_B [BENCH...] - did two measurement runs sweep the
# same points? For each bench (default: the warps x ILP benches alu,
# ldmatrix, smem, mma, mma_sp, wgmma) it compares A's and B's traces:
# the column header, then every row's plan cells (every column before
# `iters`: the form, data, scope, blocks, warps, ilp, ...) in order, and
# prints the median and largest relative difference of cyc_per_iter (the
# run-to-run noise, not a verdict). Exit 1 when a header or a point
# differs or a trace is missing. For a change to the sweep driver
# (measure/sweep.cu, gc_tsweep_grid): run the old and the new binary with
# the same --bench list and options on one GPU, then compare. Needs python3.
set -u
[ $# -ge 2 ] || { echo "usage: same_points.sh DIR_A DIR_B [BENCH...]" >&2; exit 2; }
a=$1 b=$2
shift 2
[ $# -gt 0 ] || set -- alu ldmatrix smem mma mma_sp wgmma
python3 - "$a" "$b" "$@" <<'PY'
import csv, os, sys
a, b, benches = sys.argv[1], sys.argv[2], sys.argv[3:]
def rows(path):
    with open(path) as f:
        return list(csv.reader(l for l in f if not l.startswith("#")))
bad = 0
for bench in benches:
    pa, pb = (os.path.join(d, bench + ".csv") for d in (a, b))
    if not (os.path.exists(pa) and os.path.exists(pb)):
        print(f"{bench:9s} MISSING ({pa if not os.path.exists(pa) else pb})")
        bad = 1
        continue
    ra, rb = rows(pa), rows(pb)
    hdr = ra[0]
    if hdr != rb[0] or "iters" not in hdr:
        print(f"{bench:9s} HEADER DIFFERS: {hdr} vs {rb[0]}")
        bad = 1
        continue
    k = hdr.index("iters")
    pa_, pb_ = [r[:k] for r in ra[1:]], [r[:k] for r in rb[1:]]
    same = pa_ == pb_
    first = next((i for i, (x, y) in enumerate(zip(pa_, pb_)) if x != y), min(len(pa_), len(pb_)))
    c = hdr.index("cyc_per_iter")
    d = sorted(abs(float(y[c]) - float(x[c])) / float(x[c])
               for x, y in zip(ra[1:], rb[1:]) if float(x[c]) > 0)
    med = 100 * d[len(d) // 2] if d else 0.0
    top = 100 * d[-1] if d else 0.0
    note = "" if same else f"  first difference at row {first + 1}"
    print(f"{bench:9s} rows {len(pa_):5d} / {len(pb_):5d}  same points {same}  "
          f"cyc_per_iter |B-A|/A median {med:.2f} %  max {top:.2f} %{note}")
    bad |= not same
sys.exit(1 if bad else 0)
PY
