#!/bin/sh
# sim-check.sh [ARCH...] - run gpucal's microbenchmark traces through the real Accel-Sim with
# gpucal's exported config, and compare what the simulator produces with the arch file's figure.
#
# Builds the simulator from ../shared/reference/accel-sim/src (build.sh) into build-sim/ the
# first time (cached: later runs reuse build-sim/.../accel-sim.out), exports every shipped arch
# that exports (or the ARCHs named) with `gpucal export accel-sim --traces`, runs each
# benchmark's kernelslist.g (SIM_JOBS at a time, default: the number of CPUs), and prints one
# row per benchmark:
#   arch, benchmark, unit, arch-file figure, simulated, error %, ok
# then `sim-check: N of M within tolerance` (latency 3 %, throughput 10 %). A latency chain whose
# figure is below the shortest chain the simulator can run with the exported initiation interval
# (the manifest's floor; model/export/export.md says why, from the simulator's source) shows
# `floor` when it simulates at exactly that floor, and the last line counts those apart. Exit 0
# when every row is within tolerance or at its floor, 1 otherwise; without the simulator
# sources it prints `sim-check: skipped (no simulator sources)` and exits 0, and so it does
# (naming the folder) where the simulator is not built yet and there is no CUDA toolkit to
# build it against.
# Env: GPUCAL (default build/gpucal), SIM_DIR (default build-sim), SIM_SRC (the simulator
# sources, default ../shared/reference/accel-sim/src), SIM_JOBS, CUDA_INSTALL_PATH (default
# /usr/local/cuda).
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
    # GPGPU-Sim builds against the CUDA toolkit's headers and asks its nvcc for the version
    cuda=${CUDA_INSTALL_PATH:-/usr/local/cuda}
    if [ ! -x "$cuda/bin/nvcc" ]; then
        echo "sim-check: skipped (no CUDA toolkit at $cuda: the simulator builds against it; set CUDA_INSTALL_PATH)"
        exit 0
    fi
    mkdir -p "$SIM"
    echo "sim-check: building the simulator into $SIM (once; log $SIM/build.log)" >&2
    PATH=$cuda/bin:$PATH CUDA_INSTALL_PATH=$cuda nice sh "$src/build.sh" "$SIM" >"$SIM/build.log" 2>&1 ||
        { tail -5 "$SIM/build.log" >&2; echo "sim-check: simulator build failed" >&2; exit 2; }
fi
lib=$(ls -d "$SIM"/gpgpu-sim_distribution/lib/*/*/release 2>/dev/null | head -1)
[ -n "$lib" ] || { echo "sim-check: no GPGPU-Sim libcudart under $SIM/gpgpu-sim_distribution/lib" >&2; exit 2; }
jobs=${SIM_JOBS:-$(nproc 2>/dev/null || echo 1)}

work=$SIM/check
mkdir -p "$work"
if [ $# -gt 0 ]; then archs=$*; else archs=$("$G" arch list | awk '$1 != "NAME" { print $1 }'); fi

# one benchmark: simulate DIR/kernelslist.g with the configs two levels up; DIR/cycles gets the
# two kernels' gpu_sim_cycle
cat >"$work/run1.sh" <<EOF
cd "\$1" || exit 0
LD_LIBRARY_PATH=$lib nice "$bin" -trace ./kernelslist.g -config ../../gpgpusim.config \\
    -config ../../trace.config >sim.log 2>&1
awk '/^gpu_sim_cycle = / { print \$3 }' sim.log >cycles
EOF

: >"$work/dirs"
ok_archs=""
for a in $archs; do
    out=$work/$a
    rm -rf "$out" # no cycle counts of an earlier run survive
    if ! "$G" export accel-sim --arch "$a" -o "$out" --force --traces >"$work/$a.export.log" 2>&1; then
        echo "note: $a does not export: $(tail -1 "$work/$a.export.log")" >&2
        continue
    fi
    ok_archs="$ok_archs $a"
    awk -F'\t' -v d="$out/traces" '!/^#/ && $1 != "bench" { print d "/" $1 }' \
        "$out/traces/manifest.tsv" >>"$work/dirs"
done
# the streams first: they take the longest
{ grep '/dram_read$' "$work/dirs" || true; grep -v '/dram_read$' "$work/dirs" || true; } |
    xargs -n 1 -P "$jobs" sh "$work/run1.sh"

printf '%-16s %-12s %-8s %12s %12s %8s  %s\n' arch benchmark unit arch_file simulated error_pct ok
: >"$work/rows"
for a in $ok_archs; do
    man=$work/$a/traces/manifest.tsv
    for b in $(awk -F'\t' '!/^#/ && $1 != "bench" { print $1 }' "$man"); do
        awk -F'\t' -v a="$a" -v b="$b" -v cf="$work/$a/traces/$b/cycles" '
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
                    if (e <= tol && e >= -tol) ok = "yes"
                    else if ($8 > 0 && s - $8 < 0.01 && $8 - s < 0.01) ok = "floor"
                }
                printf "%-16s %-12s %-8s %12.2f %12s %8s  %s\n", a, b, $2, $3, sim, err, ok
            }' "$man" | tee -a "$work/rows"
    done
done
m=$(wc -l <"$work/rows")
n=$(awk '$NF == "yes"' "$work/rows" | wc -l)
f=$(awk '$NF == "floor"' "$work/rows" | wc -l)
if [ "$f" -gt 0 ]; then
    echo "sim-check: $n of $m within tolerance, $f more at the simulator's floor (model/export/export.md)"
else
    echo "sim-check: $n of $m within tolerance"
fi
[ $((n + f)) -eq "$m" ] && [ "$m" -gt 0 ]
