// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/profile.h"

#include <QString>
#include <algorithm>
#include <utility>

namespace nsw {

/// The time range every pane and command can be focused on (issue 16), on the events' clock (capture start = the
/// capture span's start). An inactive range (the default) means the whole capture.
struct FocusRange
{
    TimeNs start = kNoTime;
    TimeNs end = kNoTime;
    /// What the user focused on, for banners and report headers: "ProfilerStep#12", "iteration 5", "1.2 s–1.5 s".
    QString label;

    bool isActive() const { return start != kNoTime && end != kNoTime; }
    TimeNs durationNs() const { return isActive() ? end - start : 0; }

    /// nsys's range filter (nsysstats.py, the rules' start/end/nvtx options): an event belongs to the range when
    /// it starts in [start, end), ends in [start, end), or spans it. Durations are not clipped. Always true when
    /// the range is inactive.
    bool overlaps(TimeNs eventStart, TimeNs eventEnd) const
    {
        if (!isActive())
            return true;
        return (eventStart >= start && eventStart < end) || (eventEnd >= start && eventEnd < end)
            || (eventStart < start && eventEnd >= end);
    }

    /// [eventStart, eventEnd] cut to the range, for measures of occupancy (busy time, GPU idle); an empty interval
    /// (first == second) when it lies outside.
    std::pair<TimeNs, TimeNs> clip(TimeNs eventStart, TimeNs eventEnd) const
    {
        if (!isActive())
            return { eventStart, eventEnd };
        const TimeNs s = std::clamp(eventStart, start, end);
        return { s, std::clamp(eventEnd, s, end) };
    }

    bool operator==(const FocusRange& other) const { return start == other.start && end == other.end; }
};

} // namespace nsw
