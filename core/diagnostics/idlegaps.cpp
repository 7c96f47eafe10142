// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/idlegaps.h"

#include "core/diagnostics/deviceops.h"
#include "core/profile/intervals.h"
#include "core/util/flatindex.h"
#include "core/util/hugepages.h"
#include "core/util/sortruns.h"

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <span>
#include <tuple>
#include <utility>

namespace nsw {

namespace {

/// The CUDA API calls of one process, as unions a gap is tested against.
struct ProcessCalls
{
    IntervalUnion sync;
    IntervalUnion memory;
    IntervalUnion all;
};

/// The process of CUDA API row @p i when the call reaches into the window (every gap lies inside it: a call that does
/// not can neither overlap nor cover one), else SIZE_MAX.
std::size_t processOfCall(const AnalysisContext& c, std::size_t i)
{
    const Profile& p = *c.profile;
    if (p.cudaApi.end[i] <= c.windowStart || p.cudaApi.start[i] >= c.windowEnd)
        return std::numeric_limits<std::size_t>::max();
    const ProcessIndex process = p.processOfThread(p.cudaApi.thread[i]);
    return process >= 0 && std::size_t(process) < p.processes.size() ? std::size_t(process)
                                                                     : std::numeric_limits<std::size_t>::max();
}

/// The CUDA API rows that reach into the window, grouped by process: each process's unions are then made from its own
/// rows, one pass over the window's calls for every process together. A process's rows are held as the steps from
/// one row to the next, 7 bits a byte (a byte a call where the calls of a few processes interleave: 7.5 MB of steps,
/// at most twice that reserved as the lists grow, for the 4M-kernel export's 7.5M calls, where 4 bytes a row took
/// 30 MB while Findings ran).
class CallsByProcess
{
public:
    explicit CallsByProcess(const AnalysisContext& c)
        : m_steps(c.profile->processes.size())
        , m_last(c.profile->processes.size(), -1)
        , m_count(c.profile->processes.size(), 0)
    {
        c.zones->cudaApi.forEachCandidate(c.windowStart, c.windowEnd, [&](std::size_t i) {
            if (const std::size_t process = processOfCall(c, i); process < m_steps.size())
                append(process, std::int64_t(i));
        });
    }

    std::vector<std::uint32_t> of(std::size_t process) const
    {
        std::vector<std::uint32_t> rows;
        rows.reserve(m_count[process]);
        std::int64_t row = -1;
        const std::vector<std::uint8_t>& steps = m_steps[process];
        for (std::size_t k = 0; k < steps.size();) {
            std::uint64_t step = 0;
            for (unsigned shift = 0;; shift += 7) {
                const std::uint8_t byte = steps[k++];
                step |= std::uint64_t(byte & 0x7F) << shift;
                if (!(byte & 0x80))
                    break;
            }
            row += std::int64_t(step);
            rows.push_back(std::uint32_t(row));
        }
        return rows;
    }

private:
    void append(std::size_t process, std::int64_t row)
    {
        std::uint64_t step = std::uint64_t(row - m_last[process]); // rows ascend: at least 1
        m_last[process] = row;
        ++m_count[process];
        std::vector<std::uint8_t>& steps = m_steps[process];
        for (; step >= 0x80; step >>= 7)
            steps.push_back(std::uint8_t(step | 0x80));
        steps.push_back(std::uint8_t(step));
    }

