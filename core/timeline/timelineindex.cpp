// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelineindex.h"

#include "core/profile/sessionclock.h"
#include "core/timeline/laneaccess.h"
#include "core/timeline/lanequeries.h"

namespace nsw {

TimelineIndex::TimelineIndex(ProfilePtr profile)
    : m_profile(std::move(profile))
    , m_origin(sessionClockOrigin(*m_profile))
{ }

template <typename F> decltype(auto) TimelineIndex::withLane(std::uint32_t lane, F&& f) const
{
    const TimelineLane& l = m_lanes[lane];
    return laneaccess::visit(*m_profile, l.source, m_refs.data() + l.begin, m_busyEnds.data() + l.busyBegin,
        [&](const auto& access) { return f(access, l.count); });
}

std::size_t TimelineIndex::memoryBytes() const
{
    std::size_t bytes = sizeof(*this) + m_refs.capacity() * sizeof(std::uint32_t)
        + m_busyEnds.capacity() * sizeof(std::uint32_t) + m_lanes.capacity() * sizeof(TimelineLane)
        + m_gapTrees.capacity() * sizeof(float);
    for (const TimelineRow& row : m_rows)
        bytes += sizeof(TimelineRow) + std::size_t(row.label.capacity()) * sizeof(QChar);
    return bytes;
}

TimeNs TimelineIndex::startAt(std::uint32_t lane, std::uint32_t pos) const
{
    return withLane(lane, [pos](const auto& a, std::uint32_t) { return a.start(pos); });
}

TimeNs TimelineIndex::endAt(std::uint32_t lane, std::uint32_t pos) const
{
    return withLane(lane, [pos](const auto& a, std::uint32_t) { return a.end(pos); });
}

EventRef TimelineIndex::eventAt(std::uint32_t lane, std::uint32_t pos) const
{
    const TimelineLane& l = m_lanes[lane];
    const std::uint32_t ref = m_refs[l.begin + pos];
    switch (l.source) {
    case LaneSource::GpuOps:
        return gpuop::decode(ref);
    case LaneSource::GpuBusy:
        return {};
    case LaneSource::CudaApi:
        return { EventTable::CudaApi, ref };
    case LaneSource::Nvtx:
        return { EventTable::Nvtx, ref };
    case LaneSource::Osrt:
        return { EventTable::Osrt, ref };
    }
    return {};
}

void TimelineIndex::spans(
    std::uint32_t lane, TimeNs t0, TimeNs t1, double nsPerPixel, std::vector<TimelineSpan>& out) const
{
    const float* tree = m_gapTrees.data() + m_lanes[lane].treeBegin;
    withLane(lane, [&](const auto& a, std::uint32_t n) {
        lanequeries::spans(a, n, tree, t0, t1, std::max(nsPerPixel, 1e-9), out);
    });
}

std::int64_t TimelineIndex::hitTest(std::uint32_t lane, TimeNs t, TimeNs tolerance) const
{
    return withLane(lane, [&](const auto& a, std::uint32_t n) { return lanequeries::hitTest(a, n, t, tolerance); });
}

std::uint32_t TimelineIndex::firstEndingAtOrAfter(std::uint32_t lane, TimeNs t) const
{
    return withLane(lane, [&](const auto& a, std::uint32_t n) { return lanequeries::firstEndingAtOrAfter(a, n, t); });
}

} // namespace nsw
