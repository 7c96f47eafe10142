// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorytable.h"
#include "core/models/columntablemodel.h"
#include "core/models/modelroles.h"

namespace nsw {

/// Distinct names of a profile with the category and rule the rules give them (the rule editor's browser of
/// uncategorised kernels).
class CategoryNamesModel : public ColumnTableModel
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

protected:
    int rows() const override { return int(m_rows.size()); }
    QVariant rowData(int row, int role) const override;

private:
    const CategoryNameRow& at(int row) const { return m_rows[std::size_t(row)]; }
    /// The rule's number as the editor lists it, "none matches" for none.
    static QString ruleText(const CategoryNameRow& row);

    std::vector<CategoryNameRow> m_rows;
};

} // namespace nsw
