# lib.sh - helpers for the shell tests (sourced). $GPUCAL is the binary.
fails=0
T=${GC_TMP:-/tmp}/sh_$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT

# run CMD...: sets $rc, $out (stdout file), $err (stderr file)
run() {
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
    out="$T/out" err="$T/err"
}
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit $rc, expected $1 ($(head -c 300 "$err"))"; }
expect_out() { grep -Eq -- "$1" "$out" || fail "$2: stdout lacks /$1/"; }
expect_err() { grep -Eq -- "$1" "$err" || fail "$2: stderr lacks /$1/ (got: $(head -c 300 "$err"))"; }
expect_err_lines() { [ "$(wc -l <"$err")" -eq "$1" ] || fail "$2: $(wc -l <"$err") stderr lines, expected $1"; }
finish() {
    [ "$fails" -eq 0 ] && echo "all checks passed" && exit 0
    echo "$fails check(s) failed"
    exit 1
}
