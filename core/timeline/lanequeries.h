// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/timeline/gaptree.h"
#include "core/timeline/timelineindex.h"

#include <cstdint>
#include <vector>

/// The queries of a lane, generic over its accessor (laneaccess.h). A lane's events never overlap, so starts and
/// ends are both sorted.
namespace nsw::lanequeries {

template <typename A> std::uint32_t firstEndingAtOrAfter(const A& a, std::uint32_t n, TimeNs t)
{
    std::uint32_t lo = 0, hi = n;
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (a.end(mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

template <typename A> std::uint32_t firstStartingAfter(const A& a, std::uint32_t n, TimeNs t)
{
    std::uint32_t lo = 0, hi = n;
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (a.start(mid) <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/// Spans of [t0, t1]: an event at least a pixel wide alone, else merged with the following events while each of
/// them is under a pixel and starts less than a pixel after the one before (see gaptree.h).
template <typename A>
void spans(
    const A& a, std::uint32_t n, const float* tree, TimeNs t0, TimeNs t1, double npp, std::vector<TimelineSpan>& out)
{
    out.clear();
    std::uint32_t k = firstEndingAtOrAfter(a, n, t0);
    const std::uint32_t limit = firstStartingAfter(a, n, t1);
    while (k < limit) {
        TimelineSpan span { a.start(k), a.end(k), k, 1 };
        if (double(span.end - span.start) < npp) {
            const std::uint32_t next = gaptree::firstBreak(a, n, tree, k + 1, npp, limit);
            span.end = a.end(next - 1); // ends are sorted in a lane
            span.count = next - k;
        }
        out.push_back(span);
        k += span.count;
    }
}

template <typename A> std::int64_t hitTest(const A& a, std::uint32_t n, TimeNs t, TimeNs tolerance)
{
    const std::uint32_t k = firstEndingAtOrAfter(a, n, t);
    if (k < n && a.start(k) <= t) {
        // k ends at or after t; at a shared boundary the event that starts at t wins.
        if (a.end(k) == t && k + 1 < n && a.start(k + 1) == t)
            return k + 1;
        return k;
    }
    std::int64_t best = -1;
    TimeNs bestDistance = tolerance + 1;
    if (k > 0 && t - a.end(k - 1) < bestDistance) {
        best = k - 1;
        bestDistance = t - a.end(k - 1);
    }
    if (k < n && a.start(k) - t < bestDistance)
        best = k;
    return best;
}

} // namespace nsw::lanequeries
