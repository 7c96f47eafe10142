// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/intervals.h"

#include "core/util/hugepages.h"

#include <algorithm>

namespace nsw {

IntervalUnion::IntervalUnion(std::vector<TimeInterval> intervals)
{
    // Activity comes mostly in start order already: checking is one pass, sorting millions of rows is not.
    if (!std::is_sorted(intervals.begin(), intervals.end()))
        std::sort(intervals.begin(), intervals.end());
    // Merged in place: the result is never longer than the input, and a second array would be fresh pages to fault in.
    std::size_t kept = 0;
    for (const TimeInterval& i : intervals) {
        if (i.second <= i.first)
            continue;
        if (kept > 0 && i.first <= intervals[kept - 1].second)
            intervals[kept - 1].second = std::max(intervals[kept - 1].second, i.second);
        else
            intervals[kept++] = i;
    }
    intervals.resize(kept);
    if (kept < intervals.capacity() / 4)
        intervals.shrink_to_fit(); // many calls merged into few intervals: do not keep the input's size
    m_intervals = std::move(intervals);
    reserveHugePages(m_prefix, m_intervals.size());
    TimeNs sum = 0;
    for (const TimeInterval& i : m_intervals) {
        sum += i.second - i.first;
        m_prefix.push_back(sum);
    }
}

bool IntervalUnion::overlaps(TimeNs start, TimeNs end) const
{
    if (end <= start)
        return false;
    // The first interval that ends after start; intervals are disjoint and sorted, so their ends are sorted too.
    const auto it = std::upper_bound(
        m_intervals.begin(), m_intervals.end(), start, [](TimeNs t, const TimeInterval& i) { return t < i.second; });
    return it != m_intervals.end() && it->first < end;
}

TimeNs IntervalUnion::coveredWithin(TimeNs start, TimeNs end) const
{
    if (end <= start || m_intervals.empty())
        return 0;
    const auto first = std::upper_bound(
        m_intervals.begin(), m_intervals.end(), start, [](TimeNs t, const TimeInterval& i) { return t < i.second; });
    const auto last = std::lower_bound(m_intervals.begin(), m_intervals.end(), end,
        [](const TimeInterval& i, TimeNs t) { return i.first < t; }); // first interval starting at or after end
    if (first >= last)
        return 0;
    const std::size_t a = std::size_t(first - m_intervals.begin());
    const std::size_t b = std::size_t(last - m_intervals.begin()) - 1;
    TimeNs sum = m_prefix[b] - (a > 0 ? m_prefix[a - 1] : 0);
    sum -= std::max<TimeNs>(0, start - m_intervals[a].first);
    sum -= std::max<TimeNs>(0, m_intervals[b].second - end);
    return sum;
}

TimeNs IntervalUnion::intersectionLength(const IntervalUnion& other) const
{
    TimeNs sum = 0;
    std::size_t i = 0, j = 0;
    const auto& a = m_intervals;
    const auto& b = other.m_intervals;
    while (i < a.size() && j < b.size()) {
        const TimeNs s = std::max(a[i].first, b[j].first);
        const TimeNs e = std::min(a[i].second, b[j].second);
        if (e > s)
            sum += e - s;
        if (a[i].second < b[j].second)
            ++i;
        else
            ++j;
    }
    return sum;
}

IntervalUnion unite(const IntervalUnion& a, const IntervalUnion& b)
{
    std::vector<TimeInterval> all = a.intervals();
    all.insert(all.end(), b.intervals().begin(), b.intervals().end());
    return IntervalUnion(std::move(all));
}

} // namespace nsw
