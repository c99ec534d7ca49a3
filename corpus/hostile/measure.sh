#!/usr/bin/env bash
# Runs `tooljson validate` (release build) on every case that make_cases.py
# wrote, whole and with --chunk 16, and `tooljson replay` on its SSE cases
# (from the file, with --ndjson, and from stdin), under /usr/bin/time -v;
# prints `case<TAB>mode<TAB>exit<TAB>seconds<TAB>peak MB` (replay rows add
# the peak over the input's size). Runs stop at $TIMEOUT s
# (default 40; exit 124); TOOLJSON_BIN names another build to measure.
# Usage: cargo build --release --bin tooljson && corpus/hostile/measure.sh [CASE-PREFIX]
set -uo pipefail
cd "$(dirname "$0")"
bin=${TOOLJSON_BIN:-../../target/release/tooljson}
limit=${TIMEOUT:-40}
[ -x "$bin" ] || { echo "build first: cargo build --release --bin tooljson" >&2; exit 1; }
[ -d cases ] || { echo "generate first: python3 corpus/hostile/make_cases.py" >&2; exit 1; }
# Runs "$@" under /usr/bin/time -v (stdin from $stdin when set); sets
# code, secs and kb.
timed() {
    local log
    log=$(mktemp)
    /usr/bin/time -v timeout "$limit" "$@" <"${stdin:-/dev/null}" >/dev/null 2>"$log"
    code=$?
    secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log" \
        | awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
    kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$log")
    rm -f "$log"
}
for sse in cases/"${1:-}"*.sse; do
    [ -e "$sse" ] || continue
    name=$(basename "$sse" .sse)
    size=$(stat -c %s "$sse")
    for mode in file ndjson stdin; do
        case "$mode" in
            file) stdin="" timed "$bin" replay "$sse" ;;
            ndjson) stdin="" timed "$bin" replay --ndjson "$sse" ;;
            stdin) stdin="$sse" timed "$bin" replay ;;
        esac
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "replay-$mode" "$code" "$secs" \
            "$(( ${kb:-0} / 1024 ))" "$(awk -v k="${kb:-0}" -v s="$size" 'BEGIN { printf "%.2fx", k * 1024 / s }')"
    done
done
for schema in cases/"${1:-}"*.schema.json; do
    [ -e "$schema" ] || continue
    name=$(basename "$schema" .schema.json)
    flags=""
    case "$name" in 6-*) flags="--assert-formats" ;; esac
    for mode in whole 16; do
        chunk=""
        [ "$mode" = 16 ] && chunk="--chunk 16"
        stdin="" timed "$bin" validate --schema "$schema" $flags $chunk "cases/$name.json"
        printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$mode" "$code" "$secs" "$(( ${kb:-0} / 1024 ))"
    done
done
