// SPDX-License-Identifier: GPL-3.0-or-later
#include "directivereports.h"

#include "core/stats/exportquery.h"
#include "core/stats/reportchecks.h"
#include "core/stats/reportnames.h"
#include "core/stats/summaryreport.h"

#include <map>
#include <optional>

namespace nsw {

namespace {

/// The export's tables named @p prefix followed by at least one character, in the file's order.
QStringList tablesNamed(const Profile& p, const QString& prefix)
{
    QStringList found;
    for (const QString& t : p.meta.tables)
        if (t.startsWith(prefix) && t.size() > prefix.size())
            found.append(t);
    return found;
}

std::optional<QString> textOrNull(const Statement& row, int column)
{
    return row.isNull(column) ? std::nullopt : std::optional<QString>(row.text(column));
}

} // namespace

ReportTable openAccSum(const Profile& p, const FocusRange& focus)
{
    const QString name = reportnames::openAccSum.idString();
    const QString title = reportnames::openAccSum.titleString();
    const QStringList tables = tablesNamed(p, QStringLiteral("CUPTI_ACTIVITY_KIND_OPENACC_"));
    if (tables.isEmpty())
        return skippedReport(
            name, title, QStringLiteral("%1 does not contain OpenACC event data.").arg(reportFileName(p)));
    TextGroups groups;
    for (const QString& table : tables) {
        const QString error = readExportRows(p, table,
            QStringLiteral("SELECT e.start, e.end, n.value, e.srcFile, f.value, e.lineNo FROM %1 AS e "
                           "LEFT JOIN StringIds AS n ON n.id = e.nameId LEFT JOIN StringIds AS f ON f.id = e.srcFile")
                .arg(quoteIdentifier(table)),
            [&](const Statement& row) {
                if (!focus.overlaps(row.int64(0), row.int64(1)))
                    return;
                // "name@file:line" when the event has a source file: NULL when any part is (SQL's ||).
                std::optional<QString> label = textOrNull(row, 2);
                if (!row.isNull(3)) {
                    const std::optional<QString> file = textOrNull(row, 4);
                    label = label && file && !row.isNull(5) ? std::optional<QString>(
                                *label + QLatin1Char('@') + *file + QLatin1Char(':') + QString::number(row.int64(5)))
                                                            : std::nullopt;
                }
                groups.group(label ? &*label : nullptr).values.push_back(row.int64(1) - row.int64(0));
            });
        if (!error.isEmpty())
            return skippedReport(name, title, error);
    }
    std::vector<SummaryGroup> grouped = groups.take();
    if (grouped.empty())
        return skippedReport(name, title, noDataMessage());
    SummaryLayout layout;
    layout.percentHeader = QStringLiteral("Time(%)");
    layout.countHeader = QStringLiteral("Num Calls");
    return buildSummaryReport(name, title, layout, std::move(grouped));
}

ReportTable openMpSum(const Profile& p, const FocusRange& focus)
{
    const QString name = reportnames::openMpSum.idString();
    const QString title = reportnames::openMpSum.titleString();
    const QStringList tables = tablesNamed(p, QStringLiteral("OPENMP_EVENT_KIND_"));
    if (tables.isEmpty())
        return skippedReport(
            name, title, QStringLiteral("%1 does not contain OpenMP event data.").arg(reportFileName(p)));
    std::vector<SummaryGroup> groups;
    for (const QString& table : tables) {
        std::map<std::optional<qint64>, SummaryGroup> byName; // GROUP BY nameId: NULL first, then by id
        const QString error = readExportRows(p, table,
            QStringLiteral("SELECT e.nameId, n.value, e.start, e.end FROM %1 AS e "
                           "LEFT JOIN StringIds AS n ON n.id = e.nameId")
                .arg(quoteIdentifier(table)),
            [&](const Statement& row) {
                if (!focus.overlaps(row.int64(2), row.int64(3)))
                    return;
                SummaryGroup& g = byName[row.isNull(0) ? std::nullopt : std::optional<qint64>(row.int64(0))];
                g.name = row.text(1);
                g.values.push_back(row.int64(3) - row.int64(2));
            });
        if (!error.isEmpty())
            return skippedReport(name, title, error);
        for (auto& [id, g] : byName)
            groups.push_back(std::move(g));
    }
    if (groups.empty())
        return skippedReport(name, title, noDataMessage());
    SummaryLayout layout;
    layout.countHeader = QStringLiteral("Count");
    return buildSummaryReport(name, title, layout, std::move(groups));
}

} // namespace nsw
