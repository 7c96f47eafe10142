// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/kerneltiming.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace nsw {

namespace {

std::vector<LongestKernel> longestKernels(const AnalysisContext& c, std::size_t count)
{
    const KernelTable& k = c.profile->kernels;
    std::vector<std::uint32_t> rows;
    c.forEachKernel([&](std::size_t i) { rows.push_back(std::uint32_t(i)); });
    const auto longer = [&](std::uint32_t a, std::uint32_t b) {
        return std::make_tuple(-k.duration(a), k.start[a], a) < std::make_tuple(-k.duration(b), k.start[b], b);
    };
    const std::size_t n = std::min(count, rows.size());
    std::partial_sort(rows.begin(), rows.begin() + std::ptrdiff_t(n), rows.end(), longer);
    std::vector<LongestKernel> out;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t row = rows[i];
        const ProcessIndex process = row < k.process.size() ? k.process[row] : kNoIndex;
        out.push_back({ row, c.kernelDevice[row], row < k.stream.size() ? std::int64_t(k.stream[row]) : 0,
            process >= 0 ? c.profile->processes[std::size_t(process)].pid : 0, k.start[row], k.end[row],
            c.profile->strings.at(c.kernelNameRef(row)) });
    }
    return out;
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

    std::map<int, std::vector<TimeNs>> durations; // by pid; 0 gathers all
    c.forEachKernel([&](std::size_t i) {
        const ProcessIndex process = i < p.kernels.process.size() ? p.kernels.process[i] : kNoIndex;
        const int pid = process >= 0 ? p.processes[std::size_t(process)].pid : -1;
        durations[0].push_back(p.kernels.duration(i));
        durations[pid].push_back(p.kernels.duration(i));
    });
    std::map<ThreadIndex, std::vector<TimeNs>> launchStarts;
    c.forEachApiCall([&](std::size_t i) {
        if (c.apiKind[i] & ApiLaunch)
            launchStarts[p.cudaApi.thread[i]].push_back(p.cudaApi.start[i]);
    });
    std::map<int, std::vector<TimeNs>> intervals;
    for (auto& [thread, starts] : launchStarts) {
        std::sort(starts.begin(), starts.end());
        const ProcessIndex process = p.processOfThread(thread);
        const int pid = process >= 0 ? p.processes[std::size_t(process)].pid : -1;
        for (std::size_t i = 1; i < starts.size(); ++i) {
            intervals[0].push_back(starts[i] - starts[i - 1]);
            intervals[pid].push_back(starts[i] - starts[i - 1]);
        }
    }
    if (job.isCancelled())
        return out;
    std::map<int, LaunchPercentileRow> rows;
    for (auto& [pid, values] : durations)
        rows[pid].kernelDurations = percentilesOf(std::move(values));
    for (auto& [pid, values] : intervals)
        rows[pid].launchIntervals = percentilesOf(std::move(values));
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
