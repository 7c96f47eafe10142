// SPDX-License-Identifier: GPL-3.0-or-later
#include "reporttable.h"

namespace nsw {

int ReportTable::columnIndex(const QString& header) const
{
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (columns[i].header == header)
            return int(i);
    return -1;
}

std::size_t ReportTable::rowCount() const
{
    return lazyRow ? lazyRowCount : rows.size();
}

const std::vector<ReportValue>& ReportTable::rowAt(std::size_t i, std::vector<ReportValue>& buffer) const
{
    if (!lazyRow)
        return rows[i];
    lazyRow(i, buffer);
    return buffer;
}

} // namespace nsw
