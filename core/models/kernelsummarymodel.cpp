// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernelsummarymodel.h"

#include "core/models/modelroles.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

#include <algorithm>

namespace nsw {

namespace {
/// A duration kept in double (mean, median, percentiles), shown rounded to the ns.
QString roundedDuration(int, const QVariant& raw)
{
    return formatDuration(qint64(raw.toDouble() + 0.5));
}
} // namespace

KernelSummaryModel::KernelSummaryModel(QObject* parent)
    : ColumnTableModel(parent)
{
    setColumns({
        { .header = tr("Name"),
            .raw = [this](int r) { return nameAt(r); },
            .toolTip = [this](int r) { return nameAt(r); },
            .alignment = {} },
        { .header = tr("Time (%)"),
            .raw
            = [this](int r) { return m_totalTime > 0 ? 100.0 * double(statsOf(r).total) / double(m_totalTime) : 0.0; },
            .text = fixedText(1) },
        { .header = tr("Total"),
            .rawHeader = QStringLiteral("Total Time (ns)"),
            .raw = [this](int r) { return statsOf(r).total; },
            .text = durationText() },
        { .header = tr("Instances"), .raw = [this](int r) { return statsOf(r).count; }, .text = countText() },
        { .header = tr("Avg"),
            .rawHeader = QStringLiteral("Avg (ns)"),
            .raw = [this](int r) { return statsOf(r).mean; },
            .text = roundedDuration },
        { .header = tr("Med"),
            .rawHeader = QStringLiteral("Med (ns)"),
            .raw = [this](int r) { return statsOf(r).median; },
            .text = roundedDuration },
        { .header = tr("Min"),
            .rawHeader = QStringLiteral("Min (ns)"),
            .raw = [this](int r) { return statsOf(r).min; },
            .text = durationText() },
        { .header = tr("Max"),
            .rawHeader = QStringLiteral("Max (ns)"),
            .raw = [this](int r) { return statsOf(r).max; },
            .text = durationText() },
        { .header = tr("StdDev"),
            .rawHeader = QStringLiteral("StdDev (ns)"),
            .raw = [this](int r) { return statsOf(r).stddev; },
            .text = roundedDuration },
        { .header = tr("p90"),
            .rawHeader = QStringLiteral("p90 (ns)"),
            .raw = [this](int r) { return statsOf(r).p90; },
            .text = roundedDuration },
        { .header = tr("p99"),
            .rawHeader = QStringLiteral("p99 (ns)"),
            .raw = [this](int r) { return statsOf(r).p99; },
            .text = roundedDuration },
        { .header = tr("Modes"),
            .raw = [this](int r) { return qint64(std::max<std::size_t>(m_rows[std::size_t(r)].modes.size(), 1)); },
            .text = [this](int r, const QVariant&) { return modesText(m_rows[std::size_t(r)].modes); },
            .toolTip = [this](int r) { return modesToolTip(m_rows[std::size_t(r)].modes); },
            .headerToolTip = tr("Kernels whose durations fall into separate groups (peaks of the log-scaled duration "
                                "histogram with a deep valley between them), with each group's median") },
        { .header = tr("Device"),
            .raw = [this](int r) { return m_rows[std::size_t(r)].device; },
            .text = [](int, const QVariant& raw) { return raw.toInt() < 0 ? tr("all") : raw.toString(); } },
    });
}

void KernelSummaryModel::setResults(std::shared_ptr<const KernelIndex> index, std::vector<KernelGroupStats> rows)
{
    beginResetModel();
    m_index = std::move(index);
    m_rows = std::move(rows);
    m_totalTime = 0;
    for (const KernelGroupStats& r : m_rows)
        m_totalTime += r.stats.total;
    endResetModel();
}

void KernelSummaryModel::clear()
{
    setResults(nullptr, {});
}

const KernelGroupStats* KernelSummaryModel::statsAt(int row) const
{
    return row >= 0 && std::size_t(row) < m_rows.size() ? &m_rows[std::size_t(row)] : nullptr;
}

QString KernelSummaryModel::nameAt(int row) const
{
    const KernelGroupStats* s = statsAt(row);
    return s && m_index ? m_index->profile()->strings.at(s->name) : QString();
}

QVariant KernelSummaryModel::rowData(int row, int role) const
{
    if (role == KernelNameRole)
        return nameAt(row);
    if (role == IdentityRole)
        return m_rows[std::size_t(row)].group;
    return {};
}

QString KernelSummaryModel::modesText(const std::vector<DurationMode>& modes)
{
    if (modes.size() < 2)
        return {};
    QStringList medians;
    for (const DurationMode& m : modes)
        medians << formatDuration(qint64(m.median + 0.5));
    return tr("%1 groups: %2").arg(modes.size()).arg(medians.join(QStringLiteral(" · ")));
}

QString KernelSummaryModel::modesToolTip(const std::vector<DurationMode>& modes)
{
    if (modes.size() < 2)
        return tr("One group of durations");
    QStringList lines;
    for (const DurationMode& m : modes)
        lines << tr("%1, median %2 (%3 – %4)")
                     .arg(countOf(m.count, tr("execution"), tr("executions")), formatDuration(qint64(m.median + 0.5)),
                         formatDuration(m.lower), formatDuration(m.upper));
    return tr("Durations in %1 groups:\n%2").arg(modes.size()).arg(lines.join(QLatin1Char('\n')));
}

} // namespace nsw
