// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/models/columntablemodel.h"
#include "core/nvlink/peakkernels.h"

namespace nsw {

/// The top-N NVLink peaks: rank, time on the session timeline, link, direction, GB/s, % of peak, bytes, kernels.
class NvlinkPeakModel : public ColumnTableModel
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

protected:
    int rows() const override { return int(m_peaks.size()); }
    QVariant rowData(int row, int role) const override;

private:
    const NvlinkPeak& at(int row) const { return m_peaks[std::size_t(row)]; }
    /// Why a direction is listed once though both rank among the peaks.
    static QString mergedToolTip(const NvlinkPeak& p);

    std::vector<NvlinkPeak> m_peaks;
};

} // namespace nsw
