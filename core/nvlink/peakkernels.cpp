// SPDX-License-Identifier: GPL-3.0-or-later
#include "peakkernels.h"

#include <map>

namespace nsw {

std::vector<IntervalWindow> focusWindows(
    const std::vector<const ThroughputSeries*>& series, const ClockAlignment& alignment, const FocusRange& focus)
{
    std::vector<IntervalWindow> windows;
    for (const ThroughputSeries* s : series)
        windows.push_back(intervalsOverlapping(*s, alignment.shiftOf(*s), focus));
    return windows;
}

QString NvlinkPeak::directionText() const
{
    bool tx = direction == LinkDirection::Tx, rx = direction == LinkDirection::Rx;
    for (const PeakDirection& d : merged) {
        tx = tx || d.direction == LinkDirection::Tx;
        rx = rx || d.direction == LinkDirection::Rx;
    }
    return tx && rx ? QStringLiteral("TX+RX") : directionLabel(direction);
}

std::vector<NvlinkPeak> findPeaks(const std::vector<const ThroughputSeries*>& series, const ClockAlignment& alignment,
    std::size_t top, const FocusRange& focus)
{
    std::vector<NvlinkPeak> peaks;
    if (top == 0)
        return peaks;
    const std::vector<IntervalWindow> windows = focusWindows(series, alignment, focus);
    // A peak absorbs at most the other series of its link, so this many ranked intervals always reach the first
    // interval beyond the top peaks.
    std::map<int, std::size_t> seriesPerLink;
    std::size_t perLink = 1;
    for (const ThroughputSeries* s : series)
        perLink = std::max(perLink, ++seriesPerLink[s->link]);
    for (const IntervalRef& ref : topIntervals(series, top * perLink + 1, focus.isActive() ? &windows : nullptr)) {
        const ThroughputSeries& s = *series[ref.series];
        const TimeNs shift = alignment.shiftOf(s);
        const TimeNs start = s.time[ref.index] + shift, end = s.time[ref.index + 1] + shift;
        const qint64 bytes = s.unit == ThroughputUnit::GBps ? s.bytes[ref.index] : -1;
        const auto same = std::find_if(peaks.begin(), peaks.end(), [&](const NvlinkPeak& p) {
            return p.link == s.link && p.unit == s.unit && p.start == start && p.end == end;
        });
        if (same != peaks.end()) {
            // An idle direction adds nothing to the peak (and never makes a second one of its interval).
            if (s.value(ref.index) > 0)
                same->merged.push_back({ s.direction, ref, s.value(ref.index), bytes });
            continue;
        }
        if (peaks.size() == top)
            break;
        NvlinkPeak p;
        p.rank = int(peaks.size()) + 1;
        p.ref = ref;
        p.link = s.link;
        p.direction = s.direction;
        p.unit = s.unit;
        p.start = start;
        p.end = end;
        p.value = s.value(ref.index);
        p.bytes = bytes;
        peaks.push_back(std::move(p));
    }
    return peaks;
}

void fillPeakUnits(std::vector<NvlinkPeak>& peaks, const LinkPeakEntry* model)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (NvlinkPeak& p : peaks) {
        const double capacity = !model ? nan : p.link == kAllLinks ? model->gpuGbps() : model->gbpsPerLink;
        if (p.unit == ThroughputUnit::GBps) {
            p.gbps = p.value;
            p.percentOfPeak = capacity > 0 ? 100.0 * p.value / capacity : nan;
        } else {
            p.percentOfPeak = p.value;
            p.gbps = capacity > 0 ? p.value / 100.0 * capacity : nan;
        }
    }
}

void attachKernels(
    std::vector<NvlinkPeak>& peaks, const KernelOverlapIndex& index, bool ncclOnly, const FocusRange& focus)
{
    const KernelSpans& spans = index.spans();
    for (NvlinkPeak& p : peaks) {
        p.kernels.clear();
        p.ncclKernels = 0;
        const TimeNs length = p.end - p.start;
        index.forEachOverlapping(p.start, p.end, [&](std::uint32_t k) {
            if ((ncclOnly && !spans.nccl[k]) || !focus.overlaps(spans.start[k], spans.end[k]))
                return;
            PeakKernel pk;
            pk.span = k;
            pk.overlapNs = std::min(spans.end[k], p.end) - std::max(spans.start[k], p.start);
            pk.overlapPct = length > 0 ? 100.0 * double(pk.overlapNs) / double(length) : 0.0;
            pk.nccl = spans.nccl[k];
            p.kernels.push_back(pk);
        });
        std::sort(p.kernels.begin(), p.kernels.end(), [](const PeakKernel& a, const PeakKernel& b) {
            return a.overlapNs != b.overlapNs ? a.overlapNs > b.overlapNs : a.span < b.span;
        });
        for (const PeakKernel& k : p.kernels)
            p.ncclKernels += k.nccl ? 1 : 0;
    }
}

} // namespace nsw
