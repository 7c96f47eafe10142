// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/streamconcurrency.h"

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

std::vector<DeviceConcurrency> computeStreamConcurrency(const AnalysisContext& c, const JobContext& job)
{
    std::vector<DeviceConcurrency> out;
    const Profile& p = *c.profile;
    std::map<int, std::map<std::uint32_t, std::vector<TimeInterval>>> byStream; // device -> stream -> intervals
    auto add = [&](int device, std::uint32_t stream, TimeNs s, TimeNs e) {
        s = std::max(s, c.windowStart);
        e = std::min(e, c.windowEnd);
        if (e > s)
            byStream[device][stream].push_back({ s, e });
    };
    c.forEachKernel([&](std::size_t i) {
        add(c.kernelDevice[i], i < p.kernels.stream.size() ? p.kernels.stream[i] : 0u, p.kernels.start[i],
            p.kernels.end[i]);
    });
    c.forEachMemOp([&](std::size_t i) {
        add(c.memOpDevice[i], i < p.memops.stream.size() ? p.memops.stream[i] : 0u, p.memops.start[i], p.memops.end[i]);
    });
    for (auto& [device, streams] : byStream) {
        if (job.isCancelled())
            return {};
        // A stream's own operations never count twice: each stream is united first, then +1 at each start and -1 at
        // each end. Each stream's starts (and ends) ascend, so all of them are a few sorted runs to merge.
        std::vector<TimeNs> starts, ends, scratch;
        for (auto& [stream, intervals] : streams) {
            const IntervalUnion merged(std::move(intervals));
            for (const TimeInterval& iv : merged.intervals()) {
                starts.push_back(iv.first);
                ends.push_back(iv.second);
            }
        }
        for (std::vector<TimeNs>* edges : { &starts, &ends })
            if (!sortByRuns(std::span<TimeNs>(*edges), scratch, std::less<TimeNs>(), streams.size()))
                std::sort(edges->begin(), edges->end());
        DeviceConcurrency d;
        d.device = device;
        d.spanNs = c.windowDuration();
        d.streams = int(streams.size());
        d.timeWithStreams.assign(streams.size() + 1, 0);
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
        out.push_back(std::move(d));
    }
    return out;
}

} // namespace nsw
