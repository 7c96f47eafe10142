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
ColumnTableModel::Text fixedOrDash(int decimals)
{
    return [decimals](int, const QVariant& raw) {
        return raw.isValid() ? QString::number(raw.toDouble(), 'f', decimals) : QStringLiteral("—");
    };
}
} // namespace

NvlinkPeakModel::NvlinkPeakModel(QObject* parent)
    : ColumnTableModel(parent)
{
    setColumns({
        { .header = tr("#"), .raw = [this](int r) { return at(r).rank; } },
        { .header = tr("Start"),
            .rawHeader = QStringLiteral("Start (ns)"),
            .raw = [this](int r) { return qint64(at(r).start); },
            .text = secondsText(6) },
        { .header = tr("Duration"),
            .rawHeader = QStringLiteral("Duration (ns)"),
            .raw = [this](int r) { return qint64(at(r).end - at(r).start); },
            .text = durationText() },
        { .header = tr("Link"),
            .raw = [this](int r) { return at(r).link; },
            .text = [](int, const QVariant& raw) { return raw.toInt() == kAllLinks ? tr("all") : raw.toString(); } },
        { .header = tr("Dir"),
            .raw = [this](int r) { return at(r).directionText(); },
            .toolTip = [this](int r) { return at(r).merged.empty() ? QVariant() : mergedToolTip(at(r)); },
            .alignment = Qt::AlignCenter | Qt::AlignVCenter },
        { .header = tr("GB/s"),
            .rawHeader = QStringLiteral("Throughput (GB/s)"),
            .raw = [this](int r) { return number(at(r).gbps); },
            .text = fixedOrDash(3) },
        { .header = tr("% of peak"),
            .rawHeader = QStringLiteral("Percent of peak"),
            .raw = [this](int r) { return number(at(r).percentOfPeak); },
            .text = fixedOrDash(1),
            .toolTip =
                [this](int r) {
                    return std::isnan(at(r).percentOfPeak)
                        ? tr("Unknown GPU model: set its link bandwidth in Link peaks…")
                        : QVariant();
                } },
        { .header = tr("Bytes"),
            .rawHeader = QStringLiteral("Bytes"),
            .raw = [this](int r) { return at(r).bytes >= 0 ? QVariant(at(r).bytes) : QVariant(); },
            .text =
                [](int, const QVariant& raw) {
                    return raw.isValid() ? formatBytes(raw.toLongLong()) : QStringLiteral("—");
                } },
        { .header = tr("Kernels"), .raw = [this](int r) { return qint64(at(r).kernels.size()); }, .text = countText() },
        { .header = tr("NCCL"), .raw = [this](int r) { return at(r).ncclKernels; }, .text = countText() },
    });
}

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

QVariant NvlinkPeakModel::rowData(int row, int role) const
{
    return role == IdentityRole ? QVariant(row) : QVariant();
}

QString NvlinkPeakModel::mergedToolTip(const NvlinkPeak& p)
{
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

} // namespace nsw