    std::vector<std::vector<std::uint8_t>> m_steps; ///< per process
    std::vector<std::int64_t> m_last; ///< per process, its last row (-1 before the first)
    std::vector<std::size_t> m_count; ///< per process, its rows
};

/// The calls @p rows (one process's, in row order) as unions.
ProcessCalls processCalls(const AnalysisContext& c, std::span<const std::uint32_t> rows)
{
    const Profile& p = *c.profile;
    std::array<std::size_t, 2> counts {}; // sync or wait, memory: each list reserved once
    for (const std::uint32_t i : rows) {
        counts[0] += (c.apiKind[i] & (ApiSync | ApiWait)) ? 1 : 0;
        counts[1] += (c.apiKind[i] & ApiMemory) ? 1 : 0;
    }
    std::vector<TimeInterval> sync, memory, all;
    reserveHugePages(all, rows.size());
    reserveHugePages(sync, counts[0]);
    reserveHugePages(memory, counts[1]);
    for (const std::uint32_t i : rows) {
        const TimeInterval call { p.cudaApi.start[i], p.cudaApi.end[i] };
        all.push_back(call);
        if (c.apiKind[i] & (ApiSync | ApiWait))
            sync.push_back(call);
        if (c.apiKind[i] & ApiMemory)
            memory.push_back(call);
    }
    return { IntervalUnion(std::move(sync)), IntervalUnion(std::move(memory)), IntervalUnion(std::move(all)) };
}

/// The CUDA API row that issued @p op, -1 when unknown.
std::int32_t apiRowOf(const Profile& p, const DeviceOp& op)
{
    const GpuActivityColumns& t = op.memory ? static_cast<const GpuActivityColumns&>(p.memops)
                                            : static_cast<const GpuActivityColumns&>(p.kernels);
    return op.row < t.api.size() ? t.api[op.row] : -1;
}

/// The copy kind of a memory operation row, kMemset when unknown.
std::uint8_t copyKindOf(const Profile& p, std::uint32_t row)
{
    return row < p.memops.copyKind.size() ? p.memops.copyKind[row] : MemOpTable::kMemset;
}

/// The host sat for most of the gap in the one call that issued @p next, a call that does not wait for the GPU and
/// lasted far longer than what it issued (see GapCause::BlockedCall).
bool blockedInCall(const AnalysisContext& c, const DeviceOp& next, std::int32_t api, TimeNs start, TimeNs end)
{
    if (api < 0 || (c.apiKind[std::size_t(api)] & (ApiSync | ApiWait)))
        return false;
    const TimeNs callStart = c.profile->cudaApi.start[std::size_t(api)],
                 callEnd = c.profile->cudaApi.end[std::size_t(api)];
    const TimeNs inGap = std::min(callEnd, end) - std::max(callStart, start);
    const TimeNs call = callEnd - callStart;
    return inGap * 2 >= end - start && call >= kBlockedCallMinNs && call >= 10 * (next.end - next.start);
}

/// Decides a gap's cause (see GapCause) from the calls of the process whose operation ends it. @p Calls is
/// `const IntervalUnion` for gaps in any order, or IntervalCursor for gaps in time order.
template <typename Calls>
GapCause causeOf(
    const AnalysisContext& c, const DeviceOp& next, TimeNs start, TimeNs end, Calls* sync, Calls* memory, Calls* all)
{
    const Profile& p = *c.profile;
    if (sync && sync->overlaps(start, end))
        return GapCause::Sync;
    if (next.memory && MemOpTable::isPageMigration(copyKindOf(p, next.row)))
        return GapCause::PageMigration;
    const std::int32_t api = apiRowOf(p, next);
    if (blockedInCall(c, next, api, start, end))
        return GapCause::BlockedCall;
    if (next.memory || (memory && memory->overlaps(start, end)))
        return GapCause::MemoryTransfer;
    if (api >= 0 && p.cudaApi.start[std::size_t(api)] < start)
        return GapCause::LaunchLatency;
    const TimeNs covered = all ? all->coveredWithin(start, end) : 0;
    return covered * 2 >= end - start && covered > 0 ? GapCause::HostWait : GapCause::CpuBound;
}

/// Classifies gaps against the CUDA API calls of the process whose operation ends them. A process's calls are made
/// into unions when a gap first needs them and kept only while the device being swept has operations of that
/// process: every process's at once took 140 MB on the 4M-kernel export (7.5M calls), one rank's an eighth of it (and
/// the rows grouped by process, so that making one process's unions reads only its calls).
class GapClassifier
{
public:
    explicit GapClassifier(const AnalysisContext& c)
        : m_c(c)
        , m_callRows(c)
        , m_calls(c.profile->processes.size())
    { }

    /// Frees the unions of the processes that @p ops (the next device's operations) do not come from.
    void keepOnlyProcessesOf(std::span<const DeviceOp> ops)
    {
        std::vector<char> used(m_calls.size(), 0);
        for (const DeviceOp& op : ops)
            if (const std::size_t process = processOf(op); process < used.size())
                used[process] = 1;
        for (std::size_t i = 0; i < m_calls.size(); ++i)
            if (!used[i])
                m_calls[i].reset();
    }

