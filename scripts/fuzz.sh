#!/bin/sh
# fuzz.sh [SECONDS] - build the libFuzzer targets with clang (ASan + UBSan)
# and run each for SECONDS (default 60) from its committed corpus. New
# inputs go to a temporary folder, never into the committed corpus. A crash
# leaves crash-* in build-fuzz/: copy it to tests/fuzz/regress/<target>/ so
# every later test run replays it. Exit 1 if a target found anything.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
jobs=$(nproc)
CC=clang cmake -S . -B build-fuzz -DGPUCAL_FUZZ=ON -DGPUCAL_SANITIZE=ON -DGPUCAL_CUDA=OFF \
    -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-fuzz -j"$jobs" >/dev/null
status=0
for f in build-fuzz/tests/fuzz_*; do
    [ -x "$f" ] || continue
    t=$(basename "$f" | sed 's/^fuzz_//')
    work=$(mktemp -d)
    echo "== fuzz $t for ${secs}s" >&2
    if ! (cd build-fuzz && "../$f" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
            -print_final_stats=1 "$work" "../tests/fuzz/corpus/$t" 2>"$work.log"); then
        status=1
        echo "fuzz $t: FOUND A PROBLEM (log: $work.log; crash file in build-fuzz/)" >&2
    fi
    grep -E "^stat::(number_of_executed_units|peak_rss_mb)|cov: " "$work.log" | tail -3 >&2
    echo "corpus: $(ls "$work" | wc -l) new inputs" >&2
    rm -rf "$work"
done
exit $status
