// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/stats/reporttable.h"

#include <QString>
#include <vector>

namespace nsw {

struct TopKernel
{
    QString name;
    qint64 totalNs = 0;
    qint64 instances = 0;
    double percent = 0; ///< of all kernel time
};

/// The first @p count rows of a cuda_gpu_kern_sum table (already ordered by total time, as nsys orders it): what
/// `profile --png` and kernalyse draw. Empty for another report or a skipped one.
std::vector<TopKernel> topKernels(const ReportTable& kernelSummary, int count);

} // namespace nsw
