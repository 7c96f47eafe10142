// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinebuilder.h"

#include "core/jobs/cancel.h"
#include "core/timeline/gaptree.h"
#include "core/timeline/laneaccess.h"
#include "core/timeline/lanepacking.h"
#include "core/timeline/timelinebuild.h"
#include "core/util/hugepages.h"
#include "core/util/mergeruns.h"

#include <algorithm>
#include <climits>
#include <limits>
#include <set>
#include <tuple>

namespace nsw {

namespace {

int threadKindSlot(TrackKind kind)
{
    switch (kind) {
    case TrackKind::CudaApi:
        return 0;
    case TrackKind::NvtxPushPop:
        return 1;
    case TrackKind::NvtxStartEnd:
        return 2;
    case TrackKind::NvtxMarks:
        return 3;
    default:
        return 4;
    }
}

LaneSource sourceOf(TrackKind kind)
{
    switch (kind) {
    case TrackKind::CudaApi:
        return LaneSource::CudaApi;
    case TrackKind::Osrt:
        return LaneSource::Osrt;
    case TrackKind::GpuBusy:
        return LaneSource::GpuBusy;
    case TrackKind::Stream:
        return LaneSource::GpuOps;
    default:
        return LaneSource::Nvtx;
    }
}

QString gpuLabel(int key, const GpuInfo* gpu)
{
    if (!gpu || gpu->name.isEmpty())
        return QStringLiteral("GPU %1").arg(key);
    if (gpu->busLocation.isEmpty())
        return QStringLiteral("GPU %1 (%2)").arg(key).arg(gpu->name);
    return QStringLiteral("GPU %1 (%2 - %3)").arg(key).arg(gpu->busLocation, gpu->name);
}

std::uint64_t streamKey(ProcessIndex process, int device, std::uint32_t stream)
{
    return (std::uint64_t(std::uint32_t(process) & 0xFFFFFF) << 40) | (std::uint64_t(device & 0xFF) << 32) | stream;
}

TrackKind nvtxKind(std::uint8_t type)
{
    if (NvtxTable::isPushPop(type))
        return TrackKind::NvtxPushPop;
    if (NvtxTable::isStartEnd(type))
        return TrackKind::NvtxStartEnd;
    return TrackKind::NvtxMarks;
}

} // namespace

TimelineIndexBuilder::TimelineIndexBuilder(const ProfilePtr& profile, const JobContext& job)
    : m_profilePtr(profile)
    , m_profile(*profile)
    , m_job(job)
    , m_index(std::make_shared<TimelineIndex>(profile))
    , m_threadTracks(profile->threads.size() + 1, { -1, -1, -1, -1, -1 })
{ }

std::shared_ptr<TimelineIndex> TimelineIndexBuilder::build()
{
    if (!gatherIntoSlices(m_job.slice(0, 0.55)) || !finishTracks(m_job.slice(0.55, 0.9))
        || !addBusyTracks(m_job.slice(0.9, 1)))
        return nullptr;
    buildGapTrees();
    m_index->m_refs = PackedRows(std::move(m_refs));
    m_index->m_busyEnds = PackedRows(std::move(m_busyEnds));
    m_index->m_gapTrees = Column<float>(std::move(m_gapTrees));
    layOutRows();
    computeExtent();
    m_job.report(QStringLiteral("timeline"), 1);
    return m_index;
}

int TimelineIndexBuilder::gpuKey(ProcessIndex process, int device)
{
    // Asked once per stream track (gpuTrack() keeps those): no cache of its own.
    const int group = m_profile.gpuKey(process, device);
    if (!m_gpuLabels.count(group))
        m_gpuLabels.emplace(group, gpuLabel(group, m_profile.gpuFor(process, device)));
    return group;
}

int TimelineIndexBuilder::gpuTrack(ProcessIndex process, int device, std::uint32_t stream)
{
    const std::uint64_t key = streamKey(process, device, stream);
    if (const auto it = m_gpuTracks.find(key); it != m_gpuTracks.end())
        return it->second;
    Track t;
    t.kind = TrackKind::Stream;
    t.source = LaneSource::GpuOps;
    t.gpu = gpuKey(process, device);
    t.process = process;
    t.stream = stream;
    m_tracks.push_back(std::move(t));
    m_gpuTracks.emplace(key, int(m_tracks.size() - 1));
    return int(m_tracks.size() - 1);
}

int TimelineIndexBuilder::threadTrack(ThreadIndex thread, TrackKind kind)
{
    const std::size_t slot = std::size_t(thread < 0 ? 0 : thread + 1);
    int& track = m_threadTracks[slot][std::size_t(threadKindSlot(kind))];
    if (track >= 0)
        return track;
    Track t;
    t.kind = kind;
    t.source = sourceOf(kind);
    t.thread = thread < 0 ? kNoIndex : thread;
    t.process = m_profile.processOfThread(t.thread);
    m_tracks.push_back(std::move(t));
    track = int(m_tracks.size() - 1);
    return track;
}

template <typename Place> bool TimelineIndexBuilder::gather(Place&& place, const JobContext& job)
{
    return gatherGpuTable(m_profile.kernels, EventTable::Kernel, place, job.slice(0, 0.27))
        && gatherGpuTable(m_profile.memops, EventTable::MemOp, place, job.slice(0.27, 0.36))
        && gatherGpuTable(m_profile.graphLaunches, EventTable::GraphLaunch, place, job.slice(0.36, 0.4))
        && gatherCudaApi(place, job.slice(0.4, 0.64)) && gatherNvtx(place, job.slice(0.64, 0.91))
        && gatherOsrt(place, job.slice(0.91, 1));
}

template <typename Place>
bool TimelineIndexBuilder::gatherGpuTable(
    const GpuActivityColumns& c, EventTable kind, Place& place, const JobContext& job)
{
    const std::size_t n = std::min<std::size_t>(c.size(), gpuop::kMaxRows);
    job.report(QStringLiteral("timeline: GPU streams"), 0);
    CancelPoll<> cancelled(job.cancelToken());
    std::uint64_t lastKey = ~std::uint64_t(0);
    int last = -1;
    for (std::size_t r = 0; r < n; ++r) {
        if (cancelled())
            return false;
        const std::uint64_t key = streamKey(c.process[r], c.device[r], c.stream[r]);
        if (key != lastKey || last < 0) {
            last = gpuTrack(c.process[r], c.device[r], c.stream[r]);
            lastKey = key;
        }
        place(std::size_t(last), gpuop::encode(kind, std::uint32_t(r)));
    }
    return true;
}

template <typename Place> bool TimelineIndexBuilder::gatherCudaApi(Place& place, const JobContext& job)
{
    job.report(QStringLiteral("timeline: CUDA API"), 0);
    CancelPoll<> cancelled(job.cancelToken());
    const CudaApiTable& a = m_profile.cudaApi;
    for (std::size_t r = 0; r < a.size(); ++r) {
        if (cancelled())
            return false;
        place(std::size_t(threadTrack(a.thread[r], TrackKind::CudaApi)), std::uint32_t(r));
    }
    return true;
}

template <typename Place> bool TimelineIndexBuilder::gatherNvtx(Place& place, const JobContext& job)
{
    job.report(QStringLiteral("timeline: NVTX"), 0);
    CancelPoll<> cancelled(job.cancelToken());
    const NvtxTable& t = m_profile.nvtx;
    for (std::size_t r = 0; r < t.size(); ++r) {
        if (cancelled())
            return false;
        place(std::size_t(threadTrack(t.thread[r], nvtxKind(t.eventType[r]))), std::uint32_t(r));
    }
    return true;
}

template <typename Place> bool TimelineIndexBuilder::gatherOsrt(Place& place, const JobContext& job)
{
    job.report(QStringLiteral("timeline: OS runtime"), 0);
    CancelPoll<> cancelled(job.cancelToken());
    const OsrtTable& o = m_profile.osrt;
    for (std::size_t r = 0; r < o.size(); ++r) {
        if (cancelled())
            return false;
        place(std::size_t(threadTrack(o.thread[r], TrackKind::Osrt)), std::uint32_t(r));
    }
    return true;
}

bool TimelineIndexBuilder::gatherIntoSlices(const JobContext& job)
{
    if (!gather([this](std::size_t track, std::uint32_t) { ++m_tracks[track].events; }, job.slice(0, 0.4)))
        return false;
    std::size_t total = 0;
    for (Track& t : m_tracks) {
        t.begin = std::uint32_t(total);
        total += t.events;
    }
    // Busy intervals follow the events: at most one per GPU operation.
    std::vector<std::uint32_t>& refs = m_refs;
    reserveHugePages(refs, total + m_profile.kernels.size() + m_profile.memops.size() + m_profile.graphLaunches.size());
    refs.resize(total);
    std::vector<std::uint32_t> next(m_tracks.size());
    for (std::size_t t = 0; t < m_tracks.size(); ++t)
        next[t] = m_tracks[t].begin;
    m_index->m_eventCount = total;
    return gather([&](std::size_t track, std::uint32_t ref) { refs[next[track]++] = ref; }, job.slice(0.4, 1));
}

bool TimelineIndexBuilder::finishTracks(const JobContext& job)
{
    const std::size_t total = m_index->m_eventCount;
    std::size_t done = 0;
    for (Track& t : m_tracks) {
        if (job.isCancelled())
            return false;
        done += t.events;
        finishTrack(t);
        job.report(QStringLiteral("timeline: sorting"), total ? double(done) / double(total) : 1);
    }
    return true;
}

void TimelineIndexBuilder::finishTrack(Track& track)
{
    const auto n = std::uint32_t(track.events);
    const std::span<std::uint32_t> refs(m_refs.data() + track.begin, n);
    std::vector<std::uint32_t> laneOf;
    const std::uint32_t lanes = laneaccess::visit(
        m_profile, track.source, refs.data(), static_cast<std::uint32_t*>(nullptr), [&](const auto& access) {
            lanepacking::sortByStart(refs, access);
            return lanepacking::assignLanes(access, n, laneOf);
        });
    packLanes(track, laneOf, lanes);
    track.firstLane = std::uint32_t(m_index->m_lanes.size() - lanes);
    track.laneCount = lanes;
}

void TimelineIndexBuilder::packLanes(const Track& track, const std::vector<std::uint32_t>& laneOf, std::uint32_t lanes)
{
    std::vector<std::uint32_t> offset(lanes + 1, 0);
    for (const std::uint32_t l : laneOf)
        ++offset[l + 1];
    const std::uint32_t base = track.begin;
    for (std::uint32_t l = 0; l < lanes; ++l) {
        offset[l + 1] += offset[l];
        m_index->m_lanes.push_back({ track.source, base + offset[l], offset[l + 1] - offset[l], 0 });
    }
    if (lanes <= 1)
        return; // already in place
    std::uint32_t* refs = m_refs.data() + base;
    std::vector<std::uint32_t> sorted;
    reserveHugePages(sorted, laneOf.size());
    sorted.assign(refs, refs + laneOf.size());
    for (std::size_t k = 0; k < laneOf.size(); ++k)
        refs[offset[laneOf[k]]++] = sorted[k];
}

bool TimelineIndexBuilder::addBusyTracks(const JobContext& job)
{
    std::map<int, std::vector<int>> streamsOfGpu;
    for (std::size_t i = 0; i < m_tracks.size(); ++i)
        if (m_tracks[i].kind == TrackKind::Stream)
            streamsOfGpu[m_tracks[i].gpu].push_back(int(i));
    for (const auto& [gpu, streams] : streamsOfGpu) {
        if (job.isCancelled())
            return false;
        addBusyTrack(gpu, streams);
    }
    return true;
}

void TimelineIndexBuilder::addBusyTrack(int gpu, const std::vector<int>& streams)
{
    const laneaccess::GpuColumns columns(m_profile);
    // Every lane of the GPU's streams is in start order already: the union merges them instead of sorting a copy of
    // every operation of the GPU (a million each on the 4M-kernel export: the busy tracks were a quarter of the
    // whole timeline build).
    std::vector<PositionRun> lanes;
    for (const int s : streams)
        for (std::uint32_t l = 0; l < m_tracks[std::size_t(s)].laneCount; ++l) {
            const TimelineLane& lane = m_index->m_lanes[m_tracks[std::size_t(s)].firstLane + l];
            lanes.push_back({ lane.begin, std::size_t(lane.begin) + lane.count });
        }
    TimelineLane busy { LaneSource::GpuBusy, std::uint32_t(m_refs.size()), 0, std::uint32_t(m_busyEnds.size()) };
    TimeNs end = kNoTime;
    // The merge reads m_refs by position while the busy intervals are appended to it.
    forEachMerged(
        std::span<const PositionRun>(lanes), [&](std::size_t p) { return columns.startOf(m_refs[p]); },
        [&](std::size_t p, TimeNs start) {
            const std::uint32_t code = m_refs[p];
            if (busy.count == 0 || start > end) {
                m_refs.push_back(code);
                m_busyEnds.push_back(code);
                end = columns.endOf(code);
                ++busy.count;
            } else if (columns.endOf(code) > end) {
                m_busyEnds.back() = code;
                end = columns.endOf(code);
            }
        });
    Track t;
    t.kind = TrackKind::GpuBusy;
    t.source = LaneSource::GpuBusy;
    t.gpu = gpu;
    t.firstLane = std::uint32_t(m_index->m_lanes.size());
    t.laneCount = 1;
    t.events = busy.count;
    m_index->m_lanes.push_back(busy);
    m_tracks.push_back(std::move(t));
}

int TimelineIndexBuilder::addRow(const QString& label, TrackKind kind, int parent, int level, const Track* track)
{
    TimelineRow row;
    row.label = label;
    row.kind = kind;
    row.parent = parent;
    row.level = level;
    if (track) {
        row.firstLane = track->firstLane;
        row.laneCount = track->laneCount;
        row.events = track->events;
        // A group counts the events of its rows, but a busy interval is not an event of its own.
        for (int p = parent; p >= 0 && kind != TrackKind::GpuBusy; p = m_index->m_rows[std::size_t(p)].parent)
            m_index->m_rows[std::size_t(p)].events += track->events;
    }
    m_index->m_rows.push_back(row);
    return int(m_index->m_rows.size() - 1);
}

void TimelineIndexBuilder::layOutRows()
{
    std::map<int, std::vector<int>> gpus;
    std::map<std::pair<int, ProcessIndex>, std::vector<int>> processes; // ordered by pid, the unknown process last
    for (std::size_t i = 0; i < m_tracks.size(); ++i) {
        const Track& t = m_tracks[i];
        if (t.events == 0)
            continue;
        if (t.kind == TrackKind::Stream || t.kind == TrackKind::GpuBusy) {
            gpus[t.gpu].push_back(int(i));
        } else {
            const int pid = t.process >= 0 ? m_profile.processes[std::size_t(t.process)].pid : INT_MAX;
            processes[{ pid, t.process }].push_back(int(i));
        }
    }
    // Threads with CPU samples get a row even without other events.
    std::map<ProcessIndex, std::vector<ThreadIndex>> sampled;
    std::vector<char> seen(m_profile.threads.size(), 0);
    for (const ThreadIndex t : m_profile.cpuSamples.thread)
        if (t >= 0 && !std::exchange(seen[std::size_t(t)], 1)) {
            const ProcessIndex process = m_profile.processOfThread(t);
            sampled[process].push_back(t);
            processes[{ process >= 0 ? m_profile.processes[std::size_t(process)].pid : INT_MAX, process }];
        }
    for (const auto& [gpu, tracks] : gpus)
        layOutGpu(gpu, tracks);
    for (const auto& [key, tracks] : processes)
        layOutProcess(key.second, tracks, sampled[key.second]);
}

void TimelineIndexBuilder::layOutGpu(int gpu, const std::vector<int>& tracks)
{
    std::vector<const Track*> streams;
    const Track* busy = nullptr;
    std::set<ProcessIndex> processes;
    for (const int i : tracks) {
        const Track& t = m_tracks[std::size_t(i)];
        if (t.kind == TrackKind::GpuBusy) {
            busy = &t;
        } else {
            streams.push_back(&t);
            processes.insert(t.process);
        }
    }
    std::sort(streams.begin(), streams.end(), [](const Track* a, const Track* b) {
        return std::tie(a->stream, a->process) < std::tie(b->stream, b->process);
    });
    const int group = addRow(m_gpuLabels[gpu], TrackKind::Group, -1, 0);
    if (busy)
        addRow(QStringLiteral("GPU busy"), TrackKind::GpuBusy, group, 1, busy);
    for (const Track* s : streams) {
        QString label = QStringLiteral("Stream %1").arg(s->stream);
        if (processes.size() > 1)
            label += QStringLiteral(" · ") + m_profile.processLabel(s->process);
        addRow(label, TrackKind::Stream, group, 1, s);
    }
}

void TimelineIndexBuilder::layOutProcess(
    ProcessIndex process, const std::vector<int>& tracks, const std::vector<ThreadIndex>& sampled)
{
    static const QString kLabels[kThreadKinds] = { QStringLiteral("CUDA API"), QStringLiteral("NVTX"),
        QStringLiteral("NVTX start/end"), QStringLiteral("NVTX marks"), QStringLiteral("OS runtime") };
    const int pid = process >= 0 ? m_profile.processes[std::size_t(process)].pid : -1;
    // The main thread first, then by thread id.
    std::map<std::tuple<bool, int, ThreadIndex>, std::array<const Track*, kThreadKinds>> threads;
    for (const int i : tracks) {
        const Track& t = m_tracks[std::size_t(i)];
        const int tid = t.thread >= 0 ? m_profile.threads[std::size_t(t.thread)].tid : INT_MAX;
        auto& byKind = threads.try_emplace({ tid != pid, tid, t.thread }).first->second;
        byKind[std::size_t(threadKindSlot(t.kind))] = &t;
    }
    for (const ThreadIndex t : sampled) {
        const int tid = m_profile.threads[std::size_t(t)].tid;
        threads.try_emplace({ tid != pid, tid, t });
    }
    const int group = addRow(m_profile.processLabel(process), TrackKind::Group, -1, 0);
    for (const auto& [key, byKind] : threads) {
        const int thread = addRow(m_profile.threadLabel(std::get<2>(key)), TrackKind::Group, group, 1);
        m_index->m_rows[std::size_t(thread)].thread = std::get<2>(key);
        for (int k = 0; k < kThreadKinds; ++k)
            if (const Track* t = byKind[std::size_t(k)])
                addRow(kLabels[k], t->kind, thread, 2, t);
    }
}

void TimelineIndexBuilder::buildGapTrees()
{
    std::size_t total = 0;
    for (TimelineLane& lane : m_index->m_lanes) {
        lane.treeBegin = std::uint32_t(total);
        total += gaptree::size(lane.count);
    }
    m_gapTrees.resize(total);
    for (const TimelineLane& lane : m_index->m_lanes)
        laneaccess::visit(m_profile, lane.source, m_refs.data() + lane.begin, m_busyEnds.data() + lane.busyBegin,
            [&](const auto& access) { gaptree::build(access, lane.count, m_gapTrees.data() + lane.treeBegin); });
}

void TimelineIndexBuilder::computeExtent()
{
    TimeNs start = std::numeric_limits<TimeNs>::max(), end = std::numeric_limits<TimeNs>::min();
    for (std::uint32_t l = 0; l < m_index->m_lanes.size(); ++l) {
        const std::uint32_t n = m_index->m_lanes[l].count;
        if (n == 0)
            continue;
        start = std::min(start, m_index->startAt(l, 0));
        end = std::max(end, m_index->endAt(l, n - 1));
    }
    m_index->m_start = start <= end ? start : 0;
    m_index->m_end = start <= end ? end : 0;
}

Result<TimelineIndexPtr> buildTimelineIndex(const ProfilePtr& profile, const JobContext& job)
{
    if (!profile)
        return Result<TimelineIndexPtr>::failure(ErrorKind::NoData, QStringLiteral("no profile"));
    std::shared_ptr<TimelineIndex> index = TimelineIndexBuilder(profile, job).build();
    if (!index)
        return Result<TimelineIndexPtr>::cancelled();
    return TimelineIndexPtr(std::move(index));
}

Result<TimelineIndexPtr> sharedTimelineIndex(const ProfilePtr& profile, const JobContext& job)
{
    if (!profile)
        return Result<TimelineIndexPtr>::failure(ErrorKind::NoData, QStringLiteral("no profile"));
    TimelineIndexPtr index
        = profile->derived.getWhileHeld<TimelineIndex>("timeline index", job.cancelToken(), [&]() -> TimelineIndexPtr {
              std::shared_ptr<TimelineIndex> built = TimelineIndexBuilder(profile, job).build();
              return job.isCancelled() ? nullptr : built;
          });
    if (!index)
        return Result<TimelineIndexPtr>::cancelled();
    return index;
}

QString timelineIndexAttachmentKey()
{
    return QStringLiteral("timeline");
}

} // namespace nsw
