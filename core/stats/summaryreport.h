// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/stats/reporttable.h"

#include <QByteArray>
#include <QString>
#include <map>
#include <optional>
#include <span>
#include <vector>

namespace nsw {

/// Values of one group of a summary report (one kernel name, API name, memory operation...).
struct SummaryGroup
{
    QString name;
    std::vector<qint64> values;
    QStringList extra; ///< text columns printed between StdDev and the name column (e.g. nvtx_sum's Style)
    /// Instead of values: the group's part of one buffer for all groups (kept alive by the caller until the
    /// report is built), which spares a vector per group when there are tens of thousands.
    std::span<qint64> slice;
};

/// Column layout of nsys's "*_sum" reports (schema doc §9): Time (%), Total, count, Avg, Med, Min, Max, StdDev,
/// [extra...], name.
struct SummaryLayout
{
    QString percentHeader = QStringLiteral("Time (%)");
    QString totalHeader = QStringLiteral("Total Time (ns)");
    QString countHeader = QStringLiteral("Instances");
    QString unit = QStringLiteral("ns"); ///< for "Avg (ns)"...
    QString nameHeader = QStringLiteral("Name");
    QStringList extraHeaders;
    bool withTimePercent = true;
    /// How rows with equal totals are ordered: cuda_gpu_kern_sum orders by count then name; the other reports
    /// only by total, so ties keep the order of the groups as given (nsys: its GROUP BY key order).
    enum class Ties
    {
        CountThenName,
        GroupOrder
    } ties
        = Ties::GroupOrder;
};

/// Groups keyed by a text that may be NULL, handed out in the order SQLite's GROUP BY on that text emits them: NULL
/// first, then the texts in byte order of their UTF-8 (BINARY collation). Callers that read millions of rows group
/// them by string id first and add each id's values at once.
class TextGroups
{
public:
    /// The group of @p text (nullptr: NULL), created empty on first use.
    SummaryGroup& group(const QString* text);
    /// The groups that received values, in GROUP BY order; leaves this empty.
    std::vector<SummaryGroup> take();

private:
    std::optional<SummaryGroup> m_null;
    std::map<QByteArray, SummaryGroup> m_byText;
};

/// Builds the report the way nsys stats does: sample stddev (0.0 for one value), median of the two middle values,
/// SQLite round(x, 1) on Time (%), Avg, Med and StdDev, rows sorted by total desc then by layout.ties (names in
/// byte order of the UTF-8 text, as SQLite's BINARY collation). Time (%) is NULL when all totals are 0.
ReportTable buildSummaryReport(
    const QString& name, const QString& title, const SummaryLayout& layout, std::vector<SummaryGroup> groups);

} // namespace nsw
