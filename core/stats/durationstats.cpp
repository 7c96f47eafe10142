// SPDX-License-Identifier: GPL-3.0-or-later
#include "durationstats.h"

#include <algorithm>
#include <cmath>

namespace nsw {

double percentileSorted(const qint64* sorted, std::size_t count, double percent)
{
    if (count == 0)
        return 0;
    const double rank = percent / 100.0 * double(count - 1);
    const auto lo = std::size_t(std::floor(rank));
    const std::size_t hi = std::min(lo + 1, count - 1);
    const double frac = rank - double(lo);
    return double(sorted[lo]) + (double(sorted[hi]) - double(sorted[lo])) * frac;
}

DurationSummary summarizeSorted(const qint64* sorted, std::size_t count)
{
    DurationSummary s;
    if (count == 0)
        return s;
    s.count = qint64(count);
    s.min = sorted[0];
    s.max = sorted[count - 1];
    qint64 total = 0;
    for (std::size_t i = 0; i < count; ++i)
        total += sorted[i];
    s.total = total;
    s.mean = double(total) / double(count);
    s.median
        = count % 2 ? double(sorted[count / 2]) : (double(sorted[count / 2 - 1]) + double(sorted[count / 2])) / 2.0;
    if (count > 1) {
        // Two passes in long double: the 1-decimal rounding downstream must not see accumulated error.
        const long double mean = static_cast<long double>(total) / static_cast<long double>(count);
        long double squares = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const long double d = static_cast<long double>(sorted[i]) - mean;
            squares += d * d;
        }
        s.stddev = double(std::sqrt(squares / static_cast<long double>(count - 1)));
    }
    s.p90 = percentileSorted(sorted, count, 90);
    s.p99 = percentileSorted(sorted, count, 99);
    return s;
}

DurationSummary summarize(std::vector<qint64>& values)
{
    std::sort(values.begin(), values.end());
    return summarizeSorted(values.data(), values.size());
}

} // namespace nsw
