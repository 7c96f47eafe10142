// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/perprocess.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace nsw {

void NamedDurations::add(TimeNs duration)
{
    minNs = count == 0 ? duration : std::min(minNs, duration);
    maxNs = count == 0 ? duration : std::max(maxNs, duration);
    ++count;
    totalNs += duration;
}

namespace {

int pidOfProcess(const Profile& p, ProcessIndex process)
{
    return process >= 0 ? p.processes[std::size_t(process)].pid : 0;
}

/// Keyed rows (pid, domain, name) into a vector, by pid then total descending (pid 0 first when aggregated).
std::vector<NamedDurations> flatten(std::map<std::tuple<int, QString, QString>, NamedDurations>& rows)
{
    std::vector<NamedDurations> out;
    out.reserve(rows.size());
    for (auto& [key, r] : rows) {
        r.pid = std::get<0>(key);
        r.domain = std::get<1>(key);
        r.name = std::get<2>(key);
        out.push_back(r);
    }
    std::stable_sort(out.begin(), out.end(), [](const NamedDurations& a, const NamedDurations& b) {
        if (a.pid != b.pid)
            return a.pid < b.pid;
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    return out;
}

} // namespace

PerProcessResult computePerProcess(const AnalysisContext& c, const JobContext& job)
{
    PerProcessResult result;
    if (!c.profile)
        return result;
    const Profile& p = *c.profile;
    std::map<int, ProcessBreakdownRow> processes;
    auto processRow = [&](ProcessIndex process) -> ProcessBreakdownRow& {
        const int pid = pidOfProcess(p, process);
        ProcessBreakdownRow& r = processes[pid];
        if (r.process.isEmpty() && process >= 0) {
            r.pid = pid;
            r.process = p.processLabel(process);
        }
        return r;
    };
    using Key = std::tuple<int, QString, QString>;
    std::map<Key, NamedDurations> kernelsByPid, kernels, syncByPid, nvtxByPid, nvtx;
    std::map<std::pair<int, StringRef>, NamedDurations> kernelRefs; // by ref first: names are resolved once

    CancelPoll<> poll(job.cancelToken());
    for (std::size_t i = 0; i < p.kernels.size() && !poll(); ++i) {
        if (!c.kernelInFocus[i])
            continue;
        const ProcessIndex process = i < p.kernels.process.size() ? p.kernels.process[i] : kNoIndex;
        ProcessBreakdownRow& r = processRow(process);
        ++r.kernels;
        r.kernelNs += p.kernels.duration(i);
        kernelRefs[{ pidOfProcess(p, process), c.kernelNameRef(i) }].add(p.kernels.duration(i));
    }
    for (const auto& [key, d] : kernelRefs) {
        const QString& name = p.strings.at(key.second);
        NamedDurations& byPid = kernelsByPid[{ key.first, QString(), name }];
        NamedDurations& all = kernels[{ 0, QString(), name }];
        for (NamedDurations* target : { &byPid, &all }) {
            target->minNs = target->count == 0 ? d.minNs : std::min(target->minNs, d.minNs);
            target->maxNs = target->count == 0 ? d.maxNs : std::max(target->maxNs, d.maxNs);
            target->count += d.count;
            target->totalNs += d.totalNs;
        }
    }
    for (std::size_t i = 0; i < p.memops.size(); ++i) {
        if (!c.memOpInFocus[i])
            continue;
        ProcessBreakdownRow& r = processRow(i < p.memops.process.size() ? p.memops.process[i] : kNoIndex);
        ++r.memOps;
        r.memOpNs += p.memops.duration(i);
    }
    for (std::size_t i = 0; i < p.cudaApi.size() && !poll(); ++i) {
        if (!c.apiInFocus(i))
            continue;
        const ProcessIndex process = p.processOfThread(p.cudaApi.thread[i]);
        ProcessBreakdownRow& r = processRow(process);
        const TimeNs d = p.cudaApi.end[i] - p.cudaApi.start[i];
        ++r.apiCalls;
        r.apiNs += d;
        if (!(c.apiKind[i] & (ApiSync | ApiWait)))
            continue;
        ++r.syncCalls;
        r.syncNs += d;
        syncByPid[{ pidOfProcess(p, process), QString(), p.strings.at(p.cudaApi.name[i]) }].add(d);
    }
    for (std::size_t i = 0; i < p.nvtx.size() && !poll(); ++i) {
        if (!NvtxTable::isRange(p.nvtx.eventType[i]) || p.nvtx.end[i] == kNoTime)
            continue;
        if (!c.focus.overlaps(p.nvtx.start[i], p.nvtx.end[i]))
            continue;
        const ProcessIndex process = p.processOfThread(p.nvtx.thread[i]);
        ProcessBreakdownRow& r = processRow(process);
        const TimeNs d = p.nvtx.end[i] - p.nvtx.start[i];
        ++r.nvtxRanges;
        r.nvtxNs += d;
        const QString& domain = p.nvtxDomainName(p.nvtx.domain[i]);
        const QString& name = p.strings.at(p.nvtx.name[i]);
        nvtxByPid[{ pidOfProcess(p, process), domain, name }].add(d);
        nvtx[{ 0, domain, name }].add(d);
    }
    for (auto& [pid, r] : processes) {
        r.pid = pid;
        result.processes.push_back(r);
    }
    result.kernelsByPid = flatten(kernelsByPid);
    result.kernels = flatten(kernels);
    result.syncByPid = flatten(syncByPid);
    result.nvtxByPid = flatten(nvtxByPid);
    result.nvtxRanges = flatten(nvtx);
    return result;
}

} // namespace nsw
