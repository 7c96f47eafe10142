// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/samplesrun.h"

#include "core/diagnostics/idlesamples.h"
#include "core/util/timeformat.h"

#include <algorithm>

namespace nsw {

QString missingSamplesReason(const Profile& profile)
{
    if (profile.cpuSamples.size() > 0)
        return {};
    const QString file = profile.meta.filePath;
    if (!profile.meta.tables.contains(QStringLiteral("COMPOSITE_EVENTS")))
        return QStringLiteral("%1 has no CPU samples: the export has no COMPOSITE_EVENTS table (record with nsys "
                              "profile -s cpu, where perf events are allowed)")
            .arg(file);
    return QStringLiteral("%1 has no CPU samples: its COMPOSITE_EVENTS table is empty").arg(file);
}

std::vector<int> sampleGpuKeys(const ProfilePtr& profile, const CancelToken& cancel)
{
    const AnalysisContext context = makeAnalysisContext(profile, {}, JobContext(cancel));
    std::vector<int> keys;
    for (const DiagnosticsDevice& d : context.devices)
        keys.push_back(d.key);
    return keys;
}

namespace {

/// The focus cut to the selection (both may be inactive).
FocusRange window(const SamplesRequest& r)
{
    if (!r.selection.isActive())
        return r.focus;
    if (!r.focus.isActive())
        return r.selection;
    const auto [s, e] = r.focus.clip(r.selection.start, r.selection.end);
    return FocusRange { s, std::max(s, e), r.selection.label };
}

QString gpuList(const std::vector<int>& keys)
{
    QStringList names;
    for (const int k : keys)
        names << QString::number(k);
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}

} // namespace

Result<SamplesResult> computeSamples(const SamplesRequest& request, const JobContext& job)
{
    using R = Result<SamplesResult>;
    if (!request.profile)
        return R::failure(ErrorKind::Usage, QStringLiteral("no profile"));
    const ProfilePtr& profile = request.profile;
    if (const QString missing = missingSamplesReason(*profile); !missing.isEmpty())
        return R::failure(ErrorKind::NoData, missing);
    SamplesResult r;
    r.profile = profile;
    job.report(QStringLiteral("Call tree"), 0.0);
    r.tree = sampleCallTreeOf(profile, job.cancelToken());
    const std::shared_ptr<const SampleThreadIndex> index = sampleThreadIndexOf(profile, job.cancelToken());
    if (!r.tree || !index)
        return R::cancelled();
    job.report(QStringLiteral("Selecting samples"), 0.5);
    const FocusRange limit = window(request);
    r.description = request.scope.label(*profile);
    if (request.duringGpuIdle) {
        const AnalysisContext context = makeAnalysisContext(profile, limit, job);
        const std::shared_ptr<const GpuLaunchers> launchers = gpuLaunchersOf(context, job.cancelToken());
        if (job.isCancelled() || !launchers)
            return R::cancelled();
        std::vector<int> keys;
        for (const DiagnosticsDevice& d : context.devices)
            keys.push_back(d.key);
        if (request.gpu >= 0 && !std::binary_search(keys.begin(), keys.end(), request.gpu))
            return R::failure(ErrorKind::Usage,
                QStringLiteral("%1 has no GPU %2 (its GPUs: %3)")
                    .arg(profile->meta.filePath)
                    .arg(request.gpu)
                    .arg(gpuList(keys)));
        const std::vector<IdleGap> gaps = allDeviceGaps(context, job);
        for (auto first = gaps.begin(); first != gaps.end();) {
            const auto last
                = std::find_if(first, gaps.end(), [&](const IdleGap& g) { return g.device != first->device; });
            const std::vector<ThreadIndex>* threads = launchers->of(first->device);
            if ((request.gpu < 0 || request.gpu == first->device) && threads) {
                appendIdleSamples(*profile, *index, *threads, { first, last }, request.scope, limit, r.rows);
                r.idleGaps += last - first;
                for (auto g = first; g != last; ++g)
                    r.idleNs += g->duration();
            }
            first = last;
        }
        // A thread that launches on two GPUs idle at once has its samples there twice.
        std::sort(r.rows.begin(), r.rows.end());
        r.rows.erase(std::unique(r.rows.begin(), r.rows.end()), r.rows.end());
        r.description
            += QStringLiteral(", during the idle gaps of %1 (%2 gaps, %3)")
                   .arg(request.gpu < 0 ? QStringLiteral("every GPU") : QStringLiteral("GPU %1").arg(request.gpu))
                   .arg(r.idleGaps)
                   .arg(formatDuration(r.idleNs));
    } else if (limit.isActive()) {
        const std::vector<TimeInterval> windows { { limit.start, limit.end } };
        r.rows = selectSamples(*profile, *index, request.scope, &windows);
    } else {
        r.rows = selectSamples(*profile, *index, request.scope, nullptr);
    }
    if (job.isCancelled())
        return R::cancelled();
    job.report(QStringLiteral("Counting"), 0.8);
    r.counts = countSamples(*r.tree, r.rows);
    r.functions = countFunctions(*r.tree, r.counts);
    if (request.bottomUp)
        r.bottomUp = std::make_shared<const SampleBottomUp>(bottomUpTree(*r.tree, r.counts));
    job.report(QStringLiteral("Done"), 1.0);
    return R(std::move(r));
}

} // namespace nsw
