// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/analysis/cudarules.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace nsw {

namespace {

const QString kRuntime = QStringLiteral("CUPTI_ACTIVITY_KIND_RUNTIME");
const QString kMemcpy = QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY");
const QString kMemset = QStringLiteral("CUPTI_ACTIVITY_KIND_MEMSET");

/// The API names each rule joins on, as the rules' StringIds filters select them (SQL LIKE).
enum NameSetBit : std::uint8_t
{
    AsyncMemcpy = 1,
    SyncMemcpy = 2,
    SyncMemset = 4,
    SyncApi = 8,
};

std::uint8_t nameSets(const QString& v)
{
    std::uint8_t sets = 0;
    if (sqlLike(QStringLiteral("cudaMemcpy%Async%"), v))
        sets |= AsyncMemcpy;
    if (sqlLike(QStringLiteral("cudaMemcpy%"), v) && !sqlLike(QStringLiteral("%Async%"), v))
        sets |= SyncMemcpy;
    if (sqlLike(QStringLiteral("cudaMemset%"), v) && !sqlLike(QStringLiteral("%async%"), v))
        sets |= SyncMemset;
    if (sqlLike(QStringLiteral("cudaDeviceSynchronize%"), v) || sqlLike(QStringLiteral("cudaStreamSynchronize%"), v))
        sets |= SyncApi;
    return sets;
}

QString missingCuda(const RuleInput& input, const char* what)
{
    return QStringLiteral("%1 could not be analyzed because it does not contain the required CUDA data. Does the "
                          "application use CUDA %2 APIs?")
        .arg(input.path(), QLatin1String(what));
}

RuleCell memKindName(const NullableInt& kind)
{
    static const std::array<const char*, 8> names { "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static",
        "Managed Static", "Unknown" };
    if (!kind || *kind < 0 || *kind >= qint64(names.size()))
        return {};
    return QString::fromLatin1(names[size_t(*kind)]);
}

RuleCell cell(const NullableInt& v)
{
    return v ? RuleCell(*v) : RuleCell();
}
RuleCell duration(const NullableInt& start, const NullableInt& end)
{
    return start && end ? RuleCell(*end - *start) : RuleCell();
}
RuleCell pidOf(const NullableInt& globalId)
{
    return globalId ? RuleCell((*globalId >> 24) & 0xFFFFFF) : RuleCell();
}

/// NOT (bytes <= 64000 AND copyKind == 1) AND NOT (srcDeviceId IS NOT NULL AND srcDeviceId == dstDeviceId),
/// with SQL's NULLs (a NULL condition drops the row).
bool syncMemcpyKept(
    const NullableInt& bytes, const NullableInt& copyKind, const NullableInt& src, const NullableInt& dst)
{
    const bool smallH2d = bytes && copyKind && *bytes <= 64000 && *copyKind == 1;
    const bool notSmallH2d = (bytes && *bytes > 64000) || (copyKind && *copyKind != 1);
    if (smallH2d || !notSmallH2d)
        return false;
    return !src || (dst && *src != *dst);
}

bool asyncMemcpyKept(const NullableInt& srcKind, const NullableInt& dstKind)
{
    return (srcKind && *srcKind == 0) || (dstKind && *dstKind == 0);
}

// Memcpy columns, in this order; the last is the table's id column for the NVTX filter.
enum CopyColumn
{
    Start,
    End,
    SrcKind,
    DstKind,
    Bytes,
    GlobalPid,
    Device,
    Context,
    Stream,
    Correlation,
    CopyKind,
    SrcDevice,
    DstDevice,
    WindowId,
};
// Memset columns reuse the same slots: memKind in SrcKind, nothing in DstKind/CopyKind/SrcDevice/DstDevice.

/// ORDER BY duration DESC (NULLs last), ties kept in the order found (SQLite's sort is stable here).
void sortByDurationDescending(std::vector<RuleRow>& rows)
{
    std::stable_sort(rows.begin(), rows.end(), [](const RuleRow& a, const RuleRow& b) {
        const auto* da = std::get_if<qint64>(&a[0]);
        const auto* db = std::get_if<qint64>(&b[0]);
        if (!da || !db)
            return da && !db;
        return *da > *db;
    });
}

/// A memcpy/memset row kept for the rules, compactly (SQL NULL as the lowest integer).
class CopyRow
{
public:
    explicit CopyRow(const std::vector<NullableInt>& v)
    {
        for (size_t i = 0; i < m_values.size(); ++i)
            m_values[i] = v[i].value_or(kNull);
    }
    NullableInt operator[](size_t i) const { return m_values[i] == kNull ? NullableInt() : NullableInt(m_values[i]); }

private:
    static constexpr qint64 kNull = std::numeric_limits<qint64>::min();
    std::array<qint64, 14> m_values {};
};

} // namespace

