#!/bin/sh
# install.sh - `cmake --install` into a fresh prefix, then, with nothing but
# the install (no GPUCAL_ARCH_DIR, no source tree on any path): the
# installed gpucal finds its arch files, the README's C example builds with
# `pkg-config --cflags --libs gpucal` (and against libgpucal.a) and runs,
# and the README's Python example runs with the system python3. Needs
# $GPUCAL (its folder is the build tree) and $GC_SRC.
. "$(dirname "$0")/lib.sh"
B=$(dirname "$GPUCAL")
P=$T/pfx
cmake --install "$B" --prefix "$P" >"$T/install.log" 2>&1 || fail "cmake --install: $(tail -3 "$T/install.log")"
unset GPUCAL_ARCH_DIR GPUCAL_LIB
for f in bin/gpucal include/gpucal/gpucal.h share/gpucal/arch/hopper-h100.yaml; do
    [ -e "$P/$f" ] || fail "not installed: $f"
done
ls "$P"/lib*/libgpucal.so "$P"/lib*/libgpucal.a "$P"/lib*/pkgconfig/gpucal.pc >/dev/null 2>&1 ||
    fail "library, archive or gpucal.pc not installed"
# the installed binary reads the installed arch files
run "$P/bin/gpucal" help arch
expect_out "folder: \\\$GPUCAL_ARCH_DIR or $P/share/gpucal/arch\\)" "installed arch folder"
run "$P/bin/gpucal" predict gemm --m 256 --n 256 --k 256 --dtype f16 --arch hopper-h100
expect_rc 0 "installed gpucal predicts"

# under the sanitizers the example is built with them too (the library has them)
SAN=""
grep -q '^GPUCAL_SANITIZE:BOOL=ON' "$B/CMakeCache.txt" 2>/dev/null &&
    SAN="-fsanitize=address,undefined" && export ASAN_OPTIONS=detect_leaks=0
# the README's C example
sed -n '/<!-- c-example -->/,/^```$/p' "$GC_SRC/README.md" | sed '1,2d; $d' >"$T/gemm.c"
PCP=$(dirname "$(ls "$P"/lib*/pkgconfig/gpucal.pc | head -1)")
flags=$(PKG_CONFIG_PATH=$PCP pkg-config --cflags --libs gpucal) || fail "pkg-config gpucal"
# shellcheck disable=SC2086
cc $SAN -o "$T/gemm" "$T/gemm.c" $flags 2>"$T/cc.err" || fail "C example does not build: $(head -3 "$T/cc.err")"
(cd "$T" && ./gemm) >"$T/out" 2>"$T/err"
rc=$? out=$T/out err=$T/err
expect_rc 0 "C example"
expect_out '^gemm 4096x4096x4096 f16 on hopper-h100: [0-9.]+ us, [a-z0-9]+-bound$' "C example output"
# shellcheck disable=SC2086
cc $SAN -o "$T/gemm_static" "$T/gemm.c" -I"$P/include" "$(ls "$P"/lib*/libgpucal.a | head -1)" \
    $(pkg-config --libs yaml-0.1) -lm -lpthread 2>"$T/cc.err" ||
    fail "C example does not link against libgpucal.a: $(head -3 "$T/cc.err")"

# the README's Python example, with the system python3 and only PYTHONPATH
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
[ -n "$PY" ] || fail "python3 is missing (scripts/deps.sh --test installs it)"
PP=$(dirname "$(find "$P" -path '*gpucal/__init__.py' | head -1)")
sed -n '/<!-- python-example -->/,/^```$/p' "$GC_SRC/README.md" | sed '1,2d; $d' >"$T/ex.py"
PRE=""
[ -n "$SAN" ] && PRE="$(cc -print-file-name=libasan.so):$(cc -print-file-name=libubsan.so)"
(cd "$T" && MPLBACKEND=Agg LD_PRELOAD=$PRE PYTHONPATH=$(dirname "$PP") "$PY" ex.py) >"$T/out" 2>"$T/err"
rc=$? out=$T/out err=$T/err
expect_rc 0 "Python example"
expect_out '^hopper-h100 4096 [0-9.]+ us \[' "Python sweep line"
expect_out '^ampere-a100 256 [0-9.]+ us' "Python sweep second arch"
expect_out '^132$' "gpucal.arch() dict"
(cd "$T" && LD_PRELOAD=$PRE PYTHONPATH=$(dirname "$PP") "$PY" -c '
import gpucal
try:
    gpucal.predict("gemm", arch="hopper-h100", m=64)
except gpucal.GpucalError as e:
    print("error:", e)
print(gpucal.predict(kernel="'"$GC_SRC"'/model/kernels/mma_matmul_3_1.yaml", arch="ada-rtx4090")["bound"])
g = dict(m=16384, n=16384, k=16384, dtype="f16", arch="hopper-h200")
print("b2b", gpucal.predict("gemm", **g)["kernels"][-1]["prediction"]["clock_source"][:16])
print("1/s", gpucal.predict("gemm", period_us=1e6, **g)["kernels"][-1]["prediction"]["clock_source"][:16])
') >"$T/out" 2>"$T/err"
rc=$? out=$T/out err=$T/err
expect_rc 0 "Python errors and kernels"
expect_out '^error: --m, --n, --k and --dtype are required$' "GpucalError"
expect_out '^tensor$' "Python kernel description"
expect_out '^b2b sm.power_limit_' "Python: the power limit back to back"
expect_out '^1/s sm.tensor_clock ' "Python: period_us= reaches the model"
finish
