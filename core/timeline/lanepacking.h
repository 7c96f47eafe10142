// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"
#include "core/util/hugepages.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

/// Ordering and lane assignment of one track's events, generic over a lane accessor (laneaccess.h) built on the
/// track's reference array.
namespace nsw::lanepacking {

struct SortKey
{
    TimeNs start;
    TimeNs end;
    std::uint32_t ref;
    std::uint32_t position; ///< in the unsorted track: ties keep their order (in the struct's padding)
};

/// Start ascending, then the longer first, so that a parent precedes the children that start with it.
inline bool before(TimeNs s1, TimeNs e1, TimeNs s2, TimeNs e2)
{
    return s1 < s2 || (s1 == s2 && e1 > e2);
}

/// Sorts @p refs by start (longer first on ties); @p access reads position k of @p refs. Exports are mostly written
/// in start order, so the common case is one check.
template <typename Access> void sortByStart(std::span<std::uint32_t> refs, const Access& access)
{
    const std::uint32_t n = std::uint32_t(refs.size());
    bool sorted = true;
    for (std::uint32_t k = 1; k < n && sorted; ++k)
        sorted = !before(access.start(k), access.end(k), access.start(k - 1), access.end(k - 1));
    if (sorted)
        return;
    // A stable order by an in-place sort on (start, longer first, position): no merge buffer of half the keys.
    std::vector<SortKey> keys;
    reserveHugePages(keys, n);
    keys.resize(n);
    for (std::uint32_t k = 0; k < n; ++k)
        keys[k] = { access.start(k), access.end(k), refs[k], k };
    std::sort(keys.begin(), keys.end(), [](const SortKey& a, const SortKey& b) {
        if (a.start != b.start || a.end != b.end)
            return before(a.start, a.end, b.start, b.end);
        return a.position < b.position;
    });
    for (std::uint32_t k = 0; k < n; ++k)
        refs[k] = keys[k].ref;
}

/// First-fit lanes for events sorted by sortByStart(): each event goes to the lowest lane whose last event has
/// ended by its start. For properly nested ranges (NVTX push/pop, API calls inside API calls) the lane is the
/// nesting depth. Returns the lane of each position and the number of lanes.
template <typename Access>
std::uint32_t assignLanes(const Access& access, std::uint32_t n, std::vector<std::uint32_t>& laneOf)
{
    reserveHugePages(laneOf, n);
    laneOf.resize(n);
    std::vector<TimeNs> laneEnd;
    for (std::uint32_t k = 0; k < n; ++k) {
        const TimeNs start = access.start(k);
        std::size_t lane = 0;
        while (lane < laneEnd.size() && laneEnd[lane] > start)
            ++lane;
        if (lane == laneEnd.size())
            laneEnd.push_back(kNoTime);
        laneEnd[lane] = access.end(k);
        laneOf[k] = std::uint32_t(lane);
    }
    return std::uint32_t(laneEnd.size());
}

} // namespace nsw::lanepacking
