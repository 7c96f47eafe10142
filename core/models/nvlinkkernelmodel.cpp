// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkkernelmodel.h"

#include "core/models/modelroles.h"

namespace nsw {

NvlinkKernelModel::NvlinkKernelModel(QObject* parent)
    : ColumnTableModel(parent)
{
    setColumns({
        { .header = tr("Kernel"), .raw = [this](int r) { return nameAt(r); }, .alignment = kLeft },
        { .header = tr("Start"),
            .rawHeader = QStringLiteral("Start (ns)"),
            .raw = [this](int r) { return qint64(m_spans->start[spanAt(r)]); },
            .text = secondsText(9) },
        { .header = tr("Duration"),
            .rawHeader = QStringLiteral("Duration (ns)"),
            .raw = [this](int r) { return qint64(m_spans->end[spanAt(r)] - m_spans->start[spanAt(r)]); },
            .text = durationText() },
        { .header = tr("Stream"), .raw = [this](int r) { return m_spans->stream[spanAt(r)]; } },
        { .header = tr("Overlap"),
            .rawHeader = QStringLiteral("Overlap (ns)"),
            .raw = [this](int r) { return qint64(at(r).overlapNs); },
            .text = durationText() },
        { .header = tr("Overlap %"),
            .rawHeader = QStringLiteral("Overlap (% of interval)"),
            .raw = [this](int r) { return at(r).overlapPct; },
            .text = fixedText(1) },
        { .header = tr("NCCL"),
            .raw = [this](int r) { return at(r).nccl; },
            .text = [](int, const QVariant& raw) { return raw.toBool() ? tr("NCCL") : QString(); } },
    });
}

void NvlinkKernelModel::setKernels(std::shared_ptr<const KernelSpans> spans, std::vector<PeakKernel> kernels)
{
    beginResetModel();
    m_spans = std::move(spans);
    m_kernels = m_spans ? std::move(kernels) : std::vector<PeakKernel>();
    endResetModel();
}

void NvlinkKernelModel::clear()
{
    setKernels(nullptr, {});
}

std::uint32_t NvlinkKernelModel::kernelRowAt(int row) const
{
    return m_spans->row[spanAt(row)];
}

QString NvlinkKernelModel::nameAt(int row) const
{
    return m_spans->nameOf(spanAt(row));
}

QVariant NvlinkKernelModel::rowData(int row, int role) const
{
    if (role == KernelNameRole)
        return nameAt(row);
    if (role == IdentityRole)
        return kernelRowAt(row);
    return {};
}

} // namespace nsw
