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

} // namespace nsw
