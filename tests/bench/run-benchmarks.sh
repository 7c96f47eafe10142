#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Benchmark harness for the performance targets of the nsys-workbench issues. Run by hand, not by CTest:
#   tests/bench/run-benchmarks.sh [--rebuild-inputs] [--repeat N]
# Environment: NSW_BENCH_DIR (scratch, default /tmp/nsw-bench), NSW_BUILD_DIR (default <repo>/build/dev),
#   NSW_SHARED (default <repo>/../shared), NSW_BENCH_INPUTS ("big gen", the exports to run the targets on),
#   NSW_RULE_SET / NSW_ENGINE / NSW_MODEL (categories target), NSW_GEN_KERNELS (default 4000000).
# Each target prints ours / floor, where the floor is measured in the same run (sqlite3 scans of the columns the
# target needs, `cat` of a recording). Targets whose command does not exist yet are reported as not implemented.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH=${NSW_BENCH_DIR:-/tmp/nsw-bench}
BUILD=${NSW_BUILD_DIR:-$REPO/build/dev}
SHARED=${NSW_SHARED:-$REPO/../shared}
TRACEGEN=$BUILD/tests/tracegen/nsys-tracegen
NSW=$BUILD/app/nsys-workbench
GEN_KERNELS=${NSW_GEN_KERNELS:-4000000}
REPEAT=2
REBUILD=0
while [ $# -gt 0 ]; do
    case $1 in
    --rebuild-inputs) REBUILD=1 ;;
    --repeat) REPEAT=$2; shift ;;
    -h | --help) sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

for tool in sqlite3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install sqlite3 time)" >&2; exit 2; }
done
if [ ! -x "$TRACEGEN" ]; then
    echo "build the generator first: cmake --preset dev && cmake --build --preset dev --target nsys-tracegen" >&2
    exit 2
fi
export QT_QPA_PLATFORM=offscreen
# Every target here times a first open, from SQLite: no run reads or writes the profile cache (--no-cache; bench_load
# measures the reopen from it, in this scratch folder too).
export NSYS_WORKBENCH_CACHE_DIR=$BENCH/cache
mkdir -p "$BENCH"
cd "$BENCH"

