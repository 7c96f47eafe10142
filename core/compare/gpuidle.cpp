// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpuidle.h"

#include "core/iterations/gpubusy.h"

namespace nsw {

std::vector<GpuIdle> gpuIdleShares(const Profile& profile, TimeNs start, TimeNs end)
{
    std::vector<GpuIdle> out;
    if (end <= start)
        return out;
    const std::shared_ptr<const BusyByGpu> busy = gpuBusyByGpu(profile); // held: nobody else may hold it
    for (const auto& [gpu, intervals] : *busy)
        out.push_back(
            { gpu, 100.0 * double((end - start) - intervals.coveredWithin(start, end)) / double(end - start) });
    return out;
}

} // namespace nsw
