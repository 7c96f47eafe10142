// SPDX-License-Identifier: GPL-3.0-or-later
#include "clockalignment.h"

namespace nsw {

namespace {
// Further apart than this, the recording cannot belong to the capture (and ns arithmetic would overflow).
constexpr qint64 kMaxAnchorDistanceUs = 100LL * 24 * 3600 * 1000000;
} // namespace

qint64 floorDiv(qint64 a, qint64 b)
{
    const qint64 q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

TimeNs ClockAlignment::shiftOf(const ThroughputSeries& series) const
{
    return series.unit == ThroughputUnit::PercentOfPeak ? 0 : sessionNs(series.originUs);
}

ClockAlignment alignClocks(TimeNs sessionStartUtcNs, qint64 recordingStartUs, TimeNs offsetNs)
{
    ClockAlignment a;
    a.offsetNs = offsetNs;
    if (sessionStartUtcNs != kNoTime) {
        const qint64 anchor = floorDiv(sessionStartUtcNs, 1000);
        qint64 distance = 0;
        if (!__builtin_sub_overflow(recordingStartUs, anchor, &distance) && distance < kMaxAnchorDistanceUs
            && distance > -kMaxAnchorDistanceUs) {
            a.anchorUs = anchor;
            a.fromExport = true;
            return a;
        }
    }
    a.anchorUs = recordingStartUs;
    return a;
}

} // namespace nsw
