// SPDX-License-Identifier: GPL-3.0-or-later
#include "plotreduction.h"

#include <algorithm>
#include <cmath>

namespace nsw {

namespace {
constexpr std::size_t kFanout = 8;
}

SeriesMaxIndex::SeriesMaxIndex(const ThroughputSeries& series)
    : m_series(&series)
{
    const std::size_t n = series.intervalCount();
    std::size_t count = n / kFanout;
    int level = -1;
    while (count > 0) {
        std::vector<float> v(count);
        for (std::size_t j = 0; j < count; ++j) {
            double m = 0;
            for (std::size_t k = 0; k < kFanout; ++k)
                m = std::max(m, at(level, j * kFanout + k));
            v[j] = float(m);
        }
        m_levels.push_back(std::move(v));
        ++level;
        count /= kFanout;
    }
}

double SeriesMaxIndex::at(int level, std::size_t i) const
{
    return level < 0 ? m_series->value(i) : double(m_levels[std::size_t(level)][i]);
}

double SeriesMaxIndex::maxIn(std::size_t a, std::size_t b) const
{
    b = std::min(b, m_series->intervalCount());
    double m = 0;
    int level = -1;
    while (a < b) {
        while (a < b && a % kFanout != 0)
            m = std::max(m, at(level, a++));
        while (b > a && b % kFanout != 0)
            m = std::max(m, at(level, --b));
        if (a >= b)
            break;
        if (std::size_t(level + 1) >= m_levels.size()) {
            for (std::size_t i = a; i < b; ++i)
                m = std::max(m, at(level, i));
            break;
        }
        a /= kFanout;
        b /= kFanout;
        ++level;
    }
    return m;
}

std::size_t SeriesMaxIndex::memoryBytes() const
{
    std::size_t n = 0;
    for (const auto& l : m_levels)
        n += l.capacity() * sizeof(float);
    return n;
}

PlotPoints reduceForPlot(const ThroughputSeries& s, const SeriesMaxIndex& index, TimeNs shift, TimeNs from, TimeNs to,
    int buckets, double scale)
{
    PlotPoints out;
    const std::size_t n = s.intervalCount();
    if (n == 0 || to <= from || buckets <= 0)
        return out;
    const auto begin = s.time.begin();
    // Intervals [i0, i1) overlap [from, to).
    const std::size_t first = std::size_t(std::upper_bound(begin, s.time.end(), from - shift) - begin);
    const std::size_t i0 = first == 0 ? 0 : std::min(first - 1, n - 1);
    const std::size_t i1 = std::min(std::size_t(std::lower_bound(begin, s.time.end(), to - shift) - begin), n);
    if (i0 >= i1)
        return out;
    auto push = [&](TimeNs t, double v) {
        out.x.push_back(plotSeconds(t));
        out.y.push_back(v);
        out.yMax = std::max(out.yMax, v);
    };
    if (i1 - i0 <= std::size_t(buckets) * 2) {
        out.x.reserve(i1 - i0 + 1);
        out.y.reserve(i1 - i0 + 1);
        for (std::size_t i = i0; i < i1; ++i)
            push(s.time[i] + shift, s.value(i) * scale);
        push(s.time[i1] + shift, out.y.back());
        return out;
    }
    out.x.reserve(std::size_t(buckets) + 1);
    out.y.reserve(std::size_t(buckets) + 1);
    const double width = double(to - from) / buckets;
    std::size_t lo = i0;
    for (int b = 0; b < buckets; ++b) {
        const TimeNs bStart = from + TimeNs(std::floor(width * b));
        const TimeNs bEnd = b + 1 == buckets ? to : from + TimeNs(std::floor(width * (b + 1)));
        // First interval ending after bStart, first starting at or after bEnd.
        while (lo < i1 && s.time[lo + 1] + shift <= bStart)
            ++lo;
        const std::size_t hi
            = std::size_t(std::lower_bound(begin + TimeNs(lo), begin + TimeNs(i1), bEnd - shift) - begin);
        push(bStart, hi > lo ? index.maxIn(lo, hi) * scale : 0.0);
    }
    push(to, out.y.back());
    return out;
}

std::vector<double> busyFraction(
    const std::vector<std::pair<TimeNs, TimeNs>>& busy, TimeNs from, TimeNs to, int buckets)
{
    std::vector<double> out(std::size_t(std::max(buckets, 0)), 0.0);
    if (to <= from || buckets <= 0 || busy.empty())
        return out;
    const double width = double(to - from) / buckets;
    auto it = std::lower_bound(
        busy.begin(), busy.end(), from, [](const std::pair<TimeNs, TimeNs>& r, TimeNs t) { return r.second <= t; });
    for (; it != busy.end() && it->first < to; ++it) {
        const double a = double(std::max(it->first, from) - from), z = double(std::min(it->second, to) - from);
        int b = std::clamp(int(a / width), 0, buckets - 1);
        for (double pos = a; pos < z && b < buckets; ++b) {
            const double bucketEnd = (b + 1) * width;
            const double until = std::min(z, bucketEnd);
            out[std::size_t(b)] += (until - pos) / width;
            pos = until;
        }
    }
    for (double& v : out)
        v = std::min(v, 1.0);
    return out;
}

} // namespace nsw
