// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/models/columntablemodel.h"
#include "core/nvlink/peakkernels.h"

#include <memory>

namespace nsw {

/// The kernels overlapping one NVLink peak, longest overlap first.
class NvlinkKernelModel : public ColumnTableModel
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

protected:
    int rows() const override { return int(m_kernels.size()); }
    QVariant rowData(int row, int role) const override;

private:
    std::uint32_t spanAt(int row) const { return m_kernels[std::size_t(row)].span; }
    const PeakKernel& at(int row) const { return m_kernels[std::size_t(row)]; }

    std::shared_ptr<const KernelSpans> m_spans;
    std::vector<PeakKernel> m_kernels;
};

} // namespace nsw
