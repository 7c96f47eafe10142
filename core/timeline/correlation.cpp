// SPDX-License-Identifier: GPL-3.0-or-later
#include "correlation.h"

namespace nsw {

std::vector<EventRef> correlatedEvents(const Profile& profile, EventRef event, std::size_t limit)
{
    std::vector<EventRef> out;
    if (const GpuActivityColumns* c = gpuActivityColumns(profile, event.table)) {
        if (event.row < c->api.size() && c->api[event.row] >= 0)
            out.push_back({ EventTable::CudaApi, std::uint32_t(c->api[event.row]) });
        return out;
    }
    if (event.table != EventTable::CudaApi || event.row >= profile.cudaApi.size())
        return out;
    // No reverse index: a linear pass over the `api` columns (a few ms for millions of kernels, once per click).
    const std::int32_t call = std::int32_t(event.row);
    for (const EventTable table : { EventTable::Kernel, EventTable::MemOp, EventTable::GraphLaunch }) {
        const Column<std::int32_t>& api = gpuActivityColumns(profile, table)->api;
        for (std::size_t r = 0; r < api.size() && out.size() < limit; ++r)
            if (api[r] == call)
                out.push_back({ table, std::uint32_t(r) });
    }
    return out;
}

} // namespace nsw
