// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractItemModel>
#include <cstdint>
#include <vector>

namespace nsw {

/// An item model over a tree of node structs kept in one vector (hotspot-style): node 0 is the invisible root,
/// every node has `parent` (index), `row` (its position among the parent's children) and `children` (indexes: a
/// vector or a span).
/// Model indexes carry the node index as internalId, so index()/parent() are O(1) and nothing is copied. Subclasses
/// point it at their nodes with setNodes() between beginResetModel() and endResetModel(), and implement data().
template <typename Node> class TreeModel : public QAbstractItemModel
{
public:
    using QAbstractItemModel::QAbstractItemModel;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override
    {
        if (!m_nodes || row < 0 || column < 0 || column >= columnCount(parent))
            return {};
        const auto& children = node(nodeOf(parent)).children; // a vector or a span
        if (std::size_t(row) >= children.size())
            return {};
        return createIndex(row, column, quintptr(children[std::size_t(row)]));
    }

    QModelIndex parent(const QModelIndex& child) const override
    {
        if (!m_nodes || !child.isValid())
            return {};
        const std::int32_t p = node(nodeOf(child)).parent;
        if (p <= 0)
            return {};
        return createIndex(node(p).row, 0, quintptr(p));
    }

    int rowCount(const QModelIndex& parent = {}) const override
    {
        if (!m_nodes || m_nodes->empty() || parent.column() > 0)
            return 0;
        return int(node(nodeOf(parent)).children.size());
    }

    bool hasChildren(const QModelIndex& parent = {}) const override { return rowCount(parent) > 0; }

    /// The node an index refers to; 0 (the root) for an invalid index.
    std::int32_t nodeOf(const QModelIndex& index) const
    {
        return index.isValid() ? std::int32_t(index.internalId()) : 0;
    }

    /// The model index of a node (invalid for the root).
    QModelIndex indexOfNode(std::int32_t n, int column = 0) const
    {
        if (!m_nodes || n <= 0 || std::size_t(n) >= m_nodes->size())
            return {};
        return createIndex(node(n).row, column, quintptr(n));
    }

protected:
    const Node& node(std::int32_t n) const { return (*m_nodes)[std::size_t(n)]; }
    bool hasNodes() const { return m_nodes && !m_nodes->empty(); }
    /// Call inside a model reset. The vector must outlive its use by the model.
    void setNodes(const std::vector<Node>* nodes) { m_nodes = nodes; }

private:
    const std::vector<Node>* m_nodes = nullptr;
};

} // namespace nsw
