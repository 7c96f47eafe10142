// SPDX-License-Identifier: GPL-3.0-or-later
#include "profilefacts.h"

#include "core/profilecache/bytecodec.h"

#include <algorithm>

namespace nsw {

namespace {

/// The facts in file order, written once for both directions: @p io is a ByteWriter (and @p p a const profile) or
/// a ByteReader.
template <class Io, class P, class Warnings> void visitFacts(Io& io, P& p, Warnings& loadWarnings)
{
    auto& m = p.meta;
    io.fields(m.reportPath, m.nsysVersion, m.schemaVersion, m.metadataTable);
    io.list(m.exportMetadata, 8, [&](auto& entry) { io.fields(entry.first, entry.second); });
    io.fields(m.sessionStartUtcNs, m.analysisDurationNs, m.timeNormalized, m.hostname, m.warnings, m.tables);
    io.list(p.processes, 20,
        [&](auto& process) { io.fields(process.globalPid, process.pid, process.hostKey, process.name); });
    io.list(p.threads, 28, [&](auto& t) { io.fields(t.globalTid, t.tid, t.process, t.name, t.namePriority); });
    io.list(p.gpus, 48, [&](auto& g) {
        io.fields(g.id, g.cudaDevice, g.name, g.busLocation, g.uuid, g.chipName, g.smCount, g.totalMemory,
            g.memoryBandwidth, g.computeMajor, g.computeMinor);
    });
    io.list(p.cudaDevices, 12, [&](auto& d) { io.fields(d.gpuId, d.cudaId, d.pid); });
    io.list(p.nvtxDomains, 16, [&](auto& d) { io.fields(d.process, d.domainId, d.name); });
    io.map(p.memcpyKindLabels, 8);
    io.map(p.cpuSamples.stateLabels, 8);
    io.fields(p.activityStart, p.activityEnd, loadWarnings);
}

bool isIndexOrNone(std::int32_t index, std::size_t size)
{
    return index == kNoIndex || (index >= 0 && std::size_t(index) < size);
}

} // namespace

QByteArray encodeProfileFacts(const Profile& p, const QStringList& loadWarnings)
{
    ByteWriter w;
    visitFacts(w, p, loadWarnings);
    return w.bytes();
}

bool decodeProfileFacts(const QByteArray& bytes, Profile& p, QStringList& loadWarnings)
{
    ByteReader r(bytes);
    visitFacts(r, p, loadWarnings);
    const auto ofKnownProcess = [&](const auto& row) { return isIndexOrNone(row.process, p.processes.size()); };
    return !r.failed() && r.atEnd() && std::all_of(p.threads.begin(), p.threads.end(), ofKnownProcess)
        && std::all_of(p.nvtxDomains.begin(), p.nvtxDomains.end(), ofKnownProcess);
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
