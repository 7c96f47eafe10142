// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernelsummarymodel.h"

#include "core/models/modelroles.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

#include <algorithm>

namespace nsw {

KernelSummaryModel::KernelSummaryModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

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

int KernelSummaryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int KernelSummaryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelSummaryModel::data(const QModelIndex& index, int role) const
{
    const KernelGroupStats* r = statsAt(index.row());
    if (!r || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const DurationSummary& s = r->stats;
    const double percent = m_totalTime > 0 ? 100.0 * double(s.total) / double(m_totalTime) : 0.0;
    if (role == KernelNameRole)
        return nameAt(index.row());
    if (role == IdentityRole)
        return r->group;
    if (role == SortRole || role == RawValueRole) {
        switch (index.column()) {
        case NameColumn:
            return nameAt(index.row());
        case TimePercentColumn:
            return percent;
        case TotalColumn:
            return s.total;
        case InstancesColumn:
            return s.count;
        case AvgColumn:
            return s.mean;
        case MedColumn:
            return s.median;
        case MinColumn:
            return s.min;
        case MaxColumn:
            return s.max;
        case StdDevColumn:
            return s.stddev;
        case P90Column:
            return s.p90;
        case P99Column:
            return s.p99;
        case ModesColumn:
            return qint64(std::max<std::size_t>(r->modes.size(), 1)); // empty: one group
        case DeviceColumn:
            return r->device;
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case NameColumn:
            return nameAt(index.row());
        case TimePercentColumn:
            return QString::number(percent, 'f', 1);
        case TotalColumn:
            return formatDuration(s.total);
        case InstancesColumn:
            return withThousandsSeparators(s.count);
        case AvgColumn:
            return formatDuration(qint64(s.mean + 0.5));
        case MedColumn:
            return formatDuration(qint64(s.median + 0.5));
        case MinColumn:
            return formatDuration(s.min);
        case MaxColumn:
            return formatDuration(s.max);
        case StdDevColumn:
            return formatDuration(qint64(s.stddev + 0.5));
        case P90Column:
            return formatDuration(qint64(s.p90 + 0.5));
        case P99Column:
            return formatDuration(qint64(s.p99 + 0.5));
        case ModesColumn:
            return modesText(r->modes);
        case DeviceColumn:
            return r->device < 0 ? tr("all") : QString::number(r->device);
        }
    }
    if (role == Qt::ToolTipRole && index.column() == NameColumn)
        return nameAt(index.row());
    if (role == Qt::ToolTipRole && index.column() == ModesColumn)
        return modesToolTip(r->modes);
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant KernelSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == RawValueRole) {
        // Header of raw (unformatted) exports: units made explicit.
        static const char* const kRaw[] = { "Name", "Time (%)", "Total Time (ns)", "Instances", "Avg (ns)", "Med (ns)",
            "Min (ns)", "Max (ns)", "StdDev (ns)", "p90 (ns)", "p99 (ns)", "Modes", "Device" };
        return section >= 0 && section < ColumnCount ? QString::fromLatin1(kRaw[section]) : QVariant();
    }
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == ModesColumn)
        return tr("Kernels whose durations fall into separate groups (peaks of the log-scaled duration histogram with "
                  "a deep valley between them), with each group's median");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Name");
    case TimePercentColumn:
        return tr("Time (%)");
    case TotalColumn:
        return tr("Total");
    case InstancesColumn:
        return tr("Instances");
    case AvgColumn:
        return tr("Avg");
    case MedColumn:
        return tr("Med");
    case MinColumn:
        return tr("Min");
    case MaxColumn:
        return tr("Max");
    case StdDevColumn:
        return tr("StdDev");
    case P90Column:
        return tr("p90");
    case P99Column:
        return tr("p99");
    case ModesColumn:
        return tr("Modes");
    case DeviceColumn:
        return tr("Device");
    }
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
