// SPDX-License-Identifier: GPL-3.0-or-later
#include "tablereaders.h"

#include "core/profile/scanloop.h"

#include <QHash>
#include <optional>
#include <unordered_map>

namespace nsw {

namespace {

/// Result positions of the columns every GPU activity table shares.
struct ActivitySelect
{
    int start, end, device, context, stream, correlation, globalPid;
    ActivitySelect(const ActivitySelect&) = default;

    explicit ActivitySelect(ColumnSelect& s)
        : start(s.add(QStringLiteral("start")))
        , end(s.add(QStringLiteral("end")))
        , device(s.add(QStringLiteral("deviceId")))
        , context(s.add(QStringLiteral("contextId")))
        , stream(s.add(QStringLiteral("streamId")))
        , correlation(s.add(QStringLiteral("correlationId")))
        , globalPid(s.add(QStringLiteral("globalPid")))
    { }

    void append(sqlite3_stmt* st, ScanContext& ctx, GpuActivityColumns& out) const
    {
        // Raw values, as nsys stats uses them; interval algorithms treat end < start as empty.
        out.start.push_back(sqlite3_column_int64(st, start));
        out.end.push_back(sqlite3_column_int64(st, end));
        out.device.push_back(std::int32_t(sqlite3_column_int64(st, device)));
        out.context.push_back(std::uint32_t(sqlite3_column_int64(st, context)));
        out.stream.push_back(std::uint32_t(sqlite3_column_int64(st, stream)));
        out.correlation.push_back(std::uint32_t(sqlite3_column_int64(st, correlation)));
        out.process.push_back(ctx.processes.index(globalPidOf(sqlite3_column_int64(st, globalPid))));
    }
};

void reserveActivity(GpuActivityColumns& c, qint64 rows)
{
    const auto n = std::size_t(std::max<qint64>(rows, 0));
    c.start.reserve(n);
    c.end.reserve(n);
    c.process.reserve(n);
    c.device.reserve(n);
    c.context.reserve(n);
    c.stream.reserve(n);
    c.correlation.reserve(n);
}

bool requireColumns(const ColumnSelect& s, ScanContext& ctx, std::initializer_list<const char*> names)
{
    for (const char* n : names) {
        if (!s.has(QLatin1String(n))) {
            ctx.warnings.append(QStringLiteral("%1 has no column %2; table skipped").arg(ctx.table, QLatin1String(n)));
            return false;
        }
    }
    return true;
}

struct ShapeHash
{
    std::size_t operator()(const LaunchShape& s) const
    {
        std::size_t h = 0;
        auto mix = [&h](std::uint64_t v) {
            h ^= std::hash<std::uint64_t>()(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        };
        for (int i = 0; i < 3; ++i) {
            mix(s.grid[i]);
            mix(s.block[i]);
        }
        mix(std::uint64_t(s.registersPerThread));
        mix(std::uint64_t(s.staticSharedMemory));
        mix(std::uint64_t(s.dynamicSharedMemory));
        return h;
    }
};

} // namespace

bool readKernels(const SqliteDb& db, ScanContext& ctx, KernelScan& out, unsigned columns)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, { "start", "end" }))
        return true;
    const bool placement = columns & KernelPlacement;
    const bool launchShape = columns & KernelLaunchShape;
    const int start = s.add(QStringLiteral("start"));
    const int end = s.add(QStringLiteral("end"));
    const std::optional<ActivitySelect> a = placement ? std::optional<ActivitySelect>(ActivitySelect(s)) : std::nullopt;
    // The demangled name is also the fallback of the others, so it is read unless only the short one is asked for.
    const bool wantShort = columns & KernelShortName;
    const bool wantMangled = columns & KernelMangledName;
    const bool wantDemangled = (columns & KernelDemangledName) || !wantShort;
    const int demangled = wantDemangled ? s.add(QStringLiteral("demangledName")) : -1;
    const int shortName = wantShort ? s.add(QStringLiteral("shortName")) : -1;
    const int mangled = wantMangled ? s.add(QStringLiteral("mangledName")) : -1;
    int grid[3] = { -1, -1, -1 }, block[3] = { -1, -1, -1 }, registers = -1, staticShared = -1, dynamicShared = -1;
    if (launchShape) {
        grid[0] = s.add(QStringLiteral("gridX"));
        grid[1] = s.add(QStringLiteral("gridY"));
        grid[2] = s.add(QStringLiteral("gridZ"));
        block[0] = s.add(QStringLiteral("blockX"));
        block[1] = s.add(QStringLiteral("blockY"));
        block[2] = s.add(QStringLiteral("blockZ"));
        registers = s.add(QStringLiteral("registersPerThread"));
        staticShared = s.add(QStringLiteral("staticSharedMemory"));
        dynamicShared = s.add(QStringLiteral("dynamicSharedMemory"));
    }

    // Columns the load does not ask for stay empty (see KernelTable): a report that needs names and durations of
    // millions of kernels then holds three columns, not eleven.
    KernelTable& t = out.table;
    const auto n = std::size_t(std::max<qint64>(ctx.estimatedRows, 0));
    t.start.reserve(n);
    t.end.reserve(n);
    if (placement)
        reserveActivity(t, ctx.estimatedRows);
    if (wantDemangled)
        t.demangledName.reserve(n);
    if (wantShort)
        t.shortName.reserve(n);
    if (wantMangled)
        t.mangledName.reserve(n);
    if (launchShape)
        t.shape.reserve(n);

    std::unordered_map<LaunchShape, std::uint32_t, ShapeHash> shapeIndex;
    LaunchShape lastShape;
    std::uint32_t lastShapeIndex = std::uint32_t(-1);
    return scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](sqlite3_stmt* st) {
        if (a) {
            a->append(st, ctx, t);
        } else {
            t.start.push_back(sqlite3_column_int64(st, start));
            t.end.push_back(sqlite3_column_int64(st, end));
        }
        const std::int32_t d = wantDemangled ? ctx.stringId(st, demangled) : kNoString;
        const std::int32_t sh = wantShort ? ctx.stringId(st, shortName) : kNoString;
        if (wantDemangled)
            t.demangledName.push_back(d != kNoString ? d : sh);
        if (wantShort)
            t.shortName.push_back(sh != kNoString ? sh : d);
        if (wantMangled)
            t.mangledName.push_back(ctx.stringId(st, mangled));
        if (!launchShape)
            return;
        LaunchShape shape;
        for (int i = 0; i < 3; ++i) {
            shape.grid[i] = std::uint32_t(sqlite3_column_int64(st, grid[i]));
            shape.block[i] = std::uint32_t(sqlite3_column_int64(st, block[i]));
        }
        shape.registersPerThread = std::int32_t(sqlite3_column_int64(st, registers));
        shape.staticSharedMemory = std::int32_t(sqlite3_column_int64(st, staticShared));
        shape.dynamicSharedMemory = std::int32_t(sqlite3_column_int64(st, dynamicShared));
        if (!(lastShapeIndex != std::uint32_t(-1) && shape == lastShape)) {
            const auto [it, inserted] = shapeIndex.try_emplace(shape, std::uint32_t(out.shapes.size()));
            if (inserted)
                out.shapes.push_back(shape);
            lastShape = shape;
            lastShapeIndex = it->second;
        }
        t.shape.push_back(lastShapeIndex);
    });
}

