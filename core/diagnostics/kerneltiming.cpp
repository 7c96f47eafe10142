// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/kerneltiming.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <span>
#include <tuple>
#include <utility>

namespace nsw {

namespace {

std::vector<LongestKernel> longestKernels(const AnalysisContext& c, std::size_t count)
{
    const KernelTable& k = c.profile->kernels;
    const auto longer = [&](std::uint32_t a, std::uint32_t b) {
        return std::make_tuple(-k.duration(a), k.start[a], a) < std::make_tuple(-k.duration(b), k.start[b], b);
    };
    // The longest so far as a heap whose top is the shortest of them: no array of every kernel row.
    std::vector<std::uint32_t> rows;
    rows.reserve(count + 1);
    if (count > 0)
        c.forEachKernel([&](std::size_t i) {
            rows.push_back(std::uint32_t(i));
            std::push_heap(rows.begin(), rows.end(), longer);
            if (rows.size() > count) {
                std::pop_heap(rows.begin(), rows.end(), longer);
                rows.pop_back();
            }
        });
    std::sort_heap(rows.begin(), rows.end(), longer);
    std::vector<LongestKernel> out;
    for (const std::uint32_t row : rows) {
        const ProcessIndex process = row < k.process.size() ? k.process[row] : kNoIndex;
        out.push_back({ row, c.kernelDevice[row], row < k.stream.size() ? std::int64_t(k.stream[row]) : 0,
            process >= 0 ? c.profile->processes[std::size_t(process)].pid : 0, k.start[row], k.end[row],
            c.profile->strings.at(c.kernelNameRef(row)) });
    }
    return out;
}

/// Measures @p values in place (reordered, not copied): percentiles interpolated between neighbouring ranks.
template <class Value> Percentiles percentilesIn(std::span<Value> values)
{
    Percentiles p;
    if (values.empty())
        return p;
    for (const Value v : values)
        p.add(qint64(v));
    // Three ranks need no full sort (millions of kernels): each is selected, in ascending order, among the values
    // right of the previous one, and its upper neighbour is the smallest value right of it.
    std::size_t selected = 0;
    auto percentile = [&](double percent) {
        const double rank = percent / 100.0 * double(values.size() - 1);
        const auto lo = std::size_t(std::floor(rank));
        const auto at = values.begin() + std::ptrdiff_t(lo);
        if (lo >= selected) // else a lower percentile selected it already
            std::nth_element(values.begin() + std::ptrdiff_t(selected), at, values.end());
        selected = std::max(selected, lo + 1);
        const double low = double(*at);
        const double high = lo + 1 < values.size() ? double(*std::min_element(at + 1, values.end())) : low;
        return low + (high - low) * (rank - double(lo));
    };
    p.p50 = percentile(50);
    p.p90 = percentile(90);
    p.p99 = percentile(99);
    return p;
}

bool fitsFourBytes(TimeNs value)
{
    return value >= 0 && value <= TimeNs(std::numeric_limits<std::uint32_t>::max());
}

/// Values grouped by pid in one array (a pid's values are contiguous), so that each pid and all of them (pid 0) are
/// measured without an array per pid beside the whole: kernel timing held 144 MB of such arrays on a 4M-kernel export.
/// Held in 4 bytes a value when every value fits (durations and launch intervals under 4.29 s): 16 MB, not 32, for
/// 4M kernels.
template <class Value> struct ValuesByPid
{
    std::vector<Value> values;
    std::vector<std::pair<int, std::size_t>> ends; ///< (pid, end of its values), in the order of the values

    /// Calls @p measured(pid, percentiles) for each pid with values, then for pid 0 (every value; a process whose
    /// pid is 0 counts twice there, as it always did). Consumes the values.
    template <class F> void measure(F&& measured)
    {
        std::size_t begin = 0;
        std::pair<std::size_t, std::size_t> pidZero { 0, 0 };
        for (const auto& [pid, end] : ends) {
            if (pid == 0)
                pidZero = { begin, end };
            else if (end > begin)
                measured(pid, percentilesIn(std::span(values).subspan(begin, end - begin)));
            begin = end;
        }
        if (values.empty())
            return;
        const std::vector<Value> again(
            values.begin() + std::ptrdiff_t(pidZero.first), values.begin() + std::ptrdiff_t(pidZero.second));
        values.insert(values.end(), again.begin(), again.end());
        measured(0, percentilesIn(std::span(values)));
    }
};

int pidOf(const Profile& p, ProcessIndex process)
{
    return process >= 0 ? p.processes[std::size_t(process)].pid : -1;
}

/// Dense slots for the pids met, in the order first met.
class PidSlots
{
public:
    std::size_t slotOf(int pid)
    {
        if (!m_pids.empty() && m_pids[m_last] == pid)
            return m_last;
        const auto it = std::find(m_pids.begin(), m_pids.end(), pid);
        m_last = std::size_t(it - m_pids.begin());
        if (it == m_pids.end())
            m_pids.push_back(pid);
        return m_last;
    }
    const std::vector<int>& pids() const { return m_pids; }

private:
    std::vector<int> m_pids;
    std::size_t m_last = 0;
};

/// Measures each kernel's duration, by pid: counted, then placed (a counting sort).
template <class F> void measureKernelDurations(const AnalysisContext& c, F&& measured)
{
    const Profile& p = *c.profile;
    const auto pidOfKernel
        = [&](std::size_t i) { return pidOf(p, i < p.kernels.process.size() ? p.kernels.process[i] : kNoIndex); };
    PidSlots pidSlots;
    std::vector<std::size_t> next;
    bool narrow = true;
    c.forEachKernel([&](std::size_t i) {
        const std::size_t slot = pidSlots.slotOf(pidOfKernel(i));
        next.resize(std::max(next.size(), slot + 1), 0);
        ++next[slot];
        narrow = narrow && fitsFourBytes(p.kernels.duration(i));
    });
    std::vector<std::pair<int, std::size_t>> ends;
    std::size_t total = 0;
    for (std::size_t slot = 0; slot < next.size(); ++slot) {
        total += std::exchange(next[slot], total);
        ends.emplace_back(pidSlots.pids()[slot], total);
    }
    const auto place = [&]<class Value>(ValuesByPid<Value> grouped) {
        grouped.ends = std::move(ends);
        grouped.values.resize(total);
        c.forEachKernel([&](std::size_t i) {
            grouped.values[next[pidSlots.slotOf(pidOfKernel(i))]++] = Value(p.kernels.duration(i));
        });
        grouped.measure(measured);
    };
    narrow ? place(ValuesByPid<std::uint32_t> {}) : place(ValuesByPid<TimeNs> {});
}

/// One thread's launch calls in the window.
struct ThreadLaunches
{
    std::size_t count = 0;
    TimeNs last = 0; ///< start of the latest call met in row order
    TimeNs least = 0;
    TimeNs most = 0;
    TimeNs longestStep = 0; ///< between calls consecutive in row order
    bool inRowOrder = true; ///< starts never fall in row order (every thread of the real exports)
    std::size_t next = 0; ///< where its next interval goes
    std::size_t nextStart = 0; ///< where its next start goes, when not in row order

