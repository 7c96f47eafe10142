// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"
#include "core/util/tally.h"

namespace nsw {

/// One kernel execution among the longest of the window.
struct LongestKernel
{
    std::uint32_t row = 0; ///< kernel row
    int device = -1;
    std::int64_t stream = 0;
    int pid = 0;
    TimeNs start = 0;
    TimeNs end = 0;
    QString name;
    TimeNs duration() const { return end - start; }
};

/// The distribution of a set of durations: percentiles interpolated linearly between the closest ranks (the value at
/// rank p/100 x (n - 1) of the sorted values, numpy's default, as nsys-llm-explainer reports them).
struct Percentiles : Tally
{
    double p50 = 0;
    double p90 = 0;
    double p99 = 0;
};
/// Measures @p values (percentiles interpolated between neighbouring ranks); all zero when empty.
Percentiles percentilesOf(std::vector<TimeNs> values);

/// Kernel durations and launch intervals of one process, or of all (pid 0).
struct LaunchPercentileRow
{
    int pid = 0; ///< 0: every process
    QString process; ///< "all processes", or Profile::processLabel
    Percentiles kernelDurations; ///< kernels that overlap the focus, whole durations
    /// Intervals between the starts of consecutive kernel or graph launch calls (ApiLaunch) of one thread, the
    /// threads' intervals pooled; calls that overlap the focus.
    Percentiles launchIntervals;
};

struct KernelTiming
{
    std::vector<LongestKernel> longest; ///< longest first (ties: earlier start, lower row)
    std::vector<LaunchPercentileRow> percentiles; ///< every process first, then by pid
};

/// The @p longestCount longest kernel executions that overlap the focus, and the launch percentiles.
KernelTiming computeKernelTiming(
    const AnalysisContext& context, std::size_t longestCount = 20, const JobContext& job = {});

} // namespace nsw
