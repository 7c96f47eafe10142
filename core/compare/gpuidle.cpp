// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpuidle.h"

#include "core/profile/intervals.h"

#include <map>

namespace nsw {

namespace {
using BusyByGpu = std::map<int, IntervalUnion>;

BusyByGpu buildBusy(const Profile& p)
{
    std::map<std::pair<ProcessIndex, int>, int> gpuOf;
    const bool mapped = !p.cudaDevices.empty();
    std::map<int, std::vector<TimeInterval>> lists;
    const auto add = [&](const GpuActivityColumns& t) {
        for (std::size_t i = 0; i < t.size(); ++i) {
            const ProcessIndex process = i < t.process.size() ? t.process[i] : kNoIndex;
            const int ordinal = i < t.device.size() ? t.device[i] : 0;
            const auto [it, inserted] = gpuOf.try_emplace({ process, ordinal }, ordinal);
            if (inserted && mapped)
                if (const GpuInfo* gpu = p.gpuFor(process, ordinal))
                    it->second = gpu->id;
            lists[it->second].emplace_back(t.start[i], t.end[i]);
        }
    };
    add(p.kernels);
    add(p.memops);
    BusyByGpu busy;
    for (auto& [gpu, intervals] : lists)
        busy.emplace(gpu, IntervalUnion(std::move(intervals)));
    return busy;
}
} // namespace

std::vector<GpuIdle> gpuIdleShares(const Profile& profile, TimeNs start, TimeNs end)
{
    std::vector<GpuIdle> out;
    if (end <= start)
        return out;
    const auto busy = profile.derived.get<BusyByGpu>(
        "gpu busy by gpu", CancelToken::never(), [&] { return std::make_shared<const BusyByGpu>(buildBusy(profile)); });
    for (const auto& [gpu, intervals] : *busy)
        out.push_back(
            { gpu, 100.0 * double((end - start) - intervals.coveredWithin(start, end)) / double(end - start) });
    return out;
}

} // namespace nsw
