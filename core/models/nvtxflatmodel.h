// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/models/columntablemodel.h"
#include "core/nvtx/nvtxexport.h"

#include <memory>

namespace nsw {

/// The NVTX tree flattened (parents before children, siblings by GPU time) with depth and path: what File → Export
/// and `nsys-workbench nvtx --format csv` write.
class NvtxFlatModel : public ColumnTableModel
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

protected:
    int rows() const override { return int(m_rows.size()); }

private:
    const NvtxNode& nodeAt(int row) const { return m_tree->nodes[std::size_t(m_rows[std::size_t(row)].node)]; }

    std::shared_ptr<const NvtxTree> m_tree;
    std::vector<NvtxFlatRow> m_rows;
};

} // namespace nsw
