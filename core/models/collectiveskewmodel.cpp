// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/collectiveskewmodel.h"

#include "core/models/modelroles.h"
#include "core/util/timeformat.h"

namespace nsw {

CollectiveSkewModel::CollectiveSkewModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void CollectiveSkewModel::setResult(std::shared_ptr<const RanksResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

int CollectiveSkewModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_result ? 0 : int(m_result->collectives.size());
}

int CollectiveSkewModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CollectiveSkewModel::rawValue(int row, int column) const
{
    const CollectiveInstance& c = m_result->collectives[std::size_t(row)];
    const CollectiveKey& key = m_result->keys[std::size_t(c.key)];
    switch (column) {
    case IndexColumn:
        return row;
    case KindColumn:
        return collectiveName(key.kind);
    case NameColumn:
        return key.name;
    case StreamColumn:
        return key.stream;
    case SequenceColumn:
        return c.sequence;
    case IterationColumn:
        return c.iteration;
    case FirstArrivalColumn:
        return qint64(c.firstArrival);
    case SkewColumn:
        return qint64(c.skewNs());
    case StragglerColumn:
        return c.straggler;
    case TransferColumn:
        return qint64(c.transferNs);
    }
    return {};
}

QVariant CollectiveSkewModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const QVariant raw = rawValue(index.row(), index.column());
    switch (role) {
    case SortRole:
    case RawValueRole:
        return raw;
    case IdentityRole:
        return index.row();
    case Qt::TextAlignmentRole: {
        const bool text = index.column() == KindColumn || index.column() == NameColumn;
        return QVariant::fromValue((text ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    }
    case Qt::ToolTipRole:
        return index.column() == NameColumn ? raw : QVariant();
    case Qt::DisplayRole:
        switch (index.column()) {
        case IterationColumn:
            return raw.toInt() < 0 ? QStringLiteral("-") : raw.toString();
        case FirstArrivalColumn:
            return formatSeconds(raw.toLongLong(), 6);
        case SkewColumn:
        case TransferColumn:
            return formatDuration(raw.toLongLong());
        case StragglerColumn:
            return tr("rank %1").arg(raw.toInt());
        default:
            return raw;
        }
    default:
        return {};
    }
}

QVariant CollectiveSkewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != RawValueRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool raw = role == RawValueRole;
    switch (section) {
    case IndexColumn:
        return tr("#");
    case KindColumn:
        return tr("Collective");
    case NameColumn:
        return tr("NCCL kernel");
    case StreamColumn:
        return tr("NCCL stream");
    case SequenceColumn:
        return tr("Instance");
    case IterationColumn:
        return tr("Iteration");
    case FirstArrivalColumn:
        return raw ? QStringLiteral("First Arrival (ns)") : tr("First arrival");
    case SkewColumn:
        return raw ? QStringLiteral("Skew (ns)") : tr("Arrival skew");
    case StragglerColumn:
        return tr("Last to arrive");
    case TransferColumn:
        return raw ? QStringLiteral("Transfer (ns)") : tr("Transfer");
    }
    return {};
}

} // namespace nsw
