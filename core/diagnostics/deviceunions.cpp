// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/deviceunions.h"

#include "core/diagnostics/deviceops.h"

#include <algorithm>
#include <array>

namespace nsw {

void forEachDeviceUnions(const AnalysisContext& c, const JobContext& job,
    const std::function<void(int device, const DeviceUnions& unions)>& visit)
{
    // The intervals go straight into their lists, without a DeviceOps buffer: the unions run beside the idle gaps'
    // sweep, which holds one of its own (two at once were 85 MB of the Findings' peak on the 4M-kernel export).
    enum Kind
    {
        Compute,
        Nccl,
        Memory
    };
    const Profile& p = *c.profile;
    // Counted first so that each list is reserved once: growing millions of rows by doubling faults in twice their
    // memory.
    std::vector<std::array<std::size_t, 3>> counts(c.devices.size());
    c.forEachKernel(
        [&](std::size_t i) { ++counts[deviceSlot(c, c.kernelDevice[i])][c.kernelIsNccl[i] ? Nccl : Compute]; });
    c.forEachMemOp([&](std::size_t i) { ++counts[deviceSlot(c, c.memOpDevice[i])][Memory]; });
    const auto clipped = [&](TimeNs start, TimeNs end) {
        return TimeInterval(std::max(start, c.windowStart), std::min(end, c.windowEnd));
    };
    for (std::size_t slot = 0; slot < c.devices.size(); ++slot) {
        if (job.isCancelled())
            return;
        if (counts[slot] == std::array<std::size_t, 3> {})
            continue;
        const int device = c.devices[slot].key;
        std::array<std::vector<TimeInterval>, 3> lists;
        for (std::size_t k = 0; k < lists.size(); ++k)
            reserveHugePages(lists[k], counts[slot][k]);
        c.forEachKernel([&](std::size_t i) {
            if (c.kernelDevice[i] == device)
                lists[c.kernelIsNccl[i] ? Nccl : Compute].push_back(clipped(p.kernels.start[i], p.kernels.end[i]));
        });
        c.forEachMemOp([&](std::size_t i) {
            if (c.memOpDevice[i] == device)
                lists[Memory].push_back(clipped(p.memops.start[i], p.memops.end[i]));
        });
        visit(device,
            DeviceUnions { IntervalUnion(std::move(lists[Compute])), IntervalUnion(std::move(lists[Nccl])),
                IntervalUnion(std::move(lists[Memory])) });
    }
}

} // namespace nsw
