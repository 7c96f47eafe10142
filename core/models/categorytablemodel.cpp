// SPDX-License-Identifier: GPL-3.0-or-later
#include "categorytablemodel.h"

#include "core/models/modelroles.h"
#include "core/util/timeformat.h"

#include <numeric>

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
    return parent.isValid() ? 0 : 2 + 2 * int(m_table.bars.size());
}

QVariant CategoryTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const std::size_t row = std::size_t(index.row());
    const int column = index.column();
    const int last = columnCount() - 1;
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
    if (column == last) {
        const std::int64_t n
            = std::accumulate(m_table.instances[row].begin(), m_table.instances[row].end(), std::int64_t(0));
        if (role == SortRole || role == RawValueRole)
            return qint64(n);
        if (role == Qt::DisplayRole)
            return int(row) == m_table.cpuRow ? QString() : QString::number(n);
        return {};
    }
    const std::size_t bar = std::size_t(column - 1) / 2;
    const bool share = (column - 1) % 2 == 1;
    const TimeNs t = m_table.time[row][bar];
    if (role == SortRole || role == RawValueRole)
        return share ? QVariant(m_table.share(row, bar)) : QVariant(qint64(t));
    if (role == Qt::DisplayRole)
        return share ? QString::number(m_table.share(row, bar), 'f', 1) : formatDuration(t);
    if (role == Qt::ToolTipRole && !share)
        return tr("%1: %2 ns, %3 instances").arg(m_table.bars[qsizetype(bar)]).arg(t).arg(m_table.instances[row][bar]);
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
    if (section == columnCount() - 1)
        return tr("Instances");
    const qsizetype bar = (section - 1) / 2;
    const QString name = m_table.bars.value(bar);
    if ((section - 1) % 2 == 1)
        return QString(name + QStringLiteral(" (%)"));
    if (role == Qt::ToolTipRole)
        return tr("%1, %2").arg(name, timeModeDescription(m_table.mode));
    if (raw)
        return QString(name + QStringLiteral(" (ns)"));
    return QString(name + QStringLiteral(" [") + timeModeName(m_table.mode) + QLatin1Char(']'));
}

} // namespace nsw
