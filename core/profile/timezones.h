// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/focusrange.h"
#include "core/profile/timecolumn.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace nsw {

/// A zone map of one table: the earliest start and latest end of each block of kBlock rows. The rows that overlap a
/// focus are then found by skipping the blocks that cannot hold one, in row order, without reading every row. Exports
/// write rows in roughly time order (per device, stream or thread), so a focus on a tenth of the capture reads about
/// a tenth of the rows; rows in no order at all cost what a full pass costs, never a wrong answer.
class TimeZones
{
public:
    static constexpr std::size_t kBlock = 512;

    TimeZones() = default;
    /// Zones of the rows start[i]..end[i]; @p end holds as many rows as @p start.
    TimeZones(const TimeColumn& start, const TimeColumn& end);

    std::size_t rows() const { return m_rows; }

    /// Calls @p f(row) for every row of the blocks that may hold a row starting before @p to and ending at or after
    /// @p from (every row FocusRange::overlaps accepts for [from, to) is among them), ascending. The caller tests
    /// each row itself.
    template <class F> void forEachCandidate(TimeNs from, TimeNs to, F&& f) const
    {
        for (std::size_t b = 0; b < m_minStart.size(); ++b) {
            if (m_minStart[b] >= to || m_maxEnd[b] < from)
                continue;
            for (std::size_t i = b * kBlock, n = std::min(m_rows, (b + 1) * kBlock); i < n; ++i)
                f(i);
        }
    }

    /// Calls @p f(row) for every row that overlaps @p focus (FocusRange::overlaps on @p start and @p end, the
    /// columns the zones were built from), ascending; every row when the focus is inactive.
    template <class F>
    void forEachOverlapping(const FocusRange& focus, const TimeColumn& start, const TimeColumn& end, F&& f) const
    {
        if (!focus.isActive()) {
            for (std::size_t i = 0; i < m_rows; ++i)
                f(i);
            return;
        }
        forEachCandidate(focus.start, focus.end, [&](std::size_t i) {
            if (focus.overlaps(start[i], end[i]))
                f(i);
        });
    }

private:
    std::size_t m_rows = 0;
    std::vector<TimeNs> m_minStart;
    std::vector<TimeNs> m_maxEnd;
};

/// The zone maps of a profile's GPU activity, CUDA API and NVTX tables.
struct ProfileTimeZones
{
    TimeZones kernels;
    TimeZones memops;
    TimeZones cudaApi;
    TimeZones nvtx;
};

/// The profile's zone maps, built on first use and kept with the profile (Profile::derived).
std::shared_ptr<const ProfileTimeZones> timeZonesOf(const Profile& profile);

} // namespace nsw
