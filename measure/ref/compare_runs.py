"""compare_runs.py - run-to-run stability of two gpucal-measure runs.
For every trace DIR1/<bench>.csv present in DIR2 too, compares the numeric
cells row by row (data rows in file order, same column): a value "moves"
when |a - b| > 1 % of max(|a|, |b|) (cells both 0 never move). Prints the
share that moves, per (bench, column) the count, the 25 largest moves, and
the headline figures of both runs (bw: best global read, write, copy, L2
16-byte bytes/clk; clock: memory and tensor clock). Usage:
python3 compare_runs.py DIR1 DIR2. Exit 0 (a report), 2 on bad usage."""
import os
import sys


def rows(path):
    """(columns, data rows as lists of strings) of a gpucal trace."""
    cols, out = None, []
    with open(path) as f:
        for ln in f:
            ln = ln.rstrip("\n")
            if not ln or ln.startswith("#"):
                continue
            if cols is None:
                cols = ln.split(",")
            else:
                out.append(ln.split(","))
    return cols or [], out


def num(s):
    try:
        v = float(s)
    except ValueError:
        return None
    return v if v == v and abs(v) != float("inf") else None


def headline(d):
    """The headline figures of one run folder, as {name: value}."""
    h = {}
    p = os.path.join(d, "bw.csv")
    if os.path.exists(p):
        cols, rs = rows(p)
        ci = {c: i for i, c in enumerate(cols)}
        for r in rs:
            lvl, op = r[ci["level"]], r[ci["op"]] if "op" in ci else "read"
            if lvl == "global" and op in ("read", "write", "copy", "r5w1"):
                k = "dram_%s_gbs" % op
                h[k] = max(h.get(k, 0), num(r[ci["gbs"]]) or 0)
            if lvl == "l2" and r[ci["width_bytes"]] == "16":
                h["l2_v4_bytes_clk"] = max(h.get("l2_v4_bytes_clk", 0), num(r[ci["bytes_clk"]]) or 0)
    p = os.path.join(d, "clock.csv")
    if os.path.exists(p):
        cols, rs = rows(p)
        if "load" in cols and "clock_mhz" in cols:
            for r in rs:
                h["clock_%s_mhz" % r[cols.index("load")]] = num(r[cols.index("clock_mhz")]) or 0
    return h


def main():
    if len(sys.argv) != 3:
        print("usage: compare_runs.py DIR1 DIR2")
        return 2
    d1, d2 = sys.argv[1], sys.argv[2]
    total, moved, per, big = 0, 0, {}, []
    for fn in sorted(os.listdir(d1)):
        if not fn.endswith(".csv") or not os.path.exists(os.path.join(d2, fn)):
            continue
        c1, r1 = rows(os.path.join(d1, fn))
        c2, r2 = rows(os.path.join(d2, fn))
        if c1 != c2 or len(r1) != len(r2):
            print("%s: different shape (%d vs %d rows)" % (fn, len(r1), len(r2)))
        for ra, rb in zip(r1, r2):
            for j, (a, b) in enumerate(zip(ra, rb)):
                x, y = num(a), num(b)
                if x is None or y is None or (x == 0 and y == 0):
                    continue
                total += 1
                rel = abs(x - y) / max(abs(x), abs(y))
                if rel > 0.01:
                    moved += 1
                    k = (fn[:-4], c1[j] if j < len(c1) else "?")
                    per[k] = per.get(k, 0) + 1
                    big.append((rel, fn[:-4], c1[j] if j < len(c1) else "?", ",".join(ra[:4]), x, y))
    print("STABILITY %d of %d numeric values move by > 1 %% (%.3f %%)"
          % (moved, total, 100.0 * moved / total if total else 0))
    for k, v in sorted(per.items(), key=lambda kv: -kv[1]):
        print("  %-14s %-18s %d" % (k[0], k[1], v))
    big.sort(reverse=True)
    for rel, b, c, key, x, y in big[:25]:
        print("  %5.1f %%  %s.%s [%s]: %g -> %g" % (100 * rel, b, c, key, x, y))
    h1, h2 = headline(d1), headline(d2)
    for k in sorted(set(h1) | set(h2)):
        a, b = h1.get(k, 0), h2.get(k, 0)
        rel = 100.0 * abs(a - b) / max(abs(a), abs(b)) if max(abs(a), abs(b)) > 0 else 0
        print("HEADLINE %-22s run1 %10.1f  run2 %10.1f  (%.2f %%)" % (k, a, b, rel))
    return 0


if __name__ == "__main__":
    sys.exit(main())