    /// For gaps met in time order (a sweep over one device): cheaper than classify().
    GapCause classifyInOrder(const DeviceOp& next, TimeNs start, TimeNs end)
    {
        Calls* calls = callsOf(next);
        if (!calls)
            return causeOf<IntervalCursor>(m_c, next, start, end, nullptr, nullptr, nullptr);
        Cursors& c = calls->cursors;
        return causeOf(m_c, next, start, end, &c.sync, &c.memory, &c.all);
    }

    GapCause classify(const DeviceOp& next, TimeNs start, TimeNs end)
    {
        Calls* calls = callsOf(next);
        if (!calls)
            return causeOf<const IntervalUnion>(m_c, next, start, end, nullptr, nullptr, nullptr);
        const ProcessCalls& c = calls->unions;
        return causeOf(m_c, next, start, end, &c.sync, &c.memory, &c.all);
    }

    int pidOf(const DeviceOp& op) const
    {
        const std::size_t process = processOf(op);
        return process < m_c.profile->processes.size() ? m_c.profile->processes[process].pid : 0;
    }

private:
    struct Cursors
    {
        IntervalCursor sync, memory, all;
    };
    /// A process's unions and the cursors into them (heap-held: the cursors point into the unions).
    struct Calls
    {
        ProcessCalls unions;
        Cursors cursors { IntervalCursor(&unions.sync), IntervalCursor(&unions.memory), IntervalCursor(&unions.all) };
    };

    /// The calls of the process of @p op, made on first use; nullptr when the operation has no process.
    Calls* callsOf(const DeviceOp& op)
    {
        const std::size_t process = processOf(op);
        if (process >= m_calls.size())
            return nullptr;
        std::unique_ptr<Calls>& calls = m_calls[process];
        if (!calls)
            calls.reset(new Calls { processCalls(m_c, m_callRows.of(process)) });
        return calls.get();
    }

    /// The op's process index, or SIZE_MAX when it has none.
    std::size_t processOf(const DeviceOp& op) const
    {
        const Profile& p = *m_c.profile;
        const IndexColumn<ProcessIndex>& process = op.memory ? p.memops.process : p.kernels.process;
        const ProcessIndex i = op.row < process.size() ? process[op.row] : kNoIndex;
        return i >= 0 ? std::size_t(i) : std::numeric_limits<std::size_t>::max();
    }

    const AnalysisContext& m_c;
    CallsByProcess m_callRows;
    std::vector<std::unique_ptr<Calls>> m_calls; ///< per process, while needed
};

/// Longest first; equal lengths by start, device and stream: a total order, so the gaps kept do not depend on when
/// a list was cut.
bool longerGap(const IdleGap& a, const IdleGap& b)
{
    if (a.duration() != b.duration())
        return a.duration() > b.duration();
    if (a.start != b.start)
        return a.start < b.start;
    return std::tie(a.device, a.stream) < std::tie(b.device, b.stream);
}

/// Keeps the @p maxListed longest of @p gaps, in no order, and says whether any was dropped.
void cutToLongest(std::vector<IdleGap>& gaps, std::size_t maxListed, bool& truncated)
{
    if (gaps.size() <= maxListed)
        return;
    truncated = true;
    std::nth_element(gaps.begin(), gaps.begin() + std::ptrdiff_t(maxListed), gaps.end(), longerGap);
    gaps.resize(maxListed);
}

void keepLongest(std::vector<IdleGap>& gaps, std::size_t maxListed, bool& truncated)
{
    cutToLongest(gaps, maxListed, truncated);
    std::sort(gaps.begin(), gaps.end(), longerGap);
}

/// Sorts @p ops by start then end, cheaply when they are already sorted or a few sorted runs (kernels, then memory
/// operations).
void sortByTime(std::span<DeviceOp> ops, std::vector<DeviceOp>& scratch)
{
    const auto earlier
        = [](const DeviceOp& a, const DeviceOp& b) { return std::tie(a.start, a.end) < std::tie(b.start, b.end); };
    if (!sortByRuns(ops, scratch, earlier))
        std::stable_sort(ops.begin(), ops.end(), earlier);
}

/// Finds the gaps of one device, whole and per stream, in one pass over its operations sorted by time: each
/// stream's operations are then in time order too.
class DeviceSweep
{
public:
    /// Lists at most about @p maxListed gaps of each kind while it sweeps (the longest: a list is cut back to them
    /// when it doubles), not every gap long enough: the 4M-kernel export has 103k of each, 19 MB.
    DeviceSweep(const AnalysisContext& c, GapClassifier& classifier, IdleGapResult& result, std::size_t maxListed,
        bool listStreams = true)
        : m_c(c)
        , m_classifier(classifier)
        , m_result(result)
        , m_maxListed(maxListed)
        , m_listStreams(listStreams)
    { }

