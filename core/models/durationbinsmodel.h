// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/stats/durationhistogram.h"

#include <QAbstractTableModel>

namespace nsw {

/// The bins of a duration histogram as a table: what "Bins as CSV" writes (through writeModelCsv, raw values in ns).
class DurationBinsModel : public QAbstractTableModel
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

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<HistogramBin> m_bins;
    qint64 m_total = 0;
};

} // namespace nsw
