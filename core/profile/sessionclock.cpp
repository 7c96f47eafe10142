// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionclock.h"

#include "core/util/timeformat.h"

namespace nsw {

TimeNs sessionClockOrigin(const Profile& profile)
{
    if (profile.meta.timeNormalized && profile.meta.sessionStartUtcNs != kNoTime)
        return profile.meta.sessionStartUtcNs;
    if (profile.meta.timeNormalized && profile.activityStart != kNoTime)
        return profile.activityStart;
    return 0;
}

QString captureSpanText(const CaptureSpan& capture, TimeNs origin)
{
    if (capture.source == CaptureSpanSource::None)
        return {};
    return QStringLiteral("capture ") + formatTimeSpan(capture.start - origin, capture.end - origin);
}

} // namespace nsw
