// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/diagnostics.h"

#include "core/jobs/sidejob.h"
#include "core/nvtx/nvtxautophases.h"
#include "core/profile/sessionclock.h"

#include <QSet>

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

namespace {

/// The memory transfers (their kinds read again from the export), compute/communication overlap, the NVTX tree and
/// the iterations: none needs another analysis' result, so they run on a thread of their own beside idle gaps, NCCL,
/// launch cost, synchronisation and per process (about half the work each). They write only their own fields of
/// the result and report no progress (the other half does).
struct SideAnalyses
{
    Warnings warnings;
    bool cancelled = false;

    void run(const DiagnosticsRequest& request, const AnalysisContext& context, const CancelToken& stop,
        DiagnosticsResult& r)
    {
        const JobContext job(stop);
        memoryTransfers(request, context, job, r);
        if (job.isCancelled())
            return void(cancelled = true);
        std::vector<DeviceOverlap> overlaps;
        forEachDeviceUnions(context, job, [&](int device, const DeviceUnions& u) {
            if (const std::optional<DeviceOverlap> d = deviceOverlap(context, device, u))
                overlaps.push_back(*d);
            r.temporal.push_back(deviceTimeBreakdown(context, device, u));
        });
        r.overlap = overlapOf(context, std::move(overlaps));
        if (job.isCancelled())
            return void(cancelled = true);
        iterations(request, job, r); // before the NVTX phases: they are the ranges under the iteration marker
        if (job.isCancelled())
            return void(cancelled = true);
        nvtxPhases(request, job, r);
        cancelled = job.isCancelled();
    }

private:
    void memoryTransfers(
        const DiagnosticsRequest& request, const AnalysisContext& context, const JobContext& job, DiagnosticsResult& r)
    {
        const ProfilePtr& profile = request.profile;
        if (!request.readMemoryKinds || profile->memops.size() == 0) {
            r.memory = computeMemoryTransfers(context, false,
                request.readMemoryKinds ? QStringLiteral("no memory operations")
                                        : QStringLiteral("memory kinds not read (readMemoryKinds off)"),
                job);
            return;
        }
        // Asked of the file once per profile (a failure too: it is the file's).
        const auto exported = profile->derived.getResult<bool>(
            "memcpy kinds exported", job.cancelToken(), [&] { return memcpyKindsExported(profile->meta.filePath); });
        if (!exported)
            return;
        r.memory
            = computeMemoryTransfers(context, bool(*exported), *exported ? QString() : exported->errorMessage(), job);
        if (!*exported && exported->error().kind == ErrorKind::Input)
            warnings << exported->errorMessage();
    }

    void nvtxPhases(const DiagnosticsRequest& request, const JobContext& job, DiagnosticsResult& r)
    {
        const Profile& profile = *request.profile;
        bool hasRanges = false;
        for (std::size_t i = 0; i < profile.nvtx.size() && !hasRanges; ++i)
            hasRanges = NvtxTable::isRange(profile.nvtx.eventType[i]);
        if (!hasRanges) {
            r.phasesMissing = QStringLiteral("the export has no NVTX ranges");
            return;
        }
        // The tree the NVTX pane shows (default options, same focus): one build serves both.
        const auto tree = [&]() -> std::shared_ptr<const NvtxTree> {
            Result<std::shared_ptr<const NvtxTree>> built
                = computeNvtxTree(NvtxTreeRequest { request.profile, {}, request.focus, nullptr }, job);
            return built ? *built : nullptr;
        };
        if (!request.phaseMap.isEmpty()) {
            if (const std::shared_ptr<const NvtxTree> t = tree()) {
                r.nvtxCoverage = t->coverage;
                r.phases = nvtxPhaseTimes(*t, request.phaseMap, &warnings);
            }
            return;
        }
        // Without a phase map the phases are a level of the tree, its names compared up to their numbers. The
        // whole capture's are kept with the profile (per iteration marker), so a re-run needs no tree.
        const auto build = [&]() -> std::shared_ptr<const LevelPhases> {
            const std::shared_ptr<const NvtxTree> t = tree();
            if (!t)
                return nullptr;
            return std::make_shared<const LevelPhases>(
                LevelPhases { nvtxLevelPhases(*t, markerNames(r)), t->coverage });
        };
        const std::shared_ptr<const LevelPhases> found = request.focus.isActive()
            ? build()
            : profile.derived.get<LevelPhases>(
                "nvtx level phases " + (request.detectIterations ? request.iterationMarker.toStdString() : "\n"),
                job.cancelToken(), build);
        if (!found)
            return;
        r.nvtxCoverage = found->coverage;
        r.phases = found->phases.rows;
        r.phasesLevel = found->phases.level;
        r.phasesMissing = found->phases.missing;
    }

    /// The NVTX phases without a phase map, and the coverage of the tree they come from.
    struct LevelPhases
    {
        NvtxLevelPhases phases;
        NvtxCoverage coverage;
    };

    /// The names of the iteration marker's instances, in time order (none for guessed iterations).
    static QStringList markerNames(const DiagnosticsResult& r)
    {
        QStringList names;
        QSet<QString> seen;
        if (r.iterations && !r.iterations->isGuess())
            for (const Iteration& it : r.iterations->iterations)
                if (const QString name = r.profile->strings.at(it.name); !seen.contains(name)) {
                    seen.insert(name);
                    names << name;
                }
        return names;
    }

