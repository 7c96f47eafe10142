// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/overlap.h"

#include "core/diagnostics/deviceunions.h"

#include <algorithm>
#include <map>

namespace nsw {

namespace {

/// Fills SharedStream::queuedKernels and overlappableNs from the stream's kernel rows.
void addQueuedCompute(const AnalysisContext& c, std::vector<std::uint32_t>& rows, SharedStream& s)
{
    const KernelTable& k = c.profile->kernels;
    std::sort(rows.begin(), rows.end(), [&](std::uint32_t a, std::uint32_t b) { return k.start[a] < k.start[b]; });
    auto launchEnd = [&](std::uint32_t row) {
        const std::int32_t api = row < k.api.size() ? k.api[row] : -1;
        return api >= 0 ? c.profile->cudaApi.end[std::size_t(api)] : kNoTime;
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!c.kernelIsNccl[rows[i]])
            continue;
        const TimeNs end = k.end[rows[i]], duration = k.duration(rows[i]);
        TimeNs queued = 0;
        // The stream's next kernels, as long as they were launched before the collective ended (one launching
        // thread launches in time order) and are no collective themselves.
        for (std::size_t j = i + 1; j < rows.size() && queued < duration; ++j) {
            const TimeNs launched = launchEnd(rows[j]);
            if (c.kernelIsNccl[rows[j]] || launched == kNoTime || launched >= end)
                break;
            queued += k.duration(rows[j]);
            ++s.queuedKernels;
        }
        s.overlappableNs += std::min(queued, duration);
    }
}

} // namespace

OverlapResult computeOverlap(const AnalysisContext& c, const JobContext& job)
{
    std::vector<DeviceOverlap> devices;
    forEachDeviceUnions(c, job, [&](int device, const DeviceUnions& u) {
        if (const std::optional<DeviceOverlap> d = deviceOverlap(c, device, u))
            devices.push_back(*d);
    });
    return overlapOf(c, std::move(devices));
}

std::optional<DeviceOverlap> deviceOverlap(const AnalysisContext& c, int device, const DeviceUnions& u)
{
    if (u.compute.length() == 0 && u.nccl.length() == 0)
        return std::nullopt;
    DeviceOverlap d;
    d.device = device;
    d.spanNs = c.windowDuration();
    d.overlappedNs = u.compute.intersectionLength(u.nccl);
    d.computeOnlyNs = u.compute.length() - d.overlappedNs;
    d.ncclOnlyNs = u.nccl.length() - d.overlappedNs;
    d.idleNs = std::max<TimeNs>(0, d.spanNs - d.computeOnlyNs - d.ncclOnlyNs - d.overlappedNs);
    return d;
}

OverlapResult overlapOf(const AnalysisContext& c, std::vector<DeviceOverlap> devices)
{
    OverlapResult result;
    result.devices = std::move(devices);
    result.hasNccl = std::any_of(
        result.devices.begin(), result.devices.end(), [](const DeviceOverlap& d) { return d.ncclNs() > 0; });

    const Profile& p = *c.profile;
    std::map<std::pair<int, std::uint32_t>, SharedStream> streams;
    std::map<std::pair<int, std::uint32_t>, std::vector<std::uint32_t>> rows;
    c.forEachKernel([&](std::size_t i) {
        const std::uint32_t stream = i < p.kernels.stream.size() ? p.kernels.stream[i] : 0u;
        SharedStream& s = streams[{ c.kernelDevice[i], stream }];
        rows[{ c.kernelDevice[i], stream }].push_back(std::uint32_t(i));
        if (c.kernelIsNccl[i]) {
            s.ncclKernels.add(p.kernels.duration(i));
        } else {
            ++s.computeKernels;
        }
    });
    for (auto& [key, s] : streams) {
        if (s.ncclKernels.count == 0 || s.computeKernels == 0)
            continue;
        s.device = key.first;
        s.stream = key.second;
        addQueuedCompute(c, rows[key], s);
        result.sharedStreams.push_back(s);
    }
    return result;
}

} // namespace nsw
