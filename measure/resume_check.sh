#!/bin/sh
# resume_check.sh BIN BENCHES KILL_BENCH KILL_ROWS OUT - show that a killed
# `gpucal measure` resumed with --resume gives the same traces as an
# uninterrupted run. A1 and A2: two uninterrupted runs of BENCHES (their
# difference is the run-to-run noise); B: a run SIGKILLed once KILL_BENCH's
# .part file holds KILL_ROWS rows, then continued with --resume. Compared
# per bench: the same points in the same order (key columns), and B's
# latency differences from A1 against A2's. For the GPU host; needs python3.
set -u
bin=$1 benches=$2 kill_bench=$3 kill_rows=$4 out=$5
rm -rf "$out/A1" "$out/A2" "$out/B"
for a in A1 A2; do
    echo "== $a: uninterrupted" >&2
    "$bin" --bench "$benches" --out "$out/$a" >/dev/null 2>&1 || exit 1
done
echo "== B: killed once $kill_bench.csv.part holds $kill_rows rows" >&2
"$bin" --bench "$benches" --out "$out/B" >/dev/null 2>&1 &
pid=$!
part="$out/B/$kill_bench.csv.part"
while kill -0 "$pid" 2>/dev/null; do
    if [ -f "$part" ] && [ "$(grep -vc '^#' "$part")" -gt "$kill_rows" ]; then
        kill -KILL "$pid"
        break
    fi
    sleep 0.05
done
wait "$pid" 2>/dev/null
echo "after the kill:" >&2
for f in "$out"/B/*; do
    echo "  $(basename "$f"): $(grep -vc '^#' "$f") lines (column header included)" >&2
done
echo "== B: --resume" >&2
"$bin" --bench "$benches" --out "$out/B" --resume 2>&1 | grep -E "resume|wall time|kept|ok|FAILED" >&2 ||
    exit 1
python3 - "$out" <<'PY'
import csv, glob, os, sys
root = sys.argv[1]
KEYS = {"inst", "shape", "a_type", "c_type", "operands", "data", "scope", "blocks", "warps", "ilp",
        "op", "num", "trans", "width_bytes", "ways", "path", "pattern", "array_bytes",
        "stride_bytes", "load", "level", "sm", "step", "kernel", "threads"}
LAT = {"cyc_per_iter", "latency_cyc"}
def rows(f):
    return list(csv.reader(l for l in open(f) if not l.startswith("#")))
def diffs(ra, rb, lat):
    d = []
    for r, s in zip(ra[1:], rb[1:]):
        for i in lat:
            x, y = float(r[i]), float(s[i])
            if x > 0:
                d.append(abs(y - x) / x)
    return sorted(d)
def pct(d, q):
    return 100 * d[min(len(d) - 1, int(q * len(d)))] if d else 0.0
bad = 0
for fa in sorted(glob.glob(os.path.join(root, "A1", "*.csv"))):
    name = os.path.basename(fa)
    a1, a2, b = rows(fa), rows(os.path.join(root, "A2", name)), rows(os.path.join(root, "B", name))
    hdr = a1[0]
    keys = [i for i, c in enumerate(hdr) if c in KEYS]
    lat = [i for i, c in enumerate(hdr) if c in LAT]
    same = len(a1) == len(b) and all([r[i] for i in keys] == [s[i] for i in keys]
                                      for r, s in zip(a1[1:], b[1:]))
    noise, res = diffs(a1, a2, lat), diffs(a1, b, lat)
    resumed = any("resumed on" in l for l in open(os.path.join(root, "B", name)))
    # the resumed run may differ from A1 no more than a second uninterrupted run does
    ok = same and pct(res, 0.99) <= pct(noise, 0.99) + 1.0
    bad |= not ok
    print(f"{name:14s} rows {len(b)-1:5d}  same points {same}  resumed {resumed}  "
          f"latency |B-A1| p50/p99/max {pct(res,.5):.2f}/{pct(res,.99):.2f}/{pct(res,1):.2f} %  "
          f"noise |A2-A1| p50/p99/max {pct(noise,.5):.2f}/{pct(noise,.99):.2f}/{pct(noise,1):.2f} %  "
          f"{'ok' if ok else 'DIFFERENT'}")
sys.exit(1 if bad else 0)
PY
