// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpuidle.h"

#include "core/iterations/gpubusy.h"

namespace nsw {

std::vector<GpuIdle> gpuIdleShares(const Profile& profile, TimeNs start, TimeNs end)
{
    std::vector<GpuIdle> out;
    if (end <= start)
        return out;
    for (const auto& [gpu, busy] : gpuBusyWithin(profile, start, end))
        out.push_back({ gpu, 100.0 * double((end - start) - busy) / double(end - start) });
    return out;
}

} // namespace nsw
