// SPDX-License-Identifier: GPL-3.0-or-later
#include "sortfilterproxy.h"

#include "core/models/modelroles.h"

#include <QRegularExpression>

namespace nsw {

SortFilterProxy::SortFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
    setDynamicSortFilter(true);
    setRecursiveFilteringEnabled(true);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

QString SortFilterProxy::setFilter(const QString& text, bool regex)
{
    if (!regex) {
        setFilterFixedString(text);
        return {};
    }
    const QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
    if (!re.isValid())
        return re.errorString() + QStringLiteral(" (at %1)").arg(re.patternErrorOffset());
    setFilterRegularExpression(re);
    return {};
}

bool SortFilterProxy::isPinned(const QModelIndex& index) const
{
    return !index.parent().isValid() && index.siblingAtColumn(0).data(PinnedRole).toBool();
}

bool SortFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    // The filter first: without one it accepts every row at once, and the pinned row is not asked for.
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent)
        || (!sourceParent.isValid() && sourceModel() && isPinned(sourceModel()->index(sourceRow, 0)));
}

void SortFilterProxy::setSourceModel(QAbstractItemModel* model)
{
    for (const QMetaObject::Connection& c : m_presortWatch)
        disconnect(c);
    m_presortColumn = -2;
    QSortFilterProxyModel::setSourceModel(model);
    if (!model)
        return;
    const auto forget = [this] { m_presortColumn = -2; };
    m_presortWatch = { connect(model, &QAbstractItemModel::headerDataChanged, this, forget),
        connect(model, &QAbstractItemModel::modelAboutToBeReset, this, forget) };
}

bool SortFilterProxy::sortsAsTheSource(int sourceColumn) const
{
    if (m_presortColumn != sourceColumn || m_presortOrder != sortOrder()) {
        m_presortColumn = sourceColumn;
        m_presortOrder = sortOrder();
        const QVariant presorted
            = sourceModel() ? sourceModel()->headerData(sourceColumn, Qt::Horizontal, PresortedRole) : QVariant();
        m_presorted = presorted.isValid() && presorted.toInt() == int(sortOrder());
    }
    return m_presorted;
}

bool SortFilterProxy::hasChildren(const QModelIndex& parent) const
{
    // Without a filter every source row is shown, so the source can answer. QSortFilterProxyModel would build (and
    // sort) the row's mapping first, and a tree view asks this of every row it lays out: expanding a thread of 100,000
    // NVTX ranges sorted each range's children on the GUI thread.
    if (sourceModel() && filterRegularExpression().pattern().isEmpty())
        return sourceModel()->hasChildren(mapToSource(parent));
    return QSortFilterProxyModel::hasChildren(parent);
}

bool SortFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    // The source order, read by a stable sort that asks lessThan(right, left) when descending.
    if (sortsAsTheSource(left.column()))
        return sortOrder() == Qt::AscendingOrder ? left.row() < right.row() : left.row() > right.row();
    // A descending sort asks lessThan(right, left): answer so that the pinned row comes first either way.
    const bool l = isPinned(left);
    const bool r = isPinned(right);
    if (l != r)
        return l == (sortOrder() == Qt::AscendingOrder);
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace nsw
