// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/clockalignment.h"
#include "core/profile/capturespan.h"

#include <QString>

namespace nsw {

/// Below this share of overlap a recording is reported as not belonging to the capture.
inline constexpr double kMinRecordingOverlapShare = 0.10;

/// Where an NVF1 recording lies against the capture once its clock is aligned. A recording of another session (another
/// day, another machine) shares no time with the capture: every peak would list 0 kernels without a word.
struct RecordingPlacement
{
    TimeNs start = 0; ///< first sample on the session timeline (aligned, offset included)
    TimeNs end = 0; ///< last sample
    CaptureSpan capture;
    TimeNs overlapNs = 0;
    /// The overlap as a share of the shorter of the two spans (recording or capture), 0..1; a span of length 0 counts
    /// 1 inside the other and 0 outside.
    double overlapShare = 1;
    /// The clock offset (ClockAlignment::offsetNs) that puts the recording's first sample at the capture start.
    TimeNs alignOffsetNs = 0;

    bool captureKnown() const { return capture.source != CaptureSpanSource::None; }
    bool mismatched() const { return captureKnown() && overlapShare < kMinRecordingOverlapShare; }
    /// What is wrong, for a warning: "the recording does not overlap the capture: it starts at 1309077.770 s of the
    /// capture, which is 1.52 s long". Empty when nothing is.
    QString problem() const;
};

/// @p alignment with the user's offset; @p firstUs and @p lastUs are the recording's first and last NVML timestamps.
RecordingPlacement placeRecording(
    const ClockAlignment& alignment, qint64 firstUs, qint64 lastUs, const CaptureSpan& capture);

} // namespace nsw
