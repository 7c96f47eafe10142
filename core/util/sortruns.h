// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/util/hugepages.h"

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace nsw {

/// Merges the ascending runs [0, mid) and [mid, size) of @p v stably in place, through a copy of the shorter run in
/// @p scratch: a device's kernels then its few memory operations need a scratch of the memory operations, not of
/// the whole device (issue 33: 16 MB less while Findings run on the 4M-kernel export).
template <typename T, typename Less>
void mergeTwoRuns(std::span<T> v, std::size_t mid, std::vector<T>& scratch, Less less)
{
    const std::size_t n = v.size();
    if (mid <= n - mid) {
        scratch.assign(v.begin(), v.begin() + std::ptrdiff_t(mid));
        // Forward: the output never passes the right run's next element (out = taken from both < right).
        std::size_t left = 0, right = mid, out = 0;
        while (left < mid)
            v[out++] = right < n && less(v[right], scratch[left]) ? v[right++] : scratch[left++];
    } else {
        scratch.assign(v.begin() + std::ptrdiff_t(mid), v.end());
        // Backward: on equal keys the right run's element goes last, as in a stable merge.
        std::size_t left = mid, right = n - mid, out = n;
        while (right > 0)
            v[--out] = left > 0 && less(scratch[right - 1], v[left - 1]) ? v[--left] : scratch[--right];
    }
}

/// Sorts @p v stably when it is made of at most @p maxRuns ascending runs (a device's kernels then its memory
/// operations, calls of a few threads...), by merging neighbouring runs pass after pass through @p scratch: a few
/// linear passes where std::sort pays ~log2(n) comparisons per element. Returns false, leaving @p v untouched, when it
/// has more runs. @p scratch is reused between calls (fresh memory faults in slowly); when the first run is the
/// longer half, it need only be as long as the rest.
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
    // A long first run (a device's kernels, then its memory copies and memsets) is merged once with the rest sorted:
    // the scratch holds the rest, not the whole.
    if (bounds.size() == 3
        || (bounds[1] >= v.size() - bounds[1] && sortByRuns(v.subspan(bounds[1]), scratch, less, maxRuns))) {
        mergeTwoRuns(v, bounds[1], scratch, less);
        return true;
    }
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
