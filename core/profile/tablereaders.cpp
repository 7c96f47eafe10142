// SPDX-License-Identifier: GPL-3.0-or-later
#include "tablereaders.h"

#include "core/profile/scanloop.h"
#include "core/profile/timelimits.h"
#include "core/util/hugepages.h"

#include <QHash>
#include <array>
#include <optional>
#include <unordered_map>

namespace nsw {

namespace {

bool readTime(const Row& r, int column, TimeNs& t)
{
    const Statement::IntCell time = r.cell(column);
    if (time.type != SqlType::Integer)
        return false;
    t = time.value;
    return plausibleTime(t);
}

/// Start and end of an interval row; false (and counted) when either is NULL, not an integer, implausibly far, or
/// when end < start: such rows are skipped rather than read as 0 or as a negative duration.
bool readInterval(const Row& r, int start, int end, ScanContext& ctx, TimeNs& s, TimeNs& e)
{
    if (readTime(r, start, s) && readTime(r, end, e) && plausibleInterval(s, e))
        return true;
    ++ctx.badTimeRows;
    return false;
}

/// A range or mark needs a start; a range's end, when there is one, must follow it (no end = unterminated).
bool usableNvtxTimes(int type, bool goodStart, bool hasEnd, bool goodEnd, TimeNs start, TimeNs end)
{
    if (!goodStart)
        return false;
    if (!hasEnd || type == NvtxTable::kMark)
        return true;
    return goodEnd && plausibleInterval(start, end);
}

std::int32_t readDevice(const Row& r, int column, ScanContext& ctx)
{
    const qint64 v = r.int64(column);
    if (v >= 0 && v <= std::numeric_limits<std::int32_t>::max())
        return std::int32_t(v);
    ++ctx.badIds;
    return -1;
}

std::uint32_t readCorrelation(const Row& r, int column, ScanContext& ctx)
{
    const qint64 v = r.int64(column);
    if (v >= 0 && v <= qint64(std::numeric_limits<std::uint32_t>::max()))
        return std::uint32_t(v);
    ++ctx.badIds;
    return 0;
}

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

    /// Appends the row, or skips it (counted) when its interval is unusable.
    bool append(const Row& st, ScanContext& ctx, GpuActivityColumns& out) const
    {
        TimeNs s, e;
        if (!readInterval(st, start, end, ctx, s, e))
            return false;
        out.start.push_back(s);
        out.end.push_back(e);
        out.device.push_back(readDevice(st, device, ctx));
        out.context.push_back(std::uint32_t(st.int64(context)));
        out.stream.push_back(std::uint32_t(st.int64(stream)));
        out.correlation.push_back(readCorrelation(st, correlation, ctx));
        out.process.push_back(ctx.processes.index(globalPidOf(st.int64(globalPid))));
        return true;
    }
};

/// Result positions of the columns the CPU-side call tables (CUDA API, OS runtime) share.
struct CallSelect
{
    int start, end, thread, name;

    explicit CallSelect(ColumnSelect& s)
        : start(s.add(QStringLiteral("start")))
        , end(s.add(QStringLiteral("end")))
        , thread(s.add(QStringLiteral("globalTid")))
        , name(s.add(QStringLiteral("nameId")))
    { }

    /// Appends the row's time, thread and name, or skips it (counted) when its interval is unusable.
    template <typename Table> bool append(const Row& st, ScanContext& ctx, Table& out) const
    {
        TimeNs s, e;
        if (!readInterval(st, start, end, ctx, s, e))
            return false;
        out.start.push_back(s);
        out.end.push_back(e);
        out.thread.push_back(ctx.threads.index(st.int64(thread)));
        out.name.push_back(ctx.localName(readStringId(ctx, st, name)));
        return true;
    }
};

void reserveActivity(GpuActivityColumns& c, std::size_t n)
{
    reserveAllHugePages(n, c.start, c.end, c.process, c.device, c.context, c.stream, c.correlation);
}

/// ENUM_CUDA_MEM_KIND id (0..7 seen); NULL, a missing column or an id out of range -> kNoMemKind.
std::uint8_t readMemKind(const Row& r, int column)
{
    if (column < 0 || !r.isInteger(column))
        return MemOpTable::kNoMemKind;
    const qint64 v = r.int64(column);
    return v >= 0 && v < MemOpTable::kNoMemKind ? std::uint8_t(v) : MemOpTable::kNoMemKind;
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

/// Scans a GPU activity table: the placement columns every one has, then the table's own @p columns (by name), whose
/// result positions @p readRow gets, in the same order, for each row kept.
template <std::size_t N, typename ReadRow>
bool readActivityTable(const SqliteDb& db, ScanContext& ctx, GpuActivityColumns& out,
    const std::array<const char*, N>& columns, ReadRow&& readRow)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, db.path(), { "start", "end" }))
        return false;
    const ActivitySelect a(s);
    std::array<int, N> at {};
    for (std::size_t i = 0; i < N; ++i)
        at[i] = s.add(QLatin1String(columns[i]));
    reserveActivity(out, expectedRows(ctx));
    return scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](const Row& st) {
        if (a.append(st, ctx, out))
            readRow(st, at);
    });
}

} // namespace

