// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/timeline/timelineindex.h"

#include <array>
#include <map>
#include <unordered_map>
#include <vector>

namespace nsw {

/// Builds a TimelineIndex: gathers each table's rows into tracks (a stream, or one kind of event of a thread),
/// sorts and packs each track into lanes, adds the GPU busy unions, then lays the rows out.
class TimelineIndexBuilder
{
public:
    TimelineIndexBuilder(const ProfilePtr& profile, const JobContext& job);
    /// Null when cancelled.
    std::shared_ptr<TimelineIndex> build();

private:
    static constexpr int kThreadKinds = 5; ///< CUDA API, NVTX push/pop, NVTX start/end, NVTX marks, OS runtime
    struct Track
    {
        TrackKind kind = TrackKind::Stream;
        LaneSource source = LaneSource::GpuOps;
        int gpu = 0; ///< GPU tracks: the GPU group key
        ProcessIndex process = kNoIndex;
        std::uint32_t stream = 0;
        ThreadIndex thread = kNoIndex;
        /// Its events' slice of the index's references: counted first, then filled in place and packed into lanes
        /// there by finishTrack(), so that no track holds a growing copy of its events.
        std::uint32_t begin = 0;
        std::uint32_t firstLane = 0;
        std::uint32_t laneCount = 0;
        std::uint64_t events = 0;
    };

    /// Calls @p place(track, reference) for every event of every table, creating the tracks on the way.
    template <typename Place> bool gather(Place&& place, const JobContext& job);
    template <typename Place>
    bool gatherGpuTable(const GpuActivityColumns& table, EventTable kind, Place& place, const JobContext& job);
    template <typename Place> bool gatherCudaApi(Place& place, const JobContext& job);
    template <typename Place> bool gatherNvtx(Place& place, const JobContext& job);
    template <typename Place> bool gatherOsrt(Place& place, const JobContext& job);
    /// Counts each track's events, gives each its slice of the index's references (in track order) and fills it.
    bool gatherIntoSlices(const JobContext& job);
    int gpuKey(ProcessIndex process, int device);
    int gpuTrack(ProcessIndex process, int device, std::uint32_t stream);
    int threadTrack(ThreadIndex thread, TrackKind kind);
    bool finishTracks(const JobContext& job);
    void finishTrack(Track& track);
    void packLanes(const Track& track, const std::vector<std::uint32_t>& laneOf, std::uint32_t lanes);
    bool addBusyTracks(const JobContext& job);
    void addBusyTrack(int gpu, const std::vector<int>& streams);
    void buildGapTrees();
    void layOutRows();
    void layOutGpu(int gpu, const std::vector<int>& tracks);
    /// A process's threads, each with its tracks; @p sampled adds threads that have only CPU samples (their rows
    /// carry the Samples pane's marks).
    void layOutProcess(ProcessIndex process, const std::vector<int>& tracks, const std::vector<ThreadIndex>& sampled);
    int addRow(const QString& label, TrackKind kind, int parent, int level, const Track* track = nullptr);
    void computeExtent();

    ProfilePtr m_profilePtr;
    const Profile& m_profile;
    JobContext m_job;
    std::shared_ptr<TimelineIndex> m_index;
    /// The index's references, busy ends and gap trees while they are built (then moved into it).
    std::vector<std::uint32_t> m_refs;
    std::vector<std::uint32_t> m_busyEnds;
    std::vector<float> m_gapTrees;
    std::vector<Track> m_tracks;
    std::unordered_map<std::uint64_t, int> m_gpuTracks; ///< (process, device, stream) -> track
    std::map<int, QString> m_gpuLabels; ///< GPU group key -> label
    std::vector<std::array<int, kThreadKinds>> m_threadTracks; ///< by thread + 1 (0: unknown thread)
};

} // namespace nsw
