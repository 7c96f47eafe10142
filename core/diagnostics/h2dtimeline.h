// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"
#include "core/util/tally.h"

namespace nsw {

/// Host-to-device copies in one slice of the window.
struct H2dBin
{
    TimeNs start = 0;
    TimeNs end = 0;
    Tally copies; ///< of their sizes: count copies, total bytes
    qint64 migrationBytes = 0; ///< of copies.total, unified-memory page migrations to the device
};

/// Host-to-device bytes over time, and the initial load (before the first kernel) against the steady state.
struct H2dTimeline
{
    TimeNs binNs = 0; ///< a round width: 1, 2 or 5 x 10^k ns
    std::vector<H2dBin> bins; ///< the window in binNs slices (the last one cut at the window's end)
    TimeNs firstKernel = kNoTime; ///< the first kernel start in the window (any GPU); kNoTime without kernels
    Tally initial; ///< the sizes of the copies starting before firstKernel (all of them without kernels)
    Tally steady; ///< from firstKernel on
    TimeNs steadyNs = 0; ///< firstKernel to the window's end
    /// Steady-state rate, GB/s (10^9 bytes per second) over steadyNs; 0 without.
    double steadyGbPerSecond() const { return steadyNs > 0 ? double(steady.total) / double(steadyNs) : 0.0; }
};

/// Copies host-to-device (ENUM_CUDA_MEMCPY_OPER 1), host-to-array (3) and unified-memory page migrations to the
/// device (11) that start in the window, each counted whole in the bin it starts in; at most about @p maxBins bins.
H2dTimeline computeH2dTimeline(const AnalysisContext& context, int maxBins = 50, const JobContext& job = {});

} // namespace nsw
