// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/stats/durationstats.h"

namespace nsw {

/// Sets the count, min, max and quantiles of @p stats (a Quantiles with count, min and max: a DurationSummary, a
/// DurationHistogram) from @p sorted, which must be in ascending order and not empty. The summaries and the duration
/// histograms take them from here, so their numbers agree.
template <typename Stats, typename Duration>
void setOrderStatistics(Stats& stats, const Duration* sorted, std::size_t count)
{
    stats.count = qint64(count);
    stats.min = qint64(sorted[0]);
    stats.max = qint64(sorted[count - 1]);
    static_cast<Quantiles&>(stats) = quantilesSorted(sorted, count);
}

} // namespace nsw
