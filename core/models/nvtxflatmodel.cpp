// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvtxflatmodel.h"

namespace nsw {

NvtxFlatModel::NvtxFlatModel(QObject* parent)
    : ColumnTableModel(parent)
{
    // The raw headers are the column names of `nvtx --format csv`.
    setColumns({
        { .header = tr("Depth"),
            .rawHeader = QStringLiteral("depth"),
            .raw = [this](int r) { return m_rows[std::size_t(r)].depth; },
            .text = [](int, const QVariant& raw) { return raw.toString(); },
            .alignment = {} },
        { .header = tr("Path"),
            .rawHeader = QStringLiteral("path"),
            .raw =
                [this](int r) {
                    const NvtxNode::Kind kind = nodeAt(r).kind;
                    return kind == NvtxNode::Kind::Range || kind == NvtxNode::Kind::Kernel
                        ? m_tree->outputPath(m_rows[std::size_t(r)].node)
                        : QString();
                },
            .alignment = {} },
        { .header = tr("Kind"),
            .rawHeader = QStringLiteral("kind"),
            .raw = [this](int r) { return nvtxKindName(nodeAt(r).kind); },
            .alignment = {} },
        { .header = tr("Range"),
            .rawHeader = QStringLiteral("range"),
            .raw = [this](int r) { return m_tree->outputLabel(m_rows[std::size_t(r)].node); },
            .alignment = {} },
        { .header = tr("Instances"),
            .rawHeader = QStringLiteral("instances"),
            .raw = [this](int r) { return nodeAt(r).instances; },
            .text = countText(),
            .alignment = {} },
        { .header = tr("CPU total"),
            .rawHeader = QStringLiteral("cpu_total_ns"),
            .raw = [this](int r) { return qint64(nodeAt(r).cpuTime); },
            .text = durationText(),
            .alignment = {} },
        { .header = tr("GPU total"),
            .rawHeader = QStringLiteral("gpu_total_ns"),
            .raw = [this](int r) { return qint64(nodeAt(r).gpuTime); },
            .text = durationText(),
            .alignment = {} },
        { .header = tr("Projected span"),
            .rawHeader = QStringLiteral("projected_span_ns"),
            .raw = [this](int r) { return qint64(nodeAt(r).projectedSpan); },
            .text = durationText(),
            .alignment = {} },
        { .header = tr("Kernels"),
            .rawHeader = QStringLiteral("kernels"),
            .raw = [this](int r) { return nodeAt(r).kernels; },
            .text = countText(),
            .alignment = {} },
        { .header = tr("Memory ops"),
            .rawHeader = QStringLiteral("mem_ops"),
            .raw = [this](int r) { return nodeAt(r).memOps; },
            .text = countText(),
            .alignment = {} },
        { .header = tr("% of GPU time"),
            .rawHeader = QStringLiteral("gpu_pct"),
            .raw = [this](int r) { return nvtxGpuPercent(*m_tree, m_rows[std::size_t(r)].node); },
            .text = fixedText(1),
            .alignment = {} },
    });
}

void NvtxFlatModel::setTree(std::shared_ptr<const NvtxTree> tree)
{
    beginResetModel();
    m_tree = std::move(tree);
    m_rows = m_tree ? nvtxPreorder(*m_tree) : std::vector<NvtxFlatRow> {};
    endResetModel();
}

} // namespace nsw
