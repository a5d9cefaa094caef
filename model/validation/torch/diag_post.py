"""Summarise diag.sh's ncu export: one row per profiled kernel, attributed to its validation
row (the k-th marker kernel, bitwise_not, opens the k-th line of args.txt).

  python3 diag_post.py OPS_RAW.csv IDS.txt ARGS.txt OUT.csv
  python3 diag_post.py --seed SEED_RAW.csv OUT.csv
  python3 diag_post.py --l2 OPS_RAW.csv IDS.txt ARGS.txt OUT.csv   (DIAG_MODE=l2's export)

Columns (units in the names): id, args, kernel, grid, block, regs, smem_dyn_bytes,
time_us (ncu's gpu__time_duration: caches flushed before each kernel, clocks left alone),
sm_mhz (gpc cycles over time), cycles (elapsed SM cycles), sm_active_pct (SM active cycles over
elapsed), warps_active_per_sched (achieved, averaged over active cycles), issue_pct (issue
slots busy per scheduler), inst_per_sched (warp instructions issued per scheduler),
cyc_per_issue (warp cycles per issued instruction), dram_bytes (read + written, from the
rate over the duration), waves, and the stall reasons in warp cycles per issued instruction
(stall_*).
With --l2: id, args, kernel, grid, cluster (launch__cluster_dim x.y.z; 0.0.0: launched
without), time_us, sm_mhz, cycles, l2_sm_read_bytes (L2 sectors the SMs' loads and TMA
read, lts__t_sectors_srcunit_tex_op_read x 32), l2_bytes (every L2 access, lts__t_bytes),
to_sm_bytes (what the crossbar delivered to the SMs, l1tex__m_xbar2l1tex_read_bytes: a
multicast load counts once per receiving SM), to_sm_per_l2_read (their ratio),
dram_read_bytes, ctas, and where ncu gave them the L2 request coalescer's (LRC) bytes:
lrc_from_l2_bytes (read sectors the L2 slices served it, lrc__lts2lrc), lrc_to_gpc_bytes (what
it delivered to the GPCs, lrc__xbar2gpc), lrc_req_hw_coalesced_bytes / lrc_req_multicast_bytes
(request sectors that were coalesced by the hardware, identical requests of several SMs, or
came as a multicast: lrc__request_sectors_op_read_coalescing_achieved_type_*), and
lrc_to_gpc_hw_bytes / lrc_to_gpc_multicast_bytes (what those delivered).
stdlib only."""

import csv
import sys

csv.field_size_limit(1 << 30)

STALLS = ["long_scoreboard", "short_scoreboard", "wait", "barrier", "math_pipe_throttle",
          "mio_throttle", "lg_throttle", "not_selected", "selected", "no_instruction",
          "branch_resolving", "dispatch_stall", "drain", "membar", "gmma", "sleeping",
          "tex_throttle", "misc", "imc_miss"]


def num(s):
    """The leading number of an ncu cell ('1,234.5 (…)' -> 1234.5); None when absent."""
    if s is None:
        return None
    s = s.strip().split(" (")[0].replace(",", "")
    try:
        return float(s)
    except ValueError:
        return None


def pick(row, *names):
    for n in names:
        v = num(row.get(n))
        if v is not None:
            return v
    return None


def summary(row):
    t_ns = pick(row, "gpu__time_duration.sum")
    cyc = pick(row, "gpc__cycles_elapsed.max", "sm__cycles_elapsed.max")
    out = {
        "kernel": row.get("Kernel Name", "")[:160],
        "grid": row.get("Grid Size", "").replace(" ", ""),
        "block": row.get("Block Size", "").replace(" ", ""),
        "regs": pick(row, "launch__registers_per_thread"),
        "smem_dyn_bytes": pick(row, "launch__shared_mem_per_block_dynamic"),
        "time_us": t_ns / 1e3 if t_ns else None,
        "sm_mhz": pick(row, "gpc__cycles_elapsed.avg.per_second") / 1e6
        if pick(row, "gpc__cycles_elapsed.avg.per_second") else None,
        "cycles": cyc,
        "sm_active_pct": None,
        "warps_active_per_sched": pick(row, "smsp__warps_active.avg.per_cycle_active"),
        "issue_pct": pick(row, "smsp__issue_active.avg.pct_of_peak_sustained_active"),
        "inst_per_sched": pick(row, "smsp__inst_executed.avg"),
        "cyc_per_issue": pick(row, "smsp__average_warp_latency_per_inst_issued.ratio"),
        "dram_bytes": pick(row, "dram__bytes.sum.per_second") * t_ns * 1e-9
        if t_ns and pick(row, "dram__bytes.sum.per_second") is not None else None,
        "waves": pick(row, "launch__waves_per_multiprocessor"),
    }
    act = pick(row, "sm__cycles_active.avg")
    if act is not None and cyc:
        out["sm_active_pct"] = 100 * act / cyc
    for s in STALLS:
        out["stall_" + s] = pick(row, "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio" % s)
    return out


