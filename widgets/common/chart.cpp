// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/common/chart.h"

namespace nsw {

Chart::Chart(QWidget* parent)
    : QCustomPlot(parent)
{
    setPlottingHint(QCP::phImmediateRefresh, false);
}

} // namespace nsw
