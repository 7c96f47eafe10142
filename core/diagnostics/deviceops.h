// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/analysiscontext.h"
#include "core/util/hugepages.h"

#include <algorithm>
#include <span>
#include <vector>

namespace nsw {

/// The position of device @p key in @p c's devices. Every device key of a context is one of its devices, in ascending
/// order; few devices, so a search per operation is cheap.
inline std::size_t deviceSlot(const AnalysisContext& c, int key)
{
    return std::size_t(std::ranges::lower_bound(c.devices, key, {}, &DiagnosticsDevice::key) - c.devices.begin());
}

/// A kernel or memory operation of one device: 24 bytes (an analysis holds a device's millions of them, twice while
/// it sorts them).
struct DeviceOp
{
    TimeNs start;
    TimeNs end;
    std::uint32_t row : 31; ///< in the kernel or memory operation table (a table holds fewer than 2^31 rows)
    std::uint32_t memory : 1;
    std::uint32_t stream;
};
static_assert(sizeof(DeviceOp) == 24);

/// The operations that overlap the focus, one device at a time: each device's kernels then its memory operations
/// in table order. One buffer serves every device (a few devices of millions of operations each: the pages are
/// faulted in once, not once per device), so an analysis holds one device's operations, never every device's.
class DeviceOps
{
public:
    explicit DeviceOps(const AnalysisContext& c)
        : m_c(c)
    {
        std::vector<std::size_t> counts(c.devices.size(), 0);
        c.forEachKernel([&](std::size_t i) { ++counts[deviceSlot(c, c.kernelDevice[i])]; });
        c.forEachMemOp([&](std::size_t i) { ++counts[deviceSlot(c, c.memOpDevice[i])]; });
        reserveHugePages(m_ops, counts.empty() ? 0 : *std::ranges::max_element(counts));
    }

    /// The operations of @p device (a DiagnosticsDevice::key), valid until the next call.
    std::span<DeviceOp> of(int device)
    {
        const Profile& p = *m_c.profile;
        m_ops.clear();
        m_c.forEachKernel([&](std::size_t i) {
            if (m_c.kernelDevice[i] == device)
                m_ops.push_back({ p.kernels.start[i], p.kernels.end[i], std::uint32_t(i), false,
                    i < p.kernels.stream.size() ? p.kernels.stream[i] : 0u });
        });
        m_c.forEachMemOp([&](std::size_t i) {
            if (m_c.memOpDevice[i] == device)
                m_ops.push_back({ p.memops.start[i], p.memops.end[i], std::uint32_t(i), true,
                    i < p.memops.stream.size() ? p.memops.stream[i] : 0u });
        });
        return m_ops;
    }

private:
    const AnalysisContext& m_c;
    std::vector<DeviceOp> m_ops;
};

} // namespace nsw
