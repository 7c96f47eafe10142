// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

namespace nsw {

/// The base of every chart in the window. replot() draws the chart and leaves painting it on screen to Qt's next
/// paint of the window, instead of QCustomPlot's default immediate repaint(): a profile opening or changing replots
/// most charts at once, and each immediate repaint painted and flushed the whole window again (issue 33: 150 of the
/// 310 ms the GUI thread spent showing a first profile).
class Chart : public QCustomPlot
{
    Q_OBJECT
public:
    explicit Chart(QWidget* parent = nullptr);
};

} // namespace nsw
