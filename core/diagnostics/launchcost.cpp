// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/launchcost.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace nsw {

LaunchCostResult computeLaunchCost(const AnalysisContext& c, TimeNs shortKernelNs, const JobContext& job)
{
    LaunchCostResult result;
    result.shortKernelNs = shortKernelNs;
    const Profile& p = *c.profile;
    std::unordered_map<StringRef, std::size_t> rowOf;
    std::map<ProcessIndex, LaunchRateRow> processes;
    CancelPoll<> poll(job.cancelToken());
    c.forEachKernel([&](std::size_t i) {
        if (poll())
            return;
        const StringRef ref = c.kernelNameRef(i);
        auto [it, inserted] = rowOf.try_emplace(ref, result.kernels.size());
        if (inserted) {
            LaunchCostRow row;
            row.name = p.strings.at(ref);
            result.kernels.push_back(row);
        }
        LaunchCostRow& r = result.kernels[it->second];
        const TimeNs d = p.kernels.duration(i);
        r.kernels.add(d);
        const bool isShort = d < shortKernelNs;
        r.shortKernels += isShort;
        const ProcessIndex process = i < p.kernels.process.size() ? p.kernels.process[i] : kNoIndex;
        LaunchRateRow& pr = processes[process];
        ++pr.launches;
        pr.shortKernels += isShort;
        ++result.totalKernels;
        result.shortKernels += isShort;
        result.totalKernelNs += d;
        const std::int32_t api = i < p.kernels.api.size() ? p.kernels.api[i] : -1;
        if (api < 0)
            return;
        const TimeNs apiStart = p.cudaApi.start[std::size_t(api)], apiEnd = p.cudaApi.end[std::size_t(api)];
        r.launchCalls.add(apiEnd - apiStart);
        r.queue.add(std::max<TimeNs>(0, p.kernels.start[i] - apiEnd));
        pr.apiNs += apiEnd - apiStart;
        if (isShort)
            result.shortKernelApiNs += apiEnd - apiStart;
    });
    std::stable_sort(result.kernels.begin(), result.kernels.end(), [](const LaunchCostRow& a, const LaunchCostRow& b) {
        return a.kernels.total != b.kernels.total ? a.kernels.total > b.kernels.total : a.name < b.name;
    });
    for (auto& [process, row] : processes) {
        row.pid = process >= 0 ? p.processes[std::size_t(process)].pid : 0;
        row.process = process >= 0 ? p.processLabel(process) : QString();
        row.spanNs = c.windowDuration();
        result.processes.push_back(row);
    }
    std::stable_sort(result.processes.begin(), result.processes.end(),
        [](const LaunchRateRow& a, const LaunchRateRow& b) { return a.pid < b.pid; });
    return result;
}

} // namespace nsw
