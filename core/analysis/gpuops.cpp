// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/gpuops.h"

#include "core/analysis/cudarules.h"
#include "core/profile/timelimits.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

namespace nsw {

namespace {

constexpr qint64 kNull = std::numeric_limits<qint64>::min(); // SQL NULL sorts first, as here

/// One API's GPU operation tables, as gpustats.GPUOperation lists them (CUDA, Vulkan, OpenGL, DX12).
struct ApiSource
{
    QStringList tables;
    QString globalId;
    QString device;
    QString context;
    QStringList overheadNames;
    bool needsGpuColumn = false;
};

const std::vector<ApiSource>& apiSources()
{
    static const std::vector<ApiSource> sources {
        { { QStringLiteral("CUPTI_ACTIVITY_KIND_KERNEL"), QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY"),
              QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET") },
            QStringLiteral("globalPid"), QStringLiteral("deviceId"), QStringLiteral("contextId"),
            { QStringLiteral("CUDA profiling data flush overhead"), QStringLiteral("CUDA profiling stop overhead"),
                QStringLiteral("CUDA profiling overhead") },
            false },
        { { QStringLiteral("VULKAN_WORKLOAD") }, QStringLiteral("globalTid"), QStringLiteral("gpu"),
            QStringLiteral("contextId"), { QStringLiteral("Vulkan profiling overhead") }, true },
        { { QStringLiteral("OPENGL_WORKLOAD") }, QStringLiteral("globalTid"), QStringLiteral("gpu"),
            QStringLiteral("contextId"), { QStringLiteral("OpenGL profiling overhead") }, false },
        { { QStringLiteral("DX12_WORKLOAD") }, QStringLiteral("globalTid"), QStringLiteral("gpu"),
            QStringLiteral("shortContextId"), { QStringLiteral("DX12 profiling overhead") }, true },
    };
    return sources;
}

bool sourcePresent(const RuleInput& input, const ApiSource& source)
{
    return std::any_of(source.tables.begin(), source.tables.end(), [&](const QString& t) { return input.hasTable(t); });
}

qint64 orNull(const NullableInt& v)
{
    return v ? *v : kNull;
}
RuleCell cellOf(qint64 v)
{
    return v == kNull ? RuleCell() : RuleCell(v);
}
NullableInt nullable(qint64 v)
{
    return v == kNull ? NullableInt() : NullableInt(v);
}

/// Index of @p key in @p keys (appended when new): a linear search, as exports hold a handful of devices.
template <typename Key> size_t slotOf(std::vector<Key>& keys, const Key& key, size_t& last)
{
    if (last < keys.size() && keys[last] == key)
        return last;
    for (last = 0; last < keys.size(); ++last)
        if (keys[last] == key)
            return last;
    keys.push_back(key);
    return last = keys.size() - 1;
}

/// [min(start), max(end)] per (device, pid), in that order; the other columns come from the first operation
/// reaching the maximum end (SQLite's bare columns next to min() then max()).
std::vector<GpuOp> deviceRanges(const std::vector<const std::vector<GpuOp>*>& parts)
{
    std::vector<std::pair<qint64, qint64>> keys;
    std::vector<GpuOp> ranges;
    size_t last = 0;
    for (const std::vector<GpuOp>* part : parts)
        for (const GpuOp& op : *part) {
            const size_t i = slotOf(keys, { op.deviceId, op.pid }, last);
            if (i == ranges.size()) {
                ranges.push_back(op);
                continue;
            }
            GpuOp& r = ranges[i];
            r.start = std::min(r.start, op.start);
            if (op.end > r.end) {
                const qint64 start = r.start;
                r = op;
                r.start = start;
            }
        }
    std::sort(ranges.begin(), ranges.end(),
        [](const GpuOp& a, const GpuOp& b) { return std::tie(a.deviceId, a.pid) < std::tie(b.deviceId, b.pid); });
    return ranges;
}

std::vector<GpuOp> deviceRanges(const std::vector<GpuOp>& ops)
{
    return deviceRanges(std::vector<const std::vector<GpuOp>*> { &ops });
}

/// Indexes of @p ops grouped by @p key, groups sorted by key, each group in the operations' order.
template <typename KeyFn> auto groupBy(const std::vector<GpuOp>& ops, KeyFn key)
{
    using Key = decltype(key(ops.front()));
    std::vector<Key> keys;
    std::vector<std::vector<quint32>> groups;
    size_t last = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
        const size_t g = slotOf(keys, key(ops[i]), last);
        if (g == groups.size())
            groups.emplace_back();
        groups[g].push_back(quint32(i));
    }
    std::vector<std::pair<Key, std::vector<quint32>>> sorted;
    for (size_t g = 0; g < keys.size(); ++g)
        sorted.emplace_back(keys[g], std::move(groups[g]));
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return sorted;
}

/// One table's operations as read (start > 0), with the id its NVTX filter uses.
struct TableOps
{
    std::vector<GpuOp> ops;
    TimeWindow::IdColumn idColumn = TimeWindow::IdColumn::None;
};

struct Overhead
{
    NullableInt start, end, globalTid;
    qint64 nameId;
};

std::vector<GpuOp> windowed(const TableOps& table, const TimeWindow& window)
{
    std::vector<GpuOp> kept;
    for (const GpuOp& op : table.ops)
        if (window.keeps(op.start, op.end, nullable(op.globalId), table.idColumn))
            kept.push_back(op);
    return kept;
}

} // namespace

struct GpuRuleInputs::Data
{
    std::vector<std::pair<const ApiSource*, std::vector<TableOps>>> sources; // present APIs, in union order
    std::vector<Overhead> overheads; // rows named as some API's overhead
    std::unordered_map<qint64, QString> overheadNames;
    TimeWindow::IdColumn overheadId = TimeWindow::IdColumn::None;
    bool hasOverheadTable = false;
    std::map<std::tuple<bool, qint64, qint64, qint64>, std::vector<std::vector<GpuOp>>> byWindow;
};

GpuRuleInputs::GpuRuleInputs(const RuleInput& input)
    : m_input(input)
{ }

GpuRuleInputs::~GpuRuleInputs() = default;

namespace {

Result<TableOps> readTable(const RuleInput& input, const ApiSource& source, const QString& table)
{
    TableOps t;
    t.idColumn = input.idColumn(table);
    t.ops.reserve(input.db().reservableRows(table));
    const Status s = input.scan(table,
        { QStringLiteral("start"), QStringLiteral("end"), source.globalId, source.device, source.context }, nullptr,
        [&](const std::vector<NullableInt>& v) {
            // Times beyond the loader's limits (core/profile/timelimits.h) are corrupt: left out rather than
            // overflowing the chunk arithmetic.
            if (!v[0] || *v[0] <= 0 || !v[1] || !plausibleTime(*v[0]) || !plausibleTime(*v[1]))
                return;
            const qint64 gid = orNull(v[2]);
            t.ops.push_back(
                { *v[0], *v[1], gid == kNull ? kNull : (gid >> 24) & 0xFFFFFF, gid, orNull(v[3]), orNull(v[4]) });
        });
    if (!s)
        return s.failureAs<TableOps>();
    return t;
}

/// Profiling overheads of the API's processes, copied onto each device range they fall strictly inside (nsys's
/// UNION ALL puts them before the operations).
std::vector<GpuOp> overheadCopies(const std::vector<const std::vector<GpuOp>*>& parts,
    const std::vector<Overhead>& overheads, const std::unordered_map<qint64, QString>& names, const ApiSource& source,
    const TimeWindow& window, TimeWindow::IdColumn overheadId)
{
    std::vector<GpuOp> copies;
    if (overheads.empty())
        return copies;
    const std::vector<GpuOp> ranges = deviceRanges(parts);
    for (const Overhead& o : overheads) {
        if (!o.start || !o.end || !o.globalTid || !source.overheadNames.contains(names.at(o.nameId))
            || !window.keeps(o.start, o.end, o.globalTid, overheadId))
            continue;
        const qint64 pid = (*o.globalTid >> 24) & 0xFFFFFF;
        for (const GpuOp& r : ranges)
            if (r.pid == pid && *o.start > r.start && *o.end < r.end)
                copies.push_back({ *o.start, *o.end, pid, r.globalId, r.deviceId, r.contextId });
    }
    return copies;
}

// --- gpu_time_util -------------------------------------------------------------------------------------

struct Chunk
{
    qint64 rangeId = 0;
    qint64 start = 0;
    qint64 end = 0;
    const GpuOp* range = nullptr;
    qint64 busy = 0;
    bool touched = false; ///< at least one operation overlaps it (else SQL's LEFT JOIN gives NULL)
};

struct ChunkUse
{
    qint64 rangeId;
    qint64 start;
    qint64 end;
    double percent;
    GpuOp range; ///< the device range's columns (pid, device, context)
};

/// The chunks of one device range, with the time its operations overlap each.
std::vector<Chunk> rangeChunks(
    const GpuOp& range, const std::vector<GpuOp>& all, const std::vector<quint32>& ops, qint64 count)
{
    std::vector<Chunk> chunks;
    const qint64 size = qint64(std::ceil(double(range.end - range.start) / double(count)));
    for (qint64 k = 0; k < count; ++k) {
        const qint64 cstart = k * size + range.start;
        const qint64 cend = std::min(cstart + size, range.end);
        if (cstart < cend)
            chunks.push_back({ k, cstart, cend, &range, 0, false });
    }
    if (chunks.empty())
        return chunks;
    for (const quint32 index : ops) {
        const GpuOp* op = &all[index];
        const qint64 low = std::min(op->start, op->end);
        qint64 k = std::clamp<qint64>((low - range.start) / size, 0, qint64(chunks.size()) - 1);
        for (; k < qint64(chunks.size()) && chunks[size_t(k)].start < std::max(op->start, op->end); ++k) {
            Chunk& c = chunks[size_t(k)];
            if (op->start < c.end && op->end > c.start) {
                c.busy += std::min(op->end, c.end) - std::max(op->start, c.start);
                c.touched = true;
            }
        }
    }
    return chunks;
}

/// The `utilization` CTE: chunks under the threshold, ordered (rangeId, device, pid); the untouched chunks of
/// one rangeId fall into one SQL group (NULL device and pid) that takes the first one's columns.
std::vector<ChunkUse> lowChunks(const std::vector<GpuOp>& ops, const RuleOptions& options)
{
    const std::vector<GpuOp> ranges = deviceRanges(ops);
    const auto groups = groupBy(ops, [](const GpuOp& op) { return std::make_pair(op.deviceId, op.pid); });
    std::vector<std::vector<Chunk>> perRange; // ranges and groups are both in (device, pid) order
    for (size_t i = 0; i < ranges.size(); ++i)
        perRange.push_back(rangeChunks(ranges[i], ops, groups[i].second, options.chunks));
    std::vector<ChunkUse> out;
    for (qint64 k = 0; k < options.chunks; ++k) {
        const Chunk* firstEmpty = nullptr;
        std::vector<ChunkUse> touched;
        for (const std::vector<Chunk>& chunks : perRange) {
            const auto it = std::find_if(chunks.begin(), chunks.end(), [k](const Chunk& c) { return c.rangeId == k; });
            if (it == chunks.end())
                continue;
            if (!it->touched) {
                firstEmpty = firstEmpty ? firstEmpty : &*it;
                continue;
            }
            touched.push_back(
                { k, it->start, it->end, double(it->busy) / double(it->end - it->start) * 100, *it->range });
        }
        if (firstEmpty && 0.0 < double(options.threshold))
            out.push_back({ k, firstEmpty->start, firstEmpty->end, 0.0, *firstEmpty->range });
        for (const ChunkUse& u : touched)
            if (u.percent < double(options.threshold))
                out.push_back(u);
    }
    return out;
}

struct LowRegion
{
    qint64 groupId;
    qint64 start;
    qint64 end;
    double weighted = 0;
    double size = 0;
    GpuOp range;
};

/// Consecutive low chunks of one device coalesced (chunkgroup + the final GROUP BY), in (groupId, device, pid)
/// order, at most @p limit of them.
std::vector<RuleRow> coalesce(const std::vector<ChunkUse>& chunks, qint64 limit)
{
    std::map<std::pair<qint64, qint64>, std::vector<const ChunkUse*>> byDevice; // (pid, device)
    for (const ChunkUse& c : chunks)
        byDevice[{ c.range.pid, c.range.deviceId }].push_back(&c);
    std::map<std::tuple<qint64, qint64, qint64>, LowRegion> regions;
    for (auto& [key, list] : byDevice) {
        std::stable_sort(list.begin(), list.end(), [](auto* a, auto* b) { return a->rangeId < b->rangeId; });
        for (size_t i = 0; i < list.size(); ++i) {
            const ChunkUse& c = *list[i];
            const qint64 groupId = c.rangeId - qint64(i + 1);
            auto [it, inserted] = regions.try_emplace(
                { groupId, c.range.deviceId, c.range.pid }, LowRegion { groupId, c.start, c.end, 0, 0, c.range });
            LowRegion& r = it->second;
            r.start = std::min(r.start, c.start);
            r.end = std::max(r.end, c.end);
            const double size = double(c.end - c.start);
            r.weighted += size * c.percent;
            r.size += size;
        }
    }
    std::vector<RuleRow> rows;
    for (const auto& [key, r] : regions) {
        if (limit >= 0 && qint64(rows.size()) >= limit)
            break;
        rows.push_back({ RuleCell(), sqlite340Round(r.weighted / r.size, 1), r.end - r.start, r.start,
            cellOf(r.range.pid), cellOf(r.range.deviceId), cellOf(r.range.contextId) });
    }
    return rows;
}

void numberRows(std::vector<RuleRow>& rows)
{
    for (size_t i = 0; i < rows.size(); ++i)
        rows[i][0] = qint64(i + 1);
}

qint64 intOf(const RuleCell& c)
{
    return std::get<qint64>(c);
}

} // namespace

QString GpuRuleInputs::missingData() const
{
    bool any = false;
    for (const ApiSource& source : apiSources())
        any = any || sourcePresent(m_input, source);
    if (!any)
        return QStringLiteral("%1 could not be analyzed because it does not contain the required data. Does the "
                              "application launch GPU operations?")
            .arg(m_input.path());
    for (const ApiSource& source : apiSources())
        if (source.needsGpuColumn && sourcePresent(m_input, source)
            && !m_input.hasColumn(source.tables.first(), QStringLiteral("gpu")))
            return QStringLiteral("%1 could not be analyzed due to missing 'gpu'. Please re-export the report file "
                                  "with a recent version of Nsight Systems.")
                .arg(m_input.path());
    return {};
}

Status GpuRuleInputs::load()
{
    if (m_data)
        return success();
    auto data = std::make_unique<Data>();
    for (const ApiSource& source : apiSources()) {
        if (!sourcePresent(m_input, source))
            continue;
        std::vector<TableOps> tables;
        for (const QString& table : source.tables) {
            if (!m_input.hasTable(table))
                continue;
            Result<TableOps> t = readTable(m_input, source, table);
            if (!t)
                return t.failureAs<Done>();
            tables.push_back(std::move(t.value()));
        }
        data->sources.emplace_back(&source, std::move(tables));
    }
    const QString overhead = QStringLiteral("PROFILER_OVERHEAD");
    if (m_input.hasTable(overhead)) {
        data->hasOverheadTable = true;
        data->overheadId = m_input.idColumn(overhead);
        m_input.forEachString([&](qint64 id, const QString& v) {
            for (const ApiSource& source : apiSources())
                if (source.overheadNames.contains(v))
                    data->overheadNames.emplace(id, v);
        });
        const Status s = m_input.scan(overhead,
            { QStringLiteral("start"), QStringLiteral("end"), QStringLiteral("globalTid"), QStringLiteral("nameId") },
            nullptr, [&](const std::vector<NullableInt>& v) {
                if (v[3] && data->overheadNames.contains(*v[3]))
                    data->overheads.push_back({ v[0], v[1], v[2], *v[3] });
            });
        if (!s)
            return s;
    }
    m_data = std::move(data);
    return success();
}

Result<const std::vector<std::vector<GpuOp>>*> GpuRuleInputs::ops(const TimeWindow& window)
{
    using R = Result<const std::vector<std::vector<GpuOp>>*>;
    if (Status loaded = load(); !loaded)
        return loaded.failureAs<const std::vector<std::vector<GpuOp>>*>();
    const auto key = std::make_tuple(window.active, window.start, window.end, window.globalTid.value_or(kNull));
    if (const auto it = m_data->byWindow.find(key); it != m_data->byWindow.end())
        return R(&it->second);
    std::vector<std::vector<GpuOp>> perApi;
    for (const auto& [source, tables] : m_data->sources) {
        std::vector<std::vector<GpuOp>> filtered(tables.size());
        std::vector<const std::vector<GpuOp>*> parts;
        size_t total = 0;
        for (size_t t = 0; t < tables.size(); ++t) {
            if (window.active)
                filtered[t] = windowed(tables[t], window);
            parts.push_back(window.active ? &filtered[t] : &tables[t].ops);
            total += parts.back()->size();
        }
        std::vector<GpuOp> ops
            = overheadCopies(parts, m_data->overheads, m_data->overheadNames, *source, window, m_data->overheadId);
        ops.reserve(ops.size() + total);
        for (const std::vector<GpuOp>* part : parts)
            ops.insert(ops.end(), part->begin(), part->end());
        perApi.push_back(std::move(ops));
    }
    return R(&(m_data->byWindow[key] = std::move(perApi)));
}

std::vector<GpuGap> findGpuGaps(const std::vector<GpuOp>& ops, qint64 thresholdNs, qint64 limit, bool longestFirst)
{
    std::vector<GpuGap> gaps;
    for (const auto& [key, group] : groupBy(ops, [](const GpuOp& op) { return std::make_pair(op.pid, op.deviceId); })) {
        std::vector<qint64> starts;
        std::vector<std::pair<qint64, quint32>> ends; // (end, index): sorting pairs keeps ties in operation order
        starts.reserve(group.size());
        ends.reserve(group.size());
        for (const quint32 i : group) {
            starts.push_back(ops[i].start);
            ends.emplace_back(ops[i].end, i);
        }
        std::sort(starts.begin(), starts.end());
        std::sort(ends.begin(), ends.end());
        for (size_t i = 1; i < starts.size(); ++i) {
            const qint64 gapStart = ends[i - 1].first;
            const qint64 duration = starts[i] - gapStart;
            if (duration > thresholdNs && gapStart < starts[i])
                gaps.push_back({ duration, gapStart, &ops[ends[i - 1].second] });
        }
    }
    // The gap query's LIMIT has no ORDER BY of its own. Over one API's view SQLite moves the outer window's ORDER
    // BY (duration DESC, start) into it: the limit keeps the longest gaps. Over a UNION ALL of several APIs' views
    // it cannot, and the limit keeps the first gaps found (by process, device, start).
    if (longestFirst)
        std::stable_sort(gaps.begin(), gaps.end(), [](const GpuGap& a, const GpuGap& b) {
            return a.duration != b.duration ? a.duration > b.duration : a.start < b.start;
        });
    if (limit >= 0 && qint64(gaps.size()) > limit)
        gaps.resize(size_t(limit));
    return gaps;
}

Result<std::vector<RuleRow>> GpuRuleInputs::gaps(const RuleRequest& request, const TimeWindow& window)
{
    const auto apis = ops(window);
    if (!apis)
        return apis.failureAs<std::vector<RuleRow>>();
    std::vector<RuleRow> rows;
    for (const std::vector<GpuOp>& ops : *apis.value())
        for (const GpuGap& g :
            findGpuGaps(ops, request.options.gap * 1000000, request.options.rows, apis.value()->size() == 1))
            rows.push_back({ RuleCell(), g.duration, g.start, cellOf(g.after->pid), cellOf(g.after->deviceId),
                cellOf(g.after->contextId) });
    std::stable_sort(rows.begin(), rows.end(), [](const RuleRow& a, const RuleRow& b) {
        if (intOf(a[1]) != intOf(b[1]))
            return intOf(a[1]) > intOf(b[1]);
        return intOf(a[2]) < intOf(b[2]);
    });
    applyRowLimit(rows, request.options.rows);
    numberRows(rows);
    return rows;
}

Result<std::vector<RuleRow>> GpuRuleInputs::timeUtil(const RuleRequest& request, const TimeWindow& window)
{
    const auto apis = ops(window);
    if (!apis)
        return apis.failureAs<std::vector<RuleRow>>();
    std::vector<RuleRow> rows;
    if (request.options.chunks <= 0)
        return rows; // nsys: ceil(x / 0) is NULL, so no chunk
    for (const std::vector<GpuOp>& ops : *apis.value())
        for (RuleRow& row : coalesce(lowChunks(ops, request.options), request.options.rows))
            rows.push_back(std::move(row));
    std::stable_sort(rows.begin(), rows.end(), [](const RuleRow& a, const RuleRow& b) {
        const double pa = std::get<double>(a[1]);
        const double pb = std::get<double>(b[1]);
        if (pa != pb)
            return pa < pb;
        return intOf(a[2]) < intOf(b[2]);
    });
    applyRowLimit(rows, request.options.rows);
    numberRows(rows);
    return rows;
}

double sqlite340Round(double value, int digits)
{
    // SQLite 3.40 round(): sqlite3_mprintf("%.*f") then back to a double. Its printf adds the rounder (and
    // x*3e-16 when few digits are asked) in long double, normalises to [1, 10) and reads 16 significant digits.
    const bool negative = value < 0;
    long double real = negative ? -value : value;
    static const double arRound[]
        = { 5.0e-01, 5.0e-02, 5.0e-03, 5.0e-04, 5.0e-05, 5.0e-06, 5.0e-07, 5.0e-08, 5.0e-09, 5.0e-10 };
    double rounder = arRound[digits % 10];
    const double rx = double(real);
    std::uint64_t bits;
    std::memcpy(&bits, &rx, sizeof bits);
    const int ex = -1023 + int((bits >> 52) & 0x7ff);
    if (digits + (ex / 3) < 15)
        rounder = double(static_cast<long double>(rounder) + real * static_cast<long double>(3e-16));
    real += rounder;
    int exp = 0;
    if (real > 0) {
        long double scale = 1.0;
        while (real >= 1e10L * scale && exp <= 350) {
            scale *= 1e10L;
            exp += 10;
        }
        while (real >= 10.0L * scale && exp <= 350) {
            scale *= 10.0L;
            exp++;
        }
        real /= scale;
        while (real < 1e-8L) {
            real *= 1e8L;
            exp -= 8;
        }
        while (real < 1.0L) {
            real *= 10.0L;
            exp--;
        }
    }
    QString text;
    int significant = 16;
    auto digit = [&]() {
        if (significant <= 0)
            return QLatin1Char('0');
        --significant;
        const int d = int(real);
        real = (real - d) * 10.0L;
        return QLatin1Char(char('0' + d));
    };
    if (exp < 0)
        text += QLatin1Char('0');
    for (int e = exp; e >= 0; --e)
        text += digit();
    text += QLatin1Char('.');
    for (int e = exp + 1; e < 0 && digits > 0; ++e, --digits)
        text += QLatin1Char('0');
    for (int i = 0; i < digits; ++i)
        text += digit();
    const double parsed = text.toDouble();
    return negative ? -parsed : parsed;
}

} // namespace nsw
