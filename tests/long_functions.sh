#!/bin/sh
# long_functions.sh - no function over 80 lines except the known ones listed
# in scripts/long_functions.allow (a list that may only shrink), and the
# checker itself finds a long function, ignores a long table and passes a
# function of exactly 80 lines.
. "$(dirname "$0")/lib.sh"
chk="$GC_SRC/scripts/long_functions.sh"
run sh "$chk" --check "$GC_SRC/scripts/long_functions.allow" "$GC_SRC"
expect_rc 0 "the tree has a long function not in scripts/long_functions.allow: $(head -c 400 "$out")"

# a synthetic tree: f81 has 81 body lines, f80 80, the table 200 rows
mkdir -p "$T/tree/src"
{
    printf 'static const int table[] = {\n'
    i=0; while [ $i -lt 200 ]; do printf '    %d,\n' $i; i=$((i + 1)); done
    printf '};\n\nint f80(void)\n{\n'
    i=0; while [ $i -lt 80 ]; do printf '    (void)0;\n'; i=$((i + 1)); done
    printf '}\n\nstatic int f81(int a,\n               int b)\n{\n'
    i=0; while [ $i -lt 81 ]; do printf '    (void)0;\n'; i=$((i + 1)); done
    printf '}\n'
} >"$T/tree/src/x.c"
run sh "$chk" "$T/tree"
expect_rc 1 "a tree with an 81-line function"
expect_out '^src/x\.c:[0-9]+: f81 is 81 lines' "the long function named"
grep -q 'f80\|table' "$out" && fail "f80 (80 lines) or the table was reported"
# the exceptions list: naming f81 passes; a stale line fails
echo "src/x.c f81  # test" >"$T/allow"
run sh "$chk" --check "$T/allow" "$T/tree"
expect_rc 0 "f81 named in the exceptions list"
echo "src/x.c f80  # no longer long" >>"$T/allow"
run sh "$chk" --check "$T/allow" "$T/tree"
expect_rc 1 "a stale exceptions line"
expect_out 'f80 is no longer over 80 lines' "the stale line named"
finish
