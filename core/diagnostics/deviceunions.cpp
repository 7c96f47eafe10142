// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/deviceunions.h"

#include <algorithm>

namespace nsw {

std::map<int, DeviceUnions> deviceUnions(const AnalysisContext& c, const JobContext& job)
{
    std::map<int, DeviceUnions> out;
    if (!c.profile)
        return out;
    const Profile& p = *c.profile;
    struct Lists
    {
        std::vector<TimeInterval> compute, nccl, memory;
    };
    std::map<int, Lists> lists;
    auto clipped = [&](TimeNs s, TimeNs e) {
        return TimeInterval { std::max(s, c.windowStart), std::min(e, c.windowEnd) };
    };
    for (std::size_t i = 0; i < p.kernels.size(); ++i) {
        if (!c.kernelInFocus[i])
            continue;
        Lists& l = lists[c.kernelDevice[i]];
        (c.kernelIsNccl[i] ? l.nccl : l.compute).push_back(clipped(p.kernels.start[i], p.kernels.end[i]));
    }
    for (std::size_t i = 0; i < p.memops.size(); ++i)
        if (c.memOpInFocus[i])
            lists[c.memOpDevice[i]].memory.push_back(clipped(p.memops.start[i], p.memops.end[i]));
    for (auto& [device, l] : lists) {
        if (job.isCancelled())
            break;
        out[device] = { IntervalUnion(std::move(l.compute)), IntervalUnion(std::move(l.nccl)),
            IntervalUnion(std::move(l.memory)) };
    }
    return out;
}

} // namespace nsw
