#!/bin/sh
# emulate.sh - `gpucal emulate mma` and `gpucal emulate check`: known answers
# from files and stdin in every output format, bad input (one located line,
# exit 2), the committed fixtures. Needs $GPUCAL and $GC_SRC (set by ctest).
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
TR=$GC_SRC/traces/h100/numeric.csv
FIX=$GC_SRC/tests/fixtures/numerics

# 1*0.5 + 2*0.25 + 1 = 2
cat >"$T/a.txt" <<'EOF'
# a 1 x 2 x 1 product
A
1 2
B
0.5
0.25
C
1
EOF
run $G emulate mma --trace "$TR" --form f16.f32 "$T/a.txt"
expect_rc 0 "mma file"; expect_out '^2$' "mma file"
run sh -c "$G emulate mma --trace '$TR' --form f16.f32 - <'$T/a.txt'"
expect_rc 0 "mma stdin"; expect_out '^2$' "mma stdin"
run sh -c "$G emulate mma --trace '$TR' --form f16.f32 <'$T/a.txt'"
expect_rc 0 "mma stdin, no -"; expect_out '^2$' "mma stdin, no -"

# round toward zero with carries: c = 1 + 3u (bits), 1*1 -> 2 + 2u, not 2 + 4u
printf 'A\n1\nB\n1\nC\n0x3f800003\n' >"$T/rz.txt"
run $G emulate mma --trace "$TR" --form f16.f32 "$T/rz.txt"
expect_rc 0 rz; expect_out '^2\.0000002$' rz
run $G emulate mma --trace "$TR" --form f16.f32 --format hex "$T/rz.txt"
expect_rc 0 hex; expect_out '^0x40000001$' hex
run $G emulate mma --trace "$TR" --form f16.f32 --format csv "$T/rz.txt"
expect_rc 0 csv; expect_out '^row,col,bits,value$' csv; expect_out '^0,0,0x40000001,2\.0000002$' csv

# FP8 on Hopper: wgmma keeps 14 bits (1 + 2^-14 -> 1); mma.sync is compiled to
# HMMA on f16 plus an FADD of C, which keeps it
printf 'A\n0.0078125\nB\n0.0078125\nC\n1\n' >"$T/fp8.txt"
run $G emulate mma --trace "$TR" --form e4m3.f32 --inst wgmma "$T/fp8.txt"
expect_rc 0 "wgmma fp8"; expect_out '^1$' "wgmma fp8"
run $G emulate mma --trace "$TR" --form e4m3.f32 "$T/fp8.txt"
expect_rc 0 "mma fp8"; expect_out '^1\.000061$' "mma fp8"

# f16 C/D: a 2 x 2 x 2 product, specials in, canonical NaN out
printf 'A\ninf 1\n2 -3\nB\n0 1\n1 0.5\nC\n1 2\n3 4\n' >"$T/h.txt"
run $G emulate mma --trace "$TR" --form f16.f16 --format hex "$T/h.txt"
expect_rc 0 "f16 specials"; expect_out '^0x7fff 0x7c00$' "inf*0 is NaN, inf*1 is inf"
expect_out '^0x0000 0x4480$' "2*0 - 3*1 + 3 = +0, 2*1 - 3*0.5 + 4 = 4.5"

