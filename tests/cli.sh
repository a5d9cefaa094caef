#!/bin/sh
# cli.sh - the front end: help, version, exit codes, unknown commands and
# options, warnings, limits. Needs $GPUCAL (set by ctest).
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
FIX=$GC_SRC/tests/fixtures/arch/good/minimal.yaml

run $G --version; expect_rc 0 version; expect_out '^gpucal [0-9]+\.[0-9]+\.[0-9]+$' version
run $G version; expect_rc 0 "version cmd"
run $G; expect_rc 2 "no args"; expect_err 'usage: gpucal COMMAND' "no args"
run $G --help; expect_rc 0 help; expect_out 'commands:' help; expect_out 'compare' help
run $G frobnicate; expect_rc 2 "unknown command"; expect_err_lines 1 "unknown command"
expect_err "gpucal: unknown command 'frobnicate' \(see \`gpucal --help\`\)" "unknown command"
run $G --frobnicate; expect_rc 2 "unknown top option"; expect_err "unknown option '--frobnicate'" top

# help X == X --help, for every command
for c in arch compare trace measure calib predict export plot emulate help version; do
    $G help $c >"$T/h1" 2>&1; r1=$?
    $G $c --help >"$T/h2" 2>&1; r2=$?
    [ $r1 -eq 0 ] && [ $r2 -eq 0 ] || fail "help $c: exit $r1 / $r2"
    cmp -s "$T/h1" "$T/h2" || fail "gpucal help $c differs from gpucal $c --help"
    grep -q "usage: gpucal $c" "$T/h1" || fail "help $c has no usage line"
done
run $G help nothing; expect_rc 2 "help unknown"

# arch
run $G arch; expect_rc 2 "arch no sub"
run $G arch fly; expect_rc 2 "arch unknown sub"; expect_err "unknown command 'fly'" "arch fly"
run $G arch show; expect_rc 2 "arch show no arg"; expect_err_lines 1 "arch show no arg"
run $G arch show $FIX --bogus; expect_rc 2 "arch show bad option"; expect_err "unknown option '--bogus'" "bad opt"
run $G arch show $FIX --format xml; expect_rc 2 "arch show bad format"; expect_err "unknown --format 'xml'" fmt
run $G arch show $FIX; expect_rc 0 "arch show"; expect_out 'near_hit_cyc: \{value: 258.0, source: seed 004 Table IV\}' "show"
run $G arch show $FIX --format json; expect_rc 0 "arch show json"; expect_out '"unit": "cycles"' json
run $G arch show no-such-arch; expect_rc 2 "unknown arch name"; expect_err "no shipped arch named 'no-such-arch'" name
run $G arch show 'Bad Name'; expect_rc 2 "bad arch name"; expect_err "neither a shipped arch name nor a path" badname
run $G arch validate $FIX; expect_rc 0 validate; expect_out 'ok \(test-minimal, 9 values, 3 with a source\)' validate
run $G arch validate --require-sources $FIX; expect_rc 2 "require sources"; expect_err '6 of 9 values have no source, first sm.sub_cores' strict
run $G arch schema; expect_rc 0 schema; expect_out '^### `memory.l2`' schema; expect_out 'near_hit_cyc' schema

# unknown key: an error with FILE:LINE:COL naming the closest known key
sed 's/^  sub_cores: 4/  sub_cores: 4\n  sub_corez: 4/' $FIX >"$T/unknown.yaml"
run $G arch validate "$T/unknown.yaml"; expect_rc 2 "unknown key"; expect_err_lines 1 "unknown key"
expect_err "unknown.yaml:9:3: unknown key 'sm.sub_corez' \(did you mean 'sub_cores'\?\)" "unknown key error"

# limits: a file over 8 MiB, a million keys, a 1 MB line
head -c 9000000 /dev/zero | tr '\0' 'a' >"$T/big.yaml"
run $G arch validate "$T/big.yaml"; expect_rc 2 "big file"; expect_err "larger than 8388608 bytes" big; expect_err_lines 1 big
awk 'BEGIN { for (i = 0; i < 300000; i++) printf "k%d: 1\n", i }' >"$T/many.yaml"
run $G arch validate "$T/many.yaml"; expect_rc 2 "many keys"; expect_err "more than 200000 YAML nodes" many
awk 'BEGIN { printf "schema: gpucal-arch/1\nname: t\nfamily: hopper\ndevice: "; for (i = 0; i < 1000000; i++) printf "x"; printf "\ncc: \"9.0\"\n" }' >"$T/longline.yaml"
run $G arch validate "$T/longline.yaml"; expect_rc 2 "long line"; expect_err "missing required key 'sm'" longline

# compare: values a file lacks are '-', never 0; ratio column
run $G compare $FIX "$GC_SRC/tests/fixtures/arch/good/other.yaml"; expect_rc 0 compare
expect_out '^\| memory.l2.near_hit_cyc \| cycles \| 258.0 \| 516.0 \(2.00x\) \|$' compare
expect_out '^\| tensor\[mma m16n8k16 f16.f32\].latency_cyc \| cycles \| 24.7 \| - \|$' "compare missing"
run $G compare $FIX "$GC_SRC/tests/fixtures/arch/good/other.yaml" --format csv; expect_rc 0 "compare csv"
expect_out '^memory.l2.near_hit_cyc,cycles,258.0,516.0,2.0000$' "compare csv"
expect_out '^tensor\[mma m16n8k16 f16.f32\].latency_cyc,cycles,24.7,,$' "compare csv missing"
# data patterns: rand shown under the plain label, its zero twin dropped, zero-only kept
run $G compare $FIX "$GC_SRC/tests/fixtures/arch/good/other.yaml" --format json; expect_rc 0 "compare json"
expect_out '^    \{"quantity": "memory.l2.near_hit_cyc", "unit": "cycles", "values": \[258.0, 516.0\], "ratios": \[2\]\}' "compare json"
expect_out '"quantity": "tensor\[mma m16n8k16 f16.f32\].latency_cyc", "unit": "cycles", "values": \[24.7, null\], "ratios": \[null\]' "compare json missing"
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["schema"] == "gpucal-compare/1"' "$out" ||
        fail "compare --format json is not valid JSON"
fi
run $G compare $FIX "$GC_SRC/tests/fixtures/arch/good/patterns.yaml"; expect_rc 0 "compare patterns"
expect_out '^\| tensor\[mma m16n8k16 f16.f32\].latency_cyc \| cycles \| 24.7 \| 30.0 \(1.21x\) \|$' "rand under plain label"
grep -q 'f16.f32 zero\]' "$out" && grep -q 'tensor\[mma m16n8k16 f16.f32 zero\]' "$out" && fail "zero twin of a rand form shown"
expect_out '^\| tensor\[wgmma m64n64k16 f16.f32 ss zero\].latency_cyc \| cycles \| - \| 100.0 \|$' "zero-only kept"
run $G compare $FIX "$GC_SRC/tests/fixtures/arch/good/other.yaml" --match l2 --match clock; expect_rc 0 "compare match"
[ "$(grep -c '^| ' "$out")" -eq 4 ] || fail "compare --match: expected the header and 2 rows, got $(grep -c '^| ' "$out") table lines"
expect_out '^\| sm.clock_max_mhz \|' "match clock"
run $G compare; expect_rc 2 "compare nothing"
run $G compare $FIX --format xls; expect_rc 2 "compare bad format"

finish
