// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/util/hugepages.h"

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace nsw {

/// Sorts @p v stably when it is made of at most @p maxRuns ascending runs (a device's kernels then its memory
/// operations, calls of a few threads...), by merging neighbouring runs pass after pass through @p scratch: a few
/// linear passes where std::sort pays ~log2(n) comparisons per element. Returns false, leaving @p v untouched, when it
/// has more runs. @p scratch is reused between calls (fresh memory faults in slowly).
template <typename T, typename Less>
bool sortByRuns(std::span<T> v, std::vector<T>& scratch, Less less, std::size_t maxRuns = 64)
{
    std::vector<std::size_t> bounds { 0 };
    for (std::size_t i = 1; i < v.size(); ++i)
        if (less(v[i], v[i - 1])) {
            if (bounds.size() == maxRuns)
                return false;
            bounds.push_back(i);
        }
    bounds.push_back(v.size());
    if (bounds.size() <= 2)
        return true;
    if (scratch.capacity() < v.size())
        reserveHugePages(scratch, v.size());
    scratch.resize(std::max(scratch.size(), v.size()));
    T* from = v.data();
    T* to = scratch.data();
    while (bounds.size() > 2) {
        std::vector<std::size_t> merged { 0 };
        for (std::size_t r = 0; r + 1 < bounds.size(); r += 2) {
            const std::size_t end = r + 2 < bounds.size() ? bounds[r + 2] : bounds[r + 1];
            std::merge(from + bounds[r], from + bounds[r + 1], from + bounds[r + 1], from + end, to + bounds[r], less);
            merged.push_back(end);
        }
        std::swap(from, to);
        bounds = std::move(merged);
    }
    if (from != v.data())
        std::copy(from, from + v.size(), v.data());
    return true;
}

} // namespace nsw
