// SPDX-License-Identifier: GPL-3.0-or-later
#include "umreports.h"

#include "core/stats/exportquery.h"
#include "core/stats/gpureports.h"
#include "core/stats/reportchecks.h"
#include "core/stats/reportnames.h"

#include <algorithm>
#include <map>
#include <optional>

namespace nsw {

namespace {

const QString kCpuFaults = QStringLiteral("CUDA_UM_CPU_PAGE_FAULT_EVENTS");
const QString kGpuFaults = QStringLiteral("CUDA_UM_GPU_PAGE_FAULT_EVENTS");
const QString kMemcpy = QStringLiteral("CUPTI_ACTIVITY_KIND_MEMCPY");
constexpr int kUnifiedHtoD = 11; ///< ENUM_CUDA_MEMCPY_OPER: migrations of unified memory
constexpr int kUnifiedDtoH = 12;

/// The table checks of nsys's migration reports, in its order.
QString migrationSkipReason(const Profile& p)
{
    if (!profileHasTable(p, "CUPTI_ACTIVITY_KIND_MEMCPY"))
        return QStringLiteral("%1 does not contain CUDA memory transfers data.").arg(reportFileName(p));
    if (!profileHasTable(p, "CUDA_UM_CPU_PAGE_FAULT_EVENTS"))
        return QStringLiteral("%1 does not contain CUDA Unified Memory CPU page faults data.").arg(reportFileName(p));
    if (!profileHasTable(p, "CUDA_UM_GPU_PAGE_FAULT_EVENTS"))
        return QStringLiteral("%1 does not contain CUDA Unified Memory GPU page faults data.").arg(reportFileName(p));
    return {};
}

struct Migrated
{
    qint64 bytes = 0;
    qint64 duration = 0;
};

/// Page faults and migrations per address, each map in address order (a NULL address first).
struct UnifiedMemory
{
    std::map<qint64, qint64> cpuFaults; ///< count
    std::map<qint64, qint64> gpuFaults; ///< summed numberOfPageFaults
    std::map<std::optional<qint64>, Migrated> toDevice;
    std::map<std::optional<qint64>, Migrated> toHost;
};

QString readUnifiedMemory(const Profile& p, const FocusRange& focus, UnifiedMemory& um)
{
    QString error = readExportRows(
        p, kCpuFaults, QStringLiteral("SELECT address, start FROM %1").arg(kCpuFaults), [&](const Statement& row) {
            if (focus.overlaps(row.int64(1), row.int64(1)))
                ++um.cpuFaults[row.int64(0)];
        });
    if (error.isEmpty())
        error = readExportRows(p, kGpuFaults,
            QStringLiteral("SELECT address, numberOfPageFaults, start, end FROM %1").arg(kGpuFaults),
            [&](const Statement& row) {
                if (focus.overlaps(row.int64(2), row.int64(3)))
                    um.gpuFaults[row.int64(0)] += row.int64(1);
            });
    if (error.isEmpty())
        error = readExportRows(p, kMemcpy,
            QStringLiteral("SELECT virtualAddress, copyKind, bytes, start, end FROM %1 WHERE copyKind IN (%2, %3)")
                .arg(kMemcpy)
                .arg(kUnifiedHtoD)
                .arg(kUnifiedDtoH),
            [&](const Statement& row) {
                if (!focus.overlaps(row.int64(3), row.int64(4)))
                    return;
                const std::optional<qint64> address
                    = row.isNull(0) ? std::nullopt : std::optional<qint64>(row.int64(0));
                Migrated& m = (row.int64(1) == kUnifiedHtoD ? um.toDevice : um.toHost)[address];
                m.bytes += row.int64(2);
                m.duration += row.int64(4) - row.int64(3);
            });
    return error;
}

ReportValue megabytesOf(const Migrated* m)
{
    return m ? ReportValue { double(m->bytes) / 1e6 } : ReportValue {};
}

template <typename Map, typename Key> const typename Map::mapped_type* lookup(const Map& map, const Key& key)
{
    const auto it = map.find(key);
    return it == map.end() ? nullptr : &it->second;
}

/// One row of um_sum: an address with its faults and migrations, each part empty when absent.
struct UmRow
{
    std::optional<qint64> address;
    const qint64* cpu = nullptr;
    const qint64* gpu = nullptr;
    const Migrated* toDevice = nullptr;
    const Migrated* toHost = nullptr;
    ReportValue throughput {};
};

ReportValue migrationThroughput(const Migrated* toDevice, const Migrated* toHost)
{
    const qint64 bytes = (toDevice ? toDevice->bytes : 0) + (toHost ? toHost->bytes : 0);
    const qint64 duration = (toDevice ? toDevice->duration : 0) + (toHost ? toHost->duration : 0);
    return throughputMBps(bytes, duration);
}

/// nsys's rows in its UNION order: fault addresses (CPU faults, then GPU-only ones) with their migrations, then
/// the addresses that only migrated (device-to-host ones, then host-to-device only).
std::vector<UmRow> umRows(const UnifiedMemory& um)
{
    std::vector<UmRow> rows;
    auto withMigrations = [&um](UmRow r) {
        r.toDevice = lookup(um.toDevice, r.address);
        r.toHost = lookup(um.toHost, r.address);
        if (r.toDevice || r.toHost)
            r.throughput = migrationThroughput(r.toDevice, r.toHost);
        return r;
    };
    for (const auto& [address, count] : um.cpuFaults)
        rows.push_back(withMigrations({ address, &count, lookup(um.gpuFaults, address) }));
    for (const auto& [address, count] : um.gpuFaults)
        if (!um.cpuFaults.contains(address))
            rows.push_back(withMigrations({ address, nullptr, &count }));
    auto faulted = [&um](const std::optional<qint64>& a) {
        return a && (um.cpuFaults.contains(*a) || um.gpuFaults.contains(*a));
    };
    // A NULL address never matches another (SQL's USING join), so NULL-address migrations stay rows of their own.
    for (const auto& [address, m] : um.toHost) {
        if (faulted(address))
            continue;
        const Migrated* toDevice = address ? lookup(um.toDevice, address) : nullptr;
        rows.push_back({ address, nullptr, nullptr, toDevice, &m, migrationThroughput(toDevice, &m) });
    }
    for (const auto& [address, m] : um.toDevice)
        if (!faulted(address) && !(address && um.toHost.contains(address)))
            rows.push_back({ address, nullptr, nullptr, &m, nullptr, migrationThroughput(&m, nullptr) });
    return rows;
}

ReportValue optionalInt(const qint64* v)
{
    return v ? ReportValue { *v } : ReportValue {};
}

ReportValue optionalAddress(const std::optional<qint64>& a)
{
    return a ? ReportValue { *a } : ReportValue {};
}

} // namespace

ReportTable umSum(const Profile& p, qint64 limit, const FocusRange& focus)
{
    const QString name = reportnames::umSum.idString();
    const QString title = reportnames::umSum.titleString();
    if (const QString reason = migrationSkipReason(p); !reason.isEmpty())
        return skippedReport(name, title, reason);
    UnifiedMemory um;
    if (const QString error = readUnifiedMemory(p, focus, um); !error.isEmpty())
        return skippedReport(name, title, error);
    std::vector<UmRow> rows = umRows(um);
    // Throughput descending, empty ones last; ties keep the UNION order.
    std::stable_sort(rows.begin(), rows.end(), [](const UmRow& a, const UmRow& b) {
        const auto* x = std::get_if<double>(&a.throughput);
        const auto* y = std::get_if<double>(&b.throughput);
        return x && (!y || *x > *y);
    });
    if (limit >= 0 && qint64(rows.size()) > limit)
        rows.resize(std::size_t(limit));
    if (rows.empty())
        return skippedReport(name, title, noDataMessage());
    ReportTable t;
    t.name = name;
    t.title = title;
    using T = ReportColumn::Type;
    t.columns = { { QStringLiteral("Virtual Address"), T::Address },
        { QStringLiteral("HtoD Migration size (MB)"), T::Real, 3 },
        { QStringLiteral("DtoH Migration size (MB)"), T::Real, 3 }, { QStringLiteral("CPU Page Faults"), T::Integer },
        { QStringLiteral(" GPU Page Faults"), T::Integer },
        { QStringLiteral("Migration Throughput (MBps)"), T::Real, 3 } };
    for (const UmRow& r : rows)
        t.rows.push_back({ optionalAddress(r.address), megabytesOf(r.toDevice), megabytesOf(r.toHost),
            optionalInt(r.cpu), optionalInt(r.gpu), r.throughput });
    return t;
}

ReportTable umTotalSum(const Profile& p, const FocusRange& focus)
{
    const QString name = reportnames::umTotalSum.idString();
    const QString title = reportnames::umTotalSum.titleString();
    if (const QString reason = migrationSkipReason(p); !reason.isEmpty())
        return skippedReport(name, title, reason);
    UnifiedMemory um;
    if (const QString error = readUnifiedMemory(p, focus, um); !error.isEmpty())
        return skippedReport(name, title, error);
    auto total = [](const std::map<std::optional<qint64>, Migrated>& m) -> ReportValue {
        if (m.empty())
            return {};
        qint64 bytes = 0;
        for (const auto& [address, migrated] : m)
            bytes += migrated.bytes;
        return double(bytes) / 1e6;
    };
    qint64 cpuFaults = 0, gpuFaults = 0;
    for (const auto& [address, count] : um.cpuFaults)
        cpuFaults += count;
    for (const auto& [address, count] : um.gpuFaults)
        gpuFaults += count;
    // SQLite's min()/max() of several arguments are NULL when one is: one source without an address empties both.
    std::vector<std::pair<qint64, qint64>> spans; // (lowest, highest) address of each source
    auto span = [&spans](const auto& m) {
        auto first = m.begin();
        while (first != m.end() && !std::optional<qint64>(first->first))
            ++first;
        if (first != m.end())
            spans.emplace_back(*std::optional<qint64>(first->first), *std::optional<qint64>(m.rbegin()->first));
    };
    span(um.cpuFaults);
    span(um.gpuFaults);
    span(um.toDevice);
    span(um.toHost);
    ReportValue lowest, highest;
    if (spans.size() == 4) {
        lowest = std::min_element(spans.begin(), spans.end())->first;
        highest = std::max_element(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
            return a.second < b.second;
        })->second;
    }
    ReportTable t;
    t.name = name;
    t.title = title;
    using T = ReportColumn::Type;
    t.columns = { { QStringLiteral("Total HtoD Migration Size (MB)"), T::Real, 3 },
        { QStringLiteral("Total DtoH Migration Size (MB)"), T::Real, 3 },
        { QStringLiteral("Total CPU Page Faults"), T::Integer }, { QStringLiteral("Total GPU PageFaults"), T::Integer },
        { QStringLiteral("Minimum Virtual Address"), T::Address },
        { QStringLiteral("Maximum Virtual Address"), T::Address } };
    t.rows.push_back({ total(um.toDevice), total(um.toHost), cpuFaults,
        um.gpuFaults.empty() ? ReportValue {} : ReportValue { gpuFaults }, lowest, highest });
    return t;
}

