// SPDX-License-Identifier: GPL-3.0-or-later
#include "categorytablemodel.h"

#include "core/models/modelroles.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

namespace nsw {

CategoryTableModel::CategoryTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void CategoryTableModel::setTable(CategoryTable table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int CategoryTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_table.rowCount());
}

int CategoryTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : 1 + kColumnsPerBar * int(m_table.bars.size());
}

QVariant CategoryTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const std::size_t row = std::size_t(index.row());
    const int column = index.column();
    if (role == ColorRole)
        return m_table.colors[row];
    if (role == IdentityRole)
        return m_table.breakdownCategory[row];
    if (column == 0) {
        if (role == Qt::DisplayRole || role == SortRole || role == RawValueRole)
            return m_table.categories[qsizetype(row)];
        if (role == Qt::ToolTipRole && int(row) == m_table.cpuRow)
            return tr("Wall time minus the GPU time of each bar");
        return {};
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    const std::size_t bar = std::size_t(column - 1) / kColumnsPerBar;
    const int part = (column - 1) % kColumnsPerBar;
    if (part == InstancesPart) {
        const std::int64_t n = m_table.instances[row][bar];
        if (role == SortRole || role == RawValueRole)
            return qint64(n);
        if (role == Qt::DisplayRole)
            return int(row) == m_table.cpuRow ? QString() : withThousandsSeparators(qint64(n));
        return {};
    }
    const bool share = part == SharePart;
    const TimeNs t = m_table.time[row][bar];
    if (role == SortRole || role == RawValueRole)
        return share ? QVariant(m_table.share(row, bar)) : QVariant(qint64(t));
    if (role == Qt::DisplayRole)
        return share ? QString::number(m_table.share(row, bar), 'f', 1) : formatDuration(t);
    if (role == Qt::ToolTipRole && !share)
        return tr("%1: %2 ns, %3 instances")
            .arg(m_table.bars[qsizetype(bar)])
            .arg(t)
            .arg(withThousandsSeparators(qint64(m_table.instances[row][bar])));
    return {};
}

QVariant CategoryTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != RawValueRole && role != Qt::ToolTipRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section < 0 || section >= columnCount())
        return {};
    const bool raw = role == RawValueRole;
    if (section == 0)
        return tr("Category");
    const qsizetype bar = (section - 1) / kColumnsPerBar;
    const int part = (section - 1) % kColumnsPerBar;
    const QString name = m_table.bars.value(bar);
    if (part == InstancesPart) {
        if (role == Qt::ToolTipRole)
            return tr("Kernel executions of the category in %1 (memory operations included)").arg(name);
        // One bar: the column keeps its plain name; several: each bar's own count, never their sum.
        return m_table.bars.size() == 1 ? tr("Instances") : QString(tr("instances · ") + name);
    }
    // What the column holds first, the bar's name after it: elided on the right, a narrow header still tells the
    // time from the share ("g2g · nsys2026.2_h1…", "% · nsys2026.2_h1…").
    if (part == SharePart) {
        if (role == Qt::ToolTipRole)
            return tr("%1: the category's share of the whole bar (its categories and CPU segment), in %").arg(name);
        return raw ? QString(name + QStringLiteral(" (%)")) : QString(QStringLiteral("% · ") + name);
    }
    if (role == Qt::ToolTipRole)
        return tr("%1, %2").arg(name, timeModeDescription(m_table.mode));
    if (raw)
        return QString(name + QStringLiteral(" (ns)"));
    return QString(timeModeName(m_table.mode) + QStringLiteral(" · ") + name);
}

} // namespace nsw