bool readKernels(const SqliteDb& db, ScanContext& ctx, KernelScan& out, unsigned columns)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, db.path(), { "start", "end" }))
        return false;
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
    const std::size_t n = expectedRows(ctx);
    reserveAllHugePages(n, t.start, t.end);
    if (placement)
        reserveActivity(t, n);
    if (wantDemangled)
        reserveHugePages(t.demangledName, n);
    if (wantShort)
        reserveHugePages(t.shortName, n);
    if (wantMangled)
        reserveHugePages(t.mangledName, n);
    if (launchShape)
        reserveHugePages(t.shape, n);

    std::unordered_map<LaunchShape, std::uint32_t, ShapeHash> shapeIndex;
    LaunchShape lastShape;
    std::uint32_t lastShapeIndex = std::uint32_t(-1);
    return scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](const Row& st) {
        if (a) {
            if (!a->append(st, ctx, t))
                return;
        } else {
            TimeNs s0, e0;
            if (!readInterval(st, start, end, ctx, s0, e0))
                return;
            t.start.push_back(s0);
            t.end.push_back(e0);
        }
        const std::int32_t d = wantDemangled ? readStringId(ctx, st, demangled) : kNoString;
        const std::int32_t sh = wantShort ? readStringId(ctx, st, shortName) : kNoString;
        if (wantDemangled)
            t.demangledName.push_back(d != kNoString ? d : sh);
        if (wantShort)
            t.shortName.push_back(sh != kNoString ? sh : d);
        if (wantMangled)
            t.mangledName.push_back(readStringId(ctx, st, mangled));
        if (!launchShape)
            return;
        LaunchShape shape;
        for (int i = 0; i < 3; ++i) {
            shape.grid[i] = std::uint32_t(st.int64(grid[i]));
            shape.block[i] = std::uint32_t(st.int64(block[i]));
        }
        shape.registersPerThread = std::int32_t(st.int64(registers));
        shape.staticSharedMemory = std::int32_t(st.int64(staticShared));
        shape.dynamicSharedMemory = std::int32_t(st.int64(dynamicShared));
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
    const std::array columns { "bytes", "copyKind", "srcKind", "dstKind" };
    return readActivityTable(db, ctx, out, columns, [&](const Row& st, const std::array<int, 4>& at) {
        out.bytes.push_back(st.int64(at[0]));
        // Kinds are 0..13; anything else is shown as its number through memcpyKindLabels.
        out.copyKind.push_back(std::uint8_t(std::clamp<qint64>(st.int64(at[1]), 0, 254)));
        out.srcKind.push_back(readMemKind(st, at[2]));
        out.dstKind.push_back(readMemKind(st, at[3]));
    });
}

bool readMemset(const SqliteDb& db, ScanContext& ctx, MemOpTable& out)
{
    const std::array columns { "bytes", "memKind" };
    return readActivityTable(db, ctx, out, columns, [&](const Row& st, const std::array<int, 2>& at) {
        out.bytes.push_back(st.int64(at[0]));
        out.copyKind.push_back(MemOpTable::kMemset);
        out.srcKind.push_back(readMemKind(st, at[1]));
        out.dstKind.push_back(MemOpTable::kNoMemKind);
    });
}

bool readGraphTrace(const SqliteDb& db, ScanContext& ctx, GraphLaunchTable& out)
{
    const std::array columns { "graphId", "graphExecId" };
    return readActivityTable(db, ctx, out, columns, [&](const Row& st, const std::array<int, 2>& at) {
        out.graphId.push_back(st.int64(at[0]));
        out.graphExecId.push_back(st.int64(at[1]));
    });
}

