// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/analysisrun.h"

#include "core/analysis/cudarules.h"
#include "core/analysis/gpuops.h"
#include "core/analysis/ruleinput.h"
#include "core/jobs/sidejob.h"

#include <algorithm>

namespace nsw {

namespace {

bool isGpuRule(RuleId id)
{
    return id == RuleId::GpuGaps || id == RuleId::GpuTimeUtil;
}

/// One rule in nsys's order of checks: its tables, then its window, then the rows.
/// The request's focus as a rule window, for rules without start/end/nvtx options of their own.
std::optional<TimeWindow> focusWindow(const AnalysisRequest& analysis, const RuleRequest& request)
{
    const RuleOptions& o = request.options;
    if (!analysis.focus.isActive() || o.start || o.end || o.nvtx)
        return std::nullopt;
    TimeWindow w;
    w.active = true;
    w.start = analysis.focus.start;
    w.end = analysis.focus.end;
    w.globalTid = analysis.focusGlobalTid;
    return w;
}

Result<RuleTable> runRule(const RuleInput& input, CudaRuleInputs& cuda, GpuRuleInputs& gpu, const RuleRequest& request,
    const std::optional<TimeWindow>& focus)
{
    RuleTable table { request.spec, request.arguments, ruleAdvice(request), ruleNoResult(request), {}, {}, {} };
    const RuleId id = request.spec->id;
    table.skipped = isGpuRule(id) ? gpu.missingData() : cuda.missingData(id);
    if (!table.skipped.isEmpty())
        return table;
    const Result<TimeWindow> window = focus ? Result<TimeWindow>(*focus) : resolveWindow(input, request.options);
    if (!window) {
        table.skipped = window.errorMessage();
        return table;
    }
    Result<std::vector<RuleRow>> rows = id == RuleId::GpuGaps ? gpu.gaps(request, *window)
        : id == RuleId::GpuTimeUtil                           ? gpu.timeUtil(request, *window)
                                                              : cuda.compute(request, *window);
    if (!rows) {
        if (rows.error().kind != ErrorKind::NoData)
            return rows.failureAs<RuleTable>();
        table.skipped = rows.errorMessage();
        return table;
    }
    table.rows = std::move(rows.value());
    table.rowLimitNote = ruleRowLimitNote(request, qsizetype(table.rows.size()));
    return table;
}

/// The GPU rules read the GPU operation tables, the CUDA rules the runtime API table: when a request has both, the
/// GPU rules get a connection of their own, so that their read runs beside the CUDA rules (each is about half the
/// work). Null when one connection does (or a second cannot be opened: the rules then share the first).
std::unique_ptr<RuleInput> secondConnection(
    const AnalysisRequest& request, const RuleInput& first, const CancelToken& stop)
{
    const auto gpuRule = [](const RuleRequest& r) { return isGpuRule(r.spec->id); };
    if (std::none_of(request.rules.begin(), request.rules.end(), gpuRule)
        || std::all_of(request.rules.begin(), request.rules.end(), gpuRule))
        return nullptr;
    Result<std::unique_ptr<RuleInput>> second = first.openAlongside();
    if (!second)
        return nullptr;
    (*second)->setCancelToken(stop);
    return std::move(second.value());
}

} // namespace

Result<AnalysisResult> computeAnalysis(const AnalysisRequest& request, const JobContext& job)
{
    Result<std::unique_ptr<RuleInput>> input = RuleInput::open(request.path);
    if (!input)
        return input.failureAs<AnalysisResult>();
    const CancelToken stop = job.cancelToken().child(); // also stops the GPU read when a rule fails
    (*input)->setCancelToken(stop);
    std::unique_ptr<RuleInput> gpuConnection = secondConnection(request, **input, stop);
    CudaRuleInputs cuda(**input);
    GpuRuleInputs gpu(gpuConnection ? *gpuConnection : **input);
    SideJob gpuRead(stop);
    if (gpuConnection && gpu.missingData().isEmpty()) {
        // An error comes back again when a GPU rule asks for the operations.
        gpuRead.start([&gpu] { static_cast<void>(gpu.load()); });
    }
    AnalysisResult result;
    for (size_t i = 0; i < request.rules.size(); ++i) {
        if (job.isCancelled())
            return Result<AnalysisResult>::cancelled();
        job.report(request.rules[i].spec->name, double(i) / double(request.rules.size()));
        if (isGpuRule(request.rules[i].spec->id))
            gpuRead.wait();
        Result<RuleTable> table = runRule(**input, cuda, gpu, request.rules[i], focusWindow(request, request.rules[i]));
        if (!table)
            return table.failureAs<AnalysisResult>();
        result.rules.push_back(std::move(table.value()));
    }
    gpuRead.wait();
    if (gpuConnection)
        (*input)->mergeDamage(*gpuConnection);
    result.warnings = (*input)->damageWarnings();
    job.report(QStringLiteral("done"), 1.0);
    return result;
}

} // namespace nsw