# bad input: one line FILE:LINE:COL, exit 2
printf 'A\n0.1\nB\n1\n' >"$T/inexact.txt"
run $G emulate mma --trace "$TR" --form f16.f32 "$T/inexact.txt"
expect_rc 2 inexact; expect_err_lines 1 inexact
expect_err "inexact.txt:2:1: 0.1 is not exactly representable in f16" inexact
run $G emulate mma --trace "$TR" --form f16.f32 --round "$T/inexact.txt"
expect_rc 0 "--round"; expect_out '^0\.099975586$' "--round"
printf 'A\n1 2\nB\n1\n' >"$T/shape.txt"
run $G emulate mma --trace "$TR" --form f16.f32 "$T/shape.txt"
expect_rc 2 shape; expect_err_lines 1 shape; expect_err "shape.txt:3:1: B has 1 rows, A has 2 columns" shape
printf 'A\n1 x\nB\n1\n' >"$T/word.txt"
run $G emulate mma --trace "$TR" --form f16.f32 "$T/word.txt"
expect_rc 2 word; expect_err "word.txt:2:3: 'x' is not a number" word
printf 'A\n0x10000\nB\n1\n' >"$T/wide.txt"
run $G emulate mma --trace "$TR" --form f16.f32 "$T/wide.txt"
expect_rc 2 "bits too wide"; expect_err "wide.txt:2:1: '0x10000' is not a 16-bit pattern for f16" bits
printf '1 2\n' >"$T/nosec.txt"
run $G emulate mma --trace "$TR" --form f16.f32 "$T/nosec.txt"
expect_rc 2 "no section"; expect_err "nosec.txt:1:1: a value before any section" nosec
run $G emulate mma --trace "$TR" --form f16.f32 "$T/missing.txt"
expect_rc 2 missing; expect_err_lines 1 missing

# bad usage
run $G emulate mma --trace "$TR" --form f16.bf16 "$T/a.txt"
expect_rc 2 "bad form"; expect_err "--form 'f16.bf16' is not A.C" form
run $G emulate mma --form f16.f32 "$T/a.txt"
expect_rc 2 "no source"; expect_err "exactly one of --arch" "no source"
run $G emulate mma --arch hopper-h800 --trace "$TR" --form f16.f32 "$T/a.txt"
expect_rc 2 "two sources"; expect_err "exactly one of --arch" "two sources"
run $G emulate mma --trace "$TR" "$T/a.txt"
expect_rc 2 "no form"; expect_err "--form A.C is required" "no form"
run $G emulate mma --trace "$TR" --form f16.f32 --inst hmma "$T/a.txt"
expect_rc 2 "bad inst"; expect_err "--inst takes mma or wgmma" inst
run $G emulate mma --trace "$TR" --form f16.f32 --set x "$T/a.txt"
expect_rc 2 "check option on mma"; expect_err "--set is not an option of this command" set
run $G emulate frob
expect_rc 2 "unknown sub"; expect_err "unknown command 'frob'" sub
# an arch without numerics: the run fails (exit 1) and says how to get them
run $G emulate mma --arch hopper-h800 --form f16.f32 "$T/a.txt"
expect_rc 1 "no entry"; expect_err "has no numerics entry for mma f16.f32" "no entry"
# a trace of another bench
run $G emulate mma --trace "$GC_SRC/traces/h100/clock.csv" --form f16.f32 "$T/a.txt"
expect_rc 2 "not a numeric trace"; expect_err_lines 1 "not a numeric trace"

# check: the committed fixtures
run $G emulate check --trace "$TR" --fixtures "$FIX" --set mma.m16n8k8.tf32
expect_rc 0 check
expect_out '^mma\.m16n8k8\.tf32\.f32\.normal +65536 cases +0 mismatches +100\.0000 % match$' check
expect_out '^mma\.m16n8k8\.tf32\.f32 +181144 +0 +100\.0000$' "check summary"
# a damaged fixture: refused by its checksum, exit 2
mkdir -p "$T/fx"
sed -n '1p;/^mma\.m16n8k4\.tf32\.f32\.normal,/p' "$FIX/sets.csv" >"$T/fx/sets.csv"
cp "$FIX/mma.m16n8k4.tf32.f32.normal.bin" "$T/fx/"
run $G emulate check --trace "$TR" --fixtures "$T/fx"
expect_rc 0 "one set"; expect_out '100\.0000 % match' "one set"
printf '\001' | dd of="$T/fx/mma.m16n8k4.tf32.f32.normal.bin" bs=1 seek=100 conv=notrunc 2>/dev/null
run $G emulate check --trace "$TR" --fixtures "$T/fx"
expect_rc 2 damaged; expect_err "checksum differs from sets.csv" damaged
printf 'set,what\n' >"$T/fx/sets.csv"
run $G emulate check --trace "$TR" --fixtures "$T/fx"
expect_rc 2 "bad manifest"; expect_err "sets.csv:1:1: not a fixture manifest" manifest
finish
