#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the whole project with a sanitizer preset and runs the whole test suite under it:
#   tests/sanitizers/run-suite.sh asan|tsan [CTEST_ARGS...]
# asan = AddressSanitizer + UndefinedBehaviorSanitizer, tsan = ThreadSanitizer (both clang). Called by .ci/run.
set -euo pipefail
preset=${1:?usage: run-suite.sh asan|tsan [CTEST_ARGS...]}
shift
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/packaging/common.sh"
cd "$ROOT"
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset "$preset" >/dev/null
start=$SECONDS
cmake --build --preset "$preset" -j "$jobs"
echo "$preset build: $((SECONDS - start)) s"
export QT_QPA_PLATFORM=offscreen
nsw_ctest --preset "$preset" -j "$jobs" "$@"