bool readMemcpy(const SqliteDb& db, ScanContext& ctx, MemOpTable& out)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, { "start", "end" }))
        return true;
    const ActivitySelect a(s);
    const int bytes = s.add(QStringLiteral("bytes"));
    const int copyKind = s.add(QStringLiteral("copyKind"));
    reserveActivity(out, ctx.estimatedRows);
    return scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](sqlite3_stmt* st) {
        a.append(st, ctx, out);
        out.bytes.push_back(sqlite3_column_int64(st, bytes));
        // Kinds are 0..13; anything else is shown as its number through memcpyKindLabels.
        out.copyKind.push_back(std::uint8_t(std::clamp<sqlite3_int64>(sqlite3_column_int64(st, copyKind), 0, 254)));
    });
}

bool readMemset(const SqliteDb& db, ScanContext& ctx, MemOpTable& out)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, { "start", "end" }))
        return true;
    const ActivitySelect a(s);
    const int bytes = s.add(QStringLiteral("bytes"));
    reserveActivity(out, ctx.estimatedRows);
    return scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](sqlite3_stmt* st) {
        a.append(st, ctx, out);
        out.bytes.push_back(sqlite3_column_int64(st, bytes));
        out.copyKind.push_back(MemOpTable::kMemset);
    });
}

