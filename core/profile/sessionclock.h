// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/capturespan.h"
#include "core/profile/profile.h"

#include <QString>

namespace nsw {

/// The one clock every time a user reads or types counts on (issue 33): the export's own timestamps, the session
/// clock that nsys's reports (cuda_gpu_trace) print and the Nsight Systems GUI shows. A time shown is the timestamp
/// minus sessionClockOrigin(), a time typed is added to it. The origin is 0 for every export but those made with
/// --ts-normalize (absolute UTC timestamps), where it is the session start.
TimeNs sessionClockOrigin(const Profile& profile);

/// "capture 60.111 s – 60.411 s": the capture span as a span on the session clock (empty without one).
QString captureSpanText(const CaptureSpan& capture, TimeNs origin);

} // namespace nsw
