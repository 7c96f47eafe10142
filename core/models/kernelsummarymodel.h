// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/models/columntablemodel.h"
#include "core/stats/kernelindex.h"

#include <memory>
#include <vector>

namespace nsw {

/// One row per kernel name (or name and device): nsys's cuda_gpu_kern_sum columns plus p90/p99 and the duration
/// groups of multimodal kernels.
class KernelSummaryModel : public ColumnTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        TimePercentColumn,
        TotalColumn,
        InstancesColumn,
        AvgColumn,
        MedColumn,
        MinColumn,
        MaxColumn,
        StdDevColumn,
        P90Column,
        P99Column,
        ModesColumn, ///< empty for one group of durations; "2 groups: 141 µs · 7.08 ms" for a multimodal kernel
        DeviceColumn,
        ColumnCount
    };
    static constexpr int InitialSortColumn = TotalColumn;

    explicit KernelSummaryModel(QObject* parent = nullptr);

    void setResults(std::shared_ptr<const KernelIndex> index, std::vector<KernelGroupStats> rows);
    void clear();
    const KernelGroupStats* statsAt(int row) const;
    qint64 totalTime() const { return m_totalTime; }
    QString nameAt(int row) const;

    /// "2 groups: 141 µs · 7.08 ms" (the modes' medians), or empty for fewer than two.
    static QString modesText(const std::vector<DurationMode>& modes);
    /// One line per group: its executions and median, its duration range.
    static QString modesToolTip(const std::vector<DurationMode>& modes);

protected:
    int rows() const override { return int(m_rows.size()); }
    QVariant rowData(int row, int role) const override;

private:
    const DurationSummary& statsOf(int row) const { return m_rows[std::size_t(row)].stats; }

    std::shared_ptr<const KernelIndex> m_index;
    std::vector<KernelGroupStats> m_rows;
    qint64 m_totalTime = 0;
};

} // namespace nsw
