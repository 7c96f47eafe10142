// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <vector>

class QCPAxis;

namespace nsw {

/// The numbers along @p axis are apart by more than their width plus two characters (a horizontal axis) or by 1.5
/// lines (a vertical one).
bool tickLabelsHaveRoom(const QCPAxis& axis);

/// QCustomPlot makes an axis' ticks before it knows the axis' length, and its five ticks run wide numbers together
/// along a short axis ("100150200"). Starting from five, lowers the tick count of each of @p axes whose numbers have
/// no room, calling @p layOut (the plot's QCustomPlot::updateLayout) after each change; the axes' lengths do not
/// depend on the counts, so this ends. For an updateLayout() override.
void fitTickCounts(const std::vector<QCPAxis*>& axes, const std::function<void()>& layOut);

} // namespace nsw
