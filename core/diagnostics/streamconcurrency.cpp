// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/streamconcurrency.h"

#include "core/diagnostics/deviceops.h"
#include "core/profile/intervals.h"
#include "core/util/sortruns.h"

#include <algorithm>
#include <map>
#include <span>

namespace nsw {

double DeviceConcurrency::meanWhileBusy() const
{
    double weighted = 0;
    TimeNs busy = 0;
    for (std::size_t k = 1; k < timeWithStreams.size(); ++k) {
        weighted += double(k) * double(timeWithStreams[k]);
        busy += timeWithStreams[k];
    }
    return busy > 0 ? weighted / double(busy) : 0.0;
}

namespace {

/// A stream's own operations never count twice: each stream is united first, then +1 at each start and -1 at each
/// end. Each stream's starts (and ends) ascend, so all of them are a few sorted runs to merge.
DeviceConcurrency deviceConcurrency(
    const AnalysisContext& c, int device, std::map<std::uint32_t, std::vector<TimeInterval>>& byStream)
{
    std::vector<TimeNs> starts, ends, scratch;
    std::size_t operations = 0;
    for (const auto& [stream, intervals] : byStream)
        operations += intervals.size();
    starts.reserve(operations);
    ends.reserve(operations);
    for (auto& [stream, intervals] : byStream) {
        const IntervalUnion merged(std::move(intervals));
        for (const TimeInterval& iv : merged.intervals()) {
            starts.push_back(iv.first);
            ends.push_back(iv.second);
        }
    }
    for (std::vector<TimeNs>* edges : { &starts, &ends })
        if (!sortByRuns(std::span<TimeNs>(*edges), scratch, std::less<TimeNs>(), byStream.size()))
            std::sort(edges->begin(), edges->end());
    DeviceConcurrency d;
    d.device = device;
    d.spanNs = c.windowDuration();
    d.streams = int(byStream.size());
    d.timeWithStreams.assign(byStream.size() + 1, 0);
    int busy = 0;
    TimeNs at = c.windowStart;
    for (std::size_t s = 0, e = 0; e < ends.size();) {
        const bool endsFirst = s == starts.size() || ends[e] <= starts[s]; // at one instant, ends before starts
        const TimeNs time = endsFirst ? ends[e++] : starts[s++];
        d.timeWithStreams[std::size_t(busy)] += time - at;
        at = time;
        busy += endsFirst ? -1 : +1;
    }
    d.timeWithStreams[0] += c.windowEnd - at;
    return d;
}

} // namespace

std::vector<DeviceConcurrency> computeStreamConcurrency(const AnalysisContext& c, const JobContext& job)
{
    std::vector<DeviceConcurrency> out;
    DeviceOps deviceOps(c);
    for (const DiagnosticsDevice& device : c.devices) {
        if (job.isCancelled())
            return {};
        std::map<std::uint32_t, std::vector<TimeInterval>> byStream;
        for (const DeviceOp& op : deviceOps.of(device.key)) {
            const TimeNs s = std::max(op.start, c.windowStart), e = std::min(op.end, c.windowEnd);
            if (e > s)
                byStream[op.stream].push_back({ s, e });
        }
        if (!byStream.empty())
            out.push_back(deviceConcurrency(c, device.key, byStream));
    }
    return out;
}

} // namespace nsw
