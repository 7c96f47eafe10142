// SPDX-License-Identifier: GPL-3.0-or-later
#include "recordingplacement.h"

#include "core/util/timeformat.h"

#include <algorithm>

namespace nsw {

QString RecordingPlacement::problem() const
{
    if (!mismatched())
        return {};
    const QString where = QStringLiteral("it starts at %1 of the capture, which runs from %2 to %3 (%4 long)")
                              .arg(formatSeconds(start, 3), formatSeconds(capture.start, 3),
                                  formatSeconds(capture.end, 3), formatDuration(capture.durationNs()));
    if (overlapNs <= 0 && (start > capture.end || end < capture.start))
        return QStringLiteral("the recording does not overlap the capture: %1").arg(where);
    const bool recordingShorter = end - start <= capture.end - capture.start;
    return QStringLiteral("only %1 % of the %2 overlaps the %3: %4")
        .arg(overlapShare * 100, 0, 'f', 1)
        .arg(recordingShorter ? QStringLiteral("recording") : QStringLiteral("capture"),
            recordingShorter ? QStringLiteral("capture") : QStringLiteral("recording"), where);
}

RecordingPlacement placeRecording(
    const ClockAlignment& alignment, qint64 firstUs, qint64 lastUs, const CaptureSpan& capture)
{
    RecordingPlacement p;
    p.start = alignment.sessionNs(firstUs);
    p.end = alignment.sessionNs(std::max(firstUs, lastUs));
    p.capture = capture;
    if (!p.captureKnown())
        return p;
    p.alignOffsetNs = capture.start - (p.start - alignment.offsetNs);
    p.overlapNs = std::max<TimeNs>(0, std::min(p.end, capture.end) - std::max(p.start, capture.start));
    const TimeNs shorter = std::min(p.end - p.start, capture.end - capture.start);
    if (shorter > 0)
        p.overlapShare = double(p.overlapNs) / double(shorter);
    else
        p.overlapShare = p.start <= capture.end && p.end >= capture.start ? 1.0 : 0.0;
    return p;
}

} // namespace nsw
