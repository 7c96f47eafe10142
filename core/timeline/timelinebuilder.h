// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/jobcontext.h"
#include "core/timeline/timelineindex.h"
#include "core/util/hugeallocator.h"

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
        /// While gathering; moved into the index's lanes by finishTrack(). Tracks of millions of events grow in huge
        /// pages: their doublings would otherwise fault in twice their size 4 KiB at a time.
        std::vector<std::uint32_t, HugeAllocator<std::uint32_t>> refs;
        std::uint32_t firstLane = 0;
        std::uint32_t laneCount = 0;
        std::uint64_t events = 0;
    };

    bool gatherGpuTable(const GpuActivityColumns& table, EventTable kind, const JobContext& job);
    bool gatherCudaApi(const JobContext& job);
    bool gatherNvtx(const JobContext& job);
    bool gatherOsrt(const JobContext& job);
    int gpuKey(ProcessIndex process, int device);
    int gpuTrack(ProcessIndex process, int device, std::uint32_t stream);
    int threadTrack(ThreadIndex thread, TrackKind kind);
    bool finishTracks(const JobContext& job);
    void finishTrack(Track& track);
    void appendLanes(const Track& track, const std::vector<std::uint32_t>& laneOf, std::uint32_t lanes);
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
    std::vector<Track> m_tracks;
    std::unordered_map<std::uint64_t, int> m_gpuTracks; ///< (process, device, stream) -> track
    std::map<std::int64_t, int> m_gpuKeys; ///< (process, device) -> GPU group key
    std::map<int, QString> m_gpuLabels; ///< GPU group key -> label
    std::vector<std::array<int, kThreadKinds>> m_threadTracks; ///< by thread + 1 (0: unknown thread)
};

} // namespace nsw
