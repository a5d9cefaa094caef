"""Reduce diag.sh's SASS export (ncu --page source --print-source sass --csv: one block per
profiled kernel, each instruction with its counters) to one small text file per kernel:

  python3 sass_post.py SASS.csv IDS.txt OUTDIR [--seed]
  python3 sass_post.py --opcodes OUTDIR OUT.csv
  python3 sass_post.py --stalls SASS.csv IDS.txt OUT.csv [--seed]

The second form counts, for every OUTDIR/*.sass, the warp instructions executed per opcode
(the mnemonic without its modifiers: FFMA, LDG, SHFL, ...) into OUT.csv: file, kernel,
opcode, executed, share_pct. The third writes each kernel's stall samples by opcode and
reason (stalls()).

OUTDIR/<id>.<k>.sass (k-th kernel of that validation row; --seed: seed002.<k>.sass) holds a
header (the kernel's name, its instruction total) and one line per SASS instruction:
offset (hex, from the kernel's first instruction), warp instructions executed, stall samples
(all), the instruction. Loops show as runs of equal counts. The marker kernel (bitwise_not)
that opens each row is dropped; ncu prints each kernel's block twice, the copy is dropped.
stdlib only."""

import csv
import os
import sys

csv.field_size_limit(1 << 30)


def blocks(path):
    """Yields (kernel name, rows) for each kernel block of the export."""
    name, rows, hdr = None, [], None
    for rec in csv.reader(open(path)):
        if rec and rec[0] == "Kernel Name":
            if name is not None:
                yield name, hdr, rows
            name, rows, hdr = rec[1], [], None
        elif rec and rec[0] == "Address":
            hdr = rec
        elif rec and hdr:
            rows.append(rec)
    if name is not None:
        yield name, hdr, rows


def opcodes(outdir, out):
    """Per-opcode executed counts of every .sass file in outdir, written to out."""
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["file", "kernel", "opcode", "executed", "share_pct"])
        for fn in sorted(os.listdir(outdir)):
            if not fn.endswith(".sass"):
                continue
            cnt, name = {}, ""
            for line in open(os.path.join(outdir, fn)):
                if line.startswith("# kernel: "):
                    name = line[10:].strip()[:120]
                if line.startswith("#"):
                    continue
                parts = line.split(None, 3)
                if len(parts) < 4 or not parts[1].isdigit():
                    continue
                ins = parts[3].split()
                if ins and ins[0].startswith("@"):
                    ins = ins[1:]
                op = ins[0].split(".")[0] if ins else "?"
                cnt[op] = cnt.get(op, 0) + int(parts[1])
            tot = sum(cnt.values()) or 1
            for op, n in sorted(cnt.items(), key=lambda x: -x[1]):
                if n:
                    w.writerow([fn, name, op, n, "%.2f" % (100.0 * n / tot)])


def kernels(path, ids, seed):
    """Yields (row id, k, kernel name, header, rows) for the k-th kernel of each validation
    row (seed: every kernel is seed002's): the marker kernel (bitwise_not) that opens each
    row is dropped, and the copy ncu prints of each block."""
    k, seen, per = -1, None, {}
    for name, hdr, rows in blocks(path):
        key = (name, len(rows), rows[0][0] if rows else "")
        if key == seen:
            continue  # ncu prints each block twice
        seen = key
        if "bitwise_not" in name:
            k += 1
            continue
        rid = "seed002" if seed else (ids[k] if 0 <= k < len(ids) else None)
        if rid is None:
            continue
        per[rid] = per.get(rid, 0) + 1
        yield rid, per[rid], name, hdr, rows


def opcode_of(source):
    """The mnemonic of a SASS line without its predicate and modifiers (LDG, HMMA, ...)."""
    ins = [t for t in source.split() if not t.startswith("@")]
    return ins[0].split(".")[0] if ins else "?"


def stalls(path, ids, seed, out):
    """Stall samples of each kernel by opcode and reason (ncu's stall_* columns, all
    samples) into out: id, k, kernel, opcode, reason, samples, share_pct of the kernel's
    samples. No instruction text: the listings of closed libraries stay out of the tree."""
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "k", "kernel", "opcode", "reason", "samples", "share_pct"])
        for rid, k, name, hdr, rows in kernels(path, ids, seed):
            cols = [(i, h[6:]) for i, h in enumerate(hdr)
                    if h.startswith("stall_") and "Not Issued" not in h]
            src = hdr.index("Source")
            agg = {}
            for r in rows:
                op = opcode_of(r[src])
                for i, reason in cols:
                    v = float(r[i] or 0)
                    if v:
                        agg[(op, reason)] = agg.get((op, reason), 0) + v
            tot = sum(agg.values()) or 1
            for (op, reason), v in sorted(agg.items(), key=lambda x: -x[1]):
                w.writerow([rid, k, name[:120], op, reason, "%g" % v, "%.2f" % (100 * v / tot)])


def main(argv):
    if argv[1] == "--opcodes":
        opcodes(argv[2], argv[3])
        return 0
    seed = "--seed" in argv
    argv = [a for a in argv if a != "--seed"]
    if argv[1] == "--stalls":
        ids = [x.strip() for x in open(argv[3]) if x.strip()]
        stalls(argv[2], ids, seed, argv[4])
        return 0
    path, ids_path, outdir = argv[1:4]
    ids = [x.strip() for x in open(ids_path) if x.strip()]
    os.makedirs(outdir, exist_ok=True)
    for rid, k, name, hdr, rows in kernels(path, ids, seed):
        ie = hdr.index("Instructions Executed")
        st = hdr.index("Warp Stall Sampling (All Samples)")
        base = int(rows[0][0], 16) if rows else 0
        total = sum(int(r[ie] or 0) for r in rows)
        with open(os.path.join(outdir, "%s.%d.sass" % (rid, k)), "w") as f:
            f.write("# kernel: %s\n# warp instructions executed: %d (all SMs)\n" % (name, total))
            f.write("# offset  executed  stall_samples  instruction\n")
            for r in rows:
                f.write("%06x %10s %6s  %s\n" % (int(r[0], 16) - base, r[ie], r[st], r[1].strip()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
