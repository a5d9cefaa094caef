"""Turn `ncu --import R --csv --page raw` output into ncu.csv rows (stdlib).

  python3 ncu_post.py ops RAW.csv ARGS_FILE GEMM_CSV OPS_CSV OUT.csv
  python3 ncu_post.py seed RAW.csv EVENTS.csv OUT.csv

ops: kernels are attributed to rows by the marker kernel (name holding
'bitwise_not') that bench.py --ncu launches before each args line; a row's
id is looked up in the gemm/ops CSVs by its args string.
Every value is converted to base units named in the column (us, hz, bytes).
"""

import csv
import sys

METRICS = ["gpu__time_duration.sum", "sm__cycles_elapsed.avg.per_second",
           "launch__grid_size", "launch__block_size",
           "launch__registers_per_thread",
           "launch__shared_mem_per_block_static",
           "launch__shared_mem_per_block_dynamic",
           "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum"]

SCALE = {"": 1.0, "byte": 1.0, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9,
         "Tbyte": 1e12, "KiB": 1024.0, "MiB": 1048576.0,
         "nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3, "second": 1e6,
         "ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6, "Hz": 1.0,
         "KHz": 1e3, "MHz": 1e6, "GHz": 1e9, "B": 1.0,
         "hz": 1.0, "Khz": 1e3, "Mhz": 1e6, "Ghz": 1e9,
         "cycle/second": 1.0, "cycle/nsecond": 1e9, "cycle/usecond": 1e6,
         "cycle/msecond": 1e3, "register/thread": 1.0, "thread": 1.0,
         "block": 1.0, "byte/block": 1.0, "Kbyte/block": 1e3}

OUT_COLS = ["ncu_seq", "id", "args", "kernel", "grid", "block",
            "grid_size", "block_size", "regs_per_thread",
            "smem_static_bytes", "smem_dynamic_bytes", "gpu_time_us",
            "sm_clock_hz", "dram_read_bytes", "dram_write_bytes", "lts_bytes"]
MCOL = dict(zip(METRICS, ["gpu_time_us", "sm_clock_hz", "grid_size",
                          "block_size", "regs_per_thread",
                          "smem_static_bytes", "smem_dynamic_bytes",
                          "dram_read_bytes", "dram_write_bytes", "lts_bytes"]))


def value(raw, unit):
    """A raw ncu cell in its unit -> float in the column's base unit; None if
    not a number or the unit is unknown."""
    s = raw.replace(",", "").strip()
    try:
        v = float(s)
    except ValueError:
        return None
    if unit not in SCALE:
        return None
    return v * SCALE[unit]


def read_raw(path):
    """[dict] of kernels from ncu's raw CSV (header, units row, rows); lines
    before the header (==PROF== etc.) are skipped."""
    with open(path) as f:
        lines = [ln for ln in f if ln.startswith('"')]
    rd = list(csv.reader(lines))
    if len(rd) < 2:
        return []
    head, units = rd[0], rd[1]
    out = []
    for r in rd[2:]:
        d = {"kernel": r[head.index("Kernel Name")],
             "grid": r[head.index("Grid Size")].strip("()").replace(" ", ""),
             "block": r[head.index("Block Size")].strip("()").replace(" ", "")}
        for m in METRICS:
            if m in head:
                i = head.index(m)
                v = value(r[i], units[i])
                d[MCOL[m]] = "" if v is None else ("%.4f" % v).rstrip("0").rstrip(".")
            else:
                d[MCOL[m]] = ""
        out.append(d)
    return out


def attribute(kernels, args_lines):
    """(args, kernel) pairs: each marker kernel opens the next args line."""
    out, cur = [], -1
    for k in kernels:
        if "bitwise_not" in k["kernel"]:
            cur += 1
            continue
        out.append((args_lines[cur] if 0 <= cur < len(args_lines) else "", k))
    return out


def ids_by_args(paths):
    ids = {}
    for p in paths:
        try:
            with open(p) as f:
                for r in csv.DictReader(f):
                    ids[r["args"]] = r["id"]
        except OSError:
            pass
    return ids


def write(path, rows):
    with open(path, "w") as f:
        w = csv.DictWriter(f, OUT_COLS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def main(argv):
    if argv[1] == "ops":
        ks = read_raw(argv[2])
        lines = [x.strip() for x in open(argv[3]) if x.strip()]
        ids = ids_by_args(argv[4:6])
        rows = []
        for i, (a, k) in enumerate(attribute(ks, lines)):
            k.update({"ncu_seq": i, "args": a, "id": ids.get(a, "")})
            rows.append(k)
        write(argv[6], rows)
    else:
        seed(argv[2], argv[3], argv[4])


SEED_COLS = ["kernel", "m", "n", "k", "grid", "block", "regs_per_thread",
             "smem_static_bytes", "smem_dynamic_bytes", "ncu_launches",
             "ncu_time_us_median", "sm_clock_hz_median", "dram_read_bytes",
             "dram_write_bytes", "lts_bytes", "event_median_us",
             "event_min_us", "event_loop_mean_us", "reps", "rel_err"]


def med(xs):
    s = sorted(float(x) for x in xs if x != "")
    if not s:
        return ""
    n = len(s)
    v = s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])
    return ("%.4f" % v).rstrip("0").rstrip(".")


def seed(raw, events, out):
    """seed002.csv: per kernel (1.0 .. 3.1) the ncu medians over its launches
    joined with seed002_time's event timings."""
    by = {}
    for k in read_raw(raw):
        tag = k["kernel"].split("(")[0].replace("mma_matmul_", "").replace("_", ".")
        by.setdefault(tag, []).append(k)
    ev = {}
    try:
        with open(events) as f:
            for r in csv.DictReader(f):
                ev[r["kernel"]] = r
    except OSError:
        pass
    rows = []
    for tag in sorted(set(by) | set(ev)):
        ks, e = by.get(tag, []), ev.get(tag, {})
        r = {c: e.get(c, "") for c in SEED_COLS}
        r["kernel"] = tag
        if ks:
            r.update({"grid": ks[0]["grid"], "block": ks[0]["block"],
                      "ncu_launches": len(ks)})
            for c in ("regs_per_thread", "smem_static_bytes",
                      "smem_dynamic_bytes", "dram_read_bytes",
                      "dram_write_bytes", "lts_bytes"):
                r[c] = med([k[c] for k in ks])
            r["ncu_time_us_median"] = med([k["gpu_time_us"] for k in ks])
            r["sm_clock_hz_median"] = med([k["sm_clock_hz"] for k in ks])
        rows.append(r)
    with open(out, "w") as f:
        w = csv.DictWriter(f, SEED_COLS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)


if __name__ == "__main__":
    main(sys.argv)
