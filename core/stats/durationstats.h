// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/util/tally.h"

#include <QtGlobal>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace nsw {

/// The median and tail percentiles of a set of durations: what its sorted order tells without a pass over it. The
/// tables' summaries and the duration histograms hold the same, so their numbers agree.
struct Quantiles
{
    double median = 0; ///< middle value; mean of the two middle values for even counts
    double p90 = 0; ///< linear interpolation between closest ranks (numpy's default)
    double p99 = 0;
};

/// The *Sorted functions take durations as qint64, or as std::uint32_t when every one fits (the kernel index's).

/// The quantiles of @p sorted, which must be in ascending order (all 0 when it is empty).
template <typename Duration> Quantiles quantilesSorted(const Duration* sorted, std::size_t count);

/// Statistics of a set of durations (or sizes), as nsys stats computes them (schema doc §9.1), plus percentiles.
struct DurationSummary : Tally, Quantiles
{
    double mean = 0; ///< total / count in double, as SQLite avg()
    double stddev = 0; ///< sample standard deviation (n - 1); 0 when count == 1
};

/// Summarises @p sorted, which must be in ascending order.
template <typename Duration> DurationSummary summarizeSorted(const Duration* sorted, std::size_t count);
/// Sorts @p values in place and summarises them.
DurationSummary summarize(std::span<qint64> values);
/// The same without percentiles (p90/p99 left 0), in linear time: selection instead of a sort. For the nsys
/// reports, which print only the median. Reorders @p values.
DurationSummary summarizeWithoutPercentiles(std::vector<qint64>& values);
/// The median of ascending @p sorted: the middle value, or the mean of the two middle values for even counts.
template <typename Duration> double medianSorted(const Duration* sorted, std::size_t count);
/// Percentile (0..100) by linear interpolation on ascending @p sorted (qint64 or TimeNs values).
template <typename Integer> double percentileSorted(const Integer* sorted, std::size_t count, double percent)
{
    if (count == 0)
        return 0;
    const double rank = percent / 100.0 * double(count - 1);
    const auto lo = std::size_t(std::floor(rank));
    const std::size_t hi = std::min(lo + 1, count - 1);
    const double frac = rank - double(lo);
    return double(sorted[lo]) + (double(sorted[hi]) - double(sorted[lo])) * frac;
}

} // namespace nsw
