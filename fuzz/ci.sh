#!/usr/bin/env bash
# Short fuzzing for CI: builds the cargo-fuzz targets and runs each for a
# bounded time, seeded from corpus/fuzz/<target>/. The whole script (install,
# build and runs) stays inside FUZZ_BUDGET seconds (default 360).
#
# Exit status: 0 when every target ran clean or fuzzing had to be skipped
# (the reason is printed plainly); 1 only when a target found a crash, whose
# input is then copied to corpus/crashes/<target>/ for `cargo test` to replay.
#
# Needs a nightly toolchain (`cargo +nightly`) or RUSTC_BOOTSTRAP=1 on stable,
# and cargo-fuzz (installed here if missing and time allows).
set -uo pipefail
cd "$(dirname "$0")"
FUZZ_DIR=$(pwd)
ROOT=$(cd .. && pwd)
BUDGET=${FUZZ_BUDGET:-360}
START=$(date +%s)
TARGETS=$(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | grep -v '^tooljson-fuzz$')

left() { echo $((BUDGET - ($(date +%s) - START))); }
skip() {
    echo "fuzz: SKIPPED: $*"
    echo "fuzz: (the corpus is still replayed by cargo test: tests/corpus_replay.rs)"
    exit 0
}

# Toolchain: nightly if rustup has one, else stable with RUSTC_BOOTSTRAP=1.
if command -v rustup >/dev/null && rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    CARGO=(cargo +nightly)
    echo "fuzz: using the nightly toolchain"
else
    export RUSTC_BOOTSTRAP=1
    CARGO=(cargo)
    echo "fuzz: no nightly toolchain; using stable with RUSTC_BOOTSTRAP=1"
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
    t=$(( $(left) - 150 ))
    [ "$t" -gt 30 ] || skip "cargo-fuzz is not installed and the budget leaves no time to install it"
    [ "$t" -gt 240 ] && t=240
    echo "fuzz: cargo-fuzz not installed; trying 'cargo install cargo-fuzz --locked' (at most ${t}s)"
    if ! timeout "$t" cargo install cargo-fuzz --locked >/tmp/tooljson-cargo-fuzz-install.log 2>&1; then
        tail -5 /tmp/tooljson-cargo-fuzz-install.log
        skip "cargo-fuzz is not installed and 'cargo install cargo-fuzz --locked' failed or ran out of time"
    fi
fi
echo "fuzz: $(cargo fuzz --version)"

# No sanitizer: the library is #![forbid(unsafe_code)], so ASan adds cost and
# no coverage; debug assertions (overflow checks) stay on (cargo-fuzz default).
FLAGS=(-s none)
t=$(( $(left) - 60 ))
[ "$t" -gt 20 ] || skip "no time left to build the fuzz targets"
echo "fuzz: building $(echo $TARGETS | wc -w) targets (at most ${t}s)"
if ! timeout "$t" "${CARGO[@]}" fuzz build "${FLAGS[@]}" >/tmp/tooljson-fuzz-build.log 2>&1; then
    tail -20 /tmp/tooljson-fuzz-build.log
    if grep -q "error\[E\|error: could not compile" /tmp/tooljson-fuzz-build.log; then
        echo "fuzz: FAILED: the fuzz targets do not compile"
        exit 1
    fi
    skip "the fuzz build failed or took longer than ${t}s (toolchain or time, see above)"
fi

n=$(echo $TARGETS | wc -w)
per=$(( ($(left) - 10) / n ))
[ "$per" -ge 5 ] || skip "the build used the budget; no time left to run the targets"
[ "$per" -gt 120 ] && per=120
status=0
for target in $TARGETS; do
    work="$FUZZ_DIR/corpus/$target"
    seeds="$ROOT/corpus/fuzz/$target"
    artifacts="$FUZZ_DIR/artifacts/$target"
    rm -rf "$artifacts"
    mkdir -p "$work" "$seeds" "$artifacts"
    before=0
    echo "== fuzz $target for ${per}s"
    extra=()
    # The recorded vendor transcripts seed the SSE and providers targets too,
    # so mutated real streams are fuzzed. Found as the tests find them
    # (tests/common/mod.rs `testdata`): $TOOLJSON_TESTDATA when set, the
    # repository's tests/data/, then ../shared/testdata.
    if [ "$target" = providers ] || [ "$target" = sse ]; then
        for root in ${TOOLJSON_TESTDATA:+"$TOOLJSON_TESTDATA"} "$ROOT/tests/data" "$ROOT/../shared/testdata"; do
            if [ -d "$root/vendor-streams" ]; then
                extra=("$root/vendor-streams")
                break
            fi
        done
    fi
    "${CARGO[@]}" fuzz run "${FLAGS[@]}" "$target" "$work" "$seeds" "${extra[@]}" -- \
        -max_total_time="$per" -max_len=4096 -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 >"/tmp/tooljson-fuzz-$target.log" 2>&1
    rc=$?
    grep -E '^#[0-9]+ +(DONE|INITED)|stat::number_of_executed_units|stat::peak_rss_mb' \
        "/tmp/tooljson-fuzz-$target.log" | tail -4
    after=$(ls "$artifacts" | wc -l)
    if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
        if [ "$after" -gt "$before" ]; then
            echo "fuzz: CRASH in $target (exit $rc):"
            grep -E 'panicked|ERROR|SUMMARY' "/tmp/tooljson-fuzz-$target.log" | head -10
            mkdir -p "$ROOT/corpus/crashes/$target"
            for f in "$artifacts"/*; do
                cp "$f" "$ROOT/corpus/crashes/$target/"
                echo "fuzz: saved $ROOT/corpus/crashes/$target/$(basename "$f")"
            done
            status=1
        else
            tail -5 "/tmp/tooljson-fuzz-$target.log"
            echo "fuzz: $target exited $rc without a crash input (treated as a skip)"
        fi
    fi
done
echo "fuzz: done in $(( $(date +%s) - START ))s, status $status"
exit $status
