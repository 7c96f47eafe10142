// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/ranks/ranksresult.h"

#include <QAbstractTableModel>
#include <memory>

namespace nsw {

/// A row per rank: where it ran (host, pid, GPU, export), its clock offset, iterations (median duration, compute and
/// bubble share), and its collectives: how many, how often it arrived last, and its wait for the others. Raw values
/// in RawValueRole (ns, %), the rank number in IdentityRole.
class RankTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        RankColumn,
        HostColumn,
        PidColumn,
        GpuColumn,
        FileColumn,
        ClockOffsetColumn,
        IterationsColumn,
        MedianIterationColumn,
        MedianComputeColumn,
        BubbleColumn,
        CollectivesColumn,
        LastArrivalsColumn,
        LastSharesColumn,
        WaitColumn,
        WaitPerIterationColumn,
        ColumnCount
    };

    explicit RankTableModel(QObject* parent = nullptr);

    void setResult(std::shared_ptr<const RanksResult> result);
    const std::shared_ptr<const RanksResult>& result() const { return m_result; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Medians
    {
        TimeNs iteration = 0;
        TimeNs compute = 0;
        double bubble = 0;
    };
    QVariant rawValue(int row, int column) const;
    QVariant displayValue(int row, int column) const;

    std::shared_ptr<const RanksResult> m_result;
    std::vector<Medians> m_medians;
};

} // namespace nsw
