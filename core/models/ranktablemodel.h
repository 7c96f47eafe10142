// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/models/columntablemodel.h"
#include "core/ranks/ranksresult.h"

#include <memory>

namespace nsw {

/// A row per rank: where it ran (host, pid, GPU, export), its clock offset, iterations (median duration, compute and
/// bubble share), and its collectives: how many, how often it arrived last, and its wait for the others. Raw values
/// in RawValueRole (ns, %), the rank number in IdentityRole.
class RankTableModel : public ColumnTableModel
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

protected:
    int rows() const override { return m_result ? int(m_result->ranks.size()) : 0; }
    QVariant rowData(int row, int role) const override;

private:
    struct Medians
    {
        TimeNs iteration = 0;
        TimeNs compute = 0;
        double bubble = 0;
    };
    const RankRow& at(int row) const { return m_result->ranks[std::size_t(row)]; }
    const RankSummary& summaryAt(int row) const { return m_result->summaryOf(at(row)); }
    const Medians& mediansAt(int row) const { return m_medians[std::size_t(row)]; }

    std::shared_ptr<const RanksResult> m_result;
    std::vector<Medians> m_medians;
};

} // namespace nsw
