// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>
#include <functional>
#include <variant>
#include <vector>

namespace nsw {

struct ReportColumn
{
    enum class Type
    {
        Integer,
        Real,
        Text,
        Address ///< an integer printed as nsys prints addresses: "0x7F54A000" (upper case), negative ones in decimal
    };
    QString header; ///< exactly as nsys prints it, e.g. "Total Time (ns)"
    Type type = Type::Integer;
    /// Reals: -1 prints Python's repr of the (already rounded) value, as nsys prints round(x, 1) results;
    /// >= 0 prints that many decimals, as nsys prints its converted ":mem_B" (MB) columns.
    int decimals = -1;
};

/// A cell: empty (NULL), integer, real (already rounded as the report defines) or text.
using ReportValue = std::variant<std::monostate, qint64, double, QString>;

/// One statistics report, in the shape `nsys stats` produces it; formatted by reportformat.h.
struct ReportTable
{
    QString name; ///< "cuda_gpu_kern_sum"
    QString title; ///< "CUDA GPU Kernel Summary"
    std::vector<ReportColumn> columns;
    std::vector<std::vector<ReportValue>> rows;
    /// Trace reports (millions of rows) make their cells on demand instead of holding them in `rows`: row i of
    /// lazyRowCount, written into the given vector. It reads the profile the report was computed from, which must
    /// outlive the table.
    std::size_t lazyRowCount = 0;
    std::function<void(std::size_t, std::vector<ReportValue>&)> lazyRow;
    QString skipped; ///< when not empty the report does not apply to this file; the message says why
    QString note; ///< how to read the rows when they are not exactly nsys's (shown beside the table, never in CSV)

    int columnIndex(const QString& header) const;
    /// rows.size(), or lazyRowCount for a lazy table.
    std::size_t rowCount() const;
    /// Row @p i's cells (from `rows` or made by lazyRow); @p buffer holds them for a lazy table.
    const std::vector<ReportValue>& rowAt(std::size_t i, std::vector<ReportValue>& buffer) const;
};

} // namespace nsw
