// SPDX-License-Identifier: GPL-3.0-or-later
#include "durationhistogram.h"

#include "core/stats/durationstats.h"
#include "core/stats/orderstatistics.h"

#include <algorithm>
#include <cmath>

namespace nsw {

namespace {

/// Edge i of the log scale: 10^(i / perDecade) ns rounded up, exact at whole decades.
qint64 logEdge(int i, int perDecade)
{
    if (i % perDecade == 0 && i / perDecade <= 18) {
        qint64 edge = 1;
        for (int d = 0; d < i / perDecade; ++d)
            edge *= 10;
        return edge;
    }
    // Capped below qint64's limit (292 years in ns): no duration reaches it.
    return qint64(std::min(std::ceil(std::pow(10.0, double(i) / double(perDecade))), 9e18));
}

/// The index of the log bin holding @p duration (>= 1): the largest i with logEdge(i) <= duration.
int logBinIndex(qint64 duration, int perDecade)
{
    int i = int(std::floor(std::log10(double(duration)) * perDecade));
    while (i > 0 && logEdge(i, perDecade) > duration)
        --i;
    while (logEdge(i + 1, perDecade) <= duration)
        ++i;
    return i;
}

/// Empty bins with their edges, from the bin of @p lowest to the bin of @p highest (both >= 1). Below ten ns the
/// rounded edges repeat: a bin only starts where the rounded edge grows.
std::vector<HistogramBin> logBins(qint64 lowest, qint64 highest, int perDecade)
{
    std::vector<HistogramBin> bins;
    const int last = logBinIndex(highest, perDecade);
    for (int i = logBinIndex(lowest, perDecade); i <= last; ++i) {
        const qint64 lower = logEdge(i, perDecade);
        const qint64 upper = logEdge(i + 1, perDecade) - 1;
        if (upper >= lower && (bins.empty() || lower > bins.back().upper))
            bins.push_back({ lower, upper, 0 });
    }
    return bins;
}

struct Segment
{
    int first = 0;
    int last = 0;
    int peak = 0;
    qint64 count = 0;
};

/// Peaks of @p smoothed: runs of equal values higher than both neighbouring values (a plateau is one peak, at its
/// start). Every non-empty histogram has at least one.
std::vector<int> peaksOf(const std::vector<double>& smoothed)
{
    std::vector<int> peaks;
    const int n = int(smoothed.size());
    for (int a = 0; a < n;) {
        int b = a;
        while (b + 1 < n && smoothed[std::size_t(b + 1)] == smoothed[std::size_t(a)])
            ++b;
        const double v = smoothed[std::size_t(a)];
        if (v > 0 && (a == 0 || smoothed[std::size_t(a - 1)] < v) && (b == n - 1 || smoothed[std::size_t(b + 1)] < v))
            peaks.push_back(a);
        a = b + 1;
    }
    return peaks;
}

/// Splits the bins at the lowest point between neighbouring peaks (the valley bin ends the left segment).
std::vector<Segment> segmentsBetweenPeaks(
    const std::vector<double>& smoothed, const std::vector<int>& peaks, const std::vector<HistogramBin>& bins)
{
    std::vector<Segment> segments;
    int first = 0;
    for (std::size_t p = 0; p < peaks.size(); ++p) {
        int last = int(bins.size()) - 1;
        if (p + 1 < peaks.size()) {
            const auto begin = smoothed.begin() + peaks[p];
            last = int(std::min_element(begin, smoothed.begin() + peaks[p + 1]) - smoothed.begin());
        }
        Segment s { first, last, peaks[p], 0 };
        for (int b = first; b <= last; ++b)
            s.count += bins[std::size_t(b)].count;
        segments.push_back(s);
        first = last + 1;
    }
    return segments;
}

void mergeWithNext(std::vector<Segment>& segments, std::size_t i, const std::vector<double>& smoothed)
{
    Segment& left = segments[i];
    const Segment& right = segments[i + 1];
    if (smoothed[std::size_t(right.peak)] > smoothed[std::size_t(left.peak)])
        left.peak = right.peak;
    left.last = right.last;
    left.count += right.count;
    segments.erase(segments.begin() + std::ptrdiff_t(i) + 1);
}

/// How shallow the valley between segments i and i + 1 is: its height over the lower peak's (1 = no valley).
double valleyRatio(const std::vector<Segment>& segments, std::size_t i, const std::vector<double>& smoothed)
{
    const double valley = smoothed[std::size_t(segments[i].last)];
    const double lowerPeak
        = std::min(smoothed[std::size_t(segments[i].peak)], smoothed[std::size_t(segments[i + 1].peak)]);
    return lowerPeak > 0 ? valley / lowerPeak : 1.0;
}

/// Merges neighbouring segments until every valley left is deep and every segment large enough: first the shallowest
/// valley while one is above the fraction, then the smallest segment while one is below the share (into the neighbour
/// across the shallower valley).
void mergeWeakSegments(
    std::vector<Segment>& segments, const std::vector<double>& smoothed, qint64 total, const HistogramOptions& options)
{
    while (segments.size() > 1) {
        std::size_t shallowest = 0;
        for (std::size_t i = 1; i + 1 < segments.size(); ++i)
            if (valleyRatio(segments, i, smoothed) > valleyRatio(segments, shallowest, smoothed))
                shallowest = i;
        if (valleyRatio(segments, shallowest, smoothed) > options.valleyFraction) {
            mergeWithNext(segments, shallowest, smoothed);
            continue;
        }
        const auto smallest
            = std::size_t(std::min_element(segments.begin(), segments.end(), [](const Segment& a, const Segment& b) {
                  return a.count < b.count;
              }) - segments.begin());
        if (double(segments[smallest].count) >= options.minModeShare * double(total))
            return;
        const bool intoLeft = smallest + 1 == segments.size()
            || (smallest > 0
                && valleyRatio(segments, smallest - 1, smoothed) >= valleyRatio(segments, smallest, smoothed));
        mergeWithNext(segments, intoLeft ? smallest - 1 : smallest, smoothed);
    }
}

/// (1, 2, 1) / 4 smoothing, so that one noisy bin neither makes a peak nor a valley.
std::vector<double> smoothedCounts(const std::vector<HistogramBin>& bins)
{
    const std::size_t n = bins.size();
    std::vector<double> s(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double left = i > 0 ? double(bins[i - 1].count) : 0.0;
        const double right = i + 1 < n ? double(bins[i + 1].count) : 0.0;
        s[i] = (left + 2.0 * double(bins[i].count) + right) / 4.0;
    }
    return s;
}

/// Mode detection: peaks of the smoothed log-histogram, split at the lowest bin between them, merged back while the
/// valley between two is shallower than options.valleyFraction of the lower peak or a group holds less than
/// options.minModeShare of the executions. Each mode's median is that of the executions in its bins.
template <typename Duration>
std::vector<DurationMode> modesOf(
    const std::vector<HistogramBin>& bins, const Duration* sorted, std::size_t count, const HistogramOptions& options)
{
    std::vector<DurationMode> modes;
    if (bins.empty())
        return modes;
    std::vector<Segment> segments;
    if (qint64(count) < options.minCountForModes || bins.size() < 3) {
        segments.push_back({ 0, int(bins.size()) - 1, 0, qint64(count) });
    } else {
        const std::vector<double> smoothed = smoothedCounts(bins);
        segments = segmentsBetweenPeaks(smoothed, peaksOf(smoothed), bins);
        mergeWeakSegments(segments, smoothed, qint64(count), options);
    }
    const Duration* end = sorted + count;
    for (const Segment& s : segments) {
        const HistogramBin& first = bins[std::size_t(s.first)];
        const HistogramBin& last = bins[std::size_t(s.last)];
        // The zero bin also holds negative durations: its slice starts at the beginning.
        const Duration* from = s.first == 0 ? sorted : std::lower_bound(sorted, end, first.lower);
        const Duration* to = std::upper_bound(sorted, end, last.upper);
        modes.push_back({ s.first, s.last, first.lower, last.upper, qint64(to - from),
            medianSorted(from, std::size_t(to - from)) });
    }
    return modes;
}

template <typename Duration>
std::vector<HistogramBin> countedBins(const Duration* sorted, std::size_t count, int perDecade)
{
    std::vector<HistogramBin> bins;
    if (count == 0)
        return bins;
    const Duration* end = sorted + count;
    const Duration* positive = std::upper_bound(sorted, end, qint64(0));
    if (positive > sorted)
        bins.push_back({ 0, 0, qint64(positive - sorted) });
    if (positive == end)
        return bins;
    std::vector<HistogramBin> logged = logBins(qint64(*positive), qint64(sorted[count - 1]), std::max(1, perDecade));
    const Duration* from = positive;
    for (HistogramBin& b : logged) {
        const Duration* to = std::upper_bound(from, end, b.upper);
        b.count = qint64(to - from);
        from = to;
    }
    bins.insert(bins.end(), logged.begin(), logged.end());
    return bins;
}

} // namespace

int DurationHistogram::binOf(qint64 duration) const
{
    const auto it = std::lower_bound(
        bins.begin(), bins.end(), duration, [](const HistogramBin& b, qint64 d) { return b.upper < d; });
    return it != bins.end() && it->lower <= duration ? int(it - bins.begin()) : -1;
}

template <typename Duration>
DurationHistogram durationHistogramSorted(const Duration* sorted, std::size_t count, const HistogramOptions& options)
{
    DurationHistogram h;
    if (count == 0)
        return h;
    setOrderStatistics(h, sorted, count);
    h.bins = countedBins(sorted, count, options.binsPerDecade);
    h.modes = modesOf(h.bins, sorted, count, options);
    return h;
}

DurationHistogram durationHistogram(std::vector<qint64> values, const HistogramOptions& options)
{
    std::sort(values.begin(), values.end());
    return durationHistogramSorted(values.data(), values.size(), options);
}

template <typename Duration>
std::vector<DurationMode> durationModesSorted(
    const Duration* sorted, std::size_t count, const HistogramOptions& options)
{
    return modesOf(countedBins(sorted, count, options.binsPerDecade), sorted, count, options);
}

#define NSW_DURATION_HISTOGRAM_FOR(Duration)                                                                           \
    template DurationHistogram durationHistogramSorted(const Duration*, std::size_t, const HistogramOptions&);         \
    template std::vector<DurationMode> durationModesSorted(const Duration*, std::size_t, const HistogramOptions&);
NSW_DURATION_HISTOGRAM_FOR(qint64)
NSW_DURATION_HISTOGRAM_FOR(std::uint32_t)
#undef NSW_DURATION_HISTOGRAM_FOR

} // namespace nsw
