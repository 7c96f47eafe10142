// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

/// Where a lane's merged spans break, found without visiting the events in between. An event continues the span
/// before it while both the gap before it and its own duration are under a pixel; its "break value" is the larger of
/// the two. The tree keeps the maximum break value of every aligned block of 16, 256, 4096... events (level 0, the
/// events themselves, is read from the lane), so the first break after a position is a descent of a few levels
/// whatever the zoom: about 0.27 bytes per event.
namespace nsw::gaptree {

inline constexpr std::uint64_t kFanOut = 16;

/// Floats the tree of a lane of @p n events takes (levels until one block covers the lane).
inline std::size_t size(std::uint32_t n)
{
    std::size_t total = 0;
    for (std::uint64_t width = kFanOut;; width *= kFanOut) {
        total += std::size_t((n + width - 1) / width);
        if (width >= n)
            return total;
    }
}

template <typename A> double breakValue(const A& a, std::uint32_t k)
{
    const double duration = double(a.end(k) - a.start(k));
    return k == 0 ? duration : std::max(duration, double(a.start(k) - a.end(k - 1)));
}

/// Never below the exact value, so that a block is never skipped over a break.
inline float roundedUp(double v)
{
    float f = float(v);
    if (double(f) < v)
        f = std::nextafter(f, HUGE_VALF);
    return f;
}

/// Fills @p tree (size(n) floats).
template <typename A> void build(const A& a, std::uint32_t n, float* tree)
{
    const std::size_t first = std::size_t((n + kFanOut - 1) / kFanOut);
    std::fill(tree, tree + first, 0.0f);
    for (std::uint32_t k = 0; k < n; ++k)
        tree[k / kFanOut] = std::max(tree[k / kFanOut], roundedUp(breakValue(a, k)));
    float* below = tree;
    std::size_t belowSize = first;
    for (std::uint64_t width = kFanOut; width < n; width *= kFanOut) {
        float* level = below + belowSize;
        const std::size_t levelSize = std::size_t((n + width * kFanOut - 1) / (width * kFanOut));
        std::fill(level, level + levelSize, 0.0f);
        for (std::size_t i = 0; i < belowSize; ++i)
            level[i / kFanOut] = std::max(level[i / kFanOut], below[i]);
        below = level;
        belowSize = levelSize;
    }
}

/// The first position at or after @p k whose break value is at least @p nsPerPixel, or @p limit (at most n) when
/// none comes before it.
template <typename A>
std::uint32_t firstBreak(
    const A& a, std::uint32_t n, const float* tree, std::uint32_t k, double nsPerPixel, std::uint32_t limit)
{
    std::uint64_t pos = k;
    while (pos < limit) {
        if (pos % kFanOut != 0 || tree[pos / kFanOut] >= nsPerPixel) {
            // Inside a block that may hold a break: breakValue() of its events one by one up to the next block, each
            // end read once (an accessor may decode it through the NVTX table; a mid-zoom paint spends most of its
            // time here).
            const std::uint64_t blockEnd = std::min<std::uint64_t>(limit, (pos / kFanOut + 1) * kFanOut);
            // The first event has no gap before it: a gap of 0 never reaches a pixel, as breakValue() has it.
            TimeNs previousEnd = pos > 0 ? a.end(std::uint32_t(pos - 1)) : a.start(0);
            for (; pos < blockEnd; ++pos) {
                const TimeNs start = a.start(std::uint32_t(pos));
                const TimeNs end = a.end(std::uint32_t(pos));
                if (std::max(double(end - start), double(start - previousEnd)) >= nsPerPixel)
                    return std::uint32_t(pos);
                previousEnd = end;
            }
            continue;
        }
        // No break in this block: skip the largest aligned block without one.
        const float* level = tree;
        std::uint64_t width = kFanOut;
        std::size_t levelSize = std::size_t((n + kFanOut - 1) / kFanOut);
        while (width < n) {
            const std::uint64_t wider = width * kFanOut;
            const float* next = level + levelSize;
            if (pos % wider != 0 || next[pos / wider] >= nsPerPixel)
                break;
            level = next;
            levelSize = std::size_t((n + wider - 1) / wider);
            width = wider;
        }
        pos += width;
    }
    return limit;
}

} // namespace nsw::gaptree
