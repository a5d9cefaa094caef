#!/bin/sh
# expect_bad.sh EXPECT INPUT CMD... - run `$GPUCAL CMD... INPUT` and require:
# exit status 2, exactly one line on stderr, that line matching the extended
# regex in EXPECT (first line), and nothing on stdout. Under sanitizers a
# crash or leak report would add lines, so this also catches those.
exp=$1 input=$2
shift 2
regex=$(head -n 1 "$exp")
out=$(mktemp) err=$(mktemp)
# word splitting of "$@" is wanted: CMD comes as separate words
# CMD arrives as one word from ctest: split it
# shellcheck disable=SC2068
"$GPUCAL" $@ "$input" >"$out" 2>"$err"
rc=$?
lines=$(wc -l <"$err")
fail=""
[ "$rc" -eq 2 ] || fail="exit status $rc, expected 2"
[ -z "$fail" ] && [ "$lines" -ne 1 ] && fail="$lines lines on stderr, expected 1"
[ -z "$fail" ] && ! grep -Eq -- "$regex" "$err" && fail="stderr does not match /$regex/"
[ -z "$fail" ] && [ -s "$out" ] && fail="unexpected output on stdout"
if [ -n "$fail" ]; then
    echo "FAIL: $input: $fail"
    echo "--- stderr:"; cat "$err"; echo "--- stdout:"; head -5 "$out"
    rm -f "$out" "$err"
    exit 1
fi
echo "ok: $(cat "$err")"
rm -f "$out" "$err"
exit 0
