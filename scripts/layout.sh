#!/bin/sh
# layout.sh - includes run one way along the pipeline (README.md, Files):
# every #include "..." of a box's source resolves to a file of the box itself
# or of a box below it. The linker catches wrong-way calls (each test links
# only its box); this catches a wrong-way header use that calls nothing.
#
#   sh scripts/layout.sh [ROOT]     one line per wrong-way include; exit 1 if any
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || { echo "layout.sh: no folder $root; name the source tree" >&2; exit 2; }
# box: the folders its includes may reach (itself first)
allowed() {
    case $1 in
    util) echo "util" ;;
    traces) echo "traces util" ;;
    measure) echo "measure traces util" ;;
    arch) echo "arch util" ;;
    calib) echo "calib arch traces util" ;;
    model/predict | model/export | model/compare | model/emulate) echo "$1 arch util" ;;
    plot) echo "plot model/predict arch traces measure util" ;;  # draws predictions and the measured forms
    *) echo "*" ;;
    esac
}
st=0
for box in util traces measure arch calib model/predict model/export model/compare \
    model/emulate plot; do
    ok=$(allowed "$box")
    for f in "$box"/*.c "$box"/*.h "$box"/*.cu "$box"/*.cuh; do
        [ -f "$f" ] || continue
        grep -n '^#include "' "$f" | while IFS= read -r l; do
            n=${l%%:*}
            inc=$(printf '%s\n' "$l" | sed 's/^[0-9]*:#include "\([^"]*\)".*/\1/')
            to=$(realpath -m --relative-to=. "$box/$inc")
            good=0
            for a in $ok; do
                case $to in "$a"/*) good=1 ;; esac
            done
            [ $good = 1 ] || echo "$f:$n: includes $to: $box may use only $ok (README.md, Files)"
        done
    done
done | grep . && st=1
exit $st
