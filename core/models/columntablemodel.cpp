// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/columntablemodel.h"

#include "core/models/modelroles.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

namespace nsw {

ColumnTableModel::ColumnTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

int ColumnTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : rows();
}

int ColumnTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant ColumnTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const ColumnSpec& c = m_columns[std::size_t(index.column())];
    const int row = index.row();
    switch (role) {
    case Qt::DisplayRole:
        return c.text ? c.text(row, c.raw(row)) : c.raw(row);
    case SortRole:
    case RawValueRole:
        return c.raw(row);
    case Qt::ToolTipRole:
        return c.toolTip ? c.toolTip(row) : QVariant();
    case Qt::TextAlignmentRole:
        return !c.alignment ? QVariant() : QVariant::fromValue(c.alignment);
    default:
        return rowData(row, role);
    }
}

QVariant ColumnTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && section >= 0 && std::size_t(section) < m_columns.size()) {
        const ColumnSpec& c = m_columns[std::size_t(section)];
        if (role == Qt::DisplayRole)
            return c.header;
        if (role == RawValueRole)
            return c.rawHeader.isEmpty() ? c.header : c.rawHeader;
        if (role == Qt::ToolTipRole && !c.headerToolTip.isEmpty())
            return c.headerToolTip;
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

QVariant ColumnTableModel::rowData(int, int) const
{
    return {};
}

ColumnTableModel::Text ColumnTableModel::durationText()
{
    return [](int, const QVariant& raw) { return formatDuration(raw.toLongLong()); };
}

ColumnTableModel::Text ColumnTableModel::secondsText(int decimals)
{
    return [decimals](int, const QVariant& raw) { return formatSeconds(raw.toLongLong(), decimals); };
}

ColumnTableModel::Text ColumnTableModel::fixedText(int decimals)
{
    return [decimals](int, const QVariant& raw) { return QString::number(raw.toDouble(), 'f', decimals); };
}

ColumnTableModel::Text ColumnTableModel::countText()
{
    return [](int, const QVariant& raw) { return withThousandsSeparators(raw.toLongLong()); };
}

} // namespace nsw
