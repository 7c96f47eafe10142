// SPDX-License-Identifier: GPL-3.0-or-later
#include "pane.h"

#include "core/session/workbench.h"

#include <QFileInfo>

namespace nsw {

Pane::Pane(Workbench* workbench, QWidget* parent)
    : QWidget(parent)
    , m_workbench(workbench)
{ }

QString Pane::exportBaseName() const
{
    QString base = paneId();
    if (ProfileSession* s = m_workbench->current())
        base += QLatin1Char('-') + QFileInfo(s->path()).completeBaseName();
    return base;
}

} // namespace nsw
