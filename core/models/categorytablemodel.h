// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/categories/categorytable.h"
#include "core/models/columntablemodel.h"
#include "core/models/modelroles.h"

namespace nsw {

/// The categories pane's table: one row per category (and the CPU segment), per bar its time, share and instances
/// (each bar's own: profiles and GPUs are never added up).
class CategoryTableModel : public ColumnTableModel
{
    Q_OBJECT
public:
    /// 0xAARRGGBB of the row's category (the widgets paint it).
    static constexpr int ColorRole = FirstCustomRole;
    /// Columns of a bar, after the category column: time, share, instances.
    static constexpr int kColumnsPerBar = 3;
    enum BarPart
    {
        TimePart,
        SharePart,
        InstancesPart
    };

    explicit CategoryTableModel(QObject* parent = nullptr);
    void setTable(CategoryTable table);
    const CategoryTable& table() const { return m_table; }

protected:
    int rows() const override { return int(m_table.rowCount()); }
    QVariant rowData(int row, int role) const override;

private:
    /// The category column, then per bar its time, share and instances columns.
    std::vector<ColumnSpec> columns() const;

    CategoryTable m_table;
};

} // namespace nsw
