// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpuidle.h"

#include "core/profile/intervals.h"
#include "core/util/hugepages.h"

#include <map>

namespace nsw {

namespace {
using BusyByGpu = std::map<int, IntervalUnion>;

BusyByGpu buildBusy(const Profile& p)
{
    std::map<std::pair<ProcessIndex, int>, int> gpuOf;
    const bool mapped = !p.cudaDevices.empty();
    std::pair<ProcessIndex, int> lastKey { kNoIndex, -1 };
    int lastGpu = -1;
    const auto gpuOfRow = [&](const GpuActivityColumns& t, std::size_t i) {
        const ProcessIndex process = i < t.process.size() ? t.process[i] : kNoIndex;
        const int ordinal = i < t.device.size() ? t.device[i] : 0;
        if (lastGpu >= 0 && lastKey == std::make_pair(process, ordinal))
            return lastGpu; // consecutive rows mostly share their GPU
        const auto [it, inserted] = gpuOf.try_emplace({ process, ordinal }, ordinal);
        if (inserted && mapped)
            if (const GpuInfo* gpu = p.gpuFor(process, ordinal))
                it->second = gpu->id;
        lastKey = { process, ordinal };
        lastGpu = it->second;
        return lastGpu;
    };
    // Counted first, so that each GPU's list is reserved once: the union keeps that array, and one grown by doubling
    // kept up to twice the intervals (128 MB for the 5.3M GPU operations of a 4M-kernel export).
    std::map<int, std::size_t> counts;
    for (const GpuActivityColumns* t :
        { static_cast<const GpuActivityColumns*>(&p.kernels), static_cast<const GpuActivityColumns*>(&p.memops) })
        for (std::size_t i = 0; i < t->size(); ++i)
            ++counts[gpuOfRow(*t, i)];
    std::map<int, std::vector<TimeInterval>> lists;
    for (const auto& [gpu, n] : counts)
        reserveHugePages(lists[gpu], n);
    for (const GpuActivityColumns* t :
        { static_cast<const GpuActivityColumns*>(&p.kernels), static_cast<const GpuActivityColumns*>(&p.memops) })
        for (std::size_t i = 0; i < t->size(); ++i)
            lists[gpuOfRow(*t, i)].emplace_back(t->start[i], t->end[i]);
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
