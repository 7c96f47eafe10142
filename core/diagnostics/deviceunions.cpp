// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/deviceunions.h"

#include "core/diagnostics/deviceops.h"

#include <algorithm>
#include <array>

namespace nsw {

void forEachDeviceUnions(const AnalysisContext& c, const JobContext& job,
    const std::function<void(int device, const DeviceUnions& unions)>& visit)
{
    DeviceOps deviceOps(c);
    for (const DiagnosticsDevice& device : c.devices) {
        if (job.isCancelled())
            return;
        const std::span<const DeviceOp> ops = deviceOps.of(device.key);
        if (ops.empty())
            continue;
        auto kind = [&](const DeviceOp& op) { return op.memory ? 2 : c.kernelIsNccl[op.row] ? 1 : 0; };
        // Counted first so that each list is reserved once: growing millions of rows by doubling faults in twice
        // their memory.
        std::array<std::vector<TimeInterval>, 3> lists; // compute, NCCL, memory
        std::array<std::size_t, 3> counts {};
        for (const DeviceOp& op : ops)
            ++counts[std::size_t(kind(op))];
        for (std::size_t k = 0; k < lists.size(); ++k)
            reserveHugePages(lists[k], counts[k]);
        for (const DeviceOp& op : ops)
            lists[std::size_t(kind(op))].emplace_back(std::max(op.start, c.windowStart), std::min(op.end, c.windowEnd));
        visit(device.key,
            DeviceUnions { IntervalUnion(std::move(lists[0])), IntervalUnion(std::move(lists[1])),
                IntervalUnion(std::move(lists[2])) });
    }
}

} // namespace nsw