struct CudaRuleInputs::Data
{
    std::unordered_map<qint64, QString> names; // every name some rule selects
    std::unordered_map<qint64, std::uint8_t> sets; // name id -> NameSetBit flags
    /// (correlationId, nameId) of the calls with memcpy/memset names, sorted by id, runtime rowid order within one.
    std::vector<std::pair<qint64, qint64>> calls;
    auto callsOf(qint64 correlationId) const
    {
        return std::equal_range(calls.begin(), calls.end(), std::make_pair(correlationId, qint64(0)),
            [](const auto& a, const auto& b) { return a.first < b.first; });
    }
    std::vector<std::array<NullableInt, 4>> syncCalls; // start, end, globalTid, nameId
    TimeWindow::IdColumn runtimeId = TimeWindow::IdColumn::None;
    std::optional<std::vector<CopyRow>> copies;
    std::optional<std::vector<CopyRow>> memsets;
    TimeWindow::IdColumn copyId = TimeWindow::IdColumn::None;
    TimeWindow::IdColumn memsetId = TimeWindow::IdColumn::None;
};

CudaRuleInputs::CudaRuleInputs(const RuleInput& input)
    : m_input(input)
{ }

CudaRuleInputs::~CudaRuleInputs() = default;

QString CudaRuleInputs::missingData(RuleId id) const
{
    if (!m_input.hasTable(kRuntime))
        return missingCuda(m_input, "runtime");
    if ((id == RuleId::CudaMemcpyAsync || id == RuleId::CudaMemcpySync) && !m_input.hasTable(kMemcpy))
        return missingCuda(m_input, "memcpy");
    if (id == RuleId::CudaMemsetSync && !m_input.hasTable(kMemset))
        return missingCuda(m_input, "memset");
    return {};
}

