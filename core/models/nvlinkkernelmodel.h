// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/nvlink/peakkernels.h"

#include <QAbstractTableModel>
#include <memory>

namespace nsw {

/// The kernels overlapping one NVLink peak, longest overlap first.
class NvlinkKernelModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        StartColumn,
        DurationColumn,
        StreamColumn,
        OverlapColumn,
        OverlapPercentColumn,
        NcclColumn,
        ColumnCount
    };

    explicit NvlinkKernelModel(QObject* parent = nullptr);

    void setKernels(std::shared_ptr<const KernelSpans> spans, std::vector<PeakKernel> kernels);
    void clear();
    /// Profile::kernels row of a model row.
    std::uint32_t kernelRowAt(int row) const;
    QString nameAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant rawValue(const PeakKernel& k, int column) const;
    std::shared_ptr<const KernelSpans> m_spans;
    std::vector<PeakKernel> m_kernels;
};

} // namespace nsw
