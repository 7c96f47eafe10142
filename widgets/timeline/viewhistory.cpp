// SPDX-License-Identifier: GPL-3.0-or-later
#include "viewhistory.h"

namespace nsw {

void ViewHistory::moved(Step step, const TimelineViewEntry& before, std::int64_t nowMs)
{
    const bool continues
        = m_burst && step != Step::Jump && step == m_lastStep && (step == Step::Drag || nowMs - m_lastMs < kBurstGapMs);
    m_lastStep = step;
    m_lastMs = nowMs;
    m_burst = step != Step::Jump;
    if (continues)
        return;
    m_forward.clear();
    if (!m_back.empty() && m_back.back() == before)
        return;
    m_back.push_back(before);
    if (m_back.size() > kMaxEntries)
        m_back.erase(m_back.begin());
}

void ViewHistory::clear()
{
    m_back.clear();
    m_forward.clear();
    m_burst = false;
}

TimelineViewEntry ViewHistory::back(const TimelineViewEntry& current)
{
    m_burst = false;
    m_forward.push_back(current);
    const TimelineViewEntry previous = m_back.back();
    m_back.pop_back();
    return previous;
}

TimelineViewEntry ViewHistory::forward(const TimelineViewEntry& current)
{
    m_burst = false;
    m_back.push_back(current);
    const TimelineViewEntry next = m_forward.back();
    m_forward.pop_back();
    return next;
}

} // namespace nsw