    DeviceIdle run(int device, std::span<const DeviceOp> ops, CancelPoll<>& poll)
    {
        DeviceIdle d;
        d.device = m_device = device;
        d.spanNs = m_c.windowDuration();
        d.histogram = gapBuckets();
        m_streams = {};
        m_streamEnds.clear();
        TimeNs busyStart = 0, busyEnd = 0; // the busy interval being merged (clipped to the window)
        bool busy = false;
        TimeNs latestEnd = ops.front().end;
        std::size_t latest = 0;
        for (std::size_t i = 0; i < ops.size() && !poll(); ++i) {
            const DeviceOp& op = ops[i];
            const TimeNs s = std::max(op.start, m_c.windowStart), e = std::min(op.end, m_c.windowEnd);
            if (e > s) {
                if (busy && s <= busyEnd) {
                    busyEnd = std::max(busyEnd, e);
                } else {
                    d.busyNs += busy ? busyEnd - busyStart : 0;
                    std::tie(busyStart, busyEnd, busy) = std::tuple(s, e, true);
                }
            }
            if (i > 0 && op.start > latestEnd)
                addDeviceGap(d, ops[latest], op, latestEnd);
            if (op.end > latestEnd) {
                latestEnd = op.end;
                latest = i;
            }
            sweepStream(ops, i);
        }
        d.busyNs += busy ? busyEnd - busyStart : 0;
        d.idleNs = std::max<TimeNs>(0, d.spanNs - d.busyNs);
        return d;
    }

private:
    struct StreamState
    {
        TimeNs latestEnd;
        std::size_t latest;
    };

    IdleGap makeGap(
        const DeviceOp& prev, const DeviceOp& next, TimeNs s, TimeNs e, std::int64_t stream, GapCause cause) const
    {
        IdleGap g;
        g.device = m_device;
        g.stream = stream;
        g.start = s;
        g.end = e;
        g.cause = cause;
        g.nextKernel = next.memory ? -1 : std::int64_t(next.row);
        g.previousKernel = prev.memory ? -1 : std::int64_t(prev.row);
        g.pid = m_classifier.pidOf(next);
        g.nextCall = apiRowOf(*m_c.profile, next);
        g.nextMemOp = next.memory ? std::int64_t(next.row) : -1;
        return g;
    }

    /// The gap between the latest end so far and @p next, clipped to the window, counted for the device.
    void addDeviceGap(DeviceIdle& d, const DeviceOp& prev, const DeviceOp& next, TimeNs latestEnd)
    {
        const TimeNs s = std::max(latestEnd, m_c.windowStart), e = std::min(next.start, m_c.windowEnd);
        if (e <= s)
            return;
        const GapCause cause = m_classifier.classifyInOrder(next, s, e);
        const TimeNs duration = e - s;
        ++d.gaps;
        d.gapNs += duration;
        d.causeNs[int(cause)] += duration;
        ++d.causeCount[int(cause)];
        for (GapBucket& b : d.histogram)
            if (duration >= b.lower && duration < b.upper) {
                ++b.count;
                b.totalNs += duration;
            }
        if (duration >= m_result.longMinNs) {
            ++d.longGaps;
            d.longGapNs += duration;
            d.longCauseNs[int(cause)] += duration;
        }
        if (duration >= m_result.listedMinNs)
            list(m_result.deviceGaps, makeGap(prev, next, s, e, -1, cause));
    }

