// SPDX-License-Identifier: GPL-3.0-or-later
#include "reports.h"

#include "core/profile/loadtypes.h"
#include "core/stats/gpureports.h"
#include "core/stats/reportchecks.h"
#include "core/stats/reportnames.h"
#include "core/stats/summaryreport.h"
#include "core/util/numberformat.h"

#include <QFileInfo>
#include <QHash>
#include <map>

namespace nsw {

namespace {

/// Values per pooled name in one pass, groups in StringRef order. StringIds strings are pooled in ascending id
/// order, so this is nsys's GROUP BY nameId order.
template <typename NameOf, typename ValueOf, typename Keep>
std::vector<SummaryGroup> groupByName(
    const Profile& profile, std::size_t rows, NameOf nameOf, ValueOf valueOf, Keep keep)
{
    std::vector<std::vector<qint64>> byRef(profile.strings.size());
    std::vector<qint64> unnamed;
    for (std::size_t i = 0; i < rows; ++i) {
        if (!keep(i))
            continue;
        const StringRef ref = nameOf(i);
        (ref >= 0 ? byRef[std::size_t(ref)] : unnamed).push_back(valueOf(i));
    }
    std::vector<SummaryGroup> groups;
    if (!unnamed.empty())
        groups.push_back({ QString(), std::move(unnamed), {}, {} }); // a NULL name sorts first
    for (std::size_t r = 0; r < byRef.size(); ++r)
        if (!byRef[r].empty())
            groups.push_back({ profile.strings.at(StringRef(r)), std::move(byRef[r]), {}, {} });
    return groups;
}

/// Keeps the rows of @p columns (start/end vectors) that overlap @p focus; everything when it is inactive.
template <typename Columns> auto overlapping(const Columns& c, const FocusRange& focus)
{
    return [&c, &focus](std::size_t i) { return focus.overlaps(c.start[i], c.end[i]); };
}

} // namespace

QString apiReportName(const QString& name)
{
    const qsizetype n = name.size();
    if (n >= 6 && name[n - 6] == QLatin1Char('_') && name[n - 5] == QLatin1Char('v'))
        return name.left(n - 6);
    return name;
}

ReportTable cudaGpuKernSum(const Profile& p, KernelNameMode mode, const FocusRange& focus)
{
    const QString name = reportnames::cudaGpuKernSum.idString();
    const QString title = reportnames::cudaGpuKernSum.titleString();
    if (!profileHasTable(p, "CUPTI_ACTIVITY_KIND_KERNEL"))
        return skippedReport(
            name, title, QStringLiteral("%1 does not contain CUDA kernel data.").arg(reportFileName(p)));
    const KernelTable& k = p.kernels;
    if (k.size() == 0)
        return skippedReport(name, title, noDataMessage());
    auto nameOf = [&](std::size_t i) -> StringRef {
        if (mode == KernelNameMode::Short)
            return k.shortName[i];
        if (mode == KernelNameMode::Mangled && k.mangledName[i] != kNoString)
            return k.mangledName[i];
        return k.demangledName[i];
    };
    SummaryLayout layout;
    layout.ties = SummaryLayout::Ties::CountThenName;
    return buildSummaryReport(name, title, layout,
        groupByName(
            p, k.size(), nameOf, [&](std::size_t i) { return k.end[i] - k.start[i]; }, overlapping(k, focus)));
}

ReportTable cudaApiSum(const Profile& p, const FocusRange& focus)
{
    const QString name = reportnames::cudaApiSum.idString();
    const QString title = reportnames::cudaApiSum.titleString();
    if (!profileHasTable(p, "CUPTI_ACTIVITY_KIND_RUNTIME"))
        return skippedReport(
            name, title, QStringLiteral("%1 does not contain CUDA trace data.").arg(reportFileName(p)));
    const CudaApiTable& a = p.cudaApi;
    if (a.size() == 0)
        return skippedReport(name, title, noDataMessage());
    // nsys groups by nameId and cleans the name afterwards: "cudaMalloc" and "cudaMalloc_v3020" stay two rows.
    std::vector<SummaryGroup> groups = groupByName(
        p, a.size(), [&](std::size_t i) { return a.name[i]; }, [&](std::size_t i) { return a.end[i] - a.start[i]; },
        overlapping(a, focus));
    for (SummaryGroup& g : groups)
        g.name = apiReportName(g.name);
    SummaryLayout layout;
    layout.countHeader = QStringLiteral("Num Calls");
    return buildSummaryReport(name, title, layout, std::move(groups));
}

namespace {

/// Memory operations grouped by nsys's operation name, in name order (its GROUP BY on the name text).
std::vector<SummaryGroup> memOpGroups(const Profile& p, bool bySize, const FocusRange& focus)
{
    const MemOpTable& m = p.memops;
    std::map<QByteArray, SummaryGroup> byName;
    std::map<std::uint8_t, SummaryGroup*> byKind;
    for (std::size_t i = 0; i < m.size(); ++i) {
        if (!focus.overlaps(m.start[i], m.end[i]))
            continue;
        SummaryGroup*& g = byKind[m.copyKind[i]];
        if (!g) {
            const QString opName = p.memOpName(m.copyKind[i]);
            g = &byName[opName.toUtf8()];
            g->name = opName;
        }
        g->values.push_back(bySize ? m.bytes[i] : m.end[i] - m.start[i]);
    }
    std::vector<SummaryGroup> groups;
    for (auto& [key, g] : byName)
        groups.push_back(std::move(g));
    return groups;
}

/// The checks nsys's memory reports make; an empty string when the report applies.
QString memOpSkipReason(const Profile& p, bool requireEnum = true)
{
    const bool memcpy = profileHasTable(p, "CUPTI_ACTIVITY_KIND_MEMCPY");
    if (!memcpy && !profileHasTable(p, "CUPTI_ACTIVITY_KIND_MEMSET"))
        return QStringLiteral("%1 does not contain GPU memory data.").arg(reportFileName(p));
    // Exports before 2022.4 have no ENUM tables; current nsys refuses them rather than guess the labels.
    if (requireEnum && memcpy && !profileHasTable(p, "ENUM_CUDA_MEMCPY_OPER"))
        return QStringLiteral("%1 does not contain ENUM_CUDA_MEMCPY_OPER table.").arg(reportFileName(p));
    if (p.memops.size() == 0)
        return noDataMessage();
    return {};
}

} // namespace

namespace {
ReportTable memTimeSum(const Profile& p, const FocusRange& focus, bool requireEnum)
{
    const QString name = reportnames::cudaGpuMemTimeSum.idString();
    const QString title = reportnames::cudaGpuMemTimeSum.titleString();
    if (const QString reason = memOpSkipReason(p, requireEnum); !reason.isEmpty())
        return skippedReport(name, title, reason);
    SummaryLayout layout;
    layout.countHeader = QStringLiteral("Count");
    layout.nameHeader = QStringLiteral("Operation");
    return buildSummaryReport(name, title, layout, memOpGroups(p, false, focus));
}
} // namespace

ReportTable cudaGpuMemTimeSum(const Profile& p, const FocusRange& focus)
{
    return memTimeSum(p, focus, true);
}

namespace {
ReportTable memSizeSum(const Profile& p, const FocusRange& focus, bool requireEnum)
{
    const QString name = reportnames::cudaGpuMemSizeSum.idString();
    const QString title = reportnames::cudaGpuMemSizeSum.titleString();
    if (const QString reason = memOpSkipReason(p, requireEnum); !reason.isEmpty())
        return skippedReport(name, title, reason);
    // Statistics over bytes, unrounded; nsys prints them converted to MB (10^6 bytes) with 3 decimals.
    ReportTable t;
    t.name = name;
    t.title = title;
    using T = ReportColumn::Type;
    t.columns = { { QStringLiteral("Total (MB)"), T::Real, 3 }, { QStringLiteral("Count"), T::Integer },
        { QStringLiteral("Avg (MB)"), T::Real, 3 }, { QStringLiteral("Med (MB)"), T::Real, 3 },
        { QStringLiteral("Min (MB)"), T::Real, 3 }, { QStringLiteral("Max (MB)"), T::Real, 3 },
        { QStringLiteral("StdDev (MB)"), T::Real, 3 }, { QStringLiteral("Operation"), T::Text } };
    struct Row
    {
        DurationSummary s;
        QString name;
    };
    std::vector<Row> rows;
    for (SummaryGroup& g : memOpGroups(p, true, focus))
        rows.push_back({ summarize(g.values), g.name });
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.s.total > b.s.total; });
    auto mb = [](double bytes) { return bytes / 1e6; };
    for (const Row& r : rows)
        t.rows.push_back({ mb(double(r.s.total)), r.s.count, mb(r.s.mean), mb(r.s.median), mb(double(r.s.min)),
            mb(double(r.s.max)), mb(r.s.stddev), r.name });
    return t;
}
} // namespace

