#!/bin/sh
# diag_args.sh - model/validation/torch/diag.sh's diagnostic shapes (DIAG_ARGS): listed
# with the train rows it profiles (DIAG_DRY=1 stops before ncu), refused with one line
# naming the file, the line and the held-out row when a shape is a held-out row's args;
# a held-out id in DIAG_ROWS is left out; an id without args refused. Needs python3
# (skipped without it).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "skipped: no python3"; exit 77; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
D=$ROOT/model/validation/torch/diag.sh
printf 'o036\no035\n' >"$T/rows.txt" # o035: held out
cat >"$T/good.txt" <<'TXT'
# comment
x001 softmax --rows 300 --cols 2048 --dtype f16   # a shape in no set
TXT
cd "$ROOT" || exit 1
run env OUT="$T/out" DIAG_WORK="$T/w" DIAG_MODE=sass DIAG_DRY=1 DIAG_ROWS="$T/rows.txt" \
    DIAG_ARGS="$T/good.txt" sh "$D"
expect_rc 0 "a dry run"
expect_out "^o036 softmax --rows 4096 --cols 128 --dtype f16$" "a train row with its args"
expect_out "^x001 softmax --rows 300 --cols 2048 --dtype f16$" "a diagnostic shape"
grep -q '^o035' "$out" && fail "a held-out id is not profiled"
expect_err "o035 is a held-out row" "a held-out id is named"
printf 'x002 softmax --rows 512 --cols 2048  --dtype f16\n' >"$T/bad.txt" # p031's args
run env OUT="$T/out" DIAG_WORK="$T/w" DIAG_MODE=sass DIAG_DRY=1 DIAG_ROWS="$T/rows.txt" \
    DIAG_ARGS="$T/bad.txt" sh "$D"
expect_rc 2 "a held-out row's args"
expect_err "bad.txt:1: these are the args of held-out row p031" "file, line and row named"
printf 'x003\n' >"$T/bare.txt"
run env OUT="$T/out" DIAG_WORK="$T/w" DIAG_MODE=sass DIAG_DRY=1 DIAG_ROWS="$T/rows.txt" \
    DIAG_ARGS="$T/bare.txt" sh "$D"
expect_rc 2 "an id without args"
expect_err "bare.txt:1: 'x003' has no args" "file, line and id named"
finish
