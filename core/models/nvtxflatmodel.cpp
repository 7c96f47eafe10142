// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxflatmodel.h"

#include "core/models/modelroles.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

namespace nsw {

NvtxFlatModel::NvtxFlatModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void NvtxFlatModel::setTree(std::shared_ptr<const NvtxTree> tree)
{
    beginResetModel();
    m_tree = std::move(tree);
    m_rows = m_tree ? nvtxPreorder(*m_tree) : std::vector<NvtxFlatRow> {};
    endResetModel();
}

int NvtxFlatModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int NvtxFlatModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NvtxFlatModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const NvtxFlatRow& r = m_rows[std::size_t(index.row())];
    const NvtxNode& n = m_tree->nodes[std::size_t(r.node)];
    const bool raw = role == SortRole || role == RawValueRole;
    if (!raw && role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case DepthColumn:
        return raw ? QVariant(r.depth) : QVariant(QString::number(r.depth));
    case PathColumn:
        return n.kind == NvtxNode::Kind::Range || n.kind == NvtxNode::Kind::Kernel ? m_tree->outputPath(r.node)
                                                                                   : QString();
    case KindColumn:
        return nvtxKindName(n.kind);
    case RangeColumn:
        return m_tree->outputLabel(r.node);
    case InstancesColumn:
        return raw ? QVariant(n.instances) : QVariant(withThousandsSeparators(qint64(n.instances)));
    case CpuColumn:
        return raw ? QVariant(qint64(n.cpuTime)) : QVariant(formatDuration(n.cpuTime));
    case GpuColumn:
        return raw ? QVariant(qint64(n.gpuTime)) : QVariant(formatDuration(n.gpuTime));
    case ProjectedColumn:
        return raw ? QVariant(qint64(n.projectedSpan)) : QVariant(formatDuration(n.projectedSpan));
    case KernelsColumn:
        return raw ? QVariant(n.kernels) : QVariant(withThousandsSeparators(qint64(n.kernels)));
    case MemOpsColumn:
        return raw ? QVariant(n.memOps) : QVariant(withThousandsSeparators(qint64(n.memOps)));
    case GpuPercentColumn: {
        const double pct = nvtxGpuPercent(*m_tree, r.node);
        return raw ? QVariant(pct) : QVariant(QString::number(pct, 'f', 1));
    }
    }
    return {};
}

QVariant NvtxFlatModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == RawValueRole) {
        static const char* const kRaw[] = { "depth", "path", "kind", "range", "instances", "cpu_total_ns",
            "gpu_total_ns", "projected_span_ns", "kernels", "mem_ops", "gpu_pct" };
        return QString::fromLatin1(kRaw[section]);
    }
    if (role != Qt::DisplayRole)
        return {};
    static const char* const kDisplay[] = { "Depth", "Path", "Kind", "Range", "Instances", "CPU total", "GPU total",
        "Projected span", "Kernels", "Memory ops", "% of GPU time" };
    return tr(kDisplay[section]);
}

} // namespace nsw
