// SPDX-License-Identifier: GPL-3.0-or-later
#include "profile.h"

#include "core/profile/capturespan.h"
#include "core/util/findby.h"

#include <QFileInfo>
#include <algorithm>
#include <optional>

namespace nsw {

ThreadIndex NvtxTable::endThreadOf(std::size_t row) const
{
    const auto it = std::lower_bound(endThread.begin(), endThread.end(), std::uint32_t(row),
        [](const NvtxEndThread& entry, std::uint32_t r) { return entry.row < r; });
    if (it != endThread.end() && it->row == row)
        return it->thread;
    return thread[row];
}

bool NvtxTable::hasEndThread(std::size_t row) const
{
    const auto it = std::lower_bound(endThread.begin(), endThread.end(), std::uint32_t(row),
        [](const NvtxEndThread& entry, std::uint32_t r) { return entry.row < r; });
    return it != endThread.end() && it->row == row;
}

QString Profile::displayName() const
{
    return QFileInfo(meta.reportPath.isEmpty() ? meta.filePath : meta.reportPath).fileName();
}

TimeNs Profile::captureDurationNs() const
{
    return captureSpanOf(*this).durationNs();
}

QString Profile::memOpName(std::uint8_t copyKind) const
{
    if (copyKind == MemOpTable::kMemset)
        return QStringLiteral("[CUDA memset]");
    const auto it = memcpyKindLabels.find(copyKind);
    const QString label = it != memcpyKindLabels.end() ? it->second : QStringLiteral("Unknown");
    return QStringLiteral("[CUDA memcpy ") + label + QLatin1Char(']');
}

const GpuInfo* Profile::gpuFor(ProcessIndex process, int cudaDevice) const
{
    auto byId = [this](int id) { return findBy(gpus, &GpuInfo::id, id); };
    if (!cudaDevices.empty()) {
        const int pid = process >= 0 ? processes[std::size_t(process)].pid : -1;
        for (const CudaDeviceMapping& m : cudaDevices)
            if (m.cudaId == cudaDevice && (m.pid == pid || pid < 0))
                return byId(m.gpuId);
        return nullptr;
    }
    // Without TARGET_INFO_CUDA_DEVICE no mapping is provably right; accept it only when every listed GPU is
    // the same model, so the name cannot be wrong.
    if (gpus.empty())
        return nullptr;
    const bool sameModel
        = std::all_of(gpus.begin(), gpus.end(), [&](const GpuInfo& g) { return g.name == gpus[0].name; });
    if (!sameModel)
        return nullptr;
    if (const GpuInfo* g = byId(cudaDevice))
        return g;
    return &gpus[0];
}

int Profile::gpuKey(ProcessIndex process, int cudaDevice) const
{
    // Without TARGET_INFO_CUDA_DEVICE, gpuFor may name a model for an ordinal but never proves which GPU it is.
    if (cudaDevices.empty())
        return cudaDevice;
    const GpuInfo* gpu = gpuFor(process, cudaDevice);
    return gpu ? gpu->id : cudaDevice;
}

QString Profile::deviceLabel(ProcessIndex process, int cudaDevice) const
{
    const GpuInfo* gpu = gpuFor(process, cudaDevice);
    if (gpu && !gpu->name.isEmpty())
        return QStringLiteral("GPU %1 (%2)").arg(cudaDevice).arg(gpu->name);
    return QStringLiteral("GPU %1").arg(cudaDevice);
}

namespace {

/// A handful of ordinals over millions of rows: a linear pass that looks a value up only when it differs from the row
/// before.
std::vector<int> scanDevicesUsed(const Profile& p)
{
    std::vector<int> devices;
    for (const IndexColumn<std::int32_t>* column : { &p.kernels.device, &p.memops.device, &p.graphLaunches.device }) {
        std::optional<int> previous;
        for (const int d : *column) {
            if (d == previous)
                continue;
            previous = d;
            if (std::find(devices.begin(), devices.end(), d) == devices.end())
                devices.push_back(d);
        }
    }
    std::sort(devices.begin(), devices.end());
    return devices;
}

} // namespace

std::vector<int> Profile::devicesUsed() const
{
    // Kept once computed: the status bar asks on the GUI thread, after the load's thread has (loadForWorkbench). A
    // profile's rows are final once it is shared, and a copy starts with nothing derived.
    return *derived.get<std::vector<int>>("devicesUsed", CancelToken(),
        [this]() { return std::make_shared<const std::vector<int>>(scanDevicesUsed(*this)); });
}

QString Profile::processLabel(ProcessIndex process) const
{
    if (process < 0 || std::size_t(process) >= processes.size())
        return QStringLiteral("?");
    const ProcessInfo& p = processes[std::size_t(process)];
    if (p.name.isEmpty())
        return QStringLiteral("pid %1").arg(p.pid);
    return QStringLiteral("%1 (%2)").arg(p.name).arg(p.pid);
}

QString Profile::threadLabel(ThreadIndex thread) const
{
    if (thread < 0 || std::size_t(thread) >= threads.size())
        return QStringLiteral("?");
    const ThreadInfo& t = threads[std::size_t(thread)];
    if (t.name.isEmpty())
        return QStringLiteral("tid %1").arg(t.tid);
    return QStringLiteral("%1 (%2)").arg(t.name).arg(t.tid);
}

const QString& Profile::nvtxDomainName(int domain) const
{
    static const QString defaultDomain;
    if (domain < 0 || std::size_t(domain) >= nvtxDomains.size())
        return defaultDomain;
    return nvtxDomains[std::size_t(domain)].name;
}

namespace {
template <typename T> std::size_t heapBytes(const std::vector<T>& v)
{
    return v.capacity() * sizeof(T);
}
template <typename T> std::size_t heapBytes(const Column<T>& c)
{
    return c.capacity() * sizeof(T);
}
std::size_t heapBytes(const TimeColumn& c)
{
    return c.memoryBytes();
}
template <typename T> std::size_t heapBytes(const IndexColumn<T>& c)
{
    return c.memoryBytes();
}
std::size_t heapBytes(TimeNs)
{
    return 0;
}
} // namespace

std::size_t Profile::memoryBytes() const
{
    std::size_t bytes = sizeof(Profile) + strings.memoryBytes();
    forEachTable(*this, [&](const char*, const auto& table) {
        forEachTableMember(
            table, [&](const char*, const auto& member, IndexInto, bool) { bytes += heapBytes(member); });
    });
    bytes += heapBytes(launchShapes) + (processes.size() + threads.size()) * 64;
    return bytes;
}

} // namespace nsw
