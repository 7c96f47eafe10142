// SPDX-License-Identifier: GPL-3.0-or-later
#include "legendentries.h"

#include <qcustomplot.h>

namespace nsw {

void keepLegendInk(QCPLegend& legend)
{
    for (int i = 0; i < legend.itemCount(); ++i)
        legend.item(i)->setMargins(QMargins(0, 0, 0, 3));
}

} // namespace nsw
