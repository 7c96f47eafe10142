// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/analysis/analysisrun.h"
#include "core/analysis/ruleinput.h"

#include <memory>

namespace nsw {

/// One GPU operation (kernel, memcpy, memset, or a profiling overhead copied onto every GPU of its process), as
/// nsys's GPUOperation views hold them.
struct GpuOp
{
    qint64 start = 0;
    qint64 end = 0;
    qint64 pid = 0;
    qint64 globalId = 0;
    qint64 deviceId = 0;
    qint64 contextId = 0;
};

/// The GPU rules. Their operations are read once per request (unfiltered) and filtered per window in memory; the
/// operations of one window (with the profiling overheads copied onto them) are kept for the next rule.
class GpuRuleInputs
{
public:
    explicit GpuRuleInputs(const RuleInput& input);
    ~GpuRuleInputs();

    /// nsys's SKIPPED message when the export holds no GPU operation table (or one without its `gpu` column).
    QString missingData() const;

    /// gpu_gaps (gpu-starv): per process and device, the gaps between the i-th end and the (i+1)-th start of its
    /// operations sorted separately, longer than `gap` ms, ordered by duration descending and start, numbered.
    Result<std::vector<RuleRow>> gaps(const RuleRequest& request, const TimeWindow& window);

    /// gpu_time_util (gpu-low-util): each device's [first start, last end] cut into `chunks` equal chunks, the
    /// summed in-use time of each, chunks under `threshold` % coalesced when consecutive (weighted average), ordered
    /// by average and duration, numbered.
    Result<std::vector<RuleRow>> timeUtil(const RuleRequest& request, const TimeWindow& window);

    /// Reads the GPU operation tables (unfiltered) unless done already; the rules call it when they need it, a caller
    /// may call it earlier (on another thread, with an input of its own) to read beside other work.
    Status load();

private:
    struct Data;
    Result<const std::vector<std::vector<GpuOp>>*> ops(const TimeWindow& window);
    const RuleInput& m_input;
    std::unique_ptr<Data> m_data;
};

/// The gaps of one API's operations (exposed for tests), at most @p limit (negative: all): the longest, longest
/// first, when @p longestFirst (one API present), else the first found by process, device and start (nsys's query
/// over a union of several APIs). The gaps point into @p ops.
struct GpuGap
{
    qint64 duration = 0;
    qint64 start = 0; ///< the end of `after`
    const GpuOp* after = nullptr; ///< the operation whose end opens the gap: its process, device and context
};
std::vector<GpuGap> findGpuGaps(const std::vector<GpuOp>& ops, qint64 thresholdNs, qint64 limit, bool longestFirst);

/// SQLite 3.40's round(x, digits) (its printf rounding: adds half a unit plus x*3e-16 in long double, then
/// truncates), which nsys 2022.4's Python applies to gpu_time_util's averages.
double sqlite340Round(double value, int digits);

} // namespace nsw
