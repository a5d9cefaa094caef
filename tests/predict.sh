#!/bin/sh
# predict.sh - `gpucal predict`: kernel files, the gemm and stream templates,
# output formats, the clock option, usage errors, warnings. Needs $GPUCAL
# and $GC_SRC (set by ctest).
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
K=$GC_SRC/model/kernels

# a description, options after the file; text names the kernel, the bound, the stack
run $G predict "$K/mma_matmul_3_1.yaml" --arch ada-rtx4090
expect_rc 0 "predict file"
expect_out '^mma_matmul_3_1 on ada-rtx4090: [0-9.]+ us \([0-9]+ cycles at 2710 MHz, tensor\[form\]\.clock_mhz\), tensor-bound$' "text head"
expect_out 'occupancy: 2 blocks/SM \(16 warps\), limited by (registers|shared)' "occupancy"
expect_out 'stall stack' "stack"
run $G predict "$K/mma_matmul_3_1.yaml" --arch ada-rtx4090 --verbose
expect_out 'tensor\[mma m16n8k16 f16.f32\].issue_cyc = 31.7' "derived issue interval (--verbose)"
# options first, json, a locked clock
run $G predict --arch ada-rtx4090 --clock 2520 --format json "$K/mma_matmul_2_1.yaml"
expect_rc 0 "predict json"
for key in '"schema": "gpucal-predict/1"' '"cycles": [0-9]' '"time_us": [0-9]' '"clock_mhz": 2520\.0' \
    '"clock_source": "--clock"' '"bound": "l2"' '"breakdown": \{"tensor": ' '"utilisation": \{' \
    '"occupancy": \{"blocks_per_sm": 4, "warps_per_sm": 32' '"derived": \['; do
    expect_out "$key" "json $key"
done
[ "$(grep -c '{' "$out")" -eq "$(grep -c '}' "$out")" ] || fail "json braces do not balance"

