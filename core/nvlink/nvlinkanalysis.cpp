// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkanalysis.h"

#include <algorithm>
#include <limits>
#include <queue>

namespace nsw {

namespace {

qint64 saturatingAdd(qint64 a, qint64 b)
{
    qint64 r = 0;
    return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<qint64>::max() : r;
}

struct Candidate
{
    double value;
    IntervalRef ref;
};

/// a ranks before b.
bool ranksBefore(const Candidate& a, const Candidate& b)
{
    if (a.value != b.value)
        return a.value > b.value;
    return a.ref.series != b.ref.series ? a.ref.series < b.ref.series : a.ref.index < b.ref.index;
}

} // namespace

std::vector<const ThroughputSeries*> selectSeries(
    const std::vector<ThroughputSeries>& links, const std::vector<ThroughputSeries>& totals, const NvlinkFilter& filter)
{
    std::vector<const ThroughputSeries*> out;
    for (const ThroughputSeries& s : filter.aggregateLinks ? totals : links) {
        if (!filter.aggregateLinks && !filter.links.empty()
            && std::find(filter.links.begin(), filter.links.end(), s.link) == filter.links.end())
            continue;
        if (filter.direction && s.direction != *filter.direction)
            continue;
        out.push_back(&s);
    }
    return out;
}

IntervalWindow intervalsOverlapping(const ThroughputSeries& series, TimeNs shift, const FocusRange& focus)
{
    const std::size_t n = series.intervalCount();
    if (!focus.isActive() || n == 0)
        return { 0, n };
    // For start <= end, overlaps() is start < focus.end && end >= focus.start.
    const TimeNs* t = series.time.begin();
    const TimeNs* firstEnd
        = std::lower_bound(t + 1, t + n + 1, focus.start, [shift](TimeNs time, TimeNs s) { return time + shift < s; });
    const TimeNs* pastStart
        = std::lower_bound(t, t + n, focus.end, [shift](TimeNs time, TimeNs e) { return time + shift < e; });
    const auto first = std::size_t(firstEnd - (t + 1));
    const auto last = std::size_t(pastStart - t);
    return { first, std::max(first, last) };
}

std::vector<IntervalRef> topIntervals(
    const std::vector<const ThroughputSeries*>& series, std::size_t top, const std::vector<IntervalWindow>* windows)
{
    if (top == 0)
        return {};
    // Bounded heap whose top is the worst kept candidate. Candidates arrive in (series, index) order, so a later
    // one with an equal value never displaces an earlier one: the stable-sort tie order.
    auto worseFirst = [](const Candidate& a, const Candidate& b) { return ranksBefore(a, b); };
    std::priority_queue<Candidate, std::vector<Candidate>, decltype(worseFirst)> heap(worseFirst);
    for (std::size_t s = 0; s < series.size(); ++s) {
        const ThroughputSeries& ts = *series[s];
        const IntervalWindow window = windows ? (*windows)[s] : IntervalWindow { 0, ts.intervalCount() };
        const bool counted = ts.unit == ThroughputUnit::GBps;
        for (std::size_t i = window.first; i < window.last; ++i) {
            const TimeNs d = ts.duration(i);
            if (d <= 0)
                continue;
            // GB/s is bytes per ns: a product against the worst kept value rules most intervals out without the
            // divisions of the exact value (the margin keeps ties and rounding on the exact side).
            if (counted && heap.size() == top && double(ts.bytes[i]) <= heap.top().value * (1 - 1e-9) * double(d))
                continue;
            const Candidate c { ts.value(i), { std::uint32_t(s), std::uint32_t(i) } };
            if (heap.size() < top) {
                heap.push(c);
            } else if (ranksBefore(c, heap.top())) {
                heap.pop();
                heap.push(c);
            }
        }
    }
    std::vector<IntervalRef> out(heap.size());
    for (std::size_t i = heap.size(); i-- > 0;) {
        out[i] = heap.top().ref;
        heap.pop();
    }
    return out;
}

AvgThroughput avgThroughput(const std::vector<const ThroughputSeries*>& series)
{
    AvgThroughput r;
    double weighted = 0; // summed left to right, in the tools' interval order
    for (const ThroughputSeries* s : series) {
        for (std::size_t i = 0; i < s->intervalCount(); ++i) {
            const TimeNs d = s->duration(i);
            if (d <= 0)
                continue;
            const qint64 us = d / 1000;
            const double g = s->value(i);
            r.totalDurationUs = saturatingAdd(r.totalDurationUs, us);
            weighted += g * double(us);
            ++r.intervals;
            if (g > 0)
                ++r.activeIntervals;
        }
    }
    r.gbps = r.totalDurationUs > 0 ? weighted / double(r.totalDurationUs) : 0.0;
    return r;
}

TotalCommunication totalCommunication(const std::vector<const ThroughputSeries*>& series)
{
    TotalCommunication r;
    for (const ThroughputSeries* s : series) {
        if (s->unit != ThroughputUnit::GBps)
            continue;
        qint64& total = s->direction == LinkDirection::Tx ? r.txBytes : r.rxBytes;
        for (std::size_t i = 0; i < s->intervalCount(); ++i) {
            if (s->duration(i) <= 0)
                continue;
            total = saturatingAdd(total, s->bytes[i]);
            ++r.intervals;
        }
    }
    return r;
}

} // namespace nsw