ReportTable cudaGpuMemSizeSum(const Profile& p, const FocusRange& focus)
{
    return memSizeSum(p, focus, true);
}

ReportTable legacyMemOpReport(
    const QString& reportName, const Profile& p, const FocusRange& focus, const QStringList& arguments)
{
    ReportTable t;
    if (reportName == reportnames::cudaGpuMemTimeSum.idString())
        t = memTimeSum(p, focus, false);
    else if (reportName == reportnames::cudaGpuMemSizeSum.idString())
        t = memSizeSum(p, focus, false);
    else if (reportName == reportnames::cudaGpuSum.idString())
        t = cudaGpuSum(p,
            arguments.contains(QLatin1String("base"))          ? KernelNameMode::Short
                : arguments.contains(QLatin1String("mangled")) ? KernelNameMode::Mangled
                                                               : KernelNameMode::Demangled,
            focus, false);
    else
        return skippedReport(reportName, QString(),
            QStringLiteral("%1 does not contain ENUM_CUDA_MEMCPY_OPER table.").arg(reportFileName(p)));
    if (!t.skipped.isEmpty())
        return t;
    // nsys 2022.4's names for the copy kinds (its own list; the ENUM table came later).
    static const std::pair<const char*, const char*> kLegacy[] = { { "Host-to-Device", "HtoD" },
        { "Device-to-Host", "DtoH" }, { "Host-to-Array", "HtoA" }, { "Array-to-Host", "AtoH" },
        { "Array-to-Array", "AtoA" }, { "Array-to-Device", "AtoD" }, { "Device-to-Array", "DtoA" },
        { "Device-to-Device", "DtoD" }, { "Host-to-Host", "HtoH" }, { "Peer-to-Peer", "PtoP" } };
    const int nameColumn = t.columnIndex(QStringLiteral("Operation"));
    for (std::vector<ReportValue>& row : t.rows) {
        auto* text = std::get_if<QString>(&row[std::size_t(nameColumn)]);
        if (!text)
            continue;
        for (const auto& [label, shortName] : kLegacy) {
            const QString unified = QStringLiteral("[CUDA memcpy Unified %1]").arg(QLatin1String(label));
            if (*text == unified)
                *text = QStringLiteral("[CUDA Unified Memory memcpy %1]").arg(QLatin1String(shortName));
            else if (*text == QStringLiteral("[CUDA memcpy %1]").arg(QLatin1String(label)))
                *text = QStringLiteral("[CUDA memcpy %1]").arg(QLatin1String(shortName));
        }
    }
    t.note
        = QStringLiteral("This export predates the ENUM tables (nsys 2022.4): current nsys stats refuses this report; "
                         "shown with the copy-kind names nsys 2022.4 printed.");
    return t;
}

ReportTable osrtSum(const Profile& p, const FocusRange& focus)
{
    const QString name = reportnames::osrtSum.idString();
    const QString title = reportnames::osrtSum.titleString();
    if (!profileHasTable(p, "OSRT_API"))
        return skippedReport(
            name, title, QStringLiteral("%1 does not contain OS Runtime trace data.").arg(reportFileName(p)));
    const OsrtTable& o = p.osrt;
    std::vector<SummaryGroup> groups = groupByName(
        p, o.size(), [&](std::size_t i) { return o.name[i]; }, [&](std::size_t i) { return o.end[i] - o.start[i]; },
        [&](std::size_t i) {
            return o.eventClass[i] == OsrtTable::kOsRuntime && focus.overlaps(o.start[i], o.end[i]);
        });
    if (groups.empty())
        return skippedReport(name, title, noDataMessage());
    SummaryLayout layout;
    layout.countHeader = QStringLiteral("Num Calls");
    return buildSummaryReport(name, title, layout, std::move(groups));
}

} // namespace nsw
