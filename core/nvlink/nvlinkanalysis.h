// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/throughputseries.h"
#include "core/profile/focusrange.h"

#include <optional>
#include <vector>

namespace nsw {

/// Which series an analysis looks at (the CLI's --link, --direction and --aggregate-links).
struct NvlinkFilter
{
    std::vector<int> links; ///< per-link series of these links only; empty: every link
    std::optional<LinkDirection> direction;
    bool aggregateLinks = false; ///< the per-poll sums over links instead of the per-link series
};

/// The series @p filter keeps from per-link @p links and summed @p totals, in their stored order.
std::vector<const ThroughputSeries*> selectSeries(const std::vector<ThroughputSeries>& links,
    const std::vector<ThroughputSeries>& totals, const NvlinkFilter& filter);

struct IntervalRef
{
    std::uint32_t series = 0; ///< index into the selection
    std::uint32_t index = 0; ///< interval of that series
    bool operator==(const IntervalRef&) const = default;
};

/// Intervals [first, last) of one series.
struct IntervalWindow
{
    std::size_t first = 0;
    std::size_t last = 0;
};

/// The intervals of @p series whose span [time[i], time[i + 1]] moved by @p shift (onto the session timeline)
/// overlaps @p focus by FocusRange::overlaps, nsys's range filter; every interval when the focus is inactive. Sample
/// times are non-decreasing, so they are one contiguous window.
IntervalWindow intervalsOverlapping(const ThroughputSeries& series, TimeNs shift, const FocusRange& focus);

/// The @p top intervals with the highest value (duration > 0 only), highest first. Equal values keep series order,
/// then time order: a stable sort of the ccl-bench tools' interval list, so the same interval wins. @p windows,
/// when given, limits each series to its window (one per series).
std::vector<IntervalRef> topIntervals(const std::vector<const ThroughputSeries*>& series, std::size_t top,
    const std::vector<IntervalWindow>* windows = nullptr);

/// Interval counts and weighted mean as analyze_nvlink_throughput.py's avg_throughput computes them: the sum of
/// GB/s × µs over every interval of every selected series divided by the summed durations. With several series
/// (links × directions) this is the mean *per series*, not the GPU's aggregate bandwidth.
struct AvgThroughput
{
    double gbps = 0;
    qint64 totalDurationUs = 0;
    qint64 intervals = 0;
    qint64 activeIntervals = 0; ///< throughput > 0
};
AvgThroughput avgThroughput(const std::vector<const ThroughputSeries*>& series);

/// Bytes per direction over the selected GBps series (intervals with duration > 0, as the ccl-bench tools).
struct TotalCommunication
{
    qint64 txBytes = 0;
    qint64 rxBytes = 0;
    qint64 intervals = 0;
};
TotalCommunication totalCommunication(const std::vector<const ThroughputSeries*>& series);

} // namespace nsw
