#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Records what every headless command prints (stdout, stderr, exit code) on every export at hand, so that a
# refactoring can prove its outputs byte-identical:
#   tests/regression/cli-outputs.sh [--cache] BINARY OUTDIR [TRACE...]        record
#   diff -r BEFORE_DIR AFTER_DIR                                               compare two recordings
# TRACEs default to ../shared/traces/*.sqlite (when present) and the demo. PNG outputs are not recorded (fonts).
# Every command reads SQLite (--no-cache), unless --cache: then each runs twice on a profile cache of the recording's
# own, and what the second run prints, its profiles mapped from the cache, is recorded. Every result is the same
# either way (issue 37):
#   cli-outputs.sh BINARY sqlite && cli-outputs.sh --cache BINARY cached && diff -r sqlite cached
set -uo pipefail
cache=0
if [ "${1:-}" = --cache ]; then
    cache=1
    shift
fi
# Never the user's cache: one of the recording's own, removed at the end.
NSYS_WORKBENCH_CACHE_DIR=$(mktemp -d)
export NSYS_WORKBENCH_CACHE_DIR
trap 'rm -rf "$NSYS_WORKBENCH_CACHE_DIR"' EXIT
bin=$(realpath "$1")
mkdir -p "$2"
out=$(cd "$2" && pwd)
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
traces=("$@")
if [ ${#traces[@]} -eq 0 ]; then
    for t in "$root"/../shared/traces/*.sqlite; do [ -f "$t" ] && traces+=("$(realpath "$t")"); done
    traces+=("$root/resources/demo/demo-llm-inference.sqlite")
fi

run() { # name, command, args...
    local name=$1 command=$2
    shift 2
    if [ $cache = 1 ]; then
        "$bin" "$command" "$@" >/dev/null 2>&1 # writes the cache
        "$bin" "$command" "$@" >"$out/$name.out" 2>"$out/$name.err"
    else
        "$bin" "$command" --no-cache "$@" >"$out/$name.out" 2>"$out/$name.err"
    fi
    echo $? >"$out/$name.rc"
    # Paths differ between checkouts; the outputs must not.
    sed -i "s|$root|ROOT|g" "$out/$name.out" "$out/$name.err"
}

reports=cuda_gpu_kern_sum,cuda_gpu_kern_sum:base,cuda_gpu_kern_sum:mangled,cuda_api_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum,osrt_sum,nvtx_sum,nvtx_gpu_proj_sum
launchreports=cuda_kern_exec_sum,cuda_kern_exec_sum:base,cuda_gpu_sum,cuda_gpu_sum:mangled,cuda_kern_exec_trace,cuda_gpu_trace,cuda_api_trace
for t in "${traces[@]}"; do
    b=$(basename "$t" .sqlite)
    run "$b.info" info "$t"
    run "$b.info.json" info --format json "$t"
    for f in csv table json; do
        run "$b.stats.$f" stats -r "$reports" --format "$f" "$t"
    done
    for r in ${reports//,/ }; do
        run "$b.stats1.$r.csv" stats -r "$r" --format csv "$t"
    done
    # The launch and trace reports, recorded apart so that the combined recordings above stay comparable.
    for f in csv table json; do
        run "$b.stats.launch.$f" stats -r "$launchreports" --format "$f" "$t"
    done
    for f in markdown json csv; do
        run "$b.nvtx.$f" nvtx "$t" --format "$f"
    done
    run "$b.nvtx.norm.json" nvtx "$t" --format json --normalize
    run "$b.nvtx.process.csv" nvtx "$t" --format csv --group process
    run "$b.nvtx.merged.csv" nvtx "$t" --format csv --group merged
    for m in sum busy exclusive g2g; do
        run "$b.categories.$m.csv" categories "$t" --rule-set vllm --model llama --time-mode "$m" --format csv
    done
    run "$b.categories.table" categories "$t" --rule-set vllm --model llama --elapsed capture
    run "$b.categories.json" categories "$t" --rule-set vllm --model llama --format json --per-gpu
    run "$b.categories.pytorch.csv" categories "$t" --rule-set pytorch --format csv
    run "$b.nvlink.metrics" nvlink "$t" --metric nvlink_all
    run "$b.nvlink.metrics.json" nvlink "$t" --metric all --json --top 3
    run "$b.nvlink.peaks" nvlink "$t" --metric peak_kernels --top 3
    run "$b.nvlink.peaks.json" nvlink "$t" --metric peak_kernels --json --top 2
    run "$b.compare.self" compare "$t" "$t"
    run "$b.iterations" iterations "$t"
    run "$b.iterations.json" iterations "$t" --format json
    run "$b.findings" findings "$t"
    for v in flat top-down bottom-up; do
        run "$b.samples.$v.csv" samples "$t" --view "$v" --format csv
    done
    run "$b.samples.collapsed" samples "$t" --format collapsed
    run "$b.samples.idle.json" samples "$t" --during gpu-idle --format json
    run "$b.findings.json" findings "$t" --format json
    # The report folder itself (its files diff with the recording), written from inside the recording's folder so
    # that the path it prints is the same in every recording.
    (cd "$out" && run "$b.report" report "$t" --no-charts --out "$b.report.d")
    run "$b.compare.self.cat" compare "$t" "$t" --by category --rule-set vllm --model llama --format csv
done

demo=$root/resources/demo
rec=$demo/demo-llm-inference-gpu0.nvlink.bin
for m in peak_kernels max_throughput avg_throughput total_communication nvlink_all all; do
    run "demo.nvlink.rec.$m" nvlink "$rec" --metric "$m"
    run "demo.nvlink.rec.$m.json" nvlink "$rec" --metric "$m" --json --top 5
done
run demo.nvlink.rec.agg nvlink "$rec" --metric all --aggregate-links --top 3
run demo.nvlink.rec.nccl nvlink "$rec" --metric peak_kernels --nccl-only --top 2 --offset-us 50
run demo.nvlink.rec.link nvlink "$rec" --metric all --link 3 --direction tx --json
run demo.nvlink.dir nvlink "$demo" --metric all

shared=$root/../shared/traces
before=$shared/nsys2026.2_h100x2_mfu_before_nccl.sqlite
after=$shared/nsys2026.2_h100x2_mfu_after_nccl.sqlite
if [ -f "$before" ] && [ -f "$after" ]; then
    for f in table csv json; do
        run "pair.compare.kernel.$f" compare "$before" "$after" --by kernel --format "$f"
        run "pair.compare.nvtx.$f" compare "$before" "$after" --by nvtx --format "$f"
        run "pair.compare.category.$f" compare "$before" "$after" --by category --rule-set vllm --model llama --format "$f"
    done
    run pair.compare.short compare "$before" "$after" --by kernel --names short --normalize names --format csv
    run pair.compare.busy compare "$before" "$after" --by category --rule-set vllm --model llama --time-mode busy --format csv
    run pair.compare.cat.json compare "$before" "$after" --by category --rule-set pytorch --format json
    run pair.compare.persec compare "$before" "$after" --per second --format csv
    run pair.compare.nvtxnorm compare "$before" "$after" --by nvtx --normalize names --format csv
    run pair.compare.fail compare "$before" "$after" --fail-above 1
fi
if [ $cache = 1 ]; then
    echo "profile cache: $(ls "$NSYS_WORKBENCH_CACHE_DIR/profiles" 2>/dev/null | wc -l) entries"
fi
echo "recorded $(ls "$out" | wc -l) files in $out"
