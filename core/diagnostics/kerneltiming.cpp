// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/kerneltiming.h"

#include <algorithm>
#include <cmath>
#include <map>
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

/// Values grouped by pid in one array (a pid's values are contiguous), so that each pid and all of them (pid 0) are
/// measured without an array per pid beside the whole: kernel timing held 144 MB of such arrays on a 4M-kernel export.
struct ValuesByPid
{
    std::vector<TimeNs> values;
    std::vector<std::pair<int, std::size_t>> ends; ///< (pid, end of its values), in the order of the values

    /// Calls @p measured(pid, percentiles) for each pid with values, then for pid 0 (every value; a process whose
    /// pid is 0 counts twice there, as it always did). Consumes the values.
    template <class F> void measure(F&& measured)
    {
        std::size_t begin = 0;
        std::vector<TimeNs> pidZero;
        for (const auto& [pid, end] : ends) {
            std::vector<TimeNs> own(values.begin() + std::ptrdiff_t(begin), values.begin() + std::ptrdiff_t(end));
            begin = end;
            if (own.empty())
                continue;
            if (pid == 0)
                pidZero = std::move(own);
            else
                measured(pid, percentilesOf(std::move(own)));
        }
        if (values.empty())
            return;
        values.insert(values.end(), pidZero.begin(), pidZero.end());
        measured(0, percentilesOf(std::move(values)));
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

/// Each kernel's duration, by pid: counted, then placed (a counting sort).
ValuesByPid kernelDurations(const AnalysisContext& c)
{
    const Profile& p = *c.profile;
    const auto pidOfKernel
        = [&](std::size_t i) { return pidOf(p, i < p.kernels.process.size() ? p.kernels.process[i] : kNoIndex); };
    PidSlots pidSlots;
    std::vector<std::size_t> next;
    c.forEachKernel([&](std::size_t i) {
        const std::size_t slot = pidSlots.slotOf(pidOfKernel(i));
        next.resize(std::max(next.size(), slot + 1), 0);
        ++next[slot];
    });
    ValuesByPid grouped;
    std::size_t total = 0;
    for (std::size_t slot = 0; slot < next.size(); ++slot) {
        total += std::exchange(next[slot], total);
        grouped.ends.emplace_back(pidSlots.pids()[slot], total);
    }
    grouped.values.resize(total);
    c.forEachKernel(
        [&](std::size_t i) { grouped.values[next[pidSlots.slotOf(pidOfKernel(i))]++] = p.kernels.duration(i); });
    return grouped;
}

/// Intervals between the starts of consecutive launch calls of each thread, by the thread's pid.
ValuesByPid launchIntervals(const AnalysisContext& c)
{
    const Profile& p = *c.profile;
    // The launch starts grouped by thread (slot 0: calls without a thread), the threads of a pid together; each
    // thread's starts sorted, then replaced in place by the intervals between them (one fewer per thread).
    const std::size_t threadSlots = p.threads.size() + 1;
    const auto slotOf
        = [&](std::size_t call) { return std::size_t(std::max<ThreadIndex>(p.cudaApi.thread[call], -1) + 1); };
    std::vector<std::size_t> count(threadSlots, 0);
    c.forEachApiCall([&](std::size_t i) {
        if (c.apiKind[i] & ApiLaunch)
            ++count[slotOf(i)];
    });
    PidSlots pids;
    std::vector<std::pair<std::size_t, std::size_t>> byPid; // (pid slot, thread slot)
    for (std::size_t t = 0; t < threadSlots; ++t)
        if (count[t] > 0)
            byPid.emplace_back(pids.slotOf(pidOf(p, p.processOfThread(ThreadIndex(std::ptrdiff_t(t) - 1)))), t);
    std::sort(byPid.begin(), byPid.end());
    std::vector<std::size_t> next(threadSlots, 0);
    std::size_t total = 0;
    for (const auto& [pid, t] : byPid) {
        next[t] = total;
        total += count[t];
    }
    ValuesByPid grouped;
    grouped.values.resize(total);
    c.forEachApiCall([&](std::size_t i) {
        if (c.apiKind[i] & ApiLaunch)
            grouped.values[next[slotOf(i)]++] = p.cudaApi.start[i];
    });
    std::size_t read = 0, write = 0;
    for (std::size_t k = 0; k < byPid.size(); ++k) {
        const auto first = grouped.values.begin() + std::ptrdiff_t(read);
        read += count[byPid[k].second];
        std::sort(first, grouped.values.begin() + std::ptrdiff_t(read));
        for (std::size_t i = std::size_t(first - grouped.values.begin()) + 1; i < read; ++i)
            grouped.values[write++] = grouped.values[i] - grouped.values[i - 1];
        if (k + 1 == byPid.size() || byPid[k + 1].first != byPid[k].first)
            grouped.ends.emplace_back(pids.pids()[byPid[k].first], write);
    }
    grouped.values.resize(write);
    return grouped;
}

} // namespace

Percentiles percentilesOf(std::vector<TimeNs> values)
{
    Percentiles p;
    if (values.empty())
        return p;
    for (const TimeNs v : values)
        p.add(v);
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
        const TimeNs low = *at;
        const TimeNs high = lo + 1 < values.size() ? *std::min_element(at + 1, values.end()) : low;
        return double(low) + (double(high) - double(low)) * (rank - double(lo));
    };
    p.p50 = percentile(50);
    p.p90 = percentile(90);
    p.p99 = percentile(99);
    return p;
}

KernelTiming computeKernelTiming(const AnalysisContext& c, std::size_t longestCount, const JobContext& job)
{
    KernelTiming out;
    const Profile& p = *c.profile;
    out.longest = longestKernels(c, longestCount);

    std::map<int, LaunchPercentileRow> rows;
    kernelDurations(c).measure([&](int pid, const Percentiles& measured) { rows[pid].kernelDurations = measured; });
    if (job.isCancelled())
        return out;
    launchIntervals(c).measure([&](int pid, const Percentiles& measured) { rows[pid].launchIntervals = measured; });
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
