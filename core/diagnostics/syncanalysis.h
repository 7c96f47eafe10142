// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"

namespace nsw {

/// Sync-like calls (ApiSync or ApiWait) of one thread.
struct SyncThreadRow
{
    int pid = 0;
    int tid = 0;
    QString thread; ///< Profile::threadLabel
    qint64 calls = 0;
    TimeNs totalNs = 0;
    TimeNs maxNs = 0;
    /// The thread's time: from its first to its last CUDA API call that overlaps the focus.
    TimeNs threadSpanNs = 0;
    TimeNs apiNs = 0; ///< all its CUDA API time
    double sharePercent() const { return threadSpanNs > 0 ? 100.0 * double(totalNs) / double(threadSpanNs) : 0.0; }
};

/// Per process and API name.
struct SyncApiRow
{
    int pid = 0;
    QString name;
    qint64 calls = 0;
    TimeNs totalNs = 0;
    TimeNs maxNs = 0;
};

struct SyncResult
{
    std::vector<SyncThreadRow> threads; ///< threads with sync calls, by total descending
    std::vector<SyncApiRow> apis; ///< by total descending
    qint64 calls = 0;
    TimeNs totalNs = 0;
    TimeNs apiNs = 0; ///< all CUDA API time in the focus
    double apiSharePercent() const { return apiNs > 0 ? 100.0 * double(totalNs) / double(apiNs) : 0.0; }
};

/// CUDA API calls that overlap the focus (whole durations).
SyncResult computeSync(const AnalysisContext& context, const JobContext& job = {});

} // namespace nsw
