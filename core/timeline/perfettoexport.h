// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/jobs/result.h"
#include "core/profile/focusrange.h"
#include "core/profile/profile.h"

#include <QIODevice>
#include <map>

namespace nsw {

struct PerfettoExportRequest
{
    ProfilePtr profile;
    /// Only the events that overlap it (FocusRange::overlaps, on the events' clock); inactive = every event.
    FocusRange focus;
};

struct PerfettoExportSummary
{
    std::map<QString, qint64>
        eventsByCategory; ///< "kernel", "memcpy", "memset", "cuda_graph", "cuda_api", "nvtx", "osrt"
    qint64 events = 0;
};

/// The Chrome trace JSON Perfetto and chrome://tracing open: one complete ("ph": "X") event per kernel, memory
/// operation, graph launch, CUDA API call, NVTX range or mark and OS runtime call, `ts`/`dur` in µs on the capture
/// clock with the nanoseconds kept as three decimals; a pid per GPU or process and a tid per lane, named as the
/// timeline's rows (metadata events). The timeline index is built for it (progress and cancel through @p job).
Result<PerfettoExportSummary> writePerfettoTrace(
    const PerfettoExportRequest& request, QIODevice& out, const JobContext& job = {});

/// "12.345" µs for 12345 ns: exact, whatever the magnitude (no floating point on the way).
QByteArray microsecondsText(TimeNs ns);

} // namespace nsw
