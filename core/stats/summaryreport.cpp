// SPDX-License-Identifier: GPL-3.0-or-later
#include "summaryreport.h"

#include "core/stats/durationstats.h"
#include "core/util/numberformat.h"

#include <algorithm>

namespace nsw {

SummaryGroup& TextGroups::group(const QString* text)
{
    if (!text) {
        if (!m_null)
            m_null.emplace();
        return *m_null;
    }
    SummaryGroup& g = m_byText[text->toUtf8()];
    g.name = *text;
    return g;
}

std::vector<SummaryGroup> TextGroups::take()
{
    std::vector<SummaryGroup> groups;
    if (m_null && !m_null->values.empty())
        groups.push_back(std::move(*m_null));
    for (auto& [key, g] : m_byText)
        if (!g.values.empty())
            groups.push_back(std::move(g));
    m_null.reset();
    m_byText.clear();
    return groups;
}

ReportTable buildSummaryReport(
    const QString& name, const QString& title, const SummaryLayout& layout, std::vector<SummaryGroup> groups)
{
    ReportTable table;
    table.name = name;
    table.title = title;
    using T = ReportColumn::Type;
    const QString u = QStringLiteral(" (") + layout.unit + QLatin1Char(')');
    if (layout.withTimePercent)
        table.columns.push_back({ layout.percentHeader, T::Real });
    table.columns.push_back({ layout.totalHeader, T::Integer });
    table.columns.push_back({ layout.countHeader, T::Integer });
    table.columns.push_back({ QStringLiteral("Avg") + u, T::Real });
    table.columns.push_back({ QStringLiteral("Med") + u, T::Real });
    table.columns.push_back({ QStringLiteral("Min") + u, T::Integer });
    table.columns.push_back({ QStringLiteral("Max") + u, T::Integer });
    table.columns.push_back({ QStringLiteral("StdDev") + u, T::Real });
    for (const QString& h : layout.extraHeaders)
        table.columns.push_back({ h, T::Text });
    table.columns.push_back({ layout.nameHeader, T::Text });

    struct Row
    {
        DurationSummary stats;
        const SummaryGroup* group;
        QByteArray sortName;
    };
    std::vector<Row> rows;
    rows.reserve(groups.size());
    qint64 grandTotal = 0;
    const bool countThenName = layout.ties == SummaryLayout::Ties::CountThenName;
    for (SummaryGroup& g : groups) {
        const std::span<qint64> values = g.slice.empty() ? std::span<qint64>(g.values) : g.slice;
        if (values.empty())
            continue;
        rows.push_back({ summarize(values), &g, countThenName ? g.name.toUtf8() : QByteArray() });
        grandTotal += rows.back().stats.total;
    }
    std::stable_sort(rows.begin(), rows.end(), [countThenName](const Row& a, const Row& b) {
        if (a.stats.total != b.stats.total)
            return a.stats.total > b.stats.total;
        if (!countThenName)
            return false;
        if (a.stats.count != b.stats.count)
            return a.stats.count < b.stats.count;
        return a.sortName < b.sortName;
    });
    table.rows.reserve(rows.size());
    for (const Row& r : rows) {
        std::vector<ReportValue> cells;
        cells.reserve(table.columns.size());
        const DurationSummary& s = r.stats;
        if (layout.withTimePercent) {
            if (grandTotal != 0)
                cells.emplace_back(sqliteRound(double(s.total) * 100.0 / double(grandTotal), 1));
            else
                cells.emplace_back(std::monostate {}); // SQLite: division by zero is NULL
        }
        cells.emplace_back(s.total);
        cells.emplace_back(s.count);
        cells.emplace_back(sqliteRound(s.mean, 1));
        cells.emplace_back(sqliteRound(s.median, 1));
        cells.emplace_back(s.min);
        cells.emplace_back(s.max);
        cells.emplace_back(sqliteRound(s.stddev, 1));
        for (int i = 0; i < layout.extraHeaders.size(); ++i)
            cells.emplace_back(r.group->extra.value(i));
        cells.emplace_back(r.group->name);
        table.rows.push_back(std::move(cells));
    }
    return table;
}

} // namespace nsw
