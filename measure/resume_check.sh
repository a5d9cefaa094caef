#!/bin/sh
# resume_check.sh BIN BENCHES KILL_AFTER_S OUT - show that a killed
# `gpucal measure` resumed with --resume gives the same traces as an
# uninterrupted run: (A) run BENCHES uninterrupted, (B) run them again,
# SIGKILL after KILL_AFTER_S seconds, then `--resume` until done; compare
# A and B point by point (same rows in the same order, the same key
# columns, latencies within 1 %). For the GPU host; needs python3.
set -u
bin=$1 benches=$2 kill_after=$3 out=$4
rm -rf "$out/A" "$out/B"
echo "== A: uninterrupted" >&2
"$bin" --bench "$benches" --out "$out/A" >/dev/null || exit 1
echo "== B: killed after ${kill_after}s" >&2
timeout -s KILL "$kill_after" "$bin" --bench "$benches" --out "$out/B" >/dev/null 2>&1
echo "after the kill: $(cd "$out/B" && ls)" >&2
for f in "$out"/B/*.part; do
    [ -e "$f" ] && echo "  $(basename "$f"): $(grep -vc '^#' "$f") lines kept (header included)" >&2
done
echo "== B: --resume" >&2
"$bin" --bench "$benches" --out "$out/B" --resume || exit 1
python3 - "$out/A" "$out/B" <<'PY'
import csv, glob, os, sys
a_dir, b_dir = sys.argv[1], sys.argv[2]
bad = 0
for fa in sorted(glob.glob(os.path.join(a_dir, "*.csv"))):
    fb = os.path.join(b_dir, os.path.basename(fa))
    rows = lambda f: [r for r in csv.reader(l for l in open(f) if not l.startswith("#"))]
    ra, rb = rows(fa), rows(fb)
    hdr = ra[0]
    lat = [i for i, c in enumerate(hdr) if c in ("cyc_per_iter", "latency_cyc")]
    keys = [i for i, c in enumerate(hdr) if c in ("inst", "shape", "a_type", "c_type", "operands", "data",
            "scope", "blocks", "warps", "ilp", "iters", "op", "num", "trans", "width_bytes", "ways",
            "path", "pattern", "array_bytes", "stride_bytes", "load", "level", "sm", "step")]
    same_keys = len(ra) == len(rb) and all([r[i] for i in keys] == [s[i] for i in keys] for r, s in zip(ra[1:], rb[1:]))
    worst = 0.0
    for r, s in zip(ra[1:], rb[1:]):
        for i in lat:
            x, y = float(r[i]), float(s[i])
            if x > 0:
                worst = max(worst, abs(y - x) / x)
    ok = same_keys and worst <= 0.01
    bad |= not ok
    print(f"{os.path.basename(fa):14s} rows A {len(ra)-1:6d} B {len(rb)-1:6d}  same points: {same_keys}  "
          f"largest latency difference {100*worst:.2f} %  {'ok' if ok else 'DIFFERENT'}")
sys.exit(1 if bad else 0)
PY