# ---------------------------------------------------------------------------------------------------- timing helpers
# measure NAME cmd...: best wall time (s) of $REPEAT runs into T[NAME], its CPU time (user+sys) into C[NAME], peak
# RSS (KiB) into M[NAME]; output discarded.
declare -A T C M
measure() {
    local name=$1 best="" cpu="" rss=0 i wall kib usr sys
    shift
    for ((i = 0; i < REPEAT; i++)); do
        if ! /usr/bin/time -f "%e %M %U %S" -o "$BENCH/.time" "$@" >/dev/null 2>"$BENCH/.stderr"; then
            echo "  $name failed: $(tail -n 3 "$BENCH/.stderr")" >&2
            T[$name]=""
            return 1
        fi
        read -r wall kib usr sys <"$BENCH/.time"
        if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then
            best=$wall
            cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN{printf "%.2f", u + s}')
        fi
        [ "$kib" -gt "$rss" ] && rss=$kib
    done
    T[$name]=$best
    C[$name]=$cpu
    M[$name]=$rss
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.2f", a / b; else print "-" }'; }
verdict() { awk -v r="$1" -v g="$2" -v dir="$3" 'BEGIN{ if (r == "-") print "-"; else if ((dir == "le" && r <= g) || (dir == "ge" && r >= g)) print "ok"; else print "MISSED" }'; }
ROWS=()
row() { ROWS+=("$(printf '%-34s %-10s %9s %9s %8s %10s  %s' "$@")"); }
# A command counts as implemented when `nsys-workbench CMD --help` succeeds and mentions CMD.
# (The help text is captured first: `grep -q` closing the pipe early would fail the pipeline under pipefail.)
implemented() {
    [ -x "$NSW" ] || return 1
    local help
    help=$(timeout 30 "$NSW" "$1" --help 2>&1) || return 1
    grep -q -- "$1" <<<"$help"
}

# ---------------------------------------------------------------------------------------------------------- inputs
stale() { [ "$REBUILD" = 1 ] || [ ! -s "$1" ]; }
echo "scratch: $BENCH"
echo "== inputs"
if stale gen.sqlite; then
    echo "  generating gen.sqlite ($GEN_KERNELS kernels, LLM inference on 4 GPUs, GPU metrics)"
    REPEAT=1 measure gen_input "$TRACEGEN" --out gen.sqlite --schema 2026.2 --gpus 4 --kernels "$GEN_KERNELS" \
        --seed 1 --workload llm-inference --gpu-metrics
    echo "  generator: ${T[gen_input]} s (CPU ${C[gen_input]} s), $(awk -v k="$GEN_KERNELS" -v t="${T[gen_input]}" 'BEGIN{printf "%.0f", k/t}') kernels/s, peak RSS ${M[gen_input]} KiB"
fi
INPUTS=()
if [ -d "$SHARED/traces" ] && [ -x "$SHARED/tools/inflate-trace" ]; then
    if stale big.sqlite; then
        echo "  inflating nsys2026.2_h100x2_mfu_before_nccl.sqlite x250 x4 GPUs into big.sqlite"
        rm -f big.sqlite
        "$SHARED/tools/inflate-trace" "$SHARED/traces/nsys2026.2_h100x2_mfu_before_nccl.sqlite" big.sqlite --times 250 --gpus 4
    fi
    INPUTS+=(big)
    if stale big-after.sqlite; then
        echo "  inflating nsys2026.2_h100x2_mfu_after_nccl.sqlite x250 x4 GPUs into big-after.sqlite (compare)"
        rm -f big-after.sqlite
        "$SHARED/tools/inflate-trace" "$SHARED/traces/nsys2026.2_h100x2_mfu_after_nccl.sqlite" big-after.sqlite --times 250 --gpus 4
    fi
else
    echo "  $SHARED/traces not available: no inflated real export, targets run on the generated one only"
fi
INPUTS+=(gen)
[ -n "${NSW_BENCH_INPUTS:-}" ] && read -r -a INPUTS <<<"$NSW_BENCH_INPUTS"
PEAK_INPUT=${INPUTS[0]}
if stale rec-600s.bin; then
    echo "  writing rec-600s.bin (10 min, 12 links, 1 ms polls)"
    "$TRACEGEN" --nvlink-bin rec-600s.bin --nvlink-duration-s 600 --nvlink-links 12 --seed 1 --quiet
fi
if stale "rec-75s-$PEAK_INPUT.bin"; then
    # Aligned to the export it is correlated with: its wall clock at session 0 and its first kernel.
    epoch=$(sqlite3 -readonly "$PEAK_INPUT.sqlite" "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME")
    first=$(sqlite3 -readonly "$PEAK_INPUT.sqlite" "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_KERNEL")
    echo "  writing rec-75s-$PEAK_INPUT.bin (75 s from session time $first ns of $PEAK_INPUT.sqlite)"
    "$TRACEGEN" --nvlink-bin "rec-75s-$PEAK_INPUT.bin" --nvlink-duration-s 75 --nvlink-epoch-ns "$epoch" \
        --nvlink-start-ns "$first" --seed 2 --quiet
fi
ls -l ./*.sqlite ./*.bin | awk '{printf "  %-28s %8.0f MB\n", $NF, $5 / 1e6}'

# ------------------------------------------------------------------------------------------------------ the generator
echo "== generator"
measure gen_1m "$TRACEGEN" --out gen-1m.sqlite --kernels 1000000 --gpus 2 --seed 3 --quiet
GEN_RATE=$(awk -v t="${T[gen_1m]}" 'BEGIN{printf "%.0f", 1e6/t}')
row "nsys-tracegen 1M kernels" "-" "${T[gen_1m]}" "-" "-" "<4 s" "$GEN_RATE kernels/s (CPU ${C[gen_1m]} s), peak RSS $((M[gen_1m] / 1024)) MiB"
rm -f gen-1m.sqlite

# ------------------------------------------------------------------------------------------------------------ targets
# What `info --load` reads (core/profile/tablereaders.cpp): table:columns.
LOAD_SCAN="StringIds:id,value
CUPTI_ACTIVITY_KIND_KERNEL:start,end,deviceId,contextId,streamId,correlationId,globalPid,demangledName,shortName,mangledName,gridX,gridY,gridZ,blockX,blockY,blockZ,registersPerThread,staticSharedMemory,dynamicSharedMemory
CUPTI_ACTIVITY_KIND_MEMCPY:start,end,deviceId,contextId,streamId,correlationId,globalPid,bytes,copyKind
CUPTI_ACTIVITY_KIND_MEMSET:start,end,deviceId,contextId,streamId,correlationId,globalPid,bytes
CUPTI_ACTIVITY_KIND_GRAPH_TRACE:start,end,deviceId,contextId,streamId,correlationId,globalPid,graphId,graphExecId
CUPTI_ACTIVITY_KIND_RUNTIME:start,end,globalTid,correlationId,nameId,eventClass
NVTX_EVENTS:start,end,eventType,text,textId,globalTid,endGlobalTid,domainId
OSRT_API:start,end,globalTid,nameId"
scan_sql() { # one SELECT per listed table the file has
    local f=$1 spec sql=""
    for spec in $LOAD_SCAN; do
        if [ "$(sqlite3 -readonly "$f" "SELECT count(*) FROM sqlite_master WHERE name='${spec%%:*}'")" = 1 ]; then
            sql="$sql SELECT ${spec#*:} FROM ${spec%%:*};"
        fi
    done
    echo "$sql"
}

target_stats() { # stats -r cuda_gpu_kern_sum vs the kernel columns it needs
    local in=$1 f=$1.sqlite
    measure "floor_kern_$in" sqlite3 -readonly "$f" "SELECT start, end, demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL; SELECT id, value FROM StringIds" || true
    if ! implemented stats; then row "stats cuda_gpu_kern_sum" "$in" - "${T[floor_kern_$in]}" - "<=1.5" "not implemented yet"; return; fi
    measure "stats_$in" "$NSW" stats --no-cache -r cuda_gpu_kern_sum --format csv "$f" || { row "stats cuda_gpu_kern_sum" "$in" failed - - "<=1.5" ""; return; }
    local r; r=$(ratio "${T[stats_$in]}" "${T[floor_kern_$in]}")
    row "stats cuda_gpu_kern_sum" "$in" "${T[stats_$in]}" "${T[floor_kern_$in]}" "$r" "<=1.5" "$(verdict "$r" 1.5 le)"
}

target_info() { # info --load vs a scan of every table it loads; its peak memory vs the file size
    local in=$1 f=$1.sqlite
    measure "floor_load_$in" sqlite3 -readonly "$f" "$(scan_sql "$f")" || true
    if ! implemented info; then
        row "info --load" "$in" - "${T[floor_load_$in]}" - "<=1.5" "not implemented yet"
        row "info --load peak RSS / file" "$in" - "$(($(stat -c %s "$f") / 1048576))MiB" - "<=0.5" "not implemented yet"
        return
    fi
    measure "info_$in" "$NSW" info --no-cache --load "$f" || { row "info --load" "$in" failed - - "<=1.5" ""; return; }
    local r; r=$(ratio "${T[info_$in]}" "${T[floor_load_$in]}")
    row "info --load" "$in" "${T[info_$in]}" "${T[floor_load_$in]}" "$r" "<=1.5" "$(verdict "$r" 1.5 le)"
    local size; size=$(stat -c %s "$f")
    r=$(awk -v k="${M[info_$in]}" -v s="$size" 'BEGIN{printf "%.2f", k * 1024 / s}')
    row "info --load peak RSS / file" "$in" "$((M[info_$in] / 1024))MiB" "$((size / 1048576))MiB" "$r" "<=0.5" "$(verdict "$r" 0.5 le)"
}

target_nvtx() { # nvtx tree vs NVTX_EVENTS + kernel + API columns
    local in=$1 f=$1.sqlite
    measure "floor_nvtx_$in" sqlite3 -readonly "$f" "SELECT start, end, eventType, rangeId, text, globalTid, endGlobalTid, textId, domainId FROM NVTX_EVENTS; SELECT start, end, globalPid, correlationId, deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL; SELECT start, end, globalTid, correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME; SELECT id, value FROM StringIds" || true
    if ! implemented nvtx; then row "nvtx tree" "$in" - "${T[floor_nvtx_$in]}" - "<=1.5" "not implemented yet"; return; fi
    measure "nvtx_$in" "$NSW" nvtx --no-cache "$f" --format json || { row "nvtx tree" "$in" failed - - "<=1.5" ""; return; }
    local r; r=$(ratio "${T[nvtx_$in]}" "${T[floor_nvtx_$in]}")
    row "nvtx tree" "$in" "${T[nvtx_$in]}" "${T[floor_nvtx_$in]}" "$r" "<=1.5" "$(verdict "$r" 1.5 le)"
}

target_kerneltable() { # sort and filter latency of the kernel table (bench_kerneltable prints its worst case)
    local in=$1 f=$1.sqlite bench=$BUILD/tests/bench/bench_kerneltable
    if [ ! -x "$bench" ]; then row "kernel table sort/filter" "$in" - - - "<=100 ms" "build bench_kerneltable"; return; fi
    local line; line=$("$bench" "$f" | grep '^worst:' || true)
    row "kernel table sort/filter" "$in" - - - "<=100 ms" "${line:-failed}"
}

target_categories() { # re-categorization after a rule edit, bars redrawn (bench_categories prints its worst case)
    local in=$1 f=$1.sqlite bench=$BUILD/tests/bench/bench_categories
    if [ ! -x "$bench" ]; then row "categories recategorize" "$in" - - - "<=0.2 s" "build bench_categories"; return; fi
    local line
    line=$(QT_QPA_PLATFORM=offscreen "$bench" "$f" 2>/dev/null | grep 'rule edit -> bars redrawn' \
        | awk '{w = $(NF - 5); if (w > worst) worst = w} END {if (NR) printf "worst %.1f ms over the 4 time modes", worst}')
    row "categories recategorize" "$in" - - - "<=200 ms" "${line:-failed}"
}

target_nvlink_parse() { # nvlink on the 10-minute recording vs reading the file once
    measure floor_cat cat rec-600s.bin || true
    if ! implemented nvlink; then row "nvlink parse 690 MB" "rec-600s" - "${T[floor_cat]}" - "<=1.5" "not implemented yet"; return; fi
    measure nvlink_parse "$NSW" nvlink --no-cache rec-600s.bin --metric max_throughput --json || { row "nvlink parse 690 MB" rec-600s failed - - "<=1.5" ""; return; }
    local r; r=$(ratio "${T[nvlink_parse]}" "${T[floor_cat]}")
    row "nvlink parse 690 MB" "rec-600s" "${T[nvlink_parse]}" "${T[floor_cat]}" "$r" "<=1.5" "$(verdict "$r" 1.5 le)"
}

target_peak_kernels() { # peak_kernels on the big export with the 75 s recording; the Python tool takes ~30 s
    local in=$PEAK_INPUT
    if ! implemented nvlink; then row "nvlink peak_kernels (75 s rec)" "$in" - - - ">=20x" "not implemented yet"; return; fi
    measure "peak_$in" "$NSW" nvlink --no-cache "rec-75s-$in.bin" --sqlite "$in.sqlite" --metric peak_kernels --gpu 0 --json \
        || { row "nvlink peak_kernels (75 s rec)" "$in" failed - - ">=20x" ""; return; }
    local speedup; speedup=$(ratio 30 "${T[peak_$in]}")
    row "nvlink peak_kernels (75 s rec)" "$in" "${T[peak_$in]}" "30(py)" "${speedup}x" ">=20x" "$(verdict "$speedup" 20 ge)"
}

target_compare() { # compare by kernel name on the inflated before/after pair vs sqlite3 of both files' kernel columns
    local name="compare --by kernel (pair)"
    if [ ! -s big.sqlite ] || [ ! -s big-after.sqlite ]; then row "$name" big - - - "<=1.5" "needs ../shared"; return; fi
    measure floor_compare bash -c "sqlite3 -readonly big.sqlite 'SELECT start, end, demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL; SELECT id, value FROM StringIds' && sqlite3 -readonly big-after.sqlite 'SELECT start, end, demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL; SELECT id, value FROM StringIds'" || true
    if ! implemented compare; then row "$name" big - "${T[floor_compare]}" - "<=1.5" "not implemented yet"; return; fi
    measure compare_pair "$NSW" compare --no-cache big.sqlite big-after.sqlite --format json || { row "$name" big failed - - "<=1.5" ""; return; }
    local r; r=$(ratio "${T[compare_pair]}" "${T[floor_compare]}")
    row "$name" big "${T[compare_pair]}" "${T[floor_compare]}" "$r" "<=1.5" "$(verdict "$r" 1.5 le), peak RSS $((M[compare_pair] / 1024)) MiB"
}

target_samples() { # CPU samples (issue 35): load vs a scan of the two tables; the Samples pane's re-focus
    local bench=$BUILD/tests/bench/bench_samples
    if [ ! -x "$bench" ]; then row "samples load / re-focus" samples - - - "<=1.0, 300 ms" "build bench_samples"; return; fi
    if stale samples.sqlite; then
        echo "  generating samples.sqlite (1M CPU samples with stacks, 2 GPUs)"
        "$TRACEGEN" --out samples.sqlite --schema 2025.5 --gpus 2 --kernels 400000 --step-gap-us 500 \
            --cpu-samples 1000000 --seed 3 --quiet
    fi
    if stale samples-symbols.sqlite; then
        echo "  generating samples-symbols.sqlite (1M CPU samples, each with its own innermost function; 100 stacks 10,000 deep)"
        "$TRACEGEN" --out samples-symbols.sqlite --schema 2025.5 --gpus 2 --kernels 400000 --step-gap-us 500 \
            --cpu-samples 1000000 --cpu-sample-symbols 1000000 --cpu-sample-recursion 10000 --seed 3 --quiet
    fi
    local out load refocus r
    out=$("$bench" samples.sqlite --many-symbols samples-symbols.sqlite --iterations "$REPEAT" 2>&1) \
        || { row "samples load" samples failed - - "<=1.0" ""; return; }
    echo "$out" | sed 's/^/  /'
    load=$(grep '^samples load:' <<<"$out")
    # the worst re-focus of both inputs
    refocus=$(grep '^samples re-focus' <<<"$out" | sed -E 's/.*worst ([0-9]+) ms.*/\1 &/' | sort -n | tail -1)
    r=$(sed -E 's/.*ratio ([0-9.]+)x.*/\1/' <<<"$load")
    row "samples load" samples "$(sed -E 's/samples load: ([0-9.]+) s.*/\1/' <<<"$load")" \
        "$(sed -E 's/.*floor [^)]*\) ([0-9.]+) s.*/\1/' <<<"$load")" "$r" "<=1.0" "$(verdict "$r" 1.0 le)"
    row "samples re-focus (worst)" samples - - - "<=300 ms" "$(sed -E 's/.*worst ([0-9]+) ms.*/\1 ms/' <<<"$refocus")"
}

