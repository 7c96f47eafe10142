// SPDX-License-Identifier: GPL-3.0-or-later
#include "profilefacts.h"

#include "core/profilecache/bytecodec.h"

namespace nsw {

namespace {

void putMeta(ByteWriter& w, const ProfileMetadata& m)
{
    w.put(m.reportPath);
    w.put(m.nsysVersion);
    w.put(m.schemaVersion);
    w.put(m.metadataTable);
    w.put(std::uint32_t(m.exportMetadata.size()));
    for (const auto& [key, value] : m.exportMetadata) {
        w.put(key);
        w.put(value);
    }
    w.put(m.sessionStartUtcNs);
    w.put(m.analysisDurationNs);
    w.put(std::uint8_t(m.timeNormalized));
    w.put(m.hostname);
    w.put(m.warnings);
    w.put(m.tables);
}

void getMeta(ByteReader& r, ProfileMetadata& m)
{
    m.reportPath = r.getString();
    m.nsysVersion = r.getString();
    m.schemaVersion = r.getString();
    m.metadataTable = r.getString();
    const std::uint32_t pairs = r.getCount(8);
    for (std::uint32_t i = 0; i < pairs && !r.failed(); ++i) {
        QString key = r.getString();
        m.exportMetadata.emplace_back(std::move(key), r.getString());
    }
    m.sessionStartUtcNs = r.get<TimeNs>();
    m.analysisDurationNs = r.get<TimeNs>();
    m.timeNormalized = r.get<std::uint8_t>() != 0;
    m.hostname = r.getString();
    m.warnings = r.getStringList();
    m.tables = r.getStringList();
}

void putGpu(ByteWriter& w, const GpuInfo& g)
{
    w.put(g.id);
    w.put(g.cudaDevice);
    w.put(g.name);
    w.put(g.busLocation);
    w.put(g.uuid);
    w.put(g.chipName);
    w.put(g.smCount);
    w.put(g.totalMemory);
    w.put(g.memoryBandwidth);
    w.put(g.computeMajor);
    w.put(g.computeMinor);
}

GpuInfo getGpu(ByteReader& r)
{
    GpuInfo g;
    g.id = r.get<int>();
    g.cudaDevice = r.get<int>();
    g.name = r.getString();
    g.busLocation = r.getString();
    g.uuid = r.getString();
    g.chipName = r.getString();
    g.smCount = r.get<int>();
    g.totalMemory = r.get<qint64>();
    g.memoryBandwidth = r.get<qint64>();
    g.computeMajor = r.get<int>();
    g.computeMinor = r.get<int>();
    return g;
}

bool isIndexOrNone(std::int32_t index, std::size_t size)
{
    return index == kNoIndex || (index >= 0 && std::size_t(index) < size);
}

} // namespace

QByteArray encodeProfileFacts(const Profile& p, const QStringList& loadWarnings)
{
    ByteWriter w;
    putMeta(w, p.meta);
    w.put(std::uint32_t(p.processes.size()));
    for (const ProcessInfo& process : p.processes) {
        w.put(process.globalPid);
        w.put(process.pid);
        w.put(process.hostKey);
        w.put(process.name);
    }
    w.put(std::uint32_t(p.threads.size()));
    for (const ThreadInfo& t : p.threads) {
        w.put(t.globalTid);
        w.put(t.tid);
        w.put(t.process);
        w.put(t.name);
        w.put(t.namePriority);
    }
    w.put(std::uint32_t(p.gpus.size()));
    for (const GpuInfo& g : p.gpus)
        putGpu(w, g);
    w.put(std::uint32_t(p.cudaDevices.size()));
    for (const CudaDeviceMapping& d : p.cudaDevices) {
        w.put(d.gpuId);
        w.put(d.cudaId);
        w.put(d.pid);
    }
    w.put(std::uint32_t(p.nvtxDomains.size()));
    for (const NvtxDomain& d : p.nvtxDomains) {
        w.put(d.process);
        w.put(d.domainId);
        w.put(d.name);
    }
    w.put(std::uint32_t(p.memcpyKindLabels.size()));
    for (const auto& [kind, label] : p.memcpyKindLabels) {
        w.put(std::int32_t(kind));
        w.put(label);
    }
    w.put(std::uint32_t(p.cpuSamples.stateLabels.size()));
    for (const auto& [state, label] : p.cpuSamples.stateLabels) {
        w.put(std::int32_t(state));
        w.put(label);
    }
    w.put(p.activityStart);
    w.put(p.activityEnd);
    w.put(loadWarnings);
    return w.bytes();
}

bool decodeProfileFacts(const QByteArray& bytes, Profile& p, QStringList& loadWarnings)
{
    ByteReader r(bytes);
    getMeta(r, p.meta);
    const std::uint32_t processes = r.getCount(20);
    for (std::uint32_t i = 0; i < processes && !r.failed(); ++i) {
        ProcessInfo process;
        process.globalPid = r.get<qint64>();
        process.pid = r.get<int>();
        process.hostKey = r.get<int>();
        process.name = r.getString();
        p.processes.push_back(std::move(process));
    }
    const std::uint32_t threads = r.getCount(28);
    for (std::uint32_t i = 0; i < threads && !r.failed(); ++i) {
        ThreadInfo t;
        t.globalTid = r.get<qint64>();
        t.tid = r.get<int>();
        t.process = r.get<ProcessIndex>();
        t.name = r.getString();
        t.namePriority = r.get<qint64>();
        if (!isIndexOrNone(t.process, p.processes.size()))
            return false;
        p.threads.push_back(std::move(t));
    }
    const std::uint32_t gpus = r.getCount(48);
    for (std::uint32_t i = 0; i < gpus && !r.failed(); ++i)
        p.gpus.push_back(getGpu(r));
    const std::uint32_t devices = r.getCount(12);
    for (std::uint32_t i = 0; i < devices && !r.failed(); ++i) {
        CudaDeviceMapping d;
        d.gpuId = r.get<int>();
        d.cudaId = r.get<int>();
        d.pid = r.get<int>();
        p.cudaDevices.push_back(d);
    }
    const std::uint32_t domains = r.getCount(16);
    for (std::uint32_t i = 0; i < domains && !r.failed(); ++i) {
        NvtxDomain d;
        d.process = r.get<ProcessIndex>();
        d.domainId = r.get<qint64>();
        d.name = r.getString();
        if (!isIndexOrNone(d.process, p.processes.size()))
            return false;
        p.nvtxDomains.push_back(std::move(d));
    }
    const std::uint32_t labels = r.getCount(8);
    for (std::uint32_t i = 0; i < labels && !r.failed(); ++i) {
        const auto kind = r.get<std::int32_t>();
        p.memcpyKindLabels[kind] = r.getString();
    }
    const std::uint32_t stateLabels = r.getCount(8);
    for (std::uint32_t i = 0; i < stateLabels && !r.failed(); ++i) {
        const auto state = r.get<std::int32_t>();
        p.cpuSamples.stateLabels[state] = r.getString();
    }
    p.activityStart = r.get<TimeNs>();
    p.activityEnd = r.get<TimeNs>();
    loadWarnings = r.getStringList();
    return !r.failed() && r.atEnd();
}

EncodedStrings encodeStrings(const StringPool& pool)
{
    EncodedStrings e;
    e.offsets.reserve(pool.size() + 1);
    e.offsets.push_back(0);
    for (const QString& text : pool.texts()) {
        e.units.insert(e.units.end(), text.utf16(), text.utf16() + text.size());
        e.offsets.push_back(e.units.size());
    }
    return e;
}

std::optional<StringPool> decodeStrings(
    const std::uint64_t* offsets, std::size_t offsetCount, const char16_t* units, std::size_t unitCount)
{
    if (offsetCount == 0 || offsets[0] != 0 || offsets[offsetCount - 1] != unitCount)
        return std::nullopt;
    std::vector<QString> texts;
    texts.reserve(offsetCount - 1);
    for (std::size_t i = 0; i + 1 < offsetCount; ++i) {
        if (offsets[i + 1] < offsets[i])
            return std::nullopt;
        texts.push_back(
            QString(reinterpret_cast<const QChar*>(units + offsets[i]), qsizetype(offsets[i + 1] - offsets[i])));
    }
    return StringPool::fromDistinct(std::move(texts));
}

} // namespace nsw
