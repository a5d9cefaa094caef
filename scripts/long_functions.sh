#!/bin/sh
# long_functions.sh - the functions longer than the house limit: more than 80
# lines between the opening and the closing brace (STYLE.md; issue 16).
#
#   sh scripts/long_functions.sh [-n MAX] [ROOT]
#       list them (FILE:LINE: NAME is N lines (max MAX)); exit 1 if any
#   sh scripts/long_functions.sh --check ALLOW [-n MAX] [ROOT]
#       exit 1 on a long function that ALLOW does not list, or on a line of
#       ALLOW ("FILE NAME  # why") whose function is no longer long: the
#       list of known exceptions can only shrink
#
# A function is what clang-format lays out in this tree (.clang-format,
# BreakBeforeBraces: Linux): a signature starting in column 0, then a body
# from a line "{" to a line "}" in column 0. Declarative tables
# (`... = {` ... `};`) are not functions and never count. Files: every *.c,
# *.h and *.cu under ROOT (default: the repository), build*/, .scratch/ and
# .git/ excluded.
set -u
max=80
allow=""
while [ $# -gt 0 ]; do
    case $1 in
    -n) max=$2; shift 2 ;;
    --check) allow=$2; shift 2 ;;
    *) break ;;
    esac
done
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || { echo "long_functions.sh: no folder $root; name the source tree" >&2; exit 2; }
if [ -n "$allow" ] && [ ! -r "$allow" ]; then
    echo "long_functions.sh: cannot read $allow; name the exceptions file" >&2
    exit 2
fi
found=$(find . \( -name 'build*' -o -name .scratch -o -name .git \) -prune -o \
    \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) -type f -print | sed 's|^\./||' | sort |
    while read -r f; do
        awk -v f="$f" -v max="$max" '
            /^[A-Za-z_].*\(/ && !/;[ \t]*$/ && !/=[ \t]*\{/ { sig = $0; at = NR }
            /^\{[ \t]*$/ && sig != "" { start = NR; name = sig }
            /^\}[ \t]*$/ && start {
                if (NR - start - 1 > max) {
                    s = name
                    gsub(/__launch_bounds__\([^)]*\)/, "", s)
                    sub(/\(.*/, "", s)
                    k = split(s, w, /[ \t*]+/)
                    printf "%s:%d: %s is %d lines (max %d)\n", f, at, w[k], NR - start - 1, max
                }
                start = 0; sig = ""
            }' "$f"
    done)
if [ -z "$allow" ]; then
    [ -z "$found" ] && exit 0
    printf '%s\n' "$found"
    exit 1
fi
# compare "FILE NAME" pairs: line numbers and lengths move as files are edited
st=0
printf '%s\n' "$found" | while IFS= read -r l; do
    [ -z "$l" ] && continue
    f=${l%%:*}
    n=$(printf '%s\n' "$l" | sed 's/^[^:]*:[0-9]*: \([^ ]*\) is .*/\1/')
    grep -v '^#' "$allow" | awk '{ print $1, $2 }' | grep -qxF "$f $n" ||
        echo "$l: split it, or name it in $allow with the reason"
done | grep . && st=1
grep -v '^#' "$allow" | awk 'NF >= 2 { print $1, $2 }' | while read -r f n; do
    printf '%s\n' "$found" | grep -q "^$f:[0-9]*: $n is " ||
        echo "$allow: $f $n is no longer over $max lines: remove its line"
done | grep . && st=1
exit $st
