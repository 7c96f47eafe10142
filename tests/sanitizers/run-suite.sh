#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the project with a sanitizer preset and runs the test suite under it:
#   tests/sanitizers/run-suite.sh asan|tsan [--all] [CTEST_ARGS...]
# asan = AddressSanitizer + UndefinedBehaviorSanitizer, tsan = ThreadSanitizer (both clang). Called by .ci/run.
# When tests/sanitizers/PRESET-tests.txt exists (tsan), only the tests it lists are built and run, unless --all.
set -euo pipefail
preset=${1:?usage: run-suite.sh asan|tsan [--all] [CTEST_ARGS...]}
shift
all=false
if [ "${1:-}" = --all ]; then
    all=true
    shift
fi
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/packaging/common.sh"
cd "$ROOT"
jobs=$(nproc 2>/dev/null || echo 2)
list="$ROOT/tests/sanitizers/$preset-tests.txt"
targets=()
select=()
if [ "$all" = false ] && [ -f "$list" ]; then
    mapfile -t tests < <(grep -v -e '^#' -e '^[[:space:]]*$' "$list")
    # The listed tests, and the executables tests start (the CLI, the trace generator).
    targets=(--target "${tests[@]}" nsys-workbench nsys-tracegen)
    select=(-R "^($(IFS='|'; echo "${tests[*]}"))\$")
fi
cmake --preset "$preset" >/dev/null
start=$SECONDS
cmake --build --preset "$preset" -j "$jobs" "${targets[@]}"
echo "$preset build: $((SECONDS - start)) s"
export QT_QPA_PLATFORM=offscreen
nsw_ctest --preset "$preset" -j "$jobs" "${select[@]}" "$@"
