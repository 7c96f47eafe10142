// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxtreemodel.h"

#include "core/nvtx/nvtxexport.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

namespace nsw {

NvtxTreeModel::NvtxTreeModel(QObject* parent)
    : TreeModel<NvtxNode>(parent)
{ }

void NvtxTreeModel::setTree(std::shared_ptr<const NvtxTree> tree)
{
    beginResetModel();
    m_tree = std::move(tree);
    setNodes(m_tree ? &m_tree->nodes : nullptr);
    m_highlight.assign(m_tree ? m_tree->nodes.size() : 0, 0);
    m_highlighted.clear();
    endResetModel();
}

void NvtxTreeModel::clear()
{
    setTree(nullptr);
}

void NvtxTreeModel::emitRowChanged(std::int32_t node)
{
    const QModelIndex first = indexOfNode(node, 0);
    if (first.isValid())
        Q_EMIT dataChanged(first, indexOfNode(node, ColumnCount - 1), { HighlightRole });
}

void NvtxTreeModel::setHighlighted(const std::vector<std::int32_t>& nodes)
{
    const std::vector<std::int32_t> previous = std::move(m_highlighted);
    m_highlighted.clear();
    for (const std::int32_t n : previous)
        m_highlight[std::size_t(n)] = 0;
    for (const std::int32_t n : nodes) {
        if (n > 0 && std::size_t(n) < m_highlight.size() && !m_highlight[std::size_t(n)]) {
            m_highlight[std::size_t(n)] = 1;
            m_highlighted.push_back(n);
        }
    }
    for (const std::int32_t n : previous)
        emitRowChanged(n);
    for (const std::int32_t n : m_highlighted)
        emitRowChanged(n);
}

bool NvtxTreeModel::isHighlighted(std::int32_t node) const
{
    return node > 0 && std::size_t(node) < m_highlight.size() && m_highlight[std::size_t(node)];
}

int NvtxTreeModel::columnCount(const QModelIndex& parent) const
{
    return parent.column() > 0 ? 0 : ColumnCount;
}

QVariant NvtxTreeModel::rawValue(std::int32_t n, int column) const
{
    const NvtxNode& nd = node(n);
    switch (column) {
    case RangeColumn:
        return m_tree->label(n);
    case InstancesColumn:
        return nd.instances;
    case CpuColumn:
        return qint64(nd.cpuTime);
    case GpuColumn:
        return qint64(nd.gpuTime);
    case ProjectedColumn:
        return qint64(nd.projectedSpan);
    case KernelsColumn:
        return nd.kernels;
    case GpuPercentColumn:
        return nvtxGpuPercent(*m_tree, n);
    }
    return {};
}

QString NvtxTreeModel::toolTip(std::int32_t n) const
{
    const NvtxNode& nd = node(n);
    QString tip = m_tree->label(n);
    if (nd.kind == NvtxNode::Kind::Range || nd.kind == NvtxNode::Kind::Kernel)
        tip = m_tree->path(n);
    if (nd.kind == NvtxNode::Kind::Kernel)
        return tip
            + tr("\n%1, %2 GPU time")
                  .arg(countOf(nd.instances, tr("execution"), tr("executions")), formatDuration(nd.gpuTime));
    tip += tr("\n%1 instances · CPU %2 · GPU %3 · projected span %4\n%5 kernels, %6 memory operations (%7)")
               .arg(nd.instances)
               .arg(formatDuration(nd.cpuTime), formatDuration(nd.gpuTime), formatDuration(nd.projectedSpan))
               .arg(nd.kernels)
               .arg(nd.memOps)
               .arg(formatDuration(nd.memOpTime));
    if (nd.unterminated)
        tip += tr("\n%1 instances have no end: ended at the last NVTX timestamp").arg(nd.unterminated);
    if (nd.crossThread)
        tip += tr("\n%1 instances ended on another thread").arg(nd.crossThread);
    return tip;
}

QVariant NvtxTreeModel::data(const QModelIndex& index, int role) const
{
    if (!m_tree || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const std::int32_t n = nodeOf(index);
    const NvtxNode& nd = node(n);
    const int column = index.column();
    const bool isKernel = nd.kind == NvtxNode::Kind::Kernel;
    switch (role) {
    case SortRole:
    case RawValueRole:
        return rawValue(n, column);
    case IdentityRole:
        return n;
    case NodeKindRole:
        return int(nd.kind);
    case HighlightRole:
        return isHighlighted(n);
    case KernelNameRole:
        return isKernel ? QVariant(m_tree->label(n)) : QVariant();
    case Qt::ToolTipRole:
        return toolTip(n);
    case Qt::TextAlignmentRole:
        return column == RangeColumn ? QVariant() : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::DisplayRole:
        switch (column) {
        case RangeColumn: {
            QString text = m_tree->label(n);
            if (nd.kind == NvtxNode::Kind::Range && m_tree->names[std::size_t(nd.name)].isEmpty())
                text += tr("(unnamed)");
            if (nd.kind == NvtxNode::Kind::Range && nd.unterminated)
                text += tr("  (%1 unterminated)").arg(nd.unterminated);
            if (nd.kind == NvtxNode::Kind::Range && nd.crossThread)
                text += tr("  (%1 ended on another thread)").arg(nd.crossThread);
            return text;
        }
        case InstancesColumn:
            return withThousandsSeparators(qint64(nd.instances));
        case CpuColumn:
            return isKernel ? QString() : formatDuration(nd.cpuTime);
        case GpuColumn:
            return formatDuration(nd.gpuTime);
        case ProjectedColumn:
            return isKernel ? QString() : formatDuration(nd.projectedSpan);
        case KernelsColumn:
            return withThousandsSeparators(qint64(nd.kernels));
        case GpuPercentColumn:
            return QString::number(nvtxGpuPercent(*m_tree, n), 'f', 1);
        }
        return {};
    }
    return {};
}

QVariant NvtxTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == RawValueRole) {
        static const char* const kRaw[] = { "Range", "Instances", "CPU Total (ns)", "GPU Total (ns)",
            "Projected Span (ns)", "Kernels", "GPU Time (%)" };
        return section >= 0 && section < ColumnCount ? QString::fromLatin1(kRaw[section]) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case InstancesColumn:
            return tr("Instances: how many times the range (or path) ran");
        case KernelsColumn:
            return tr("Kernels attributed to the range or its children");
        case CpuColumn:
            return tr("Sum of end - start over the instances (CPU time inside the range)");
        case GpuColumn:
            return tr("Sum of the durations of the kernels launched inside the range or its children");
        case ProjectedColumn:
            return tr("Sum over instances of first GPU start to last GPU end of their kernels and memory "
                      "operations, idle gaps included (nsys's projected duration)");
        case GpuPercentColumn:
            return tr("% of GPU time: GPU time as a share of all kernel time in the profile");
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RangeColumn:
        return tr("Range");
    // Short headers leave the width to the range names; tooltips give the full meaning.
    case InstancesColumn:
        return tr("Count");
    case CpuColumn:
        return tr("CPU");
    case GpuColumn:
        return tr("GPU");
    case ProjectedColumn:
        return tr("GPU span");
    case KernelsColumn:
        return tr("Kernels");
    case GpuPercentColumn:
        return tr("GPU %");
    }
    return {};
}

} // namespace nsw
