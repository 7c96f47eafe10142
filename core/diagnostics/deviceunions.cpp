// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/deviceunions.h"

#include "core/util/hugepages.h"

#include <algorithm>
#include <array>
#include <map>

namespace nsw {

void forEachDeviceUnions(const AnalysisContext& c, const JobContext& job,
    const std::function<void(int device, const DeviceUnions& unions)>& visit)
{
    const Profile& p = *c.profile;
    auto clipped = [&](TimeNs s, TimeNs e) {
        return TimeInterval { std::max(s, c.windowStart), std::min(e, c.windowEnd) };
    };
    // Counted first so that each list is reserved once (in huge pages): growing millions of rows by doubling faults
    // in twice their memory.
    std::map<int, std::array<std::size_t, 3>> counts;
    c.forEachKernel([&](std::size_t i) { ++counts[c.kernelDevice[i]][c.kernelIsNccl[i] ? 1 : 0]; });
    c.forEachMemOp([&](std::size_t i) { ++counts[c.memOpDevice[i]][2]; });
    for (const auto& [key, n] : counts) {
        const int device = key; // a lambda cannot capture a structured binding (clang 14)
        if (job.isCancelled())
            return;
        std::vector<TimeInterval> compute, nccl, memory;
        reserveHugePages(compute, n[0]);
        reserveHugePages(nccl, n[1]);
        reserveHugePages(memory, n[2]);
        c.forEachKernel([&](std::size_t i) {
            if (c.kernelDevice[i] == device)
                (c.kernelIsNccl[i] ? nccl : compute).push_back(clipped(p.kernels.start[i], p.kernels.end[i]));
        });
        c.forEachMemOp([&](std::size_t i) {
            if (c.memOpDevice[i] == device)
                memory.push_back(clipped(p.memops.start[i], p.memops.end[i]));
        });
        visit(device,
            DeviceUnions {
                IntervalUnion(std::move(compute)), IntervalUnion(std::move(nccl)), IntervalUnion(std::move(memory)) });
    }
}

} // namespace nsw
