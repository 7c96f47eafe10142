// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkpeaksrun.h"

#include <algorithm>

namespace nsw {

namespace {

/// NVML stamps a sample slightly after the traffic it counts, and the tools compare in µs: kernels this close to an
/// interval are read too, so that the exact overlap test decides.
constexpr TimeNs kWindowMarginNs = 2000;

std::vector<IntervalRef> cclIntervals(const NvlinkPeaksRequest& request, const std::vector<IntervalWindow>& windows)
{
    return topIntervals(request.series, request.top, request.focus.isActive() ? &windows : nullptr);
}

/// The session-time span of every series (for the plot's NCCL band); false when no series has an interval.
bool seriesSpan(const NvlinkPeaksRequest& request, TimeNs& from, TimeNs& to)
{
    bool any = false;
    for (const ThroughputSeries* s : request.series) {
        if (s->time.size() < 2)
            continue;
        const TimeNs shift = request.alignment.shiftOf(*s);
        from = any ? std::min(from, s->time.front() + shift) : s->time.front() + shift;
        to = any ? std::max(to, s->time.back() + shift) : s->time.back() + shift;
        any = true;
    }
    return any;
}

/// The time windows whose kernels the peaks (ours and the tools' ranking) can list.
std::vector<KernelWindow> peakWindows(
    const NvlinkPeaksRequest& request, const NvlinkPeaksResult& result, const std::vector<IntervalRef>& ccl)
{
    std::vector<KernelWindow> windows;
    for (const NvlinkPeak& p : result.peaks)
        windows.push_back({ p.start - kWindowMarginNs, p.end + kWindowMarginNs });
    for (const IntervalRef& r : ccl) {
        const ThroughputSeries& s = *request.series[r.series];
        const TimeNs shift = request.alignment.shiftOf(s);
        windows.push_back({ s.time[r.index] + shift - kWindowMarginNs, s.time[r.index + 1] + shift + kWindowMarginNs });
    }
    return windows;
}

Result<std::shared_ptr<const KernelOverlapIndex>> kernelIndex(
    const NvlinkPeaksRequest& request, const NvlinkPeaksResult& result)
{
    const NvlinkKernelSource& source = request.kernels;
    if (source.index)
        return source.index;
    if (source.profile)
        return std::make_shared<const KernelOverlapIndex>(kernelSpansFromProfile(source.profile, request.gpu));
    if (!source.exportDb)
        return Result<std::shared_ptr<const KernelOverlapIndex>>::failure(
            ErrorKind::Usage, QStringLiteral("no profile and no export to read the kernels from"));
    TimeNs from = 0, to = 0;
    const std::vector<KernelWindow> windows = request.forPlot && seriesSpan(request, from, to)
        ? std::vector<KernelWindow> { { from, to } }
        : peakWindows(request, result, cclIntervals(request, result.focusWindows));
    QString error;
    auto spans = kernelSpansFromExport(*source.exportDb, request.gpu, windows, &error);
    if (!spans)
        return Result<std::shared_ptr<const KernelOverlapIndex>>::failure(ErrorKind::Input, error);
    const QStringList warnings = spans->warnings;
    return Result<std::shared_ptr<const KernelOverlapIndex>>(
        std::make_shared<const KernelOverlapIndex>(std::move(spans)), warnings);
}

} // namespace

std::vector<const ThroughputSeries*> selectSeries(const NvlinkSeriesSource& source, const NvlinkFilter& filter)
{
    if (source.recording)
        return selectSeries(source.recording->links, source.recording->totals, filter);
    std::vector<const ThroughputSeries*> out;
    if (!source.gpuMetrics)
        return out;
    for (const ThroughputSeries& s : source.gpuMetrics->series)
        if (s.gpu == source.gpu && (!filter.direction || s.direction == *filter.direction))
            out.push_back(&s);
    return out;
}

Result<NvlinkPeaksResult> computeNvlinkPeaks(const NvlinkPeaksRequest& request, const JobContext& job)
{
    NvlinkPeaksResult result;
    job.report(QStringLiteral("NVLink peaks"), 0);
    result.focusWindows = focusWindows(request.series, request.alignment, request.focus);
    result.peaks = findPeaks(request.series, request.alignment, request.top, request.focus);
    if (job.isCancelled())
        return Result<NvlinkPeaksResult>::cancelled();

    job.report(QStringLiteral("kernels at the peaks"), 0.3);
    auto index = kernelIndex(request, result);
    if (!index)
        return index.failureAs<NvlinkPeaksResult>();
    const QStringList warnings = index.warnings();
    result.kernels = std::move(*index);
    if (job.isCancelled())
        return Result<NvlinkPeaksResult>::cancelled();
    attachKernels(result.peaks, *result.kernels, request.ncclOnly, request.focus);
    fillPeakUnits(result.peaks, request.gpuModel ? &*request.gpuModel : nullptr);

    if (request.forPlot) {
        job.report(QStringLiteral("plot"), 0.7);
        result.ncclBusy = result.kernels->spans().ncclBusy();
        for (std::size_t i = 0; i < request.series.size(); ++i) {
            if (job.isCancelled())
                return Result<NvlinkPeaksResult>::cancelled();
            const bool reusable = i < request.reusablePlotIndexes.size() && request.reusablePlotIndexes[i];
            result.plotIndexes.push_back(
                reusable ? request.reusablePlotIndexes[i] : std::make_shared<const SeriesMaxIndex>(*request.series[i]));
        }
    }
    job.report(QStringLiteral("NVLink peaks"), 1);
    return Result<NvlinkPeaksResult>(std::move(result), warnings);
}

OrderedJson cclPeakKernelsOf(const NvlinkPeaksRequest& request, const NvlinkPeaksResult& result)
{
    if (topIntervals(request.series, 1).empty())
        return cclPeakError(QStringLiteral("No NVLink intervals found after filtering"));
    if (!result.kernels->spans().deviceHasKernels)
        return cclPeakError(QStringLiteral("No kernels found for GPU %1").arg(request.gpu));
    CclPeakOptions options;
    options.top = request.top;
    options.ncclOnly = request.ncclOnly;
    if (request.gpuModel)
        options.gbpsPerPercent = request.gpuModel->gpuGbps() / 100.0;
    return cclPeakKernels(
        request.series, cclIntervals(request, result.focusWindows), *result.kernels, request.alignment, options);
}

} // namespace nsw
