// SPDX-License-Identifier: GPL-3.0-or-later
#include "iterationtablemodel.h"

#include "core/models/modelroles.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

namespace nsw {

IterationTableModel::IterationTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void IterationTableModel::setTable(std::shared_ptr<const IterationTable> table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int IterationTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : int(m_table->iterations.size());
}

int IterationTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IterationTableModel::rawValue(const Iteration& it, int column) const
{
    switch (column) {
    case IndexColumn:
        return it.index;
    case NameColumn:
        return m_table->isGuess() ? QStringLiteral("guess") : m_table->profile->strings.at(it.name);
    case StartColumn:
        return qint64(it.start - m_table->clockOrigin);
    case DurationColumn:
        return qint64(it.duration());
    case BusyColumn:
        return qint64(it.gpuBusy);
    case IdleColumn:
        return qint64(it.idle());
    case KernelsColumn:
        return it.kernels;
    case TopCategoryColumn:
        return it.topCategory;
    case TopKernelColumn:
        return m_table->profile->strings.at(it.topKernel);
    case OutlierColumn:
        return it.outlier ? QStringLiteral("outlier") : QString();
    }
    return {};
}

QVariant IterationTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Iteration& it = m_table->iterations[std::size_t(index.row())];
    const int column = index.column();
    if (role == SortRole || role == RawValueRole)
        return rawValue(it, column);
    if (role == IdentityRole)
        return it.index;
    if (role == Qt::TextAlignmentRole) {
        const bool text = column == NameColumn || column == TopCategoryColumn || column == TopKernelColumn
            || column == OutlierColumn;
        return QVariant::fromValue((text ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole) {
        if (column == TopKernelColumn)
            return tr("%1\n%2 in this iteration")
                .arg(rawValue(it, column).toString(), formatDuration(it.topKernelTime));
        if (column == TopCategoryColumn && !it.topCategory.isEmpty())
            return tr("%1 in this iteration (rules %2)").arg(formatDuration(it.topCategoryTime), m_table->rulesLabel);
        if (column == NameColumn && m_table->isGuess())
            return m_table->detection;
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case StartColumn:
        return formatSeconds(it.start - m_table->clockOrigin, 6);
    case DurationColumn:
        return formatDuration(it.duration());
    case BusyColumn:
        return formatDuration(it.gpuBusy);
    case IdleColumn:
        return formatDuration(it.idle());
    case KernelsColumn:
        return withThousandsSeparators(rawValue(it, column).toLongLong());
    default:
        return rawValue(it, column);
    }
}

QVariant IterationTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != RawValueRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool raw = role == RawValueRole;
    switch (section) {
    case IndexColumn:
        return tr("Iteration");
    case NameColumn:
        return tr("Marker");
    case StartColumn:
        return raw ? QStringLiteral("Start (ns)") : tr("Start");
    case DurationColumn:
        return raw ? QStringLiteral("Duration (ns)") : tr("Duration");
    case BusyColumn:
        return raw ? QStringLiteral("GPU Busy (ns)") : tr("GPU busy");
    case IdleColumn:
        return raw ? QStringLiteral("GPU Idle (ns)") : tr("GPU idle");
    case KernelsColumn:
        return tr("Kernels");
    case TopCategoryColumn:
        return tr("Top Category");
    case TopKernelColumn:
        return tr("Top Kernel");
    case OutlierColumn:
        return tr("Outlier");
    }
    return {};
}

} // namespace nsw
