// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnostics.h"

#include <QByteArray>
#include <QString>
#include <map>
#include <memory>

class QCustomPlot;

namespace nsw {

/// The report's charts as PNG bytes by id: "gpu_time_breakdown" (per GPU, stacked compute / communication / memory /
/// idle share of the window) and "gap_histogram" (idle gaps per length bucket, all GPUs). Charts without data are
/// left out. Needs a QApplication (the offscreen platform is enough); empty without one.
std::map<QString, QByteArray> renderReportCharts(const DiagnosticsResult& result);
/// The GPU time breakdown chart as the report draws it (900x420), null without data: for tests.
std::unique_ptr<QCustomPlot> timeBreakdownPlot(const DiagnosticsResult& result);

} // namespace nsw