ReportTable umCpuPageFaultsSum(const Profile& p, const FocusRange& focus)
{
    const QString name = reportnames::umCpuPageFaultsSum.idString();
    const QString title = reportnames::umCpuPageFaultsSum.titleString();
    if (!profileHasTable(p, "CUDA_UM_CPU_PAGE_FAULT_EVENTS"))
        return skippedReport(name, title,
            QStringLiteral("%1 does not contain CUDA Unified Memory CPU page faults data.").arg(reportFileName(p)));
    struct Instruction
    {
        qint64 faults = 0;
        std::optional<QString> text;
    };
    std::map<std::optional<qint64>, Instruction> byId; // GROUP BY the string id: NULL first, then by id
    const QString error = readExportRows(p, kCpuFaults,
        QStringLiteral("SELECT f.CpuInstruction, s.value, f.start FROM %1 AS f "
                       "LEFT JOIN StringIds AS s ON s.id = f.CpuInstruction")
            .arg(kCpuFaults),
        [&](const Statement& row) {
            if (!focus.overlaps(row.int64(2), row.int64(2)))
                return;
            Instruction& i = byId[row.isNull(0) ? std::nullopt : std::optional<qint64>(row.int64(0))];
            ++i.faults;
            if (!row.isNull(1))
                i.text = row.text(1);
        });
    if (!error.isEmpty())
        return skippedReport(name, title, error);
    if (byId.empty())
        return skippedReport(name, title, noDataMessage());
    std::vector<const Instruction*> rows;
    for (const auto& [id, instruction] : byId)
        rows.push_back(&instruction);
    std::stable_sort(
        rows.begin(), rows.end(), [](const Instruction* a, const Instruction* b) { return a->faults > b->faults; });
    ReportTable t;
    t.name = name;
    t.title = title;
    t.columns = { { QStringLiteral("CPU Page Faults"), ReportColumn::Type::Integer },
        { QStringLiteral("CPU Instruction Address"), ReportColumn::Type::Text } };
    for (const Instruction* i : rows)
        t.rows.push_back({ i->faults, i->text ? ReportValue { *i->text } : ReportValue {} });
    return t;
}

} // namespace nsw
