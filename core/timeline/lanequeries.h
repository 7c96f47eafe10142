// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/timeline/timelineindex.h"

#include <cmath>
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

template <typename A> std::uint32_t firstStartingAtOrAfter(const A& a, std::uint32_t lo, std::uint32_t n, TimeNs t)
{
    std::uint32_t hi = n;
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (a.start(mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/// firstStartingAtOrAfter() for an answer expected near @p lo: probes lo+1, lo+2, lo+4... then bisects the last
/// step. Successive pixel columns of a dense lane then touch neighbouring memory instead of the whole lane.
template <typename A> std::uint32_t gallopStartingAtOrAfter(const A& a, std::uint32_t lo, std::uint32_t n, TimeNs t)
{
    if (lo >= n || a.start(lo) >= t)
        return lo;
    std::uint32_t below = lo; // a.start(below) < t
    for (std::uint64_t step = 1;; step *= 2) {
        const std::uint64_t probe = std::uint64_t(below) + step;
        if (probe >= n)
            return firstStartingAtOrAfter(a, below + 1, n, t);
        if (a.start(std::uint32_t(probe)) >= t)
            return firstStartingAtOrAfter(a, below + 1, std::uint32_t(probe), t);
        below = std::uint32_t(probe);
    }
}

/// Where the pixel column holding @p t ends (columns of @p nsPerPixel from @p t0), always after @p t.
inline TimeNs columnEnd(TimeNs t0, double nsPerPixel, TimeNs t)
{
    const double column = std::floor(double(t - t0) / nsPerPixel) + 1;
    const TimeNs end = t0 + TimeNs(std::ceil(column * nsPerPixel));
    return std::max(end, t + 1);
}

/// Grows a merged span from position k (its first event, already taken) over every following event that starts in
/// the pixel column where the span ends, except a wide event, which keeps its own box. Returns the next position.
template <typename A>
std::uint32_t growSpan(const A& a, std::uint32_t k, std::uint32_t n, TimeNs t0, double npp, TimelineSpan& span)
{
    while (k < n) {
        const std::uint32_t j = gallopStartingAtOrAfter(a, k, n, columnEnd(t0, npp, span.end));
        if (j == k)
            break;
        const std::uint32_t last = j - 1;
        const bool lastIsWide = double(a.end(last) - a.start(last)) >= npp;
        const std::uint32_t upto = lastIsWide ? last : j;
        if (upto > k)
            span.end = std::max(span.end, a.end(upto - 1));
        k = upto;
        if (lastIsWide)
            break;
    }
    return k;
}

template <typename A>
void spans(const A& a, std::uint32_t n, TimeNs t0, TimeNs t1, double npp, std::vector<TimelineSpan>& out)
{
    out.clear();
    std::uint32_t k = firstEndingAtOrAfter(a, n, t0);
    while (k < n && a.start(k) <= t1) {
        TimelineSpan span { a.start(k), a.end(k), k, 1 };
        if (double(span.end - span.start) >= npp) {
            out.push_back(span);
            ++k;
            continue;
        }
        const std::uint32_t next = growSpan(a, k + 1, n, t0, npp, span);
        span.count = next - k;
        out.push_back(span);
        k = next;
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
