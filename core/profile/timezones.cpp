// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/timezones.h"

namespace nsw {

TimeZones::TimeZones(const TimeColumn& start, const TimeColumn& end)
    : m_rows(start.size())
{
    const std::size_t blocks = (m_rows + kBlock - 1) / kBlock;
    m_minStart.resize(blocks);
    m_maxEnd.resize(blocks);
    for (std::size_t b = 0; b < blocks; ++b) {
        TimeNs lo = start[b * kBlock], hi = lo;
        for (std::size_t i = b * kBlock; i < std::min(m_rows, (b + 1) * kBlock); ++i) {
            lo = std::min(lo, start[i]);
            hi = std::max(hi, std::max(start[i], end[i])); // an end before its start (or kNoTime) is not later
        }
        m_minStart[b] = lo;
        m_maxEnd[b] = hi;
    }
}

std::shared_ptr<const ProfileTimeZones> timeZonesOf(const Profile& profile)
{
    return profile.derived.get<ProfileTimeZones>("time zones", CancelToken::never(), [&] {
        auto zones = std::make_shared<ProfileTimeZones>();
        zones->kernels = TimeZones(profile.kernels.start, profile.kernels.end);
        zones->memops = TimeZones(profile.memops.start, profile.memops.end);
        zones->cudaApi = TimeZones(profile.cudaApi.start, profile.cudaApi.end);
        zones->nvtx = TimeZones(profile.nvtx.start, profile.nvtx.end);
        return zones;
    });
}

} // namespace nsw
