// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/jobs/background.h"
#include "core/models/columntablemodel.h"
#include "core/models/csvsnapshot.h"
#include "core/stats/kernelindex.h"

#include <memory>
#include <optional>
#include <vector>

namespace nsw {

/// Every execution of one kernel: start, duration, device, stream, launch shape, launching call. Sorting is done
/// here on raw values (a proxy over 100k+ rows would be slower); the view stays smooth because data() is O(1). More
/// than kSortInPlaceRows rows are sorted off the GUI thread (sortingChanged() brackets it); the rows keep their order
/// until the new one is ready.
class KernelInstanceModel : public ColumnTableModel, public CsvSnapshotSource
{
    Q_OBJECT
public:
    enum Column
    {
        StartColumn,
        DurationColumn,
        DeviceColumn,
        StreamColumn,
        ProcessColumn,
        GridColumn,
        BlockColumn,
        RegistersColumn,
        SharedMemoryColumn,
        CorrelationColumn,
        LaunchColumn,
        ColumnCount
    };

    explicit KernelInstanceModel(QObject* parent = nullptr);

    /// Durations from min to max, both included (ns).
    struct DurationRange
    {
        qint64 min = 0;
        qint64 max = 0;
        bool contains(qint64 duration) const { return duration >= min && duration <= max; }
        bool operator==(const DurationRange& o) const { return min == o.min && max == o.max; }
    };

    /// Shows @p kernelRows (no duration filter).
    void setInstances(ProfilePtr profile, std::vector<std::uint32_t> kernelRows);
    void clear();
    /// Lists only the executions whose duration is in @p range (bins brushed in the histogram); nullopt lists all.
    /// The current sort order stays.
    void setDurationFilter(std::optional<DurationRange> range);
    const std::optional<DurationRange>& durationFilter() const { return m_durationFilter; }
    /// Every execution given to setInstances(), whatever the duration filter, in the order given.
    const std::vector<std::uint32_t>& allKernelRows() const { return *m_allRows; }
    std::uint32_t kernelRowAt(int row) const { return (*m_rows)[std::size_t(row)]; }
    /// Executions listed (within the duration filter), fetched into the view or not.
    std::size_t listedCount() const { return m_rows->size(); }
    /// The row of @p kernelRow, fetched into the view first when it lies past the rows shown; -1 when not listed.
    int showRowOfKernel(std::uint32_t kernelRow);

    /// Rows are handed to views kRowsPerFetch at a time (more when scrolled to the end): a view's header keeps a
    /// section per row, and 12.9M executions given at once held the GUI thread ~130-180 ms (40M-kernel export).
    static constexpr std::size_t kRowsPerFetch = 2'000'000;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    const ProfilePtr& profile() const { return m_profile; }

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    std::unique_ptr<QAbstractItemModel> csvSnapshot() const override;
    static constexpr std::size_t kSortInPlaceRows = 100'000;
    /// The raw value of @p column for kernel row @p k (what SortRole and RawValueRole give).
    static QVariant rawValueOf(const Profile& profile, std::uint32_t k, int column);
    bool isSorting() const { return m_sortJob.isBusy(); }

Q_SIGNALS:
    /// A sort of many rows started (true) or its order was applied (false).
    void sortingChanged(bool sorting);

protected:
    int rows() const override;
    QVariant rowData(int row, int role) const override;

private:
    qint64 durationOf(std::uint32_t kernelRow) const;
    /// Sets m_rows from m_allRows and the duration filter; shows the first kRowsPerFetch.
    void filterRows();
    void showRowsUpTo(std::size_t row);
    /// Sorts m_rows by the current sort column: at once when few, else in the background.
    void sortRows();
    /// Takes @p rows (m_rows in a new order) as the order shown, keeping selections on their kernels.
    void applyOrder(std::vector<std::uint32_t> rows);
    /// Forgets a sort still running (its order no longer applies).
    void dropSort();

    /// Kernel rows, shared and never written to: the rows shown without a filter, a sort running in the background and
    /// a CSV export's snapshot hold the same list (a million executions copied on the GUI thread stalled it ~40 ms).
    using Rows = std::shared_ptr<const std::vector<std::uint32_t>>;
    static Rows noRows();

    ProfilePtr m_profile;
    Rows m_allRows = noRows();
    Rows m_rows = noRows(); ///< m_allRows within the duration filter, in the sort order
    std::size_t m_shown = 0; ///< the first rows of m_rows the model hands to views
    std::optional<DurationRange> m_durationFilter;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    JobSlot m_sortJob { this };
};

} // namespace nsw
