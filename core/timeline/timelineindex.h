// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profile/column.h"
#include "core/profile/packedrows.h"
#include "core/timeline/timelineevent.h"

#include <QString>
#include <array>
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

/// Every GPU stream, GPU busy row and thread row of a profile on one time axis. Holds a row reference per event
/// (PackedRows: 1-2 bytes for CUDA API and NVTX lanes, ~2 for GPU lanes, whose kernels and memory operations are two
/// clusters of one code space; plus ~2 per GPU-busy interval and ~0.3 for the gap trees): times and names are read
/// from the Profile it keeps alive.
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

    /// What the index holds beyond its profile, sharing its storage: the profile cache writes it and maps it back
    /// (core/profilecache), so that a reopened export does not build its timeline again.
    struct Data
    {
        std::vector<TimelineRow> rows;
        std::vector<TimelineLane> lanes;
        PackedRows refs; ///< plain when mapped from a cache file
        PackedRows busyEnds; ///< plain when mapped from a cache file
        Column<float> gapTrees;
        TimeNs start = 0;
        TimeNs end = 0;
        std::uint64_t eventCount = 0;
    };
    Data data() const;
    /// The index of @p profile made of @p data (read back from a cache), or null when @p data cannot be an index of
    /// it: rows, lanes or gap trees that point outside what they index (checkLayout()). The values of refs and
    /// busyEnds must have been checked already with TimelineRefCheck (they are read only when drawn).
    static std::shared_ptr<const TimelineIndex> fromData(ProfilePtr profile, Data data);
    /// Whether @p data's rows and lanes hold together and fit @p profile (its threads) and columns of @p refs,
    /// @p busyEnds and @p gapTrees values: every lane inside the references (event lanes one after the other, never
    /// overlapping), busy lanes one after the other inside the busy ends, gap trees inside the trees, each row's
    /// parent before it and its lanes and thread existing.
    static bool checkLayout(const Profile& profile, const std::vector<TimelineRow>& rows,
        const std::vector<TimelineLane>& lanes, std::uint64_t refs, std::uint64_t busyEnds, std::uint64_t gapTrees);
    /// The same index for @p profile, a copy of this one's profile (same rows): a cached entry opened as a report.
    std::shared_ptr<const TimelineIndex> reboundTo(ProfilePtr profile) const;

private:
    friend class TimelineIndexBuilder;
    template <typename F> decltype(auto) withLane(std::uint32_t lane, F&& f) const;

    ProfilePtr m_profile;
    std::vector<TimelineRow> m_rows;
    std::vector<TimelineLane> m_lanes;
    PackedRows m_refs; ///< per lane position: table row (GpuOps: gpuop-encoded; GpuBusy: start op)
    PackedRows m_busyEnds; ///< per busy interval: gpuop-encoded operation whose end ends it
    Column<float> m_gapTrees; ///< per lane, from treeBegin (gaptree.h)
    TimeNs m_start = 0;
    TimeNs m_end = 0;
    TimeNs m_origin = 0;
    std::size_t m_eventCount = 0;
};

using TimelineIndexPtr = std::shared_ptr<const TimelineIndex>;

/// Checks the values of an index's event references (or of its busy ends) a chunk at a time, as a cache file is
/// read before it is mapped: each value must name a row of the table its lane reads (GPU lanes: a gpuop code of a
/// kernel, memory operation or graph launch row). Lanes must have passed TimelineIndex::checkLayout().
class TimelineRefCheck
{
public:
    enum class Of
    {
        Refs,
        BusyEnds
    };
    /// Rows of the tables lanes read, in this order: kernels, memory operations, graph launches, CUDA API, NVTX,
    /// OS runtime (the rows their start and end columns hold).
    using TableRows = std::array<std::uint64_t, 6>;
    static TableRows rowsOf(const Profile& profile);

    TimelineRefCheck(const std::vector<TimelineLane>& lanes, Of of, const TableRows& rows);
    /// True when the @p count values at @p values, the first at position @p first, are all valid.
    bool operator()(std::uint64_t first, const std::uint32_t* values, std::size_t count) const;

private:
    struct Segment
    {
        std::uint64_t begin = 0;
        std::uint64_t end = 0;
        LaneSource source = LaneSource::GpuOps;
    };
    std::vector<Segment> m_segments; ///< by begin, not overlapping
    TableRows m_rows {};
};

} // namespace nsw
