#!/bin/sh
# synopsis.sh - the README's command synopsis and each command's --help name
# the same options: every long option of a command's usage lines (its help
# up to the first blank line) is in the README's lines for that command, and
# every option the README gives a command is in that command's help.
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
sed -n '/^## Command line/,/^## /p' "$GC_SRC/README.md" | sed -n '/^```$/,/^```$/p' >"$T/syn"
[ -s "$T/syn" ] || fail "README.md has no Command line block"
opts() { grep -o -- '--[a-z][a-z0-9-]*' | sort -u; }
for c in $(awk '$1 == "gpucal" { print $2 }' "$T/syn" | sort -u); do
    $G "$c" --help >"$T/help" 2>&1 || { fail "gpucal $c --help failed"; continue; }
    awk 'NR == 1 || (go && NF) { print; go = 1; next } { exit }' "$T/help" | opts >"$T/usage"
    opts <"$T/help" >"$T/all"
    grep "^gpucal $c " "$T/syn" | opts >"$T/readme"
    for o in $(comm -23 "$T/usage" "$T/readme"); do
        fail "README.md's synopsis of \`gpucal $c\` lacks $o (its --help has it)"
    done
    # a CPU-only build's `measure --help` describes the missing binary, not its options
    grep -q 'built without CUDA' "$T/help" && continue
    for o in $(comm -13 "$T/all" "$T/readme"); do
        [ "$o" = "--help" ] && continue
        fail "README.md's synopsis gives \`gpucal $c\` $o, which its --help does not know"
    done
done
finish
