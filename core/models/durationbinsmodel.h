// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/models/columntablemodel.h"
#include "core/stats/durationhistogram.h"

namespace nsw {

/// The bins of a duration histogram as a table: what "Bins as CSV" writes (through writeModelCsv, raw values in ns).
class DurationBinsModel : public ColumnTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        LowerColumn,
        UpperColumn,
        CountColumn,
        ShareColumn,
        ColumnCount
    };

    explicit DurationBinsModel(QObject* parent = nullptr);
    void setHistogram(const DurationHistogram& histogram);

protected:
    int rows() const override { return int(m_bins.size()); }

private:
    const HistogramBin& at(int row) const { return m_bins[std::size_t(row)]; }

    std::vector<HistogramBin> m_bins;
    qint64 m_total = 0;
};

} // namespace nsw
