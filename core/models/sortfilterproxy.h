// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>
#include <array>

namespace nsw {

/// The proxy every table and tree uses: sorts on SortRole (raw values, never display text) and filters one key
/// column by case-insensitive substring or regular expression; recursive so tree filters keep ancestors. Top-level
/// rows whose PinnedRole is true (in column 0) stay first in either sort order and are never filtered out. A column
/// the source declares presorted (PresortedRole) keeps the source's order when sorted that way.
class SortFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit SortFilterProxy(QObject* parent = nullptr);

    /// Returns an empty string, or the regular expression's error (the filter is then left unchanged).
    QString setFilter(const QString& text, bool regex);
    bool hasChildren(const QModelIndex& parent = {}) const override;
    void setSourceModel(QAbstractItemModel* model) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    bool isPinned(const QModelIndex& index) const;
    /// Whether the source's rows are already in the order of a sort on @p sourceColumn in the current order (asked of
    /// the source once per column and order).
    bool sortsAsTheSource(int sourceColumn) const;

    mutable int m_presortColumn = -2; ///< the source column m_presorted was asked for (-2: not asked)
    mutable Qt::SortOrder m_presortOrder = Qt::AscendingOrder;
    mutable bool m_presorted = false;
    std::array<QMetaObject::Connection, 2> m_presortWatch; ///< a header change or reset of the source forgets it
};

} // namespace nsw
