#!/bin/sh
# test.sh - install what gpucal needs, build with warnings as errors, run the
# whole CPU test suite, then again under AddressSanitizer + UBSan. Before the tests,
# scripts/sim-check.sh runs every exported arch's microbenchmarks through the real
# Accel-Sim where its sources are (building it into build-sim/ the first time), so the
# tests' sim_parse finds it. The README's second set-up command, and what .ci/run runs.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh --test
jobs=$(nproc)
echo "== build (warnings are errors; CUDA kernels too when nvcc is here)" >&2
cmake -S . -B build-test -DGPUCAL_WERROR=ON >/dev/null
cmake --build build-test -j"$jobs"
echo "== the exports through the real Accel-Sim (builds it once into build-sim/: minutes)" >&2
GPUCAL=$PWD/build-test/gpucal sh scripts/sim-check.sh
echo "== tests" >&2
ctest --test-dir build-test --output-on-failure -LE gpu -j"$jobs"
echo "== tests under ASan + UBSan" >&2
cmake -S . -B build-asan -DGPUCAL_WERROR=ON -DGPUCAL_SANITIZE=ON -DGPUCAL_CUDA=OFF \
    -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -LE gpu -j"$jobs"
echo "== unit tests and the CLI under valgrind memcheck (leaks)" >&2
for t in build-test/tests/test_*; do
    GC_SRC=$PWD GPUCAL_ARCH_DIR=$PWD/arch valgrind -q --error-exitcode=1 --leak-check=full \
        --errors-for-leak-kinds=definite,indirect "$t" >/dev/null
done
for a in arch/*.yaml; do
    valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        build-test/gpucal arch show "$a" --format json >/dev/null
done
echo "== fuzzing, ${GPUCAL_FUZZ_SECONDS:-60} s per target (scripts/fuzz.sh SECONDS for longer)" >&2
sh scripts/fuzz.sh "${GPUCAL_FUZZ_SECONDS:-60}"
echo "== all tests passed" >&2
