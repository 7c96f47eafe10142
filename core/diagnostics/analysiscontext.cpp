// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/analysiscontext.h"

#include "core/profile/capturespan.h"
#include "core/profile/gpukey.h"

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

StringRef kernelNameRefOf(const Profile& p, std::size_t row)
{
    const KernelTable& k = p.kernels;
    if (row < k.demangledName.size() && k.demangledName[row] != kNoString)
        return k.demangledName[row];
    return row < k.shortName.size() ? k.shortName[row] : kNoString;
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

StringRef AnalysisContext::kernelNameRef(std::size_t row) const
{
    return kernelNameRefOf(*profile, row);
}

namespace {

/// Which GPU each kernel and memory operation ran on: one key per GPU of the profile (its CUDA ordinal when the
/// process's devices cannot be mapped to GPUs).
void addDevices(const Profile& p, AnalysisRows& rows)
{
    GpuKeyOfRow keyOf(p);
    auto deviceKeys = [&](const GpuActivityColumns& t, IndexColumn<std::int32_t>& out) {
        out.reserve(t.size());
        for (std::size_t i = 0; i < t.size(); ++i)
            out.push_back(keyOf(t, i));
        out.compact();
    };
    deviceKeys(p.kernels, rows.kernelDevice);
    deviceKeys(p.memops, rows.memOpDevice);
    std::map<int, QString> labels;
    for (const auto& [pair, key] : keyOf.seen()) {
        if (labels.count(key))
            continue;
        const auto [process, ordinal] = pair;
        const GpuInfo* gpu = p.cudaDevices.empty() ? nullptr : p.gpuFor(process, ordinal);
        labels[key] = gpu ? (gpu->name.isEmpty() ? QStringLiteral("GPU %1").arg(gpu->id)
                                                 : QStringLiteral("GPU %1 (%2)").arg(gpu->id).arg(gpu->name))
                          : p.deviceLabel(process, ordinal);
    }
    for (const auto& [key, label] : labels)
        rows.devices.push_back({ key, label });
}

std::shared_ptr<const AnalysisRows> buildRows(const Profile& p, const JobContext& job)
{
    auto rows = std::make_shared<AnalysisRows>();
    addDevices(p, *rows);
    if (job.isCancelled())
        return nullptr;

    std::unordered_map<StringRef, char> ncclByName;
    rows->kernelIsNccl.resize(p.kernels.size());
    for (std::size_t i = 0; i < p.kernels.size(); ++i) {
        const StringRef ref = kernelNameRefOf(p, i);
        auto it = ncclByName.find(ref);
        if (it == ncclByName.end())
            it = ncclByName.emplace(ref, p.strings.at(ref).contains(QLatin1String("nccl"), Qt::CaseInsensitive)).first;
        rows->kernelIsNccl[i] = it->second;
    }
    if (job.isCancelled())
        return nullptr;

    std::unordered_map<StringRef, std::uint8_t> kindByName;
    rows->apiKind.resize(p.cudaApi.size());
    for (std::size_t i = 0; i < p.cudaApi.size(); ++i) {
        const StringRef ref = p.cudaApi.name[i];
        auto it = kindByName.find(ref);
        if (it == kindByName.end())
            it = kindByName.emplace(ref, apiKindOf(p.strings.at(ref))).first;
        rows->apiKind[i] = it->second;
    }
    return job.isCancelled() ? nullptr : rows;
}

} // namespace

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
    c.rows = p.derived.get<AnalysisRows>("analysis rows", job.cancelToken(), [&] { return buildRows(p, job); });
    if (!c.rows)
        return c;
    c.zones = timeZonesOf(p);
    c.devices = c.rows->devices;
    c.kernelDevice = c.rows->kernelDevice;
    c.memOpDevice = c.rows->memOpDevice;
    c.kernelIsNccl = c.rows->kernelIsNccl;
    c.apiKind = c.rows->apiKind;
    return c;
}

} // namespace nsw
