// SPDX-License-Identifier: GPL-3.0-or-later
#include "legendentries.h"

#include <qcustomplot.h>

namespace nsw {

void keepLegendInk(QCPLegend& legend)
{
    for (int i = 0; i < legend.itemCount(); ++i)
        if (QCPAbstractLegendItem* item = legend.item(i)) // a wrapped legend has empty cells
            item->setMargins(QMargins(0, 0, 0, 3));
}

} // namespace nsw
