// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/analysiscontext.h"

#include "core/profile/capturespan.h"

#include <QRegularExpression>
#include <map>
#include <unordered_map>

namespace nsw {

namespace {

/// "cudaMemcpyAsync_ptsz_v7000" -> "cudamemcpyasync", "cuMemcpyHtoD_v2" -> "cumemcpyhtod".
QString baseApiName(const QString& name)
{
    static const QRegularExpression suffix(QStringLiteral("(_v\\d+|_ptsz|_ptds)+$"));
    QString base = name;
    base.remove(suffix);
    return base.toLower();
}

} // namespace

std::uint8_t apiKindOf(const QString& name)
{
    const QString b = baseApiName(name);
    if (!b.startsWith(QLatin1String("cu")))
        return 0;
    std::uint8_t kind = 0;
    static const QStringList syncNames { QStringLiteral("cudadevicesynchronize"),
        QStringLiteral("cudastreamsynchronize"), QStringLiteral("cudaeventsynchronize"),
        QStringLiteral("cudathreadsynchronize"), QStringLiteral("cuctxsynchronize"),
        QStringLiteral("custreamsynchronize"), QStringLiteral("cueventsynchronize") };
    const bool memory = b.startsWith(QLatin1String("cudamemcpy")) || b.startsWith(QLatin1String("cumemcpy"))
        || b.startsWith(QLatin1String("cudamemset")) || b.startsWith(QLatin1String("cumemset"));
    if (memory)
        kind |= ApiMemory;
    if (syncNames.contains(b) || (memory && !b.contains(QLatin1String("async"))))
        kind |= ApiSync;
    if (b == QLatin1String("cudastreamwaitevent") || b == QLatin1String("custreamwaitevent")
        || b.startsWith(QLatin1String("custreamwaitvalue")))
        kind |= ApiWait;
    if (b.startsWith(QLatin1String("cudalaunch")) || b.startsWith(QLatin1String("culaunch"))
        || b == QLatin1String("cudagraphlaunch") || b == QLatin1String("cugraphlaunch"))
        kind |= ApiLaunch;
    return kind;
}

const QString& AnalysisContext::deviceLabel(int key) const
{
    static const QString none;
    for (const DiagnosticsDevice& d : devices)
        if (d.key == key)
            return d.label;
    return none;
}

StringRef AnalysisContext::kernelNameRef(std::size_t row) const
{
    const KernelTable& k = profile->kernels;
    if (row < k.demangledName.size() && k.demangledName[row] != kNoString)
        return k.demangledName[row];
    return row < k.shortName.size() ? k.shortName[row] : kNoString;
}

const QString& AnalysisContext::kernelName(std::size_t row) const
{
    return profile->strings.at(kernelNameRef(row));
}

bool AnalysisContext::apiInFocus(std::size_t row) const
{
    return focus.overlaps(profile->cudaApi.start[row], profile->cudaApi.end[row]);
}

AnalysisContext makeAnalysisContext(const ProfilePtr& profile, const FocusRange& focus, const JobContext& job)
{
    AnalysisContext c;
    c.profile = profile;
    c.focus = focus;
    if (!profile)
        return c;
    const Profile& p = *profile;
    if (focus.isActive()) {
        c.windowStart = focus.start;
        c.windowEnd = focus.end;
    } else {
        const CaptureSpan span = captureSpanOf(p);
        c.windowStart = span.start;
        c.windowEnd = span.end;
        if (span.source == CaptureSpanSource::None)
            c.windowStart = c.windowEnd = 0;
    }

    const bool mapped = !p.cudaDevices.empty();
    std::map<std::pair<ProcessIndex, int>, int> keyOf;
    std::map<int, QString> labels;
    auto deviceKey = [&](ProcessIndex process, int ordinal) {
        const auto [it, inserted] = keyOf.try_emplace({ process, ordinal }, ordinal);
        if (inserted) {
            const GpuInfo* gpu = mapped ? p.gpuFor(process, ordinal) : nullptr;
            it->second = gpu ? gpu->id : ordinal;
            if (!labels.count(it->second))
                labels[it->second] = gpu
                    ? (gpu->name.isEmpty() ? QStringLiteral("GPU %1").arg(gpu->id)
                                           : QStringLiteral("GPU %1 (%2)").arg(gpu->id).arg(gpu->name))
                    : p.deviceLabel(process, ordinal);
        }
        return it->second;
    };
    auto deviceKeys = [&](const GpuActivityColumns& t, std::vector<int>& out) {
        out.resize(t.size());
        for (std::size_t i = 0; i < t.size(); ++i) {
            const ProcessIndex process = i < t.process.size() ? t.process[i] : kNoIndex;
            const int ordinal = i < t.device.size() ? t.device[i] : 0;
            out[i] = deviceKey(process, ordinal);
        }
    };
    deviceKeys(p.kernels, c.kernelDevice);
    deviceKeys(p.memops, c.memOpDevice);
    for (const auto& [key, label] : labels)
        c.devices.push_back({ key, label });
    if (job.isCancelled())
        return c;

    std::unordered_map<StringRef, char> ncclByName;
    c.kernelIsNccl.resize(p.kernels.size());
    c.kernelInFocus.resize(p.kernels.size());
    for (std::size_t i = 0; i < p.kernels.size(); ++i) {
        const StringRef ref = c.kernelNameRef(i);
        auto it = ncclByName.find(ref);
        if (it == ncclByName.end())
            it = ncclByName.emplace(ref, c.kernelName(i).contains(QLatin1String("nccl"), Qt::CaseInsensitive)).first;
        c.kernelIsNccl[i] = it->second;
        c.kernelInFocus[i] = focus.overlaps(p.kernels.start[i], p.kernels.end[i]);
    }
    c.memOpInFocus.resize(p.memops.size());
    for (std::size_t i = 0; i < p.memops.size(); ++i)
        c.memOpInFocus[i] = focus.overlaps(p.memops.start[i], p.memops.end[i]);
    if (job.isCancelled())
        return c;

    std::unordered_map<StringRef, std::uint8_t> kindByName;
    c.apiKind.resize(p.cudaApi.size());
    for (std::size_t i = 0; i < p.cudaApi.size(); ++i) {
        const StringRef ref = p.cudaApi.name[i];
        auto it = kindByName.find(ref);
        if (it == kindByName.end())
            it = kindByName.emplace(ref, apiKindOf(p.strings.at(ref))).first;
        c.apiKind[i] = it->second;
    }
    return c;
}

} // namespace nsw
