// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvtx/nvtxexport.h"

#include <QAbstractTableModel>
#include <memory>

namespace nsw {

/// The NVTX tree flattened (parents before children, siblings by GPU time) with depth and path: what File → Export
/// and `nsys-workbench nvtx --format csv` write.
class NvtxFlatModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        DepthColumn,
        PathColumn,
        KindColumn,
        RangeColumn,
        InstancesColumn,
        CpuColumn,
        GpuColumn,
        ProjectedColumn,
        KernelsColumn,
        MemOpsColumn,
        GpuPercentColumn,
        ColumnCount
    };

    explicit NvtxFlatModel(QObject* parent = nullptr);

    void setTree(std::shared_ptr<const NvtxTree> tree);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const NvtxTree> m_tree;
    std::vector<NvtxFlatRow> m_rows;
};

} // namespace nsw
