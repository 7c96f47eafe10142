// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/timeline/timelineindex.h"

#include <algorithm>
#include <cstdint>

/// Read access to the events of one lane by position, one small struct per lane source so that the hot loops
/// (queries, sorting, packing) are compiled per source instead of switching per event. Refs reads the lane's row
/// references by position: a pointer into the builder's plain array, or a slice of the index's PackedRows.
namespace nsw::laneaccess {

/// Start and end columns of the GPU tables, indexed by the gpuop tag.
struct GpuColumns
{
    const TimeColumn* start[4] = {};
    const TimeColumn* end[4] = {};
    explicit GpuColumns(const Profile& p)
    {
        const GpuActivityColumns* tables[4] = { &p.kernels, &p.memops, &p.graphLaunches, &p.kernels };
        for (int i = 0; i < 4; ++i) {
            start[i] = &tables[i]->start;
            end[i] = &tables[i]->end;
        }
    }
    TimeNs startOf(std::uint32_t code) const { return (*start[code >> 30])[code & gpuop::kRowMask]; }
    TimeNs endOf(std::uint32_t code) const { return (*end[code >> 30])[code & gpuop::kRowMask]; }
};

template <typename Refs> struct GpuOps
{
    Refs refs;
    GpuColumns columns;
    TimeNs start(std::uint32_t k) const { return columns.startOf(refs[k]); }
    TimeNs end(std::uint32_t k) const { return columns.endOf(refs[k]); }
};

template <typename Refs> struct GpuBusy
{
    Refs refs;
    Refs ends;
    GpuColumns columns;
    TimeNs start(std::uint32_t k) const { return columns.startOf(refs[k]); }
    TimeNs end(std::uint32_t k) const { return columns.endOf(ends[k]); }
};

/// CUDA API and OS runtime calls: plain start/end columns.
template <typename Refs> struct Plain
{
    Refs refs;
    const TimeColumn* starts;
    const TimeColumn* ends;
    TimeNs start(std::uint32_t k) const { return (*starts)[refs[k]]; }
    TimeNs end(std::uint32_t k) const { return (*ends)[refs[k]]; }
};

/// NVTX: unterminated ranges end at the table's last timestamp, marks where they start (as eventEnd()).
template <typename Refs> struct Nvtx
{
    Refs refs;
    const NvtxTable* table;
    TimeNs start(std::uint32_t k) const { return table->start[refs[k]]; }
    TimeNs end(std::uint32_t k) const
    {
        const std::uint32_t r = refs[k];
        const TimeNs e = table->end[r];
        if (e != kNoTime)
            return e;
        return NvtxTable::isRange(table->eventType[r]) ? std::max(table->start[r], table->maxTimestamp)
                                                       : table->start[r];
    }
};

} // namespace nsw::laneaccess

namespace nsw::laneaccess {

/// Calls @p f with the accessor of a lane of @p source over @p refs (and, for GPU busy lanes, @p busyEnds).
template <typename Refs, typename F>
decltype(auto) visit(const Profile& p, LaneSource source, Refs refs, Refs busyEnds, F&& f)
{
    switch (source) {
    case LaneSource::GpuOps:
        return f(GpuOps<Refs> { refs, GpuColumns(p) });
    case LaneSource::GpuBusy:
        return f(GpuBusy<Refs> { refs, busyEnds, GpuColumns(p) });
    case LaneSource::CudaApi:
        return f(Plain<Refs> { refs, &p.cudaApi.start, &p.cudaApi.end });
    case LaneSource::Osrt:
        return f(Plain<Refs> { refs, &p.osrt.start, &p.osrt.end });
    case LaneSource::Nvtx:
        break;
    }
    return f(Nvtx<Refs> { refs, &p.nvtx });
}

} // namespace nsw::laneaccess
