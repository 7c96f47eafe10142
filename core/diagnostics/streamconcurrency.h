// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"

namespace nsw {

/// How many streams of one GPU run something at the same time, over the window.
struct DeviceConcurrency
{
    int device = -1;
    TimeNs spanNs = 0; ///< the window
    int streams = 0; ///< streams with work in the window
    /// timeWithStreams[k]: time during which exactly k of its streams run a kernel or memory operation; [0] is the
    /// GPU's idle time. Adds up to spanNs.
    std::vector<TimeNs> timeWithStreams;
    /// Time-weighted mean number of busy streams while at least one is busy, 0 when never busy.
    double meanWhileBusy() const;
};

/// Stream concurrency per GPU, never added across GPUs: each stream's kernels and memory operations that overlap the
/// focus, clipped to the window, united per stream, then swept; in DiagnosticsDevice order.
std::vector<DeviceConcurrency> computeStreamConcurrency(const AnalysisContext& context, const JobContext& job = {});

} // namespace nsw
