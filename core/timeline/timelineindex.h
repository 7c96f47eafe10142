// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/timeline/timelineevent.h"

#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

namespace nsw {

/// Where the events of a lane come from (and so how a lane position is read).
enum class LaneSource : std::uint8_t
{
    GpuOps, ///< kernels, memory operations and graph launches of one stream (rows tagged, see gpuop)
    GpuBusy, ///< union of every stream of one GPU: intervals from the start of one operation to the end of another
    CudaApi,
    Nvtx,
    Osrt,
};

enum class TrackKind : std::uint8_t
{
    Group, ///< a GPU, a process or a thread: a header with rows under it
    GpuBusy,
    Stream,
    CudaApi,
    NvtxPushPop, ///< one lane per nesting depth
    NvtxStartEnd, ///< start/end ranges packed into as few lanes as do not overlap
    NvtxMarks,
    Osrt,
    Counter, ///< a sampled value drawn as an area chart (timelinecounters.h); no lanes
};

/// A row of the timeline, in display order. Tracks hold lanes (sub-rows, drawn one under the other); groups hold
/// the rows after them whose parent they are. Rows without events are not created.
struct TimelineRow
{
    QString label;
    TrackKind kind = TrackKind::Group;
    int parent = -1; ///< index of the group row this row is under, -1 at the top
    int level = 0; ///< 0 = GPU or process, 1 = stream or thread, 2 = a thread's tracks
    std::uint32_t firstLane = 0; ///< tracks: into TimelineIndex::lanes()
    std::uint32_t laneCount = 0;
    std::uint64_t events = 0; ///< events under this row (busy intervals not counted; counters: samples)
    std::uint32_t counter = 0; ///< Counter rows: into TimelineCounters::tracks()
    ThreadIndex thread = kNoIndex; ///< a thread's group row: the thread
    bool isGroup() const { return kind == TrackKind::Group; }
};

/// Events of one lane: sorted by start and never overlapping (each one ends before or where the next starts), so
/// both starts and ends are sorted and every query is a binary search.
struct TimelineLane
{
    LaneSource source = LaneSource::CudaApi;
    std::uint32_t begin = 0; ///< first position in the index's event references
    std::uint32_t count = 0;
    std::uint32_t busyBegin = 0; ///< GpuBusy: first position in the busy interval ends
    std::uint32_t treeBegin = 0; ///< first float of its gap tree (gaptree.h)
};

/// A filled span of a lane at one zoom: a single event at least a pixel wide (count 1), or consecutive events each
/// under a pixel and less than a pixel apart, merged so that none is skipped however narrow.
struct TimelineSpan
{
    TimeNs start = 0;
    TimeNs end = 0;
    std::uint32_t first = 0; ///< lane position of its first event
    std::uint32_t count = 0; ///< events merged into it
};

/// Every GPU stream, GPU busy row and thread row of a profile on one time axis. Holds a 4-byte row reference per
/// event (plus 4 more per GPU-busy interval and ~0.3 for the gap trees): times and names are read from the Profile
/// it keeps alive.
class TimelineIndex
{
public:
    explicit TimelineIndex(ProfilePtr profile);

    const Profile& profile() const { return *m_profile; }
    const ProfilePtr& profilePtr() const { return m_profile; }
    const std::vector<TimelineRow>& rows() const { return m_rows; }
    const std::vector<TimelineLane>& lanes() const { return m_lanes; }
    /// First start and last end over every lane (the "fit all" range); both 0 when there are no events.
    TimeNs start() const { return m_start; }
    TimeNs end() const { return m_end; }
    /// The session clock's zero (see sessionClockOrigin()).
    TimeNs origin() const { return m_origin; }
    /// Events indexed (each kernel, memory operation, graph launch, API call, NVTX event and OS call once).
    std::size_t eventCount() const { return m_eventCount; }
    /// Bytes of the index itself, beyond the Profile.
    std::size_t memoryBytes() const;

    TimeNs startAt(std::uint32_t lane, std::uint32_t pos) const;
    TimeNs endAt(std::uint32_t lane, std::uint32_t pos) const;
    /// The event at a lane position; invalid for a GPU busy interval.
    EventRef eventAt(std::uint32_t lane, std::uint32_t pos) const;

    /// The events of @p lane that overlap [t0, t1] drawn at @p nsPerPixel: events at least a pixel wide come alone,
    /// narrower ones are merged with the following narrow events less than a pixel apart (what a pixel column could
    /// not tell apart). Every overlapping event is in exactly one span; the work depends on the spans, not on the
    /// events merged. Replaces @p out's contents.
    void spans(std::uint32_t lane, TimeNs t0, TimeNs t1, double nsPerPixel, std::vector<TimelineSpan>& out) const;
    /// The lane position of the event at @p t: the one containing it (at a boundary, the one that starts there), else
    /// the nearest one within @p tolerance ns; -1 when none.
    std::int64_t hitTest(std::uint32_t lane, TimeNs t, TimeNs tolerance = 0) const;
    /// First lane position whose event ends at or after @p t (count when none).
    std::uint32_t firstEndingAtOrAfter(std::uint32_t lane, TimeNs t) const;

private:
    friend class TimelineIndexBuilder;
    template <typename F> decltype(auto) withLane(std::uint32_t lane, F&& f) const;

    ProfilePtr m_profile;
    std::vector<TimelineRow> m_rows;
    std::vector<TimelineLane> m_lanes;
    std::vector<std::uint32_t> m_refs; ///< per lane position: table row (GpuOps: gpuop-encoded; GpuBusy: start op)
    std::vector<std::uint32_t> m_busyEnds; ///< per busy interval: gpuop-encoded operation whose end ends it
    std::vector<float> m_gapTrees; ///< per lane, from treeBegin (gaptree.h)
    TimeNs m_start = 0;
    TimeNs m_end = 0;
    TimeNs m_origin = 0;
    std::size_t m_eventCount = 0;
};

using TimelineIndexPtr = std::shared_ptr<const TimelineIndex>;

} // namespace nsw
