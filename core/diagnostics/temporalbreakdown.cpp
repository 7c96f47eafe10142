// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/temporalbreakdown.h"

#include "core/diagnostics/deviceunions.h"

#include <algorithm>

namespace nsw {

std::vector<DeviceTimeBreakdown> computeTemporalBreakdown(const AnalysisContext& c, const JobContext& job)
{
    return computeTemporalBreakdown(c, deviceUnions(c, job));
}

std::vector<DeviceTimeBreakdown> computeTemporalBreakdown(
    const AnalysisContext& c, const std::map<int, DeviceUnions>& unions)
{
    std::vector<DeviceTimeBreakdown> out;
    for (const auto& [device, u] : unions) {
        DeviceTimeBreakdown d;
        d.device = device;
        d.spanNs = c.windowDuration();
        d.computeNs = u.compute.length();
        d.communicationNs = u.nccl.length() - u.nccl.intersectionLength(u.compute);
        const IntervalUnion kernels = unite(u.compute, u.nccl);
        d.memoryNs = u.memory.length() - u.memory.intersectionLength(kernels);
        d.idleNs = std::max<TimeNs>(0, d.spanNs - d.computeNs - d.communicationNs - d.memoryNs);
        out.push_back(d);
    }
    return out;
}

} // namespace nsw