    static void iterations(const DiagnosticsRequest& request, const JobContext& job, DiagnosticsResult& r)
    {
        if (!request.detectIterations) {
            r.iterationsMissing = QStringLiteral("iteration detection not asked for");
            return;
        }
        // The iterations do not depend on the focus: found once per profile and marker (or not found: that is the
        // profile's too). The cached table does not hold its profile (the profile holds the cache).
        const auto found = request.profile->derived.getResult<IterationTable>(
            "iterations " + request.iterationMarker.toStdString(), job.cancelToken(), [&] {
                Result<IterationTable> table
                    = computeIterations({ request.profile, request.iterationMarker, nullptr }, job);
                if (table)
                    table->profile = nullptr;
                return table;
            });
        if (!found)
            return;
        if (!*found) {
            r.iterationsMissing = found->errorMessage();
            return;
        }
        auto table = std::make_shared<IterationTable>(**found);
        table->profile = request.profile;
        r.iterations = std::move(table);
    }
};

} // namespace

LoadOptions diagnosticsLoadOptions()
{
    LoadOptions options;
    options.parts = LoadEverything & ~LoadOsrt;
    options.kernelColumns = KernelDemangledName | KernelShortName | KernelPlacement;
    return options;
}

Result<DiagnosticsResult> runDiagnostics(const DiagnosticsRequest& request, const JobContext& job)
{
    if (!request.profile)
        return Result<DiagnosticsResult>::failure(ErrorKind::Usage, QStringLiteral("no profile to diagnose"));
    const ProfilePtr& profile = request.profile;

    job.report(QStringLiteral("Preparing"), 0.0);
    const AnalysisContext context = makeAnalysisContext(profile, request.focus, job);
    if (job.isCancelled())
        return Result<DiagnosticsResult>::cancelled();

    DiagnosticsResult r;
    r.profile = profile;
    r.focus = request.focus;
    r.windowStart = context.windowStart;
    r.windowEnd = context.windowEnd;
    r.clockOrigin = sessionClockOrigin(*profile);
    r.devices.assign(context.devices.begin(), context.devices.end());
    r.thresholds = request.thresholds;
    const Thresholds& t = request.thresholds;

    const CancelToken sideStop = job.cancelToken().child();
    SideAnalyses side;
    SideJob sideJob(sideStop);
    sideJob.start([&] { side.run(request, context, sideStop, r); });
    job.report(QStringLiteral("Idle gaps"), 0.1);
    r.idleGaps = computeIdleGaps(context, TimeNs(t.value(QStringLiteral("listed_gap_us")) * 1e3), 2000, job,
        TimeNs(t.value(QStringLiteral("long_gap_ms")) * 1e6));
    job.report(QStringLiteral("CPU samples in the idle gaps"), 0.45);
    r.idleSamples = computeIdleSamples(context, r.idleGaps, job);
    job.report(QStringLiteral("NCCL"), 0.5);
    r.nccl = computeNcclBreakdown(context, job);
    r.ncclSkew = computeNcclSkew(context, job);
    job.report(QStringLiteral("Launch cost"), 0.55);
    r.launchCost = computeLaunchCost(context, TimeNs(t.value(QStringLiteral("short_kernel_us")) * 1e3), job);
    job.report(QStringLiteral("Synchronisation"), 0.6);
    r.sync = computeSync(context, job);
    if (job.isCancelled())
        return Result<DiagnosticsResult>::cancelled();
    job.report(QStringLiteral("Per process"), 0.7);
    r.perProcess = computePerProcess(context, job);
    job.report(QStringLiteral("Streams, kernel timing, transfers, tensor cores"), 0.8);
    r.streamConcurrency = computeStreamConcurrency(context, job);
    r.kernelTiming = computeKernelTiming(context, request.longestKernels, job);
    r.h2d = computeH2dTimeline(context, 50, job);
    r.tensorCores = computeTensorCores(context, request.tensorCoreRules, job);
    if (job.isCancelled())
        return Result<DiagnosticsResult>::cancelled();

    job.report(QStringLiteral("Memory transfers, overlap, NVTX and iterations"), 0.9);
    sideJob.wait();
    if (side.cancelled || job.isCancelled())
        return Result<DiagnosticsResult>::cancelled();
    r.whatIf = computeWhatIf(context, r.idleGaps, r.overlap, r.ncclSkew, r.iterations.get(), job);
    if (job.isCancelled())
        return Result<DiagnosticsResult>::cancelled();
    computeFindings(r, t);
    job.report(QStringLiteral("Done"), 1.0);
    return Result<DiagnosticsResult>(std::move(r), side.warnings);
}

bool analysisThresholdsDiffer(const Thresholds& a, const Thresholds& b)
{
    for (const char* name : { "listed_gap_us", "long_gap_ms", "short_kernel_us" })
        if (a.value(QLatin1String(name)) != b.value(QLatin1String(name)))
            return true;
    return false;
}

} // namespace nsw
