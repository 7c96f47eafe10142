// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorytable.h"
#include "core/models/modelroles.h"

#include <QAbstractTableModel>

namespace nsw {

/// Distinct names of a profile with the category and rule the rules give them (the rule editor's browser of
/// uncategorised kernels).
class CategoryNamesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        CategoryColumn,
        RuleColumn,
        InstancesColumn,
        TimeColumn,
        ColumnCount
    };

    explicit CategoryNamesModel(QObject* parent = nullptr);
    void setRows(std::vector<CategoryNameRow> rows, TimeMode mode);
    const CategoryNameRow* rowAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<CategoryNameRow> m_rows;
    TimeMode m_mode = TimeMode::Global;
};

} // namespace nsw
