#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets in the asan preset (clang, ASan + UBSan) and runs each for a bounded time.
# Exits non-zero when a fuzzer finds a crash, a leak-free timeout or a sanitizer report. Called by packaging/test.sh.
#   NSW_FUZZ_SECONDS  seconds per fuzzer (default 20)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SECONDS_PER_FUZZER="${NSW_FUZZ_SECONDS:-20}"
FUZZERS=(fuzz_nvf1)

cd "$ROOT"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc 2>/dev/null || echo 2)" --target "${FUZZERS[@]}"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# Seed corpora: small valid inputs, so the fuzzer starts past the header checks.
seed_nvf1() {
    local dir="$WORK/corpus/fuzz_nvf1"
    mkdir -p "$dir"
    local header='NVF1\x01\x00\x28\x00\x08\x00\x00\x00'
    # host ts 1, field 138 link 0, NVML ts, latency, type 3, return 0, value
    local r1='\x01\x00\x00\x00\x00\x00\x00\x00\x8a\x00\x00\x00\x00\x00\x00\x00\x00\x80\x5c\xb6\x8f\x0a\x06\x00\x05\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x64\x00\x00\x00\x00\x00\x00\x00'
    local r2='\x02\x00\x00\x00\x00\x00\x00\x00\x8b\x00\x00\x00\x01\x00\x00\x00\xe8\x83\x5c\xb6\x8f\x0a\x06\x00\x05\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\xc8\x00\x00\x00\x00\x00\x00\x00'
    printf "$header$r1$r2$r1" > "$dir/three-records.bin"
    printf "$header$r1\x01\x02" > "$dir/partial.bin"
}
seed_nvf1

export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
for fuzzer in "${FUZZERS[@]}"; do
    mkdir -p "$WORK/corpus/$fuzzer" "$WORK/artifacts/$fuzzer"
    echo "== $fuzzer: ${SECONDS_PER_FUZZER}s"
    if ! "$ROOT/build/asan/tests/fuzz/$fuzzer" -max_total_time="$SECONDS_PER_FUZZER" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$WORK/artifacts/$fuzzer/" "$WORK/corpus/$fuzzer" \
        >"$WORK/$fuzzer.log" 2>&1; then
        echo "FAILED: $fuzzer (log and crashing input below)"
        tail -n 60 "$WORK/$fuzzer.log"
        for a in "$WORK/artifacts/$fuzzer"/*; do
            [ -e "$a" ] || continue
            mkdir -p "$ROOT/build/asan/fuzz-artifacts"
            cp "$a" "$ROOT/build/asan/fuzz-artifacts/"
            echo "input kept: build/asan/fuzz-artifacts/$(basename "$a")"
        done
        status=1
    else
        grep -E "^stat::number_of_executed_units|^Done" "$WORK/$fuzzer.log" | tail -n 2 || true
    fi
done
exit $status
