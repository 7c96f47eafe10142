// SPDX-License-Identifier: GPL-3.0-or-later
#include "categorynamesmodel.h"

#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

namespace nsw {

CategoryNamesModel::CategoryNamesModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void CategoryNamesModel::setRows(std::vector<CategoryNameRow> rows, TimeMode mode)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_mode = mode;
    endResetModel();
}

const CategoryNameRow* CategoryNamesModel::rowAt(int row) const
{
    return row >= 0 && std::size_t(row) < m_rows.size() ? &m_rows[std::size_t(row)] : nullptr;
}

int CategoryNamesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CategoryNamesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CategoryNamesModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const CategoryNameRow& r = m_rows[std::size_t(index.row())];
    if (role == KernelNameRole)
        return r.name;
    if (role == IdentityRole)
        return index.row();
    if (role == Qt::TextAlignmentRole && index.column() >= InstancesColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    const bool raw = role == SortRole || role == RawValueRole;
    if (role != Qt::DisplayRole && !raw && role != Qt::ToolTipRole)
        return {};
    switch (Column(index.column())) {
    case NameColumn:
        return role == Qt::ToolTipRole ? r.name + QStringLiteral("\nshort name: ") + r.shortName : r.name;
    case CategoryColumn:
        return r.category;
    case RuleColumn:
        if (raw)
            return r.rule;
        if (r.rule < 0)
            return tr("none matches");
        return r.catchAll ? tr("%1 (catch-all)").arg(r.rule + 1) : QString::number(r.rule + 1);
    case InstancesColumn:
        return raw ? QVariant(qint64(r.instances)) : QVariant(withThousandsSeparators(qint64(r.instances)));
    case TimeColumn:
        return raw ? QVariant(qint64(r.time)) : QVariant(formatDuration(r.time));
    case ColumnCount:
        break;
    }
    return {};
}

QVariant CategoryNamesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != RawValueRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case NameColumn:
        return tr("Name");
    case CategoryColumn:
        return tr("Category");
    case RuleColumn:
        return tr("Rule");
    case InstancesColumn:
        return tr("Instances");
    case TimeColumn:
        return role == RawValueRole ? tr("Time (ns)") : tr("Time [%1]").arg(timeModeName(m_mode));
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace nsw
