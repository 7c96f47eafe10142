// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/temporalbreakdown.h"

#include "core/diagnostics/deviceunions.h"

#include <algorithm>

namespace nsw {

std::vector<DeviceTimeBreakdown> computeTemporalBreakdown(const AnalysisContext& c, const JobContext& job)
{
    std::vector<DeviceTimeBreakdown> out;
    forEachDeviceUnions(
        c, job, [&](int device, const DeviceUnions& u) { out.push_back(deviceTimeBreakdown(c, device, u)); });
    return out;
}

DeviceTimeBreakdown deviceTimeBreakdown(const AnalysisContext& c, int device, const DeviceUnions& u)
{
    DeviceTimeBreakdown d;
    d.device = device;
    d.spanNs = c.windowDuration();
    d.computeNs = u.compute.length();
    d.communicationNs = u.nccl.length() - u.nccl.intersectionLength(u.compute);
    const IntervalUnion kernels = unite(u.compute, u.nccl);
    d.memoryNs = u.memory.length() - u.memory.intersectionLength(kernels);
    d.idleNs = std::max<TimeNs>(0, d.spanNs - d.computeNs - d.communicationNs - d.memoryNs);
    return d;
}

} // namespace nsw