bool readGraphTrace(const SqliteDb& db, ScanContext& ctx, GraphLaunchTable& out)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, { "start", "end" }))
        return true;
    const ActivitySelect a(s);
    const int graphId = s.add(QStringLiteral("graphId"));
    const int graphExecId = s.add(QStringLiteral("graphExecId"));
    reserveActivity(out, ctx.estimatedRows);
    return scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](sqlite3_stmt* st) {
        a.append(st, ctx, out);
        out.graphId.push_back(sqlite3_column_int64(st, graphId));
        out.graphExecId.push_back(sqlite3_column_int64(st, graphExecId));
    });
}

bool readCudaApi(const SqliteDb& db, ScanContext& ctx, CudaApiTable& out)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, { "start", "end", "globalTid" }))
        return true;
    const int start = s.add(QStringLiteral("start"));
    const int end = s.add(QStringLiteral("end"));
    const int tid = s.add(QStringLiteral("globalTid"));
    const int correlation = s.add(QStringLiteral("correlationId"));
    const int name = s.add(QStringLiteral("nameId"));
    const int eventClass = s.add(QStringLiteral("eventClass"));
    const auto n = std::size_t(std::max<qint64>(ctx.estimatedRows, 0));
    out.start.reserve(n);
    out.end.reserve(n);
    out.thread.reserve(n);
    out.correlation.reserve(n);
    out.name.reserve(n);
    out.eventClass.reserve(n);
    return scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](sqlite3_stmt* st) {
        out.start.push_back(sqlite3_column_int64(st, start));
        out.end.push_back(sqlite3_column_int64(st, end));
        out.thread.push_back(ctx.threads.index(sqlite3_column_int64(st, tid)));
        out.correlation.push_back(std::uint32_t(sqlite3_column_int64(st, correlation)));
        out.name.push_back(ctx.stringId(st, name));
        out.eventClass.push_back(std::uint8_t(sqlite3_column_int64(st, eventClass)));
    });
}

