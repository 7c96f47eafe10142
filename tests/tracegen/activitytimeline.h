// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>
#include <algorithm>
#include <array>
#include <deque>

namespace nsw::tracegen {

/// GPU busy time of one device accumulated into fixed-width time buckets, per activity category. Buckets are
/// handed out (and forgotten) once the simulation guarantees no later activity can fall into them, which keeps
/// memory bounded by how far the GPU runs ahead of the CPU.
class ActivityTimeline
{
public:
    /// Any: all kernels; the others are subsets (Tensor: GEMM/attention kernels) or copies.
    enum Category
    {
        Any,
        Tensor,
        Nccl,
        Copy,
        CategoryCount
    };
    using Busy = std::array<qint64, CategoryCount>;

    explicit ActivityTimeline(qint64 widthNs)
        : m_width(widthNs)
    { }

    qint64 width() const { return m_width; }

    void add(Category c, qint64 start, qint64 end)
    {
        if (end <= start)
            return;
        start = std::max(start, m_first * m_width);
        for (qint64 b = start / m_width; b * m_width < end; ++b) {
            const qint64 lo = std::max(start, b * m_width);
            const qint64 hi = std::min(end, (b + 1) * m_width);
            if (hi <= lo)
                continue;
            bucket(b)[c] += hi - lo;
        }
    }

    /// Calls f(bucketIndex, busy) for every bucket that ends at or before t, in order, including empty ones.
    template <typename F> void flushUntil(qint64 t, F&& f)
    {
        while ((m_first + 1) * m_width <= t) {
            const Busy b = m_buckets.empty() ? Busy {} : m_buckets.front();
            if (!m_buckets.empty())
                m_buckets.pop_front();
            f(m_first, b);
            ++m_first;
        }
    }

private:
    Busy& bucket(qint64 b)
    {
        while (qint64(m_buckets.size()) <= b - m_first)
            m_buckets.push_back(Busy {});
        return m_buckets[std::size_t(b - m_first)];
    }

    qint64 m_width;
    qint64 m_first = 0; // index of m_buckets.front()
    std::deque<Busy> m_buckets;
};

} // namespace nsw::tracegen