def summary_l2(row):
    t_ns = pick(row, "gpu__time_duration.sum")
    f_hz = pick(row, "sm__cycles_elapsed.avg.per_second")
    rd = pick(row, "lts__t_sectors_srcunit_tex_op_read.sum")
    to_sm = pick(row, "l1tex__m_xbar2l1tex_read_bytes.sum")
    cl = [pick(row, "launch__cluster_dim_" + d) for d in "xyz"]
    return {
        "kernel": row.get("Kernel Name", "")[:160],
        "grid": row.get("Grid Size", "").replace(" ", ""),
        "cluster": ".".join("%d" % (c or 0) for c in cl),
        "time_us": t_ns / 1e3 if t_ns else None,
        "sm_mhz": f_hz / 1e6 if f_hz else None,
        "cycles": pick(row, "sm__cycles_elapsed.max"),
        "l2_sm_read_bytes": 32 * rd if rd is not None else None,
        "l2_bytes": pick(row, "lts__t_bytes.sum"),
        "to_sm_bytes": to_sm,
        "to_sm_per_l2_read": to_sm / (32 * rd) if rd and to_sm is not None else None,
        "dram_read_bytes": pick(row, "dram__bytes_read.sum"),
        "ctas": pick(row, "sm__ctas_launched.sum"),
        "lrc_from_l2_bytes": sectors(row, "lrc__lts2lrc_sectors_op_read.sum"),
        "lrc_to_gpc_bytes": sectors(row, "lrc__xbar2gpc_sectors_op_read.sum"),
        "lrc_req_hw_coalesced_bytes":
            sectors(row, "lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum"),
        "lrc_req_multicast_bytes":
            sectors(row, "lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum"),
        "lrc_to_gpc_hw_bytes":
            sectors(row, "lrc__xbar2gpc_sectors_op_read_coalescing_achieved_type_hardware.sum"),
        "lrc_to_gpc_multicast_bytes":
            sectors(row, "lrc__xbar2gpc_sectors_op_read_coalescing_achieved_type_programmatic.sum"),
    }


def sectors(row, name):
    """32 x a sector count of row (None when ncu did not give it)."""
    v = pick(row, name)
    return 32 * v if v is not None else None


def fmt(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return "%.4g" % v if abs(v) < 1e6 else "%.0f" % v
    return str(v)


def write(path, rows):
    keys = list(rows[0].keys())
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(keys)
        for r in rows:
            w.writerow([fmt(r[k]) for k in keys])


def main(argv):
    if argv[1] == "--seed":
        rows = [dict(id="seed", args="", **summary(r)) for r in csv.DictReader(open(argv[2]))
                if r.get("Kernel Name") and r["ID"].strip().isdigit()]
        write(argv[3], rows)
        return 0
    summ = summary
    if argv[1] == "--l2":
        summ, argv = summary_l2, argv[1:]
    raw, ids, args, out = argv[1:5]
    ids = [x.strip() for x in open(ids) if x.strip()]
    args = [x.strip() for x in open(args) if x.strip()]
    rows, k = [], -1
    for r in csv.DictReader(open(raw)):
        if not r.get("ID", "").strip().isdigit():
            continue  # the units row
        if "bitwise_not" in r.get("Kernel Name", ""):
            k += 1
            continue
        if k < 0 or k >= len(ids):
            continue
        rows.append(dict(id=ids[k], args=args[k], **summ(r)))
    write(out, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