# every shipped description predicts on the shipped Hopper file, seed 002's on every
# Ampere, Ada and Hopper file
for f in "$K"/*.yaml; do
    run $G predict "$f" --arch hopper-h800 --format json
    expect_rc 0 "$(basename "$f") on hopper-h800"
done
for f in "$K"/mma_matmul_*.yaml; do
    for a in ampere-a100 ampere-rtx3070ti ada-rtx4090; do
        run $G predict "$f" --arch $a
        expect_rc 0 "$(basename "$f") on $a"
    done
done

# unknown keys: an error with the place and the closest known key
sed 's/^  trips: 128$/  trips: 128\n  colour: blue/' "$K/mma_matmul_2_1.yaml" >"$T/warn.yaml"
run $G predict "$T/warn.yaml" --arch ada-rtx4090
expect_rc 2 "unknown key"; expect_err_lines 1 "unknown key"
expect_err "warn.yaml:[0-9]+:3: unknown key 'loop.colour'; the keys here are: trips, stages, ops" "unknown key error"
sed 's/^  trips: 128$/  trps: 128/' "$K/mma_matmul_2_1.yaml" >"$T/typo.yaml"
run $G predict "$T/typo.yaml" --arch ada-rtx4090
expect_rc 2 "misspelt key"; expect_err "unknown key 'loop.trps' \(did you mean 'trips'\?\)" "misspelt key"

# parameters and expressions, --set, stdin, a kernel without a main loop, no registers
S=$K/softmax_params.yaml
run $G predict "$S" --arch hopper-h100
expect_rc 0 "params"; expect_out '^softmax_params on hopper-h100: ' "params head"
expect_out 'registers: [0-9]+ per thread, estimated' "registers estimated"
expect_out '4096 blocks' "grid from params"
run $G predict - --arch hopper-h100 --set ROWS=1024 --format json <"$S"
expect_rc 0 "stdin + --set"; expect_out '"blocks": 1024' "--set ROWS"
expect_out '"registers_estimated": true' "registers flagged in json"
run $G predict "$S" --arch hopper-h100 --set ROW=2
expect_rc 2 "--set unknown"; expect_err "no such parameter \(did you mean 'ROWS'\?\)" "--set suggestion"
run $G predict "$S" --arch hopper-h100 --set ROWS=1/0
expect_rc 2 "--set div0"; expect_err_lines 1 "--set div0"; expect_err "division by zero" "--set div0"
run $G predict "$S" --arch hopper-h100 --set ROWS=7/2
expect_rc 2 "fractional grid"; expect_err "must be a whole number of blocks" "fractional grid"
sed 's/COLS \/ THREADS/COLS \/ THREDS/' "$S" >"$T/badname.yaml"
run $G predict "$T/badname.yaml" --arch hopper-h100
expect_rc 2 "unknown name"; expect_err "unknown name 'THREDS' \(did you mean 'THREADS'\?\)" "name suggestion"
# the derived block only with --verbose
run $G predict "$S" --arch hopper-h100
grep -q derived "$out" && fail "a derived block without --verbose"

# usage errors: one line, exit 2
run $G predict "$K/mma_matmul_1_0.yaml"
expect_rc 2 "no arch"; expect_err_lines 1 "no arch"; expect_err '--arch NAME is required' "no arch"
run $G predict --arch ada-rtx4090
expect_rc 2 "no file"; expect_err 'missing KERNEL.yaml' "no file"
run $G predict "$K/mma_matmul_1_0.yaml" --arch ada-rtx4090 --format xml
expect_rc 2 "bad format"; expect_err "unknown --format 'xml'" "bad format"
run $G predict "$K/mma_matmul_1_0.yaml" --arch ada-rtx4090 --clock fast
expect_rc 2 "bad clock"; expect_err -- "--clock takes a clock in MHz" "bad clock"
run $G predict "$K/mma_matmul_1_0.yaml" --arch ada-rtx4090 --m 5
expect_rc 2 "gemm option on a file"; expect_err -- "--m belongs to \`gpucal predict gemm\`" "gemm option"
run $G predict "$T/nothing.yaml" --arch ada-rtx4090
expect_rc 2 "missing file"; expect_err_lines 1 "missing file"
run $G predict "$K/mma_matmul_1_0.yaml" --arch no-such-gpu
expect_rc 2 "unknown arch"; expect_err "no shipped arch named 'no-such-gpu'" "unknown arch"
run $G predict "$K/mma_matmul_1_0.yaml" "$K/mma_matmul_1_1.yaml" --arch ada-rtx4090
expect_rc 2 "two files"; expect_err "unexpected argument" "two files"

# gemm: the library path per architecture, and what it picked
run $G predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch hopper-h800
expect_rc 0 "gemm hopper"
expect_out 'wgmma\+tma, wgmma m64n(256|128|64)k16 f16\.f32 ss, block tile' "gemm hopper picks wgmma"
run $G predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch ada-rtx4090 --format json
expect_rc 0 "gemm ada"
expect_out '"template": \{"name": "gemm", "m": 4096, "n": 4096, "k": 4096, "dtype": "f16", "path": "mma\+cp\.async", "instruction": "mma m16n8k16 f16\.f32"' "gemm ada json"
run $G predict gemm --m 1000 --n 3000 --k 500 --dtype bf16 --arch ampere-a100
expect_rc 0 "gemm bf16 a100"
expect_out 'mma m16n8k16 bf16\.f32' "bf16 form"
run $G predict gemm --m 2048 --n 2048 --k 2048 --dtype f32 --arch hopper-h800
expect_rc 0 "gemm f32"; expect_out 'ffma' "f32 on CUDA cores"
run $G predict gemm --m 2048 --n 2048 --k 2048 --dtype f8e4m3 --arch turing-rtx2080ti
expect_rc 2 "f8 on turing"; expect_err_lines 1 "f8 on turing"; expect_err "has no tensor form" "f8 on turing"
run $G predict gemm --m 64 --n 64 --dtype f16 --arch hopper-h800
expect_rc 2 "gemm no k"; expect_err -- "--m, --n, --k and --dtype are required" "gemm no k"
run $G predict gemm --m 64 --n 64 --k 64 --dtype f64 --arch hopper-h800
expect_rc 2 "gemm bad dtype"; expect_err "unknown --dtype 'f64'" "gemm bad dtype"
run $G predict gemm --m 0 --n 64 --k 64 --dtype f16 --arch hopper-h800
expect_rc 2 "gemm m 0"
run $G predict gemm --m 64 --n 64 --k 64 --dtype f16 --arch hopper-h800 --op copy
expect_rc 2 "gemm --op"

# a TMA load multicast to a cluster of 4: the L2 reads its bytes once for the 4 blocks
# (the shared data path still takes all of them), so the L2 bytes fall by 4 and the
# L2-bound loop runs faster
MC="$T/multicast"; mkdir -p "$MC"
for mc in 1 4; do
    cat >"$MC/mc$mc.yaml" <<EOF2
schema: gpucal-kernel/1
name: mc$mc
launch: {grid: 132, block: 128, registers: 64, shared_bytes: 131072}
loop:
  trips: 1000
  stages: 4
  ops:
    - {op: tma, bytes: 16384, count: 0.25, multicast: $mc}
    - {op: alu, name: iadd3, count: 4}
footprint: {read_bytes: 1048576, write_bytes: 0}
EOF2
    run $G predict "$MC/mc$mc.yaml" --arch hopper-h200 --format json
    expect_rc 0 "multicast $mc"
    sed -n 's/^  "traffic": {"l2_bytes": \([0-9.e+]*\),.*/\1/p' "$out" >"$MC/l2_$mc"
    sed -n 's/^  "cycles": \([0-9.e+]*\),.*/\1/p' "$out" >"$MC/cyc_$mc"
done
awk -v a="$(cat "$MC/l2_1")" -v b="$(cat "$MC/l2_4")" 'BEGIN { exit !(a > 0 && b > 0 && a / b > 3.99 && a / b < 4.01) }' ||
    fail "multicast 4: L2 bytes $(cat "$MC/l2_1") -> $(cat "$MC/l2_4"), expected a quarter"
awk -v a="$(cat "$MC/cyc_1")" -v b="$(cat "$MC/cyc_4")" 'BEGIN { exit !(b > 0 && a > 2 * b) }' ||
    fail "multicast 4: cycles $(cat "$MC/cyc_1") -> $(cat "$MC/cyc_4"), expected an L2-bound loop at least twice as fast"
rm -rf "$MC"

# stream
run $G predict stream --op copy --bytes 536870912 --arch hopper-h800
expect_rc 0 "stream copy"
expect_out 'dram-bound' "stream copy bound"
expect_out 'stream copy: 536870912 bytes per array, 1073741824 bytes moved' "stream moved"
run $G predict stream --op triad --bytes 1048576 --arch ada-rtx4090 --format json
expect_rc 0 "stream triad json"
expect_out '"template": \{"name": "stream", "op": "triad", "bytes": 1048576' "stream json"
run $G predict stream --op scale --bytes 1024 --arch ada-rtx4090
expect_rc 2 "stream bad op"; expect_err "unknown --op 'scale'" "stream bad op"
run $G predict stream --op copy --bytes 8 --arch ada-rtx4090
expect_rc 2 "stream tiny"
run $G predict stream --op copy --arch ada-rtx4090
expect_rc 2 "stream no bytes"

finish
