// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profile/timezones.h"

namespace nsw {

std::shared_ptr<const ProfileTimeZones> timeZonesOf(const Profile& profile)
{
    return profile.derived.get<ProfileTimeZones>("time zones", CancelToken::never(), [&] {
        auto zones = std::make_shared<ProfileTimeZones>();
        zones->kernels = TimeZones(profile.kernels.start.vec(), profile.kernels.end.vec());
        zones->memops = TimeZones(profile.memops.start.vec(), profile.memops.end.vec());
        zones->cudaApi = TimeZones(profile.cudaApi.start, profile.cudaApi.end);
        zones->nvtx = TimeZones(profile.nvtx.start, profile.nvtx.end);
        return zones;
    });
}

} // namespace nsw
