// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/iterations/iterations.h"
#include "core/models/columntablemodel.h"

#include <memory>

namespace nsw {

/// The iterations of a profile: index, marker instance (or "guess"), start on the session clock, duration, GPU
/// busy, idle, kernels, top category, top kernel, outlier. Raw values (ns) in RawValueRole for CSV.
class IterationTableModel : public ColumnTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        IndexColumn,
        NameColumn,
        StartColumn,
        DurationColumn,
        BusyColumn,
        IdleColumn,
        KernelsColumn,
        TopCategoryColumn,
        TopKernelColumn,
        OutlierColumn,
        ColumnCount
    };

    explicit IterationTableModel(QObject* parent = nullptr);

    void setTable(std::shared_ptr<const IterationTable> table);
    const std::shared_ptr<const IterationTable>& table() const { return m_table; }

protected:
    int rows() const override { return m_table ? int(m_table->iterations.size()) : 0; }
    QVariant rowData(int row, int role) const override;

private:
    const Iteration& at(int row) const { return m_table->iterations[std::size_t(row)]; }
    QString topKernelAt(int row) const { return m_table->profile->strings.at(at(row).topKernel); }

    std::shared_ptr<const IterationTable> m_table;
};

} // namespace nsw