bool readCudaApi(const SqliteDb& db, ScanContext& ctx, CudaApiTable& out)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, db.path(), { "start", "end", "globalTid" }))
        return false;
    const CallSelect call(s);
    const int correlation = s.add(QStringLiteral("correlationId"));
    const int eventClass = s.add(QStringLiteral("eventClass"));
    const int returnValue = s.add(QStringLiteral("returnValue"));
    reserveAllHugePages(
        expectedRows(ctx), out.start, out.end, out.thread, out.correlation, out.name, out.eventClass, out.returnValue);
    return scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](const Row& st) {
        if (!call.append(st, ctx, out))
            return;
        out.correlation.push_back(readCorrelation(st, correlation, ctx));
        out.eventClass.push_back(std::uint8_t(st.int64(eventClass)));
        out.returnValue.push_back(std::int32_t(st.int64(returnValue)));
    });
}

bool readNvtx(const SqliteDb& db, ScanContext& ctx, NvtxScan& out)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, db.path(), { "start", "eventType", "globalTid" }))
        return false;
    const int start = s.add(QStringLiteral("start"));
    const int end = s.add(QStringLiteral("end"));
    const int eventType = s.add(QStringLiteral("eventType"));
    const int text = s.add(QStringLiteral("text"));
    const int textId = s.add(QStringLiteral("textId"));
    const int tid = s.add(QStringLiteral("globalTid"));
    const int endTid = s.add(QStringLiteral("endGlobalTid"));
    const int domainId = s.add(QStringLiteral("domainId"));

    NvtxTable& t = out.table;
    reserveAllHugePages(expectedRows(ctx), t.start, t.end, t.thread, t.name, t.domain, t.eventType);

    std::map<std::pair<std::int64_t, std::int64_t>, std::int32_t> domainIndex;
    auto domainOf = [&](std::int64_t globalPid, std::int64_t id) {
        const auto [it, inserted] = domainIndex.try_emplace({ globalPid, id }, std::int32_t(out.domains.size()));
        if (inserted)
            out.domains.push_back({ globalPid, id, kNoString });
        return it->second;
    };
    std::pair<std::int64_t, std::int64_t> lastDomainKey { -1, -1 };
    std::int16_t lastDomain = -1;
    auto nameOf = [&](const Row& st) -> std::int32_t {
        // nsys's reports take coalesce(StringIds[textId], text).
        if (!st.isNull(textId))
            return readStringId(ctx, st, textId);
        if (!st.isNull(text))
            return ctx.inlineTexts.add(st.bytes(text));
        return kNoString;
    };

    // Every row is read (no WHERE): nsys ends unterminated ranges at the table-wide maximum timestamp, over all
    // event types. Only ranges, marks and the rows that name domains and threads are kept.
    TimeNs maxTimestamp = kNoTime;
    const bool ok = scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](const Row& st) {
        const int type = int(std::clamp<qint64>(st.int64(eventType), -1, 1000));
        TimeNs rowStart = kNoTime, rowEnd = kNoTime;
        const bool goodStart = readTime(st, start, rowStart);
        const bool hasEnd = !st.isNull(end);
        const bool goodEnd = hasEnd && readTime(st, end, rowEnd);
        maxTimestamp = std::max({ maxTimestamp, goodStart ? rowStart : kNoTime, goodEnd ? rowEnd : kNoTime });
        if (type != 34 && type != 39 && type != 59 && type != 60 && type != 70 && type != 71 && type != 75)
            return;
        const bool named = type == 39 || type == 75;
        if (!named && !usableNvtxTimes(type, goodStart, hasEnd, goodEnd, rowStart, rowEnd)) {
            ++ctx.badTimeRows;
            return;
        }
        const std::int64_t globalTid = st.int64(tid);
        const std::int64_t domain = st.isNull(domainId) ? 0 : st.int64(domainId);
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
        t.name.push_back(ctx.localName(nameOf(st)));
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
        if (!st.isNull(endTid))
            t.endThread.push_back(NvtxEndThread { std::uint32_t(row), ctx.threads.index(st.int64(endTid)) });
    });
    t.maxTimestamp = maxTimestamp;
    return ok;
}

bool readOsrt(const SqliteDb& db, ScanContext& ctx, OsrtTable& out)
{
    ColumnSelect s(db, ctx.table);
    if (!requireColumns(s, ctx, db.path(), { "start", "end", "globalTid" }))
        return false;
    const CallSelect call(s);
    const int eventClass = s.add(QStringLiteral("eventClass"));
    reserveAllHugePages(expectedRows(ctx), out.start, out.end, out.thread, out.name, out.eventClass);
    return scanRows(db, s.sql(ctx.rowRangeCondition()), ctx, [&](const Row& st) {
        if (!call.append(st, ctx, out))
            return;
        out.eventClass.push_back(std::uint8_t(st.isNull(eventClass) ? OsrtTable::kOsRuntime : st.int64(eventClass)));
    });
}

} // namespace nsw
