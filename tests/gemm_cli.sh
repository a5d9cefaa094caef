#!/bin/sh
# gemm_cli.sh - `gpucal predict gemm` as a user calls it: --batch and
# --layout, the JSON listing each kernel with the GPU time apart from the
# launch, the clock it assumed, and one-line exit-2 errors for bad
# arguments. Needs $GPUCAL (set by ctest).
. "$(dirname "$0")/lib.sh"
G=$GPUCAL

run $G predict gemm --m 256 --n 256 --k 16384 --dtype f16 --arch hopper-h100 --format json
expect_rc 0 "large K"
expect_out '"role": "main", "name": "wgmma\+tma_f16_[0-9]+x[0-9]+x64_splitK"' "split-K main kernel"
expect_out '"role": "reduce", "name": "splitk-reduce_f16", "library": "splitk-reduce_f16@8,16,1@32,16,1@32"' "reduction kernel"
# the launch is reported apart: the host's share of what the arch file
# measured (the event-timed launch less the GPU's own per-kernel cost)
L=$(sed -n 's/^  launch_overhead_us: {value: \([0-9.]*\),.*/\1/p' "$GC_SRC/arch/hopper-h100.yaml")
F=$(sed -n 's/^  kernel_floor_us: {value: \([0-9.]*\),.*/\1/p' "$GC_SRC/arch/hopper-h100.yaml")
[ -n "$L" ] && [ -n "$F" ] || fail "no launch_overhead_us or kernel_floor_us in arch/hopper-h100.yaml"
H=$(awk -v l="$L" -v f="$F" 'BEGIN { printf "%.6g", l - f }' | sed 's/\./\\./')
expect_out "^  \"launch_us\": $H,\$" "launch apart"
expect_out '^  "clock_source": "sm\.clock_tensor_mhz' "clock stated"
run $G predict gemm --m 512 --n 512 --k 512 --dtype bf16 --batch 32 --layout tn --arch hopper-h100
expect_rc 0 "batched tn"
expect_out '^gemm 512x512x512 bf16, batch 32, layout tn, on hopper-h100: [0-9.]+ us on the GPU' "batched text"
run $G predict gemm --m 4095 --n 4095 --k 4095 --dtype f16 --arch hopper-h100
expect_rc 0 "unaligned"
expect_out 'rule: 2-byte alignment \(cp\.async needs 4\): mma\.sync, 2-byte loads' "unaligned rule"
run $G predict gemm --m 1 --n 4096 --k 4096 --dtype f32 --arch hopper-h100
expect_rc 0 "gemv"; expect_out 'main   gemv_f32' "gemv kernel"

run $G predict gemm --m 64 --n 64 --k 64 --dtype f16 --batch 0 --arch hopper-h100
expect_rc 2 "batch 0"; expect_err_lines 1 "batch 0"; expect_err -- "--batch" "batch 0 named"
run $G predict gemm --m 64 --n 64 --k 64 --dtype f16 --layout nx --arch hopper-h100
expect_rc 2 "bad layout"; expect_err_lines 1 "bad layout"; expect_err "unknown --layout 'nx'" "layout"
run $G predict gemm --m 64 --n 64 --k 4095 --dtype f8e4m3 --layout nt --arch hopper-h100
expect_rc 2 "f8 unaligned"; expect_err_lines 1 "f8 unaligned"; expect_err "multiples of 16 bytes" "f8"
run $G predict stream --op copy --bytes 4096 --batch 2 --arch hopper-h100
expect_rc 2 "batch on stream"; expect_err -- "--batch belongs to" "batch elsewhere"
# the board's power (hopper-h200 holds the power model, from its measured
# clock trace): a 16384^3 f16 GEMM draws more than the 700 W limit at the
# activity clock, so it runs at the clock that draws the limit; a 512^3 one
# (3 us, shorter than a host's launch period) keeps the activity clock; an
# arch without the power keys (hopper-h100) reports no draw
run $G predict gemm --m 16384 --n 16384 --k 16384 --dtype f16 --arch hopper-h200 --format json
expect_rc 0 "power-limited gemm"
expect_out '^  "clock_source": "sm\.power_limit_w' "the power limit holds the clock"
pw=$(sed -n 's/^  *"power_w": \([0-9.e+-]*\),$/\1/p' "$out" | head -n 1)
awk -v p="$pw" 'BEGIN { exit !(p > 699 && p < 701) }' || fail "power_w $pw is not the 700 W limit"
mhz=$(sed -n 's/^  "clock_mhz": \([0-9.e+-]*\),$/\1/p' "$out" | head -n 1)
awk -v f="$mhz" 'BEGIN { exit !(f > 1200 && f < 1499.9) }' || fail "clock $mhz not below the full wgmma load's 1499.9 MHz"
run $G predict gemm --m 512 --n 512 --k 512 --dtype f16 --arch hopper-h200 --format json
expect_rc 0 "gemm under the limit"
expect_out '^  "clock_source": "sm\.tensor_clock at activity' "activity clock under the limit"
run $G predict gemm --m 16384 --n 16384 --k 16384 --dtype f16 --arch hopper-h100 --format json
expect_rc 0 "no power model"
expect_out '^ *"power_w": null,$' "power_w null without the keys"
# --period-us: the same GEMM started once a second leaves the GPU idle
# between, under the limit: the activity clock again; through the batch too
run $G predict gemm --m 16384 --n 16384 --k 16384 --dtype f16 --arch hopper-h200 --period-us 1e6 --format json
expect_rc 0 "period"
expect_out '^  "clock_source": "sm\.tensor_clock at activity' "no limit once a second"
echo '{"template": "gemm", "m": 16384, "n": 16384, "k": 16384, "dtype": "f16", "arch": "hopper-h200", "period_us": 1e6}' >"$T/p.jsonl"
run $G predict --batch "$T/p.jsonl"
expect_rc 0 "batch period"
expect_out '"clock_source": "sm\.tensor_clock at activity' "batch period_us used"
run $G predict gemm --m 64 --n 64 --k 64 --dtype f16 --arch hopper-h200 --period-us 0
expect_rc 2 "period 0"; expect_err_lines 1 "period 0"; expect_err -- "--period-us takes" "period named"
run $G predict softmax --rows 64 --cols 64 --dtype f16 --arch hopper-h200 --period-us x
expect_rc 2 "period x (operator)"; expect_err_lines 1 "period x"; expect_err -- "--period-us takes" "op period named"
echo '{"template": "gemm", "m": 64, "n": 64, "k": 64, "dtype": "f16", "arch": "hopper-h200", "period_us": -1}' >"$T/p.jsonl"
run $G predict --batch "$T/p.jsonl"
expect_rc 2 "batch bad period"; expect_out '"error": "\\"period_us\\" takes a number above 0' "batch period refused"
finish
