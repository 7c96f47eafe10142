// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/stats/kernelindex.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace nsw {

/// Every execution of one kernel: start, duration, device, stream, launch shape, launching call. Sorting is done
/// here on raw values (a proxy over 100k+ rows would be slower); the view stays smooth because data() is O(1).
class KernelInstanceModel : public QAbstractTableModel
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

    void setInstances(ProfilePtr profile, std::vector<std::uint32_t> kernelRows);
    void clear();
    std::uint32_t kernelRowAt(int row) const { return m_rows[std::size_t(row)]; }
    const ProfilePtr& profile() const { return m_profile; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    QVariant rawValue(std::uint32_t kernelRow, int column) const;

    ProfilePtr m_profile;
    std::vector<std::uint32_t> m_rows;
};

} // namespace nsw
