// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/perprocess.h"

#include "core/util/flatindex.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace nsw {

namespace {

int pidOfProcess(const Profile& p, ProcessIndex process)
{
    return process >= 0 ? p.processes[std::size_t(process)].pid : 0;
}

using NameKey = std::tuple<int, QString, QString>; ///< pid, domain, name

/// Durations keyed by (pid, domain, name) as integers: millions of rows cost a hash lookup each instead of QString
/// comparisons down a map. Names are resolved once per key, and the keys merged by text afterwards (domains of
/// different processes may share a name).
class RefDurations
{
public:
    NamedDurations& operator()(int pid, std::int32_t domain, StringRef name)
    {
        const auto i = std::size_t(m_keys.index({ pid, domain, name }));
        if (i == m_rows.size())
            m_rows.emplace_back();
        return m_rows[i];
    }
    /// Adds every row to @p byPid under its pid and, when @p all is given, to @p all under pid 0.
    void mergeInto(const Profile& p, std::map<NameKey, NamedDurations>& byPid,
        std::map<NameKey, NamedDurations>* all = nullptr) const
    {
        for (std::size_t i = 0; i < m_rows.size(); ++i) {
            const Key& key = m_keys.keys()[i];
            const QString& domain = p.nvtxDomainName(key.domain); // -1: the default domain, or not NVTX
            const QString& name = p.strings.at(key.name);
            byPid[{ key.pid, domain, name }].add(m_rows[i]);
            if (all)
                (*all)[{ 0, domain, name }].add(m_rows[i]);
        }
    }

private:
    struct Key
    {
        int pid;
        std::int32_t domain;
        StringRef name;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash
    {
        std::size_t operator()(const Key& k) const noexcept
        {
            const std::uint64_t a = (std::uint64_t(std::uint32_t(k.pid)) << 32) | std::uint32_t(k.name);
            return std::size_t(
                (a ^ (std::uint64_t(std::uint32_t(k.domain)) * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull >> 17);
        }
    };
    FlatIndex<Key, KeyHash> m_keys;
    std::vector<NamedDurations> m_rows; ///< by key index
};

/// Keyed rows (pid, domain, name) into a vector, by pid then total descending (pid 0 first when aggregated).
std::vector<NamedDurations> flatten(std::map<NameKey, NamedDurations>& rows)
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
        return a.total != b.total ? a.total > b.total : a.name < b.name;
    });
    return out;
}

} // namespace

PerProcessResult computePerProcess(const AnalysisContext& c, const JobContext& job)
{
    PerProcessResult result;
    const Profile& p = *c.profile;
    std::map<int, ProcessBreakdownRow> processes;
    // The row of each process index (slot 0: no process), made on first use: a map lookup per process, not per row.
    std::vector<ProcessBreakdownRow*> rowOfProcess(p.processes.size() + 1, nullptr);
    auto processRow = [&](ProcessIndex process) -> ProcessBreakdownRow& {
        ProcessBreakdownRow*& slot = rowOfProcess[std::size_t(process + 1)];
        if (!slot) {
            const int pid = pidOfProcess(p, process);
            slot = &processes[pid];
            if (slot->process.isEmpty() && process >= 0) {
                slot->pid = pid;
                slot->process = p.processLabel(process);
            }
        }
        return *slot;
    };
    auto processOf = [&](ProcessIndex process) {
        return process >= 0 && std::size_t(process) < p.processes.size() ? process : kNoIndex;
    };
    std::map<NameKey, NamedDurations> kernelsByPid, kernels, syncByPid, nvtxByPid, nvtx;
    RefDurations kernelRefs, syncRefs, nvtxRefs;

    CancelPoll<> poll(job.cancelToken());
    c.forEachKernel([&](std::size_t i) {
        if (poll())
            return;
        const ProcessIndex process = processOf(i < p.kernels.process.size() ? p.kernels.process[i] : kNoIndex);
        ProcessBreakdownRow& r = processRow(process);
        r.kernels.add(p.kernels.duration(i));
        kernelRefs(pidOfProcess(p, process), -1, c.kernelNameRef(i)).add(p.kernels.duration(i));
    });
    kernelRefs.mergeInto(p, kernelsByPid, &kernels);
    c.forEachMemOp([&](std::size_t i) {
        ProcessBreakdownRow& r = processRow(processOf(i < p.memops.process.size() ? p.memops.process[i] : kNoIndex));
        r.memOps.add(p.memops.duration(i));
    });
    c.forEachApiCall([&](std::size_t i) {
        if (poll())
            return;
        const ProcessIndex process = processOf(p.processOfThread(p.cudaApi.thread[i]));
        ProcessBreakdownRow& r = processRow(process);
        const TimeNs d = p.cudaApi.end[i] - p.cudaApi.start[i];
        r.apiCalls.add(d);
        if (!(c.apiKind[i] & (ApiSync | ApiWait)))
            return;
        r.syncCalls.add(d);
        syncRefs(pidOfProcess(p, process), -1, p.cudaApi.name[i]).add(d);
    });
    syncRefs.mergeInto(p, syncByPid);
    c.zones->nvtx.forEachOverlapping(c.focus, p.nvtx.start, p.nvtx.end, [&](std::size_t i) {
        if (poll() || !NvtxTable::isRange(p.nvtx.eventType[i]) || p.nvtx.end[i] == kNoTime)
            return;
        const ProcessIndex process = processOf(p.processOfThread(p.nvtx.thread[i]));
        ProcessBreakdownRow& r = processRow(process);
        const TimeNs d = p.nvtx.end[i] - p.nvtx.start[i];
        r.nvtxRanges.add(d);
        nvtxRefs(pidOfProcess(p, process), p.nvtx.domain[i], p.nvtx.name[i]).add(d);
    });
    nvtxRefs.mergeInto(p, nvtxByPid, &nvtx);
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
