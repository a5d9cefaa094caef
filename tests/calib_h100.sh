#!/bin/sh
# calib_h100.sh - the shipped arch/hopper-h100.yaml is what `gpucal calib`
# makes from the committed H100 traces: re-running the recorded command (in a
# scratch folder that sees the repository's traces/ under the same relative
# path) reproduces the file byte for byte, the file validates with a source
# on every value, and the headline figures are there with intervals.
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
SHIPPED=$GC_SRC/arch/hopper-h100.yaml
[ -f "$SHIPPED" ] || { echo "FAIL: $SHIPPED is missing"; exit 1; }
[ -d "$GC_SRC/traces/h100" ] || { echo "FAIL: $GC_SRC/traces/h100 is missing"; exit 1; }

cmd=$(sed -n 's/^  command: //p' "$SHIPPED")
[ "$cmd" = "gpucal calib traces/h100 -o arch/hopper-h100.yaml --name hopper-h100" ] ||
    fail "unexpected provenance command: $cmd"
mkdir -p "$T/w/arch"
ln -s "$GC_SRC/traces" "$T/w/traces"
(cd "$T/w" && "$G" calib traces/h100 -o arch/hopper-h100.yaml --name hopper-h100 -q) \
    >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "the recorded command failed (exit $rc): $(grep -v warning "$T/err" | head -3)"
cmp -s "$T/w/arch/hopper-h100.yaml" "$SHIPPED" ||
    fail "re-running the recorded command does not reproduce arch/hopper-h100.yaml (regenerate it)"

run $G arch validate --require-sources "$SHIPPED"
expect_rc 0 "validate"

# the headline figures of issue 5: near/far hit/miss and the tensor pipe, with intervals
tr '\n' ' ' <"$SHIPPED" | sed 's/  */ /g' >"$T/flat"
for k in near_hit_cyc far_hit_cyc near_miss_cyc far_miss_cyc; do
    grep -Eq " $k: \{value: [0-9.]+, ci95: \[[0-9.]+, [0-9.]+\], source: 'traces/h100/pchase_fine.csv: k-means cluster" "$T/flat" ||
        fail "memory.l2.$k missing or without interval"
done
grep -Eq "inst: mma shape: m16n8k16 a: f16 c: f32 data: rand sass: HMMA.16816.F32 latency_cyc: \{value: [0-9.]+, ci95: [^}]*\} issue_cyc: \{value: [0-9.]+, ci95: " "$T/flat" ||
    fail "tensor[mma m16n8k16 f16.f32 rand]: latency and issue with intervals"
grep -Eq "^  sub_cores: \{value: 4, " "$SHIPPED" || fail "sm.sub_cores is not 4"
finish
