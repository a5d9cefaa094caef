#!/bin/sh
# layout.sh - includes run one way along the pipeline (scripts/layout.sh): the
# tree passes, and a synthetic wrong-way include (arch/ using model/) is caught.
. "$(dirname "$0")/lib.sh"
run sh "$GC_SRC/scripts/layout.sh" "$GC_SRC"
expect_rc 0 "the tree has a wrong-way include: $(head -c 400 "$out")"
mkdir -p "$T/tree/arch" "$T/tree/model/predict" "$T/tree/util"
printf '#include "../util/err.h"\n#include "../model/predict/predict.h"\n' >"$T/tree/arch/x.c"
printf '#include "../../arch/arch.h"\n#include "kernel.h"\n' >"$T/tree/model/predict/y.c"
run sh "$GC_SRC/scripts/layout.sh" "$T/tree"
expect_rc 1 "a tree whose arch/ includes model/"
expect_out '^arch/x\.c:2: includes model/predict/predict\.h' "the wrong-way include named"
grep -q 'y\.c' "$out" && fail "model/predict/y.c (arch and its own box) was reported"
finish
