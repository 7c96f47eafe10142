// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/deviceunions.h"

#include "core/util/hugepages.h"

#include <algorithm>
#include <array>

namespace nsw {

std::map<int, DeviceUnions> deviceUnions(const AnalysisContext& c, const JobContext& job)
{
    std::map<int, DeviceUnions> out;
    const Profile& p = *c.profile;
    struct Lists
    {
        std::vector<TimeInterval> compute, nccl, memory;
    };
    std::map<int, Lists> lists;
    auto clipped = [&](TimeNs s, TimeNs e) {
        return TimeInterval { std::max(s, c.windowStart), std::min(e, c.windowEnd) };
    };
    // Counted first so that each list is reserved once (in huge pages): growing millions of rows by doubling faults
    // in twice their memory.
    std::map<int, std::array<std::size_t, 3>> counts;
    c.forEachKernel([&](std::size_t i) { ++counts[c.kernelDevice[i]][c.kernelIsNccl[i] ? 1 : 0]; });
    c.forEachMemOp([&](std::size_t i) { ++counts[c.memOpDevice[i]][2]; });
    for (const auto& [device, n] : counts) {
        Lists& l = lists[device];
        reserveHugePages(l.compute, n[0]);
        reserveHugePages(l.nccl, n[1]);
        reserveHugePages(l.memory, n[2]);
    }
    c.forEachKernel([&](std::size_t i) {
        Lists& l = lists[c.kernelDevice[i]];
        (c.kernelIsNccl[i] ? l.nccl : l.compute).push_back(clipped(p.kernels.start[i], p.kernels.end[i]));
    });
    c.forEachMemOp(
        [&](std::size_t i) { lists[c.memOpDevice[i]].memory.push_back(clipped(p.memops.start[i], p.memops.end[i])); });
    for (auto& [device, l] : lists) {
        if (job.isCancelled())
            break;
        out[device] = { IntervalUnion(std::move(l.compute)), IntervalUnion(std::move(l.nccl)),
            IntervalUnion(std::move(l.memory)) };
    }
    return out;
}

} // namespace nsw
