// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/idlegaps.h"
#include "core/diagnostics/ncclskew.h"
#include "core/diagnostics/overlap.h"
#include "core/iterations/iterations.h"

#include <span>

namespace nsw {

/// An upper bound on the time a scope (the window, or the median iteration) would take on one GPU if one cause of
/// lost GPU time were gone, with its arithmetic. It assumes nothing else moves into the freed time and no other
/// work grows: an estimate of what at most could be gained, never a prediction.
struct WhatIfRow
{
    QString scope; ///< "window", or "median iteration: iteration 5 (ProfilerStep#5)"
    int device = -1; ///< -1: the GPUs of lockstep together
    std::vector<int> lockstep; ///< with device -1: the GPUs that wait for each other, whose smallest saving it is
    QString scenario; ///< "no sync gaps", "NCCL fully overlapped with compute", "no NCCL skew"
    TimeNs baseNs = 0; ///< the scope's duration
    TimeNs removableNs = 0; ///< the time the scenario removes at most
    TimeNs boundNs = 0; ///< baseNs - removableNs: the scope cannot get shorter than this by this change alone
    QString arithmetic; ///< "300 ms - 13.2 ms of cpu_bound gaps = 286.8 ms (at most 4.4 % shorter)"
    double savingPercent() const { return baseNs > 0 ? 100.0 * double(removableNs) / double(baseNs) : 0.0; }
};

/// Said with every what-if: the rows are per GPU, and GPUs that wait for each other gain only together.
inline const QString kWhatIfNote = QStringLiteral(
    "Upper bounds per GPU, not predictions: each assumes that removing one cause frees its time and nothing else "
    "changes. GPUs that wait for each other in collectives gain at most the smallest of their savings (the rows of "
    "the GPUs together).");

/// The scenarios of one scope from its analyses: a row per gap cause with time, all gaps, NCCL fully overlapped
/// (the smaller of NCCL-alone and compute-alone time: NCCL can only hide behind compute), and NCCL skew gone (the
/// time the GPU waited for its peers). Rows with nothing to remove are left out. When two GPUs or more share
/// collectives (@p skew has them), each waits for the others at every collective and the scope ends when the last
/// one is done: per scenario a row of those GPUs together (device -1) removes the smallest of their savings, 0 for a
/// GPU without that cause. @p devices names the GPUs in its arithmetic.
std::vector<WhatIfRow> whatIfScenarios(const QString& scope, TimeNs baseNs, const IdleGapResult& gaps,
    const OverlapResult& overlap, const NcclSkewResult& skew, std::span<const DiagnosticsDevice> devices = {});

/// The window's scenarios, then, when @p iterations are found by a marker or guessed with high confidence, the
/// median iteration's (its gaps, overlap and skew measured again on it).
std::vector<WhatIfRow> computeWhatIf(const AnalysisContext& context, const IdleGapResult& gaps,
    const OverlapResult& overlap, const NcclSkewResult& skew, const IterationTable* iterations,
    const JobContext& job = {});

} // namespace nsw
