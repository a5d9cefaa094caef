#!/bin/sh
# sim_check.sh - scripts/sim-check.sh without the simulator's sources says it skipped and
# exits 0 (CI machines without shared/); with them it is run by hand or by the lead's test
# command (it builds the simulator, minutes). Also: the script's arithmetic on a fake
# simulator whose kernels take a known number of cycles.
. "$(dirname "$0")/lib.sh"
S=$GC_SRC/scripts/sim-check.sh
run env SIM_SRC="$T/none" GPUCAL="$GPUCAL" sh "$S"; expect_rc 0 "no sources"
expect_out '^sim-check: skipped \(no simulator sources\)$' "no sources"
expect_err_lines 0 "no sources"

# sources but no simulator built and no CUDA toolkit to build it against: skipped, says where
mkdir -p "$T/src0"
echo 'exit 1' >"$T/src0/build.sh"
run env SIM_SRC="$T/src0" SIM_DIR="$T/sim0" CUDA_INSTALL_PATH="$T/nocuda" GPUCAL="$GPUCAL" sh "$S"
expect_rc 0 "no CUDA"
expect_out "^sim-check: skipped \\(no CUDA toolkit at $T/nocuda: " "no CUDA"
[ ! -d "$T/sim0" ] || fail "no CUDA: build-sim made anyway"

# a fake simulator: each kernel takes 100 + 5 x its steps cycles (the steps are the first
# warp's instructions less its EXIT), so every latency benchmark simulates 5 cycles a step
mkdir -p "$T/src" "$T/sim/accel-sim-framework/gpu-simulator/bin/release" \
    "$T/sim/gpgpu-sim_distribution/lib/gcc/cuda/release"
echo 'exit 1' >"$T/src/build.sh"
F=$T/sim/accel-sim-framework/gpu-simulator/bin/release/accel-sim.out
cat >"$F" <<'SIM'
#!/bin/sh
d=$(dirname "$2")
for k in $(grep '^kernel' "$2"); do
    awk '/^insts = / { print "gpu_sim_cycle = " 100 + 5 * ($3 - 1); exit }' "$d/$k"
done
SIM
chmod +x "$F"
run env SIM_SRC="$T/src" SIM_DIR="$T/sim" GPUCAL="$GPUCAL" GPUCAL_ARCH_DIR="$GC_SRC/tests/fixtures/export/arch" \
    sh "$S" test-export
expect_rc 1 "fake simulator: misses"
# FFMA: the export writes the shortest latency (its initiation interval 1) and the manifest's
# floor is 1 + 4 = 5: simulated at exactly that, the row says floor; IMAD's floor is 6 (its
# initiation interval is 2), so 5 there is no floor but a miss
expect_out '^test-export +ffma_chain +cyc +4\.20 +5\.00 +\+19\.0  floor$' "ffma row"
expect_out '^test-export +imad_chain +cyc +4\.50 +5\.00 +\+11\.1  no$' "imad row"
expect_out '^test-export +smem_chase +cyc +29\.10 +5\.00 +-82\.8  no$' "smem row"
expect_out "^sim-check: 0 of 9 within tolerance, 1 more at the simulator's floor \\(model/export/export\\.md\\)$" "summary"
finish
