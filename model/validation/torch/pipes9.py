"""The pipes' and the LSU data path's busy shares of each kernel in a diag.sh ops_raw.csv (ncu
--page raw of its sections), one row a kernel of the profiled rows, tagged with the row ids of
ids.txt in order (kernels whose name matches --skip left out first).

  python3 pipes9.py OPS_RAW.csv IDS.txt OUT.csv [--skip REGEX]

stdlib only."""
import csv
import re
import sys

COLS = [("time_us", "gpu__time_duration.sum", 1e-3),
        ("tensor_pct", "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed", 1),
        ("lsu_wavefronts_pct", "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed", 1),
        ("issue_pct", "smsp__issue_active.avg.pct_of_peak_sustained_active", 1),
        ("xu_pct", "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active", 1),
        ("alu_pct", "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active", 1),
        ("fma_pct", "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", 1),
        ("l2_pct", "lts__throughput.avg.pct_of_peak_sustained_elapsed", 1),
        ("warps_active", "sm__warps_active.avg.per_cycle_active", 1)]


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    skip = re.compile(argv[4]) if len(argv) > 4 and argv[3] == "--skip" else None
    rows = list(csv.reader(open(argv[0])))
    idx = {c: i for i, c in enumerate(rows[0])}
    ids = open(argv[1]).read().split()
    kept = [r for r in rows[2:] if not (skip and skip.search(r[idx["Kernel Name"]]))]
    # a row may launch several kernels: the ids follow the rows, each kernel of a row
    # keeps the row's id when the count does not match one a row
    with open(argv[2], "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "kernel"] + [c[0] for c in COLS])
        for i, r in enumerate(kept):
            rid = ids[i] if len(kept) == len(ids) else ""
            name = re.split(r"[<(]", r[idx["Kernel Name"]].replace("void ", ""))[0]
            out = []
            for _, m, scale in COLS:
                v = r[idx[m]].replace(",", "") if m in idx else ""
                out.append("%.4g" % (float(v) * scale) if v else "")
            w.writerow([rid, name] + out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
