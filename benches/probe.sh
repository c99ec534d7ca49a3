#!/usr/bin/env bash
# Instructions per call of every workload in benches/probe.rs, counted by
# cachegrind: (count at N=11 - count at N=1) / 10, so start-up and input
# generation cancel out. Usage: benches/probe.sh [WORKLOAD-PREFIX]
# Prints `workload<TAB>instructions`. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p tooljson-benches --bench probe --no-run >/dev/null 2>&1 \
    || { echo "probe build failed: run cargo bench -p tooljson-benches --bench probe --no-run" >&2; exit 1; }
probe=$(ls -t target/release/deps/probe-* | grep -v '\.d$' | head -1)
count() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$probe" "$1" "$2" 2>&1 \
        | sed -n 's/.*I *refs: *//p' | tr -d ','
}
for w in $("$probe" list); do
    case "$w" in "${1:-}"*) ;; *) continue ;; esac
    one=$(count "$w" 1)
    eleven=$(count "$w" 11)
    printf '%s\t%s\n' "$w" $(( (eleven - one) / 10 ))
done
