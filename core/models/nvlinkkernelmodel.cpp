// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkkernelmodel.h"

#include "core/models/modelroles.h"
#include "core/util/timeformat.h"

namespace nsw {

NvlinkKernelModel::NvlinkKernelModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

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
    return m_spans->row[m_kernels[std::size_t(row)].span];
}

QString NvlinkKernelModel::nameAt(int row) const
{
    return m_spans->nameOf(m_kernels[std::size_t(row)].span);
}

int NvlinkKernelModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_kernels.size());
}

int NvlinkKernelModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NvlinkKernelModel::rawValue(const PeakKernel& k, int column) const
{
    const KernelSpans& s = *m_spans;
    switch (column) {
    case NameColumn:
        return s.nameOf(k.span);
    case StartColumn:
        return qint64(s.start[k.span]);
    case DurationColumn:
        return qint64(s.end[k.span] - s.start[k.span]);
    case StreamColumn:
        return s.stream[k.span];
    case OverlapColumn:
        return qint64(k.overlapNs);
    case OverlapPercentColumn:
        return k.overlapPct;
    case NcclColumn:
        return k.nccl;
    }
    return {};
}

QVariant NvlinkKernelModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const PeakKernel& k = m_kernels[std::size_t(index.row())];
    const int column = index.column();
    if (role == SortRole || role == RawValueRole)
        return rawValue(k, column);
    if (role == KernelNameRole)
        return m_spans->nameOf(k.span);
    if (role == IdentityRole)
        return m_spans->row[k.span];
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue((column == NameColumn ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case StartColumn:
        return formatSeconds(m_spans->start[k.span], 9);
    case DurationColumn:
        return formatDuration(m_spans->end[k.span] - m_spans->start[k.span]);
    case OverlapColumn:
        return formatDuration(k.overlapNs);
    case OverlapPercentColumn:
        return QString::number(k.overlapPct, 'f', 1);
    case NcclColumn:
        return k.nccl ? tr("NCCL") : QString();
    default:
        return rawValue(k, column);
    }
}

QVariant NvlinkKernelModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != RawValueRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool raw = role == RawValueRole;
    switch (section) {
    case NameColumn:
        return tr("Kernel");
    case StartColumn:
        return raw ? QStringLiteral("Start (ns)") : tr("Start");
    case DurationColumn:
        return raw ? QStringLiteral("Duration (ns)") : tr("Duration");
    case StreamColumn:
        return tr("Stream");
    case OverlapColumn:
        return raw ? QStringLiteral("Overlap (ns)") : tr("Overlap");
    case OverlapPercentColumn:
        return raw ? QStringLiteral("Overlap (% of interval)") : tr("Overlap %");
    case NcclColumn:
        return tr("NCCL");
    }
    return {};
}

} // namespace nsw