target_ranks() { # issue 34: summarize of an export (vs its full scan) and 1,024 summaries merged, heat map drawn
    local in=$1 f=$1.sqlite bench=$BUILD/tests/bench/bench_summarize line
    if [ -x "$bench" ]; then
        line=$("$bench" "$f" 2>&1 | tail -1)
        row "summarize" "$in" - - - "<=1.0, <=2 %" "${line:-failed}"
    else
        row "summarize" "$in" - - - "<=1.0, <=2 %" "build bench_summarize"
    fi
    bench=$BUILD/tests/bench/bench_ranks
    if [ ! -x "$bench" ]; then row "ranks 1024 merge / paint" gen - - - "<=5 s, 2 GB, 16 ms" "build bench_ranks"; return; fi
    line=$(QT_QPA_PLATFORM=offscreen "$bench" 2>&1 | tail -1)
    row "ranks 1024 merge / paint" gen - - - "<=5 s, 2 GB, 16 ms" "${line:-failed}"
}

echo "== targets (best of $REPEAT runs; nsys-workbench: $NSW)"
[ -x "$NSW" ] || echo "  $NSW is not built (cmake --build --preset dev --target nsys-workbench): no target can run"
for in in "${INPUTS[@]}"; do
    target_stats "$in"
    target_info "$in"
    target_nvtx "$in"
    target_kerneltable "$in"
    target_categories "$in"
done
target_nvlink_parse
target_peak_kernels
target_compare
target_samples
target_ranks "${INPUTS[0]}"

echo
printf '%-34s %-10s %9s %9s %8s %10s  %s\n' target input "ours(s)" "floor(s)" ratio goal result
for r in "${ROWS[@]}"; do echo "$r"; done
