// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <functional>
#include <queue>
#include <span>
#include <tuple>
#include <type_traits>
#include <vector>

namespace nsw {

/// Positions [begin, end) of one run whose keys ascend.
struct PositionRun
{
    std::size_t begin = 0;
    std::size_t end = 0;
};

/// Visits every position of @p runs in ascending (key, run) order, without copying them: a heap holds one cursor a
/// run (a k-way merge), where sorting the positions would copy them all and pay ~log2(n) comparisons for each.
/// @p keyAt(position) gives a position's key; @p visit(position, key) is called once for each.
template <typename KeyAt, typename Visit>
void forEachMerged(std::span<const PositionRun> runs, KeyAt keyAt, Visit visit)
{
    using Key = std::invoke_result_t<KeyAt&, std::size_t>;
    using Head = std::tuple<Key, std::size_t, std::size_t>; // key, run, position
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    for (std::size_t r = 0; r < runs.size(); ++r)
        if (runs[r].begin < runs[r].end)
            heads.emplace(keyAt(runs[r].begin), r, runs[r].begin);
    while (!heads.empty()) {
        const auto [key, r, position] = heads.top();
        heads.pop();
        if (position + 1 < runs[r].end)
            heads.emplace(keyAt(position + 1), r, position + 1);
        visit(position, key);
    }
}

} // namespace nsw
