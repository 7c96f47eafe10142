// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/packedrows.h"
#include "core/profile/profile.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace nsw {

/// The GPU operations each CUDA API row launched (as joined by the loader) and the launching rows of each thread by
/// start, built once (counting sorts, no per-row allocation) for the NVTX tree and the NVTX reports. Row lists are
/// PackedRows: about 2 bytes a CUDA API row, a launch and an operation instead of 4 (issue 33: 7.5M API rows on the
/// 4M-kernel export).
class LaunchIndex
{
public:
    explicit LaunchIndex(const Profile& profile);

    /// Operations launched by API row @p row: kernel rows, then memory operations as kernelCount() + memop row.
    PackedRows::Slice ops(std::size_t row) const
    {
        return m_ops.slice(m_opBegin[row], m_opBegin[row + 1] - m_opBegin[row]);
    }
    bool launchedWork(std::size_t row) const { return m_opBegin[row + 1] > m_opBegin[row]; }
    std::uint32_t kernelCount() const { return m_kernelCount; }

    /// API rows of @p thread that launched GPU work, by start (then row).
    PackedRows::Slice threadLaunches(std::size_t thread) const
    {
        return m_launches.slice(m_threadBegin[thread], m_threadBegin[thread + 1] - m_threadBegin[thread]);
    }

private:
    std::uint32_t m_kernelCount = 0;
    PackedRows m_opBegin; ///< per API row, size rows + 1
    PackedRows m_ops; ///< by API row (kernels and memory operations: two clusters of PackedRows, ~2 bytes each)
    std::vector<std::uint32_t> m_threadBegin; ///< per thread, size threads + 1
    PackedRows m_launches;
};

/// API rows that share (process, correlationId) with the row the loader joined GPU work to (the first such row): nsys
/// joins a GPU operation to every one of them. Returns (duplicate row, joined row) pairs.
std::vector<std::pair<std::uint32_t, std::uint32_t>> duplicateLaunchRows(
    const Profile& profile, const LaunchIndex& index);

} // namespace nsw
