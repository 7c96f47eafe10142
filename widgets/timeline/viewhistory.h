// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "widgets/timeline/timelineviewport.h"

#include <cstdint>
#include <vector>

namespace nsw {

/// Where the timeline looked: what Back and Forward return to.
struct TimelineViewEntry
{
    TimelineViewport::State viewport;
    int scrollY = 0;
    bool operator==(const TimelineViewEntry&) const = default;
};

/// Back and forward through previous views of the timeline, as a browser does. A burst of small steps (wheel notches
/// or held W/S/A/D keys less than kBurstGapMs apart, one drag) is one entry, so Back undoes the whole zoom rather than
/// one notch of it.
class ViewHistory
{
public:
    enum class Step : std::uint8_t
    {
        Jump, ///< fit all, zoom to selection, a revealed event: always an entry of its own
        Wheel,
        Keys,
        Drag,
    };
    static constexpr std::int64_t kBurstGapMs = 700;
    static constexpr std::size_t kMaxEntries = 200;

    /// The view moved away from @p before by @p step at @p nowMs: records @p before unless the step continues a burst.
    void moved(Step step, const TimelineViewEntry& before, std::int64_t nowMs);
    /// The next step starts a new entry whatever its kind (a drag ended, the user went back).
    void endBurst() { m_burst = false; }
    void clear();

    bool canGoBack() const { return !m_back.empty(); }
    bool canGoForward() const { return !m_forward.empty(); }
    std::size_t backCount() const { return m_back.size(); }
    std::size_t forwardCount() const { return m_forward.size(); }
    /// The view to show instead of @p current (which Forward then returns to). Only when canGoBack().
    TimelineViewEntry back(const TimelineViewEntry& current);
    TimelineViewEntry forward(const TimelineViewEntry& current);

private:
    std::vector<TimelineViewEntry> m_back;
    std::vector<TimelineViewEntry> m_forward;
    Step m_lastStep = Step::Jump;
    std::int64_t m_lastMs = 0;
    bool m_burst = false;
};

} // namespace nsw
