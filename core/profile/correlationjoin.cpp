// SPDX-License-Identifier: GPL-3.0-or-later
#include "correlationjoin.h"

#include <algorithm>

namespace nsw {

namespace {

/// correlationId -> API row for one process: a dense array when ids are compact (the usual case), else a
/// sorted list.
struct ProcessLookup
{
    std::uint32_t minId = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t maxId = 0;
    std::size_t count = 0;
    bool dense = false;
    std::vector<std::int32_t> denseRows;
    std::vector<std::pair<std::uint32_t, std::int32_t>> sortedRows;

    void prepare()
    {
        if (count == 0)
            return;
        const std::uint64_t range = std::uint64_t(maxId) - minId + 1;
        dense = range <= 4 * count + 1024;
        if (dense)
            denseRows.assign(std::size_t(range), -1);
        else
            sortedRows.reserve(count);
    }
    void add(std::uint32_t id, std::int32_t row)
    {
        if (dense) {
            std::int32_t& slot = denseRows[id - minId];
            if (slot < 0)
                slot = row;
        } else {
            sortedRows.emplace_back(id, row);
        }
    }
    void finish()
    {
        if (!dense)
            std::stable_sort(
                sortedRows.begin(), sortedRows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    }
    std::int32_t find(std::uint32_t id) const
    {
        if (count == 0 || id < minId || id > maxId)
            return -1;
        if (dense)
            return denseRows[id - minId];
        const auto it = std::lower_bound(
            sortedRows.begin(), sortedRows.end(), id, [](const auto& e, std::uint32_t v) { return e.first < v; });
        return it != sortedRows.end() && it->first == id ? it->second : -1;
    }
};

/// Fills rows.api. Reads the other columns through const access only: in a staged load they are shared with the
/// first stage's profile, and a write would copy them (Column).
std::size_t joinTable(GpuActivityColumns& rows, const std::vector<ProcessLookup>& lookups, const CancelToken& cancel)
{
    const GpuActivityColumns& in = rows;
    if (in.process.size() != in.size() || in.correlation.size() != in.size()) {
        rows.api.clear(); // placement columns were not loaded
        return 0;
    }
    std::vector<std::int32_t> api(in.size(), -1);
    std::size_t matched = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if ((i & 0xFFFF) == 0 && cancel.isCancelled())
            break;
        const ProcessIndex p = in.process[i];
        if (p < 0 || std::size_t(p) >= lookups.size())
            continue;
        api[i] = lookups[std::size_t(p)].find(in.correlation[i]);
        matched += api[i] >= 0;
    }
    rows.api = Column<std::int32_t>(std::move(api));
    return matched;
}

} // namespace

std::size_t joinCorrelations(Profile& profile, const CancelToken& cancel)
{
    const CudaApiTable& api = profile.cudaApi;
    std::vector<ProcessLookup> lookups(profile.processes.size());
    auto processOf = [&](std::size_t row) { return profile.processOfThread(api.thread[row]); };
    for (std::size_t i = 0; i < api.size(); ++i) {
        const ProcessIndex p = processOf(i);
        if (p < 0)
            continue;
        ProcessLookup& l = lookups[std::size_t(p)];
        l.minId = std::min(l.minId, api.correlation[i]);
        l.maxId = std::max(l.maxId, api.correlation[i]);
        ++l.count;
    }
    if (cancel.isCancelled())
        return 0;
    for (ProcessLookup& l : lookups)
        l.prepare();
    for (std::size_t i = 0; i < api.size(); ++i) {
        const ProcessIndex p = processOf(i);
        if (p >= 0)
            lookups[std::size_t(p)].add(api.correlation[i], std::int32_t(i));
    }
    if (cancel.isCancelled())
        return 0;
    for (ProcessLookup& l : lookups)
        l.finish();
    return joinTable(profile.kernels, lookups, cancel) + joinTable(profile.memops, lookups, cancel)
        + joinTable(profile.graphLaunches, lookups, cancel);
}

} // namespace nsw
