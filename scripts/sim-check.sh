#!/bin/sh
# sim-check.sh [ARCH...] - run gpucal's microbenchmark traces through the real Accel-Sim with
# gpucal's exported config, and compare what the simulator produces with the arch file's figure.
#
# Builds the simulator from ../shared/reference/accel-sim/src (build.sh) into build-sim/ the
# first time (cached: later runs reuse build-sim/.../accel-sim.out), exports every shipped arch
# that exports (or the ARCHs named) with `gpucal export accel-sim --traces`, runs each
# benchmark's kernelslist.g, and prints one row per benchmark:
#   arch, benchmark, unit, arch-file figure, simulated, error %, ok
# then `sim-check: N of M within tolerance` (latency 3 %, throughput 10 %). Exit 0 when all are
# within tolerance, 1 otherwise; without the simulator sources it prints
# `sim-check: skipped (no simulator sources)` and exits 0.
# Env: GPUCAL (default build/gpucal), SIM_DIR (default build-sim), SIM_SRC (the simulator
# sources, default ../shared/reference/accel-sim/src).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
src=${SIM_SRC:-$root/../shared/reference/accel-sim/src}
G=${GPUCAL:-$root/build/gpucal}
SIM=${SIM_DIR:-$root/build-sim}
if [ ! -f "$src/build.sh" ]; then
    echo "sim-check: skipped (no simulator sources)"
    exit 0
fi
[ -x "$G" ] || { echo "sim-check: $G not found: build gpucal first (or set GPUCAL)" >&2; exit 2; }
bin=$SIM/accel-sim-framework/gpu-simulator/bin/release/accel-sim.out
if [ ! -x "$bin" ]; then
    mkdir -p "$SIM"
    echo "sim-check: building the simulator into $SIM (once; log $SIM/build.log)" >&2
    nice sh "$src/build.sh" "$SIM" >"$SIM/build.log" 2>&1 ||
        { tail -5 "$SIM/build.log" >&2; echo "sim-check: simulator build failed" >&2; exit 2; }
fi
lib=$(ls -d "$SIM"/gpgpu-sim_distribution/lib/*/*/release 2>/dev/null | head -1)
[ -n "$lib" ] || { echo "sim-check: no GPGPU-Sim libcudart under $SIM/gpgpu-sim_distribution/lib" >&2; exit 2; }

work=$SIM/check
mkdir -p "$work"
if [ $# -gt 0 ]; then archs=$*; else archs=$("$G" arch list | awk '$1 != "NAME" { print $1 }'); fi

# run_bench DIR: simulate DIR/kernelslist.g with the configs two levels up; DIR/cycles gets
# the two kernels' gpu_sim_cycle
run_bench() {
    (cd "$1" && LD_LIBRARY_PATH=$lib nice "$bin" -trace ./kernelslist.g -config ../../gpgpusim.config \
        -config ../../trace.config >sim.log 2>&1) || true
    awk '/^gpu_sim_cycle = / { print $3 }' "$1/sim.log" >"$1/cycles"
}

printf '%-16s %-12s %-8s %12s %12s %8s  %s\n' arch benchmark unit arch_file simulated error_pct ok
: >"$work/rows"
for a in $archs; do
    out=$work/$a
    if ! "$G" export accel-sim --arch "$a" -o "$out" --force --traces >"$work/$a.export.log" 2>&1; then
        echo "note: $a does not export: $(tail -1 "$work/$a.export.log")" >&2
        continue
    fi
    benches=$(awk -F'\t' '!/^#/ && $1 != "bench" { print $1 }' "$out/traces/manifest.tsv")
    for b in $benches; do
        run_bench "$out/traces/$b"
        awk -F'\t' -v a="$a" -v b="$b" -v cf="$out/traces/$b/cycles" '
            BEGIN { n = 0; while ((getline c < cf) > 0) cyc[n++] = c }
            $1 == b {
                sim = "-"; err = "-"; ok = "no"
                if (n == 2 && cyc[1] > cyc[0]) {
                    d = (cyc[1] - cyc[0]) / ($5 - $4)
                    if ($2 == "cyc") s = d; else s = $6 / d
                    if ($2 == "gbs") s = s * $7 / 1000
                    e = 100 * (s - $3) / $3
                    tol = ($2 == "cyc") ? 3 : 10
                    sim = sprintf("%.2f", s); err = sprintf("%+.1f", e)
                    ok = (e <= tol && e >= -tol) ? "yes" : "no"
                }
                printf "%-16s %-12s %-8s %12.2f %12s %8s  %s\n", a, b, $2, $3, sim, err, ok
            }' "$out/traces/manifest.tsv" | tee -a "$work/rows"
    done
done
m=$(wc -l <"$work/rows")
n=$(awk '$NF == "yes"' "$work/rows" | wc -l)
echo "sim-check: $n of $m within tolerance"
[ "$n" -eq "$m" ] && [ "$m" -gt 0 ]
