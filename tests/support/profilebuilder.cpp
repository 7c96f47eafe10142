// SPDX-License-Identifier: GPL-3.0-or-later
#include "profilebuilder.h"

#include "core/profile/correlationjoin.h"

#include <algorithm>

namespace nsw::test {

ProfileBuilder::ProfileBuilder()
    : m_profile(std::make_shared<Profile>())
{
    static const char* const kLabels[]
        = { "Unknown", "Host-to-Device", "Device-to-Host", "Host-to-Array", "Array-to-Host", "Array-to-Array",
              "Array-to-Device", "Device-to-Array", "Device-to-Device", "Host-to-Host", "Peer-to-Peer" };
    for (int i = 0; i < int(std::size(kLabels)); ++i)
        m_profile->memcpyKindLabels[i] = QLatin1String(kLabels[i]);
}

ProcessIndex ProfileBuilder::process(int pid, const QString& name)
{
    ProcessInfo p;
    p.pid = pid;
    p.globalPid = (qint64(1) << 48) | (qint64(pid) << 24);
    p.hostKey = 1;
    p.name = name;
    m_profile->processes.push_back(p);
    return ProcessIndex(m_profile->processes.size() - 1);
}

ThreadIndex ProfileBuilder::thread(ProcessIndex process, int tid, const QString& name)
{
    ThreadInfo t;
    t.tid = tid;
    t.process = process;
    t.globalTid = m_profile->processes[std::size_t(process)].globalPid | tid;
    t.name = name;
    m_profile->threads.push_back(t);
    return ThreadIndex(m_profile->threads.size() - 1);
}

StringRef ProfileBuilder::str(const QString& text)
{
    return m_profile->strings.intern(text);
}

std::uint32_t ProfileBuilder::nextCorrelation(ProcessIndex process)
{
    return ++m_correlation[process];
}

std::size_t ProfileBuilder::apiCall(
    ThreadIndex thread, TimeNs start, TimeNs end, const QString& name, std::uint32_t correlation)
{
    CudaApiTable& a = m_profile->cudaApi;
    const ProcessIndex process = m_profile->threads[std::size_t(thread)].process;
    if (correlation == 0)
        correlation = nextCorrelation(process);
    else
        m_correlation[process] = std::max(m_correlation[process], correlation);
    a.start.push_back(start);
    a.end.push_back(end);
    a.thread.push_back(thread);
    a.correlation.push_back(correlation);
    a.name.push_back(str(name));
    a.eventClass.push_back(CudaApiTable::kRuntime);
    return a.size() - 1;
}

void ProfileBuilder::addActivity(GpuActivityColumns& c, ProcessIndex process, TimeNs start, TimeNs end, int device,
    std::uint32_t stream, std::uint32_t correlation)
{
    c.start.push_back(start);
    c.end.push_back(end);
    c.process.push_back(process);
    c.device.push_back(device);
    c.context.push_back(1);
    c.stream.push_back(stream);
    c.correlation.push_back(correlation);
}

std::size_t ProfileBuilder::kernel(ThreadIndex launcher, TimeNs apiStart, TimeNs apiEnd, TimeNs start, TimeNs end,
    const QString& name, int device, std::uint32_t stream, const QString& shortName)
{
    const std::size_t api = apiCall(launcher, apiStart, apiEnd, QStringLiteral("cudaLaunchKernel_v7000"));
    KernelTable& k = m_profile->kernels;
    addActivity(k, m_profile->threads[std::size_t(launcher)].process, start, end, device, stream,
        m_profile->cudaApi.correlation[api]);
    k.demangledName.push_back(str(name));
    k.shortName.push_back(str(shortName.isEmpty() ? name.section(QLatin1Char('('), 0, 0) : shortName));
    k.mangledName.push_back(kNoString);
    if (m_profile->launchShapes.empty())
        m_profile->launchShapes.push_back(LaunchShape { { 1, 1, 1 }, { 128, 1, 1 }, 32, 0, 0 });
    k.shape.push_back(0);
    return k.size() - 1;
}

std::size_t ProfileBuilder::kernelWithoutApi(ProcessIndex process, TimeNs start, TimeNs end, const QString& name,
    int device, std::uint32_t stream, std::uint32_t correlation)
{
    KernelTable& k = m_profile->kernels;
    addActivity(k, process, start, end, device, stream, correlation);
    k.demangledName.push_back(str(name));
    k.shortName.push_back(str(name.section(QLatin1Char('('), 0, 0)));
    k.mangledName.push_back(kNoString);
    if (m_profile->launchShapes.empty())
        m_profile->launchShapes.push_back(LaunchShape { { 1, 1, 1 }, { 128, 1, 1 }, 32, 0, 0 });
    k.shape.push_back(0);
    return k.size() - 1;
}

std::size_t ProfileBuilder::memOp(ThreadIndex launcher, TimeNs apiStart, TimeNs apiEnd, TimeNs start, TimeNs end,
    std::uint8_t copyKind, qint64 bytes, int device, std::uint32_t stream)
{
    const bool memset = copyKind == MemOpTable::kMemset;
    const std::size_t api = apiCall(launcher, apiStart, apiEnd,
        memset ? QStringLiteral("cudaMemsetAsync_v3020") : QStringLiteral("cudaMemcpyAsync_v3020"));
    MemOpTable& m = m_profile->memops;
    addActivity(m, m_profile->threads[std::size_t(launcher)].process, start, end, device, stream,
        m_profile->cudaApi.correlation[api]);
    m.bytes.push_back(bytes);
    m.copyKind.push_back(copyKind);
    return m.size() - 1;
}

int ProfileBuilder::nvtxDomain(ProcessIndex process, qint64 domainId, const QString& name)
{
    m_profile->nvtxDomains.push_back({ process, domainId, name });
    return int(m_profile->nvtxDomains.size() - 1);
}

std::size_t ProfileBuilder::nvtxRange(ThreadIndex thread, TimeNs start, TimeNs end, const QString& name,
    std::uint8_t type, int domain, ThreadIndex endThread)
{
    NvtxTable& n = m_profile->nvtx;
    n.start.push_back(start);
    n.end.push_back(end);
    n.thread.push_back(thread);
    n.name.push_back(name.isNull() ? kNoString : str(name));
    n.domain.push_back(domain);
    n.eventType.push_back(type);
    if (endThread != kNoIndex)
        n.endThread.push_back(NvtxEndThread { std::uint32_t(n.size() - 1), endThread });
    n.maxTimestamp = std::max({ n.maxTimestamp, start, end });
    return n.size() - 1;
}

std::size_t ProfileBuilder::nvtxMark(ThreadIndex thread, TimeNs time, const QString& name, int domain)
{
    const std::size_t row = nvtxRange(thread, time, kNoTime, name, NvtxTable::kMark, domain);
    return row;
}

std::size_t ProfileBuilder::osrtCall(ThreadIndex thread, TimeNs start, TimeNs end, const QString& name)
{
    OsrtTable& o = m_profile->osrt;
    o.start.push_back(start);
    o.end.push_back(end);
    o.thread.push_back(thread);
    o.name.push_back(str(name));
    o.eventClass.push_back(OsrtTable::kOsRuntime);
    return o.size() - 1;
}

void ProfileBuilder::gpu(int id, const QString& name, int cudaDevice)
{
    GpuInfo g;
    g.id = id;
    g.name = name;
    g.cudaDevice = cudaDevice;
    m_profile->gpus.push_back(g);
}

ProfilePtr ProfileBuilder::build(const QString& fileName)
{
    Profile& p = *m_profile;
    p.meta.filePath = fileName;
    p.meta.nsysVersion = QStringLiteral("2026.2.1.210");
    p.meta.schemaVersion = QStringLiteral("3.25.0");
    p.meta.tables = { QStringLiteral("StringIds"), QStringLiteral("ENUM_CUDA_MEMCPY_OPER") };
    if (p.kernels.size())
        p.meta.tables.append(QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"));
    if (p.cudaApi.size())
        p.meta.tables.append(QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME"));
    if (p.memops.size()) {
        p.meta.tables.append(QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY"));
        p.meta.tables.append(QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET"));
    }
    if (p.nvtx.size())
        p.meta.tables.append(QStringLiteral("NVTX_EVENTS"));
    if (p.osrt.size())
        p.meta.tables.append(QStringLiteral("OSRT_API"));
    std::sort(p.nvtx.endThread.begin(), p.nvtx.endThread.end());
    joinCorrelations(p);
    TimeNs lo = std::numeric_limits<TimeNs>::max(), hi = std::numeric_limits<TimeNs>::min();
    for (std::size_t i = 0; i < p.kernels.size(); ++i) {
        lo = std::min(lo, p.kernels.start[i]);
        hi = std::max(hi, p.kernels.end[i]);
    }
    for (std::size_t i = 0; i < p.cudaApi.size(); ++i) {
        lo = std::min(lo, p.cudaApi.start[i]);
        hi = std::max(hi, p.cudaApi.end[i]);
    }
    if (lo <= hi) {
        p.activityStart = lo;
        p.activityEnd = hi;
    }
    ProfilePtr result = m_profile;
    m_profile = std::make_shared<Profile>();
    return result;
}

ProfilePtr nvtxKernelProfile(const QStringList& events)
{
    const auto ms = [](const QString& text) { return TimeNs(text.toDouble() * 1e3) * 1000; };
    ProfileBuilder b;
    const ThreadIndex t = b.thread(b.process(100), 101);
    int kernel = 0;
    for (const QString& event : events) {
        const QStringList f = event.split(u' ');
        if (f[0] == QLatin1String("R")) {
            b.nvtxRange(t, ms(f[f.size() - 2]), ms(f.back()), f.mid(1, f.size() - 3).join(u' '));
        } else {
            const TimeNs launch = ms(f[1]);
            b.kernel(t, launch, launch + 10'000, ms(f[2]), ms(f[3]), QStringLiteral("k%1").arg(kernel++));
        }
    }
    return b.build();
}

} // namespace nsw::test