bool readNvtx(const SqliteDb& db, ScanContext& ctx, NvtxScan& out)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, { "start", "eventType", "globalTid" }))
        return true;
    const int start = s.add(QStringLiteral("start"));
    const int end = s.add(QStringLiteral("end"));
    const int eventType = s.add(QStringLiteral("eventType"));
    const int text = s.add(QStringLiteral("text"));
    const int textId = s.add(QStringLiteral("textId"));
    const int tid = s.add(QStringLiteral("globalTid"));
    const int endTid = s.add(QStringLiteral("endGlobalTid"));
    const int domainId = s.add(QStringLiteral("domainId"));

    NvtxTable& t = out.table;
    const auto n = std::size_t(std::max<qint64>(ctx.estimatedRows, 0));
    t.start.reserve(n);
    t.end.reserve(n);
    t.thread.reserve(n);
    t.name.reserve(n);
    t.domain.reserve(n);
    t.eventType.reserve(n);

    std::map<std::pair<std::int64_t, std::int64_t>, std::int32_t> domainIndex;
    auto domainOf = [&](std::int64_t globalPid, std::int64_t id) {
        const auto [it, inserted] = domainIndex.try_emplace({ globalPid, id }, std::int32_t(out.domains.size()));
        if (inserted)
            out.domains.push_back({ globalPid, id, kNoString });
        return it->second;
    };
    std::pair<std::int64_t, std::int64_t> lastDomainKey { -1, -1 };
    std::int16_t lastDomain = -1;
    auto nameOf = [&](sqlite3_stmt* st) -> std::int32_t {
        // nsys's reports take coalesce(StringIds[textId], text).
        if (!columnIsNull(st, textId))
            return ctx.stringId(st, textId);
        if (!columnIsNull(st, text)) {
            const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, text));
            return ctx.inlineTexts.add(std::string_view(p, std::size_t(sqlite3_column_bytes(st, text))));
        }
        return kNoString;
    };

    // Every row is read (no WHERE): nsys ends unterminated ranges at the table-wide maximum timestamp, over all
    // event types. Only ranges, marks and the rows that name domains and threads are kept.
    TimeNs maxTimestamp = kNoTime;
    const bool ok = scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](sqlite3_stmt* st) {
        const int type = int(sqlite3_column_int64(st, eventType));
        const TimeNs rowStart = sqlite3_column_int64(st, start);
        const bool hasEnd = !columnIsNull(st, end);
        const TimeNs rowEnd = hasEnd ? sqlite3_column_int64(st, end) : kNoTime;
        maxTimestamp = std::max({ maxTimestamp, rowStart, rowEnd });
        if (type != 34 && type != 39 && type != 59 && type != 60 && type != 70 && type != 71 && type != 75)
            return;
        const std::int64_t globalTid = sqlite3_column_int64(st, tid);
        const std::int64_t domain = columnIsNull(st, domainId) ? 0 : sqlite3_column_int64(st, domainId);
        if (type == 75) {
            out.domains[std::size_t(domainOf(globalPidOf(globalTid), domain))].nameValue = nameOf(st);
            return;
        }
        if (type == 39) {
            out.threadNames.emplace_back(ctx.threads.index(globalTid), nameOf(st));
            return;
        }
        const std::size_t row = t.start.size();
        t.start.push_back(rowStart);
        t.end.push_back(type == NvtxTable::kMark ? kNoTime : rowEnd);
        const std::int32_t thread = ctx.threads.index(globalTid);
        t.thread.push_back(thread);
        t.name.push_back(nameOf(st));
        t.eventType.push_back(std::uint8_t(type));
        if (domain == 0) {
            t.domain.push_back(-1);
        } else {
            const std::pair<std::int64_t, std::int64_t> key { globalPidOf(globalTid), domain };
            if (key != lastDomainKey) {
                // More than 32767 NVTX domains in one file has never been seen; such rows read as unnamed.
                const std::int32_t d = domainOf(key.first, key.second);
                lastDomain = d <= std::numeric_limits<std::int16_t>::max() ? std::int16_t(d) : std::int16_t(-1);
                lastDomainKey = key;
            }
            t.domain.push_back(lastDomain);
        }
        if (!columnIsNull(st, endTid))
            t.endThread.emplace_back(std::uint32_t(row), ctx.threads.index(sqlite3_column_int64(st, endTid)));
    });
    t.maxTimestamp = maxTimestamp;
    return ok;
}

bool readOsrt(const SqliteDb& db, ScanContext& ctx, OsrtTable& out)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, { "start", "end", "globalTid" }))
        return true;
    const int start = s.add(QStringLiteral("start"));
    const int end = s.add(QStringLiteral("end"));
    const int tid = s.add(QStringLiteral("globalTid"));
    const int name = s.add(QStringLiteral("nameId"));
    const int eventClass = s.add(QStringLiteral("eventClass"));
    const auto n = std::size_t(std::max<qint64>(ctx.estimatedRows, 0));
    out.start.reserve(n);
    out.end.reserve(n);
    out.thread.reserve(n);
    out.name.reserve(n);
    out.eventClass.reserve(n);
    return scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](sqlite3_stmt* st) {
        out.start.push_back(sqlite3_column_int64(st, start));
        out.end.push_back(sqlite3_column_int64(st, end));
        out.thread.push_back(ctx.threads.index(sqlite3_column_int64(st, tid)));
        out.name.push_back(ctx.stringId(st, name));
        out.eventClass.push_back(
            std::uint8_t(columnIsNull(st, eventClass) ? OsrtTable::kOsRuntime : sqlite3_column_int64(st, eventClass)));
    });
}

} // namespace nsw