    void add(TimeNs start)
    {
        if (count > 0) {
            inRowOrder = inRowOrder && start >= last;
            longestStep = std::max(longestStep, start - last);
        }
        least = count > 0 ? std::min(least, start) : start;
        most = count > 0 ? std::max(most, start) : start;
        last = start;
        ++count;
    }
    /// Every interval between its starts holds in 4 bytes.
    bool narrow() const { return fitsFourBytes(inRowOrder ? longestStep : most - least); }
};

/// Measures the intervals between the starts of consecutive launch calls of each thread, by the thread's pid. A
/// thread whose starts rise in row order has its intervals taken as the calls come; only the starts of the others are
/// held (8 bytes each), then sorted.
template <class F> void measureLaunchIntervals(const AnalysisContext& c, F&& measured)
{
    const Profile& p = *c.profile;
    // Slot 0: calls without a thread.
    const auto slotOf
        = [&](std::size_t call) { return std::size_t(std::max<ThreadIndex>(p.cudaApi.thread[call], -1) + 1); };
    std::vector<ThreadLaunches> threads(p.threads.size() + 1);
    c.forEachApiCall([&](std::size_t i) {
        if (c.apiKind[i] & ApiLaunch)
            threads[slotOf(i)].add(p.cudaApi.start[i]);
    });
    // The threads of a pid together, in the order of the pids' slots.
    PidSlots pids;
    std::vector<std::pair<std::size_t, std::size_t>> byPid; // (pid slot, thread slot)
    for (std::size_t t = 0; t < threads.size(); ++t)
        if (threads[t].count > 0)
            byPid.emplace_back(pids.slotOf(pidOf(p, p.processOfThread(ThreadIndex(std::ptrdiff_t(t) - 1)))), t);
    std::sort(byPid.begin(), byPid.end());
    std::vector<std::pair<int, std::size_t>> ends;
    std::size_t total = 0, outOfOrderStarts = 0;
    bool narrow = true;
    for (std::size_t k = 0; k < byPid.size(); ++k) {
        ThreadLaunches& t = threads[byPid[k].second];
        t.next = total;
        total += t.count - 1;
        if (!t.inRowOrder) {
            t.nextStart = outOfOrderStarts;
            outOfOrderStarts += t.count;
        }
        narrow = narrow && t.narrow();
        if (k + 1 == byPid.size() || byPid[k + 1].first != byPid[k].first)
            ends.emplace_back(pids.pids()[byPid[k].first], total);
    }
    const auto place = [&]<class Value>(ValuesByPid<Value> grouped) {
        grouped.ends = std::move(ends);
        grouped.values.resize(total);
        std::vector<TimeNs> starts(outOfOrderStarts);
        std::vector<bool> seen(threads.size(), false);
        c.forEachApiCall([&](std::size_t i) {
            if (!(c.apiKind[i] & ApiLaunch))
                return;
            const std::size_t slot = slotOf(i);
            ThreadLaunches& t = threads[slot];
            const TimeNs start = p.cudaApi.start[i];
            if (!t.inRowOrder)
                starts[t.nextStart++] = start;
            else if (seen[slot])
                grouped.values[t.next++] = Value(start - t.last);
            t.last = start;
            seen[slot] = true;
        });
        for (ThreadLaunches& t : threads) {
            if (t.inRowOrder || t.count == 0)
                continue;
            const auto first = starts.begin() + std::ptrdiff_t(t.nextStart - t.count);
            std::sort(first, first + std::ptrdiff_t(t.count));
            for (std::size_t k = 1; k < t.count; ++k)
                grouped.values[t.next++] = Value(first[std::ptrdiff_t(k)] - first[std::ptrdiff_t(k - 1)]);
        }
        starts = {};
        grouped.measure(measured);
    };
    narrow ? place(ValuesByPid<std::uint32_t> {}) : place(ValuesByPid<TimeNs> {});
}

} // namespace

Percentiles percentilesOf(std::vector<TimeNs> values)
{
    return percentilesIn(std::span(values));
}

KernelTiming computeKernelTiming(const AnalysisContext& c, std::size_t longestCount, const JobContext& job)
{
    KernelTiming out;
    const Profile& p = *c.profile;
    out.longest = longestKernels(c, longestCount);

    std::map<int, LaunchPercentileRow> rows;
    measureKernelDurations(c, [&](int pid, const Percentiles& measured) { rows[pid].kernelDurations = measured; });
    if (job.isCancelled())
        return out;
    measureLaunchIntervals(c, [&](int pid, const Percentiles& measured) { rows[pid].launchIntervals = measured; });
    if (job.isCancelled())
        return out;
    for (auto& [pid, row] : rows) {
        row.pid = pid;
        if (pid == 0) {
            row.process = QStringLiteral("all processes");
        } else {
            row.process = QStringLiteral("pid %1").arg(pid);
            for (std::size_t i = 0; i < p.processes.size(); ++i)
                if (p.processes[i].pid == pid)
                    row.process = p.processLabel(ProcessIndex(i));
        }
        out.percentiles.push_back(std::move(row));
    }
    return out;
}

} // namespace nsw
