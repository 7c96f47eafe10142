// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/diagnostics.h"

#include "core/profile/capturespan.h"

namespace nsw {

QString severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return QStringLiteral("info");
    case Severity::Warning:
        return QStringLiteral("warning");
    case Severity::Critical:
        return QStringLiteral("critical");
    }
    return {};
}

const QString& DiagnosticsResult::deviceLabel(int key) const
{
    static const QString none;
    for (const DiagnosticsDevice& d : devices)
        if (d.key == key)
            return d.label;
    return none;
}

Result<DiagnosticsResult> runDiagnostics(const DiagnosticsRequest& request, const JobContext& job)
{
    if (!request.profile)
        return Result<DiagnosticsResult>::failure(ErrorKind::Usage, QStringLiteral("no profile to diagnose"));
    const ProfilePtr& profile = request.profile;
    Warnings warnings;
    auto cancelled = [&] { return job.isCancelled(); };

    job.report(QStringLiteral("Preparing"), 0.0);
    const AnalysisContext context = makeAnalysisContext(profile, request.focus, job);
    if (cancelled())
        return Result<DiagnosticsResult>::cancelled();

    DiagnosticsResult r;
    r.profile = profile;
    r.focus = request.focus;
    r.windowStart = context.windowStart;
    r.windowEnd = context.windowEnd;
    const CaptureSpan span = captureSpanOf(*profile);
    r.captureStart = span.source == CaptureSpanSource::None ? 0 : span.start;
    r.devices = context.devices;
    r.thresholds = request.thresholds;
    const Thresholds& t = request.thresholds;

    job.report(QStringLiteral("Idle gaps"), 0.1);
    r.idleGaps = computeIdleGaps(context, TimeNs(t.value(QStringLiteral("listed_gap_us")) * 1e3), 2000, job,
        TimeNs(t.value(QStringLiteral("long_gap_ms")) * 1e6));
    job.report(QStringLiteral("Overlap"), 0.3);
    {
        const std::map<int, DeviceUnions> unions = deviceUnions(context, job);
        r.overlap = computeOverlap(context, unions);
        r.temporal = computeTemporalBreakdown(context, unions);
    }
    job.report(QStringLiteral("NCCL"), 0.4);
    r.nccl = computeNcclBreakdown(context, job);
    job.report(QStringLiteral("Launch cost"), 0.45);
    r.launchCost = computeLaunchCost(context, TimeNs(t.value(QStringLiteral("short_kernel_us")) * 1e3), job);
    job.report(QStringLiteral("Synchronisation"), 0.5);
    r.sync = computeSync(context, job);
    if (cancelled())
        return Result<DiagnosticsResult>::cancelled();

    job.report(QStringLiteral("Memory transfers"), 0.55);
    if (request.readMemoryKinds && profile->memops.size() > 0) {
        Result<MemcpyKindRows> kinds = readMemcpyKinds(profile->meta.filePath, job);
        if (kinds.isCancelled())
            return Result<DiagnosticsResult>::cancelled();
        r.memory
            = computeMemoryTransfers(context, kinds ? &*kinds : nullptr, kinds ? QString() : kinds.errorMessage(), job);
        if (!kinds && kinds.error().kind == ErrorKind::Input)
            warnings << kinds.errorMessage();
    } else {
        r.memory = computeMemoryTransfers(context, nullptr,
            request.readMemoryKinds ? QStringLiteral("no memory operations")
                                    : QStringLiteral("memory kinds not read (readMemoryKinds off)"),
            job);
    }
    job.report(QStringLiteral("Per process"), 0.6);
    r.perProcess = computePerProcess(context, job);
    if (cancelled())
        return Result<DiagnosticsResult>::cancelled();

    job.report(QStringLiteral("NVTX coverage"), 0.7);
    bool hasRanges = false;
    for (std::size_t i = 0; i < profile->nvtx.size() && !hasRanges; ++i)
        hasRanges = NvtxTable::isRange(profile->nvtx.eventType[i]);
    if (hasRanges) {
        const NvtxTree tree = buildNvtxTree(profile, {}, job.slice(0.7, 0.85), request.focus);
        if (cancelled())
            return Result<DiagnosticsResult>::cancelled();
        r.nvtxCoverage = tree.coverage;
        if (!request.phaseMap.isEmpty())
            r.phases = nvtxPhaseTimes(tree, request.phaseMap, &warnings);
    }

    if (request.detectIterations) {
        job.report(QStringLiteral("Iterations"), 0.85);
        Result<IterationTable> iterations
            = computeIterations({ profile, request.iterationMarker, nullptr }, job.slice(0.85, 0.98));
        if (iterations.isCancelled())
            return Result<DiagnosticsResult>::cancelled();
        if (iterations)
            r.iterations = std::make_shared<const IterationTable>(std::move(*iterations));
        else
            r.iterationsMissing = iterations.errorMessage();
    } else {
        r.iterationsMissing = QStringLiteral("iteration detection not asked for");
    }

    computeFindings(r, t);
    job.report(QStringLiteral("Done"), 1.0);
    return Result<DiagnosticsResult>(std::move(r), warnings);
}

} // namespace nsw
