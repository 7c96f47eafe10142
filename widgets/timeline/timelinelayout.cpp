// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinelayout.h"

#include <algorithm>

namespace nsw {

void TimelineLayout::update(const TimelineIndex& index, const std::vector<char>& collapsed)
{
    m_items.clear();
    const std::vector<TimelineRow>& rows = index.rows();
    std::vector<char> hidden(rows.size(), 0);
    int y = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const TimelineRow& r = rows[i];
        if (r.parent >= 0) {
            const std::size_t parent = std::size_t(r.parent);
            hidden[i] = hidden[parent] || (parent < collapsed.size() && collapsed[parent]);
        }
        if (hidden[i])
            continue;
        const int height = r.isGroup() ? kGroupHeight : int(r.laneCount) * kLaneHeight + 2 * kTrackPadding;
        m_items.push_back({ int(i), y, height });
        y += height;
    }
    m_totalHeight = y;
}

const TimelineLayout::Item* TimelineLayout::itemAt(int y) const
{
    const auto it = std::upper_bound(
        m_items.begin(), m_items.end(), y, [](int value, const Item& item) { return value < item.y; });
    if (it == m_items.begin())
        return nullptr;
    const Item& item = *std::prev(it);
    return y < item.y + item.height ? &item : nullptr;
}

const TimelineLayout::Item* TimelineLayout::itemOfRow(int row) const
{
    const auto it = std::lower_bound(
        m_items.begin(), m_items.end(), row, [](const Item& item, int value) { return item.row < value; });
    return it != m_items.end() && it->row == row ? &*it : nullptr;
}

} // namespace nsw
