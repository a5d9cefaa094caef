#!/bin/sh
# sim_parse.sh - every shipped arch that exports goes through the real Accel-Sim (built by
# scripts/sim-check.sh into build-sim/, or SIM_DIR) with no warning: the simulator reads both
# files (an unknown option or a bad value ends it with "GPGPU-Sim ** ERROR"), runs a one-warp
# kernel of the export's own traces to completion, and prints no warning or error of its own
# (its dump of every option's description, lines starting with '-', is not one). Skipped
# (exit 77) where the simulator is not built.
. "$(dirname "$0")/lib.sh"
SIM=${SIM_DIR:-$GC_SRC/build-sim}
bin=$SIM/accel-sim-framework/gpu-simulator/bin/release/accel-sim.out
lib=$(ls -d "$SIM"/gpgpu-sim_distribution/lib/*/*/release 2>/dev/null | head -1)
if [ ! -x "$bin" ] || [ -z "$lib" ]; then
    echo "skipped: the simulator is not built ($bin; scripts/sim-check.sh builds it)"
    exit 77
fi
n=0
for a in $("$GPUCAL" arch list | awk '$1 != "NAME" { print $1 }'); do
    "$GPUCAL" export accel-sim --arch "$a" -o "$T/$a" --traces >"$T/$a.log" 2>&1 || continue
    n=$((n + 1))
    # the shortest kernel of the first benchmark: a one-warp chain
    b=$(awk -F'\t' '!/^#/ && $1 != "bench" { print $1; exit }' "$T/$a/traces/manifest.tsv")
    d=$T/$a/traces/$b
    echo kernel-1.traceg >"$d/one.g"
    (cd "$d" && LD_LIBRARY_PATH=$lib "$bin" -trace ./one.g -config ../../gpgpusim.config \
        -config ../../trace.config >sim.log 2>&1)
    rc=$?
    [ "$rc" -eq 0 ] || fail "$a: the simulator exited $rc ($(grep -m1 -i error "$d/sim.log"))"
    grep -q '^gpu_sim_cycle = [1-9]' "$d/sim.log" || fail "$a: the kernel did not run to completion"
    grep -q '^-gpgpu_n_clusters ' "$d/sim.log" || fail "$a: no option dump: the config was not read"
    if grep -v '^-' "$d/sim.log" | grep -Eqi 'warn|error'; then
        fail "$a: $(grep -v '^-' "$d/sim.log" | grep -Ei -m1 'warn|error')"
    fi
done
[ "$n" -ge 4 ] || fail "only $n shipped archs export (hopper-h100, hopper-h200, ampere-a100 and ada-rtx4090 should)"
finish