    void list(std::vector<IdleGap>& gaps, const IdleGap& gap)
    {
        gaps.push_back(gap);
        if (gaps.size() / 2 >= std::max<std::size_t>(m_maxListed, 1024))
            cutToLongest(gaps, m_maxListed, m_result.truncated);
    }

    void sweepStream(std::span<const DeviceOp> ops, std::size_t i)
    {
        const DeviceOp& op = ops[i];
        const auto slot = std::size_t(m_streams.index(op.stream));
        if (slot == m_streamEnds.size())
            return m_streamEnds.push_back({ op.end, i });
        StreamState& stream = m_streamEnds[slot];
        if (op.start > stream.latestEnd) {
            const TimeNs s = std::max(stream.latestEnd, m_c.windowStart), e = std::min(op.start, m_c.windowEnd);
            if (e > s) {
                ++m_result.streamGapCount;
                m_result.streamGapNs += e - s;
                if (m_listStreams && e - s >= m_result.listedMinNs)
                    list(m_result.streamGaps,
                        makeGap(
                            ops[stream.latest], op, s, e, std::int64_t(op.stream), m_classifier.classify(op, s, e)));
            }
        }
        if (op.end > stream.latestEnd)
            stream = { op.end, i };
    }

    const AnalysisContext& m_c;
    GapClassifier& m_classifier;
    IdleGapResult& m_result;
    std::size_t m_maxListed;
    bool m_listStreams;
    int m_device = 0; ///< the one being swept
    FlatIndex<std::uint32_t, IntegerHash> m_streams;
    std::vector<StreamState> m_streamEnds; ///< by m_streams index
};

} // namespace

QString gapCauseName(GapCause cause)
{
    switch (cause) {
    case GapCause::Sync:
        return QStringLiteral("sync");
    case GapCause::PageMigration:
        return QStringLiteral("page_migration");
    case GapCause::BlockedCall:
        return QStringLiteral("blocked_call");
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

namespace {
/// The sweep of every device, listing whole-device gaps of listedMinNs and longer (and per-stream ones when asked).
IdleGapResult sweepDevices(const AnalysisContext& c, TimeNs listedMinNs, std::size_t maxListed, const JobContext& job,
    TimeNs longMinNs, bool listStreams)
{
    IdleGapResult result;
    result.listedMinNs = listedMinNs;
    result.longMinNs = longMinNs;
    DeviceOps deviceOps(c);
    if (job.isCancelled())
        return result;
    GapClassifier classifier(c);
    CancelPoll<> poll(job.cancelToken());
    DeviceSweep sweep(c, classifier, result, maxListed, listStreams);
    std::vector<DeviceOp> scratch;
    for (std::size_t d = 0; d < c.devices.size() && !poll.stopped(); ++d) {
        const std::span<DeviceOp> ops = deviceOps.of(c.devices[d].key);
        if (ops.empty())
            continue;
        sortByTime(ops, scratch);
        classifier.keepOnlyProcessesOf(ops);
        result.devices.push_back(sweep.run(c.devices[d].key, ops, poll));
    }
    return result;
}
} // namespace

IdleGapResult computeIdleGaps(
    const AnalysisContext& c, TimeNs listedMinNs, std::size_t maxListed, const JobContext& job, TimeNs longMinNs)
{
    IdleGapResult result = sweepDevices(c, listedMinNs, maxListed, job, longMinNs, true);
    keepLongest(result.deviceGaps, maxListed, result.truncated);
    keepLongest(result.streamGaps, maxListed, result.truncated);
    return result;
}

std::vector<IdleGap> allDeviceGaps(const AnalysisContext& context, const JobContext& job)
{
    constexpr std::size_t listEvery = std::numeric_limits<std::size_t>::max();
    std::vector<IdleGap> gaps
        = std::move(sweepDevices(context, 0, listEvery, job, std::numeric_limits<TimeNs>::max(), false).deviceGaps);
    std::sort(gaps.begin(), gaps.end(),
        [](const IdleGap& a, const IdleGap& b) { return std::tie(a.device, a.start) < std::tie(b.device, b.start); });
    return gaps;
}

} // namespace nsw
