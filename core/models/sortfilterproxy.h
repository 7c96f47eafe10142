// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>

namespace nsw {

/// The proxy every table and tree uses: sorts on SortRole (raw values, never display text) and filters one key
/// column by case-insensitive substring or regular expression; recursive so tree filters keep ancestors.
class SortFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit SortFilterProxy(QObject* parent = nullptr);

    /// Returns an empty string, or the regular expression's error (the filter is then left unchanged).
    QString setFilter(const QString& text, bool regex);
};

} // namespace nsw
