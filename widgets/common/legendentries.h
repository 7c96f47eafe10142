// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QCPLegend;

namespace nsw {

/// QCustomPlot draws a legend entry's text from the entry's top and clips it to the entry: without a bottom margin
/// the lowest ink of a tight legend (underscores, descenders) is cut, on screen and in PNGs. Call whenever the
/// legend's entries change.
void keepLegendInk(QCPLegend& legend);

} // namespace nsw
