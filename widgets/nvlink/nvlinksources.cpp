// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinksources.h"

#include "core/nvlink/gpumetricsreader.h"
#include "core/nvlink/nvf1reader.h"
#include "core/profile/capturespan.h"

#include <QFileInfo>
#include <QObject>
#include <QStringList>
#include <algorithm>

namespace nsw {

namespace {
QString sourceKeyOf(bool gpuMetrics, int index, const QString& path)
{
    return QStringLiteral("%1:%2:%3").arg(gpuMetrics ? 1 : 0).arg(index).arg(path);
}
} // namespace

std::vector<NvlinkSourceItem> nvlinkSourceItems(const NvlinkAttachment& a)
{
    std::vector<NvlinkSourceItem> items;
    for (std::size_t i = 0; i < a.recordings.size(); ++i) {
        const NvlinkRecordingEntry& e = a.recordings[i];
        items.push_back(
            { QObject::tr("%1 — GPU %2 (NVML counters)").arg(QFileInfo(e.recording->path).fileName()).arg(e.gpu),
                sourceKeyOf(false, int(i), e.recording->path) });
    }
    if (a.gpuMetrics) {
        std::vector<int> gpus;
        for (const ThroughputSeries& s : a.gpuMetrics->series)
            if (std::find(gpus.begin(), gpus.end(), s.gpu) == gpus.end())
                gpus.push_back(s.gpu);
        for (const int g : gpus)
            items.push_back(
                { QObject::tr("GPU %1 — nsys GPU metrics (% of peak)").arg(g), sourceKeyOf(true, g, QString()) });
    }
    return items;
}

std::optional<NvlinkSourceChoice> nvlinkSourceOfKey(const QString& key, const NvlinkAttachment* a)
{
    const QStringList parts = key.split(QLatin1Char(':'));
    if (parts.size() < 3 || !a)
        return std::nullopt;
    NvlinkSourceChoice out;
    out.gpuMetrics = parts[0] == QLatin1String("1");
    out.index = parts[1].toInt();
    const bool attached
        = out.gpuMetrics ? bool(a->gpuMetrics) : out.index >= 0 && std::size_t(out.index) < a->recordings.size();
    return attached ? std::optional(out) : std::nullopt;
}

int nvlinkSourceGpu(const NvlinkSourceChoice& source, const NvlinkAttachment& a)
{
    return source.gpuMetrics ? source.index : a.recordings[std::size_t(source.index)].gpu;
}

NvlinkSeriesSource nvlinkSeriesOf(const NvlinkSourceChoice& source, const NvlinkAttachment& a)
{
    if (source.gpuMetrics)
        return { nullptr, a.gpuMetrics, source.index };
    const NvlinkRecordingEntry& e = a.recordings[std::size_t(source.index)];
    return { e.recording, nullptr, e.gpu };
}

std::optional<NvlinkSetup> nvlinkSourceSetup(
    const NvlinkSourceChoice& source, const NvlinkAttachment& a, const Profile& profile, const LinkPeakTable& peakTable)
{
    NvlinkSetupRequest request;
    request.source = nvlinkSeriesOf(source, a);
    if (!source.gpuMetrics)
        request.recordingPath = request.source.recording->path;
    request.exportInfo = &profile;
    request.capture = captureSpanOf(profile);
    request.offsetNs = a.clockOffsetNs;
    request.peakTable = &peakTable;
    request.exportPath = profile.meta.filePath;
    Result<NvlinkSetup> setup = setUpNvlinkSource(request); // no kernel clock asked: it cannot fail
    return setup ? std::optional<NvlinkSetup>(std::move(*setup)) : std::nullopt;
}

std::vector<int> linksOf(const Nvf1Recording& recording)
{
    std::vector<int> links;
    for (const ThroughputSeries& s : recording.links)
        if (std::find(links.begin(), links.end(), s.link) == links.end())
            links.push_back(s.link);
    std::sort(links.begin(), links.end());
    return links;
}

Result<std::shared_ptr<const GpuMetricsNvlink>> readNvlinkGpuMetrics(const ProfilePtr& profile, const JobContext& job)
{
    const GpuMetricCountersResult read = sharedGpuMetricCounters(profile, job);
    if (read.cancelled)
        return Result<std::shared_ptr<const GpuMetricsNvlink>>::cancelled();
    const GpuMetricsResult r = read.data ? nvlinkFromCounters(*read.data) : GpuMetricsResult { nullptr, read.error };
    if (!r.error.isEmpty())
        return Result<std::shared_ptr<const GpuMetricsNvlink>>::failure(ErrorKind::Input, r.error);
    return std::shared_ptr<const GpuMetricsNvlink>(r.data);
}

} // namespace nsw
