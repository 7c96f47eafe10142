// SPDX-License-Identifier: GPL-3.0-or-later
#include "simulator.h"

#include "gpumetrics.h"
#include "nvlinkpoller.h"

#include <charconv>
#include <cstring>

namespace nsw::tracegen {

namespace {

struct ApiInfo
{
    const char* name;
    int eventClass; // 0 CUDA runtime, 1 CUDA driver
    qint64 durNs;
};

constexpr std::array<ApiInfo, std::size_t(Api::Count)> kApis = { {
    { "cudaLaunchKernel_v7000", 0, 3600 },
    { "cuLaunchKernelEx", 1, 4400 },
    { "cuLaunchKernel", 1, 5200 },
    { "cudaMemcpyAsync_v3020", 0, 6100 },
    { "cudaMemsetAsync_v3020", 0, 3900 },
    { "cudaStreamSynchronize_v3020", 0, 2100 },
    { "cudaEventRecord_v3020", 0, 1600 },
    { "cudaStreamWaitEvent_v3020", 0, 1300 },
    { "cudaGraphLaunch_v10000", 0, 9500 },
    { "cudaGetDeviceCount_v3020", 0, 1200 },
    { "cudaGetDeviceProperties_v2_v12000", 0, 310000 },
    { "cudaSetDevice_v3020", 0, 2400 },
    { "cuModuleGetLoadingMode", 1, 900 },
    { "cudaStreamCreateWithPriority_v5050", 0, 14000 },
    { "cudaMalloc_v3020", 0, 180000 },
    { "cudaHostAlloc_v3020", 0, 2600000 },
    { "cudaEventCreateWithFlags_v3020", 0, 1800 },
    { "cudaDeviceSynchronize_v3020", 0, 3000 },
} };

constexpr qint64 kLaunchLatencyNs = 2800;
constexpr qint64 kRangeEdgeNs = 350; // CPU time NVTX push/pop themselves take

enum RuntimeCol
{
    RtStart,
    RtEnd,
    RtClass,
    RtTid,
    RtCorr,
    RtName,
};
enum KernelCol
{
    KStart,
    KEnd,
    KDevice,
    KContext,
    KStream,
    KCorr,
    KPid,
    KDemangled,
    KShort,
    KMangled,
    KRegisters,
    KGridX,
    KGridY,
    KGridZ,
    KBlockX,
    KBlockY,
    KBlockZ,
    KStaticShared,
    KDynamicShared,
    KGridId,
    KSharedExecuted,
    KSharedLimit,
    KClusterX,
    KClusterY,
    KClusterZ,
    KMaxClusterSize,
    KMaxActiveClusters,
};
enum NvtxCol
{
    NStart,
    NEnd,
    NType,
    NRangeId,
    NColor,
    NText,
    NTid,
    NEndTid,
    NTextId,
    NDomain
};
enum GpuCol
{
    GStart,
    GEnd,
    GDevice,
    GContext,
    GGreen,
    GStream,
    GCorr,
    GPid
};

constexpr int kNvtxMark = 34, kNvtxPushPop = 59, kNvtxStartEnd = 60, kNvtxDomainCreate = 75;

qint64 sharedCarveout(qint64 bytes)
{
    for (qint64 c : { 32768, 65536, 102400, 135168, 167936, 200704, 233472 }) {
        if (bytes <= c)
            return c;
    }
    return 233472;
}

QStringList cols(std::initializer_list<const char*> names)
{
    QStringList out;
    for (const char* n : names)
        out.append(QLatin1String(n));
    return out;
}

} // namespace

Simulator::Simulator(ExportWriter& w, const GeneratorConfig& cfg, GeneratorStats& stats, std::vector<RankState>& ranks)
    : m_w(w)
    , m_cfg(cfg)
    , m_stats(stats)
    , m_ranks(ranks)
{
    using M = ExportWriter::MissingColumns;
    m_runtime = &w.prepare(QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME"),
        cols({ "start", "end", "eventClass", "globalTid", "correlationId", "nameId" }), M::Fail, 64,
        { { "returnValue", 0 } });
    m_kernel = &w.prepare(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"),
        cols({ "start", "end", "deviceId", "contextId", "streamId", "correlationId", "globalPid", "demangledName",
            "shortName", "mangledName", "registersPerThread", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
            "staticSharedMemory", "dynamicSharedMemory", "gridId", "sharedMemoryExecuted", "sharedMemoryLimitConfig",
            "clusterX", "clusterY", "clusterZ", "maxPotentialClusterSize", "maxActiveClusters" }),
        M::Skip, 64,
        { { "greenContextId", 0 }, { "launchType", 1 }, { "cacheConfig", 1 }, { "localMemoryPerThread", 0 },
            { "localMemoryTotal", 250871808 }, { "clusterSchedulingPolicy", 1 },
            { "tensorSizeMinusOneElements", "[]" } });
    m_nvtx = &w.prepare(QStringLiteral("NVTX_EVENTS"),
        cols({ "start", "end", "eventType", "rangeId", "color", "text", "globalTid", "endGlobalTid", "textId",
            "domainId" }));
    const QStringList gpuCols
        = cols({ "start", "end", "deviceId", "contextId", "greenContextId", "streamId", "correlationId", "globalPid" });
    m_memcpy = &w.prepare(QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY"),
        gpuCols + cols({ "bytes", "copyKind", "srcKind", "dstKind", "copyCount" }), M::Skip);
    m_memcpy->set(GGreen, 0);
    m_memcpy->set(12, 1);
    m_memset = &w.prepare(
        QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET"), gpuCols + cols({ "value", "bytes", "memKind" }), M::Skip);
    m_memset->set(GGreen, 0);
    m_memset->set(8, 0);
    m_memset->set(10, 2);
    m_sync = &w.prepare(QStringLiteral("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"),
        cols({ "start", "end", "deviceId", "contextId", "streamId", "correlationId", "globalPid", "syncType", "eventId",
            "eventSyncId" }),
        M::Skip);
    if (w.hasTable(QStringLiteral("CUPTI_ACTIVITY_KIND_CUDA_EVENT"))) { // not in 2021 exports
        m_event = &w.prepare(QStringLiteral("CUPTI_ACTIVITY_KIND_CUDA_EVENT"),
            cols({ "timestamp", "deviceId", "contextId", "greenContextId", "streamId", "correlationId", "globalPid",
                "eventId", "eventSyncId" }),
            M::Skip);
        m_event->set(0, 0);
        m_event->set(3, 0);
    }
    if (cfg.cudaGraphs) {
        m_graph = &w.prepare(
            QStringLiteral("CUPTI_ACTIVITY_KIND_GRAPH_TRACE"), gpuCols + cols({ "graphId", "graphExecId" }), M::Skip);
        m_graph->set(GGreen, 0);
    }
    for (std::size_t k = 0; k < m_kernelNames.size(); ++k) {
        const KernelKind& kind = kernelKind(K(k));
        m_kernelNames[k] = { w.string(QString::fromLatin1(kind.demangledName)),
            w.string(QString::fromLatin1(kind.shortName)), w.string(QString::fromLatin1(kind.mangledName)) };
    }
    for (std::size_t a = 0; a < m_apiNames.size(); ++a)
        m_apiNames[a] = w.string(QString::fromLatin1(kApis[a].name));
}

Simulator::~Simulator() = default;

void Simulator::setNvlink(NvlinkPoller* poller, int rank, Rng* pollJitter)
{
    m_nvlink = poller;
    m_nvlinkRank = rank;
    m_pollJitter = pollJitter;
    m_nvlinkTimeline = std::make_unique<ActivityTimeline>(1000000);
}

bool Simulator::anyActive() const
{
    for (const RankState& r : m_ranks) {
        if (r.active)
            return true;
    }
    return false;
}

qint64 Simulator::registered(const char* text)
{
    auto it = m_registered.find(text);
    if (it == m_registered.end())
        it = m_registered.emplace(text, m_w.string(QString::fromLatin1(text))).first;
    return it->second;
}

void Simulator::cpuGap(qint64 ns)
{
    for (RankState& r : m_ranks)
        r.cpu += r.rng.jitter(ns, m_cfg.jitterPct);
}

void Simulator::idle(qint64 ns)
{
    for (RankState& r : m_ranks)
        r.cpu += ns;
}

void Simulator::barrier()
{
    qint64 last = 0;
    for (const RankState& r : m_ranks)
        last = std::max(last, r.cpu);
    for (RankState& r : m_ranks)
        r.cpu = last;
}

void Simulator::switchThread(Thread t)
{
    for (RankState& r : m_ranks) {
        r.thread = t;
        r.cpu += r.rng.jitter(12000, m_cfg.jitterPct); // thread hand-off
    }
}

Simulator::ApiCall Simulator::apiCall(RankState& r, Api a, qint64 durNs)
{
    ApiCall c { r.cpu, r.cpu + durNs, ++r.corr };
    m_runtime->set(RtStart, c.start);
    m_runtime->set(RtEnd, c.end);
    m_runtime->set(RtClass, kApis[std::size_t(a)].eventClass);
    m_runtime->set(RtTid, r.tids[std::size_t(r.thread)]);
    m_runtime->set(RtCorr, c.corr);
    m_runtime->set(RtName, m_apiNames[std::size_t(a)]);
    m_runtime->insert();
    ++m_stats.runtimeCalls;
    r.cpu = c.end;
    return c;
}

void Simulator::api(Api a, qint64 durNs)
{
    for (RankState& r : m_ranks) {
        if (r.active)
            apiCall(r, a, r.rng.jitter(durNs, m_cfg.jitterPct));
    }
}

void Simulator::nvtxRow(qint64 start, qint64 end, int type, qint64 tid, RangeName name, qint64 color, int domain,
    qint64 rangeId, qint64 endTid)
{
    m_nvtx->set(NStart, start);
    if (end >= 0)
        m_nvtx->set(NEnd, end);
    else
        m_nvtx->setNull(NEnd);
    m_nvtx->set(NType, type);
    if (rangeId >= 0)
        m_nvtx->set(NRangeId, rangeId);
    else
        m_nvtx->setNull(NRangeId);
    if (color >= 0)
        m_nvtx->set(NColor, color);
    else
        m_nvtx->setNull(NColor);
    m_nvtx->set(NTid, tid);
    if (endTid >= 0)
        m_nvtx->set(NEndTid, endTid);
    else
        m_nvtx->setNull(NEndTid);
    m_nvtx->set(NDomain, domain);
    if (name.kind == RangeName::Registered) {
        m_nvtx->setNull(NText);
        m_nvtx->set(NTextId, registered(name.text));
    } else {
        char buf[256];
        const std::size_t len = std::min<std::size_t>(std::strlen(name.text), 200);
        std::memcpy(buf, name.text, len);
        char* p = buf + len;
        if (name.kind == RangeName::OpId) {
            std::memcpy(p, ", op_id = ", 10);
            p += 10;
        }
        if (name.kind != RangeName::Literal)
            p = std::to_chars(p, buf + sizeof buf, name.number).ptr;
        m_nvtx->setUtf8(NText, buf, int(p - buf));
        m_nvtx->setNull(NTextId);
    }
    m_nvtx->insert();
    ++m_stats.nvtxEvents;
}

void Simulator::pushOn(RankState& r, RangeName name, qint64 color, int domain)
{
    auto& stack = r.stacks[std::size_t(r.thread)];
    if (!r.active) {
        stack.push_back({ 0, name, color, domain, true });
        return;
    }
    stack.push_back({ r.cpu, name, color, domain, false });
    r.cpu += kRangeEdgeNs;
}

void Simulator::popOn(RankState& r)
{
    auto& stack = r.stacks[std::size_t(r.thread)];
    const OpenRange o = stack.back();
    stack.pop_back();
    if (o.skipped)
        return;
    r.cpu += kRangeEdgeNs;
    nvtxRow(o.start, r.cpu, kNvtxPushPop, r.tids[std::size_t(r.thread)], o.name, o.color, o.domain);
}

void Simulator::push(RangeName name, qint64 color, int domain)
{
    for (RankState& r : m_ranks)
        pushOn(r, name, color, domain);
}

void Simulator::pop()
{
    for (RankState& r : m_ranks)
        popOn(r);
}

void Simulator::feed(RankState& r, K k, qint64 start, qint64 end)
{
    const KernelCategory c = kernelKind(k).category;
    if (r.metrics) {
        r.metrics->add(ActivityTimeline::Any, start, end);
        if (c == KernelCategory::Gemm || c == KernelCategory::Attention || c == KernelCategory::Moe)
            r.metrics->add(ActivityTimeline::Tensor, start, end);
        if (c == KernelCategory::Nccl)
            r.metrics->add(ActivityTimeline::Nccl, start, end);
    }
    if (r.rank == m_nvlinkRank && c == KernelCategory::Nccl)
        m_nvlinkTimeline->add(ActivityTimeline::Nccl, start, end);
}

void Simulator::writeKernelRow(RankState& r, K k, Stream s, qint64 start, qint64 end, qint64 corr)
{
    const KernelKind& kind = kernelKind(k);
    const auto& names = m_kernelNames[std::size_t(k)];
    Inserter& ins = *m_kernel;
    ins.set(KStart, start);
    ins.set(KEnd, end);
    ins.set(KDevice, r.rank);
    ins.set(KContext, r.rank + 1);
    ins.set(KStream, kStreamIds[std::size_t(s)]);
    ins.set(KCorr, corr);
    ins.set(KPid, r.gpid);
    ins.set(KDemangled, names[0]);
    ins.set(KShort, names[1]);
    ins.set(KMangled, names[2]);
    ins.set(KRegisters, kind.registers);
    ins.set(KGridX, kind.grid[0]);
    ins.set(KGridY, kind.grid[1]);
    ins.set(KGridZ, kind.grid[2]);
    ins.set(KBlockX, kind.block[0]);
    ins.set(KBlockY, kind.block[1]);
    ins.set(KBlockZ, kind.block[2]);
    ins.set(KStaticShared, kind.staticShared);
    ins.set(KDynamicShared, kind.dynamicShared);
    ins.set(KGridId, ++r.gridId);
    const qint64 shared = kind.staticShared + kind.dynamicShared;
    ins.set(KSharedExecuted, sharedCarveout(shared));
    ins.set(KSharedLimit, shared > 49152 ? 1 : 0);
    ins.set(KClusterX, kind.cluster[0]);
    ins.set(KClusterY, kind.cluster[1]);
    ins.set(KClusterZ, kind.cluster[2]);
    ins.set(KMaxClusterSize, kind.cluster[0] ? 16 : 0);
    ins.set(KMaxActiveClusters, kind.cluster[0] ? 66 : 0);
    ins.insert();
    ++m_stats.kernels;
    if (kind.category == KernelCategory::Nccl)
        ++m_stats.ncclKernels;
    feed(r, k, start, end);
    --r.kernelsLeft;
}

qint64 Simulator::launchApi(RankState& r, K k, Stream s)
{
    static constexpr std::array<Api, 3> byLaunchApi = { Api::LaunchKernel, Api::CuLaunchKernelEx, Api::CuLaunchKernel };
    const Api a = byLaunchApi[std::size_t(kernelKind(k).api)];
    const ApiCall c = apiCall(r, a, r.rng.jitter(kApis[std::size_t(a)].durNs, m_cfg.jitterPct));
    r.arrival = std::max(r.streamEnd[std::size_t(s)], c.start + kLaunchLatencyNs);
    return c.corr;
}

void Simulator::kernel(K k, qint64 durNs, Ops ops)
{
    for (RankState& r : m_ranks) {
        if (!r.active || r.kernelsLeft <= 0)
            continue;
        r.cpu += r.rng.jitter(m_cfg.workload == Workload::Training ? 9000 : 6500, m_cfg.jitterPct);
        for (const char* op : ops)
            pushOn(r, { RangeName::OpId, op, ++r.opId }, -1, 0);
        const qint64 corr = launchApi(r, k, Compute);
        const qint64 end = r.arrival + r.rng.jitter(durNs, m_cfg.jitterPct);
        writeKernelRow(r, k, Compute, r.arrival, end, corr);
        r.streamEnd[Compute] = end;
        for (std::size_t i = 0; i < ops.size(); ++i)
            popOn(r);
    }
}

void Simulator::eventRecord(RankState& r, Stream s)
{
    const ApiCall c
        = apiCall(r, Api::EventRecord, r.rng.jitter(kApis[std::size_t(Api::EventRecord)].durNs, m_cfg.jitterPct));
    ++r.eventId;
    ++r.syncId;
    if (!m_event)
        return;
    m_event->set(1, r.rank);
    m_event->set(2, r.rank + 1);
    m_event->set(4, kStreamIds[std::size_t(s)]);
    m_event->set(5, c.corr);
    m_event->set(6, r.gpid);
    m_event->set(7, r.eventId);
    m_event->set(8, r.syncId);
    m_event->insert();
}

void Simulator::streamWait(RankState& r, Stream waiter, qint64 until)
{
    const ApiCall c = apiCall(
        r, Api::StreamWaitEvent, r.rng.jitter(kApis[std::size_t(Api::StreamWaitEvent)].durNs, m_cfg.jitterPct));
    m_sync->set(0, c.start);
    m_sync->set(1, c.end);
    m_sync->set(2, r.rank);
    m_sync->set(3, r.rank + 1);
    m_sync->set(4, kStreamIds[std::size_t(waiter)]);
    m_sync->set(5, c.corr);
    m_sync->set(6, r.gpid);
    m_sync->set(7, 2); // stream wait event
    m_sync->set(8, r.eventId);
    m_sync->set(9, r.syncId);
    m_sync->insert();
    auto& e = r.streamEnd[std::size_t(waiter)];
    e = std::max(e, until);
}

void Simulator::waitStream(Stream waiter, Stream producer)
{
    for (RankState& r : m_ranks) {
        if (!r.active)
            continue;
        r.cpu += r.rng.jitter(2000, m_cfg.jitterPct);
        eventRecord(r, producer);
        streamWait(r, waiter, r.streamEnd[std::size_t(producer)]);
    }
}

void Simulator::nccl(K k, qint64 durNs, const char* op, bool computeWaits)
{
    const KernelKind& kind = kernelKind(k);
    std::vector<qint64> corr(m_ranks.size(), -1);
    qint64 last = 0;
    for (std::size_t i = 0; i < m_ranks.size(); ++i) {
        RankState& r = m_ranks[i];
        if (!r.active || r.kernelsLeft <= 0)
            continue;
        r.cpu += r.rng.jitter(7000, m_cfg.jitterPct);
        pushOn(r, { RangeName::OpId, op, ++r.opId }, -1, 0);
        pushOn(r, { RangeName::Registered, kind.ncclOp, 0 }, -1, 1);
        eventRecord(r, Compute);
        streamWait(r, Comm, r.streamEnd[Compute]);
        corr[i] = launchApi(r, k, Comm);
        last = std::max(last, r.arrival);
        popOn(r);
        popOn(r);
    }
    // A collective completes once the last rank has arrived.
    Rng& shared = m_ranks.front().rng;
    const qint64 end = last + shared.jitter(durNs, m_cfg.jitterPct);
    for (std::size_t i = 0; i < m_ranks.size(); ++i) {
        RankState& r = m_ranks[i];
        if (corr[i] < 0)
            continue;
        const qint64 start = r.arrival;
        writeKernelRow(r, k, Comm, start, end, corr[i]);
        r.streamEnd[Comm] = end;
        if (computeWaits) {
            eventRecord(r, Comm);
            streamWait(r, Compute, end);
        }
    }
}

void Simulator::memcpy(int copyKind, qint64 bytes, Stream s, const char* op)
{
    const bool h2d = copyKind == 1;
    for (RankState& r : m_ranks) {
        if (!r.active)
            continue;
        r.cpu += r.rng.jitter(5000, m_cfg.jitterPct);
        if (op)
            pushOn(r, { RangeName::OpId, op, ++r.opId }, -1, 0);
        const ApiCall c
            = apiCall(r, Api::MemcpyAsync, r.rng.jitter(kApis[std::size_t(Api::MemcpyAsync)].durNs, m_cfg.jitterPct));
        const qint64 start = std::max(r.streamEnd[std::size_t(s)], c.start + kLaunchLatencyNs);
        const qint64 end = start + 1400 + bytes / 24; // ~24 GB/s over PCIe
        m_memcpy->set(GStart, start);
        m_memcpy->set(GEnd, end);
        m_memcpy->set(GDevice, r.rank);
        m_memcpy->set(GContext, r.rank + 1);
        m_memcpy->set(GStream, kStreamIds[std::size_t(s)]);
        m_memcpy->set(GCorr, c.corr);
        m_memcpy->set(GPid, r.gpid);
        m_memcpy->set(8, bytes);
        m_memcpy->set(9, copyKind);
        m_memcpy->set(10, h2d ? 1 : 2); // pinned host / device
        m_memcpy->set(11, h2d ? 2 : 1);
        m_memcpy->insert();
        ++m_stats.memcpys;
        r.streamEnd[std::size_t(s)] = end;
        if (r.metrics)
            r.metrics->add(ActivityTimeline::Copy, start, end);
        if (op)
            popOn(r);
    }
}

void Simulator::memset(qint64 bytes, Stream s)
{
    for (RankState& r : m_ranks) {
        if (!r.active)
            continue;
        r.cpu += r.rng.jitter(4000, m_cfg.jitterPct);
        pushOn(r, { RangeName::OpId, "aten::zero_", ++r.opId }, -1, 0);
        const ApiCall c
            = apiCall(r, Api::MemsetAsync, r.rng.jitter(kApis[std::size_t(Api::MemsetAsync)].durNs, m_cfg.jitterPct));
        const qint64 start = std::max(r.streamEnd[std::size_t(s)], c.start + kLaunchLatencyNs);
        const qint64 end = start + 900 + bytes / 1500; // ~1.5 TB/s
        m_memset->set(GStart, start);
        m_memset->set(GEnd, end);
        m_memset->set(GDevice, r.rank);
        m_memset->set(GContext, r.rank + 1);
        m_memset->set(GStream, kStreamIds[std::size_t(s)]);
        m_memset->set(GCorr, c.corr);
        m_memset->set(GPid, r.gpid);
        m_memset->set(9, bytes);
        m_memset->insert();
        ++m_stats.memsets;
        r.streamEnd[std::size_t(s)] = end;
        popOn(r);
    }
}

void Simulator::streamSync(Stream s)
{
    for (RankState& r : m_ranks) {
        if (!r.active)
            continue;
        r.cpu += r.rng.jitter(3000, m_cfg.jitterPct);
        const qint64 start = r.cpu;
        const qint64 dur
            = std::max(kApis[std::size_t(Api::StreamSynchronize)].durNs, r.streamEnd[std::size_t(s)] + 1800 - start);
        const ApiCall c = apiCall(r, Api::StreamSynchronize, dur);
        m_sync->set(0, c.start);
        m_sync->set(1, c.end);
        m_sync->set(2, r.rank);
        m_sync->set(3, r.rank + 1);
        m_sync->set(4, kStreamIds[std::size_t(s)]);
        m_sync->set(5, c.corr);
        m_sync->set(6, r.gpid);
        m_sync->set(7, 3); // stream synchronize
        m_sync->set(8, 4294967295LL);
        m_sync->set(9, 0);
        m_sync->insert();
    }
}

void Simulator::graphLaunch(const GraphBody& body, qint64 graphExecId)
{
    for (RankState& r : m_ranks) {
        if (!r.active)
            continue;
        r.cpu += r.rng.jitter(8000, m_cfg.jitterPct);
        pushOn(r, { RangeName::Literal, "CUDAGraph::replay" }, -1, 0);
        const ApiCall c
            = apiCall(r, Api::GraphLaunch, r.rng.jitter(kApis[std::size_t(Api::GraphLaunch)].durNs, m_cfg.jitterPct));
        const qint64 start = std::max(r.streamEnd[Compute], c.start + kLaunchLatencyNs);
        qint64 t = start;
        for (const auto& [k, dur] : body) {
            const qint64 d = r.rng.jitter(dur, m_cfg.jitterPct);
            feed(r, k, t, t + d);
            t += d + 600; // nodes follow each other closely inside a graph
        }
        m_graph->set(GStart, start);
        m_graph->set(GEnd, t);
        m_graph->set(GDevice, r.rank);
        m_graph->set(GContext, r.rank + 1);
        m_graph->set(GStream, kStreamIds[Compute]);
        m_graph->set(GCorr, c.corr);
        m_graph->set(GPid, r.gpid);
        m_graph->set(8, 1);
        m_graph->set(9, graphExecId);
        m_graph->insert();
        ++m_stats.graphLaunches;
        r.streamEnd[Compute] = t;
        popOn(r);
    }
}

void Simulator::mark(const char* text)
{
    for (RankState& r : m_ranks) {
        if (r.active)
            nvtxRow(r.cpu, -1, kNvtxMark, r.tids[std::size_t(r.thread)], { RangeName::Literal, text }, -1, 0);
    }
}

void Simulator::startRequest(const char* text, qint64 number)
{
    for (RankState& r : m_ranks) {
        if (r.active)
            r.requests.push_back({ text, ++r.rangeId, r.cpu - r.rng.jitter(180000, m_cfg.jitterPct), number });
    }
}

void Simulator::finishRequest()
{
    for (RankState& r : m_ranks)
        finishRequestOn(r);
}

void Simulator::finishRequestOn(RankState& r)
{
    if (r.requests.empty())
        return;
    const OpenRequest q = r.requests.front();
    r.requests.pop_front();
    nvtxRow(q.start, r.cpu, kNvtxStartEnd, r.tids[std::size_t(Thread::Worker)],
        { RangeName::Indexed, q.text, q.number }, 0xFF5C9FD6, 0, q.rangeId, r.tids[std::size_t(r.thread)]);
}

void Simulator::startLocalRange(const char* text, qint64 number)
{
    for (RankState& r : m_ranks) {
        if (r.active)
            r.localRange = OpenRequest { text, ++r.rangeId, r.cpu, number };
    }
}

void Simulator::endLocalRange()
{
    for (RankState& r : m_ranks) {
        if (!r.localRange)
            continue;
        const qint64 tid = r.tids[std::size_t(r.thread)];
        nvtxRow(r.localRange->start, r.cpu, kNvtxStartEnd, tid,
            { RangeName::Indexed, r.localRange->text, r.localRange->number }, -1, 0, r.localRange->rangeId, tid);
        r.localRange.reset();
    }
}

void Simulator::workerRanges(const char* outer, const char* inner, qint64 durNs)
{
    for (RankState& r : m_ranks) {
        if (!r.active)
            continue;
        const qint64 tid = r.tids[std::size_t(Thread::Worker)];
        const qint64 start = r.cpu + r.rng.jitter(20000, m_cfg.jitterPct);
        const qint64 d = r.rng.jitter(durNs, m_cfg.jitterPct);
        nvtxRow(start + d / 5, start + d - d / 5, kNvtxPushPop, tid, { RangeName::Literal, inner }, -1, 0);
        nvtxRow(start, start + d, kNvtxPushPop, tid, { RangeName::Literal, outer }, -1, 0);
    }
}

void Simulator::domainCreate(int domain, const char* name, qint64 at)
{
    for (RankState& r : m_ranks)
        nvtxRow(at - r.rank * 1500, -1, kNvtxDomainCreate, r.tids[0], { RangeName::Literal, name }, -1, domain);
}

void Simulator::flush(RankState& r, qint64 until)
{
    if (r.metrics && m_metrics) {
        const qint64 width = r.metrics->width();
        r.metrics->flushUntil(until, [&](qint64 b, const ActivityTimeline::Busy& busy) {
            m_metrics->sample(r.rank, (b + 1) * width, busy, width);
        });
    }
    if (r.rank == m_nvlinkRank && m_nvlink) {
        m_nvlinkTimeline->flushUntil(until, [&](qint64 b, const ActivityTimeline::Busy& busy) {
            const qint64 t = (b + 1) * 1000000 + m_pollJitter->range(0, 40000);
            m_nvlink->poll(t, double(busy[ActivityTimeline::Nccl]) / 1e6);
        });
    }
}

void Simulator::endStep()
{
    for (RankState& r : m_ranks) {
        flush(r, r.cpu);
        if (r.kernelsLeft <= 0)
            r.active = false; // a started step runs to its end, only kernels beyond the budget are dropped
    }
}

qint64 Simulator::finish()
{
    qint64 end = 0;
    for (RankState& r : m_ranks) {
        r.active = true; // final synchronisation and closing ranges happen for every rank
        r.kernelsLeft = std::numeric_limits<qint64>::max();
        for (int t : { int(Thread::Autograd), int(Thread::Main), int(Thread::Worker) }) {
            r.thread = Thread(t);
            while (!r.stacks[std::size_t(t)].empty())
                popOn(r);
        }
        r.thread = Thread::Main;
    }
    streamSync(Compute);
    endLocalRange();
    for (RankState& r : m_ranks) {
        while (!r.requests.empty())
            finishRequestOn(r);
        end = std::max({ end, r.cpu, r.streamEnd[Compute], r.streamEnd[Comm], r.streamEnd[Copy] });
    }
    end += 2000000;
    for (RankState& r : m_ranks)
        flush(r, end);
    return end;
}

} // namespace nsw::tracegen
