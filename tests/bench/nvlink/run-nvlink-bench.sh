#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# NVLink targets of issue 6, run by hand on a dev build (not by CTest):
#   1. parsing a 10-minute, 12-link, 1 ms NVF1 recording (14.4M records, 691 MB) vs reading the file once
#      (in-process, best of 3) and vs `cat`;
#   2. `nvlink --metric peak_kernels` on the 4M-kernel export with a 75 s recording.
# Inputs are made once in $NSW_BENCH_DIR (default /tmp/nsw-bench). The big export comes from
#   ../shared/tools/inflate-trace ../shared/traces/nsys2026.2_h100x2_mfu_before_nccl.sqlite big.sqlite --times 250 --gpus 4
# (made here when missing and ../shared exists; if another process is still writing it, we wait).
# NSW_CCL_CORRELATE=/path/to/correlate_nsys_nvlink.py adds the CCL-Bench tool's time and checks its JSON is identical.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
BENCH=${NSW_BENCH_DIR:-/tmp/nsw-bench}
BUILD=${NSW_BUILD_DIR:-$REPO/build/dev}
SHARED=${NSW_SHARED:-$REPO/../shared}
HELPER=$BUILD/tests/bench/nvlink/nsw-bench-nvlink
NSW=$BUILD/app/nsys-workbench
for f in "$HELPER" "$NSW"; do
    [ -x "$f" ] || { echo "build first: cmake --build --preset dev --target nsw-bench-nvlink nsys-workbench" >&2; exit 2; }
done
mkdir -p "$BENCH"
cd "$BENCH"
export QT_QPA_PLATFORM=offscreen

free_mb() { df -Pm "$BENCH" | awk 'NR == 2 { print $4 }'; }
best_of() { # best_of N cmd... -> best wall seconds
    local n=$1 best="" t
    shift
    for ((i = 0; i < n; i++)); do
        /usr/bin/time -f "%e" -o "$BENCH/.time" "$@" >/dev/null 2>&1
        t=$(tail -n 1 "$BENCH/.time")
        if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
    done
    echo "$best"
}

REC=$BENCH/nvlink-600s-12links.bin
if [ ! -s "$REC" ]; then
    [ "$(free_mb)" -gt 1500 ] || { echo "need 1.5 GB free in $BENCH" >&2; exit 2; }
    "$HELPER" generate "$REC" --seconds 600 --links 12
fi
echo "== 1. parse a 10-minute recording"
"$HELPER" parse "$REC" --repeat 3
cat_s=$(best_of 3 cat "$REC")
cli_s=$(best_of 3 "$NSW" nvlink "$REC" --metric max_throughput --json)
echo "cat (best of 3)                     ${cat_s} s"
echo "nvlink --metric max_throughput      ${cli_s} s  ($(awk -v a="$cli_s" -v b="$cat_s" 'BEGIN { printf "%.2f", a / b }') x cat; process start and the metric included)"

echo "== 2. peak_kernels on the 4M-kernel export with a 75 s recording"
BIG=$BENCH/big.sqlite
if [ ! -s "$BIG" ] && [ -x "$SHARED/tools/inflate-trace" ]; then
    [ "$(free_mb)" -gt 3000 ] || { echo "need 3 GB free in $BENCH" >&2; exit 2; }
    "$SHARED/tools/inflate-trace" "$SHARED/traces/nsys2026.2_h100x2_mfu_before_nccl.sqlite" "$BIG" --times 250 --gpus 4
fi
if [ ! -s "$BIG" ]; then
    echo "no $BIG (and no $SHARED/tools/inflate-trace): skipped"
    exit 0
fi
size=-1
while [ "$(stat -c %s "$BIG")" != "$size" ] || [ -e "$BIG.part" ]; do # another process may still be writing it
    size=$(stat -c %s "$BIG")
    sleep 5
done
DIR=$BENCH/nvlink-big
mkdir -p "$DIR"
[ -s "$BENCH/nvlink-75s-big.bin" ] || "$HELPER" generate-for "$BIG" "$BENCH/nvlink-75s-big.bin" --seconds 75 --links 12
ln -sf "$BIG" "$DIR/big.sqlite"
ln -sf "$BENCH/nvlink-75s-big.bin" "$DIR/nvlink_trace.bin"
for args in "--top 1" "--top 10 --direction tx --gpu 1"; do
    # shellcheck disable=SC2086
    ours=$(best_of 3 "$NSW" nvlink "$DIR" --metric peak_kernels --json $args)
    # shellcheck disable=SC2086
    /usr/bin/time -f "%M" -o "$BENCH/.time" "$NSW" nvlink "$DIR" --metric peak_kernels --json $args >"$BENCH/ours.json" 2>/dev/null
    rss=$(tail -n 1 "$BENCH/.time")
    echo "nvlink --metric peak_kernels $args: ${ours} s, peak RSS $((rss / 1024)) MB"
    if [ -n "${NSW_CCL_CORRELATE:-}" ]; then
        # shellcheck disable=SC2086
        /usr/bin/time -f "%e %M" -o "$BENCH/.time" python3 "$NSW_CCL_CORRELATE" "$DIR" --metrics peak_kernels --json \
            $args >"$BENCH/ccl.json" 2>/dev/null
        ref=$(tail -n 1 "$BENCH/.time")
        echo "  correlate_nsys_nvlink.py: ${ref%% *} s, peak RSS $((${ref##* } / 1024)) MB, $(awk -v a="${ref%% *}" -v b="$ours" 'BEGIN { printf "%.0f", a / b }')x slower"
        python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); print("  JSON identical" if a == {"peak_kernels": b.get("peak_kernels", b)} or a == b else "  JSON DIFFERS")' "$BENCH/ours.json" "$BENCH/ccl.json"
    fi
done
