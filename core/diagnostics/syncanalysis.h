// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"
#include "core/util/tally.h"

namespace nsw {

/// Sync-like calls (ApiSync or ApiWait) of one thread.
struct SyncThreadRow
{
    int pid = 0;
    int tid = 0;
    QString thread; ///< Profile::threadLabel
    Tally calls; ///< their durations
    /// The thread's time: from its first to its last CUDA API call that overlaps the focus.
    TimeNs threadSpanNs = 0;
    TimeNs apiNs = 0; ///< all its CUDA API time
    double sharePercent() const { return threadSpanNs > 0 ? 100.0 * double(calls.total) / double(threadSpanNs) : 0.0; }
};

/// Per process and API name.
struct SyncApiRow
{
    int pid = 0;
    QString name;
    Tally calls; ///< their durations
};

struct SyncResult
{
    std::vector<SyncThreadRow> threads; ///< threads with sync calls, by total descending
    std::vector<SyncApiRow> apis; ///< by total descending
    Tally calls; ///< the durations of every sync call
    TimeNs apiNs = 0; ///< all CUDA API time in the focus
    double apiSharePercent() const { return apiNs > 0 ? 100.0 * double(calls.total) / double(apiNs) : 0.0; }
};

/// CUDA API calls that overlap the focus (whole durations).
SyncResult computeSync(const AnalysisContext& context, const JobContext& job = {});

} // namespace nsw
