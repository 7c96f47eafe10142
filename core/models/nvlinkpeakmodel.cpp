// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvlinkpeakmodel.h"

#include "core/models/modelroles.h"
#include "core/util/numberformat.h"
#include "core/util/timeformat.h"

#include <cmath>

namespace nsw {

namespace {
QVariant number(double v)
{
    return std::isnan(v) ? QVariant() : QVariant(v);
}
QString fixed(double v, int decimals)
{
    return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'f', decimals);
}
} // namespace

NvlinkPeakModel::NvlinkPeakModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void NvlinkPeakModel::setPeaks(std::vector<NvlinkPeak> peaks)
{
    beginResetModel();
    m_peaks = std::move(peaks);
    endResetModel();
}

const NvlinkPeak* NvlinkPeakModel::peakAt(int row) const
{
    return row >= 0 && std::size_t(row) < m_peaks.size() ? &m_peaks[std::size_t(row)] : nullptr;
}

int NvlinkPeakModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_peaks.size());
}

int NvlinkPeakModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NvlinkPeakModel::rawValue(const NvlinkPeak& p, int column) const
{
    switch (column) {
    case RankColumn:
        return p.rank;
    case StartColumn:
        return qint64(p.start);
    case DurationColumn:
        return qint64(p.end - p.start);
    case LinkColumn:
        return p.link;
    case DirectionColumn:
        return p.directionText();
    case GbpsColumn:
        return number(p.gbps);
    case PercentColumn:
        return number(p.percentOfPeak);
    case BytesColumn:
        return p.bytes >= 0 ? QVariant(p.bytes) : QVariant();
    case KernelsColumn:
        return qint64(p.kernels.size());
    case NcclColumn:
        return p.ncclKernels;
    }
    return {};
}

QVariant NvlinkPeakModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const NvlinkPeak& p = m_peaks[std::size_t(index.row())];
    const int column = index.column();
    if (role == SortRole || role == RawValueRole)
        return rawValue(p, column);
    if (role == IdentityRole)
        return index.row();
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue((column == DirectionColumn ? Qt::AlignCenter : Qt::AlignRight) | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == PercentColumn && std::isnan(p.percentOfPeak))
        return tr("Unknown GPU model: set its link bandwidth in Link peaks…");
    if (role == Qt::ToolTipRole && column == DirectionColumn && !p.merged.empty()) {
        const QString unit = p.unit == ThroughputUnit::GBps ? QStringLiteral("GB/s") : QStringLiteral("%");
        QStringList values {
            QStringLiteral("%1 %2 %3").arg(directionLabel(p.direction)).arg(p.value, 0, 'f', 3).arg(unit)
        };
        for (const PeakDirection& d : p.merged)
            values << QStringLiteral("%1 %2 %3").arg(directionLabel(d.direction)).arg(d.value, 0, 'f', 3).arg(unit);
        return tr("Both directions of this interval rank among the peaks; it is listed once with the values of the "
                  "highest: %1")
            .arg(values.join(QStringLiteral(", ")));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case StartColumn:
        return formatSeconds(p.start, 6);
    case DurationColumn:
        return formatDuration(p.end - p.start);
    case LinkColumn:
        return p.link == kAllLinks ? tr("all") : QString::number(p.link);
    case GbpsColumn:
        return fixed(p.gbps, 3);
    case PercentColumn:
        return fixed(p.percentOfPeak, 1);
    case BytesColumn:
        return p.bytes >= 0 ? formatBytes(p.bytes) : QStringLiteral("—");
    case KernelsColumn:
        return withThousandsSeparators(qint64(p.kernels.size()));
    case NcclColumn:
        return withThousandsSeparators(qint64(p.ncclKernels));
    default:
        return rawValue(p, column);
    }
}

QVariant NvlinkPeakModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != RawValueRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool raw = role == RawValueRole;
    switch (section) {
    case RankColumn:
        return tr("#");
    case StartColumn:
        return raw ? QStringLiteral("Start (ns)") : tr("Start");
    case DurationColumn:
        return raw ? QStringLiteral("Duration (ns)") : tr("Duration");
    case LinkColumn:
        return tr("Link");
    case DirectionColumn:
        return tr("Dir");
    case GbpsColumn:
        return raw ? QStringLiteral("Throughput (GB/s)") : tr("GB/s");
    case PercentColumn:
        return raw ? QStringLiteral("Percent of peak") : tr("% of peak");
    case BytesColumn:
        return raw ? QStringLiteral("Bytes") : tr("Bytes");
    case KernelsColumn:
        return tr("Kernels");
    case NcclColumn:
        return tr("NCCL");
    }
    return {};
}

} // namespace nsw
