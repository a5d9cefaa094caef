"""Where a kernel's warps spend their time, by code region, from a listing of
sass_post.py (offset, executed, stall samples, instruction):

  python3 sass_regions.py LISTING.sass [...]

Prints CSV: listing,warps,inst_per_warp,samples,start,loop,barrier,rest. start: the
instructions before the first one executed more often than the kernel's first
(the loop); loop: those executed more often; barrier: the two instructions after a BAR
(where the listings show the samples of warps waiting at it); rest: the others (the
epilogue). The
samples are ncu's warp-state samples (all), so each share is the part of the warps'
resident time spent there. stdlib only."""

import sys


def regions(path):
    rows = []
    for line in open(path):
        if line.startswith("#"):
            continue
        f = line.split(None, 3)
        if len(f) == 4:
            rows.append((int(f[0], 16), int(f[1]), int(f[2]), f[3].strip()))
    if not rows:
        sys.exit("sass_regions: %s: no instructions" % path)
    first = rows[0][1]
    out = {"start": 0, "loop": 0, "barrier": 0, "rest": 0}
    seen_loop, after_bar, inst = False, 0, 0
    for off, ex, smp, ins in rows:
        inst += ex
        if after_bar > 0:
            out["barrier"] += smp
            after_bar -= 1
        elif ex > first:
            seen_loop = True
            out["loop"] += smp
        elif not seen_loop:
            out["start"] += smp
        else:
            out["rest"] += smp
        if ins.split()[0].startswith("BAR") and ex > 0:
            after_bar = 2
    return first, inst, out


print("listing,warps,inst_per_warp,samples,start,loop,barrier,rest")
for p in sys.argv[1:]:
    warps, inst, o = regions(p)
    tot = sum(o.values())
    print("%s,%d,%.1f,%d,%d,%d,%d,%d" % (p.rsplit("/", 1)[-1], warps, inst / max(warps, 1), tot,
                                         o["start"], o["loop"], o["barrier"], o["rest"]))
