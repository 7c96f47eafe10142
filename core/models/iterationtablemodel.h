// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/iterations/iterations.h"

#include <QAbstractTableModel>
#include <memory>

namespace nsw {

/// The iterations of a profile: index, marker instance (or "guess"), start on the session clock, duration, GPU
/// busy, idle, kernels, top category, top kernel, outlier. Raw values (ns) in RawValueRole for CSV.
class IterationTableModel : public QAbstractTableModel
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

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant rawValue(const Iteration& it, int column) const;
    std::shared_ptr<const IterationTable> m_table;
};

} // namespace nsw
