// SPDX-License-Identifier: GPL-3.0-or-later
#include "durationstats.h"

#include "core/stats/orderstatistics.h"

#include <algorithm>
#include <cmath>

namespace nsw {

namespace {
template <typename Duration> double sampleStddev(const Duration* values, std::size_t count, qint64 total)
{
    if (count < 2)
        return 0;
    // Two passes in long double: the 1-decimal rounding downstream must not see accumulated error.
    const long double mean = static_cast<long double>(total) / static_cast<long double>(count);
    long double squares = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const long double d = static_cast<long double>(values[i]) - mean;
        squares += d * d;
    }
    return double(std::sqrt(squares / static_cast<long double>(count - 1)));
}
} // namespace

template <typename Duration> double medianSorted(const Duration* sorted, std::size_t count)
{
    if (count == 0)
        return 0;
    return count % 2 ? double(sorted[count / 2]) : (double(sorted[count / 2 - 1]) + double(sorted[count / 2])) / 2.0;
}

template <typename Duration> Quantiles quantilesSorted(const Duration* sorted, std::size_t count)
{
    return { medianSorted(sorted, count), percentileSorted(sorted, count, 90), percentileSorted(sorted, count, 99) };
}

template <typename Duration> DurationSummary summarizeSorted(const Duration* sorted, std::size_t count)
{
    DurationSummary s;
    if (count == 0)
        return s;
    setOrderStatistics(s, sorted, count);
    qint64 total = 0;
    for (std::size_t i = 0; i < count; ++i)
        total += qint64(sorted[i]);
    s.total = total;
    s.mean = double(total) / double(count);
    s.stddev = sampleStddev(sorted, count, total);
    return s;
}

DurationSummary summarizeWithoutPercentiles(std::vector<qint64>& values)
{
    DurationSummary s;
    const std::size_t n = values.size();
    if (n == 0)
        return s;
    s.count = qint64(n);
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    s.min = *lo;
    s.max = *hi;
    for (const qint64 v : values)
        s.total += v;
    s.mean = double(s.total) / double(n);
    s.stddev = sampleStddev(values.data(), n, s.total);
    const auto middle = values.begin() + std::ptrdiff_t(n / 2);
    std::nth_element(values.begin(), middle, values.end());
    if (n % 2) {
        s.median = double(*middle);
    } else {
        // The lower middle is the largest value left of the upper one after the partition.
        const qint64 lower = *std::max_element(values.begin(), middle);
        s.median = (double(lower) + double(*middle)) / 2.0;
    }
    return s;
}

DurationSummary summarize(std::span<qint64> values)
{
    std::sort(values.begin(), values.end());
    return summarizeSorted(values.data(), values.size());
}

#define NSW_DURATION_STATS_FOR(Duration)                                                                               \
    template double medianSorted(const Duration*, std::size_t);                                                        \
    template Quantiles quantilesSorted(const Duration*, std::size_t);                                                  \
    template DurationSummary summarizeSorted(const Duration*, std::size_t);
NSW_DURATION_STATS_FOR(qint64)
NSW_DURATION_STATS_FOR(std::uint32_t)
#undef NSW_DURATION_STATS_FOR

} // namespace nsw
