// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/diagnostics/diagnosticstypes.h"

#include <QAbstractTableModel>
#include <memory>

namespace nsw {

/// One diagnostics table (DiagnosticsTable) as the Findings pane's sub-tabs show it: numbers with thousands
/// separators, raw values in SortRole/RawValueRole (CSV exports the same numbers as `report`'s tables/*.csv).
class DiagnosticsTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit DiagnosticsTableModel(QObject* parent = nullptr);

    void setTable(std::shared_ptr<const DiagnosticsTable> table);
    const std::shared_ptr<const DiagnosticsTable>& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const DiagnosticsTable> m_table;
};

/// The findings of a diagnostics run, ranked by GPU cost: severity, finding, GPU cost. IdentityRole is the index in
/// the result's findings.
class FindingsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        SeverityColumn,
        TitleColumn,
        GpuCostColumn,
        ColumnCount
    };

    explicit FindingsModel(QObject* parent = nullptr);

    void setFindings(std::vector<Finding> findings);
    const std::vector<Finding>& findings() const { return m_findings; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Finding> m_findings;
};

} // namespace nsw
