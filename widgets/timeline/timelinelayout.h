// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/timeline/timelineindex.h"

#include <vector>

namespace nsw {

/// Where each visible row of the timeline is drawn: rows under a collapsed group are left out, a track is as tall
/// as its lanes.
class TimelineLayout
{
public:
    static constexpr int kGroupHeight = 20;
    static constexpr int kLaneHeight = 16;
    static constexpr int kTrackPadding = 3;
    static constexpr int kCounterHeight = 36;

    struct Item
    {
        int row = 0; ///< index into TimelineIndex::rows()
        int y = 0; ///< top, from the first row (before scrolling)
        int height = 0;
    };

    void update(const TimelineIndex& index, const std::vector<char>& collapsed);
    /// Rows shown in @p order (a permutation of the rows, every group before its rows).
    void update(
        const std::vector<TimelineRow>& rows, const std::vector<int>& order, const std::vector<char>& collapsed);
    const std::vector<Item>& items() const { return m_items; }
    int totalHeight() const { return m_totalHeight; }
    /// The item at @p y (layout coordinates), or nullptr.
    const Item* itemAt(int y) const;
    /// The item of @p row, or nullptr when it is hidden under a collapsed group.
    const Item* itemOfRow(int row) const;
    /// Top of lane @p lane within a track item.
    static int laneTop(const Item& item, std::uint32_t lane)
    {
        return item.y + kTrackPadding + int(lane) * kLaneHeight;
    }

private:
    std::vector<Item> m_items;
    std::vector<int> m_itemOfRow; ///< per row, -1 when hidden
    int m_totalHeight = 0;
};

} // namespace nsw
