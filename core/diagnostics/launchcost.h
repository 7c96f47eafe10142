// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"
#include "core/util/tally.h"

namespace nsw {

/// Per kernel name, as nsys's cuda_kern_exec_sum: the launch call's time (API), the time from the launch's end to
/// the kernel's start when positive (queue), and the kernel's time. Kernels without a launching call count in
/// `kernels` only.
struct LaunchCostRow
{
    QString name;
    Tally kernels; ///< their durations
    Tally launchCalls; ///< the durations of the launching calls of the kernels that have a known one
    Tally queue; ///< per launching call
    qint64 shortKernels = 0; ///< shorter than LaunchCostResult::shortKernelNs
};

/// Launches per process.
struct LaunchRateRow
{
    int pid = 0;
    QString process;
    qint64 launches = 0; ///< kernels of the process that overlap the focus
    TimeNs spanNs = 0; ///< the window
    TimeNs apiNs = 0; ///< summed launch-call time
    qint64 shortKernels = 0;
    double launchesPerSecond() const { return spanNs > 0 ? double(launches) * 1e9 / double(spanNs) : 0.0; }
};

struct LaunchCostResult
{
    TimeNs shortKernelNs = 10'000;
    std::vector<LaunchCostRow> kernels; ///< by kernel time descending
    std::vector<LaunchRateRow> processes; ///< by pid
    qint64 totalKernels = 0;
    qint64 shortKernels = 0;
    TimeNs shortKernelApiNs = 0; ///< launch-call time of the short kernels
    TimeNs totalKernelNs = 0;
    double shortPercent() const { return totalKernels > 0 ? 100.0 * double(shortKernels) / double(totalKernels) : 0.0; }
};

/// Kernels that overlap the focus (whole durations).
LaunchCostResult computeLaunchCost(
    const AnalysisContext& context, TimeNs shortKernelNs = 10'000, const JobContext& job = {});

} // namespace nsw
