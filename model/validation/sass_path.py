"""The dependent chain a lone warp waits through in a kernel's code, from a SASS listing with
executed counts (torch/sass_post.py's format: offset, warp instructions executed, stall samples,
instruction; model/validation/data/<gpu>/sass/ holds the shipped ones, and
data/h200/sass_cudnn_groups.csv this script's groups for cuDNN's kernels, whose listings are not
shipped).

  python3 sass_path.py FILE.sass [COUNT]   the instructions every warp executes COUNT times
                                           (default 1: the straight-line code run once a warp)
  python3 sass_path.py --groups FILE.sass  every group of instructions sharing an executed count
  python3 sass_path.py --taken N ...       also delay the instruction after a taken branch (a
                                           BRA the chosen instructions jump from) to N cycles
                                           after the branch's issue: 21 on the H200, where a
                                           lone warp's forward jump takes 22.3 cycles a step of
                                           setp, bra and a dependent IMAD and its loop trip
                                           29-31 (probe/branch_fwd.cu, branch_cost.cu). The
                                           templates' chains were read without it.

For the chosen instructions, in address order, each issues one cycle after the one before or
when its source registers are ready, whichever is later; a result is ready its latency after
issue. Latencies (cycles): integer and float ALU/FMA ops 4.1 (the alu bench's 1-warp ILP-1 rows
on the H200: ffma 4.114, imad 4.114, iadd3 4.13); MUFU 17 (mufu.* 17.004); LDS 23 and SHFL 23
(the smem bench's 4-byte latency, traces/h200/smem.csv:24, 23.002); LDSM 32 (its 16-byte
load, smem.csv:1036, 32.002); HMMA 24 (the mma bench's m16n8k16 f16 -> f32 1-warp ILP-1 row,
mma.csv:985, 24.028); LDG/LD/ATOM 643 (the DRAM chase, memory.dram.latency_cyc).
Not measured by gpucal, stand-ins: LDC/ULDC 30 and S2R/S2UR 20 (constant-bank and special-
register reads; the chains of the kernels the templates use change by <= 11 % with LDC at 4,
except sm80_xmma 64x32 (p010) whose chain halves). Stores, barriers and copies produce no
register a later instruction waits for here. Register pairs and quads (R4.64, .128 loads) count
as their registers; predicates (P, UP) as registers. Loops are not unrolled: a group run N times
a warp is one pass.

stdlib only."""

import collections
import re
import sys

ALU = 4.1
LAT = {"LDC": 30, "ULDC": 30, "S2R": 20, "S2UR": 20, "LDS": 23, "LDSM": 32, "SHFL": 23,
       "LDG": 643, "LD": 643, "ATOM": 643, "MUFU": 17, "HMMA": 24}
TAKEN = 0  # --taken N: a taken branch's issue to its target's, cycles (0: not counted)
NODST = ("STG", "STS", "ST", "RED", "BAR", "BRA", "EXIT", "LDGSTS", "DEPBAR", "MEMBAR", "RET",
         "CALL", "BSYNC", "BSSY", "WARPSYNC", "NOP", "UTMALDG", "UBLKCP", "SYNCS", "LDGDEPBAR")
SETP = ("ISETP", "FSETP", "HSETP2", "DSETP", "UISETP")


def regs(tok):
    """The registers an operand names (R4.64: R4 R5; .128: four)."""
    out = []
    for m in re.finditer(r'\b(U?R)(\d+)(?:\.(64|128))?\b|\b(U?P)(\d)\b', tok):
        if m.group(1):
            n, w = int(m.group(2)), {"64": 2, "128": 4}.get(m.group(3), 1)
            out += ["%s%d" % (m.group(1), n + i) for i in range(w)]
        else:
            out.append(m.group(4) + m.group(5))
    return out


def parse(ins):
    """(opcode base, registers written, registers read) of one instruction."""
    ins = ins.strip().rstrip(';')
    pred = []
    m = re.match(r'^@!?(U?P\w+)\s+', ins)
    if m:
        pred, ins = [m.group(1)], ins[m.end():]
    op, _, rest = ins.partition(' ')
    base = op.split('.')[0]
    ops = [o.strip() for o in rest.split(',')] if rest else []
    width = 4 if '.128' in op else 2 if '.64' in op else 1
    if base in SETP or base == "SHFL":  # two results first (SETP: predicates; SHFL: P, R)
        allr = [regs(o) for o in ops]
        return base, [x for r in allr[:2] for x in r], [x for r in allr[2:] for x in r] + pred
    dst, src = [], []
    for i, o in enumerate(ops):
        r = regs(o)
        if i == 0 and base not in NODST and not o.startswith('['):
            if r and width > 1 and r[0].startswith('R') and not o.endswith(('.64', '.128')):
                r = ["R%d" % (int(r[0][1:]) + k) for k in range(width)]
            dst += r
        else:
            src += r
    return base, dst, src + pred


def path(instructions):
    """Cycles from the first issue to the last for one warp running them in order.
    instructions: (offset, instruction) pairs; a BRA followed by an instruction that is not
    the next address (the warp jumped) delays that one's issue to TAKEN cycles after the
    branch's."""
    ready = collections.defaultdict(float)
    t = 0.0
    jumped_at = None
    prev_off = None
    for off, ins in instructions:
        base, dst, src = parse(ins)
        earliest = t + 1
        if jumped_at is not None and off != prev_off + 16:
            earliest = max(earliest, jumped_at + TAKEN)
        start = max([earliest] + [ready[s] for s in src])
        for d in dst:
            ready[d] = start + LAT.get(base, ALU)
        jumped_at = start if base == "BRA" else None
        prev_off = off
        t = start
    return t


def read(f):
    """[(executed, (offset, instruction))] of a listing; the first instruction's count is
    every warp's."""
    rows = []
    for line in open(f):
        if line.startswith('#'):
            continue
        p = line.split(None, 3)
        if len(p) == 4:
            ins = p[3].strip()
            rows.append((int(p[1]), (int(p[0], 16), ins)))
    return rows


def main(argv):
    global TAKEN
    if len(argv) >= 2 and argv[0] == "--taken":
        TAKEN = float(argv[1])
        argv = argv[2:]
    if len(argv) >= 2 and argv[0] == "--groups":
        rows = read(argv[1])
        g = collections.OrderedDict()
        for ex, ins in rows:
            if ex:
                g.setdefault(ex, []).append(ins)
        print("%s: %d warps" % (argv[1], rows[0][0] if rows else 0))
        for ex, ins in sorted(g.items(), key=lambda x: -len(x[1]) * x[0]):
            print("  executed %9d: %5d instructions, chain %6.0f cycles" % (ex, len(ins), path(ins)))
        return 0
    if not argv:
        sys.stderr.write(__doc__)
        return 2
    rows = read(argv[0])
    if not rows:
        sys.stderr.write("sass_path.py: %s: no instructions\n" % argv[0])
        return 2
    warps = float(rows[0][0])
    want = float(argv[1]) if len(argv) > 1 else 1.0
    ins = [i for ex, i in rows if abs(ex / warps - want) < 1e-6]
    cp = path(ins)
    print("%s: %d instructions run %g times a warp, chain %.0f cycles (%.2f an instruction)"
          % (argv[0], len(ins), want, cp, cp / max(1, len(ins))))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (OSError, ValueError, IndexError) as e:
        sys.stderr.write("sass_path.py: %s (usage: python3 sass_path.py [--taken N] [--groups] "
                         "FILE.sass [COUNT])\n" % e)
        sys.exit(2)
