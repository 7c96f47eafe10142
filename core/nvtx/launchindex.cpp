// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchindex.h"

#include "core/util/hugepages.h"

#include <algorithm>
#include <span>

namespace nsw {

namespace {
/// Turns per-bucket counts (at index + 1) into bucket start offsets.
void prefixSum(std::vector<std::uint32_t>& offsets)
{
    for (std::size_t i = 0; i + 1 < offsets.size(); ++i)
        offsets[i + 1] += offsets[i];
}

/// Sorts @p rows by their start (then row) through keys read in one pass: comparing decoded TimeColumn values cost more
/// than the sort itself, and CUDA API rows come almost, not quite, in start order.
void sortByStart(
    std::span<std::uint32_t> rows, const TimeColumn& start, std::vector<std::pair<TimeNs, std::uint32_t>>& keys)
{
    keys.resize(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        keys[i] = { start[rows[i]], rows[i] };
    if (std::is_sorted(keys.begin(), keys.end()))
        return;
    std::sort(keys.begin(), keys.end());
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = keys[i].second;
}
} // namespace

LaunchIndex::LaunchIndex(const Profile& p)
    : m_kernelCount(std::uint32_t(p.kernels.size()))
{
    const KernelTable& k = p.kernels;
    const MemOpTable& m = p.memops;
    const CudaApiTable& api = p.cudaApi;

    std::vector<std::uint32_t> opBegin;
    reserveHugePages(opBegin, api.size() + 1);
    opBegin.assign(api.size() + 1, 0);
    for (std::size_t i = 0; i < k.size(); ++i)
        if (k.api[i] >= 0)
            ++opBegin[std::size_t(k.api[i]) + 1];
    for (std::size_t i = 0; i < m.size(); ++i)
        if (m.api[i] >= 0)
            ++opBegin[std::size_t(m.api[i]) + 1];
    prefixSum(opBegin);
    std::vector<std::uint32_t> ops;
    reserveHugePages(ops, opBegin.back());
    ops.resize(opBegin.back());
    // Each row's begin serves as its fill cursor, so no second array as long as the API table; once every row is
    // filled it holds the next row's begin, and a shift by one restores the begins.
    for (std::size_t i = 0; i < k.size(); ++i)
        if (k.api[i] >= 0)
            ops[opBegin[std::size_t(k.api[i])]++] = std::uint32_t(i);
    for (std::size_t i = 0; i < m.size(); ++i)
        if (m.api[i] >= 0)
            ops[opBegin[std::size_t(m.api[i])]++] = m_kernelCount + std::uint32_t(i);
    m_ops = PackedRows(std::move(ops));
    std::copy_backward(opBegin.begin(), opBegin.end() - 1, opBegin.end());
    opBegin[0] = 0;
    const auto launched = [&](std::size_t a) { return opBegin[a + 1] > opBegin[a] && api.thread[a] >= 0; };

    const std::size_t threads = p.threads.size();
    m_threadBegin.assign(threads + 1, 0);
    for (std::size_t a = 0; a < api.size(); ++a)
        if (launched(a))
            ++m_threadBegin[std::size_t(api.thread[a]) + 1];
    prefixSum(m_threadBegin);
    std::vector<std::uint32_t> launches;
    reserveHugePages(launches, m_threadBegin.back());
    launches.resize(m_threadBegin.back());
    std::vector<std::uint32_t> fill(m_threadBegin.begin(), m_threadBegin.end() - 1);
    for (std::size_t a = 0; a < api.size(); ++a)
        if (launched(a))
            launches[fill[std::size_t(api.thread[a])]++] = std::uint32_t(a);
    m_opBegin = PackedRows(std::move(opBegin));
    std::vector<std::pair<TimeNs, std::uint32_t>> keys;
    for (std::size_t t = 0; t < threads; ++t)
        sortByStart({ launches.data() + m_threadBegin[t], launches.data() + m_threadBegin[t + 1] }, api.start, keys);
    m_launches = PackedRows(std::move(launches));
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> duplicateLaunchRows(const Profile& p, const LaunchIndex& index)
{
    const CudaApiTable& api = p.cudaApi;
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> byProcess(p.processes.size());
    for (std::size_t a = 0; a < api.size(); ++a) {
        const ProcessIndex proc = p.processOfThread(api.thread[a]);
        if (proc >= 0 && index.launchedWork(a))
            byProcess[std::size_t(proc)].emplace_back(api.correlation[a], std::uint32_t(a));
    }
    for (auto& v : byProcess)
        std::sort(v.begin(), v.end());
    std::vector<std::pair<std::uint32_t, std::uint32_t>> duplicates;
    for (std::size_t a = 0; a < api.size(); ++a) {
        const ProcessIndex proc = p.processOfThread(api.thread[a]);
        if (proc < 0 || index.launchedWork(a))
            continue;
        const auto& v = byProcess[std::size_t(proc)];
        const auto it = std::lower_bound(v.begin(), v.end(), std::make_pair(api.correlation[a], std::uint32_t(0)));
        if (it != v.end() && it->first == api.correlation[a])
            duplicates.emplace_back(std::uint32_t(a), it->second);
    }
    return duplicates;
}

} // namespace nsw
