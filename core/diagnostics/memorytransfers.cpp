// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/memorytransfers.h"

#include "core/sqlite/sqlitedb.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace nsw {

namespace {

const QString kMemcpyTable = QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY");

QString directionOf(const Profile& p, int copyKind)
{
    if (copyKind == MemOpTable::kMemset)
        return QStringLiteral("memset");
    const auto it = p.memcpyKindLabels.find(copyKind);
    return it != p.memcpyKindLabels.end() ? it->second : QStringLiteral("kind %1").arg(copyKind);
}

void add(MemoryTransferRow& into, const MemoryTransferRow& r)
{
    into.count += r.count;
    into.bytes += r.bytes;
    into.totalNs += r.totalNs;
}

void sortByTime(std::vector<MemoryTransferRow>& rows)
{
    std::stable_sort(rows.begin(), rows.end(), [](const MemoryTransferRow& a, const MemoryTransferRow& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs
                                      : std::tie(a.direction, a.memoryKind) < std::tie(b.direction, b.memoryKind);
    });
}

} // namespace

QString memoryKindName(int kind)
{
    static const std::array<const char*, 8> names { "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static",
        "Managed Static", "Unknown" };
    return kind >= 0 && kind < int(names.size()) ? QString::fromLatin1(names[std::size_t(kind)])
                                                 : QStringLiteral("Unknown");
}

Result<bool> memcpyKindsExported(const QString& sqlitePath)
{
    QString error;
    const std::unique_ptr<SqliteDb> db = SqliteDb::open(sqlitePath, &error);
    if (!db)
        return Result<bool>::failure(ErrorKind::Input, error);
    if (!db->hasTable(kMemcpyTable))
        return Result<bool>::failure(
            ErrorKind::NoData, QStringLiteral("%1: no %2 table").arg(sqlitePath, kMemcpyTable));
    for (const char* column : { "srcKind", "dstKind" })
        if (!db->hasColumn(kMemcpyTable, QLatin1String(column)))
            return Result<bool>::failure(ErrorKind::NoData,
                QStringLiteral("%1: %2 has no %3 column").arg(sqlitePath, kMemcpyTable, QLatin1String(column)));
    return true;
}

MemoryResult computeMemoryTransfers(
    const AnalysisContext& c, bool kindsKnown, const QString& kindsMissing, const JobContext& job)
{
    MemoryResult result;
    const Profile& p = *c.profile;
    // Summed per integer code first, named afterwards: a QString per row of millions costs more than the sums.
    std::map<int, MemoryTransferRow> byCopyKind;
    c.forEachMemOp([&](std::size_t i) {
        const std::uint8_t kind = i < p.memops.copyKind.size() ? p.memops.copyKind[i] : 0;
        MemoryTransferRow& r = byCopyKind[kind];
        ++r.count;
        r.bytes += i < p.memops.bytes.size() ? p.memops.bytes[i] : 0;
        r.totalNs += p.memops.duration(i);
        if (kind != MemOpTable::kMemset)
            ++result.copies;
    });
    std::map<QString, MemoryTransferRow> byDirection;
    for (const auto& [kind, r] : byCopyKind)
        add(byDirection[directionOf(p, kind)], r);
    for (auto& [direction, r] : byDirection) {
        r.direction = direction;
        result.byDirection.push_back(r);
    }
    sortByTime(result.byDirection);

    std::map<StringRef, TimeNs> syncApis;
    std::map<ThreadIndex, TimeNs> syncThreads;
    c.forEachApiCall([&](std::size_t i) {
        if ((c.apiKind[i] & (ApiSync | ApiMemory)) != (ApiSync | ApiMemory))
            return;
        ++result.syncCopyCalls;
        result.syncCopyApiNs += p.cudaApi.end[i] - p.cudaApi.start[i];
        syncApis[p.cudaApi.name[i]] += p.cudaApi.end[i] - p.cudaApi.start[i];
        syncThreads[p.cudaApi.thread[i]] += p.cudaApi.end[i] - p.cudaApi.start[i];
    });
    result.syncCopyThreads = int(syncThreads.size());
    for (const auto& [thread, ns] : syncThreads)
        if (ns > result.syncCopyThreadNs) {
            result.syncCopyThreadNs = ns;
            result.syncCopyThread = p.threadLabel(thread);
        }
    std::vector<std::pair<TimeNs, QString>> apis;
    for (const auto& [ref, ns] : syncApis)
        apis.emplace_back(-ns, p.strings.at(ref));
    std::sort(apis.begin(), apis.end());
    for (const auto& a : apis)
        result.syncCopyApis << a.second;

    if (!kindsKnown) {
        result.kindsMissing = kindsMissing.isEmpty() ? QStringLiteral("memory kinds not read") : kindsMissing;
        return result;
    }
    result.kindsKnown = true;
    const MemOpTable& m = p.memops;
    auto kindAt = [](const Column<std::uint8_t>& kinds, std::size_t i) {
        const std::uint8_t kind = i < kinds.size() ? kinds[i] : MemOpTable::kNoMemKind;
        return kind == MemOpTable::kNoMemKind ? -1 : int(kind);
    };
    std::map<std::tuple<int, int, int>, MemoryTransferRow> byCodes; // copy kind, source kind, destination kind
    CancelPoll<> poll(job.cancelToken());
    c.forEachMemOp([&](std::size_t i) {
        const std::uint8_t copyKind = i < m.copyKind.size() ? m.copyKind[i] : MemOpTable::kMemset;
        if (copyKind == MemOpTable::kMemset || poll())
            return;
        const int source = kindAt(m.srcKind, i), destination = kindAt(m.dstKind, i);
        MemoryTransferRow& r = byCodes[{ copyKind, source, destination }];
        const TimeNs d = m.duration(i);
        const qint64 bytes = i < m.bytes.size() ? m.bytes[i] : 0;
        ++r.count;
        r.bytes += bytes;
        r.totalNs += d;
        if (source != 0 && destination != 0)
            return;
        ++result.pageableCopies;
        result.pageableBytes += bytes;
        result.pageableNs += d;
        const std::int32_t api = i < m.api.size() ? m.api[i] : -1;
        if (api >= 0 && !(c.apiKind[std::size_t(api)] & ApiSync))
            ++result.pageableAsyncCopies;
    });
    std::map<std::pair<QString, QString>, MemoryTransferRow> byKind;
    for (const auto& [codes, r] : byCodes) {
        const auto [copyKind, source, destination] = codes;
        add(byKind[{ directionOf(p, copyKind),
                memoryKindName(source) + QStringLiteral(" -> ") + memoryKindName(destination) }],
            r);
    }
    for (auto& [key, r] : byKind) {
        r.direction = key.first;
        r.memoryKind = key.second;
        result.byKind.push_back(r);
    }
    sortByTime(result.byKind);
    return result;
}

} // namespace nsw
