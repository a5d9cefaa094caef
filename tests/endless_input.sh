#!/bin/sh
# endless_input.sh - binary and endless inputs (issue 18, class 8): each
# stops with exit 2 and one line naming the file and the right line (and
# column for a byte), never runs on: /dev/urandom, a FIFO that streams NULs
# forever, a FIFO and a file holding one line without a newline larger than
# the 64 KiB line limit, NULs after many lines, and the same bytes in the
# YAML readers (arch files, kernel descriptions) and calib --check.
. "$(dirname "$0")/lib.sh"
G=$GPUCAL
to=""
command -v timeout >/dev/null && to="timeout 60"

refused() { # refused WHAT REGEX: exit 2, one line matching REGEX, nothing on stdout
    expect_rc 2 "$1"
    expect_err_lines 1 "$1"
    expect_err "$2" "$1"
    [ -s "$out" ] && fail "$1: output on stdout"
}

run $to $G trace check /dev/urandom
refused "trace check /dev/urandom" "^/dev/urandom:[0-9]+(:[0-9]+)?: "
run $to $G calib --check /dev/zero
refused "calib --check /dev/zero" "^/dev/zero:1:1: control byte 0x00"

# a line without a newline, larger than the line limit: a file, then a FIFO that never ends
head -c 70000 /dev/zero | tr '\0' 'a' >"$T/long.csv"
run $to $G trace check "$T/long.csv"
refused "a 70000-byte line" "^$T/long\.csv:1: line longer than 65535 bytes"
if mkfifo "$T/fifo1" "$T/fifo2" 2>/dev/null; then
    (cat /dev/zero >"$T/fifo1" 2>/dev/null &)
    run $to $G trace check "$T/fifo1"
    refused "a FIFO of NULs" "^$T/fifo1:1:1: control byte 0x00"
    ( (printf '# gpucal-trace: 1\n# bench: x\n'; yes a | tr -d '\n') >"$T/fifo2" 2>/dev/null &)
    run $to $G trace check "$T/fifo2"
    refused "a FIFO of one endless line" "^$T/fifo2:3: line longer than 65535 bytes"
fi

# the line of a NUL after 1000 lines; a DEL byte in a row
{ printf '# gpucal-trace: 1\n'; yes '#' | head -n 999; printf 'ab\0'; } >"$T/late.csv"
run $to $G trace check "$T/late.csv"
refused "a NUL on line 1001" "^$T/late\.csv:1001:3: control byte 0x00"

# the YAML readers: a NUL on line 3 of an arch file, a DEL in a kernel description
printf 'name: x\nfamily: hopper\ncc: "9.\0"\n' >"$T/nul.yaml"
run $to $G arch validate "$T/nul.yaml"
refused "arch validate, NUL on line 3" "^$T/nul\.yaml:3:8: control byte 0x00: not a text YAML file"
printf 'schema: gpucal-kernel/1\nname: k\177\n' >"$T/del.yaml"
run $to $G predict "$T/del.yaml" --arch hopper-h800
refused "predict, DEL in a kernel" "^$T/del\.yaml:2:8: control byte 0x7f: not a text YAML file"
run $to $G arch validate /dev/zero
refused "arch validate /dev/zero" "/dev/zero"
finish
