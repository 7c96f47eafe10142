// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/peakkernels.h"

#include <QAbstractTableModel>

namespace nsw {

/// The top-N NVLink peaks: rank, time on the session timeline, link, direction, GB/s, % of peak, bytes, kernels.
class NvlinkPeakModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        RankColumn,
        StartColumn,
        DurationColumn,
        LinkColumn,
        DirectionColumn,
        GbpsColumn,
        PercentColumn,
        BytesColumn,
        KernelsColumn,
        NcclColumn,
        ColumnCount
    };

    explicit NvlinkPeakModel(QObject* parent = nullptr);

    void setPeaks(std::vector<NvlinkPeak> peaks);
    const std::vector<NvlinkPeak>& peaks() const { return m_peaks; }
    const NvlinkPeak* peakAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant rawValue(const NvlinkPeak& p, int column) const;
    std::vector<NvlinkPeak> m_peaks;
};

} // namespace nsw
