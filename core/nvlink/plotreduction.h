// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/throughputseries.h"

#include <utility>
#include <vector>

namespace nsw {

/// Range maxima of a series' interval values in O(log n): maxima of blocks of 8, 64, 512... intervals (the raw
/// values are computed on demand, so the index costs 1/7 of a float per interval).
class SeriesMaxIndex
{
public:
    explicit SeriesMaxIndex(const ThroughputSeries& series);
    /// Largest value of intervals [first, last), in the series' unit; 0 when the range is empty.
    double maxIn(std::size_t first, std::size_t last) const;
    std::size_t memoryBytes() const;

private:
    double at(int level, std::size_t i) const;
    const ThroughputSeries* m_series;
    std::vector<std::vector<float>> m_levels;
};

/// Points for a step plot (each y holds until the next x), x in seconds since the session start.
struct PlotPoints
{
    std::vector<double> x;
    std::vector<double> y;
    double yMax = 0;
};

/// The series over [from, to) (session ns) as at most ~@p buckets steps: the intervals themselves when few are
/// visible, else the maximum of each bucket, so that no peak disappears at any zoom. Values are multiplied by
/// @p scale (unit conversion).
PlotPoints reduceForPlot(const ThroughputSeries& series, const SeriesMaxIndex& index, TimeNs shift, TimeNs from,
    TimeNs to, int buckets, double scale = 1.0);

/// Fraction (0..1) of each of @p buckets equal parts of [from, to) covered by the sorted disjoint @p busy ranges.
std::vector<double> busyFraction(
    const std::vector<std::pair<TimeNs, TimeNs>>& busy, TimeNs from, TimeNs to, int buckets);

/// Session ns to plot seconds.
inline double plotSeconds(TimeNs t)
{
    return double(t) / 1e9;
}

} // namespace nsw
