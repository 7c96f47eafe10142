// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/intervals.h"

#include "core/util/hugepages.h"
#include "core/util/sortruns.h"

#include <algorithm>

namespace nsw {

IntervalUnion::IntervalUnion(std::vector<TimeInterval> intervals)
{
    // Activity comes in a few runs already in start order: merging them costs a few passes, sorting millions of rows
    // much more.
    std::vector<TimeInterval> scratch;
    if (!sortByRuns(std::span<TimeInterval>(intervals), scratch, std::less<TimeInterval>()))
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
    m_blockPrefix.reserve((m_intervals.size() >> kBlockBits) + 2);
    TimeNs sum = 0;
    for (std::size_t i = 0; i < m_intervals.size(); ++i) {
        if ((i & ((std::size_t(1) << kBlockBits) - 1)) == 0)
            m_blockPrefix.push_back(sum);
        sum += m_intervals[i].second - m_intervals[i].first;
    }
    m_blockPrefix.push_back(sum);
}

TimeNs IntervalUnion::lengthBefore(std::size_t i) const
{
    if (i >= m_intervals.size())
        return length();
    const std::size_t block = i >> kBlockBits;
    TimeNs sum = m_blockPrefix[block];
    for (std::size_t j = block << kBlockBits; j < i; ++j)
        sum += m_intervals[j].second - m_intervals[j].first;
    return sum;
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
    return coveredFrom(std::size_t(first - m_intervals.begin()), start, end);
}

namespace {

/// The first position at or after @p from where @p before turns false (it holds, then does not, along @p v): doubling
/// steps from @p from, then a binary search inside the last step, so O(log distance) rather than O(log size).
template <typename Before> std::size_t gallop(const std::vector<TimeInterval>& v, std::size_t from, Before before)
{
    std::size_t low = from, step = 1;
    while (low + step <= v.size() && before(v[low + step - 1])) {
        low += step;
        step *= 2;
    }
    const auto high = v.begin() + std::ptrdiff_t(std::min(v.size(), low + step));
    return std::size_t(std::partition_point(v.begin() + std::ptrdiff_t(low), high, before) - v.begin());
}

} // namespace

TimeNs IntervalUnion::coveredFrom(std::size_t a, TimeNs start, TimeNs end) const
{
    // The first interval starting at or after end: most gaps hold few calls, so it is close to a.
    const std::size_t last = gallop(m_intervals, a, [end](const TimeInterval& i) { return i.first < end; });
    if (last <= a)
        return 0;
    const std::size_t b = last - 1;
    TimeNs sum = 0;
    if (b - a < (std::size_t(1) << kBlockBits)) {
        for (std::size_t i = a; i <= b; ++i)
            sum += m_intervals[i].second - m_intervals[i].first;
    } else {
        sum = lengthBefore(b + 1) - lengthBefore(a);
    }
    sum -= std::max<TimeNs>(0, start - m_intervals[a].first);
    sum -= std::max<TimeNs>(0, m_intervals[b].second - end);
    return sum;
}

std::size_t IntervalCursor::firstEndingAfter(TimeNs t)
{
    if (t < m_lastStart)
        m_position = 0;
    m_lastStart = t;
    m_position = gallop(m_union->m_intervals, m_position, [t](const TimeInterval& i) { return i.second <= t; });
    return m_position;
}

bool IntervalCursor::overlaps(TimeNs start, TimeNs end)
{
    if (!m_union || end <= start)
        return false;
    const std::size_t i = firstEndingAfter(start);
    const std::vector<TimeInterval>& v = m_union->m_intervals;
    return i < v.size() && v[i].first < end;
}

TimeNs IntervalCursor::coveredWithin(TimeNs start, TimeNs end)
{
    if (!m_union || end <= start || m_union->m_intervals.empty())
        return 0;
    return m_union->coveredFrom(firstEndingAfter(start), start, end);
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

IntervalUnion unite(std::span<const IntervalUnion* const> unions)
{
    std::size_t total = 0;
    for (const IntervalUnion* u : unions)
        total += u->intervals().size();
    std::vector<TimeInterval> merged;
    reserveHugePages(merged, total);
    std::vector<std::size_t> next(unions.size(), 0);
    for (;;) {
        // The input with the earliest next start (a handful of inputs: the GPUs of a profile).
        std::size_t pick = unions.size();
        for (std::size_t k = 0; k < unions.size(); ++k) {
            const std::vector<TimeInterval>& iv = unions[k]->intervals();
            if (next[k] < iv.size()
                && (pick == unions.size() || iv[next[k]].first < unions[pick]->intervals()[next[pick]].first))
                pick = k;
        }
        if (pick == unions.size())
            break;
        const TimeInterval& i = unions[pick]->intervals()[next[pick]++];
        if (!merged.empty() && i.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, i.second);
        else
            merged.push_back(i);
    }
    return IntervalUnion(std::move(merged)); // one run, already merged: the constructor's passes find nothing to do
}

IntervalUnion unite(const IntervalUnion& a, const IntervalUnion& b)
{
    const IntervalUnion* both[] = { &a, &b };
    return unite(both);
}

} // namespace nsw
