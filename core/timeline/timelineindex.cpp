// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelineindex.h"

#include "core/profile/sessionclock.h"
#include "core/timeline/gaptree.h"
#include "core/timeline/laneaccess.h"
#include "core/timeline/lanequeries.h"

#include <algorithm>

namespace nsw {

TimelineIndex::TimelineIndex(ProfilePtr profile)
    : m_profile(std::move(profile))
    , m_origin(sessionClockOrigin(*m_profile))
{ }

template <typename F> decltype(auto) TimelineIndex::withLane(std::uint32_t lane, F&& f) const
{
    const TimelineLane& l = m_lanes[lane];
    return laneaccess::visit(*m_profile, l.source, m_refs.slice(l.begin, l.count),
        m_busyEnds.slice(l.busyBegin, l.count), [&](const auto& access) { return f(access, l.count); });
}

std::size_t TimelineIndex::memoryBytes() const
{
    std::size_t bytes = sizeof(*this) + m_refs.memoryBytes() + m_busyEnds.memoryBytes()
        + m_lanes.capacity() * sizeof(TimelineLane) + m_gapTrees.capacity() * sizeof(float);
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

TimelineIndex::Data TimelineIndex::data() const
{
    return { m_rows, m_lanes, m_refs, m_busyEnds, m_gapTrees, m_start, m_end, m_eventCount };
}

bool TimelineIndex::checkLayout(const Profile& profile, const std::vector<TimelineRow>& rows,
    const std::vector<TimelineLane>& lanes, std::uint64_t refs, std::uint64_t busyEnds, std::uint64_t gapTrees)
{
    std::uint64_t nextEvent = 0, nextBusy = 0;
    for (const TimelineLane& lane : lanes) {
        if (std::uint8_t(lane.source) > std::uint8_t(LaneSource::Osrt))
            return false;
        const std::uint64_t begin = lane.begin, count = lane.count;
        // Lanes follow each other through the references (a track's lanes, track after track, busy lanes last),
        // so that a reference belongs to one lane and TimelineRefCheck knows what it must name.
        if (begin < nextEvent || begin + count > refs)
            return false;
        nextEvent = begin + count;
        if (lane.source == LaneSource::GpuBusy) {
            if (lane.busyBegin < nextBusy || std::uint64_t(lane.busyBegin) + count > busyEnds)
                return false;
            nextBusy = std::uint64_t(lane.busyBegin) + count;
        }
        if (std::uint64_t(lane.treeBegin) + gaptree::size(lane.count) > gapTrees)
            return false;
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const TimelineRow& row = rows[i];
        if (std::uint8_t(row.kind) > std::uint8_t(TrackKind::Osrt)) // no counter rows: those come from elsewhere
            return false;
        if (row.level < 0 || row.level > 2 || row.parent < -1 || (row.parent >= 0 && std::size_t(row.parent) >= i))
            return false;
        if (std::uint64_t(row.firstLane) + row.laneCount > lanes.size())
            return false;
        if (row.thread != kNoIndex && (row.thread < 0 || std::size_t(row.thread) >= profile.threads.size()))
            return false;
    }
    return true;
}

std::shared_ptr<const TimelineIndex> TimelineIndex::fromData(ProfilePtr profile, Data data)
{
    if (!profile
        || !checkLayout(*profile, data.rows, data.lanes, data.refs.size(), data.busyEnds.size(), data.gapTrees.size()))
        return nullptr;
    auto index = std::make_shared<TimelineIndex>(std::move(profile));
    index->m_rows = std::move(data.rows);
    index->m_lanes = std::move(data.lanes);
    index->m_refs = std::move(data.refs);
    index->m_busyEnds = std::move(data.busyEnds);
    index->m_gapTrees = std::move(data.gapTrees);
    index->m_start = data.start;
    index->m_end = data.end;
    index->m_eventCount = std::size_t(data.eventCount);
    return index;
}

std::shared_ptr<const TimelineIndex> TimelineIndex::reboundTo(ProfilePtr profile) const
{
    return fromData(std::move(profile), data());
}

TimelineRefCheck::TableRows TimelineRefCheck::rowsOf(const Profile& p)
{
    const auto rows = [](const auto& table) { return std::uint64_t(std::min(table.start.size(), table.end.size())); };
    return { rows(p.kernels), rows(p.memops), rows(p.graphLaunches), rows(p.cudaApi),
        std::min<std::uint64_t>(rows(p.nvtx), p.nvtx.eventType.size()), rows(p.osrt) };
}

TimelineRefCheck::TimelineRefCheck(const std::vector<TimelineLane>& lanes, Of of, const TableRows& rows)
    : m_rows(rows)
{
    for (const TimelineLane& lane : lanes) {
        if (lane.count == 0 || (of == Of::BusyEnds && lane.source != LaneSource::GpuBusy))
            continue;
        const std::uint64_t begin = of == Of::BusyEnds ? lane.busyBegin : lane.begin;
        m_segments.push_back({ begin, begin + lane.count, lane.source });
    }
    std::sort(
        m_segments.begin(), m_segments.end(), [](const Segment& a, const Segment& b) { return a.begin < b.begin; });
    // Rows past what a code can hold are never indexed (the builder stops there).
    for (std::size_t tag = 0; tag < 3; ++tag)
        m_rows[tag] = std::min<std::uint64_t>(m_rows[tag], gpuop::kMaxRows);
}

bool TimelineRefCheck::operator()(std::uint64_t first, const std::uint32_t* values, std::size_t count) const
{
    const std::uint64_t last = first + count;
    // The first segment that ends after `first` (segments do not overlap: their ends are sorted too).
    auto s = std::upper_bound(m_segments.begin(), m_segments.end(), first,
        [](std::uint64_t position, const Segment& segment) { return position < segment.end; });
    for (; s != m_segments.end() && s->begin < last; ++s) {
        const std::uint64_t from = std::max(s->begin, first), to = std::min(s->end, last);
        const std::uint32_t* v = values + (from - first);
        const std::size_t n = std::size_t(to - from);
        if (s->source == LaneSource::GpuOps || s->source == LaneSource::GpuBusy) {
            for (std::size_t k = 0; k < n; ++k) {
                const std::uint32_t tag = v[k] >> 30;
                if (tag > 2 || (v[k] & gpuop::kRowMask) >= m_rows[tag])
                    return false;
            }
        } else {
            const std::uint64_t rows = m_rows[s->source == LaneSource::CudaApi ? 3
                    : s->source == LaneSource::Nvtx                            ? 4
                                                                               : 5];
            for (std::size_t k = 0; k < n; ++k)
                if (v[k] >= rows)
                    return false;
        }
    }
    return true;
}

} // namespace nsw
