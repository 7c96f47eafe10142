// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/stats/durationstats.h"

#include <QtGlobal>
#include <cstdint>
#include <vector>

namespace nsw {

/// One bin of a duration histogram: the durations d with lower <= d <= upper (integer nanoseconds, so neighbouring
/// bins meet without overlap: the next bin starts at upper + 1).
struct HistogramBin
{
    qint64 lower = 0;
    qint64 upper = 0;
    qint64 count = 0;
};

/// One group of durations: the bins from firstBin to lastBin, and the median of the executions in them.
struct DurationMode
{
    int firstBin = 0;
    int lastBin = 0;
    qint64 lower = 0; ///< bins[firstBin].lower
    qint64 upper = 0; ///< bins[lastBin].upper
    qint64 count = 0;
    double median = 0;
};

struct HistogramOptions
{
    /// Bin edges at 10^(i / binsPerDecade) ns, rounded up to whole ns: the same edges for every kernel, so bins can be
    /// compared between kernels and decades (1 µs, 10 µs…) are edges. 20 per decade: each bin 12 % wider than the last.
    int binsPerDecade = 20;
    /// Two peaks are separate modes only when the lowest (smoothed) bin between them is at most this fraction of the
    /// lower peak.
    double valleyFraction = 0.5;
    /// A mode holds at least this share of the executions; smaller groups (a warm-up outlier) join their neighbour.
    double minModeShare = 0.05;
    /// Fewer executions than this are never called multimodal: too few to tell groups from noise.
    qint64 minCountForModes = 20;
};

/// A reduced view of many durations: log-scaled bins (never one point per execution), nsys-style percentiles and the
/// groups (modes) the durations fall into.
struct DurationHistogram : Quantiles
{
    std::vector<HistogramBin> bins; ///< contiguous, ascending, none empty at either end
    qint64 count = 0;
    qint64 min = 0;
    qint64 max = 0;
    std::vector<DurationMode> modes; ///< one for a unimodal set; empty when there are no durations

    bool isMultimodal() const { return modes.size() >= 2; }
    /// Index of the bin holding @p duration, or -1 when it is outside every bin.
    int binOf(qint64 duration) const;
};

/// The histogram of @p sorted (ascending durations in ns; negative ones count as 0). Zero durations, which a log
/// scale cannot place, get a bin of their own, [0, 0], before the others. Costs O(bins × log count): one binary search
/// per bin edge, so it can run for every kernel of a table on each filter change.
template <typename Duration>
DurationHistogram durationHistogramSorted(
    const Duration* sorted, std::size_t count, const HistogramOptions& options = {});
/// The same for unsorted durations (sorts them).
DurationHistogram durationHistogram(std::vector<qint64> values, const HistogramOptions& options = {});

/// Only the modes of @p sorted (what the kernel summary table shows), at the cost of the histogram.
template <typename Duration>
std::vector<DurationMode> durationModesSorted(
    const Duration* sorted, std::size_t count, const HistogramOptions& options = {});

} // namespace nsw
