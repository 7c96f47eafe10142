// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/diagnostics/memorytransfers.h"

#include "core/sqlite/sqlitedb.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>
#include <unordered_map>

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

Result<MemcpyKindRows> readMemcpyKinds(const QString& sqlitePath, const JobContext& job)
{
    QString error;
    const std::unique_ptr<SqliteDb> db = SqliteDb::open(sqlitePath, &error);
    if (!db)
        return Result<MemcpyKindRows>::failure(ErrorKind::Input, error);
    if (!db->hasTable(kMemcpyTable))
        return Result<MemcpyKindRows>::failure(
            ErrorKind::NoData, QStringLiteral("%1: no %2 table").arg(sqlitePath, kMemcpyTable));
    for (const char* column : { "start", "end", "srcKind", "dstKind" })
        if (!db->hasColumn(kMemcpyTable, QLatin1String(column)))
            return Result<MemcpyKindRows>::failure(ErrorKind::NoData,
                QStringLiteral("%1: %2 has no %3 column").arg(sqlitePath, kMemcpyTable, QLatin1String(column)));
    auto column = [&](const char* name) {
        return db->hasColumn(kMemcpyTable, QLatin1String(name)) ? quoteIdentifier(QLatin1String(name))
                                                                : QStringLiteral("NULL");
    };
    Statement st(*db,
        QStringLiteral("SELECT start, end, %1, %2, srcKind, dstKind, %3, %4 FROM %5")
            .arg(column("bytes"), column("copyKind"), column("globalPid"), column("correlationId"), kMemcpyTable));
    if (!st.isValid())
        return Result<MemcpyKindRows>::failure(
            ErrorKind::Input, QStringLiteral("%1: %2: %3").arg(sqlitePath, kMemcpyTable, st.error()));
    MemcpyKindRows rows;
    CancelPoll<> poll(job.cancelToken());
    auto small = [&](int col) { return st.isNull(col) ? std::int16_t(-1) : std::int16_t(st.int64(col)); };
    for (;;) {
        const Statement::Step step = st.step();
        if (step == Statement::Step::Done)
            break;
        if (step == Statement::Step::Error)
            return Result<MemcpyKindRows>::failure(
                ErrorKind::Input, QStringLiteral("%1: %2: %3").arg(sqlitePath, kMemcpyTable, st.error()));
        if (poll())
            return Result<MemcpyKindRows>::cancelled();
        if (st.isNull(0) || st.isNull(1))
            continue;
        rows.start.push_back(st.int64(0));
        rows.end.push_back(st.int64(1));
        rows.bytes.push_back(st.isNull(2) ? 0 : st.int64(2));
        rows.copyKind.push_back(small(3));
        rows.srcKind.push_back(small(4));
        rows.dstKind.push_back(small(5));
        rows.pid.push_back(st.isNull(6) ? 0 : pidOf(st.int64(6)));
        rows.correlation.push_back(st.isNull(7) ? 0u : std::uint32_t(st.int64(7)));
    }
    return rows;
}

MemoryResult computeMemoryTransfers(
    const AnalysisContext& c, const MemcpyKindRows* kinds, const QString& kindsMissing, const JobContext& job)
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

    if (!kinds) {
        result.kindsMissing = kindsMissing.isEmpty() ? QStringLiteral("memory kinds not read") : kindsMissing;
        return result;
    }
    result.kindsKnown = true;
    std::map<std::tuple<int, int, int>, MemoryTransferRow> byCodes; // copy kind, source kind, destination kind
    std::vector<std::size_t> pageable;
    CancelPoll<> poll(job.cancelToken());
    for (std::size_t i = 0; i < kinds->size() && !poll(); ++i) {
        if (!c.focus.overlaps(kinds->start[i], kinds->end[i]))
            continue;
        MemoryTransferRow& r = byCodes[{ kinds->copyKind[i], kinds->srcKind[i], kinds->dstKind[i] }];
        const TimeNs d = kinds->end[i] - kinds->start[i];
        ++r.count;
        r.bytes += kinds->bytes[i];
        r.totalNs += d;
        if (kinds->srcKind[i] != 0 && kinds->dstKind[i] != 0)
            continue;
        ++result.pageableCopies;
        result.pageableBytes += kinds->bytes[i];
        result.pageableNs += d;
        pageable.push_back(i);
    }
    if (!pageable.empty()) {
        // A memcpy row and its memory operation are one event (same start and end): the focus holds both or neither.
        std::unordered_map<quint64, std::int32_t> apiOf; // (pid << 32 | correlation) -> launching call
        c.forEachMemOp([&](std::size_t i) {
            const ProcessIndex process = i < p.memops.process.size() ? p.memops.process[i] : kNoIndex;
            if (process >= 0 && i < p.memops.correlation.size())
                apiOf.emplace(
                    (quint64(std::uint32_t(p.processes[std::size_t(process)].pid)) << 32) | p.memops.correlation[i],
                    i < p.memops.api.size() ? p.memops.api[i] : -1);
        });
        for (const std::size_t i : pageable) {
            const auto api = apiOf.find((quint64(std::uint32_t(kinds->pid[i])) << 32) | kinds->correlation[i]);
            if (api != apiOf.end() && api->second >= 0 && !(c.apiKind[std::size_t(api->second)] & ApiSync))
                ++result.pageableAsyncCopies;
        }
    }
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
