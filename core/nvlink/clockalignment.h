// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/throughputseries.h"

namespace nsw {

/// Puts NVML wall-clock µs (NVF1 timestamps) on the export's session timeline (ns since capture start).
/// session_ns = (wall_us − anchorUs) × 1000 + offsetNs. The anchor is TARGET_INFO_SESSION_START_TIME.utcEpochNs
/// floored to whole µs, as correlate_nsys_nvlink.py does; offsetNs is the user's correction (NVML samples the
/// counters a little after the traffic, and the clocks of two tools are never exactly equal).
struct ClockAlignment
{
    qint64 anchorUs = 0;
    TimeNs offsetNs = 0;
    /// false when the export has no session start time (or it is absurdly far from the recording): the recording's
    /// first sample is then placed at session time 0 and only the offset can fix it.
    bool fromExport = false;

    TimeNs sessionNs(qint64 wallUs) const { return (wallUs - anchorUs) * 1000 + offsetNs; }
    /// Shift that puts a series' relative times on the session timeline (0 for GPU_METRICS series).
    TimeNs shiftOf(const ThroughputSeries& series) const;
    /// A kernel's time in NVML wall-clock µs exactly as correlate_nsys_nvlink.py computes it (anchor + ns / 1000,
    /// in double precision), less the user's offset.
    double kernelWallUs(TimeNs sessionNs) const { return double(anchorUs) + double(sessionNs - offsetNs) / 1000.0; }
};

/// Floor division, as Python's // (the anchor of a pre-1970 clock still rounds down).
qint64 floorDiv(qint64 a, qint64 b);

/// The alignment of a recording starting at @p recordingStartUs with an export whose session started at
/// @p sessionStartUtcNs (kNoTime when unknown).
ClockAlignment alignClocks(TimeNs sessionStartUtcNs, qint64 recordingStartUs, TimeNs offsetNs = 0);

} // namespace nsw
