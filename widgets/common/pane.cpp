// SPDX-License-Identifier: GPL-3.0-or-later
#include "pane.h"

#include "core/session/workbench.h"

#include <QFileInfo>

namespace nsw {

Pane::Pane(Workbench* workbench, QWidget* parent)
    : QWidget(parent)
    , m_workbench(workbench)
{ }

bool Pane::refreshWhenShown()
{
    m_refreshPending = !isVisible();
    if (!m_refreshPending)
        refresh();
    return !m_refreshPending;
}

void Pane::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_refreshPending) {
        m_refreshPending = false;
        refresh();
    }
}

QString Pane::exportBaseName() const
{
    QString base = paneId();
    if (ProfileSession* s = m_workbench->current())
        base += QLatin1Char('-') + QFileInfo(s->path()).completeBaseName();
    return base;
}

} // namespace nsw
