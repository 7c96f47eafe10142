// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/models/modelroles.h"
#include "core/models/treemodel.h"
#include "core/nvtx/nvtxtree.h"

#include <memory>

namespace nsw {

/// The NVTX tree (processes, threads, aggregated ranges, kernel leaves) with its numbers; SortRole gives raw values.
class NvtxTreeModel : public TreeModel<NvtxNode>
{
    Q_OBJECT
public:
    enum Column
    {
        RangeColumn,
        InstancesColumn,
        CpuColumn,
        GpuColumn,
        ProjectedColumn,
        KernelsColumn,
        GpuPercentColumn,
        ColumnCount
    };
    enum Role
    {
        HighlightRole = FirstCustomRole, ///< bool: the node contains the kernel selected elsewhere
        NodeKindRole, ///< int(NvtxNode::Kind)
    };

    explicit NvtxTreeModel(QObject* parent = nullptr);

    void setTree(std::shared_ptr<const NvtxTree> tree);
    void clear();
    const std::shared_ptr<const NvtxTree>& tree() const { return m_tree; }

    /// Marks nodes (e.g. those containing a kernel selected elsewhere); replaces the previous marks.
    void setHighlighted(const std::vector<std::int32_t>& nodes);
    bool isHighlighted(std::int32_t node) const;

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant rawValue(std::int32_t node, int column) const;
    QString toolTip(std::int32_t node) const;
    void emitRowChanged(std::int32_t node);

    std::shared_ptr<const NvtxTree> m_tree;
    std::vector<char> m_highlight;
    std::vector<std::int32_t> m_highlighted;
};

} // namespace nsw
