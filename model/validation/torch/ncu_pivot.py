"""Pivot ncu's --csv output (one metric a line, as `ncu --metrics ... --csv` prints it) into one
row per kernel: ID, kernel (its name up to the first '<' or '('), then each metric's value in
the units ncu printed, commas dropped. Kernels whose name matches --skip (a regular expression)
are left out (PyTorch's input fills, cuDNN's padding, memsets). Rows are tagged with the ids
of --ids (one per remaining kernel, in order) when given.

  python3 ncu_pivot.py NCU.csv OUT.csv [--skip REGEX] [--ids a,b,c]

stdlib only."""
import csv
import io
import re
import sys


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    src, out = argv[0], argv[1]
    skip = ids = None
    rest = argv[2:]
    while rest:
        if rest[0] == "--skip" and len(rest) > 1:
            skip, rest = re.compile(rest[1]), rest[2:]
        elif rest[0] == "--ids" and len(rest) > 1:
            ids, rest = rest[1].split(","), rest[2:]
        else:
            sys.stderr.write("ncu_pivot.py: unknown argument %s\n" % rest[0])
            return 2
    lines = open(src).read().split("\n")
    start = [i for i, l in enumerate(lines) if l.startswith('"ID"')]
    if not start:
        sys.stderr.write("ncu_pivot.py: %s: no ncu CSV header (\"ID\",...)\n" % src)
        return 2
    kern, metrics = {}, []
    for r in csv.DictReader(io.StringIO("\n".join(lines[start[0]:]))):
        k = int(r["ID"])
        name = r["Kernel Name"]
        if skip and skip.search(name):
            continue
        kern.setdefault(k, {"kernel": re.split(r"[<(]", name.replace("void ", ""))[0]})
        m = r["Metric Name"]
        if m not in metrics:
            metrics.append(m)
        kern[k][m] = r["Metric Value"].replace(",", "")
    keys = sorted(kern)
    if ids and len(ids) != len(keys):
        sys.stderr.write("ncu_pivot.py: %d ids for %d kernels\n" % (len(ids), len(keys)))
        return 2
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "kernel"] + metrics)
        for i, k in enumerate(keys):
            w.writerow([ids[i] if ids else k, kern[k]["kernel"]] + [kern[k].get(m, "") for m in metrics])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
