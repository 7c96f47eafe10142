// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"
#include "core/util/tally.h"

namespace nsw {

/// What one process did, as nsys-llm-explainer's per-PID tables.
struct ProcessBreakdownRow
{
    int pid = 0;
    QString process; ///< Profile::processLabel
    Tally kernels; ///< of durations, as every Tally here
    Tally memOps;
    Tally apiCalls;
    Tally syncCalls;
    Tally nvtxRanges;
};

/// A name aggregated per process (pid = 0 and process empty when aggregated over all processes).
struct NamedDurations : Tally
{
    int pid = 0;
    QString name;
    QString domain; ///< NVTX rows: the domain, empty for the default one
};

struct PerProcessResult
{
    std::vector<ProcessBreakdownRow> processes; ///< by pid
    std::vector<NamedDurations> kernelsByPid; ///< by pid, then total descending
    std::vector<NamedDurations> syncByPid; ///< sync-like API calls by pid and name
    std::vector<NamedDurations> nvtxByPid; ///< terminated NVTX ranges by pid, domain and name
    std::vector<NamedDurations> nvtxRanges; ///< the same over all processes, by total descending
    std::vector<NamedDurations> kernels; ///< kernels by name over all processes, by total descending
};

/// Events that overlap the focus, whole durations.
PerProcessResult computePerProcess(const AnalysisContext& context, const JobContext& job = {});

} // namespace nsw
