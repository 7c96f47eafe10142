// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/idlegaps.h"

#include "core/diagnostics/intervals.h"
#include "core/util/hugepages.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

namespace nsw {

namespace {

struct DeviceOp
{
    TimeNs start;
    TimeNs end;
    std::uint32_t row;
    bool memory;
    int device;
    std::uint32_t stream;
};

/// The CUDA API calls of one process, as unions a gap is tested against.
struct ProcessCalls
{
    IntervalUnion sync;
    IntervalUnion memory;
    IntervalUnion all;
};

std::vector<ProcessCalls> processCalls(const AnalysisContext& c)
{
    const Profile& p = *c.profile;
    std::vector<std::vector<TimeInterval>> sync(p.processes.size()), memory(p.processes.size()),
        all(p.processes.size());
    // Counted first so that each list is reserved once, in huge pages (millions of calls).
    std::vector<std::array<std::size_t, 3>> counts(p.processes.size());
    for (std::size_t i = 0; i < p.cudaApi.size(); ++i) {
        const ProcessIndex process = p.processOfThread(p.cudaApi.thread[i]);
        if (process < 0 || std::size_t(process) >= p.processes.size())
            continue;
        std::array<std::size_t, 3>& n = counts[std::size_t(process)];
        ++n[0];
        n[1] += (c.apiKind[i] & (ApiSync | ApiWait)) ? 1 : 0;
        n[2] += (c.apiKind[i] & ApiMemory) ? 1 : 0;
    }
    for (std::size_t i = 0; i < counts.size(); ++i) {
        reserveHugePages(all[i], counts[i][0]);
        reserveHugePages(sync[i], counts[i][1]);
        reserveHugePages(memory[i], counts[i][2]);
    }
    for (std::size_t i = 0; i < p.cudaApi.size(); ++i) {
        const ProcessIndex process = p.processOfThread(p.cudaApi.thread[i]);
        if (process < 0 || std::size_t(process) >= p.processes.size())
            continue;
        const TimeInterval call { p.cudaApi.start[i], p.cudaApi.end[i] };
        all[std::size_t(process)].push_back(call);
        if (c.apiKind[i] & (ApiSync | ApiWait))
            sync[std::size_t(process)].push_back(call);
        if (c.apiKind[i] & ApiMemory)
            memory[std::size_t(process)].push_back(call);
    }
    std::vector<ProcessCalls> out(p.processes.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = { IntervalUnion(std::move(sync[i])), IntervalUnion(std::move(memory[i])),
            IntervalUnion(std::move(all[i])) };
    return out;
}

class GapClassifier
{
public:
    explicit GapClassifier(const AnalysisContext& c)
        : m_c(c)
        , m_calls(processCalls(c))
    { }

    GapCause classify(const DeviceOp& next, TimeNs start, TimeNs end) const
    {
        const Profile& p = *m_c.profile;
        const GpuActivityColumns& t = next.memory ? static_cast<const GpuActivityColumns&>(p.memops)
                                                  : static_cast<const GpuActivityColumns&>(p.kernels);
        const ProcessIndex process = next.row < t.process.size() ? t.process[next.row] : kNoIndex;
        const ProcessCalls* calls
            = process >= 0 && std::size_t(process) < m_calls.size() ? &m_calls[std::size_t(process)] : nullptr;
        if (calls && calls->sync.overlaps(start, end))
            return GapCause::Sync;
        if (next.memory || (calls && calls->memory.overlaps(start, end)))
            return GapCause::MemoryTransfer;
        const std::int32_t api = next.row < t.api.size() ? t.api[next.row] : -1;
        if (api >= 0 && p.cudaApi.start[std::size_t(api)] < start)
            return GapCause::LaunchLatency;
        const TimeNs covered = calls ? calls->all.coveredWithin(start, end) : 0;
        return covered * 2 >= end - start && covered > 0 ? GapCause::HostWait : GapCause::CpuBound;
    }

    int pidOf(const DeviceOp& op) const
    {
        const Profile& p = *m_c.profile;
        const std::vector<ProcessIndex>& process = op.memory ? p.memops.process : p.kernels.process;
        const ProcessIndex i = op.row < process.size() ? process[op.row] : kNoIndex;
        return i >= 0 ? p.processes[std::size_t(i)].pid : 0;
    }

private:
    const AnalysisContext& m_c;
    std::vector<ProcessCalls> m_calls;
};

/// @p ops grouped by @p key in ascending key order, keeping their order within a key: a counting sort (a device's
/// operations arrive in time order per table, and the keys are few: devices, streams).
template <typename KeyOf> std::vector<DeviceOp> groupedBy(const std::vector<DeviceOp>& ops, KeyOf keyOf)
{
    using Key = decltype(keyOf(DeviceOp {}));
    std::map<Key, std::size_t> next; // key -> count, then -> where its next operation goes
    for (const DeviceOp& op : ops)
        ++next[keyOf(op)];
    std::size_t offset = 0;
    for (auto& [key, n] : next)
        offset += std::exchange(n, offset);
    std::vector<DeviceOp> out;
    reserveHugePages(out, ops.size());
    out.resize(ops.size());
    for (const DeviceOp& op : ops)
        out[next[keyOf(op)]++] = op;
    return out;
}

/// Sorts [first, last) by start then end, cheaply when it is already sorted or two sorted runs (kernels, then memory
/// operations).
void sortByTime(std::vector<DeviceOp>::iterator first, std::vector<DeviceOp>::iterator last)
{
    const auto earlier
        = [](const DeviceOp& a, const DeviceOp& b) { return std::tie(a.start, a.end) < std::tie(b.start, b.end); };
    const auto descent = std::is_sorted_until(first, last, earlier);
    if (descent == last)
        return;
    if (std::is_sorted(descent, last, earlier))
        std::inplace_merge(first, descent, last, earlier);
    else
        std::sort(first, last, earlier);
}

void keepLongest(std::vector<IdleGap>& gaps, std::size_t maxListed, bool& truncated)
{
    auto longer = [](const IdleGap& a, const IdleGap& b) {
        if (a.duration() != b.duration())
            return a.duration() > b.duration();
        if (a.start != b.start)
            return a.start < b.start;
        return std::tie(a.device, a.stream) < std::tie(b.device, b.stream);
    };
    if (gaps.size() > maxListed) {
        truncated = true;
        std::nth_element(gaps.begin(), gaps.begin() + std::ptrdiff_t(maxListed), gaps.end(), longer);
        gaps.resize(maxListed);
    }
    std::sort(gaps.begin(), gaps.end(), longer);
}

} // namespace

QString gapCauseName(GapCause cause)
{
    switch (cause) {
    case GapCause::Sync:
        return QStringLiteral("sync");
    case GapCause::MemoryTransfer:
        return QStringLiteral("memory_transfer");
    case GapCause::LaunchLatency:
        return QStringLiteral("launch_latency");
    case GapCause::HostWait:
        return QStringLiteral("host_wait");
    case GapCause::CpuBound:
        return QStringLiteral("cpu_bound");
    }
    return {};
}

std::vector<GapBucket> gapBuckets()
{
    constexpr TimeNs us = 1000, ms = 1000 * us;
    return {
        { QStringLiteral("<10 us"), 0, 10 * us },
        { QStringLiteral("10-100 us"), 10 * us, 100 * us },
        { QStringLiteral("100 us-1 ms"), 100 * us, ms },
        { QStringLiteral("1-5 ms"), ms, 5 * ms },
        { QStringLiteral("5-50 ms"), 5 * ms, 50 * ms },
        { QStringLiteral(">50 ms"), 50 * ms, std::numeric_limits<TimeNs>::max() },
    };
}

IdleGapResult computeIdleGaps(
    const AnalysisContext& c, TimeNs listedMinNs, std::size_t maxListed, const JobContext& job, TimeNs longMinNs)
{
    IdleGapResult result;
    result.listedMinNs = listedMinNs;
    result.longMinNs = longMinNs;
    if (!c.profile)
        return result;
    const Profile& p = *c.profile;
    std::vector<DeviceOp> ops;
    reserveHugePages(ops, p.kernels.size() + p.memops.size());
    for (std::size_t i = 0; i < p.kernels.size(); ++i)
        if (c.kernelInFocus[i])
            ops.push_back({ p.kernels.start[i], p.kernels.end[i], std::uint32_t(i), false, c.kernelDevice[i],
                i < p.kernels.stream.size() ? p.kernels.stream[i] : 0u });
    for (std::size_t i = 0; i < p.memops.size(); ++i)
        if (c.memOpInFocus[i])
            ops.push_back({ p.memops.start[i], p.memops.end[i], std::uint32_t(i), true, c.memOpDevice[i],
                i < p.memops.stream.size() ? p.memops.stream[i] : 0u });
    if (job.isCancelled())
        return result;
    const GapClassifier classifier(c);
    CancelPoll<> poll(job.cancelToken());

    // One pass over a series sorted by start: a gap wherever the next start is after the latest end so far.
    auto sweep = [&](std::size_t from, std::size_t to, auto&& onGap) {
        TimeNs latestEnd = ops[from].end;
        std::size_t latest = from;
        for (std::size_t i = from + 1; i < to && !poll(); ++i) {
            if (ops[i].start > latestEnd) {
                const TimeNs s = std::max(latestEnd, c.windowStart);
                const TimeNs e = std::min(ops[i].start, c.windowEnd);
                if (e > s)
                    onGap(ops[latest], ops[i], s, e);
            }
            if (ops[i].end > latestEnd) {
                latestEnd = ops[i].end;
                latest = i;
            }
        }
    };
    auto makeGap = [&](const DeviceOp& prev, const DeviceOp& next, TimeNs s, TimeNs e, std::int64_t stream) {
        IdleGap g;
        g.device = next.device;
        g.stream = stream;
        g.start = s;
        g.end = e;
        g.cause = classifier.classify(next, s, e);
        g.nextKernel = next.memory ? -1 : std::int64_t(next.row);
        g.previousKernel = prev.memory ? -1 : std::int64_t(prev.row);
        g.pid = classifier.pidOf(next);
        return g;
    };

    // Whole devices: by device, then start and end.
    ops = groupedBy(ops, [](const DeviceOp& op) { return op.device; });
    for (std::size_t from = 0; from < ops.size();) {
        std::size_t to = from;
        while (to < ops.size() && ops[to].device == ops[from].device)
            ++to;
        sortByTime(ops.begin() + std::ptrdiff_t(from), ops.begin() + std::ptrdiff_t(to));
        from = to;
    }
    for (std::size_t from = 0; from < ops.size();) {
        std::size_t to = from;
        std::vector<TimeInterval> busy;
        while (to < ops.size() && ops[to].device == ops[from].device) {
            const TimeNs s = std::max(ops[to].start, c.windowStart), e = std::min(ops[to].end, c.windowEnd);
            busy.emplace_back(s, e);
            ++to;
        }
        DeviceIdle d;
        d.device = ops[from].device;
        d.spanNs = c.windowDuration();
        d.busyNs = IntervalUnion(std::move(busy)).length();
        d.idleNs = std::max<TimeNs>(0, d.spanNs - d.busyNs);
        d.histogram = gapBuckets();
        sweep(from, to, [&](const DeviceOp& prev, const DeviceOp& next, TimeNs s, TimeNs e) {
            const IdleGap g = makeGap(prev, next, s, e, -1);
            ++d.gaps;
            d.gapNs += g.duration();
            d.causeNs[int(g.cause)] += g.duration();
            ++d.causeCount[int(g.cause)];
            for (GapBucket& b : d.histogram)
                if (g.duration() >= b.lower && g.duration() < b.upper) {
                    ++b.count;
                    b.totalNs += g.duration();
                }
            if (g.duration() >= longMinNs) {
                ++d.longGaps;
                d.longGapNs += g.duration();
                d.longCauseNs[int(g.cause)] += g.duration();
            }
            if (g.duration() >= listedMinNs)
                result.deviceGaps.push_back(g);
        });
        result.devices.push_back(std::move(d));
        from = to;
    }
    if (poll.stopped())
        return result;

    // Streams: grouped keeping each device's time order.
    ops = groupedBy(ops, [](const DeviceOp& op) { return std::make_pair(op.device, op.stream); });
    for (std::size_t from = 0; from < ops.size();) {
        std::size_t to = from;
        while (to < ops.size() && ops[to].device == ops[from].device && ops[to].stream == ops[from].stream)
            ++to;
        sweep(from, to, [&](const DeviceOp& prev, const DeviceOp& next, TimeNs s, TimeNs e) {
            ++result.streamGapCount;
            result.streamGapNs += e - s;
            if (e - s >= listedMinNs)
                result.streamGaps.push_back(makeGap(prev, next, s, e, std::int64_t(next.stream)));
        });
        from = to;
    }
    keepLongest(result.deviceGaps, maxListed, result.truncated);
    keepLongest(result.streamGaps, maxListed, result.truncated);
    return result;
}

} // namespace nsw
