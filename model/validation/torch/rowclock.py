"""Align nvidia-smi samples with each row's profiled interval (stdlib).

  python3 rowclock.py SMI.csv ROW_TIMES.csv OUT.csv [UTC_OFFSET_S]

SMI.csv: `nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,
temperature.gpu --format=csv -lms 200` (timestamps in the device's local time,
UTC there; UTC_OFFSET_S shifts them if not).  ROW_TIMES.csv: `id,t_start,t_end`
in Unix seconds, written by bench.py around each row's profiled region.
OUT.csv: id, t_start_s, t_end_s, samples, sm_clock_mhz_median,
sm_clock_mhz_min, power_w_median, temp_c_max (empty where no sample fell in
the interval; rows shorter than the 200 ms sampling period often get none).
"""

import calendar
import csv
import sys
import time


def parse_smi(path, offset_s=0.0):
    """[(t_unix_s, sm_mhz, power_w, temp_c)] from nvidia-smi's CSV."""
    out = []
    with open(path) as f:
        for r in csv.reader(f):
            if len(r) < 5 or not r[0][:4].isdigit():
                continue
            try:
                ts, frac = r[0].strip().split(".")
                t = calendar.timegm(time.strptime(ts, "%Y/%m/%d %H:%M:%S"))
                t += float("0." + frac) - offset_s
                sm = float(r[1].split()[0])
                pw = float(r[3].split()[0])
                tc = float(r[4].strip())
            except (ValueError, IndexError):
                continue
            out.append((t, sm, pw, tc))
    return out


def med(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def main(argv):
    smi = parse_smi(argv[1], float(argv[4]) if len(argv) > 4 else 0.0)
    rows = []
    with open(argv[2]) as f:
        for r in csv.reader(f):
            if len(r) == 3 and r[0]:
                rows.append((r[0], float(r[1]), float(r[2])))
    with open(argv[3], "w") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "t_start_s", "t_end_s", "samples",
                    "sm_clock_mhz_median", "sm_clock_mhz_min",
                    "power_w_median", "temp_c_max"])
        for rid, t0, t1 in rows:
            s = [x for x in smi if t0 <= x[0] <= t1]
            if s:
                w.writerow([rid, "%.3f" % t0, "%.3f" % t1, len(s),
                            "%.0f" % med([x[1] for x in s]),
                            "%.0f" % min(x[1] for x in s),
                            "%.1f" % med([x[2] for x in s]),
                            "%.0f" % max(x[3] for x in s)])
            else:
                w.writerow([rid, "%.3f" % t0, "%.3f" % t1, 0, "", "", "", ""])


if __name__ == "__main__":
    main(sys.argv)