Status CudaRuleInputs::loadRuntime()
{
    if (m_data)
        return success();
    auto data = std::make_unique<Data>();
    m_input.forEachString([&](qint64 id, const QString& value) {
        if (const std::uint8_t s = nameSets(value)) {
            data->names.emplace(id, value);
            data->sets.emplace(id, s);
        }
    });
    data->runtimeId = m_input.idColumn(kRuntime);
    const QString idColumn
        = data->runtimeId == TimeWindow::IdColumn::Pid ? QStringLiteral("globalPid") : QStringLiteral("globalTid");
    const Status s = m_input.scan(kRuntime,
        { QStringLiteral("start"), QStringLiteral("end"), idColumn, QStringLiteral("correlationId"),
            QStringLiteral("nameId") },
        nullptr, [&](const std::vector<NullableInt>& v) {
            if (!v[4])
                return;
            const auto it = data->sets.find(*v[4]);
            if (it == data->sets.end())
                return;
            if ((it->second & (AsyncMemcpy | SyncMemcpy | SyncMemset)) && v[3])
                data->calls.emplace_back(*v[3], *v[4]);
            if (it->second & SyncApi)
                data->syncCalls.push_back({ v[0], v[1], v[2], v[4] });
        });
    if (!s)
        return s;
    std::stable_sort(
        data->calls.begin(), data->calls.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    m_data = std::move(data);
    return success();
}

Status CudaRuleInputs::loadCopies(bool memset)
{
    std::optional<std::vector<CopyRow>>& slot = memset ? m_data->memsets : m_data->copies;
    if (slot)
        return success();
    const QString table = memset ? kMemset : kMemcpy;
    const TimeWindow::IdColumn id = m_input.idColumn(table);
    (memset ? m_data->memsetId : m_data->copyId) = id;
    const QString idName = id == TimeWindow::IdColumn::Tid ? QStringLiteral("globalTid") : QStringLiteral("globalPid");
    const QStringList columns = memset
        ? QStringList { QStringLiteral("start"), QStringLiteral("end"), QStringLiteral("memKind"), QString(),
              QStringLiteral("bytes"), QStringLiteral("globalPid"), QStringLiteral("deviceId"),
              QStringLiteral("contextId"), QStringLiteral("streamId"), QStringLiteral("correlationId"), QString(),
              QString(), QString(), idName }
        : QStringList { QStringLiteral("start"), QStringLiteral("end"), QStringLiteral("srcKind"),
              QStringLiteral("dstKind"), QStringLiteral("bytes"), QStringLiteral("globalPid"),
              QStringLiteral("deviceId"), QStringLiteral("contextId"), QStringLiteral("streamId"),
              QStringLiteral("correlationId"), QStringLiteral("copyKind"), QStringLiteral("srcDeviceId"),
              QStringLiteral("dstDeviceId"), idName };
    std::vector<CopyRow> rows;
    const Data& data = *m_data;
    const Status s = m_input.scan(table, columns, nullptr, [&](const std::vector<NullableInt>& v) {
        const bool candidate = memset ? v[SrcKind] && (*v[SrcKind] == 1 || *v[SrcKind] == 4)
                                      : asyncMemcpyKept(v[SrcKind], v[DstKind])
                || syncMemcpyKept(v[Bytes], v[CopyKind], v[SrcDevice], v[DstDevice]);
        if (!candidate || !v[Correlation])
            return;
        if (const auto [from, to] = data.callsOf(*v[Correlation]); from == to)
            return;
        rows.emplace_back(v);
    });
    if (!s)
        return s;
    slot = std::move(rows);
    return success();
}

Result<std::vector<RuleRow>> CudaRuleInputs::compute(const RuleRequest& request, const TimeWindow& window)
{
    const RuleId id = request.spec->id;
    if (const QString missing = missingData(id); !missing.isEmpty())
        return Result<std::vector<RuleRow>>::failure(ErrorKind::NoData, missing);
    if (const Status s = loadRuntime(); !s)
        return s.failureAs<std::vector<RuleRow>>();
    std::vector<RuleRow> rows;
    if (id == RuleId::CudaApiSync) {
        for (const auto& c : m_data->syncCalls)
            if (window.keeps(c[0], c[1], c[2], m_data->runtimeId))
                rows.push_back({ duration(c[0], c[1]), cell(c[0]), pidOf(c[2]),
                    c[2] ? RuleCell(*c[2] & 0xFFFFFF) : RuleCell(), m_data->names.at(*c[3]) });
    } else {
        const bool memset = id == RuleId::CudaMemsetSync;
        if (const Status s = loadCopies(memset); !s)
            return s.failureAs<std::vector<RuleRow>>();
        const std::uint8_t set = memset ? SyncMemset : id == RuleId::CudaMemcpyAsync ? AsyncMemcpy : SyncMemcpy;
        const TimeWindow::IdColumn idColumn = memset ? m_data->memsetId : m_data->copyId;
        for (const CopyRow& v : memset ? *m_data->memsets : *m_data->copies) {
            const bool kept = memset
                || (set == AsyncMemcpy ? asyncMemcpyKept(v[SrcKind], v[DstKind])
                                       : syncMemcpyKept(v[Bytes], v[CopyKind], v[SrcDevice], v[DstDevice]));
            if (!kept || !window.keeps(v[Start], v[End], v[WindowId], idColumn))
                continue;
            const auto [from, to] = m_data->callsOf(*v[Correlation]);
            for (auto call = from; call != to; ++call) {
                const qint64 nameId = call->second;
                if (!(m_data->sets.at(nameId) & set))
                    continue;
                if (memset)
                    rows.push_back({ duration(v[Start], v[End]), cell(v[Start]), memKindName(v[SrcKind]),
                        cell(v[Bytes]), pidOf(v[GlobalPid]), cell(v[Device]), cell(v[Context]), cell(v[Stream]),
                        m_data->names.at(nameId) });
                else
                    rows.push_back({ duration(v[Start], v[End]), cell(v[Start]), memKindName(v[SrcKind]),
                        memKindName(v[DstKind]), cell(v[Bytes]), pidOf(v[GlobalPid]), cell(v[Device]), cell(v[Context]),
                        cell(v[Stream]), m_data->names.at(nameId) });
            }
        }
    }
    sortByDurationDescending(rows);
    applyRowLimit(rows, request.options.rows);
    return rows;
}

void applyRowLimit(std::vector<RuleRow>& rows, qint64 limit)
{
    if (limit >= 0 && qint64(rows.size()) > limit)
        rows.resize(size_t(limit));
}

} // namespace nsw
