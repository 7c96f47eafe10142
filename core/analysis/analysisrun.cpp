// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/analysisrun.h"

#include "core/analysis/cudarules.h"
#include "core/analysis/gpuops.h"
#include "core/analysis/ruleinput.h"

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

} // namespace

Result<AnalysisResult> computeAnalysis(const AnalysisRequest& request, const JobContext& job)
{
    Result<std::unique_ptr<RuleInput>> input = RuleInput::open(request.path);
    if (!input)
        return input.failureAs<AnalysisResult>();
    (*input)->setCancelToken(job.cancelToken());
    CudaRuleInputs cuda(**input);
    GpuRuleInputs gpu(**input);
    AnalysisResult result;
    for (size_t i = 0; i < request.rules.size(); ++i) {
        if (job.isCancelled())
            return Result<AnalysisResult>::cancelled();
        job.report(request.rules[i].spec->name, double(i) / double(request.rules.size()));
        Result<RuleTable> table = runRule(**input, cuda, gpu, request.rules[i], focusWindow(request, request.rules[i]));
        if (!table)
            return table.failureAs<AnalysisResult>();
        result.rules.push_back(std::move(table.value()));
    }
    result.warnings = (*input)->damageWarnings();
    job.report(QStringLiteral("done"), 1.0);
    return result;
}

} // namespace nsw
