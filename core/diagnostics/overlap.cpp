// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/overlap.h"

#include "core/diagnostics/deviceunions.h"

#include <algorithm>
#include <map>

namespace nsw {

OverlapResult computeOverlap(const AnalysisContext& c, const JobContext& job)
{
    return computeOverlap(c, deviceUnions(c, job));
}

OverlapResult computeOverlap(const AnalysisContext& c, const std::map<int, DeviceUnions>& unions)
{
    OverlapResult result;
    if (!c.profile)
        return result;
    for (const auto& [device, u] : unions) {
        if (u.compute.length() == 0 && u.nccl.length() == 0)
            continue;
        DeviceOverlap d;
        d.device = device;
        d.spanNs = c.windowDuration();
        d.overlappedNs = u.compute.intersectionLength(u.nccl);
        d.computeOnlyNs = u.compute.length() - d.overlappedNs;
        d.ncclOnlyNs = u.nccl.length() - d.overlappedNs;
        d.idleNs = std::max<TimeNs>(0, d.spanNs - d.computeOnlyNs - d.ncclOnlyNs - d.overlappedNs);
        result.hasNccl = result.hasNccl || u.nccl.length() > 0;
        result.devices.push_back(d);
    }

    const Profile& p = *c.profile;
    std::map<std::pair<int, std::uint32_t>, SharedStream> streams;
    c.forEachKernel([&](std::size_t i) {
        const std::uint32_t stream = i < p.kernels.stream.size() ? p.kernels.stream[i] : 0u;
        SharedStream& s = streams[{ c.kernelDevice[i], stream }];
        if (c.kernelIsNccl[i]) {
            ++s.ncclKernels;
            s.ncclNs += p.kernels.duration(i);
        } else {
            ++s.computeKernels;
        }
    });
    for (auto& [key, s] : streams) {
        if (s.ncclKernels == 0 || s.computeKernels == 0)
            continue;
        s.device = key.first;
        s.stream = key.second;
        result.sharedStreams.push_back(s);
    }
    return result;
}

} // namespace nsw
