// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/reports/topkernels.h"
#include "widgets/common/chart.h"

namespace nsw {

/// The kernels that took the most GPU time, as horizontal bars with their share of all kernel time (kernalyse's
/// chart; `nsys-workbench profile --png`).
class TopKernelsChart : public Chart
{
public:
    explicit TopKernelsChart(QWidget* parent = nullptr);
    void setKernels(const std::vector<TopKernel>& kernels, const QString& title);

private:
    QCPTextElement* m_title;
    QCPBars* m_bars;
};

} // namespace nsw
