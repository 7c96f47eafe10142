// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinelayout.h"

#include <algorithm>

namespace nsw {

void TimelineLayout::update(const TimelineIndex& index, const std::vector<char>& collapsed)
{
    std::vector<int> order(index.rows().size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    update(index.rows(), order, collapsed);
}

void TimelineLayout::update(
    const std::vector<TimelineRow>& rows, const std::vector<int>& order, const std::vector<char>& collapsed)
{
    m_items.clear();
    m_itemOfRow.assign(rows.size(), -1);
    std::vector<char> hidden(rows.size(), 0);
    int y = 0;
    for (const int row : order) {
        const std::size_t i = std::size_t(row);
        const TimelineRow& r = rows[i];
        if (r.parent >= 0) {
            const std::size_t parent = std::size_t(r.parent);
            hidden[i] = hidden[parent] || (parent < collapsed.size() && collapsed[parent]);
        }
        if (hidden[i])
            continue;
        const int height = r.isGroup()     ? kGroupHeight
            : r.kind == TrackKind::Counter ? kCounterHeight
                                           : int(r.laneCount) * kLaneHeight + 2 * kTrackPadding;
        m_itemOfRow[i] = int(m_items.size());
        m_items.push_back({ row, y, height });
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
    if (row < 0 || std::size_t(row) >= m_itemOfRow.size() || m_itemOfRow[std::size_t(row)] < 0)
        return nullptr;
    return &m_items[std::size_t(m_itemOfRow[std::size_t(row)])];
}

} // namespace nsw
