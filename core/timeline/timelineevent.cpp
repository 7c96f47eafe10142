// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelineevent.h"

#include "core/profile/sessionclock.h"
#include "core/util/timeformat.h"

namespace nsw {

namespace {

TimeNs nvtxEnd(const NvtxTable& n, std::uint32_t row)
{
    const TimeNs end = n.end[row];
    if (end != kNoTime)
        return end;
    if (!NvtxTable::isRange(n.eventType[row]))
        return n.start[row];
    return std::max(n.start[row], n.maxTimestamp);
}

QString threeDims(const std::uint32_t (&v)[3])
{
    return QStringLiteral("%1×%2×%3").arg(v[0]).arg(v[1]).arg(v[2]);
}

QString threadWhere(const Profile& p, ThreadIndex thread)
{
    return p.processLabel(p.processOfThread(thread)) + QStringLiteral(" · thread ") + p.threadLabel(thread);
}

QString gpuWhere(const Profile& p, const GpuActivityColumns& c, std::uint32_t row)
{
    return p.deviceLabel(c.process[row], c.device[row]) + QStringLiteral(" · stream %1").arg(c.stream[row])
        + QStringLiteral(" · ") + p.processLabel(c.process[row]);
}

QStringList kernelDetails(const Profile& p, std::uint32_t row)
{
    QStringList d;
    const KernelTable& k = p.kernels;
    if (row < k.shape.size() && k.shape[row] < p.launchShapes.size()) {
        const LaunchShape& s = p.launchShapes[k.shape[row]];
        d << QStringLiteral("grid %1  block %2").arg(threeDims(s.grid), threeDims(s.block));
        d << QStringLiteral("registers %1  shared memory %2 B static, %3 B dynamic")
                 .arg(s.registersPerThread)
                 .arg(s.staticSharedMemory)
                 .arg(s.dynamicSharedMemory);
    }
    if (row < k.correlation.size())
        d << QStringLiteral("correlation id %1").arg(k.correlation[row]);
    return d;
}

QString nvtxKind(std::uint8_t type)
{
    if (NvtxTable::isPushPop(type))
        return QStringLiteral("NVTX push/pop range");
    if (NvtxTable::isStartEnd(type))
        return QStringLiteral("NVTX start/end range");
    return QStringLiteral("NVTX mark");
}

} // namespace

const GpuActivityColumns* gpuActivityColumns(const Profile& profile, EventTable table)
{
    switch (table) {
    case EventTable::Kernel:
        return &profile.kernels;
    case EventTable::MemOp:
        return &profile.memops;
    case EventTable::GraphLaunch:
        return &profile.graphLaunches;
    default:
        return nullptr;
    }
}

TimeNs eventStart(const Profile& p, EventRef e)
{
    if (const GpuActivityColumns* c = gpuActivityColumns(p, e.table))
        return c->start[e.row];
    switch (e.table) {
    case EventTable::CudaApi:
        return p.cudaApi.start[e.row];
    case EventTable::Nvtx:
        return p.nvtx.start[e.row];
    case EventTable::Osrt:
        return p.osrt.start[e.row];
    default:
        return kNoTime;
    }
}

TimeNs eventEnd(const Profile& p, EventRef e)
{
    if (const GpuActivityColumns* c = gpuActivityColumns(p, e.table))
        return c->end[e.row];
    switch (e.table) {
    case EventTable::CudaApi:
        return p.cudaApi.end[e.row];
    case EventTable::Nvtx:
        return nvtxEnd(p.nvtx, e.row);
    case EventTable::Osrt:
        return p.osrt.end[e.row];
    default:
        return kNoTime;
    }
}

std::int64_t eventNameKey(const Profile& p, EventRef e)
{
    switch (e.table) {
    case EventTable::Kernel:
        return p.kernels.demangledName[e.row];
    case EventTable::MemOp:
        return -2 - std::int64_t(p.memops.copyKind[e.row]);
    case EventTable::GraphLaunch:
        return -1000;
    case EventTable::CudaApi:
        return p.cudaApi.name[e.row];
    case EventTable::Nvtx:
        return p.nvtx.name[e.row];
    case EventTable::Osrt:
        return p.osrt.name[e.row];
    default:
        return -1;
    }
}

QString eventName(const Profile& p, EventRef e)
{
    switch (e.table) {
    case EventTable::Kernel:
        return p.strings.at(p.kernels.demangledName[e.row]);
    case EventTable::MemOp:
        return p.memOpName(p.memops.copyKind[e.row]);
    case EventTable::GraphLaunch:
        return QStringLiteral("[CUDA graph %1]").arg(p.graphLaunches.graphId[e.row]);
    case EventTable::CudaApi:
        return p.strings.at(p.cudaApi.name[e.row]);
    case EventTable::Nvtx:
        return p.strings.at(p.nvtx.name[e.row]);
    case EventTable::Osrt:
        return p.strings.at(p.osrt.name[e.row]);
    default:
        return {};
    }
}

EventDescription describeEvent(const Profile& p, EventRef e)
{
    EventDescription d;
    if (!e.valid())
        return d;
    d.name = eventName(p, e);
    d.start = eventStart(p, e) - sessionClockOrigin(p);
    d.duration = eventEnd(p, e) - eventStart(p, e);
    switch (e.table) {
    case EventTable::Kernel:
        d.kind = QStringLiteral("Kernel");
        d.where = gpuWhere(p, p.kernels, e.row);
        d.details = kernelDetails(p, e.row);
        break;
    case EventTable::MemOp: {
        const bool memset = p.memops.copyKind[e.row] == MemOpTable::kMemset;
        d.kind = memset ? QStringLiteral("Memset") : QStringLiteral("Memcpy");
        d.where = gpuWhere(p, p.memops, e.row);
        d.details << QStringLiteral("%1").arg(formatBytes(p.memops.bytes[e.row]));
        break;
    }
    case EventTable::GraphLaunch:
        d.kind = QStringLiteral("CUDA graph launch");
        d.where = gpuWhere(p, p.graphLaunches, e.row);
        break;
    case EventTable::CudaApi:
        d.kind = p.cudaApi.eventClass[e.row] == CudaApiTable::kDriver ? QStringLiteral("CUDA driver API")
                                                                      : QStringLiteral("CUDA runtime API");
        d.where = threadWhere(p, p.cudaApi.thread[e.row]);
        d.details << QStringLiteral("correlation id %1").arg(p.cudaApi.correlation[e.row]);
        break;
    case EventTable::Nvtx:
        d.kind = nvtxKind(p.nvtx.eventType[e.row]);
        d.where = threadWhere(p, p.nvtx.thread[e.row]);
        if (const QString& domain = p.nvtxDomainName(p.nvtx.domain[e.row]); !domain.isEmpty())
            d.details << QStringLiteral("domain %1").arg(domain);
        if (p.nvtx.end[e.row] == kNoTime && NvtxTable::isRange(p.nvtx.eventType[e.row]))
            d.details << QStringLiteral("never ended (drawn to the last NVTX timestamp)");
        break;
    case EventTable::Osrt:
        d.kind = QStringLiteral("OS runtime");
        d.where = threadWhere(p, p.osrt.thread[e.row]);
        break;
    case EventTable::None:
        break;
    }
    return d;
}

} // namespace nsw
