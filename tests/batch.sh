#!/bin/sh
# batch.sh - `gpucal predict --batch FILE|-` (JSON lines in and out) and the
# --arch list: answers in order with "line": N, equal to the single
# predictions; every bad request of tests/fixtures/batch/requests-bad/
# answered as {"line": N, "error": ...} between two good ones that still
# run, exit 2; a repeated --arch refused. Needs $GPUCAL and $GC_SRC.
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
F=$GC_SRC/tests/fixtures/batch
GOOD1='{"template": "gemm", "m": 4096, "n": 4096, "k": 4096, "dtype": "f16", "arch": "hopper-h100"}'
GOOD2='{"template": "stream", "op": "triad", "bytes": 1e6, "arch": "ampere-a100"}'

# good requests: one answer per request and arch, in order, blank lines skipped
{
    echo "$GOOD1"
    echo ""
    echo '{"kernel": "'"$GC_SRC"'/model/kernels/mma_matmul_3_1.yaml", "arch": "ada-rtx4090,hopper-h100"}'
    echo '{"template": "softmax", "rows": 1024, "cols": 4096, "dtype": "f16", "arch": "ampere-a100"}'
    echo '{"template": "attention", "batch": 2, "heads": 8, "seq": 1024, "head-dim": 64, "causal": true, "dtype": "bf16", "arch": "hopper-h100", "clock_mhz": 1500}'
} >"$T/good.jsonl"
run $G predict --batch "$T/good.jsonl"
expect_rc 0 "good batch"
[ "$(wc -l <"$out")" -eq 5 ] || fail "good batch: $(wc -l <"$out") answers, expected 5"
[ "$(cut -c1-12 "$out" | tr '\n' ' ')" = '{"line": 1,  {"line": 3,  {"line": 3,  {"line": 4,  {"line": 5,  ' ] ||
    fail "good batch: answers out of order: $(cut -c1-12 "$out" | tr '\n' ' ')"
sed -n 2p "$out" | grep -q '"arch": "ada-rtx4090"' || fail "arch list: first answer not ada-rtx4090"
sed -n 3p "$out" | grep -q '"arch": "hopper-h100"' || fail "arch list: second answer not hopper-h100"
sed -n 5p "$out" | grep -q '"clock_mhz": 1500.0' || fail "clock_mhz not applied"
cp "$out" "$T/good.out"
# an answer is the object --format json prints (same members and numbers, one line)
$G predict gemm --m 4096 --n 4096 --k 4096 --dtype f16 --arch hopper-h100 --format json >"$T/single"
if command -v python3 >/dev/null; then
    python3 - "$T/good.out" "$T/single" <<'PY' || fail "answers are not JSON, or differ from predict --format json"
import json, sys
answers = [json.loads(l) for l in open(sys.argv[1])]
first = answers[0]
del first["line"]
assert first == json.load(open(sys.argv[2])), "batch answer differs from predict --format json"
PY
fi
# stdin, and the default arch from --arch
echo '{"template": "stream", "op": "copy", "bytes": 65536}' | $G predict --batch - --arch ada-rtx4090 >"$T/o" 2>"$T/e"
[ $? -eq 0 ] && grep -q '"line": 1, .*"arch": "ada-rtx4090"' "$T/o" || fail "stdin batch with --arch"

# each bad request between two good ones: answered as an error, the batch goes on
for req in "$F"/requests-bad/*.jsonl; do
    case=$(basename "$req" .jsonl)
    { echo "$GOOD1"; cat "$req"; echo "$GOOD2"; } >"$T/bad.jsonl"
    run $G predict --batch "$T/bad.jsonl"
    expect_rc 2 "$case"
    [ "$(wc -l <"$out")" -eq 3 ] || fail "$case: $(wc -l <"$out") answers, expected 3"
    sed -n 2p "$out" | grep -q '^{"line": 2, "error": "' || fail "$case: line 2 is not an error answer"
    sed -n 2p "$out" | grep -Eq -- "$(head -n 1 "${req%.jsonl}.expect")" ||
        fail "$case: $(sed -n 2p "$out") does not match $(cat "${req%.jsonl}.expect")"
    sed -n 3p "$out" | grep -q '^{"line": 3, "schema": "gpucal-predict/1"' || fail "$case: line 3 not answered"
    [ -s "$err" ] && fail "$case: stderr not empty: $(head -c 200 "$err")"
done

# file-level errors: one line, exit 2
run $G predict --batch /nonexistent.jsonl
expect_rc 2 "missing batch file"; expect_err_lines 1 "missing batch file"
expect_err "cannot read the batch file /nonexistent.jsonl" "missing batch file"
run $G predict --batch "$T/good.jsonl" extra
expect_rc 2 "batch with an argument"; expect_err "unexpected argument 'extra'" "batch argument"

# --arch: a list gives one result per arch; a repeated --arch is refused
for t in "gemm --m 64 --n 64 --k 64 --dtype f16" "stream --op copy --bytes 4096" \
    "softmax --rows 64 --cols 64 --dtype f16" "$GC_SRC/model/kernels/mma_matmul_3_1.yaml"; do
    # shellcheck disable=SC2086
    run $G predict $t --arch ada-rtx4090,ampere-a100 --format json
    expect_rc 0 "arch list: $t"
    grep -q '"arch": "ada-rtx4090"' "$out" && grep -q '"arch": "ampere-a100"' "$out" ||
        fail "arch list: $t: not one result per arch"
    # shellcheck disable=SC2086
    run $G predict $t --arch ada-rtx4090 --arch ampere-a100
    expect_rc 2 "repeated --arch: $t"; expect_err_lines 1 "repeated --arch: $t"
    expect_err "--arch given twice \(for several archs give --arch a,b,c\)" "repeated --arch: $t"
    [ -s "$out" ] && fail "repeated --arch: $t: output on stdout"
done
run $G describe softmax --rows 64 --cols 64 --dtype f16 --arch ada-rtx4090,ampere-a100
expect_rc 0 "describe arch list"
[ "$(grep -c '^schema: gpucal-kernel/1' "$out")" -eq 2 ] || fail "describe arch list: two kernels expected"
finish
