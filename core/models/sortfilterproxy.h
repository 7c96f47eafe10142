// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>

namespace nsw {

/// The proxy every table and tree uses: sorts on SortRole (raw values, never display text) and filters one key
/// column by case-insensitive substring or regular expression; recursive so tree filters keep ancestors. Top-level
/// rows whose PinnedRole is true (in column 0) stay first in either sort order and are never filtered out.
class SortFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit SortFilterProxy(QObject* parent = nullptr);

    /// Returns an empty string, or the regular expression's error (the filter is then left unchanged).
    QString setFilter(const QString& text, bool regex);
    bool hasChildren(const QModelIndex& parent = {}) const override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    bool isPinned(const QModelIndex& index) const;
};

} // namespace nsw
